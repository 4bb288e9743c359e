/*
 * flow: fio's token-based flow control between jobs (flow, flow_id,
 * flow_watermark, flow_sleep).
 *
 * Jobs with flow=W > 0 and the same flow_id share one flow: the I/Os its
 * running threads issued (S) and the sum of their weights (T).  A thread with
 * weight w that issued c I/Os may issue the next one while
 *     c * T <= (S + flow_watermark) * w,
 * i.e. while its share of the flow's I/Os is not above its share of the
 * weights (plus a slack of flow_watermark I/Os); otherwise it sleeps
 * flow_sleep microseconds (100 when 0) and asks again.  So the I/O counts keep
 * the weights' ratio (3:2:1 for flow=3, 2, 1), as fio's do.  A thread joins
 * its flow when it starts and leaves it when it ends (its I/Os and weight are
 * taken back), so a job that ends early does not stall the others; a
 * time_based thread stays to its end (see worker.c).
 *
 * The counters are atomics shared between threads (the only shared state on
 * the I/O path, and only for jobs that ask for it: two relaxed loads and one
 * add per I/O).  The set is built and owned by the run (run.c).
 */
#ifndef IOTRIAL_FLOW_H
#define IOTRIAL_FLOW_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/err.h"

struct flow {
	uint32_t id;
	atomic_uint_fast64_t issued;	/* S */
	atomic_uint_fast64_t weight;	/* T */
};

struct flow_set {
	struct flow *f;
	size_t nr;
};

struct job;

/* One flow per flow_id used by @jobs (flow > 0).  0 or -ENOMEM (+ @e). */
int flow_set_build(struct flow_set *fs, const struct job *jobs, size_t nr_jobs, struct err *e);

/* The flow of @id, or NULL. */
struct flow *flow_set_find(struct flow_set *fs, uint32_t id);

void flow_set_free(struct flow_set *fs);

/* A thread of weight @w starts / ends having issued @mine I/Os. */
void flow_join(struct flow *f, uint64_t w);
void flow_leave(struct flow *f, uint64_t w, uint64_t mine);

/* May a thread of weight @w that issued @mine I/Os issue one more? */
static inline int flow_may_issue(struct flow *f, uint64_t w, uint64_t mine, uint64_t slack)
{
	uint64_t s = atomic_load_explicit(&f->issued, memory_order_relaxed);
	uint64_t t = atomic_load_explicit(&f->weight, memory_order_relaxed);

	return (unsigned __int128)mine * t <= (unsigned __int128)(s + slack) * w;
}

static inline void flow_issued(struct flow *f)
{
	atomic_fetch_add_explicit(&f->issued, 1, memory_order_relaxed);
}

#endif
