/*
 * run: orchestration of workers (see run.h).  Nothing here is per I/O.
 */
#include "run/run.h"
#include "run/run_int.h"

#include <errno.h>	/* ENOMEM */
#include <malloc.h>	/* malloc_trim */
#include <jansson.h>	/* the environment */
#include <pthread.h>
#include <signal.h>	/* sigtimedwait */
#include <stdio.h>	/* snprintf */
#include <stdint.h>	/* SIZE_MAX */
#include <stdlib.h>	/* calloc */
#include "io/flow.h"	/* flow_set */
#include <string.h>	/* memset */
#include <sys/time.h>	/* gettimeofday */

#include "lib/clock.h"
#include "env/diskutil.h"
#include "env/iosched.h"	/* ioscheduler= */
#include "measure/idleprof.h"	/* --idle-prof */
#include "io/engine.h"
#include "env/env.h"
#include "io/file.h"
#include "io/zone_units.h"	/* zonemode=zbd's "Nz" from the device's zones */
#include "steady/job_steady.h"
#include "run/run_warnings.h"
#include "measure/series.h"
#include "run/series_group.h"
#include "steady/steady.h"
#include "worker/worker.h"

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
	zbd_dev_set_init(&s->zbd);
	s->zbd_on = 1;
	for (i = 0; i < req->nr_jobs; i++) {
		const struct job *j = &req->jobs[i];
		const struct engine_ops *ops = engine_find(j->ioengine);
		unsigned n = j->numjobs ? j->numjobs : 1;

		if (!ops)
			return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': unsupported ioengine '%s'",
				       j->name, j->ioengine ? j->ioengine : "(none)");
		/*
		 * zonemode=zbd with zone units and no zonesize=: "size=4z" is 4
		 * zones of the job's zoned device, known only now, before the
		 * regions are laid out.  The bytes go into the request's job
		 * (the counts stay: it shows as typed); its clones share it, as
		 * they share the device.
		 */
		if (j->zonemode == JOB_ZONE_ZBD && !j->zonesize && zone_units_first(j) >= 0) {
			uint64_t zs;
			int r = zone_units_device(&s->zbd, j, 0, &zs, e);

			if (!r)
				r = zone_units_apply(&req->jobs[i], zs, e);
			if (r)
				return r;
		}
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
			w->traits = engine_traits(j->ioengine);
			w->flow = j->flow ? flow_set_find(&s->flows, j->flow_id) : NULL;
			/* error_dump=1 (I/O errors let pass), and every verify failure let pass */
			w->error_dump = req->error_dump;
			w->error_dump_arg = req->error_dump_arg;
			w->aux_path = req->aux_path;
			w->live_often = req->bandwidth_log;
		}
	}
	return 0;
}

/*
 * zonemode=zbd: each of @w's targets joins the run's zoned devices (its
 * region rounded to whole zones, the job's limits checked against the
 * device's), before the generator is set up on the region.
 */
static int run_setup_zbd(struct run_state *s, struct worker *w, struct err *e)
{
	unsigned i;
	int r = 0;

	if (!w->nr_files)
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s' (%s): zonemode=zbd needs a file or "
			       "device (ioengine %s has none)", w->job->name, w->job->origin,
			       w->job->ioengine ? w->job->ioengine : "(none)");
	w->zbd_files = calloc(w->nr_files, sizeof(*w->zbd_files));
	if (!w->zbd_files)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	w->zbd_set = &s->zbd;
	for (i = 0; i < w->nr_files && !r; i++)
		r = zbd_dev_attach(&s->zbd, w->job, &w->files[i], &w->zbd_files[i], e);
	return r;
}

/* Lay out and open @w's targets.  0 or -errno with @e filled. */
static int run_setup_files(struct run_state *s, struct worker *w, struct err *e)
{
	int r = 0;

	if (!(w->traits & ENGINE_F_NOFILES)) {
		uint64_t real = 0;

		/* a target with a size of its own (rbd's image): regions planned on it */
		if (w->traits & ENGINE_F_OWNFILES) {
			if (w->ops->target_size)
				r = w->ops->target_size(w->job, &real, e);
			if (!r)
				r = file_plan_only(w->job, w->jobnum, real, &w->files, &w->nr_files, e);
		} else {
			r = file_setup(w->job, w->jobnum, s->req->readonly, &w->files,
				       &w->nr_files, e);
		}
		if (!r && w->job->zonemode == JOB_ZONE_ZBD)
			r = run_setup_zbd(s, w, e);
		/*
		 * A full disk or an I/O error while laying out one job's file
		 * is that job's error, as it would be during its I/O: the
		 * other jobs run and their results are kept.  The thread is
		 * not started (run_threads) and the job reports no I/O.
		 */
		if ((r == -ENOSPC || r == -EIO || r == -EDQUOT || r == -EFBIG) &&
		    e->exit_code == EXIT_TARGET) {
			w->error = -r;
			w->target_error = 1;
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
		w->target_error = e.exit_code == EXIT_TARGET;
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
 * cpuio's exit_on_io_done=1: once every other job of the group is done,
 * stop the jobs that set it (as exitall would; their results are whole).
 */
static void run_exit_on_io_done(struct run_state *s, size_t first, size_t end)
{
	size_t i;

	for (i = first; i < end; i++)
		if (!s->w[i].job->exit_on_io_done && !atomic_load(&s->w[i].done))
			return;
	for (i = first; i < end; i++) {
		int expected = WORKER_RUN;

		if (s->w[i].job->exit_on_io_done)
			atomic_compare_exchange_strong(&s->w[i].stop, &expected, WORKER_STOP_EXITALL);
	}
}

/* --bandwidth-log: the run's bytes so far into agglog (no line while a job ramps). */
static void run_agglog_sample(struct run_state *s, size_t first, size_t end, int final)
{
	uint64_t bytes[DDIR_NR] = { 0 };
	int ramping = 0, d;
	size_t i;

	if (!s->agg.f[0])
		return;
	for (i = 0; i < s->nr; i++)
		for (d = 0; d < DDIR_NR; d++)
			bytes[d] += atomic_load_explicit(&s->w[i].live_bytes[d], memory_order_relaxed);
	for (i = first; i < end && !final; i++)
		ramping |= atomic_load(&s->w[i].begun) && !atomic_load(&s->w[i].measuring) &&
			   !atomic_load(&s->w[i].done);
	agglog_sample(&s->agg, clock_now_ns(&s->clk), s->t0_ns, bytes, ramping, final);
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
		run_agglog_sample(s, first, end, 0);
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

/*
 * ioscheduler=: switch the devices under the files of workers [first, end)
 * (those laid out so far; a device switched already stays), before their
 * I/O.  Engines without files of their own touch no device's queue.
 */
static int run_iosched(struct run_state *s, size_t first, size_t end, struct err *e)
{
	for (size_t i = first; i < end; i++) {
		const struct worker *w = &s->w[i];

		if (!w->job->ioscheduler[0] || (w->traits & (ENGINE_F_NOFILES | ENGINE_F_OWNFILES)))
			continue;
		for (unsigned f = 0; f < w->nr_files; f++) {
			int r = iosched_switch(&s->sched, w->files[f].path, w->job->ioscheduler,
					       w->job->name, e);

			if (r)
				return r;
		}
	}
	return 0;
}

/* Run the workers, one stonewalled group after another. */
static int run_threads(struct run_state *s, struct err *e)
{
	size_t first = 0;

	while (first < s->nr) {
		size_t end = run_group_end(s, first), i;

		if (s->signal || s->peer_stop)
			break;
		for (i = first; i < end; i++)
			if (!s->w[i].job->create_serialize)
				run_prepare_late(s, &s->w[i]);
		if (run_iosched(s, first, end, e))
			return e->code;
		s->grp_t0_ns = clock_now_ns(&s->clk);	/* after the layout: the ETA's plans start here */
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
		 * device views follow its elements (docs/time-series.md, long runs) */
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
	if (s->zbd_on)
		zbd_dev_set_free(&s->zbd);
	s->zbd_on = 0;
	/* released: a second call (the end of run_execute) finds nothing */
	s->w = NULL;
	s->nr = 0;
	s->grp = NULL;
	s->nr_grp = 0;
	s->sgrp = NULL;
	s->grp_of = s->hold_status = s->hold_grp = NULL;
}

int run_execute(const struct run_req *req, struct run_result *out, struct err *e)
{
	struct run_state s;
	struct diskutil du;
	const char **paths = NULL;
	size_t nr_paths = 0;
	sigset_t old;
	struct timeval tv;
	struct idleprof idle;
	int r, du_ok = 0;

	memset(&s, 0, sizeof(s));
	memset(&idle, 0, sizeof(idle));
	memset(&du, 0, sizeof(du));	/* sysfs NULL = /sys, no devices yet */
	memset(out, 0, sizeof(*out));
	s.req = req;
	out->global_opts = req->globals;
	out->nr_global_opts = req->nr_globals;
	r = req->clock_src ? clock_init_source(&s.clk, req->clock_src, e) :
			     clock_init(&s.clk, req->clock_mode, e);
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
	if (!r)	/* every target laid out so far: a bad name is refused before any I/O */
		r = run_iosched(&s, 0, s.nr, e);
	if (!r && req->idle_prof)	/* calibrated before the jobs load the CPUs */
		r = idleprof_start(&idle, req->idle_prof, &s.clk, e);
	if (!r && req->bandwidth_log)	/* created before any I/O, as the job logs */
		r = agglog_open(&s.agg, NULL, e);
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
	if (req->idle_prof)
		idleprof_begin(&idle);
	r = run_threads(&s, e);
	if (req->idle_prof && idleprof_end(&idle, &out->idle) && !r)
		r = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	if (s.agg.f[0]) {
		struct err le;

		/* a log that cannot be written is a job error, as a job's own log's */
		err_clear(&le);
		run_agglog_sample(&s, 0, 0, 1);
		if (agglog_close(&s.agg, &le) && s.nr && !s.w[0].error) {
			s.w[0].error = -le.code;
			snprintf(s.w[0].first_error, sizeof(s.w[0].first_error), "%.255s", le.msg);
		}
	}
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
		if (env && s.sched.nr)	/* the run's schedulers (the devices show them too) */
			json_object_set_new(env, "ioscheduler", iosched_json(&s.sched));
		/*
		 * The result owns what it reports; the threads' buffers, rings and
		 * series go now, and their pages back to the system (the threads'
		 * malloc arenas keep freed pages otherwise), before the result's
		 * JSON is built here and again by the caller: a long run's peak RSS
		 * was the two together (docs/performance.md, "Memory").
		 */
		run_release(&s);
		malloc_trim(0);
		r = run_warnings(out, e);
	}
out:
	agglog_close(&s.agg, NULL);	/* a failure before the run: the files stay empty */
	free(paths);
	run_release(&s);
	if (req->idle_prof)
		idleprof_free(&idle);
	{
		struct err le;

		/* whatever ended the run (an error, a failed job, SIGINT): the devices go back */
		err_clear(&le);
		if (iosched_restore(&s.sched, &le) && !r) {
			*e = le;
			r = le.code;
		} else if (le.code) {	/* the run's own error stays first; this one is said too */
			size_t n = strlen(e->msg);

			snprintf(e->msg + n, sizeof(e->msg) - n, "; and %s", le.msg);
		}
		iosched_free(&s.sched);
	}
	if (req->handle_signals) {
		/* a signal that came after the last wait must not kill us now */
		struct timespec zero = { 0, 0 };

		while (sigtimedwait(&s.sigs, NULL, &zero) > 0)
			out->partial = 1;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	return r;
}
