/*
 * worker_fixture.h: the real worker on the null engine and a fake clock
 * (fake_clock.h), with a device model the test supplies.  Shared by
 * test_worker.c and test_latency_target.c (and any test that drives a
 * worker to its end on its own thread, as run.c's thread would).
 *
 * The null engine is wrapped: every completion (a batch taken by getevents,
 * or one I/O completed inside queue at depth 1) calls the test's device()
 * before it is returned, with the I/Os in flight before the reap, so the
 * test moves the fake clock by what its device would take; every commit
 * calls commit() first (the time a submission takes).  Tests embed struct
 * wfix as the first member of their own struct and cast back.
 */
#ifndef IOTRIAL_WORKER_FIXTURE_H
#define IOTRIAL_WORKER_FIXTURE_H

#include <stddef.h>	/* offsetof */
#include <stdio.h>
#include <stdlib.h>
#include "io/engine.h"
#include "fake_clock.h"
#include "job_fixture.h"
#include "result/result.h"
#include "worker/worker.h"

struct wfix {
	struct worker w;
	struct job j;
	struct fake_clock fc;
	struct engine_ops ops;		/* the null engine, wrapped */
	const struct engine_ops *null;
	struct job_result r;
	/* the device model (NULL: no time passes); @inline_done: one I/O inside queue */
	void (*device)(struct wfix *f, struct io_u **done, int n, unsigned inflight,
		       int inline_done);
	void (*commit)(struct wfix *f);
};

static inline struct wfix *wfix_of(struct engine_ctx *ctx)
{
	return (struct wfix *)((char *)ctx - offsetof(struct wfix, w.ctx));
}

static inline int wfix_init_op(struct engine_ctx *ctx, struct err *e)
{
	return wfix_of(ctx)->null->init(ctx, e);
}

static inline int wfix_queue(struct engine_ctx *ctx, struct io_u *io)
{
	struct wfix *f = wfix_of(ctx);
	int r = f->null->queue(ctx, io);

	if (r == ENGINE_Q_COMPLETED && f->device)
		f->device(f, &io, 1, 0, 1);
	return r;
}

static inline int wfix_commit(struct engine_ctx *ctx)
{
	struct wfix *f = wfix_of(ctx);

	if (f->commit)
		f->commit(f);
	return f->null->commit(ctx);
}

static inline int wfix_getevents(struct engine_ctx *ctx, unsigned min, unsigned max,
				 struct io_u **out)
{
	struct wfix *f = wfix_of(ctx);
	unsigned inflight = f->w.inflight;
	int n = f->null->getevents(ctx, min, max, out);

	if (n > 0 && f->device)
		f->device(f, out, n, inflight, 0);
	return n;
}

static inline void wfix_exit(struct engine_ctx *ctx)
{
	wfix_of(ctx)->null->exit(ctx);
}

/*
 * A @rw job of @bs blocks over @size bytes on the wrapped null engine, the
 * fake clock at @start_ns.  0, or -1 when the clock cannot be set up.
 */
static inline int wfix_init(struct wfix *f, unsigned rw, unsigned bs, uint64_t size,
			    uint64_t start_ns)
{
	fixture_job(&f->j, rw, bs, size);
	f->null = engine_find("null");
	f->ops = *f->null;
	f->ops.init = wfix_init_op;
	f->ops.queue = wfix_queue;
	f->ops.commit = wfix_commit;
	f->ops.getevents = wfix_getevents;
	f->ops.exit = wfix_exit;
	return fake_clock_init(&f->fc, start_ns, 0) ? -1 : 0;
}

/* Run the worker to its end on this thread.  Returns its error (0: none). */
static inline int wfix_run(struct wfix *f)
{
	struct err e;
	int r;

	err_clear(&e);
	f->w.job = &f->j;
	f->w.clk = &f->fc.clk;
	f->w.ops = &f->ops;
	f->w.traits = engine_traits(f->null->name);
	r = worker_prepare(&f->w, &e);
	if (r) {
		printf("  worker_prepare: %s\n", e.msg);
		return r;
	}
	worker_main(&f->w);
	worker_result(&f->w, &f->r);
	return f->w.error;
}

static inline void wfix_release(struct wfix *f)
{
	worker_release(&f->w);
}

#endif
