/*
 * engine_falloc: fio's falloc engine, whose I/Os are fallocate(2) calls on
 * the I/O's range: a write allocates it (the file grows when it ends past
 * the size), a read allocates it without changing the size
 * (FALLOC_FL_KEEP_SIZE), a trim punches a hole.  No data moves; it measures
 * the file system's block allocator and fragments the file on purpose.
 * With fallocate=none the layout leaves the file sparse, so the writes
 * really allocate.  Completes inline.
 */
#include <errno.h>	/* EINVAL */
#include <fcntl.h>	/* fallocate */
#include <linux/falloc.h>	/* FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE */
#include <unistd.h>	/* fsync, fdatasync */
#include "io/engine.h"

static int fal_init(struct engine_ctx *ctx, struct err *e)
{
	(void)e;
	ctx->info[0] = '\0';
	return 0;
}

static int fal_queue(struct engine_ctx *ctx, struct io_u *io)
{
	int fd = ctx->files[io->file].fd, mode;

	switch (io->ddir) {
	case DDIR_READ:
		mode = FALLOC_FL_KEEP_SIZE;
		break;
	case DDIR_WRITE:
		mode = 0;
		break;
	case DDIR_TRIM:
		mode = FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE;
		break;
	case DDIR_SYNC:
		io->res = fsync(fd) ? -errno : 0;
		return ENGINE_Q_COMPLETED;
	case DDIR_DATASYNC:
		io->res = fdatasync(fd) ? -errno : 0;
		return ENGINE_Q_COMPLETED;
	default:
		io->res = -EINVAL;
		return ENGINE_Q_COMPLETED;
	}
	io->res = fallocate(fd, mode, (off_t)io->offset, (off_t)io->len) ? -errno : (int64_t)io->len;
	return ENGINE_Q_COMPLETED;
}

static void fal_exit(struct engine_ctx *ctx)
{
	(void)ctx;	/* nothing held: the files are the worker's */
}

const struct engine_ops engine_falloc_ops = {
	.name = "falloc",
	.init = fal_init,
	.queue = fal_queue,
	.exit = fal_exit,
};
