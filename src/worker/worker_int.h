/*
 * worker_int: what worker.c (the per-I/O loop), worker_interval.c (once per
 * interval) and worker_setup.c (before and after the loop) share.  Internal
 * to the worker: nothing else includes it.  Layered: the loop calls the
 * interval code and the set-up; the interval code calls the set-up's
 * worker_fail; the set-up calls neither.
 */
#ifndef IOTRIAL_WORKER_INT_H
#define IOTRIAL_WORKER_INT_H

#include <stdint.h>
#include "worker/worker_types.h"	/* struct worker */

#define SAMPLE_MSEC 500		/* fio's bw/iops sample period (bwavgtime) */

/*
 * Record the job's first error.  @io: the I/O it happened on (NULL when
 * none); @op: the engine step that failed ("submit", "reap"), NULL for the
 * I/O's own completion.  The message names the operation, file and offset.
 */
void worker_fail_op(struct worker *w, int err, const struct io_u *io, const char *op);
void worker_fail(struct worker *w, int err, const struct io_u *io);

/* Snapshot the counters at @now into @m (an interval's or a sample's start). */
void worker_mark(struct worker *w, struct worker_mark *m, uint64_t now);
/* fio's bw/iops samples: one per direction the job issues, every 500 ms. */
void worker_sample(struct worker *w, uint64_t now);
/* rate_min/rate_iops_min at a sample tick @now; a miss sets @w->error (EIO). */
void worker_rate_min(struct worker *w, uint64_t now);
/* Close the current series interval (ending at @now) and start the next. */
void worker_interval(struct worker *w, uint64_t now, int ramp);
/* Statistics restart from zero at @now (the caller closed the interval before). */
void worker_stats_reset(struct worker *w, uint64_t now);
/* The ramp is over: statistics restart from zero, as fio does. */
void worker_ramp_end(struct worker *w, uint64_t now);

/*
 * Whether completions are accounted one by one (worker_types.h: reap_each):
 * fio's logs, verify, cmdprio, and rated jobs (each I/O has its own slot in
 * the schedule, worker_due).
 */
static inline void worker_plan_reap(struct worker *w)
{
	w->reap_each = w->log_on || w->vtrack || w->cprio || w->verify_reads || w->due_on;
}

/*
 * worker.c's per-I/O loop, from the first submission to the drain (one
 * translation unit, so its accounting inlines); worker_thread.c runs it.
 */
void worker_loop(struct worker *w);
/* Sleep until @until (ticks) in slices, so a stop request is seen promptly. */
void worker_sleep_until(struct worker *w, uint64_t until);

#endif
