/*
 * job: defaults, copying and freeing of struct job (see job.h).
 *
 * job_init() is the one place fio's defaults live; the option table reads
 * them back from a fresh job for --cmdhelp and to decide what --showcmd
 * prints, so a default is never written twice.
 */
#include "model/job.h"

#include <stdio.h>	/* vsnprintf */

#include <stdarg.h>	/* va_list */

#include <errno.h>	/* ENOMEM */
#include <stdlib.h>	/* malloc, free */
#include <string.h>	/* memset, strdup */

/* fio's default percentile_list. */
static const double job_default_percentiles[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

void job_init(struct job *j)
{
	unsigned d;

	memset(j, 0, sizeof(*j));
	j->nrfiles = 1;
	j->allow_file_create = 1;
	j->sig_figs = 4;
	j->invalidate = 1;
	j->create_serialize = 1;
	j->fadvise_hint = FADVISE_AUTO;
	j->rw = RW_READ;
	j->rwmixread = 50;
	for (d = 0; d < DDIR_NR; d++) {
		j->bs[d] = 4096;
		j->percentage_random[d] = 100;
	}
	j->randrepeat = 1;
	j->random_distribution = RAND_DIST_RANDOM;
	j->iodepth = 1;
	j->iodepth_batch_submit = 1;
	j->iodepth_batch_complete_min = 1;
	j->sync = SYNC_NONE;
	j->flow_watermark = 1024;
	j->dedupe_ws_pct = 5;
	j->numa.mem_mode = NUMA_MPOL_NONE;
	j->cmdprio.cls[0] = j->cmdprio.cls[1] = CMDPRIO_NONE;
	j->cmdprio.lvl[0] = j->cmdprio.lvl[1] = CMDPRIO_NONE;
	j->cmdprio.prio = j->cmdprio.prioclass = CMDPRIO_NONE;
	j->loops = 1;
	j->numjobs = 1;
	j->rate_process = RATE_LINEAR;
	memcpy(j->percentile_list, job_default_percentiles, sizeof(job_default_percentiles));
	j->percentile_nr = sizeof(job_default_percentiles) / sizeof(job_default_percentiles[0]);
	j->clat_percentiles = 1;
	j->disk_util = 1;
	j->scramble_buffers = 1;
	j->buffer_compress_chunk = 512;
	j->do_verify = 1;
	j->verify_state_save = 1;	/* fio's default */
	j->thinktime_blocks = 1;
	j->rate_cycle_ms = 1000;
	j->lat_target.percentile = 100;
	j->kb_base = 1024;
	j->clocksource = CLOCK_MODE_AUTO;
	j->interval_us = 1000000;
	j->series_max = 512;
	j->per_job_logs = 1;
	/* fio's steady-state default criterion; ss_metric stays NONE until ss= or ss_dur= */
	j->ss_metric = SS_NONE;
	j->ss_limit = 0.01;
	j->ss_pct = 1;
	/* SNIA PTS's criterion: 5 rounds, range 20%, slope excursion 10% */
	j->steady_report = SS_REPORT_AUTO;
	j->snia_window = 5;
	j->snia_range_pct = 20;
	j->snia_slope_pct = 10;
	j->snia_metric = SNIA_METRIC_IOPS;
	/* The ioengine string is the only default that needs memory. */
	j->ioengine = strdup(JOB_IOENGINE_DEFAULT);
}

void job_kv_clear(struct job *j)
{
	size_t i;

	for (i = 0; i < j->opts_nr; i++) {
		free(j->opts[i].key);
		free(j->opts[i].val);
	}
	free(j->opts);
	j->opts = NULL;
	j->opts_nr = 0;
}

void job_free(struct job *j)
{
	if (!j)
		return;
	free(j->description);
	free(j->buffer_pattern);
	free(j->verify_pattern);
	free(j->wait_for);
	free(j->write_iolog);
	free(j->read_iolog);
	free(j->filename);
	free(j->directory);
	free(j->filename_format);
	free(j->ioengine);
	free(j->write_bw_log);
	free(j->write_iops_log);
	free(j->write_lat_log);
	free(j->write_hist_log);
	job_kv_clear(j);
	memset(j, 0, sizeof(*j));
}

/* strdup that keeps NULL; sets *fail on allocation failure. */
static char *job_dup(const char *s, int *fail)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*fail = 1;
	return d;
}

int job_copy(struct job *dst, const struct job *src)
{
	int fail = 0;
	size_t i;

	memcpy(dst, src, sizeof(*dst));
	dst->description = job_dup(src->description, &fail);
	dst->buffer_pattern = job_dup(src->buffer_pattern, &fail);
	dst->verify_pattern = job_dup(src->verify_pattern, &fail);
	dst->wait_for = job_dup(src->wait_for, &fail);
	dst->write_iolog = job_dup(src->write_iolog, &fail);
	dst->read_iolog = job_dup(src->read_iolog, &fail);
	dst->filename = job_dup(src->filename, &fail);
	dst->directory = job_dup(src->directory, &fail);
	dst->filename_format = job_dup(src->filename_format, &fail);
	dst->ioengine = job_dup(src->ioengine, &fail);
	dst->write_bw_log = job_dup(src->write_bw_log, &fail);
	dst->write_iops_log = job_dup(src->write_iops_log, &fail);
	dst->write_lat_log = job_dup(src->write_lat_log, &fail);
	dst->write_hist_log = job_dup(src->write_hist_log, &fail);
	dst->opts = NULL;
	dst->opts_nr = 0;
	for (i = 0; i < src->opts_nr && !fail; i++)
		if (job_kv_add(dst, src->opts[i].key, src->opts[i].val))
			fail = 1;
	if (fail) {
		job_free(dst);
		return -ENOMEM;
	}
	return 0;
}

int job_kv_add(struct job *j, const char *key, const char *val)
{
	struct job_kv *n;
	char *k, *v = NULL;

	k = strdup(key);
	if (val)
		v = strdup(val);
	n = realloc(j->opts, (j->opts_nr + 1) * sizeof(*n));
	if (!k || (val && !v) || !n) {
		free(k);
		free(v);
		if (n)
			j->opts = n;
		return -ENOMEM;
	}
	j->opts = n;
	n[j->opts_nr].key = k;
	n[j->opts_nr].val = v;
	j->opts_nr++;
	return 0;
}

int job_err(struct err *e, const struct job *j, const char *fmt, ...)
{
	char why[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return err_set(e, -EINVAL, EXIT_USAGE, "job '%s'%s%s%s: %s", j->name,
		       j->origin[0] ? " (" : "", j->origin, j->origin[0] ? ")" : "", why);
}
