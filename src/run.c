/*
 * run: orchestration of workers (see run.h).  Nothing here is per I/O.
 */
#include "run.h"

#include <errno.h>	/* ENOMEM */
#include <jansson.h>	/* the environment */
#include <pthread.h>
#include <signal.h>	/* sigtimedwait */
#include <stdio.h>	/* snprintf */
#include <stdint.h>	/* SIZE_MAX */
#include <stdlib.h>	/* calloc */
#include "flow.h"	/* flow_set */
#include <string.h>	/* memset */
#include <sys/time.h>	/* gettimeofday */

#include "clock.h"
#include "diskutil.h"
#include "engine.h"
#include "env.h"
#include "file.h"
#include "job_steady.h"
#include "result_check.h"
#include "series.h"
#include "series_group.h"
#include "steady.h"
#include "steady_live.h"	/* status lines: "steady since" */
#include "vec.h"		/* vec_grow: the status scratch */
#include "worker.h"

struct run_state {
	const struct run_req *req;
	struct clock clk;
	struct worker *w;
	size_t nr;
	sigset_t sigs;
	int signal;
	uint64_t t0_ns;
	int peer_stop;			/* a peer process ended early (run_sync) */
	/* issue 16: group_reporting groups' series, merged as the threads run */
	struct series_group *grp;
	size_t nr_grp;
	size_t *grp_of;			/* per worker: its group, or SIZE_MAX */
	size_t *hold_status;		/* per worker: the status lines' next interval */
	size_t *hold_grp;		/* per worker: the group's next interval */
	int grp_err;			/* a pull failed (-ENOMEM) */
	struct flow_set flows;		/* flow=: counters shared by the jobs of a flow_id */
	struct sample_group *sgrp;	/* per group: bw/iops figures, streamed */
};

static size_t run_count_threads(const struct run_req *req)
{
	size_t i, n = 0;

	for (i = 0; i < req->nr_jobs; i++)
		n += req->jobs[i].numjobs ? req->jobs[i].numjobs : 1;
	return n;
}

/* Create one worker per clone; group ids advance at stonewall/new_group. */
static int run_make_workers(struct run_state *s, struct err *e)
{
	const struct run_req *req = s->req;
	unsigned groupid = 0, k = 0;
	size_t i, c;

	s->nr = run_count_threads(req);
	s->w = calloc(s->nr, sizeof(*s->w));
	if (!s->w)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory for %zu threads", s->nr);
	if (flow_set_build(&s->flows, req->jobs, req->nr_jobs, e))
		return -ENOMEM;
	for (i = 0; i < req->nr_jobs; i++) {
		const struct job *j = &req->jobs[i];
		const struct engine_ops *ops = engine_find(j->ioengine);
		unsigned n = j->numjobs ? j->numjobs : 1;

		if (!ops)
			return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': unsupported ioengine '%s'",
				       j->name, j->ioengine ? j->ioengine : "(none)");
		if (i > 0 && (j->stonewall || j->new_group))
			groupid++;
		for (c = 0; c < n; c++, k++) {
			struct worker *w = &s->w[k];
			size_t q;

			/* wait_for: the waitee's threads, defined before this job (fio's rule) */
			for (q = 0; j->wait_for && q < k; q++) {
				if (strcmp(s->w[q].job->name, j->wait_for))
					continue;
				if (!w->wait_nr)
					w->wait_first = q;
				w->wait_nr = (unsigned)(q - w->wait_first + 1);
			}
			if (j->wait_for && !w->wait_nr)
				return err_set(e, -EINVAL, EXIT_USAGE,
					       "job '%s' (%s): wait_for=%s names no job defined before it",
					       j->name, j->origin, j->wait_for);
			w->wait_on = s->w;
			w->job = j;
			w->jobnum = (unsigned)c;
			w->thread_index = k;
			w->nr_threads = (unsigned)s->nr;
			w->groupid = groupid;
			w->clk = &s->clk;
			w->ops = ops;
			w->flow = j->flow ? flow_set_find(&s->flows, j->flow_id) : NULL;
			/* error_dump=1 (I/O errors let pass), and every verify failure let pass */
			w->error_dump = req->error_dump;
			w->error_dump_arg = req->error_dump_arg;
		}
	}
	return 0;
}

/* Lay out and open @w's targets.  0 or -errno with @e filled. */
static int run_setup_files(struct run_state *s, struct worker *w, struct err *e)
{
	int r = 0;

	if (!(w->ops->flags & ENGINE_F_NOFILES)) {
		uint64_t real = 0;

		/* a target with a size of its own (rbd's image): regions planned on it */
		if (w->ops->flags & ENGINE_F_OWNFILES) {
			if (w->ops->target_size)
				r = w->ops->target_size(w->job, &real, e);
			if (!r)
				r = file_plan_only(w->job, w->jobnum, real, &w->files, &w->nr_files, e);
		} else {
			r = file_setup(w->job, w->jobnum, s->req->readonly, &w->files,
				       &w->nr_files, e);
		}
		/*
		 * A full disk or an I/O error while laying out one job's file
		 * is that job's error, as it would be during its I/O: the
		 * other jobs run and their results are kept.  The thread is
		 * not started (run_threads) and the job reports no I/O.
		 */
		if ((r == -ENOSPC || r == -EIO || r == -EDQUOT || r == -EFBIG) &&
		    e->exit_code == EXIT_TARGET) {
			w->error = -r;
			snprintf(w->first_error, sizeof(w->first_error), "%.255s", e->msg);
			err_clear(e);
			r = 0;
		}
	}
	return r;
}

/*
 * Lay out and open every target before any I/O, then prepare the workers;
 * those of create_serialize=0 jobs wait for their stonewall group
 * (run_prepare_late).
 */
static int run_prepare(struct run_state *s, struct err *e)
{
	size_t i;
	int r;

	for (i = 0; i < s->nr; i++)
		if (s->w[i].job->create_serialize && (r = run_setup_files(s, &s->w[i], e)))
			return r;
	for (i = 0; i < s->nr; i++) {
		if (!s->w[i].job->create_serialize)
			continue;
		r = worker_prepare(&s->w[i], e);
		if (r)
			return r;
	}
	return 0;
}

/*
 * create_serialize=0: @w's targets are laid out and the worker prepared when
 * its stonewall group starts, so they see what the groups before it left
 * (a read job of a file an earlier job wrote, as fio's surface-scan).  A
 * failure here is the job's error: the groups before it ran, their
 * results stand, and this thread does not start.
 */
static void run_prepare_late(struct run_state *s, struct worker *w)
{
	struct err e;
	int r;

	err_clear(&e);
	r = run_setup_files(s, w, &e);
	if (!r && !w->error)
		r = worker_prepare(w, &e);
	if (r && !w->error) {
		w->error = -r;
		snprintf(w->first_error, sizeof(w->first_error), "%.255s", e.msg);
	}
}

static void run_stop_all(struct run_state *s, int why)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		int expected = WORKER_RUN;

		atomic_compare_exchange_strong(&s->w[i].stop, &expected, why);
	}
}

/*
 * Issue 16: the threads' series keep only what is still to be read.  Each
 * worker drops intervals before its series_hold: the smaller of what the
 * status lines and its group's collector have not read yet (SIZE_MAX when
 * neither reads it).
 */
static void run_hold_publish(struct run_state *s, size_t i)
{
	size_t h = s->hold_status[i] < s->hold_grp[i] ? s->hold_status[i] : s->hold_grp[i];

	atomic_store(&s->w[i].series_hold, h);
}

/*
 * The group_reporting groups, grouped as run_collect groups the results
 * (same groupid, both group_reporting), each with its first thread's
 * reporting rule and series_max.  Before any thread starts.
 */
static int run_groups_init(struct run_state *s, struct err *e)
{
	int status = s->req->progress && s->req->progress_us;
	size_t i, g;

	s->grp = calloc(s->nr ? s->nr : 1, sizeof(*s->grp));
	s->grp_of = calloc(s->nr ? s->nr : 1, sizeof(*s->grp_of));
	s->hold_status = calloc(s->nr ? s->nr : 1, sizeof(*s->hold_status));
	s->hold_grp = calloc(s->nr ? s->nr : 1, sizeof(*s->hold_grp));
	s->sgrp = calloc(s->nr ? s->nr : 1, sizeof(*s->sgrp));
	if (!s->grp || !s->grp_of || !s->hold_status || !s->hold_grp || !s->sgrp)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory for the time series");
	for (i = 0; i < s->nr; i++) {
		const struct worker *w = &s->w[i];

		s->grp_of[i] = SIZE_MAX;
		s->hold_status[i] = status ? 0 : SIZE_MAX;
		s->hold_grp[i] = SIZE_MAX;
		if (!w->job->group_reporting) {
			run_hold_publish(s, i);
			continue;
		}
		for (g = 0; g < i; g++)
			if (s->grp_of[g] != SIZE_MAX && s->w[g].groupid == w->groupid)
				break;
		if (g < i) {
			s->grp_of[i] = s->grp_of[g];
		} else {
			struct steady_cfg c;
			int r;

			if (job_steady_cfg(w->job, 0, &c, NULL))
				c.rule = STEADY_OFF;
			sample_group_init(&s->sgrp[s->nr_grp]);
			r = series_group_init(&s->grp[s->nr_grp], &c, (size_t)w->job->series_max);
			s->grp_of[i] = s->nr_grp++;
			if (r)
				return err_set(e, r, EXIT_INTERNAL, "out of memory for the time series");
		}
		s->hold_grp[i] = 0;
		s->w[i].samp_keep = 1;
		run_hold_publish(s, i);
	}
	return 0;
}

/*
 * Merge what every thread of each group has final into the group's series
 * (series_group_pull), under the threads' locks, and let the threads drop
 * what was taken.  @final: every thread has ended (or never started).
 * Returns 0 or -ENOMEM.
 */
static int run_groups_pull(struct run_state *s, int final)
{
	const struct series **thr;
	struct sample_seq **samp;
	int *done, ret = 0;
	unsigned *dirs;
	size_t *idx;

	if (!s->nr_grp)
		return 0;
	thr = calloc(s->nr, sizeof(*thr));
	samp = calloc(s->nr, sizeof(*samp));
	done = calloc(s->nr, sizeof(*done));
	dirs = calloc(s->nr, sizeof(*dirs));
	idx = calloc(s->nr, sizeof(*idx));
	if (!thr || !samp || !done || !dirs || !idx) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t g = 0; g < s->nr_grp && !ret; g++) {
		size_t n = 0;

		for (size_t i = 0; i < s->nr; i++) {
			if (s->grp_of[i] != g)
				continue;
			done[n] = final || atomic_load(&s->w[i].done);	/* before the series */
			pthread_mutex_lock(&s->w[i].lock);
			thr[n] = &s->w[i].series;
			samp[n] = s->w[i].samp;
			dirs[n] = s->w[i].job->rw;	/* worker_sample: every period */
			idx[n++] = i;
		}
		ret = series_group_pull(&s->grp[g], thr, done, n);
		sample_group_pull(&s->sgrp[g], samp, done, dirs, n);
		for (size_t t = 0; t < n; t++) {
			s->hold_grp[idx[t]] = series_group_hold(&s->grp[g], thr[t]);
			pthread_mutex_unlock(&s->w[idx[t]].lock);
			run_hold_publish(s, idx[t]);
		}
	}
out:
	free(thr);
	free(samp);
	free(dirs);
	free(done);
	free(idx);
	return ret;
}

/*
 * Status entries of one stonewall group: the workers [first, end) grouped as
 * the report groups them, and what has been delivered of each one's series.
 */
struct run_status {
	struct run_progress_job *e;
	size_t nr;
	const struct job **job;		/* the first thread's job, per entry */
	size_t *of;			/* entry of worker first + i */
	size_t *sent;			/* intervals delivered, per entry */
	size_t *ready;			/* intervals complete in every thread, per entry */
	size_t *done_nr;		/* intervals of the ended threads (the most) */
	int *caught_up;			/* -1 no running thread, 0 behind, 1 caught up */
	struct hist *h;			/* DDIR_NR scratch histograms */
	uint64_t last_data_ns;		/* when intervals were last delivered */
	struct steady_live *live;	/* per entry: "steady since" (steady_live.h) */
	struct steady_live_iv *acc;	/* scratch: one entry's intervals summed */
	size_t acc_cap;
};

static void run_status_free(struct run_status *st)
{
	free(st->e);
	free(st->job);
	free(st->done_nr);
	free(st->of);
	free(st->sent);
	free(st->ready);
	free(st->caught_up);
	free(st->h);
	for (size_t k = 0; st->live && k < st->nr; k++)
		steady_live_free(&st->live[k]);
	free(st->live);
	free(st->acc);
	memset(st, 0, sizeof(*st));
}

/* Build the entries; on failure st->e stays NULL and no status is given. */
static void run_status_init(struct run_state *s, struct run_status *st, size_t first, size_t end)
{
	size_t n = end - first, i, k;

	memset(st, 0, sizeof(*st));
	st->e = calloc(n ? n : 1, sizeof(*st->e));
	st->job = calloc(n ? n : 1, sizeof(*st->job));
	st->done_nr = calloc(n ? n : 1, sizeof(*st->done_nr));
	st->of = calloc(n ? n : 1, sizeof(*st->of));
	st->sent = calloc(n ? n : 1, sizeof(*st->sent));
	st->ready = calloc(n ? n : 1, sizeof(*st->ready));
	st->caught_up = calloc(n ? n : 1, sizeof(*st->caught_up));
	st->h = malloc(DDIR_NR * sizeof(*st->h));
	st->live = calloc(n ? n : 1, sizeof(*st->live));
	if (!st->e || !st->job || !st->done_nr || !st->of || !st->sent || !st->ready || !st->caught_up || !st->h ||
	    !st->live) {
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
 * Feed entry @k's intervals [@lo, @hi), summed over its threads, to its live
 * steady-state tracker (steady_live.h), and copy the verdict into @e.  Pass
 * 1 (@w set): add worker @w's intervals into the scratch sums, under its
 * lock.  Pass 2 (@w NULL): feed the sums.
 */
static void run_status_live(struct run_status *st, size_t k, const struct series *sr,
			    size_t lo, size_t hi, struct run_progress_job *e)
{
	struct steady_live *l = &st->live[k];

	if (l->cfg.rule == STEADY_OFF || hi <= lo) {
		if (!sr)
			e->steady = l->cfg.rule == STEADY_OFF ? -1 : (int)l->state;
		return;
	}
	if (sr) {
		for (size_t j = lo; j < hi && j < series_end(sr); j++)
			steady_live_pick(&l->cfg, series_at(sr, j), &st->acc[j - lo]);
		return;
	}
	for (size_t j = lo; j < hi; j++)
		steady_live_add(l, &st->acc[j - lo]);
	e->steady = (int)l->state;
	e->steady_since_ms = l->since_ms;
	e->steady_lost_ms = l->lost_ms;
}

/*
 * How many intervals each entry has complete in all its threads (a thread
 * still running holds the group back; an ended one does not), and whether
 * they span at least about @period_ns past what was delivered.  Returns 1
 * when every entry with a running thread is caught up that way.
 */
static int run_status_ready(struct run_state *s, struct run_status *st, size_t first, size_t end,
			    uint64_t period_ns)
{
	size_t i, k;
	int all = 1;

	for (k = 0; k < st->nr; k++) {
		st->ready[k] = SIZE_MAX;	/* the fewest of the running threads */
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
		/* 10% slack: intervals last as asked, give or take a tick */
		if (st->caught_up[k] != 0)
			st->caught_up[k] = covered * 1000 * 10 >= period_ns * 9;
	}
	for (k = 0; k < st->nr; k++) {
		if (st->caught_up[k] < 0)	/* all ended: everything is final */
			st->ready[k] = st->done_nr[k];
		if (st->ready[k] < st->sent[k])
			st->ready[k] = st->sent[k];
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
		if (hi <= lo)
			continue;
		for (int d = 0; d < DDIR_NR; d++)
			e->d[d].lat_min = UINT64_MAX;
		memset(st->h, 0, DDIR_NR * sizeof(*st->h));
		if (vec_grow((void **)&st->acc, &st->acc_cap, hi - lo, sizeof(*st->acc), 16))
			steady_live_free(&st->live[k]);	/* no memory: no live verdict */
		else
			memset(st->acc, 0, (hi - lo) * sizeof(*st->acc));
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
			run_status_live(st, k, &w->series, lo, hi, e);
			pthread_mutex_unlock(&w->lock);
		}
		run_status_live(st, k, NULL, lo, hi, e);
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

/* Call the progress callback; with @st, its entries' new intervals too. */
static void run_progress(struct run_state *s, size_t first, size_t end, struct run_status *st,
			 int with_data, int final)
{
	const struct run_req *req = s->req;
	struct run_progress p;
	double planned = 0, done = 0, time_left = -1;
	size_t i;
	int d;

	memset(&p, 0, sizeof(p));
	p.elapsed_s = (double)(clock_now_ns(&s->clk) - s->t0_ns) / 1e9;
	p.total = (unsigned)s->nr;
	for (i = first; i < end; i++) {
		struct worker *w = &s->w[i];
		const struct job *j = w->job;

		if (!atomic_load(&w->done))
			p.running++;
		if (!atomic_load(&w->measuring))
			p.ramping = 1;
		for (d = 0; d < DDIR_NR; d++) {
			p.ios[d] += atomic_load_explicit(&w->live_ios[d], memory_order_relaxed);
			p.bytes[d] += atomic_load_explicit(&w->live_bytes[d], memory_order_relaxed);
			done += (double)atomic_load_explicit(&w->live_bytes[d], memory_order_relaxed);
		}
		if (j->time_based || j->runtime_us) {
			double total = (double)(j->startdelay_us + j->ramp_time_us + j->runtime_us) / 1e6;
			double left = total - p.elapsed_s;

			if (left < 0)
				left = 0;
			if (left > time_left)
				time_left = left;
		}
		if (!j->time_based)
			planned += (double)(j->io_size ? j->io_size : j->size) * (j->loops ? j->loops : 1);
	}
	p.eta_s = time_left;
	p.pct = -1;
	if (time_left >= 0 && p.elapsed_s + time_left > 0)
		p.pct = 100.0 * p.elapsed_s / (p.elapsed_s + time_left);
	else if (planned > 0)
		p.pct = 100.0 * done / planned;
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
static void run_status_deliver(struct run_state *s, size_t first, size_t end, struct run_status *st,
			       int final)
{
	int more;

	do {
		more = run_status_fill(s, st, first, end);
		run_progress(s, first, end, st, 1, final && !more);
	} while (more);
	st->last_data_ns = clock_now_ns(&s->clk);
	for (size_t i = first; i < end; i++) {
		s->hold_status[i] = st->sent[st->of[i - first]];
		run_hold_publish(s, i);
	}
}

/*
 * cpuio's exit_on_io_done=1: once every other job of the group is done,
 * stop the jobs that set it (as exitall would; their results are whole).
 */
static void run_exit_on_io_done(struct run_state *s, size_t first, size_t end)
{
	size_t i;

	for (i = first; i < end; i++)
		if (!s->w[i].job->eng.exit_on_io_done && !atomic_load(&s->w[i].done))
			return;
	for (i = first; i < end; i++) {
		int expected = WORKER_RUN;

		if (s->w[i].job->eng.exit_on_io_done)
			atomic_compare_exchange_strong(&s->w[i].stop, &expected, WORKER_STOP_EXITALL);
	}
}

/*
 * Wait for workers [first, end) to finish, collecting signals and calling
 * the progress callback (see struct run_progress for when).
 */
static void run_wait(struct run_state *s, size_t first, size_t end)
{
	const struct run_req *req = s->req;
	uint64_t period = req->progress ? req->progress_us * 1000 : 0;
	uint64_t tick_ns = 100000000, next_due = 0, grace;
	struct run_status st;
	size_t i;

	memset(&st, 0, sizeof(st));
	if (period) {
		if (period / 4 < tick_ns)
			tick_ns = period / 4 > 5000000 ? period / 4 : 5000000;
		next_due = clock_now_ns(&s->clk) + period;
		run_status_init(s, &st, first, end);
		st.last_data_ns = clock_now_ns(&s->clk);
		for (i = first; i < end && !st.e; i++) {
			s->hold_status[i] = SIZE_MAX;	/* no status after all */
			run_hold_publish(s, i);
		}
	}
	/* an entry that lags (its interval is longer than the period) is not
	 * waited for past this: the others' intervals are delivered */
	grace = period / 2 > 2 * tick_ns ? period / 2 : 2 * tick_ns;
	for (;;) {
		int all_done = 1, data = 0, stop_what = -1;
		unsigned stop_gid = 0;
		uint64_t now;

		for (i = first; i < end; i++) {
			const struct job *wj = s->w[i].job;

			if (!atomic_load(&s->w[i].done))
				all_done = 0;
			else if (wj->exitall || (wj->exitall_on_error && s->w[i].error) ||
				 (wj->verify_fatal && s->w[i].vres.failures)) {
				stop_what = wj->exit_what;
				stop_gid = s->w[i].groupid;
			}
		}
		/* fio's exitall, per exit_what: the reporting group, every running job, or all */
		for (i = stop_what == 2 ? 0 : first; stop_what >= 0 && i < (stop_what == 2 ? s->nr : end); i++) {
			int expected = WORKER_RUN;

			if (stop_what == 0 && s->w[i].groupid != stop_gid)
				continue;
			atomic_compare_exchange_strong(&s->w[i].stop, &expected, WORKER_STOP_EXITALL);
		}
		if (all_done)
			break;
		run_exit_on_io_done(s, first, end);
		if (req->handle_signals) {
			struct timespec ts = { 0, (long)tick_ns };
			siginfo_t si;
			int sig = sigtimedwait(&s->sigs, &si, &ts);

			if (sig > 0) {
				if (!s->signal)
					s->signal = sig;
				run_stop_all(s, WORKER_STOP_SIGNAL);
			}
		} else {
			struct timespec ts = { 0, (long)tick_ns };

			nanosleep(&ts, NULL);
		}
		if (req->sync && !s->peer_stop) {
			int stopping = s->signal != 0;

			for (i = first; i < end && !stopping; i++)
				stopping = s->w[i].error != 0 && atomic_load(&s->w[i].done);
			if (req->sync->poll(req->sync->arg, stopping)) {
				s->peer_stop = 1;
				run_stop_all(s, WORKER_STOP_SIGNAL);
			}
		}
		if (!s->grp_err)
			s->grp_err = run_groups_pull(s, 0);
		if (!period)
			continue;
		now = clock_now_ns(&s->clk);
		if (st.e && (run_status_ready(s, &st, first, end, period) ||
			     now >= st.last_data_ns + period + grace))
			data = 1;
		if (data)
			run_status_deliver(s, first, end, &st, 0);
		else if (now >= next_due)
			run_progress(s, first, end, st.e ? &st : NULL, 0, 0);
		while (now >= next_due)
			next_due += period;
	}
	if (period) {
		if (st.e) {
			run_status_ready(s, &st, first, end, period);
			run_status_deliver(s, first, end, &st, 1);
		}
		run_status_free(&st);
	}
	for (i = first; i < end; i++) {
		if (s->w[i].started) {
			pthread_join(s->w[i].tid, NULL);
			s->w[i].started = 0;
		}
	}
}

/*
 * cpus_allowed: the thread starts on its CPUs (set in the attributes, so it
 * never runs a single I/O elsewhere); policy=split gives each clone one CPU
 * of the set, round-robin.
 */
static void run_affinity(const struct worker *w, pthread_attr_t *attr)
{
	const struct job *j = w->job;
	cpu_set_t set;
	int cpu, nth = 0, pick;

	if (!j->cpus_allowed_set)
		return;
	set = j->cpus_allowed;
	if (j->cpus_allowed_split && CPU_COUNT(&j->cpus_allowed) > 0) {
		pick = (int)w->jobnum % CPU_COUNT(&j->cpus_allowed);
		CPU_ZERO(&set);
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
			if (!CPU_ISSET(cpu, &j->cpus_allowed))
				continue;
			if (nth++ == pick) {
				CPU_SET(cpu, &set);
				break;
			}
		}
	}
	pthread_attr_setaffinity_np(attr, sizeof(set), &set);
}

/* Run the workers, one stonewalled group after another. */
static int run_threads(struct run_state *s, struct err *e)
{
	size_t first = 0;

	while (first < s->nr) {
		size_t end = first + 1, i;

		/* a stonewall job waits for everything before it */
		while (end < s->nr && !(s->w[end].job != s->w[end - 1].job && s->w[end].job->stonewall))
			end++;
		if (s->signal || s->peer_stop)
			break;
		for (i = first; i < end; i++)
			if (!s->w[i].job->create_serialize)
				run_prepare_late(s, &s->w[i]);
		for (i = first; i < end; i++) {
			pthread_attr_t attr;
			int r;

			if (s->w[i].error) {	/* its layout failed (run_prepare) */
				atomic_store(&s->w[i].done, 1);
				continue;
			}
			pthread_attr_init(&attr);
			run_affinity(&s->w[i], &attr);
			r = pthread_create(&s->w[i].tid, &attr, worker_main, &s->w[i]);
			pthread_attr_destroy(&attr);

			if (r) {
				run_stop_all(s, WORKER_STOP_SIGNAL);
				run_wait(s, first, i);
				if (r == EINVAL && s->w[i].job->cpus_allowed_set)
					return err_set(e, -r, EXIT_USAGE,
						       "job '%s' (%s): cpus_allowed names no CPU this machine can use",
						       s->w[i].job->name, s->w[i].job->origin);
				return err_set(e, -r, EXIT_INTERNAL, "cannot start a thread: %s", strerror(r));
			}
			s->w[i].started = 1;
		}
		run_wait(s, first, end);
		first = end;
	}
	return 0;
}

/*
 * A group_reporting entry's bw/iops figures, as fio computes them: the
 * threads' samples added period by period, streamed as they ran
 * (sample_group.h; pulled to the end before this).  Pooling the threads'
 * samples instead would report one thread's bandwidth as the group's.
 */
static void run_group_samples(struct run_state *s, struct run_result *out)
{
	for (size_t i = 0; i < out->nr_jobs; i++) {
		struct job_result *jr = &out->jobs[i];
		size_t g;

		if (jr->nr_threads < 2 || !jr->job->group_reporting)
			continue;
		for (g = 0; g < s->nr; g++)
			if (s->grp_of[g] != SIZE_MAX && s->w[g].groupid == jr->groupid)
				break;
		if (g == s->nr)
			continue;
		for (int d = 0; d < DDIR_NR; d++) {
			const struct sample_group *sg = &s->sgrp[s->grp_of[g]];

			if (!sg->out[d])
				continue;	/* no samples: the threads' merged figures stay */
			jr->dir[d].bw_kib = sg->bw_kib[d];
			jr->dir[d].iops = sg->iops[d];
		}
	}
}

/* Fill out->jobs: one entry per thread, or per group under group_reporting. */
static int run_collect(struct run_state *s, struct run_result *out, struct err *e)
{
	size_t i, n = 0;

	out->jobs = calloc(s->nr ? s->nr : 1, sizeof(*out->jobs));
	if (!out->jobs)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory for results");
	for (i = 0; i < s->nr; i++) {
		struct worker *w = &s->w[i];
		struct job_result r;
		size_t k;

		if (!w->t_begin && !w->done)
			continue;	/* never started (interrupted before its group) */
		worker_result(w, &r);
		devwatch_take(&w->dw, &r);
		r.series = NULL;
		r.steady = NULL;
		if (w->sink_on) {
			/* the thread's bounded series and steady analysis (series_sink.h) */
			int x = series_sink_drain(&w->sink, &w->series);

			if (!x)
				x = series_sink_finish(&w->sink, &r.series, &r.steady);
			if (x) {
				result_job_clear(&r);
				return err_set(e, x, EXIT_INTERNAL, "steady-state analysis failed: %s",
					       strerror(-x));
			}
		}
		if (w->job->group_reporting) {
			for (k = 0; k < n; k++)
				if (out->jobs[k].groupid == r.groupid && out->jobs[k].job->group_reporting)
					break;
			if (k < n) {
				/* the group's series is merged as the threads ran (series_group.h) */
				result_job_merge(&out->jobs[k], &r);
				result_job_clear(&r);
				continue;
			}
		}
		out->jobs[n++] = r;
		out->nr_jobs = n;
	}
	out->nr_jobs = n;
	if (!s->grp_err)
		s->grp_err = run_groups_pull(s, 1);	/* every thread ended */
	if (s->grp_err)
		return err_set(e, s->grp_err, EXIT_INTERNAL, "out of memory for the time series");
	run_group_samples(s, out);
	result_bw_agg(out);
	for (i = 0; i < n; i++) {
		struct job_result *jr = &out->jobs[i];
		int r = 0;

		if (jr->job->group_reporting) {
			size_t g;

			for (g = 0; g < s->nr; g++)
				if (s->grp_of[g] != SIZE_MAX && s->w[g].groupid == jr->groupid)
					break;
			if (g < s->nr)
				r = series_group_finish(&s->grp[s->grp_of[g]], &jr->series, &jr->steady);
		}
		/* the series is at most series_max elements already (series_sink); the
		 * device views follow its elements (issue 16) */
		if (!r && jr->series && jr->dev_iv)
			devwatch_coarsen(jr->dev_iv, &jr->nr_dev_iv, jr->series);
		if (r)
			return err_set(e, r, EXIT_INTERNAL, "steady-state analysis failed: %s", strerror(-r));
	}
	return 0;
}

static int run_diskutil_targets(struct run_state *s, const char ***paths, size_t *n)
{
	size_t i, k = 0, cap = 0;
	unsigned f;

	for (i = 0; i < s->nr; i++)
		cap += s->w[i].nr_files;
	*paths = calloc(cap ? cap : 1, sizeof(**paths));
	if (!*paths)
		return -ENOMEM;
	for (i = 0; i < s->nr; i++)
		for (f = 0; f < s->w[i].nr_files && s->w[i].job->disk_util; f++)
			(*paths)[k++] = s->w[i].files[f].path;
	*n = k;
	return 0;
}

static void run_release(struct run_state *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		worker_release(&s->w[i]);
		if (s->w[i].files)
			file_teardown(s->w[i].job, s->w[i].files, s->w[i].nr_files);
	}
	free(s->w);
	for (i = 0; i < s->nr_grp; i++)
		series_group_free(&s->grp[i]);
	free(s->grp);
	free(s->sgrp);
	free(s->grp_of);
	free(s->hold_status);
	free(s->hold_grp);
	flow_set_free(&s->flows);
}

int run_execute(const struct run_req *req, struct run_result *out, struct err *e)
{
	struct run_state s;
	struct diskutil du;
	const char **paths = NULL;
	size_t nr_paths = 0;
	sigset_t old;
	struct timeval tv;
	int r, du_ok = 0;

	memset(&s, 0, sizeof(s));
	memset(&du, 0, sizeof(du));	/* sysfs NULL = /sys, no devices yet */
	memset(out, 0, sizeof(*out));
	s.req = req;
	out->global_opts = req->globals;
	out->nr_global_opts = req->nr_globals;
	r = clock_init(&s.clk, req->clock_mode, e);
	if (r) {
		if (req->sync)	/* the peers wait for this process's word */
			req->sync->ready(req->sync->arg, r, e);
		return r;
	}
	out->clock_source = clock_source(&s.clk);
	out->clock_ghz = clock_ghz(&s.clk);
	sigemptyset(&s.sigs);
	sigaddset(&s.sigs, SIGINT);
	sigaddset(&s.sigs, SIGTERM);
	if (req->handle_signals)
		pthread_sigmask(SIG_BLOCK, &s.sigs, &old);
	r = run_make_workers(&s, e);
	if (!r)
		r = run_prepare(&s, e);
	if (!r)
		r = run_groups_init(&s, e);
	if (req->sync)	/* every process laid out: start I/O together */
		r = req->sync->ready(req->sync->arg, r, e);
	if (r)
		goto out;
	if (!run_diskutil_targets(&s, &paths, &nr_paths) &&
	    !diskutil_start(&du, paths, nr_paths, NULL))
		du_ok = 1;
	gettimeofday(&tv, NULL);
	out->timestamp = tv.tv_sec;
	out->timestamp_ms = (uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000;
	s.t0_ns = clock_now_ns(&s.clk);
	r = run_threads(&s, e);
	if (du_ok) {
		diskutil_end(&du, (clock_now_ns(&s.clk) - s.t0_ns) / 1000000, &out->du, &out->nr_du);
		diskutil_free(&du);
	}
	if (!r)
		r = run_collect(&s, out, e);
	out->signal = s.signal;
	out->partial = s.signal != 0 || s.peer_stop;
	for (size_t i = 0; i < out->nr_jobs; i++)
		if (out->jobs[i].partial)
			out->partial = 1;
	if (!r) {
		json_t *env = NULL;

		/* what could explain a difference between two runs (methodology §4) */
		if (!env_capture(paths, nr_paths, &env, NULL))
			out->env = env;
		r = result_check(out, e);
	}
out:
	free(paths);
	run_release(&s);
	if (req->handle_signals) {
		/* a signal that came after the last wait must not kill us now */
		struct timespec zero = { 0, 0 };

		while (sigtimedwait(&s.sigs, NULL, &zero) > 0)
			out->partial = 1;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	return r;
}
