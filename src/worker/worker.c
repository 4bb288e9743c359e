/*
 * worker: the per-thread I/O loop (see worker.h for the threading contract).
 *
 * The loop keeps fio's batching semantics, because they shape what the
 * device sees: iodepth_batch_submit=1 (the default) commits each I/O as soon
 * as it is queued, and a reap takes at most iodepth_batch_complete_max I/Os
 * (default: what one commit sends back, so 1), so every completion is answered
 * by its replacement before the next one is reaped.  Refilling a whole reaped
 * batch in one commit (what this loop did before) lets the I/Os march in
 * convoys: on a virtio disk the device then served 10-20% fewer IOPS at QD
 * 8-32 than under fio, while its own in-flight counter looked fuller,
 * because a plugged batch is counted in flight before the driver sees it
 * (docs/performance.md, "Convoys").  Larger values keep fio's meaning.
 * Per batch it reads the clock once
 * before queueing (every io_u of the batch starts then), once after commit
 * (they were issued then) and once after each reap (they completed then),
 * like fio does for completions.  Sync engines read it once per I/O (the end
 * of one is the start of the next).  Per I/O it does one generator step and
 * the engine call; I/Os of one batch reaped together share their latencies
 * and are accounted as one run (two histogram increments and two moment
 * updates per run).  Everything else (bw/iops samples, series intervals, the
 * ramp and the end of the run) happens in worker_event(), which runs only
 * when the clock passes t_next_event.
 */
#include "worker/worker.h"
#include "worker/worker_fill.h"
#include "worker/worker_verify.h"
#include "worker/worker_int.h"
#include "io/ioerr.h"

#include <errno.h>	/* EINVAL */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>
#include <string.h>	/* memset, strerror_r */
#include <time.h>	/* nanosleep */

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define SLEEP_SLICE_NS 10000000	/* sleep at most 10 ms at once: stay responsive */

static unsigned depth_bucket(unsigned depth)
{
	/* 1 2 4 8 16 32 >=64 */
	if (depth <= 1)
		return 0;
	if (depth >= 64)
		return 6;
	return 32u - (unsigned)__builtin_clz(depth - 1) > 6 ? 6 : 32u - (unsigned)__builtin_clz(depth - 1);
}

static unsigned batch_bucket(unsigned n)
{
	/* fio's submit/complete map: 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64 */
	if (n == 0)
		return 0;
	if (n <= 4)
		return 1;
	if (n <= 8)
		return 2;
	if (n <= 16)
		return 3;
	if (n <= 32)
		return 4;
	if (n <= 64)
		return 5;
	return 6;
}

/* error_dump: hand an error continue_on_error let pass to the run's caller. */
static void worker_dump_error(struct worker *w, const struct io_u *io)
{
	struct ioerr_event ev = {
		.job = w->job->name,
		.file = w->nr_files ? w->files[io->file].path : "",
		.err = (int)-io->res, .ddir = io->ddir, .offset = io->offset, .len = io->len,
	};

	w->error_dump(w->error_dump_arg, &ev);
}

/*
 * latency_target: @n completions took @lat ns, above the target (cold: with
 * latency_target off lt_ns is UINT64_MAX).  With percentile 100 one is
 * enough: worker_event judges the window at once.
 */
static void worker_lt_over(struct worker *w, uint64_t lat, uint64_t n)
{
	w->lt_over += n;
	if (lat > w->lt_worst)
		w->lt_worst = lat;
	if (lat_target_at_once(&w->job->lat_target))
		w->t_next_event = 0;
}

/*
 * lat_from_due: a rated I/O completed at @t_done; its latency counted from
 * its slot in the rate schedule (io->t_due), not from when a free io_u let
 * it start.  An I/O without a slot (a read-back, a sync) counts from its
 * start.  Rated jobs reap one by one (worker_reap), so each I/O has its own.
 */
static void worker_due(struct worker *w, struct worker_dir *d, struct io_u *io, uint64_t t_done)
{
	uint64_t from = io->due && io->t_due < io->t_start ? io->t_due : io->t_start;
	uint64_t ns = clock_ticks_to_ns(w->clk, t_done - from);

	hist_add(&d->due_hist, ns);
	lat_acc_add(&d->due, ns);
}

/*
 * The first completion whose clat is not its lat: until now clat was lat
 * (worker_types.h, clat_is_lat), so clat starts as a copy of lat and is kept
 * apart from here on.
 */
static __attribute__((noinline, cold)) int worker_clat_split(struct worker *w)
{
	int d;

	for (d = 0; d < DDIR_NR; d++) {
		w->st.dir[d].clat = w->st.dir[d].lat;
		w->st.dir[d].clat_hist = w->st.dir[d].lat_hist;
	}
	w->clat_is_lat = 0;
	return 1;
}

static inline void worker_account(struct worker *w, struct io_u *io, uint64_t t_done)
{
	const struct clock *c = w->clk;
	struct worker_dir *d;
	uint64_t lat, clat;

	if (unlikely(io->res < 0)) {
		/* a failed read-back is a verify failure, uncounted, as the end pass's */
		if (unlikely(io->vbl)) {
			worker_verify_backlog_done(w, io);
			return;
		}
		/* fill_device: the file system is full, the job's end */
		if (unlikely(w->job->fill_device) && worker_fill_full(w, io))
			return;
		/* continue_on_error: counted, and the job goes on (as fio) */
		if (w->job->ioerr.coe &&
		    ioerr_nonfatal(&w->job->ioerr, ioerr_class(io->ddir), (int)-io->res)) {
			if (!w->total_err++)
				w->first_nonfatal = (int)-io->res;
			if (io->ddir < DDIR_NR)	/* issued, as fio's total_ios counts it */
				w->st.dir[io->ddir].err_ios++;
			if (w->error_dump && w->job->error_dump)
				worker_dump_error(w, io);
			return;
		}
		if (io->ddir < DDIR_NR && !w->error)	/* fio counts the fatal one too */
			w->st.dir[io->ddir].err_ios++;
		worker_fail(w, (int)-io->res, io);
		return;
	}
	lat = clock_ticks_to_ns(c, t_done - io->t_start);
	if (unlikely(io->ddir >= DDIR_NR)) {
		hist_add(&w->st.sync_hist, lat);
		lat_acc_add(&w->st.sync_lat, lat);
		return;
	}
	/* completed inline (sync engines): issued when started, clat is lat */
	clat = io->t_issue == io->t_start ? lat : clock_ticks_to_ns(c, t_done - io->t_issue);
	d = &w->st.dir[io->ddir];
	if (unlikely((uint64_t)io->res != io->len)) {
		d->short_ios++;
		if (unlikely(w->job->fill_device))
			worker_fill_clamp(w, io);
	}
	d->ios++;
	d->bytes += (uint64_t)io->res;
	if (unlikely(w->live_often))	/* --bandwidth-log: a relaxed store, no lock */
		atomic_store_explicit(&w->live_bytes[io->ddir], w->reset_bytes[io->ddir] + d->bytes,
				      memory_order_relaxed);
	if (unlikely(w->vtrack) && io->ddir == DDIR_WRITE)
		worker_verify_written(w, io);
	else if (unlikely(io->vbl))
		worker_verify_backlog_done(w, io);
	else if (unlikely(w->verify_reads) && io->ddir == DDIR_READ)
		worker_verify_read(w, io);
	if (unlikely(io->untimed))
		return;		/* counted, not timed (engine.h) */
	if (unlikely(w->cprio != NULL))	/* fio: total latency per priority with lat_percentiles */
		cmdprio_acc_add(w->cprio, io->ddir, io->ioprio, w->job->lat_percentiles ? lat : clat);
	/* while every clat was its lat, lat stands for clat (clat_is_lat);
	 * with disable_clat it stays set and clat is not kept (clat_off) */
	if (likely(!w->clat_is_lat) || (clat != lat && !w->clat_off && worker_clat_split(w))) {
		hist_add(&d->clat_hist, clat);
		lat_acc_add(&d->clat, clat);
	}
	hist_add(&d->lat_hist, lat);
	lat_acc_add(&d->lat, lat);
	if (unlikely(w->due_on))
		worker_due(w, d, io, t_done);
	if (unlikely(lat > w->lt_ns))
		worker_lt_over(w, lat, 1);
	if (lat < d->iv_lat_min)
		d->iv_lat_min = lat;
	if (lat > d->iv_lat_max)
		d->iv_lat_max = lat;
	if (unlikely(w->log_on)) {
		w->log.prio = io->ioprio;
		fiolog_io(&w->log, clock_ticks_to_ns(c, t_done - w->t_measure) / 1000000,
			  (enum ddir)io->ddir, io->len, io->offset,
			  /* fio logs no slat for an I/O completed inline */
			  (w->traits & ENGINE_F_SYNC) || io->t_issue == io->t_start ? FIOLOG_NONE :
			  clock_ticks_to_ns(c, io->t_issue - io->t_start), clat, lat);
	}
}

/*
 * I/Os reaped together that share direction, start and issue time (one
 * submitted batch, the usual case at depth > 1) have equal latencies: they are
 * accounted as one run, with the same result as one by one (stat.h, hist.h).
 */
struct worker_run {
	uint64_t t_start, t_issue;
	uint64_t n, bytes;
	unsigned ddir;
};

static inline __attribute__((always_inline)) void worker_account_run(struct worker *w, const struct worker_run *r,
								   uint64_t t_done)
{
	const struct clock *c = w->clk;
	struct worker_dir *d = &w->st.dir[r->ddir];
	uint64_t lat = clock_ticks_to_ns(c, t_done - r->t_start);
	uint64_t clat = r->t_issue == r->t_start ? lat : clock_ticks_to_ns(c, t_done - r->t_issue);

	d->ios += r->n;
	d->bytes += r->bytes;
	if (unlikely(w->live_often))
		atomic_store_explicit(&w->live_bytes[r->ddir], w->reset_bytes[r->ddir] + d->bytes,
				      memory_order_relaxed);
	if (likely(!w->clat_is_lat) || (clat != lat && !w->clat_off && worker_clat_split(w))) {
		hist_add_n(&d->clat_hist, clat, r->n);
		lat_acc_add_n(&d->clat, clat, r->n);
	}
	hist_add_n(&d->lat_hist, lat, r->n);
	lat_acc_add_n(&d->lat, lat, r->n);
	if (unlikely(lat > w->lt_ns))
		worker_lt_over(w, lat, r->n);
	if (lat < d->iv_lat_min)
		d->iv_lat_min = lat;
	if (lat > d->iv_lat_max)
		d->iv_lat_max = lat;
}

static uint64_t min3(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t m = a < b ? a : b;

	return m < c ? m : c;
}

static int worker_reap(struct worker *w, unsigned min, uint64_t until, uint64_t *now);

/* latency_target: completions so far (reads, writes, trims), as fio counts a window's. */
static uint64_t worker_lt_done(const struct worker *w)
{
	return w->st.dir[DDIR_READ].ios + w->st.dir[DDIR_WRITE].ios + w->st.dir[DDIR_TRIM].ios;
}

/* latency_target: a new window at the search's depth starts at @now. */
static void worker_lt_begin(struct worker *w, uint64_t now)
{
	unsigned d = w->lt.depth < w->ctx.depth ? w->lt.depth : w->ctx.depth;

	w->io_reserve = w->ctx.depth - d;
	w->lt_over = 0;
	w->lt_worst = 0;
	w->lt_win_ios = worker_lt_done(w);
	w->lt_win_end = now + clock_ns_to_ticks(w->clk, w->job->lat_target.window_us * 1000);
}

/*
 * latency_target: ramp_time is over, the search starts at depth 1.  The
 * runtime counts from here, search included, as in fio.  Without
 * latency_run the search is not measured (a ramp that ends when it
 * settles: worker_lt_window), so the results are the settled depth's.
 */
static void worker_lt_start(struct worker *w, uint64_t now)
{
	const struct job *j = w->job;

	w->lt_started = 1;
	lat_target_init(&w->lt, j->iodepth);
	w->lt_ns = j->lat_target.target_us * 1000;
	if (j->runtime_us)
		w->t_end = now + clock_ns_to_ticks(w->clk, j->runtime_us * 1000);
	if (j->lat_target.run)
		return;
	/* counted from here should the job end before the search settles
	 * (worker_main reports the search then, as fio does) */
	if (w->t_ramp_end != w->t_begin)
		worker_interval(w, now, 1);
	worker_stats_reset(w, now);
	w->t_ramp_end = UINT64_MAX;
}

/*
 * latency_target: the window ended (or, at percentile 100, an I/O was over
 * the target): judge it and move the depth.  Before a shallower window, or
 * the settled one, the I/Os in flight complete first, so that the window
 * sees its own depth alone (fio quiesces there too).  Returns 1 when the job
 * ends: the settled depth passed once more, or depth 1 failed at 100%.
 */
static int worker_lt_window(struct worker *w, uint64_t *now)
{
	const struct lat_target_cfg *c = &w->job->lat_target;
	enum lat_target_step step;

	step = lat_target_window(&w->lt, c, worker_lt_done(w) - w->lt_win_ios, w->lt_over);
	if (step == LAT_TARGET_FATAL) {
		if (!w->error) {
			w->error = ETIMEDOUT;
			snprintf(w->first_error, sizeof(w->first_error), "latency of %llu ns exceeds "
				 "latency_target (%llu ns) at depth 1", (unsigned long long)w->lt_worst,
				 (unsigned long long)w->lt_ns);
		}
		return 1;
	}
	if (step == LAT_TARGET_DONE)
		return 1;
	if (step == LAT_TARGET_DOWN || step == LAT_TARGET_SETTLE) {
		w->io_reserve = w->ctx.depth;	/* nothing new while draining */
		while (w->inflight && !w->error)
			if (worker_reap(w, 1, 0, now) < 0)
				break;
		*now = clock_ticks(w->clk);
	}
	if (step == LAT_TARGET_SETTLE)
		worker_ramp_end(w, *now);
	worker_lt_begin(w, *now);
	return 0;
}

/*
 * Timed work that is not per I/O.  Returns 1 when the run time is over.
 * *@now moves when latency_target waited for I/Os in flight.
 */
static int worker_event(struct worker *w, uint64_t *nowp)
{
	int measuring = atomic_load_explicit(&w->measuring, memory_order_relaxed);
	uint64_t now = *nowp;

	if (!measuring && now >= w->t_ramp_end) {
		int search = unlikely(w->lt_on) && !w->lt_started;

		if (search)
			worker_lt_start(w, now);
		if (now >= w->t_ramp_end) {
			worker_ramp_end(w, now);
			measuring = 1;
		}
		if (search)	/* after the restart: the window counts from zero */
			worker_lt_begin(w, now);
	}
	if (unlikely(w->lt_started) &&
	    (now >= w->lt_win_end || (w->lt_over && lat_target_at_once(&w->job->lat_target)))) {
		if (worker_lt_window(w, nowp))
			return 1;
		now = *nowp;
		measuring = atomic_load_explicit(&w->measuring, memory_order_relaxed);
	}
	if (measuring && now >= w->t_next_sample) {
		if (unlikely(w->job->rate_min_set))
			worker_rate_min(w, now);
		worker_sample(w, now);
		w->t_next_sample += w->ticks_sample;
		if (w->t_next_sample <= now)
			w->t_next_sample = now + w->ticks_sample;
	}
	if (now >= w->t_next_interval) {
		worker_interval(w, now, !measuring);
		w->t_next_interval += w->ticks_interval;
		if (w->t_next_interval <= now)
			w->t_next_interval = now + w->ticks_interval;
	}
	if (now >= w->t_end || unlikely(w->filled))
		return 1;
	w->t_next_event = min3(measuring ? w->t_next_sample : w->t_ramp_end,
			       w->t_next_interval, w->t_end);
	if (unlikely(w->lt_started) && w->lt_win_end < w->t_next_event)
		w->t_next_event = w->lt_win_end;
	return 0;
}

/* Sleep until @until (ticks) in slices (worker_int.h). */
void worker_sleep_until(struct worker *w, uint64_t until)
{
	for (;;) {
		uint64_t now = clock_ticks(w->clk), ns;

		if (now >= until || atomic_load_explicit(&w->stop, memory_order_relaxed))
			return;
		ns = clock_ticks_to_ns(w->clk, until - now);
		if (ns > SLEEP_SLICE_NS)
			ns = SLEEP_SLICE_NS;
		/* through the clock (an injected one may be fake); too short to
		 * sleep accurately, it returns at once and this loop spins */
		clock_sleep_ns(w->clk, ns);
	}
}

/*
 * flow=: sleep flow_sleep (100 us when 0) until this thread may issue again.
 * Returns 0 when the run's next event (or a stop) comes first.
 */
static int worker_flow_wait(struct worker *w)
{
	const struct job *j = w->job;
	uint64_t nap = clock_ns_to_ticks(w->clk, (j->flow_sleep_us ? j->flow_sleep_us : 100) * 1000);

	while (!flow_may_issue(w->flow, j->flow, w->flow_mine, j->flow_watermark)) {
		uint64_t now = clock_ticks(w->clk);

		if (now >= w->t_next_event || atomic_load_explicit(&w->stop, memory_order_relaxed))
			return 0;
		worker_sleep_until(w, now + nap < w->t_next_event ? now + nap : w->t_next_event);
	}
	return 1;
}

/*
 * read_iolog: the log's next I/O; with the log's times (and not
 * replay_no_stall) it waits for its time as a rated I/O waits for its slot.
 * 1 when the log is done.
 */
static int worker_replay_next(struct worker *w, struct io_u *io)
{
	uint64_t t_us;

	if (iolog_next(&w->replay, io, &t_us))
		return 1;
	if (t_us != UINT64_MAX && !w->job->replay_no_stall)
		io->t_issue = w->t_begin + clock_ns_to_ticks(w->clk, t_us * 1000);
	return 0;
}

/* number_ios: the job ends after that many I/Os, if nothing ends it first. */
static int worker_ios_done(const struct worker *w)
{
	return w->job->number_ios && w->nr_ios_issued >= w->job->number_ios;
}

static int worker_commit(struct worker *w, struct io_u **queued, unsigned nq, unsigned wait_min,
			 uint64_t *now);

/*
 * zonemode=zbd's quiesce (zbd.h): commit what worker_fill queued and reap
 * until nothing of this job is in flight, as fio's io_u_quiesce, before a
 * zone reset or while the open set is full.
 */
static void worker_zbd_quiesce(void *arg)
{
	struct worker *w = arg;
	uint64_t now = clock_ticks(w->clk);

	if (w->zq_nq && *w->zq_nq) {
		if (worker_commit(w, w->zq_queued, *w->zq_nq, 0, &now))
			return;
		*w->zq_nq = 0;
	}
	while (w->inflight && !w->error)
		if (worker_reap(w, w->inflight, 0, &now) < 0)
			break;
	if (w->zq_now)
		*w->zq_now = now;
}

/*
 * zonemode=zbd: make the generator's I/O one the zones allow (zbd.h).  The
 * loop counts what is issued, and sequential I/O goes on from where the
 * zones sent it, as fio's last position.  Returns 1 when the job ends here
 * (no zone left to write or read; a failed reset is the job's error).
 */
static int worker_zbd_adjust(struct worker *w, struct io_u *io)
{
	uint32_t len = io->len;
	uint64_t off = io->offset;
	int r;

	/* loops=: each pass starts afresh in the zones too (fio's zbd_file_reset) */
	if (w->gen.loops_left != w->zbd_loops) {
		w->zbd_loops = w->gen.loops_left;
		zbd_new_pass(w->zbd);
	}
	r = zbd_adjust(w->zbd, io);

	if (r) {
		if (r < 0)
			worker_fail_op(w, -r, io, "zone reset");
		return 1;
	}
	w->gen.loop_left += (int64_t)len - (int64_t)io->len;
	/*
	 * a sequential read sent on past zones without data counts them as
	 * read, as fio's pass does: it ends at the region's end instead of
	 * wrapping to read the written zones again (unless the job must wrap)
	 */
	if (io->ddir == DDIR_READ && !w->gen.random && !w->zbd->seq_wrap && io->offset > off)
		w->gen.loop_left -= (int64_t)(io->offset - off);
	if (!w->gen.random && io->file < w->gen.nr_files)
		w->gen.files[io->file].pos[io->ddir] = io->offset + io->len;
	return 0;
}

/*
 * Get the next io_u to issue: a pending one (held back by the rate limiter or
 * a busy engine), an fsync when fsync=N writes were issued, or a new one from
 * the generator.  Returns NULL when the generator is exhausted or no io_u is
 * free.
 */
static struct io_u *worker_next_io(struct worker *w, struct io_u **pending, int *gen_done)
{
	const struct job *j = w->job;
	struct io_u *io;

	if (*pending) {
		io = *pending;
		*pending = NULL;
		return io;
	}
	if (w->nr_free <= w->io_reserve)	/* latency_target caps the depth */
		return NULL;
	/* verify_backlog's read-backs go first, as fio's verify batch does */
	if (unlikely(w->vbl_due)) {
		io = w->free_list[--w->nr_free];
		worker_verify_backlog_next(w, io);
		return io;
	}
	if (*gen_done)
		return NULL;
	io = w->free_list[--w->nr_free];
	io->vbl = 0;
	if (unlikely(!w->plain)) {
		if (unlikely(j->fsync_blocks | j->fdatasync_blocks)) {
			uint32_t every = j->fsync_blocks ? j->fsync_blocks : j->fdatasync_blocks;

			if (w->writes_since_sync >= every) {
				w->writes_since_sync = 0;
				io->ddir = j->fsync_blocks ? DDIR_SYNC : DDIR_DATASYNC;
				io->len = 0;
				io->offset = 0;
				return io;
			}
		}
		/* flow=: wait while this thread is ahead of its share of the flow */
		if (unlikely(w->flow != NULL) && !worker_flow_wait(w)) {
			w->free_list[w->nr_free++] = io;
			return NULL;
		}
	}
	if ((unlikely(!w->plain) && worker_ios_done(w)) ||
	    (unlikely(w->replay_on) ? worker_replay_next(w, io) : iogen_next(&w->gen, io))) {
		*gen_done = 1;
		w->free_list[w->nr_free++] = io;
		return NULL;
	}
	if (unlikely(!w->plain) && w->zbd != NULL && !w->replay_on && worker_zbd_adjust(w, io)) {
		*gen_done = 1;
		w->free_list[w->nr_free++] = io;
		return NULL;
	}
	w->nr_ios_issued++;
	if (unlikely(!w->plain)) {
		if (unlikely(w->flow != NULL)) {
			flow_issued(w->flow);
			w->flow_mine++;
		}
		if (unlikely(w->cprio != NULL))
			io->ioprio = cmdprio_pick(&w->job->cmdprio, &w->cprio_rs, io->ddir, io->len);
	}
	if (io->ddir == DDIR_WRITE) {
		w->writes_since_sync++;
		if (buffer_per_write(&w->bufgen))	/* scramble or refill, as fio */
			buffer_fill_write(&w->bufgen, io->buf, io->len, io->offset);
		if (unlikely(w->verify.method))	/* headers and checksums, as fio */
			verify_fill(&w->verify, io->buf, io->len, io->offset);
	}
	return io;
}

/* An io_u's t_issue while it waits for a thinktime to start (all I/O done). */
#define WORKER_THINK (UINT64_MAX - 1)

/*
 * thinktime: everything issued has completed at @now.  Spin thinktime_spin
 * (busy, as fio's "simulate a CPU-bound pause"), then return when the
 * sleep for the rest of thinktime ends.
 */
static uint64_t worker_think(struct worker *w, uint64_t now)
{
	uint64_t spin_end = now + w->think_spin_ticks;

	while (clock_ticks(w->clk) < spin_end)
		;
	return now + w->think_ticks;
}

/*
 * serialize_overlap: whether @io overlaps an I/O of this job that is queued
 * or in flight.  A scan of the depth's spans, as fio scans its io_us: the
 * depth is small and the option trades depth for ordering anyway.
 */
static int worker_overlaps(const struct worker *w, const struct io_u *io)
{
	uint64_t lo = io->offset, hi = io->offset + io->len;
	unsigned i;

	if (hi == lo)
		return 0;	/* a sync covers no bytes */
	for (i = 0; i < w->ctx.depth; i++) {
		const struct worker_span *s = &w->span[i];

		if (s->hi != s->lo && s->file == io->file && lo < s->hi && s->lo < hi)
			return 1;
	}
	return 0;
}

/*
 * verify_backlog: read-backs start being issued at @now (the window opens),
 * or the first other I/O after them is (it closes: its time since the
 * measurement started is read's runtime, not write's).
 */
static void worker_vbl_window(struct worker *w, uint64_t now)
{
	w->vbl_win = !w->vbl_win;
	if (w->vbl_win) {
		w->vbl_t0 = now;
		return;
	}
	if (atomic_load_explicit(&w->measuring, memory_order_relaxed) && now > w->t_measure)
		w->vbl_ns += clock_ticks_to_ns(w->clk, now - (w->vbl_t0 > w->t_measure ? w->vbl_t0 :
							       w->t_measure));
}

/* Queue what may be queued now; returns the number left queued (uncommitted). */
static unsigned worker_fill(struct worker *w, uint64_t *now, struct io_u **pending,
			    int *gen_done, struct io_u **queued)
{
	const struct engine_ops *ops = w->ops;
	unsigned nq = 0, inl = 0, limit = w->commit_max;
	struct io_u *io;

	if (unlikely(!w->plain) && w->zbd != NULL) {	/* for worker_zbd_quiesce */
		w->zq_queued = queued;
		w->zq_nq = &nq;
		w->zq_now = now;
	}
	while ((io = worker_next_io(w, pending, gen_done))) {
		int r;

		/* a plain job's I/O goes straight to the engine (worker_plan) */
		if (unlikely(!w->plain)) {
			/* fio: from a read-back's issue to the next other I/O's is read's runtime */
			if (unlikely(io->vbl != w->vbl_win))
				worker_vbl_window(w, *now);
			if (unlikely(rate_enabled(&w->rate)) && !io->vbl && io->ddir < DDIR_NR && !io->t_issue) {
				uint64_t at = w->t_rate_base +
					      clock_ns_to_ticks(w->clk, rate_next_ns(&w->rate, (enum ddir)io->ddir, io->len));

				io->t_issue = at;	/* remembered while pending */
				io->t_due = at;		/* and kept past issue: lat_from_due */
				io->due = 1;
			}
			if (unlikely(w->think_ticks) && !io->vbl && io->ddir < DDIR_NR && !io->t_issue &&
			    ++w->think_issued > w->job->thinktime_blocks) {
				w->think_issued = 1;
				io->t_issue = WORKER_THINK;	/* once the I/Os in flight are done */
			}
			if (unlikely(io->t_issue > *now)) {
				if (w->inflight + nq > 0) {
					*pending = io;
					break;
				}
				if (io->t_issue == WORKER_THINK)
					io->t_issue = worker_think(w, *now);
				/* wake for the next event too: a slow rate must not stretch
				 * intervals, the ramp or the run (test_worker) */
				worker_sleep_until(w, io->t_issue < w->t_next_event ? io->t_issue : w->t_next_event);
				*now = clock_ticks(w->clk);
				/* the run may have ended while we slept: issue nothing past it */
				if (*now >= w->t_next_event ||
				    atomic_load_explicit(&w->stop, memory_order_relaxed)) {
					*pending = io;
					break;
				}
			}
			/* an overlapping I/O waits, as a busy engine's, for completions */
			if (unlikely(w->span != NULL) && w->inflight + nq > 0 && worker_overlaps(w, io)) {
				*pending = io;
				w->overlap_waits++;
				break;
			}
			if (unlikely(w->iolw_on) && !io->vbl)	/* write_iolog: as issued (not the read-backs) */
				iolog_record(&w->iolw, clock_ticks_to_ns(w->clk, *now - w->t_begin) / 1000, io);
		}
		io->t_start = *now;
		io->t_issue = *now;
		io->untimed = 0;
		if (unlikely(!w->plain) && io->ddir == DDIR_TRIM && w->zbd != NULL &&
		    zbd_trim_done(w->zbd, io)) {
			io->res = io->len;	/* zonemode=zbd: the trim was its zone's reset */
			r = ENGINE_Q_COMPLETED;
		} else {
			r = ops->queue(&w->ctx, io);
		}
		if (likely(r == ENGINE_Q_QUEUED)) {
			if (unlikely(!w->plain) && w->span != NULL)
				w->span[io->index] = (struct worker_span){ io->offset,
					io->offset + io->len, io->file };
			queued[nq++] = io;
			if (nq >= limit)
				break;
			continue;
		}
		if (r == ENGINE_Q_COMPLETED) {
			uint64_t t = clock_ticks(w->clk);

			if (unlikely(!w->plain) && w->zbd != NULL)
				zbd_done(w->zbd, io);
			inl++;
			if (likely((uint64_t)io->res == io->len && io->ddir < DDIR_NR &&
				   !w->reap_each && !io->untimed)) {
				/* the common case, as a reap's: a run of one */
				struct worker_run one = { .t_start = io->t_start, .t_issue = io->t_issue,
							  .n = 1, .bytes = io->len, .ddir = io->ddir };

				worker_account_run(w, &one, t);
			} else {
				worker_account(w, io, t);
			}
			io->t_issue = 0;
			io->due = 0;
			w->free_list[w->nr_free++] = io;
			*now = t;
			if (unlikely(w->error) || unlikely(t >= w->t_next_event))
				break;
			continue;
		}
		if (r == ENGINE_Q_BUSY) {
			*pending = io;
			break;
		}
		io->res = r;
		if (unlikely(!w->plain) && w->zbd != NULL)
			zbd_done(w->zbd, io);
		worker_account(w, io, *now);
		w->free_list[w->nr_free++] = io;
		break;
	}
	if (unlikely(!w->plain) && w->zbd != NULL)
		w->zq_nq = NULL;	/* nq goes out of scope */
	if (inl) {
		/* completed inline: each one a submit and a completion of 1 at depth 1 */
		w->st.depth_level[0] += inl;
		w->st.depth_submit[1] += inl;
		w->st.depth_complete[1] += inl;
		w->st.total_submit += inl;
		w->st.total_complete += inl;
	}
	return nq;
}

/*
 * Commit what worker_fill() queued; with @wait_min, through the engine's
 * commit_wait (only when no submission time is recorded: worker_prepare).
 * The I/Os of a batch that started together get their slat as one run.
 * *@now becomes the issue time, so the next refill's I/Os start after it.
 */
static int worker_commit(struct worker *w, struct io_u **queued, unsigned nq, unsigned wait_min,
			 uint64_t *now)
{
	const struct clock *c = w->clk;
	int slat_hist = w->job->slat_percentiles;
	uint64_t t;
	unsigned i, k;
	/* no commit: a synchronous engine never leaves an I/O queued (engine.h) */
	int r = wait_min ? w->ops->commit_wait(&w->ctx, wait_min) :
		w->ops->commit ? w->ops->commit(&w->ctx) : 0;

	if (r < 0) {
		worker_fail_op(w, -r, nq ? queued[0] : NULL, "submit");
		return r;
	}
	if (wait_min) {
		/*
		 * Submitted and waited in one enter: no issue time exists (neither
		 * slat nor clat is kept, worker_prepare), so none is read; each
		 * I/O counts as issued when it started (clat is lat), and the reap
		 * that follows reads the clock before anything uses *@now.
		 */
		for (i = 0; i < nq; i++)
			queued[i]->t_issue = queued[i]->t_start;
		goto booked;
	}
	t = clock_ticks(c);
	*now = t;
	for (i = 0; i < nq; i = k) {
		struct io_u *io = queued[i];

		io->t_issue = t;
		for (k = i + 1; k < nq && queued[k]->t_start == io->t_start &&
				queued[k]->ddir == io->ddir; k++)
			queued[k]->t_issue = t;
		if (io->ddir < DDIR_NR && !w->slat_off) {
			uint64_t slat = clock_ticks_to_ns(c, t - io->t_start);
			struct worker_dir *d = &w->st.dir[io->ddir];

			lat_acc_add_n(&d->slat, slat, k - i);
			if (slat_hist)
				hist_add_n(&d->slat_hist, slat, k - i);
		}
	}
booked:
	w->inflight += nq;
	w->st.depth_level[depth_bucket(w->inflight)] += nq;
	w->st.depth_submit[batch_bucket(nq)]++;
	w->st.total_submit++;
	return 0;
}

/*
 * Reap at least @min completions; with @until (ticks, 0: none) stop waiting
 * then, even with fewer (io_submit_mode=offload).  Inlined into the loop's
 * one call (a call's register saves were 20 instructions per reap);
 * worker_reap() is the copy for the drain and latency_target.
 */
static inline __attribute__((always_inline)) int worker_reap_in(struct worker *w, unsigned min,
								 uint64_t until, uint64_t *now)
{
	unsigned max = w->reap_max;
	int log_on = w->reap_each, n, i;	/* per-I/O accounting (worker_plan_reap) */
	struct worker_run run = { 0 };	/* run.n = 0: no run yet */

	if (min > w->inflight)
		min = w->inflight;
	if (unlikely(until)) {
		uint64_t t = clock_ticks(w->clk);
		uint64_t ns = until > t ? clock_ticks_to_ns(w->clk, until - t) : 0;

		n = w->ops->getevents_timed(&w->ctx, ns ? min : 0, max, w->events, ns ? ns : 1);
	} else {
		n = w->ops->getevents ? w->ops->getevents(&w->ctx, min, max, w->events) : 0;
	}
	if (n < 0) {
		if (n == -EINTR)
			return 0;
		worker_fail_op(w, -n, NULL, "reap");
		return n;
	}
	*now = clock_ticks(w->clk);
	if (unlikely(!w->plain) && w->zbd != NULL)	/* zonemode=zbd: the zones learn first */
		for (i = 0; i < n; i++)
			zbd_done(w->zbd, w->events[i]);
	for (i = 0; i < n; i++) {
		struct io_u *io = w->events[i];

		if (likely((uint64_t)io->res == io->len && io->ddir < DDIR_NR && !log_on)) {
			if (run.n && io->t_start == run.t_start && io->t_issue == run.t_issue &&
			    io->ddir == run.ddir) {
				run.n++;
				run.bytes += io->len;
			} else {
				if (run.n)
					worker_account_run(w, &run, *now);
				run.t_start = io->t_start;
				run.t_issue = io->t_issue;
				run.n = 1;
				run.bytes = io->len;
				run.ddir = io->ddir;
			}
		} else {
			/* errors, short I/O, syncs and per-I/O logs: one at a time, in order */
			if (run.n)
				worker_account_run(w, &run, *now);
			run.n = 0;
			worker_account(w, io, *now);
		}
		io->t_issue = 0;
		io->due = 0;
		if (unlikely(!w->plain) && w->span != NULL)
			w->span[io->index].hi = w->span[io->index].lo;
		w->free_list[w->nr_free++] = io;
	}
	if (run.n)
		worker_account_run(w, &run, *now);
	w->inflight -= (unsigned)n;
	if (n) {
		w->st.depth_complete[batch_bucket((unsigned)n)]++;
		w->st.total_complete++;
	}
	return n;
}

static __attribute__((noinline)) int worker_reap(struct worker *w, unsigned min, uint64_t until,
						 uint64_t *now)
{
	return worker_reap_in(w, min, until, now);
}

/* The per-I/O path's shortcuts (worker_types.h): what this job leaves out. */
static void worker_plan(struct worker *w)
{
	const struct job *j = w->job;

	w->plain = !(j->fsync_blocks | j->fdatasync_blocks) && !w->flow && !j->number_ios &&
		   !w->replay_on && !w->cprio && !rate_enabled(&w->rate) && !w->think_ticks &&
		   !w->vbl_size && !w->span && !w->iolw_on && !w->zbd;
	if (w->zbd) {
		w->zbd->quiesce = worker_zbd_quiesce;
		w->zbd->quiesce_arg = w;
		w->zbd_loops = w->gen.loops_left;
	}
	worker_plan_reap(w);
}

void worker_loop(struct worker *w)
{
	struct io_u *pending = NULL;
	struct io_u **queued = w->events + w->ctx.depth;	/* second half of the array */
	unsigned min_complete = w->job->iodepth_batch_complete_min;
	int gen_done = 0;
	uint64_t now = clock_ticks(w->clk);

	if (!min_complete)
		min_complete = 1;
	worker_plan(w);
	for (;;) {
		unsigned nq, min;
		uint64_t until;

		if (now >= w->t_next_event) {
			uint64_t rate_base = w->t_rate_base;

			if (worker_event(w, &now))
				break;
			/* the ramp ended and the rate schedule restarted: an I/O held
			 * for its old slot takes the new schedule's first one */
			if (pending && w->t_rate_base != rate_base)
				pending->t_issue = 0;
		}
		if (atomic_load_explicit(&w->stop, memory_order_relaxed) || w->error)
			break;
		nq = worker_fill(w, &now, &pending, &gen_done, queued);
		/* reap waits only when nothing more can be issued now */
		min = pending || w->nr_free <= w->io_reserve || gen_done ? min_complete : 0;
		if (nq && worker_commit(w, queued, nq, w->commit_wait ? min : 0, &now))
			break;
		/*
		 * iodepth_batch_submit caps one submission, not the depth: keep
		 * filling until the queue is full, as fio does, before reaping.
		 * Otherwise each loop would refill one and reap many, and the
		 * device would see far less than iodepth in flight.
		 */
		if (nq && w->nr_free > w->io_reserve && !gen_done && !pending && now < w->t_next_event)
			continue;
		if (!w->inflight) {
			if (gen_done && !pending)
				break;
			if (!nq)
				now = clock_ticks(w->clk);
			continue;
		}
		/*
		 * io_submit_mode=offload: a rated I/O waiting for its slot does not
		 * wait for a completion too.  fio hands submission to another thread
		 * for this; here the wait for completions ends when the slot comes
		 * (completions are still reaped as they arrive), so submissions keep
		 * the schedule whatever the device's latency, while the engine stays
		 * on one thread.
		 */
		until = 0;
		if (unlikely(w->job->submit_offload) && pending && pending->t_issue > now &&
		    pending->t_issue != WORKER_THINK)
			until = pending->t_issue < w->t_next_event ? pending->t_issue : w->t_next_event;
		if (worker_reap_in(w, min, until, &now) < 0)
			break;
	}
	/* Drain: every io_u in flight must come back before buffers are freed. */
	while (w->inflight) {
		if (worker_reap(w, 1, 0, &now) < 0)
			break;
	}
	w->t_last = clock_ticks(w->clk);
	if (w->vbl_win)		/* the job ended in read-backs */
		worker_vbl_window(w, w->t_last);
}
