/*
 * rate: the issue schedule of a rate-limited job (rate=, rate_iops=,
 * rate_process=), per thread and per direction as in fio.
 *
 * rate_next_ns() answers "when may this I/O go?" in ns since the job's
 * measurement start, and accounts the I/O.  The schedule is absolute, so a
 * worker that fell behind (a slow completion, a preemption) catches up by
 * issuing at once until it is back on schedule, and the long-run rate is
 * exact.  No deadline is early (the fixed-point periods are rounded up), so
 * over T seconds a linear schedule issues exactly the I/Os due before T.
 *   linear:  the I/O after B bytes and K I/Os of its direction goes at
 *            max(B / rate, K / rate_iops): evenly spaced.
 *   poisson: gaps are exponential with the same mean (len / rate or
 *            1 / rate_iops, whichever is longer), so arrivals form a Poisson
 *            process of the requested mean rate.
 * rate_iops counts I/Os, whatever their size (fio uses the smallest block
 * size as the unit when bs varies; an IOPS cap that caps IOPS is simpler to
 * reason about).  Hot path: one or two 128-bit multiplies, no division.
 */
#ifndef IOTRIAL_RATE_H
#define IOTRIAL_RATE_H

#include <stdint.h>
#include "lib/err.h"
#include "model/job.h"
#include "lib/rand.h"

#define RATE_SHIFT 32

struct rate {
	int enabled;
	int poisson;
	uint64_t ns_per_byte[DDIR_NR];	/* << RATE_SHIFT; 0 = no byte limit */
	uint64_t ns_per_io[DDIR_NR];	/* << RATE_SHIFT; 0 = no IOPS limit */
	uint64_t bytes[DDIR_NR];	/* accounted so far */
	uint64_t ios[DDIR_NR];
	double t_ns[DDIR_NR];		/* poisson: the last arrival */
	struct rand_state rs;		/* poisson gaps */
};

/* 0, or -EINVAL (+ @e) for a rate too high to represent. */
int rate_init(struct rate *r, const struct job *j, unsigned thread_index, struct err *e);

static inline int rate_enabled(const struct rate *r)
{
	return r->enabled;
}

/* When (ns since measurement start) an I/O of @bytes in @d may be issued; accounts it. */
uint64_t rate_next_ns(struct rate *r, enum ddir d, uint32_t bytes);

/* Forget what was accounted (at the end of ramp_time, when the clock restarts). */
void rate_reset(struct rate *r);

#endif
