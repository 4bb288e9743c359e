/*
 * run: orchestration of workers (see run.h).  Nothing here is per I/O.
 */
#include "run.h"

#include <errno.h>	/* ENOMEM */
#include <jansson.h>	/* the environment */
#include <pthread.h>
#include <signal.h>	/* sigtimedwait */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* calloc */
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
#include "steady.h"
#include "worker.h"

struct run_state {
	const struct run_req *req;
	struct clock clk;
	struct worker *w;
	size_t nr;
	sigset_t sigs;
	int signal;
	uint64_t t0_ns;
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

			w->job = j;
			w->jobnum = (unsigned)c;
			w->thread_index = k;
			w->groupid = groupid;
			w->clk = &s->clk;
			w->ops = ops;
		}
	}
	return 0;
}

/* Lay out and open every target before any I/O, then prepare the workers. */
static int run_prepare(struct run_state *s, struct err *e)
{
	size_t i;
	int r;

	for (i = 0; i < s->nr; i++) {
		struct worker *w = &s->w[i];

		if (!(w->ops->flags & ENGINE_F_NOFILES)) {
			r = file_setup(w->job, w->jobnum, s->req->readonly, &w->files, &w->nr_files, e);
			if (r)
				return r;
		}
	}
	for (i = 0; i < s->nr; i++) {
		r = worker_prepare(&s->w[i], e);
		if (r)
			return r;
	}
	return 0;
}

static void run_stop_all(struct run_state *s, int why)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		int expected = WORKER_RUN;

		atomic_compare_exchange_strong(&s->w[i].stop, &expected, why);
	}
}

static void run_progress(struct run_state *s, size_t first, size_t end)
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
	req->progress(req->progress_arg, &p);
}

/*
 * Wait for workers [first, end) to finish, collecting signals, calling the
 * progress callback and checking steady state once per tick.
 */
static void run_wait(struct run_state *s, size_t first, size_t end)
{
	const struct run_req *req = s->req;
	uint64_t tick_ns = 100000000, next_progress = 0;
	size_t i;

	if (req->progress && req->progress_us)
		next_progress = clock_now_ns(&s->clk) + req->progress_us * 1000;
	for (;;) {
		int all_done = 1;

		for (i = first; i < end; i++)
			if (!atomic_load(&s->w[i].done))
				all_done = 0;
		if (all_done)
			break;
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
		if (next_progress && clock_now_ns(&s->clk) >= next_progress) {
			run_progress(s, first, end);
			next_progress += req->progress_us * 1000;
		}
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
		if (s->signal)
			break;
		for (i = first; i < end; i++) {
			pthread_attr_t attr;
			int r;

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
 * The reporting rule (steady_report=: fio's ss= when the job set one, else
 * SNIA PTS by default) over the job's series.  Either way the outcome
 * (attained or not) is reported.
 */
static int run_steady(struct job_result *jr)
{
	struct steady_cfg cfg;
	int r;

	if (!jr->series)
		return 0;
	r = job_steady_cfg(jr->job, 0, &cfg, NULL);
	if (r)
		return r;
	if (cfg.rule == STEADY_OFF)
		return 0;	/* steady_report=none */
	jr->steady = malloc(sizeof(*jr->steady));
	if (!jr->steady)
		return -ENOMEM;
	steady_init(jr->steady);
	return steady_find(&cfg, jr->series, jr->steady);
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
		r.series = malloc(sizeof(*r.series));
		if (!r.series)
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory for results");
		pthread_mutex_lock(&w->lock);
		*r.series = w->series;		/* moved, not copied */
		series_init(&w->series);
		pthread_mutex_unlock(&w->lock);
		if (w->job->group_reporting) {
			for (k = 0; k < n; k++)
				if (out->jobs[k].groupid == r.groupid && out->jobs[k].job->group_reporting)
					break;
			if (k < n) {
				result_job_merge(&out->jobs[k], &r);
				if (series_merge(out->jobs[k].series, r.series) < 0) {
					result_job_clear(&r);
					return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory for results");
				}
				result_job_clear(&r);
				continue;
			}
		}
		out->jobs[n++] = r;
		out->nr_jobs = n;
	}
	out->nr_jobs = n;
	result_bw_agg(out);
	for (i = 0; i < n; i++) {
		int r = run_steady(&out->jobs[i]);

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
		for (f = 0; f < s->w[i].nr_files; f++)
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
	memset(out, 0, sizeof(*out));
	s.req = req;
	out->global_opts = req->globals;
	out->nr_global_opts = req->nr_globals;
	r = clock_init(&s.clk, req->clock_mode, e);
	if (r)
		return r;
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
	out->partial = s.signal != 0;
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
