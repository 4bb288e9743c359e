/*
 * opt_validate: the checks that need more than one option (see
 * opt_job_validate in opt.h).  Each option's own value was checked when it
 * was set; what is left is how they fit together, plus fio's fix-ups
 * (bsrange defaults to bs, batch sizes clamp to iodepth, ...).
 */
#include "parse/opt.h"
#include "log/iolog.h"	/* iolog_scan */
#include "parse/opt_compat.h"	/* opt_verify_validate */
#include "io/latency_target.h"	/* lat_target_validate */
#include "io/zone_units.h"	/* fio's "Nz" values to bytes */

#include <errno.h>	/* EINVAL, ENOMEM */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* free */
#include <string.h>	/* strdup */
#include "steady/job_steady.h"	/* job_steady_cfg: the steady-state rules must build */
#include "io/engine.h"	/* engine_find: an engine's own checks, offload's timed reap */

/* bs, bsrange and bssplit, per direction. */
static int validate_bs(struct job *j, struct err *e)
{
	unsigned d, i, sum;

	for (d = 0; d < DDIR_NR; d++) {
		if (!j->bs[d])
			return job_err(e, j, "bs for %s is 0", ddir_name(d));
		if (!j->bs_min[d] && !j->bs_max[d])
			j->bs_min[d] = j->bs_max[d] = j->bs[d];
		if (!j->bs_min[d] || j->bs_min[d] > j->bs_max[d])
			return job_err(e, j, "bsrange for %s is %llu-%llu", ddir_name(d),
				       (unsigned long long)j->bs_min[d], (unsigned long long)j->bs_max[d]);
		for (i = 0, sum = 0; i < j->bssplit_nr[d]; i++)
			sum += j->bssplit[d][i].perc;
		if (j->bssplit_nr[d] && sum != 100)
			return job_err(e, j, "bssplit weights for %s add up to %u%%", ddir_name(d), sum);
		if (j->rate[d] && j->rate_iops[d])
			return job_err(e, j, "rate and rate_iops are both set for %s", ddir_name(d));
	}
	return 0;
}

static int validate_depth(struct job *j, struct err *e)
{
	if (j->iodepth < 1 || j->iodepth > 65536)
		return job_err(e, j, "iodepth %u is outside 1..65536", j->iodepth);
	/* fio clamps these to the depth rather than refusing */
	if (j->iodepth_batch_submit > j->iodepth)
		j->iodepth_batch_submit = j->iodepth;
	if (j->iodepth_low > j->iodepth)
		j->iodepth_low = j->iodepth;
	if (j->iodepth_batch_complete_max > j->iodepth)
		j->iodepth_batch_complete_max = j->iodepth;
	if (j->iodepth_batch_complete_min > j->iodepth)
		j->iodepth_batch_complete_min = j->iodepth;
	if (j->iodepth_batch_complete_max &&
	    j->iodepth_batch_complete_min > j->iodepth_batch_complete_max)
		return job_err(e, j, "iodepth_batch_complete_min %u is above iodepth_batch_complete_max %u",
			       j->iodepth_batch_complete_min, j->iodepth_batch_complete_max);
	return 0;
}

static int validate_reporting(struct job *j, struct err *e)
{
	unsigned i;

	if (j->percentile_nr > JOB_MAX_PERCENTILES)
		return job_err(e, j, "%u percentiles, at most %d", j->percentile_nr, JOB_MAX_PERCENTILES);
	for (i = 0; i < j->percentile_nr; i++)
		if (!(j->percentile_list[i] > 0 && j->percentile_list[i] <= 100))
			return job_err(e, j, "percentile %g is outside (0,100]", j->percentile_list[i]);
	if (j->rwmixread > 100)
		return job_err(e, j, "rwmixread %u is above 100", j->rwmixread);
	if (j->kb_base != 1024 && j->kb_base != 1000)
		return job_err(e, j, "kb_base %d is neither 1024 nor 1000", j->kb_base);
	/* fio: a steady-state window without ss= uses the default criterion */
	if (j->ss_dur_us && j->ss_metric == SS_NONE)
		j->ss_metric = SS_IOPS_SLOPE;
	if (j->ss_metric != SS_NONE && j->ss_limit < 0)
		return job_err(e, j, "steadystate limit %g is negative", j->ss_limit);
	return 0;
}

/*
 * The stop and reporting rules must be buildable now, not fail in a worker:
 * snia_round a multiple of the interval, fio's rounds whole seconds,
 * steady_report=fio only with ss=.  Two stop rules are refused: one would
 * silently never apply.
 */
static int validate_steady(struct job *j, struct err *e)
{
	struct steady_cfg c;
	int ret;

	if (j->snia_stop && job_steady_has_fio(j))
		return job_err(e, j, "snia_stop=1 and fio's ss= (steadystate_duration) are both stop "
			       "rules; keep one");
	ret = job_steady_cfg(j, 1, &c, e);
	return ret ? ret : job_steady_cfg(j, 0, &c, e);
}

/* A write_*_log given bare ("" after parsing) logs under the job's name. */
static int validate_logs(struct job *j, struct err *e)
{
	char **logs[] = { &j->write_bw_log, &j->write_iops_log, &j->write_lat_log,
			  &j->write_hist_log };
	size_t i;
	char *s;

	if (j->log_store_compressed && j->write_hist_log)
		return job_err(e, j, "log_store_compressed with write_hist_log is not supported "
			       "(fio 3.33 writes an empty .fz for the histogram log)");
	if (j->log_store_compressed && j->log_max_value == 2)
		return job_err(e, j, "log_store_compressed with log_window_value=both is not "
			       "supported (fio 3.33's compressed samples hold one value)");
	for (i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		if (!*logs[i] || **logs[i])
			continue;
		s = strdup(j->name);
		if (!s)
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		free(*logs[i]);
		*logs[i] = s;
	}
	return 0;
}

/*
 * Offsets and sizes that can only fail once files exist, refused now so that
 * --parse-only catches them and a real run creates nothing: the last clone's
 * offset (offset + (numjobs-1) x offset_increment) must neither wrap past 2^64
 * nor, with size, reach 2^63 (the largest file offset is 2^63-1); and a size
 * smaller than the block size leaves no room for one I/O.
 */
static int validate_offsets(const struct job *j, struct err *e)
{
	const uint64_t limit = 1ull << 63;
	uint64_t last, end, need = 0, len;
	unsigned d, dirs = 0;

	if (__builtin_mul_overflow(j->offset_increment, (uint64_t)(j->numjobs - 1), &last) ||
	    __builtin_add_overflow(last, j->offset, &last))
		return job_err(e, j, "offset %llu + %u x offset_increment %llu overflows 64 bits",
			       (unsigned long long)j->offset, j->numjobs - 1,
			       (unsigned long long)j->offset_increment);
	if (last >= limit)
		return job_err(e, j, "offset %llu%s is at or above 2^63, the largest file offset",
			       (unsigned long long)last, j->numjobs > 1 ? " (of the last clone)" : "");
	if (j->size && !j->size_pct && (__builtin_add_overflow(last, j->size, &end) || end > limit))
		return job_err(e, j, "offset %llu + size %llu reaches past 2^63, the largest file offset",
			       (unsigned long long)last, (unsigned long long)j->size);
	if (!j->size || j->size_pct || j->filesize_max)
		return 0;
	if (j->rw & RW_TRIMWRITE)
		dirs = (1u << DDIR_TRIM) | (1u << DDIR_WRITE);
	dirs |= (j->rw & RW_READ ? 1u << DDIR_READ : 0) | (j->rw & RW_WRITE ? 1u << DDIR_WRITE : 0) |
		(j->rw & RW_TRIM ? 1u << DDIR_TRIM : 0);
	for (d = 0; d < DDIR_NR; d++)
		if ((dirs & (1u << d)) && j->bs_min[d] > need)
			need = j->bs_min[d];
	len = j->size / j->nrfiles;
	if (len < need)
		return job_err(e, j, "size %llu%s is smaller than bs=%llu: no room for one I/O",
			       (unsigned long long)len, j->nrfiles > 1 ? " per file" : "",
			       (unsigned long long)need);
	return 0;
}

/*
 * fio's zone units ("size=4z"): in bytes now when the zone size is given
 * (zonesize=), else run.c asks the zoned device.  fio reads them under
 * zonemode=none as 0, the whole file: refused rather than misread.
 */
static int validate_zone_units(struct job *j, struct err *e)
{
	int k = zone_units_first(j);

	if (k < 0)
		return 0;
	if (j->zonemode == JOB_ZONE_NONE)
		return job_err(e, j, "%s=%uz: zone units need zonemode=zbd or zonemode=strided "
			       "(fio reads them as 0 without)", zone_units_name((unsigned)k),
			       j->zunits[k]);
	return j->zonesize ? zone_units_apply(j, j->zonesize, e) : 0;
}

int opt_job_validate(struct job *j, struct err *e)
{
	char where[JOB_NAME_MAX + sizeof(j->origin) + 16];
	int ret;

	if (!j->ioengine)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	snprintf(where, sizeof(where), "job '%s'%s%s", j->name, j->origin[0] ? ", " : "", j->origin);
	ret = opt_engine_check(j->ioengine, where, e);
	if (!ret)
		ret = opt_engine_owned_check(j, e);
	if (!ret)
		opt_engine_drop_inherited(j);
	if (!ret) {
		const struct engine_ops *ops = engine_find(j->ioengine);

		if (ops && ops->validate)
			ret = ops->validate(j, e);
	}
	/*
	 * fio 3.33 warns "time_based requires a runtime/timeout setting" and runs
	 * the job as if time_based were not set (e4defrag2.fio's
	 * e4defrag-fuzzer-4k-bis): do the same rather than run forever.
	 */
	if (j->time_based && !j->runtime_us)
		j->time_based = 0;
	/* read_iolog: the log's directions are the job's, as fio takes them */
	if (!ret && j->read_iolog) {
		unsigned dirs;

		ret = iolog_scan(j->read_iolog, &dirs, &j->read_iolog_max_len, e);
		if (!ret && dirs)
			j->rw = (dirs & (1u << DDIR_READ) ? RW_READ : 0) |
				(dirs & (1u << DDIR_WRITE) ? RW_WRITE : 0) |
				(dirs & (1u << DDIR_TRIM) ? RW_TRIM : 0);
	}
	if (!ret)
		ret = opt_verify_validate(j, e);
	if (!ret)
		ret = opt_think_validate(j, e);
	if (!ret)
		ret = lat_target_validate(j, e);
	if (!ret)
		ret = validate_zone_units(j, e);
	/* fio: it "only makes sense with sequential write" (or a read job) */
	if (!ret && j->fill_device && job_writes(j) && j->rw != RW_WRITE)
		ret = job_err(e, j, "fill_device needs rw=write (sequential) or a read job");
	if (!ret && j->dedupe_mode_ws && j->dedupe_percentage && (!j->size || j->size_pct))
		ret = job_err(e, j, "dedupe_mode=working_set needs size= in bytes (the set is a "
			      "share of it)");
	/*
	 * fio 3.33 refuses both (zonesize alone too: its zonemode defaults to
	 * none); the messages quote fio's, which its t/zbd greps for.
	 */
	if (!ret && j->zonemode == JOB_ZONE_STRIDED && !j->zonesize)
		ret = job_err(e, j, "zonemode=strided needs zonesize > 0 (fio: --zonesize must be "
			      "specified when using --zonemode=strided)");
	if (!ret && j->zonemode == JOB_ZONE_NONE && j->zonesize)
		ret = job_err(e, j, "zonesize without zonemode=strided or zbd does nothing (fio: "
			      "--zonemode=none and --zonesize are not compatible)");
	if (!ret && j->zonemode == JOB_ZONE_ZBD && !j->create_serialize)
		ret = job_err(e, j, "zonemode=zbd and create_serialize=0 are not compatible (as in "
			      "fio)");
	/* verify_only reads each zone up to its write pointer in blocks of one size */
	if (!ret && j->zonemode == JOB_ZONE_ZBD && j->verify_only &&
	    (j->bssplit_nr[DDIR_WRITE] || j->bs_min[DDIR_WRITE] != j->bs_max[DDIR_WRITE]))
		ret = job_err(e, j, "verify_only with zonemode=zbd needs one write block size "
			      "(no bsrange or bssplit)");
	/* a sync engine has one I/O at a time: offload cannot change when it goes */
	if (!ret && j->submit_offload && !engine_find(j->ioengine)->getevents_timed &&
	    !(engine_traits(j->ioengine) & ENGINE_F_SYNC))
		ret = job_err(e, j, "io_submit_mode=offload is not supported with ioengine %s "
			      "(use io_uring, libaio or a sync engine)", j->ioengine);
	if (!ret)
		ret = validate_bs(j, e);
	if (!ret)
		ret = validate_depth(j, e);
	if (!ret)
		ret = validate_reporting(j, e);
	if (ret)
		return ret;
	if (j->numjobs < 1)
		return job_err(e, j, "numjobs is 0");
	if (j->nrfiles < 1)
		return job_err(e, j, "nrfiles is 0");
	if (j->loops < 1)
		return job_err(e, j, "loops is 0");
	if (!j->rw)
		return job_err(e, j, "no I/O direction");
	/* offset=60M size=4M is fine: I/O goes to [60M, 64M), as in fio */
	if (j->size_pct && j->offset_pct && j->size_pct + j->offset_pct > 100)
		return job_err(e, j, "offset %u%% plus size %u%% is above 100%%", j->offset_pct,
			       j->size_pct);
	if (j->filesize_min > j->filesize_max)
		return job_err(e, j, "filesize range is reversed");
	if (j->interval_us < 1000)
		return job_err(e, j, "series_interval is below 1ms");
	ret = validate_offsets(j, e);
	if (ret)
		return ret;
	ret = validate_steady(j, e);
	return ret ? ret : validate_logs(j, e);
}
