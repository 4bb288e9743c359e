/*
 * run_status: the status lines and progress of a run (run.h's struct
 * run_progress): each stonewall group's entries grouped as the report groups
 * them, their new intervals merged across threads and handed to the
 * progress callback as they complete, and the live steady-state verdict.
 * Called by run.c's wait loop; nothing here is per I/O.
 */
#include "run/run.h"
#include "run/run_int.h"

#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* memset */
#include "steady/job_steady.h"	/* the reporting rule of each entry */
#include "steady/steady_live.h"	/* status lines: "steady since" */
#include "lib/vec.h"		/* vec_grow: the status scratch */

/*
 * Bounded memory (docs/time-series.md, long runs): the threads' series keep only what is still to be read.  Each
 * worker drops intervals before its series_hold: the smaller of what the
 * status lines and its group's collector have not read yet (SIZE_MAX when
 * neither reads it).
 */
void run_hold_publish(struct run_state *s, size_t i)
{
	size_t h = s->hold_status[i] < s->hold_grp[i] ? s->hold_status[i] : s->hold_grp[i];

	atomic_store(&s->w[i].series_hold, h);
}

void run_status_free(struct run_status *st)
{
	free(st->e);
	free(st->job);
	free(st->done_nr);
	free(st->of);
	free(st->sent);
	free(st->ready);
	free(st->caught_up);
	free(st->live_sent);
	free(st->live_ready);
	free(st->h);
	for (size_t k = 0; st->live && k < st->nr; k++)
		steady_live_free(&st->live[k]);
	free(st->live);
	free(st->acc);
	memset(st, 0, sizeof(*st));
}

/* Build the entries; on failure st->e stays NULL and no status is given. */
void run_status_init(struct run_state *s, struct run_status *st, size_t first, size_t end)
{
	size_t n = end - first, i, k;

	memset(st, 0, sizeof(*st));
	st->e = calloc(n ? n : 1, sizeof(*st->e));
	st->job = calloc(n ? n : 1, sizeof(*st->job));
	st->done_nr = calloc(n ? n : 1, sizeof(*st->done_nr));
	st->of = calloc(n ? n : 1, sizeof(*st->of));
	st->sent = calloc(n ? n : 1, sizeof(*st->sent));
	st->ready = calloc(n ? n : 1, sizeof(*st->ready));
	st->live_sent = calloc(n ? n : 1, sizeof(*st->live_sent));
	st->live_ready = calloc(n ? n : 1, sizeof(*st->live_ready));
	st->caught_up = calloc(n ? n : 1, sizeof(*st->caught_up));
	st->h = malloc(DDIR_NR * sizeof(*st->h));
	st->live = calloc(n ? n : 1, sizeof(*st->live));
	if (!st->e || !st->job || !st->done_nr || !st->of || !st->sent || !st->ready || !st->caught_up || !st->h ||
	    !st->live || !st->live_sent || !st->live_ready) {
		run_status_free(st);
		return;
	}
	for (i = first; i < end; i++) {
		const struct worker *w = &s->w[i];
		unsigned rw = w->job->rw;

		for (k = 0; k < st->nr; k++)
			if (w->job->group_reporting && st->e[k].groupid == w->groupid &&
			    st->job[k]->group_reporting)
				break;	/* run_collect's grouping */
		if (k == st->nr) {
			st->job[k] = w->job;
			st->e[k].name = w->job->name;
			st->e[k].groupid = w->groupid;
			st->e[k].clone = w->jobnum;
			st->nr++;
		}
		st->e[k].threads++;
		st->e[k].dirs |= (rw & (RW_READ | RW_WRITE | RW_TRIM)) |
				 ((rw & RW_TRIMWRITE) ? RW_WRITE | RW_TRIM : 0);
		st->of[i - first] = k;
	}
	for (k = 0; k < st->nr; k++) {
		struct steady_cfg c;

		/* the reporting rule; a job without one (or on failure) tracks nothing */
		if (!job_steady_cfg(st->job[k], 0, &c, NULL))
			steady_live_init(&st->live[k], &c);
	}
}

/*
 * Feed entry @k's final intervals not fed yet, summed over its threads, to
 * its live steady-state tracker (steady_live.h), and copy the verdict into
 * @e.  Only final ones (st->live_ready): a running thread's last interval
 * may still grow (series.h, slivers), and a verdict on what it held before
 * would not be the report's.  The status figures do not wait for that; the
 * verdict does.  Without memory for the sums the tracker goes off.
 */
static void run_status_live(struct run_state *s, struct run_status *st, size_t k, size_t first,
			   size_t end, struct run_progress_job *e)
{
	struct steady_live *l = &st->live[k];
	size_t lo = st->live_sent[k], hi = st->live_ready[k];

	if (l->cfg.rule != STEADY_OFF && hi > lo) {
		if (vec_grow((void **)&st->acc, &st->acc_cap, hi - lo, sizeof(*st->acc), 16)) {
			steady_live_free(l);	/* no memory: no live verdict */
		} else {
			memset(st->acc, 0, (hi - lo) * sizeof(*st->acc));
			for (size_t i = first; i < end; i++) {
				struct worker *w = &s->w[i];
				const struct series *sr = &w->series;

				if (st->of[i - first] != k)
					continue;
				pthread_mutex_lock(&w->lock);
				for (size_t j = lo > sr->base ? lo : sr->base; j < hi && j < series_end(sr); j++)
					steady_live_pick(&l->cfg, series_at(sr, j), &st->acc[j - lo]);
				pthread_mutex_unlock(&w->lock);
			}
			for (size_t j = lo; j < hi; j++)
				steady_live_add(l, &st->acc[j - lo]);
		}
	}
	if (hi > lo)
		st->live_sent[k] = hi;
	e->steady = l->cfg.rule == STEADY_OFF ? -1 : (int)l->state;
	e->steady_since_ms = l->since_ms;
	e->steady_lost_ms = l->lost_ms;
}

/*
 * How many intervals each entry has complete in all its threads (a thread
 * still running holds the group back; an ended one does not), and whether
 * they span at least about @period_ns past what was delivered.  Returns 1
 * when every entry with a running thread is caught up that way.
 */
int run_status_ready(struct run_state *s, struct run_status *st, size_t first, size_t end,
			    uint64_t period_ns)
{
	size_t i, k;
	int all = 1;

	for (k = 0; k < st->nr; k++) {
		st->ready[k] = SIZE_MAX;	/* the fewest of the running threads */
		st->live_ready[k] = SIZE_MAX;	/* the same, less each one's last */
		st->done_nr[k] = 0;
		st->caught_up[k] = -1;
	}
	for (i = first; i < end; i++) {
		struct worker *w = &s->w[i];
		uint64_t covered = 0;
		size_t nr;
		int done = atomic_load(&w->done);	/* before nr: then nr is final */

		k = st->of[i - first];
		pthread_mutex_lock(&w->lock);
		nr = series_end(&w->series);	/* the run's interval numbers (series.h: base) */
		for (size_t j = st->sent[k] > w->series.base ? st->sent[k] : w->series.base; j < nr; j++)
			covered += series_at(&w->series, j)->dur_us;
		pthread_mutex_unlock(&w->lock);
		if (done) {
			if (nr > st->done_nr[k])
				st->done_nr[k] = nr;
			continue;
		}
		if (nr < st->ready[k])
			st->ready[k] = nr;
		/* final: a later interval exists (series_group's rule) */
		if ((nr ? nr - 1 : 0) < st->live_ready[k])
			st->live_ready[k] = nr ? nr - 1 : 0;
		/* 10% slack: intervals last as asked, give or take a tick */
		if (st->caught_up[k] != 0)
			st->caught_up[k] = covered * 1000 * 10 >= period_ns * 9;
	}
	for (k = 0; k < st->nr; k++) {
		if (st->caught_up[k] < 0)	/* all ended: everything is final */
			st->ready[k] = st->live_ready[k] = st->done_nr[k];
		if (st->ready[k] < st->sent[k])
			st->ready[k] = st->sent[k];
		if (st->live_ready[k] < st->live_sent[k])
			st->live_ready[k] = st->live_sent[k];
		if (st->caught_up[k] == 0)
			all = 0;
	}
	return all;
}

/* Add one thread's intervals [lo, hi) of entry @e's phase into @e and st->h. */
static void run_status_add(struct run_status *st, struct run_progress_job *e, const struct series *sr,
			   size_t lo, size_t hi)
{
	uint64_t dur = 0;

	for (size_t j = lo; j < hi && j < series_end(sr); j++) {
		const struct series_iv *iv = series_at(sr, j);

		dur += iv->dur_us;
		if (iv->t_ms > e->t_ms)
			e->t_ms = iv->t_ms;
		for (int d = 0; d < DDIR_NR; d++) {
			struct run_progress_dir *pd = &e->d[d];
			const struct series_dir *sd = &iv->d[d];

			if (!sd->ios)
				continue;
			pd->ios += sd->ios;
			pd->bytes += sd->bytes;
			pd->lat_mean += (double)sd->lat_sum_ns;	/* a sum until the end */
			if (sd->lat_min < pd->lat_min)
				pd->lat_min = sd->lat_min;
			if (sd->lat_max > pd->lat_max)
				pd->lat_max = sd->lat_max;
			series_hist_add(sr, j, (enum ddir)d, &st->h[d]);
		}
	}
	if (dur > e->dur_us)
		e->dur_us = dur;
}

/*
 * Fill the entries' figures over their ready, undelivered intervals, cut at
 * a ramp/measured boundary.  Returns 1 when some entry was cut there (call
 * again for the rest), 0 otherwise.
 */
static int run_status_fill(struct run_state *s, struct run_status *st, size_t first, size_t end)
{
	static const double pcts[3] = { 50.0, 99.0, 99.9 };
	int more = 0;

	for (size_t k = 0; k < st->nr; k++) {
		struct run_progress_job *e = &st->e[k];
		size_t lo = st->sent[k], hi = st->ready[k];
		int phase_set = 0;

		e->nr_iv = 0;
		e->first_iv = lo;
		e->t_ms = e->dur_us = 0;
		e->ramp = 0;
		memset(e->d, 0, sizeof(e->d));
		run_status_live(s, st, k, first, end, e);
		if (hi <= lo)
			continue;
		for (int d = 0; d < DDIR_NR; d++)
			e->d[d].lat_min = UINT64_MAX;
		memset(st->h, 0, DDIR_NR * sizeof(*st->h));
		for (size_t i = first; i < end; i++) {
			struct worker *w = &s->w[i];

			if (st->of[i - first] != k)
				continue;
			pthread_mutex_lock(&w->lock);
			if (!phase_set && lo < series_end(&w->series)) {
				/* the phase of the first interval; stop where it changes */
				size_t j = lo;

				e->ramp = (int)series_at(&w->series, lo)->ramp;
				while (j < hi && j < series_end(&w->series) &&
				       (int)series_at(&w->series, j)->ramp == e->ramp)
					j++;
				if (j < hi) {
					hi = j;
					more = 1;
				}
				phase_set = 1;
			}
			run_status_add(st, e, &w->series, lo, hi);
			pthread_mutex_unlock(&w->lock);
		}
		e->nr_iv = hi - lo;
		st->sent[k] = hi;
		for (int d = 0; d < DDIR_NR; d++) {
			struct run_progress_dir *pd = &e->d[d];
			double secs = (double)e->dur_us / 1e6;
			uint64_t v[3];

			if (pd->ios)
				e->dirs |= 1u << d;
			else
				pd->lat_min = 0;
			pd->lat_mean = pd->ios ? pd->lat_mean / (double)pd->ios : 0;
			pd->iops = secs > 0 ? (double)pd->ios / secs : 0;
			pd->bw_bytes = secs > 0 ? (double)pd->bytes / secs : 0;
			hist_percentiles(&st->h[d], pcts, 3, v);
			for (int q = 0; q < 3 && pd->ios; q++)	/* within the exact extremes */
				v[q] = v[q] > pd->lat_max ? pd->lat_max : v[q] < pd->lat_min ? pd->lat_min : v[q];
			pd->p50 = v[0];
			pd->p99 = v[1];
			pd->p999 = v[2];
		}
	}
	return more;
}

/* Bytes a job that ends with its size moves (io_size, or size, times loops). */
static double job_plan_bytes(const struct job *j)
{
	return (double)(j->io_size ? j->io_size : j->size) * (j->loops ? j->loops : 1);
}

/*
 * Seconds a thread that has not started yet will take, from its group's
 * start: startdelay + ramp_time + runtime, or -1 when it ends with its size
 * (no runtime: not known before it runs).
 */
static double job_plan_s(const struct job *j)
{
	if (!j->runtime_us)
		return -1;
	return (double)(j->startdelay_us + j->ramp_time_us + j->runtime_us) / 1e6;
}

/*
 * Seconds worker @w of the running group has left, @g_el seconds after the
 * group started, or -1 when not known.  A runtime bounds it; a job that ends
 * with its size (before the runtime, when it has one) is estimated from its
 * own rate since its I/O began.
 */
static double worker_left_s(struct worker *w, double g_el)
{
	const struct job *j = w->job;
	double left = -1, plan = job_plan_s(j);

	if (atomic_load(&w->done))
		return 0;
	if (plan >= 0)
		left = plan > g_el ? plan - g_el : 0;
	if (!j->time_based && atomic_load(&w->begun)) {
		double io_s = g_el - (double)j->startdelay_us / 1e6, done = 0, all = job_plan_bytes(j);

		for (int d = 0; d < DDIR_NR; d++)
			done += (double)atomic_load_explicit(&w->live_bytes[d], memory_order_relaxed);
		if (done > 0 && io_s > 0 && all > 0) {
			double est = done >= all ? 0 : io_s * (all - done) / done;

			if (left < 0 || est < left)
				left = est;
		}
	}
	return left;
}

/*
 * The time the run has left, over every group: what the running group's
 * threads have left (its longest) plus each later group's plan (its longest
 * thread's startdelay + ramp + runtime).  -1 when some part is not known (a
 * later group's job ends with its size).
 */
static double run_left_s(struct run_state *s, size_t first, size_t end, uint64_t now)
{
	double g_el = (double)(now - s->grp_t0_ns) / 1e9, left = 0;
	size_t i, g, ge;

	for (i = first; i < end; i++) {
		double l = worker_left_s(&s->w[i], g_el);

		if (l < 0)
			return -1;
		if (l > left)
			left = l;
	}
	for (g = end; g < s->nr; g = ge) {
		double plan = 0;

		ge = run_group_end(s, g);
		for (i = g; i < ge; i++) {
			double p = job_plan_s(s->w[i].job);

			if (p < 0)
				return -1;
			if (p > plan)
				plan = p;
		}
		left += plan;
	}
	return left;
}

/* Call the progress callback; with @st, its entries' new intervals too. */
void run_progress(struct run_state *s, size_t first, size_t end, struct run_status *st,
			 int with_data, int final)
{
	const struct run_req *req = s->req;
	struct run_progress p;
	uint64_t now = clock_now_ns(&s->clk);
	double planned = 0, done = 0, time_based = 0;
	size_t i;
	int d;

	memset(&p, 0, sizeof(p));
	p.elapsed_s = (double)(now - s->t0_ns) / 1e9;
	p.total = (unsigned)s->nr;
	/* the counts over every thread of the run, so they never go down at a group change */
	for (i = 0; i < s->nr; i++) {
		struct worker *w = &s->w[i];

		for (d = 0; d < DDIR_NR; d++) {
			p.ios[d] += atomic_load_explicit(&w->live_ios[d], memory_order_relaxed);
			p.bytes[d] += atomic_load_explicit(&w->live_bytes[d], memory_order_relaxed);
			done += (double)atomic_load_explicit(&w->live_bytes[d], memory_order_relaxed);
		}
		time_based += w->job->time_based;
		planned += job_plan_bytes(w->job);
	}
	for (i = first; i < end; i++) {
		struct worker *w = &s->w[i];

		if (atomic_load(&w->done))
			continue;
		p.running++;
		if (!atomic_load(&w->begun))
			p.delaying |= w->job->startdelay_us > 0;
		else if (!atomic_load(&w->measuring))
			p.ramping = 1;
	}
	p.eta_s = run_left_s(s, first, end, now);
	p.pct = -1;
	if (p.eta_s >= 0 && p.elapsed_s + p.eta_s > 0)
		p.pct = 100.0 * p.elapsed_s / (p.elapsed_s + p.eta_s);
	else if (!time_based && planned > 0)	/* every job ends with its size */
		p.pct = 100.0 * (done < planned ? done : planned) / planned;
	p.final = final;
	if (st && st->e) {
		p.jobs = st->e;
		p.nr_jobs = st->nr;
		for (i = 0; i < st->nr; i++) {
			if (!with_data)
				st->e[i].nr_iv = 0;
			if (st->e[i].nr_iv)
				p.new_intervals = 1;
		}
	}
	req->progress(req->progress_arg, &p);
}

/* Deliver what is ready (all of it when @final), in phase-pure calls. */
void run_status_deliver(struct run_state *s, size_t first, size_t end, struct run_status *st,
			       int final)
{
	int more;

	do {
		more = run_status_fill(s, st, first, end);
		run_progress(s, first, end, st, 1, final && !more);
	} while (more);
	st->last_data_ns = clock_now_ns(&s->clk);
	for (size_t i = first; i < end; i++) {
		size_t k = st->of[i - first];

		/* what neither the figures nor the verdict have read */
		s->hold_status[i] = st->live_sent[k] < st->sent[k] ? st->live_sent[k] : st->sent[k];
		run_hold_publish(s, i);
	}
}
