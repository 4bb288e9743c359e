/*
 * worker: one thread running one job clone (numjobs makes several).
 *
 * The worker owns everything its I/O touches: the io_u pool and buffers, the
 * engine context, the offset generator, the rate limiter and its statistics.
 * Nothing on the per-I/O path is shared with another thread, so the hot loop
 * takes no lock.  The run loop (run.c) talks to a worker only through:
 *   - `stop`, an atomic flag it sets (signal, steady state, stonewall end);
 *   - the series, appended once per interval under `lock` (not per I/O);
 *   - the worker's final statistics, read after pthread_join.
 */
#ifndef IOTRIAL_WORKER_H
#define IOTRIAL_WORKER_H

#include "lib/err.h"
#include "result/result.h"	/* struct job_result */
#include "worker/worker_types.h"	/* struct worker */

/*
 * Prepare @w (job, jobnum, clk, files already set by the caller): engine,
 * buffers, io_u pool, generator, rate.  0 or -errno with @e filled.
 */
int worker_prepare(struct worker *w, struct err *e);

/* The thread body: pass the worker. */
void *worker_main(void *arg);

/* Turn the worker's statistics into a job_result (after the thread ended). */
void worker_result(const struct worker *w, struct job_result *r);

/* Release what worker_prepare allocated (files are the caller's). */
void worker_release(struct worker *w);

#endif
