/*
 * engine_null: completes every I/O at once without touching a device.
 *
 * It measures iotrial itself: the cost of generating, timing and accounting
 * an I/O.  With iodepth > 1 it behaves like an async engine (queue, commit,
 * getevents) so that the same code path as io_uring is exercised; at depth 1
 * it completes inline like a sync engine.
 */
#include <errno.h>	/* ENOMEM */
#include <stdlib.h>	/* calloc */
#include "io/cmdprio.h"	/* cmdprio_opt_rows: per-I/O priorities are null options */
#include "io/engine.h"

struct null_state {
	struct io_u **queued;	/* queued, not yet committed */
	unsigned nr_queued;
	struct io_u **done;	/* committed, not yet reaped */
	unsigned nr_done;
};

static int null_init(struct engine_ctx *ctx, struct err *e)
{
	struct null_state *s = calloc(1, sizeof(*s));

	if (!s)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "null engine: out of memory");
	s->queued = calloc(ctx->depth, sizeof(*s->queued));
	s->done = calloc(ctx->depth, sizeof(*s->done));
	if (!s->queued || !s->done) {
		free(s->queued);
		free(s->done);
		free(s);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "null engine: out of memory");
	}
	ctx->priv = s;
	return 0;
}

static int null_queue(struct engine_ctx *ctx, struct io_u *io)
{
	struct null_state *s = ctx->priv;

	io->res = io->ddir < DDIR_NR ? (int64_t)io->len : 0;
	if (ctx->depth == 1)
		return ENGINE_Q_COMPLETED;
	if (s->nr_queued + s->nr_done >= ctx->depth)
		return ENGINE_Q_BUSY;
	s->queued[s->nr_queued++] = io;
	return ENGINE_Q_QUEUED;
}

static int null_commit(struct engine_ctx *ctx)
{
	struct null_state *s = ctx->priv;
	unsigned i, n = s->nr_queued;

	for (i = 0; i < n; i++)
		s->done[s->nr_done++] = s->queued[i];
	s->nr_queued = 0;
	return (int)n;
}

static int null_getevents(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out)
{
	struct null_state *s = ctx->priv;
	unsigned i, n = s->nr_done < max ? s->nr_done : max;

	(void)min;	/* everything committed is already complete */
	for (i = 0; i < n; i++)
		out[i] = s->done[--s->nr_done];
	return (int)n;
}

/* Nothing to wait for: what was committed is complete. */
static int null_getevents_timed(struct engine_ctx *ctx, unsigned min, unsigned max,
				struct io_u **out, uint64_t timeout_ns)
{
	(void)timeout_ns;
	return null_getevents(ctx, min, max, out);
}

static void null_exit(struct engine_ctx *ctx)
{
	struct null_state *s = ctx->priv;

	if (!s)
		return;
	free(s->queued);
	free(s->done);
	free(s);
	ctx->priv = NULL;
}

/* cmdprio_*: taken for tests of the worker's priorities (fio's null has none) */
static const struct opt_def *const null_opts[] = { cmdprio_opt_rows, NULL };

const struct engine_ops engine_null_ops = {
	.name = "null",
	.opts = null_opts,
	.init = null_init,
	.queue = null_queue,
	.commit = null_commit,
	.getevents = null_getevents,
	.exit = null_exit,
	.getevents_timed = null_getevents_timed,
};
