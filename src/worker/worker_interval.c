/*
 * worker_interval: what a worker does once per interval, off the per-I/O path
 * (worker.c calls it from worker_event when the clock passes t_next_event):
 * fio's bw/iops samples every 500 ms and the rate_min check beside them,
 * closing a series interval (and the device's view of it, the stop rule, the
 * sink), the statistics reset at the end of the ramp.
 */
#include "worker/worker.h"
#include "worker/worker_int.h"
#include "env/schedstat.h"

#include <errno.h>	/* ENOMEM, EIO */
#include <stdio.h>	/* snprintf */
#include <string.h>	/* memset */

void worker_mark(struct worker *w, struct worker_mark *m, uint64_t now)
{
	int d;

	m->ticks = now;
	for (d = 0; d < DDIR_NR; d++) {
		m->ios[d] = w->st.dir[d].ios;
		m->bytes[d] = w->st.dir[d].bytes;
		m->lat_sum[d] = w->st.dir[d].lat.sum;
		m->lat_n[d] = w->st.dir[d].lat.n;
	}
}

/*
 * Keep a sample for the group (every 500 ms, not per I/O: it may allocate
 * and lock).  Out of memory: the group figures miss a sample, nothing worse.
 */
static void worker_keep_sample(struct worker *w, int d, double bw, double iops)
{
	if (!w->samp_keep)
		return;
	pthread_mutex_lock(&w->lock);
	(void)sample_seq_push(&w->samp[d], bw, iops);
	pthread_mutex_unlock(&w->lock);
}

/* The ETA line's counts: every I/O so far, across the statistics' restarts. */
static void worker_live_publish(struct worker *w)
{
	for (int d = 0; d < DDIR_NR; d++) {
		atomic_store_explicit(&w->live_ios[d], w->reset_ios[d] + w->st.dir[d].ios,
				      memory_order_relaxed);
		atomic_store_explicit(&w->live_bytes[d], w->reset_bytes[d] + w->st.dir[d].bytes,
				      memory_order_relaxed);
	}
}

/* fio's bw/iops samples: one per direction the job issues, every 500 ms. */
void worker_sample(struct worker *w, uint64_t now)
{
	double secs = (double)clock_ticks_to_ns(w->clk, now - w->mark_sample.ticks) / 1e9;
	int d;

	if (secs <= 0)
		return;
	for (d = 0; d < DDIR_NR; d++) {
		uint64_t ios = w->st.dir[d].ios - w->mark_sample.ios[d];
		uint64_t bytes = w->st.dir[d].bytes - w->mark_sample.bytes[d];

		if (!(w->job->rw & (1u << d)) && !ios)
			continue;
		sample_stat_add(&w->bw_kib[d], (double)bytes / 1024.0 / secs);
		sample_stat_add(&w->iops[d], (double)ios / secs);
		worker_keep_sample(w, d, (double)bytes / 1024.0 / secs, (double)ios / secs);
	}
	worker_live_publish(w);		/* for the ETA line, twice a second */
	worker_mark(w, &w->mark_sample, now);
}

/*
 * rate_min / rate_iops_min, checked at the sample ticks as fio does: nothing
 * in the first 2 s of measurement (fio's settle period), then the first
 * cycle starts, and a direction the job issues that did less than its
 * minimum over a rate_cycle ends the job with EIO and says by how much.
 */
void worker_rate_min(struct worker *w, uint64_t now)
{
	const struct job *j = w->job;
	struct worker_mark *m = &w->mark_rate_min;
	uint64_t ns, bps, iops;
	int d;

	if (clock_ticks_to_ns(w->clk, now - w->t_measure) < 2000000000ull)
		return;
	if (!m->ticks) {	/* the first cycle starts after the settle period */
		worker_mark(w, m, now);
		return;
	}
	ns = clock_ticks_to_ns(w->clk, now - m->ticks);
	if (ns < (uint64_t)j->rate_cycle_ms * 1000000)
		return;
	for (d = 0; d < DDIR_NR; d++) {
		if (!(j->rw & (1u << d)))
			continue;
		bps = (uint64_t)((double)(w->st.dir[d].bytes - m->bytes[d]) * 1e9 / (double)ns);
		iops = (uint64_t)((double)(w->st.dir[d].ios - m->ios[d]) * 1e9 / (double)ns);
		if ((j->rate_min[d] && bps < j->rate_min[d]) ||
		    (j->rate_iops_min[d] && iops < j->rate_iops_min[d])) {
			if (w->error)
				return;
			w->error = EIO;
			snprintf(w->first_error, sizeof(w->first_error),
				 "%s: minimum rate not met over %u ms: %llu B/s, %llu IOPS "
				 "(rate_min %llu B/s, rate_iops_min %llu)", job_ddir_name(d),
				 j->rate_cycle_ms, (unsigned long long)bps, (unsigned long long)iops,
				 (unsigned long long)j->rate_min[d], (unsigned long long)j->rate_iops_min[d]);
			return;
		}
	}
	worker_mark(w, m, now);
}

/*
 * Bounded memory (docs/time-series.md, long runs): hand the final intervals to the sink, and drop from the series
 * what nobody reads any more: below run.c's hold, the sink's and the stop
 * rule's needs (the last rounds, and nothing before the first eligible
 * interval: steady_first_eligible counts from there).  Trimmed 64 at a time
 * so the move is paid once per 64 intervals.
 */
static void worker_series_flow(struct worker *w)
{
	size_t end = series_end(&w->series), upto = atomic_load(&w->series_hold);

	while (w->sink_on && w->sink.fed + 1 < end) {	/* the last one may still grow */
		int r = series_sink_add(&w->sink, &w->series, w->sink.fed);

		if (r) {
			if (!w->error)
				worker_fail(w, -r, NULL);
			break;
		}
	}
	if (w->sink_on && series_sink_keep(&w->sink) < upto)
		upto = series_sink_keep(&w->sink);
	if (w->ss_on) {
		size_t e = steady_first_eligible(&w->ss_cfg, &w->series);
		size_t back = ((size_t)w->ss_cfg.window + 1) * w->ss_cfg.round_intervals;

		if (e < upto)
			upto = e;
		if (end < back)
			upto = 0;
		else if (end - back < upto)
			upto = end - back;
	}
	if (upto >= w->series.base + 64) {
		pthread_mutex_lock(&w->lock);
		series_trim(&w->series, upto);
		pthread_mutex_unlock(&w->lock);
	}
}

/* Close the current series interval (ending at @now) and start the next. */
void worker_interval(struct worker *w, uint64_t now, int ramp)
{
	struct series_in in[DDIR_NR];
	uint64_t dur_ns = clock_ticks_to_ns(w->clk, now - w->mark_interval.ticks);
	uint64_t t_ms = clock_ticks_to_ns(w->clk, now - w->t_begin) / 1000000;
	int d, r;

	for (d = 0; d < DDIR_NR; d++) {
		struct worker_dir *wd = &w->st.dir[d];
		uint64_t n = wd->lat.n - w->mark_interval.lat_n[d];
		int64_t dsum = wd->lat.sum - w->mark_interval.lat_sum[d];

		hist_delta(&w->iv_hist[d], &wd->lat_hist, &w->prev_lat_hist[d]);
		w->prev_lat_hist[d] = wd->lat_hist;
		in[d].ios = wd->ios - w->mark_interval.ios[d];
		in[d].bytes = wd->bytes - w->mark_interval.bytes[d];
		in[d].lat_sum_ns = (uint64_t)((int64_t)(n * wd->lat.shift) + dsum);
		in[d].lat_min = wd->iv_lat_min;
		in[d].lat_max = wd->iv_lat_max;
		in[d].lat_hist = &w->iv_hist[d];
		wd->iv_lat_min = UINT64_MAX;
		wd->iv_lat_max = 0;
	}
	worker_live_publish(w);
	/* the series wants strictly increasing ms: a last sliver of an interval
	 * ending in the same millisecond as the previous one is stamped 1 ms on */
	if (w->series.nr && t_ms <= w->series.iv[w->series.nr - 1].t_ms)
		t_ms = w->series.iv[w->series.nr - 1].t_ms + 1;
	if (!dur_ns)
		dur_ns = 1000;
	pthread_mutex_lock(&w->lock);
	r = series_add(&w->series, t_ms, dur_ns / 1000 ? dur_ns / 1000 : 1, ramp, in);
	if (r < 0 && !w->error)
		worker_fail(w, -r, NULL);
	w->interval_nr++;
	pthread_mutex_unlock(&w->lock);
	/* the device's view of the same interval (read after the join: no lock) */
	if (!r && devwatch_interval(&w->dw, t_ms, dur_ns, clock_now_ns(w->clk), ramp) && !w->error)
		worker_fail(w, ENOMEM, NULL);
	worker_mark(w, &w->mark_interval, now);
	/* the series is only written by this thread: reading it needs no lock */
	if (w->ss_on && !ramp && steady_check(&w->ss_cfg, &w->series, &w->ss) == 0 &&
	    w->ss.attained) {
		int expected = WORKER_RUN;

		atomic_compare_exchange_strong(&w->stop, &expected, WORKER_STOP_STEADY);
	}
	worker_series_flow(w);
}

/*
 * Statistics restart from zero at @now (the caller closed the interval before
 * it): the end of the ramp, and latency_target's search start.
 */
void worker_stats_reset(struct worker *w, uint64_t now)
{
	int d;

	for (d = 0; d < DDIR_NR; d++) {
		struct worker_dir *wd = &w->st.dir[d];

		w->reset_ios[d] += wd->ios;	/* the ETA line's counts go on */
		w->reset_bytes[d] += wd->bytes;
		wd->ios = wd->bytes = wd->short_ios = wd->err_ios = 0;
		lat_acc_init(&wd->slat);
		lat_acc_init(&wd->clat);
		lat_acc_init(&wd->lat);
		lat_acc_init(&wd->due);
		memset(&wd->due_hist, 0, sizeof(wd->due_hist));
		memset(&wd->clat_hist, 0, sizeof(wd->clat_hist));
		memset(&wd->lat_hist, 0, sizeof(wd->lat_hist));
		memset(&wd->slat_hist, 0, sizeof(wd->slat_hist));
		memset(&w->prev_lat_hist[d], 0, sizeof(w->prev_lat_hist[d]));
		wd->iv_lat_min = UINT64_MAX;
		wd->iv_lat_max = 0;
	}
	w->clat_is_lat = 1;	/* both empty again (worker_types.h) */
	lat_acc_init(&w->st.sync_lat);
	memset(&w->st.sync_hist, 0, sizeof(w->st.sync_hist));
	if (w->cprio)
		memset(w->cprio->nr, 0, sizeof(w->cprio->nr));
	memset(w->st.depth_level, 0, sizeof(w->st.depth_level));
	memset(w->st.depth_submit, 0, sizeof(w->st.depth_submit));
	memset(w->st.depth_complete, 0, sizeof(w->st.depth_complete));
	w->st.total_submit = w->st.total_complete = 0;
	w->vbl_ns = 0;
	w->t_measure = now;
	getrusage(RUSAGE_THREAD, &w->ru_start);
	w->rq_wait_ok = schedstat_thread_wait(&w->rq_wait_start) == 0;
	devwatch_measure(&w->dw, clock_now_ns(w->clk));
	worker_mark(w, &w->mark_interval, now);
}

/* The ramp is over: statistics restart from zero, as fio does. */
void worker_ramp_end(struct worker *w, uint64_t now)
{
	const struct job *j = w->job;

	if (w->t_ramp_end != w->t_begin)
		worker_interval(w, now, 1);
	worker_stats_reset(w, now);
	w->t_rate_base = now;
	rate_reset(&w->rate);
	worker_mark(w, &w->mark_sample, now);
	w->t_next_sample = now + w->ticks_sample;
	w->t_next_interval = now + w->ticks_interval;
	w->log_on = fiolog_active(&w->log);
	worker_plan_reap(w);
	/* latency_target's search began the runtime already (worker_lt_start) */
	if (j->runtime_us && w->t_end == UINT64_MAX)
		w->t_end = now + clock_ns_to_ticks(w->clk, j->runtime_us * 1000);
	atomic_store_explicit(&w->measuring, 1, memory_order_release);
}
