/*
 * engine_sync: the synchronous engines, one system call per I/O.
 *
 *   sync     lseek() then read()/write(), fio's oldest engine
 *   psync    pread()/pwrite(), fio's default on Linux
 *   pvsync2  preadv2()/pwritev2(), with RWF_HIPRI when hipri=1 (polled
 *            completion where the device has poll queues; the kernel quietly
 *            falls back to interrupts where it has not)
 * Every I/O completes inside queue() (ENGINE_F_SYNC), so the ops have no
 * commit or getevents (engine.h: optional then).  Trims are done inline by file_trim(); fsync/fdatasync
 * requests call fsync()/fdatasync().  A short transfer is reported as it is,
 * never retried: the worker counts it.
 */
#include <errno.h>	/* EINTR */
#include <stdio.h>	/* snprintf */
#include <sys/uio.h>	/* preadv2, RWF_HIPRI */
#include <unistd.h>	/* pread, lseek, fsync */
#include "io/engine.h"
#include "io/engine_rows.h"	/* hipri, which io_uring takes too */
#include "io/file.h"

enum sync_kind { SYNC_KIND_SYNC, SYNC_KIND_PSYNC, SYNC_KIND_PVSYNC2 };

/* fsync, fdatasync or trim: the same for every sync engine.  -1 if @io is a read/write. */
static int sync_do_other(struct engine_ctx *ctx, struct io_u *io, int fd)
{
	int r;

	switch (io->ddir) {
	case DDIR_TRIM:
		io->res = file_trim(&ctx->files[io->file], io->offset, io->len);
		return 0;
	case DDIR_SYNC:
	case DDIR_DATASYNC:
		do
			r = io->ddir == DDIR_SYNC ? fsync(fd) : fdatasync(fd);
		while (r < 0 && errno == EINTR);
		io->res = r < 0 ? -errno : 0;
		return 0;
	default:
		return -1;
	}
}

static ssize_t sync_rw(struct engine_ctx *ctx, struct io_u *io, int fd, enum sync_kind kind)
{
	int wr = io->ddir == DDIR_WRITE;
	ssize_t r;

	switch (kind) {
	case SYNC_KIND_SYNC:
		if (lseek(fd, (off_t)io->offset, SEEK_SET) < 0)
			return -1;
		return wr ? write(fd, io->buf, io->len) : read(fd, io->buf, io->len);
	case SYNC_KIND_PSYNC:
		return wr ? pwrite(fd, io->buf, io->len, (off_t)io->offset)
			  : pread(fd, io->buf, io->len, (off_t)io->offset);
	default: {
		struct iovec iov = { .iov_base = io->buf, .iov_len = io->len };
		int fl = ctx->job && ctx->job->hipri ? RWF_HIPRI : 0;

		r = wr ? pwritev2(fd, &iov, 1, (off_t)io->offset, fl)
		       : preadv2(fd, &iov, 1, (off_t)io->offset, fl);
		return r;
	}
	}
}

static int sync_queue_kind(struct engine_ctx *ctx, struct io_u *io, enum sync_kind kind)
{
	int fd = ctx->files[io->file].fd;
	ssize_t r;

	if (!sync_do_other(ctx, io, fd))
		return ENGINE_Q_COMPLETED;
	do
		r = sync_rw(ctx, io, fd, kind);
	while (r < 0 && errno == EINTR);
	io->res = r < 0 ? -errno : (int64_t)r;
	return ENGINE_Q_COMPLETED;
}

static int sync_queue(struct engine_ctx *ctx, struct io_u *io)
{
	return sync_queue_kind(ctx, io, SYNC_KIND_SYNC);
}

static int psync_queue(struct engine_ctx *ctx, struct io_u *io)
{
	return sync_queue_kind(ctx, io, SYNC_KIND_PSYNC);
}

static int pvsync2_queue(struct engine_ctx *ctx, struct io_u *io)
{
	return sync_queue_kind(ctx, io, SYNC_KIND_PVSYNC2);
}

static int sync_init(struct engine_ctx *ctx, struct err *e)
{
	ctx->info[0] = '\0';
	return 0;
}

static int pvsync2_init(struct engine_ctx *ctx, struct err *e)
{
	snprintf(ctx->info, sizeof(ctx->info), "%s",
		 ctx->job && ctx->job->hipri ? "pvsync2: RWF_HIPRI" : "");
	return 0;
}

static void sync_exit(struct engine_ctx *ctx)
{
}

const struct engine_ops engine_sync_ops = {
	.name = "sync",
	.init = sync_init,
	.queue = sync_queue,
	.exit = sync_exit,
};

const struct engine_ops engine_psync_ops = {
	.name = "psync",
	.init = sync_init,
	.queue = psync_queue,
	.exit = sync_exit,
};

/* hipri: RWF_HIPRI on every I/O */
static const struct opt_def *const pvsync2_opts[] = { engine_rows_hipri, NULL };

const struct engine_ops engine_pvsync2_ops = {
	.name = "pvsync2",
	.opts = pvsync2_opts,
	.init = pvsync2_init,
	.queue = pvsync2_queue,
	.exit = sync_exit,
};
