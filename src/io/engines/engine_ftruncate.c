/*
 * engine_ftruncate: fio's ftruncate engine.  Every write is an
 * ftruncate(2) of the file to the write's offset (the block size only moves
 * the offset on), so a sequential job grows the file block by block and a
 * random one makes it jump up and down; it measures the file system's
 * truncate path.  Reads and trims are refused when the job is validated;
 * fsync/fdatasync requests are done.  Completes inline.
 */
#include <errno.h>	/* EINVAL */
#include <unistd.h>	/* ftruncate, fsync, fdatasync */
#include "io/engine.h"

static int ftr_init(struct engine_ctx *ctx, struct err *e)
{
	(void)e;
	ctx->info[0] = '\0';
	return 0;
}

static int ftr_queue(struct engine_ctx *ctx, struct io_u *io)
{
	int fd = ctx->files[io->file].fd;

	switch (io->ddir) {
	case DDIR_WRITE:
		io->res = ftruncate(fd, (off_t)io->offset) ? -errno : (int64_t)io->len;
		break;
	case DDIR_SYNC:
		io->res = fsync(fd) ? -errno : 0;
		break;
	case DDIR_DATASYNC:
		io->res = fdatasync(fd) ? -errno : 0;
		break;
	default:
		io->res = -EINVAL;
		break;
	}
	return ENGINE_Q_COMPLETED;
}

static void ftr_exit(struct engine_ctx *ctx)
{
	(void)ctx;	/* nothing held: the files are the worker's */
}

static int ftr_validate(const struct job *j, struct err *e)
{
	if (j->rw & (RW_READ | RW_TRIM | RW_TRIMWRITE))
		return job_err(e, j, "ioengine ftruncate does only writes (rw=write or randwrite)");
	return 0;
}

const struct engine_ops engine_ftruncate_ops = {
	.name = "ftruncate",
	.init = ftr_init,
	.queue = ftr_queue,
	.exit = ftr_exit,
	.validate = ftr_validate,
};
