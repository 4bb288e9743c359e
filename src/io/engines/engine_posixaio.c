/*
 * engine_posixaio: POSIX asynchronous I/O (aio_read/aio_write/aio_fsync),
 * fio's posixaio engine, the usual choice in guides written for macOS and
 * ZFS.  On Linux glibc implements it with a pool of threads doing pread and
 * pwrite, so it measures that, not the kernel's native AIO (libaio,
 * io_uring).
 *
 * queue() hands each io_u to glibc at once (fio does the same), so commit()
 * only reports how many went since the last commit.  getevents() scans the
 * in-flight list with aio_error() and sleeps in aio_suspend() while fewer than
 * @min are done.  One aiocb per io_u, made at init.  Trims are done inline
 * (file_trim): POSIX AIO has no discard.
 */
#include <aio.h>	/* aio_read, aio_write, aio_fsync, aio_error, aio_return, aio_suspend */
#include <errno.h>	/* EINPROGRESS, EAGAIN, EINTR */
#include <fcntl.h>	/* O_SYNC, O_DSYNC */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* memset */
#include "io/engine.h"
#include "io/file.h"

struct paio_state {
	struct aiocb *cbs;		/* one per io_u, by io_u->index */
	struct io_u **inflight;		/* handed to glibc, not reaped */
	const struct aiocb **wait;	/* aio_suspend's list, rebuilt per wait */
	unsigned nr_inflight;
	unsigned since_commit;		/* queued since the last commit() */
};

static void paio_free(struct paio_state *s)
{
	if (!s)
		return;
	free(s->cbs);
	free(s->inflight);
	free(s->wait);
	free(s);
}

static int paio_init(struct engine_ctx *ctx, struct err *e)
{
	struct paio_state *s = calloc(1, sizeof(*s));
	unsigned i;

	ctx->info[0] = '\0';
	if (!s)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "posixaio: out of memory");
	s->cbs = calloc(ctx->depth, sizeof(*s->cbs));
	s->inflight = calloc(ctx->depth, sizeof(*s->inflight));
	s->wait = calloc(ctx->depth, sizeof(*s->wait));
	if (!s->cbs || !s->inflight || !s->wait) {
		paio_free(s);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "posixaio: out of memory");
	}
	for (i = 0; i < ctx->depth; i++)
		ctx->ios[i].engine_data = &s->cbs[i];
	ctx->priv = s;
	return 0;
}

static int paio_queue(struct engine_ctx *ctx, struct io_u *io)
{
	struct paio_state *s = ctx->priv;
	struct aiocb *cb = io->engine_data;
	int r;

	if (io->ddir == DDIR_TRIM) {
		io->res = file_trim(&ctx->files[io->file], io->offset, io->len);
		return ENGINE_Q_COMPLETED;
	}
	if (s->nr_inflight >= ctx->depth)
		return ENGINE_Q_BUSY;
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = ctx->files[io->file].fd;
	cb->aio_buf = io->buf;
	cb->aio_nbytes = io->len;
	cb->aio_offset = (off_t)io->offset;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	switch (io->ddir) {
	case DDIR_READ:
		r = aio_read(cb);
		break;
	case DDIR_WRITE:
		r = aio_write(cb);
		break;
	case DDIR_SYNC:
		r = aio_fsync(O_SYNC, cb);
		break;
	case DDIR_DATASYNC:
		r = aio_fsync(O_DSYNC, cb);
		break;
	default:
		return -EINVAL;
	}
	if (r) {
		if (errno == EAGAIN && s->nr_inflight)
			return ENGINE_Q_BUSY;	/* glibc's queue is full: reap first */
		return -errno;
	}
	s->inflight[s->nr_inflight++] = io;
	s->since_commit++;
	return ENGINE_Q_QUEUED;
}

/* Everything queued already went to glibc: report how many. */
static int paio_commit(struct engine_ctx *ctx)
{
	struct paio_state *s = ctx->priv;
	int n = (int)s->since_commit;

	s->since_commit = 0;
	return n;
}

/* Move what is done to @out (up to @max); the count. */
static unsigned paio_reap(struct paio_state *s, unsigned max, struct io_u **out)
{
	unsigned i = 0, n = 0;

	while (i < s->nr_inflight && n < max) {
		struct io_u *io = s->inflight[i];
		struct aiocb *cb = io->engine_data;
		int err = aio_error(cb);

		if (err == EINPROGRESS) {
			i++;
			continue;
		}
		io->res = err ? -err : (int64_t)aio_return(cb);
		if (err)
			(void)aio_return(cb);	/* release glibc's record */
		out[n++] = io;
		s->inflight[i] = s->inflight[--s->nr_inflight];
	}
	return n;
}

static int paio_getevents(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out)
{
	struct paio_state *s = ctx->priv;
	unsigned n = 0, i;

	if (min > s->nr_inflight)
		min = s->nr_inflight;
	for (;;) {
		n += paio_reap(s, max - n, out + n);
		if (n >= min || n >= max || !s->nr_inflight)
			return (int)n;
		for (i = 0; i < s->nr_inflight; i++)
			s->wait[i] = s->inflight[i]->engine_data;
		if (aio_suspend(s->wait, (int)s->nr_inflight, NULL) && errno != EINTR &&
		    errno != EAGAIN)
			return n ? (int)n : -errno;
	}
}

static void paio_exit(struct engine_ctx *ctx)
{
	struct paio_state *s = ctx->priv;
	struct io_u *done[64];
	unsigned i;

	if (!s)
		return;
	/* the buffers are freed after this: wait for what glibc still holds */
	while (s->nr_inflight) {
		for (i = 0; i < s->nr_inflight; i++)
			s->wait[i] = s->inflight[i]->engine_data;
		if (aio_suspend(s->wait, (int)s->nr_inflight, NULL) && errno != EINTR &&
		    errno != EAGAIN)
			break;
		paio_reap(s, 64, done);
	}
	paio_free(s);
	ctx->priv = NULL;
}

const struct engine_ops engine_posixaio_ops = {
	.name = "posixaio",
	.init = paio_init,
	.queue = paio_queue,
	.commit = paio_commit,
	.getevents = paio_getevents,
	.exit = paio_exit,
};
