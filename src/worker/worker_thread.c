/*
 * worker_thread: a job thread's life around its I/O loop (worker.h has the
 * threading contract): the thread's nice, NUMA and priority, wait_for (the
 * jobs it waits for), the start delay, the loop itself (worker.c), then the
 * end pass of a verify, the state and log files, the run's CPU figures and
 * the hand-back to run.c.
 * Kept apart from worker.c so that file holds the per-I/O path alone.
 */
#include "worker/worker.h"
#include "worker/worker_verify.h"
#include "worker/worker_int.h"
#include "io/ioerr.h"
#include "io/numa.h"	/* numa_apply */
#include "steady/job_steady.h"
#include "env/schedstat.h"

#include <errno.h>
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* getloadavg */
#include <string.h>
#include <time.h>
#include <unistd.h>	/* fsync, nice, syscall */
#include <sys/syscall.h>	/* SYS_gettid, SYS_ioprio_set */

/* wait_for: poll (1 ms) until the waitee's threads are done, or the run stops. */
static void worker_wait_for(struct worker *w)
{
	struct timespec ts = { 0, 1000000 };
	unsigned i;

	for (i = 0; i < w->wait_nr; i++)
		while (!atomic_load(&w->wait_on[w->wait_first + i].done) && !atomic_load(&w->stop))
			nanosleep(&ts, NULL);
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct job *j = w->job;
	uint64_t now;
	int d;

	w->os_tid = (int)syscall(SYS_gettid);	/* fio's pid= (a thread's id under thread=1) */
	/* nice=: Linux applies nice() to the calling thread only, as fio's job is */
	errno = 0;
	if (j->nice && nice(j->nice) == -1 && errno)
		worker_fail(w, errno, NULL);
	/* numa_cpu_nodes, numa_mem_policy: this thread and its buffers */
	if ((j->numa.cpu_nodes || j->numa.mem_mode != NUMA_MPOL_NONE) &&
	    (d = numa_apply(&j->numa, w->ctx.buf_base, w->ctx.buf_len)))
		worker_fail(w, -d, NULL);
	/* prio/prioclass: the thread's own I/O priority (who 1: a process, here the thread) */
	if (cmdprio_job_ioprio(&j->cmdprio) &&
	    syscall(SYS_ioprio_set, 1, 0, cmdprio_job_ioprio(&j->cmdprio)) == -1)
		worker_fail(w, errno, NULL);
	worker_wait_for(w);
	if (j->startdelay_us) {
		uint64_t t = clock_ticks(w->clk);

		worker_sleep_until(w, t + clock_ns_to_ticks(w->clk, j->startdelay_us * 1000));
	}
	if (w->flow)
		flow_join(w->flow, j->flow);
	now = clock_ticks(w->clk);
	w->t_begin = now;
	atomic_store_explicit(&w->begun, 1, memory_order_release);
	w->t_rate_base = now;
	w->t_ramp_end = now + clock_ns_to_ticks(w->clk, j->ramp_time_us * 1000);
	w->t_end = UINT64_MAX;
	w->ticks_sample = clock_ns_to_ticks(w->clk, SAMPLE_MSEC * 1000000ull);
	w->think_ticks = clock_ns_to_ticks(w->clk, j->thinktime_us * 1000);
	w->think_spin_ticks = clock_ns_to_ticks(w->clk, j->thinktime_spin_us * 1000);
	if (!w->think_ticks && w->ctx.think_ns)	/* the engine's own pause (cpuio) */
		w->think_ticks = clock_ns_to_ticks(w->clk, w->ctx.think_ns);
	w->ticks_interval = clock_ns_to_ticks(w->clk, (j->interval_us ? j->interval_us : 1000000) * 1000);
	w->t_next_interval = now + w->ticks_interval;
	w->t_next_sample = UINT64_MAX;
	w->t_next_event = now;	/* the first event starts the measurement if no ramp */
	for (d = 0; d < DDIR_NR; d++) {
		w->st.dir[d].iv_lat_min = UINT64_MAX;
		w->st.dir[d].iv_lat_max = 0;
	}
	worker_mark(w, &w->mark_interval, now);
	devwatch_begin(&w->dw, clock_now_ns(w->clk));
	if (!atomic_load(&w->stop) && !w->error && !j->verify_only)
		worker_loop(w);
	if (w->ops->end && w->ctx_ready)
		w->ops->end(&w->ctx);
	/*
	 * A job whose I/O is done leaves its flow, so the others no longer wait
	 * for it.  A time_based one stays: its runtime ended, so have (within a
	 * few ms) the others', and leaving would let them run free meanwhile.
	 */
	if (w->flow && !j->time_based)
		flow_leave(w->flow, j->flow, w->flow_mine);
	now = w->t_last ? w->t_last : clock_ticks(w->clk);
	if (w->lt_started && !w->lt.settled && !j->lat_target.run) {
		/* latency_target ended before its search settled: fio reports the
		 * search (its statistics since the search start; the series keeps
		 * it as ramp, the one case its measured intervals miss I/Os) */
		atomic_store_explicit(&w->measuring, 1, memory_order_release);
	} else if (!atomic_load_explicit(&w->measuring, memory_order_relaxed)) {
		/* ended inside the ramp: nothing was measured */
		worker_ramp_end(w, now);
	}
	if (now > w->mark_interval.ticks)
		worker_interval(w, now, 0);
	devwatch_end(&w->dw, clock_now_ns(w->clk));
	w->measure_ns = clock_ticks_to_ns(w->clk, now - w->t_measure);
	w->elapsed_ns = clock_ticks_to_ns(w->clk, now - w->t_begin);
	w->interrupted = atomic_load(&w->stop) == WORKER_STOP_SIGNAL;
	if (j->end_fsync && !w->error) {
		unsigned i;

		for (i = 0; i < w->nr_files; i++)
			if (w->files[i].fd >= 0 && fsync(w->files[i].fd))
				worker_fail(w, errno, NULL);
	}
	if (w->verify.method && j->do_verify && !w->error && !atomic_load(&w->stop)) {
		uint64_t t0 = clock_ticks(w->clk);

		worker_verify_pass(w);
		if (w->vpass_ios)	/* fio adds its verify phase to read's runtime */
			w->verify_ns = clock_ticks_to_ns(w->clk, clock_ticks(w->clk) - t0);
	}
	if (w->verify.method)
		worker_verify_save(w);
	/* the thread's CPU, its verify phase included (as fio's) */
	getrusage(RUSAGE_THREAD, &w->ru_end);
	if (schedstat_thread_wait(&w->rq_wait_end))
		w->rq_wait_ok = 0;
	w->end_time = time(NULL);
	if (getloadavg(&w->load1, 1) != 1)
		w->load1 = -1;
	if (w->iolw_on) {
		struct err e;
		char **paths = calloc(w->nr_files + 1, sizeof(*paths));
		unsigned i;

		err_clear(&e);
		for (i = 0; paths && i < w->nr_files; i++)
			paths[i] = w->files[i].path;
		if (paths && iolog_write(&w->iolw, j->write_iolog, paths, w->nr_files,
					 clock_ticks_to_ns(w->clk, clock_ticks(w->clk) - w->t_begin) / 1000,
					 &e) && !w->error) {
			w->error = -e.code;
			snprintf(w->first_error, sizeof(w->first_error), "%.255s", e.msg);
		}
		free(paths);
	}
	if (w->log_on) {
		struct err e;

		err_clear(&e);
		w->log_on = 0;
		if (fiolog_close(&w->log, w->measure_ns / 1000000, &e) && !w->error) {
			w->error = -e.code;
			snprintf(w->first_error, sizeof(w->first_error), "%.255s", e.msg);
		}
	}
	atomic_store(&w->done, 1);
	return NULL;
}

