/*
 * worker_setup: a worker before and after its I/O loop: buffers, engine,
 * generator and statistics set up (worker_prepare), the result handed to the
 * run (worker_result), the release, and the first-error record the loop and
 * the interval code both use (worker_fail).
 */
#include "worker/worker.h"
#include "worker/worker_verify.h"
#include "worker/worker_int.h"
#include "io/file.h"
#include "io/ioerr.h"
#include "io/numa.h"	/* numa_check */
#include "steady/job_steady.h"
#include "env/schedstat.h"

#include <errno.h>	/* EINVAL */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* posix_memalign, getloadavg */
#include <string.h>	/* memset, strerror_r */
#include <unistd.h>	/* fsync, nice, syscall */
#include <sys/syscall.h>	/* SYS_ioprio_set */

/*
 * Record the job's first error.  @io: the I/O it happened on (NULL when
 * none); @op: the engine step that failed ("submit", "reap"), NULL for the
 * I/O's own completion.  The message names the operation, file and offset.
 */
void worker_fail_op(struct worker *w, int err, const struct io_u *io, const char *op)
{
	char buf[128], dio[160] = "";
	const char *what, *why;

	if (w->error)
		return;
	w->error = err;
	/* GNU strerror_r returns the text, which need not be in @buf */
	why = strerror_r(err, buf, sizeof(buf));
	if (!io && op) {
		snprintf(w->first_error, sizeof(w->first_error), "%s %s failed on %s: %s",
			 w->job->ioengine ? w->job->ioengine : "engine", op,
			 w->nr_files ? w->files[0].path : "(no file)", why);
		return;
	}
	if (!io) {
		snprintf(w->first_error, sizeof(w->first_error), "%s", why);
		return;
	}
	what = io->ddir < DDIR_NR ? ddir_name(io->ddir) : "sync";
	/* O_DIRECT's EINVAL is almost always alignment: say the rule, with the size when known */
	if (err == EINVAL && w->job->direct) {
		unsigned align = w->nr_files ? w->files[io->file].dio_align : 0;

		if (align)
			snprintf(dio, sizeof(dio), " (direct=1: offset, length and buffer must be "
				 "multiples of %u bytes, this target's direct I/O alignment)", align);
		else
			snprintf(dio, sizeof(dio), " (direct=1: offset, length and buffer must be "
				 "multiples of the target's logical block size, often 512 or 4096)");
	}
	/*
	 * fio's hint, on the same terms (EIO or EREMOTEIO on the job's first
	 * I/O, zonemode not zbd): a zoned drive refuses writes off its write
	 * pointers.  fio's t/zbd test 45 greps for its words.
	 */
	if ((err == EIO || err == EREMOTEIO) && w->nr_ios_issued == 1 &&
	    w->job->zonemode != JOB_ZONE_ZBD)
		snprintf(dio, sizeof(dio), " (fio: first I/O failed. If %s is a zoned block device, "
			 "consider --zonemode=zbd)", w->nr_files ? w->files[io->file].path : "(none)");
	snprintf(w->first_error, sizeof(w->first_error), "%s%s%s on %s at offset %llu, length %u: %s%s",
		 op ? op : "", op ? " of a " : "", what,
		 w->nr_files ? w->files[io->file].path : "(none)",
		 (unsigned long long)io->offset, io->len, why, dio);
}

void worker_fail(struct worker *w, int err, const struct io_u *io)
{
	worker_fail_op(w, err, io, NULL);
}

static uint64_t worker_max_bs(const struct job *j)
{
	uint64_t m = j->read_iolog_max_len;	/* a replayed log's largest I/O */
	unsigned d, i;

	for (d = 0; d < DDIR_NR; d++) {
		if (j->bs[d] > m)
			m = j->bs[d];
		if (j->bs_max[d] > m)
			m = j->bs_max[d];
		for (i = 0; i < j->bssplit_nr[d]; i++)
			if (j->bssplit[d][i].bs > m)
				m = j->bssplit[d][i].bs;
	}
	return m ? m : 4096;
}

/* The devices under this thread's files, for the device view (docs/json.md, the device view). */
static int worker_devwatch_init(struct worker *w, struct err *e)
{
	const char **paths;
	int r;

	/* a target outside the file system (rbd's image): its files are only
	 * labels, and the device under them says nothing about its I/O */
	if (!w->nr_files || w->ops->target_size)
		return 0;
	paths = calloc(w->nr_files, sizeof(*paths));
	if (!paths)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "job '%s': out of memory", w->job->name);
	for (unsigned i = 0; i < w->nr_files; i++)
		paths[i] = w->files[i].path;
	r = devwatch_init(&w->dw, paths, w->nr_files, e);
	free(paths);
	devwatch_bound(&w->dw, (size_t)w->job->series_max);	/* docs/time-series.md, long runs */
	return r;
}

int worker_prepare(struct worker *w, struct err *e)
{
	const struct job *j = w->job;
	uint64_t maxbs = worker_max_bs(j), blen;
	uint64_t *sizes = NULL, *starts = NULL;
	unsigned depth = j->iodepth ? j->iodepth : 1, i;
	int r, d;

	if (w->traits & ENGINE_F_SYNC)
		depth = 1;
	maxbs = (maxbs + 4095) & ~4095ull;
	blen = maxbs * depth;
	pthread_mutex_init(&w->lock, NULL);
	if (posix_memalign(&w->ctx.buf_base, 4096, blen))
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "job '%s': cannot allocate %llu bytes of buffers",
			       j->name, (unsigned long long)blen);
	r = buffer_init(&w->bufgen, j, w->thread_index, e);
	if (r)
		return r;
	if (j->dedupe_global)
		buffer_dedupe_global(&w->bufgen, w->thread_index, w->nr_threads);
	buffer_fill_initial(&w->bufgen, w->ctx.buf_base, blen);
	r = worker_verify_init(w, e);
	if (r)
		return r;
	w->ctx.buf_len = blen;
	w->ctx.ios = calloc(depth, sizeof(*w->ctx.ios));
	w->free_list = calloc(depth, sizeof(*w->free_list));
	w->events = calloc(2 * (size_t)depth, sizeof(*w->events));
	w->prev_lat_hist = calloc(DDIR_NR, sizeof(struct hist));
	w->iv_hist = calloc(DDIR_NR, sizeof(struct hist));
	if (j->serialize_overlap)
		w->span = calloc(depth, sizeof(*w->span));
	sizes = calloc(w->nr_files ? w->nr_files : 1, sizeof(*sizes));
	starts = calloc(w->nr_files ? w->nr_files : 1, sizeof(*starts));
	if (!w->ctx.ios || !w->free_list || !w->events || !w->prev_lat_hist || !w->iv_hist ||
	    !sizes || !starts || (j->serialize_overlap && !w->span)) {
		free(sizes);
		free(starts);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "job '%s': out of memory", j->name);
	}
	w->ctx.job = j;
	w->ctx.depth = depth;
	w->ctx.files = w->files;
	w->ctx.nr_files = w->nr_files;
	for (i = 0; i < depth; i++) {
		struct io_u *io = &w->ctx.ios[i];

		io->index = i;
		io->ioprio = (uint16_t)cmdprio_job_ioprio(&j->cmdprio);	/* cmdprio: per I/O */
		io->buf = (char *)w->ctx.buf_base + (uint64_t)i * maxbs;
		w->free_list[w->nr_free++] = io;
	}
	for (d = 0; d < DDIR_NR; d++) {
		lat_acc_init(&w->st.dir[d].slat);
		lat_acc_init(&w->st.dir[d].clat);
		lat_acc_init(&w->st.dir[d].lat);
		lat_acc_init(&w->st.dir[d].due);
		sample_stat_init(&w->bw_kib[d]);
		sample_stat_init(&w->iops[d]);
	}
	lat_acc_init(&w->st.sync_lat);
	w->clat_is_lat = 1;	/* nothing completed yet: clat and lat are both empty */
	for (i = 0; i < w->nr_files; i++) {
		starts[i] = w->files[i].offset;
		sizes[i] = w->files[i].size;
	}
	if (!w->nr_files) {
		/*
		 * no file (null engine): a virtual one as large as the job says:
		 * size=, else filesize= times nrfiles (fio's size when only the
		 * files' size is given), else io_size, else 1 GiB
		 */
		uint64_t fs = j->filesize_max ? file_pick_size(j, w->jobnum, 0) * (j->nrfiles ? j->nrfiles : 1) : 0;

		starts[0] = j->offset + j->offset_increment * w->jobnum;
		sizes[0] = j->size ? j->size : fs ? fs : j->io_size ? j->io_size : 1ull << 30;
		/* size= and filesize=: the region ends at the virtual file's end, as fio's */
		if (j->size && fs && starts[0] < fs && sizes[0] > fs - starts[0])
			sizes[0] = fs - starts[0];
	}
	r = iogen_init_regions(&w->gen, j, w->thread_index, sizes, starts,
			       w->nr_files ? w->nr_files : 1, e);
	w->gen.loop_restart = !(w->traits & (ENGINE_F_SYNC | ENGINE_F_NOFILES));
	/* openfiles: the file-operation engines close each file at once (engine_fileop.c) */
	if (!r && !(w->traits & (ENGINE_F_NOFILES | ENGINE_F_NODEVICE)))
		iogen_set_openfiles(&w->gen, j->openfiles);
	free(sizes);
	free(starts);
	if (r)
		return r;
	if (w->zbd_files) {
		w->zbd = calloc(1, sizeof(*w->zbd));
		if (!w->zbd)
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "job '%s': out of memory", j->name);
		zbd_job_init(w->zbd, w->zbd_set, j, w->gen.bs_min, w->zbd_files, w->nr_files);
	}
	if ((j->numa.cpu_nodes || j->numa.mem_mode != NUMA_MPOL_NONE) &&
	    (r = numa_check(&j->numa, j->name, j->origin, e)))
		return r;
	if (cmdprio_on(&j->cmdprio)) {
		w->cprio = calloc(1, sizeof(*w->cprio));
		if (!w->cprio)
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "job '%s': out of memory", j->name);
		rand_seed(&w->cprio_rs, rand_mix(rand_base_seed(j->randrepeat, j->randseed_set,
							       j->randseed), 0xc0ffee00u + w->thread_index));
	}
	r = rate_init(&w->rate, j, w->thread_index, e);
	if (r)
		return r;
	w->due_on = rate_enabled(&w->rate);
	series_init(&w->series);
	steady_init(&w->ss);
	r = job_steady_cfg(j, 1, &w->ss_cfg, e);
	if (r)
		return r;
	w->ss_on = w->ss_cfg.rule != STEADY_OFF;
	if (!j->group_reporting) {
		struct steady_cfg rc;

		/* the reporting rule (validated already; none when it cannot be had) */
		if (job_steady_cfg(j, 0, &rc, NULL))
			rc.rule = STEADY_OFF;
		r = series_sink_init(&w->sink, &rc, (size_t)j->series_max);
		if (r)
			return err_set(e, r, EXIT_INTERNAL, "out of memory for the time series");
		w->sink_on = 1;
	}
	r = fiolog_open(&w->log, j, w->thread_index + 1, e);
	if (r)
		return r;
	w->iolw_on = j->write_iolog != NULL;
	if (j->read_iolog) {
		char **paths = calloc(w->nr_files + 1, sizeof(*paths));
		unsigned k;

		if (!paths)
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "job '%s': out of memory", j->name);
		for (k = 0; k < w->nr_files; k++)
			paths[k] = w->files[k].path;
		r = iolog_load(&w->replay, j->read_iolog, paths, w->nr_files, 0, e);
		free(paths);
		if (r)
			return r;
		w->replay_on = 1;
	}
	r = w->ops->init(&w->ctx, e);
	if (r)
		return r;
	w->ctx_ready = 1;
	/* zone appends land where the device picks in their zone: verify_ctx.hdr_zone */
	w->verify.hdr_zone = w->ctx.append_zone;
	r = worker_devwatch_init(w, e);
	if (r)
		return r;
	w->lt_on = j->lat_target.target_us != 0;
	w->lt_ns = UINT64_MAX;		/* until the search starts, no I/O is over it */
	w->lt_win_end = UINT64_MAX;
	w->slat_off = j->disable_slat;
	w->clat_off = j->disable_clat;
	/* submit and wait in one step only when the time between them is not measured */
	w->commit_wait = w->ops->commit_wait && w->slat_off && w->clat_off;
	/* fio's meaning: commit every iodepth_batch_submit queued I/Os, 0 = iodepth */
	w->commit_max = j->iodepth_batch_submit ? j->iodepth_batch_submit : w->ctx.depth;
	/*
	 * Without iodepth_batch_complete_max a reap takes what one commit sends
	 * back, at least iodepth_batch_complete_min.  That is what fio 3.33 does
	 * (its submit and complete distributions match: 1-4 by default, 5-8 with
	 * iodepth_batch_submit=8, 32 with 0, on the null engine), whatever its
	 * HOWTO says of the default.
	 */
	w->reap_max = j->iodepth_batch_complete_max;
	if (!w->reap_max)
		w->reap_max = w->commit_max > j->iodepth_batch_complete_min ? w->commit_max
								       : j->iodepth_batch_complete_min;
	return 0;
}

void worker_result(const struct worker *w, struct job_result *r)
{
	const struct job *j = w->job;
	double rt_ms = (double)(w->measure_ns + w->verify_ns) / 1e6;
	uint64_t usr, sys;
	int d;

	result_job_init(r);
	r->job = j;
	snprintf(r->name, sizeof(r->name), "%s", j->name);
	r->groupid = w->groupid;
	r->nr_threads = 1;
	r->error = w->error;
	r->target_error = w->target_error;
	r->total_err = w->total_err + (w->error ? 1 : 0);	/* fio counts the fatal one too */
	r->first_err = w->first_nonfatal ? w->first_nonfatal : w->error;
	r->coe = j->ioerr.coe != 0;
	snprintf(r->first_error, sizeof(r->first_error), "%s", w->first_error);
	r->verify = w->vres;
	for (unsigned i = 0; w->files && i < w->nr_files; i++) {
		r->laid_files += w->files[i].laid_out != 0;
		r->laid_bytes += w->files[i].laid_out;
	}
	r->laid_threads = r->laid_files != 0;
	/* fio's job runtime and elapsed time include its verify phase */
	r->elapsed_s = (w->elapsed_ns + w->verify_ns + 500000000ull) / 1000000000ull;
	r->pid = w->os_tid;
	r->end_time = w->end_time;
	r->job_runtime_ms = (w->measure_ns + w->verify_ns) / 1000000;
	usr = (uint64_t)(w->ru_end.ru_utime.tv_sec - w->ru_start.ru_utime.tv_sec) * 1000000 +
	      (uint64_t)(w->ru_end.ru_utime.tv_usec - w->ru_start.ru_utime.tv_usec);
	sys = (uint64_t)(w->ru_end.ru_stime.tv_sec - w->ru_start.ru_stime.tv_sec) * 1000000 +
	      (uint64_t)(w->ru_end.ru_stime.tv_usec - w->ru_start.ru_stime.tv_usec);
	r->usr_us = usr;
	r->sys_us = sys;
	r->usr_cpu = rt_ms > 0 ? (double)usr / 1000.0 / rt_ms * 100.0 : 0;
	r->sys_cpu = rt_ms > 0 ? (double)sys / 1000.0 / rt_ms * 100.0 : 0;
	r->ctx = (uint64_t)((w->ru_end.ru_nvcsw - w->ru_start.ru_nvcsw) +
			    (w->ru_end.ru_nivcsw - w->ru_start.ru_nivcsw));
	r->majf = (uint64_t)(w->ru_end.ru_majflt - w->ru_start.ru_majflt);
	/* scheduler evidence for the bottleneck verdict (docs/json.md, the device view) */
	r->rq_wait_ns = w->rq_wait_end > w->rq_wait_start ? w->rq_wait_end - w->rq_wait_start : 0;
	r->nivcsw = (uint64_t)(w->ru_end.ru_nivcsw - w->ru_start.ru_nivcsw);
	r->has_sched = w->rq_wait_ok;
	r->load1 = w->load1;
	r->minf = (uint64_t)(w->ru_end.ru_minflt - w->ru_start.ru_minflt);
	for (d = 0; d < DDIR_NR; d++) {
		const struct worker_dir *wd = &w->st.dir[d];
		struct dir_result *dr = &r->dir[d];

		dr->io_bytes = wd->bytes;
		dr->total_ios = wd->ios + wd->err_ios;
		dr->short_ios = wd->short_ios;
		/*
		 * fio: a direction's runtime is the I/O phase's when the job does
		 * that direction, and read's gets the end pass's time too.  A job
		 * that does not read: its verify_backlog read-backs' time is read's
		 * runtime and not write's (fio's read and write runtimes then add
		 * up to the job's).
		 */
		dr->runtime_ms = wd->ios && (d != DDIR_READ || (j->rw & RW_READ) || !w->verify.method) ?
				 w->measure_ns / 1000000 : 0;
		if (!(j->rw & RW_READ) && w->vbl_ns && w->vbl_ns <= w->measure_ns) {
			if (d == DDIR_READ)
				dr->runtime_ms = w->vbl_ns / 1000000;
			else if (d == DDIR_WRITE && wd->ios)
				dr->runtime_ms = (w->measure_ns - w->vbl_ns) / 1000000;
		}
		if (d == DDIR_READ && w->vpass_ios)
			dr->runtime_ms += w->verify_ns / 1000000;
		/* a direction with I/O ran at least 1 ms, as fio reports it (never
		 * 0: its IOPS and bandwidth divide by it, and fio's text prints none) */
		if (wd->ios && !dr->runtime_ms && (d != DDIR_READ || (j->rw & RW_READ) ||
						   !w->verify.method || w->vpass_ios || w->vbl_ns))
			dr->runtime_ms = 1;
		lat_acc_moments(&wd->slat, &dr->slat);
		/* clat_is_lat: clat was not kept, it is lat (worker_types.h);
		 * clat_off: not kept at all (disable_clat), no samples */
		if (!w->clat_off)
			lat_acc_moments(w->clat_is_lat ? &wd->lat : &wd->clat, &dr->clat);
		lat_acc_moments(&wd->lat, &dr->lat);
		dr->slat_hist = wd->slat_hist;
		if (!w->clat_off)
			dr->clat_hist = w->clat_is_lat ? wd->lat_hist : wd->clat_hist;
		dr->lat_hist = wd->lat_hist;
		lat_acc_moments(&wd->due, &dr->due);
		dr->due_hist = wd->due_hist;
		dr->bw_kib = w->bw_kib[d];
		dr->iops = w->iops[d];
		/* a job shorter than 1 ms: its directions were raised to 1 ms
		 * above, and the job ran no shorter than any of them */
		if (r->job_runtime_ms < dr->runtime_ms)
			r->job_runtime_ms = dr->runtime_ms;
	}
	lat_acc_moments(&w->st.sync_lat, &r->sync_lat);
	r->sync_hist = w->st.sync_hist;
	r->sync_ios = w->st.sync_lat.n;
	memcpy(r->depth_level, w->st.depth_level, sizeof(r->depth_level));
	memcpy(r->depth_submit, w->st.depth_submit, sizeof(r->depth_submit));
	memcpy(r->depth_complete, w->st.depth_complete, sizeof(r->depth_complete));
	r->total_submit = w->st.total_submit;
	r->total_complete = w->st.total_complete;
	r->zone_resets = w->zbd ? w->zbd->resets : 0;
	r->partial = w->interrupted || w->error;
	r->lat_depth = w->lt_on ? (w->lt_started ? w->lt.depth : 1) : 0;
	memcpy(r->rand_seeds, w->gen.rand_seeds, sizeof(r->rand_seeds));
	r->prio = NULL;
	if (w->cprio && (r->prio = malloc(sizeof(*r->prio))))	/* no memory: no "prios" */
		cmdprio_acc_result(w->cprio, r->prio);
}

void worker_release(struct worker *w)
{
	if (w->ctx_ready && w->ops->exit)
		w->ops->exit(&w->ctx);
	w->ctx_ready = 0;
	iogen_free(&w->gen);
	worker_verify_free(w);
	free(w->cprio);
	w->cprio = NULL;
	series_free(&w->series);
	series_sink_free(&w->sink);
	w->sink_on = 0;
	steady_free(&w->ss);
	fiolog_free(&w->log);
	iolog_writer_free(&w->iolw);
	iolog_replay_free(&w->replay);
	w->iolw_on = w->replay_on = 0;
	devwatch_free(&w->dw);
	free(w->ctx.buf_base);
	free(w->ctx.ios);
	free(w->free_list);
	free(w->events);
	free(w->prev_lat_hist);
	free(w->iv_hist);
	free(w->span);
	w->span = NULL;
	free(w->zbd);
	free(w->zbd_files);
	w->zbd = NULL;
	w->zbd_files = NULL;
	for (int d = 0; d < DDIR_NR; d++) {
		sample_seq_free(&w->samp[d]);
	}
	w->ctx.buf_base = NULL;
	w->ctx.ios = NULL;
	w->free_list = NULL;
	w->events = NULL;
	w->prev_lat_hist = NULL;
	w->iv_hist = NULL;
	pthread_mutex_destroy(&w->lock);
}
