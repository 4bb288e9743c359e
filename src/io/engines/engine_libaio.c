/*
 * engine_libaio: Linux native AIO through libaio.
 *
 * One iocb per io_u, made at init and reached through io_u->engine_data, so
 * queue() only fills it in and appends it to the pending list.  commit()
 * hands the pending list to io_submit(), which may take only part of it (the
 * kernel's ring is full, or -EAGAIN): the rest stays pending, in order, and
 * goes with the next commit.  Native AIO is only truly asynchronous with
 * direct=1; buffered I/O completes inside io_submit(), as with fio.  Trims are
 * done inline (file_trim) since AIO has no discard command.
 */
#include <errno.h>	/* EAGAIN */
#include <libaio.h>	/* io_setup, io_submit, io_getevents */
#include <stdlib.h>	/* calloc */
#include <string.h>	/* memmove */
#include "io/cmdprio.h"	/* cmdprio_opt_rows: per-I/O priorities are libaio options */
#include "io/engine.h"
#include "io/file.h"

#ifndef IOCB_FLAG_IOPRIO	/* linux/aio_abi.h's, which clashes with libaio.h */
#define IOCB_FLAG_IOPRIO (1 << 1)
#endif

struct aio_state {
	io_context_t aio;
	struct iocb *iocbs;	/* one per io_u, by io_u->index */
	struct iocb **pending;	/* queued, not yet accepted by the kernel */
	unsigned nr_pending;
	struct io_event *events;
	unsigned inflight;	/* accepted by the kernel, not reaped */
};

static void aio_free(struct aio_state *s)
{
	if (!s)
		return;
	free(s->iocbs);
	free(s->pending);
	free(s->events);
	free(s);
}

static int aio_init(struct engine_ctx *ctx, struct err *e)
{
	struct aio_state *s = calloc(1, sizeof(*s));
	unsigned i;
	int ret;

	ctx->info[0] = '\0';
	if (!s)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "libaio: out of memory");
	s->iocbs = calloc(ctx->depth, sizeof(*s->iocbs));
	s->pending = calloc(ctx->depth, sizeof(*s->pending));
	s->events = calloc(ctx->depth, sizeof(*s->events));
	if (!s->iocbs || !s->pending || !s->events) {
		aio_free(s);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "libaio: out of memory");
	}
	ret = io_setup((int)ctx->depth, &s->aio);	/* returns -errno, not -1 */
	if (ret < 0) {
		aio_free(s);
		if (ret == -EAGAIN)
			return err_set(e, ret, EXIT_TARGET,
				       "libaio: io_setup(%u) failed: the system-wide limit fs.aio-max-nr is reached",
				       ctx->depth);
		return err_set(e, ret, EXIT_TARGET, "libaio: io_setup(%u) failed: %s",
			       ctx->depth, strerror(-ret));
	}
	for (i = 0; i < ctx->depth; i++)
		ctx->ios[i].engine_data = &s->iocbs[i];
	ctx->priv = s;
	return 0;
}

static int aio_queue(struct engine_ctx *ctx, struct io_u *io)
{
	struct aio_state *s = ctx->priv;
	struct iocb *cb = io->engine_data;
	int fd = ctx->files[io->file].fd;

	if (io->ddir == DDIR_TRIM) {
		io->res = file_trim(&ctx->files[io->file], io->offset, io->len);
		return ENGINE_Q_COMPLETED;
	}
	if (s->nr_pending >= ctx->depth)
		return ENGINE_Q_BUSY;
	switch (io->ddir) {
	case DDIR_READ:
		io_prep_pread(cb, fd, io->buf, io->len, (long long)io->offset);
		break;
	case DDIR_WRITE:
		io_prep_pwrite(cb, fd, io->buf, io->len, (long long)io->offset);
		break;
	case DDIR_SYNC:
		io_prep_fsync(cb, fd);
		break;
	case DDIR_DATASYNC:
		io_prep_fdsync(cb, fd);
		break;
	default:
		return -EINVAL;
	}
	cb->data = io;
	if (io->ioprio) {	/* cmdprio: the kernel takes it with this flag only */
		cb->aio_reqprio = (short)io->ioprio;
		cb->u.c.flags |= IOCB_FLAG_IOPRIO;
	}
	s->pending[s->nr_pending++] = cb;
	return ENGINE_Q_QUEUED;
}

/* Submit what is pending: the number the kernel took (the rest stays pending) or -errno. */
static int aio_commit(struct engine_ctx *ctx)
{
	struct aio_state *s = ctx->priv;
	unsigned done = 0;
	int r;

	while (done < s->nr_pending) {
		r = io_submit(s->aio, (long)(s->nr_pending - done), s->pending + done);
		if (r > 0) {
			done += (unsigned)r;
			continue;
		}
		if (r == -EINTR)
			continue;
		if ((r == -EAGAIN || r == 0) && (done || s->inflight))
			break;	/* ring full: the caller reaps, then commits the rest */
		if (!done)
			return r ? r : -EAGAIN;
		break;
	}
	if (done && done < s->nr_pending)
		memmove(s->pending, s->pending + done, (s->nr_pending - done) * sizeof(*s->pending));
	s->nr_pending -= done;
	s->inflight += done;
	return (int)done;
}

/* Wait for @min completions, at most *@ts when @ts is not NULL. */
static int aio_reap(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out,
		    struct timespec *ts)
{
	struct aio_state *s = ctx->priv;
	int r, i;

	if (max > ctx->depth)
		max = ctx->depth;
	if (min > max)
		min = max;
	do
		r = io_getevents(s->aio, (long)min, (long)max, s->events, ts);
	while (r == -EINTR && min && !ts);
	if (r == -EINTR)
		return 0;
	if (r < 0)
		return r;
	for (i = 0; i < r; i++) {
		struct io_u *io = s->events[i].data;
		long res = (long)s->events[i].res;	/* -errno arrives as unsigned */

		io->res = res;
		out[i] = io;
	}
	s->inflight -= (unsigned)r;
	return r;
}

static int aio_getevents(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out)
{
	return aio_reap(ctx, min, max, out, NULL);
}

static int aio_getevents_timed(struct engine_ctx *ctx, unsigned min, unsigned max,
			       struct io_u **out, uint64_t timeout_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(timeout_ns / 1000000000ull),
			       .tv_nsec = (long)(timeout_ns % 1000000000ull) };

	return aio_reap(ctx, min, max, out, &ts);
}

static void aio_exit(struct engine_ctx *ctx)
{
	struct aio_state *s = ctx->priv;

	if (!s)
		return;
	io_destroy(s->aio);	/* waits for what is still in flight */
	aio_free(s);
	ctx->priv = NULL;
}

static const struct opt_def *const libaio_opts[] = { cmdprio_opt_rows, NULL };

const struct engine_ops engine_libaio_ops = {
	.name = "libaio",
	.opts = libaio_opts,
	.init = aio_init,
	.queue = aio_queue,
	.commit = aio_commit,
	.getevents = aio_getevents,
	.exit = aio_exit,
	.getevents_timed = aio_getevents_timed,
};
