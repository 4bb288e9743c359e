/*
 * engine_mmap: fio's mmap engine.  Each file's I/O region is mapped once at
 * init (MAP_SHARED; writable when the job writes), and an I/O is a memcpy
 * between the io_u's buffer and the mapping, so it measures page-cache and
 * page-fault costs rather than system calls.  Completes inline
 * (ENGINE_F_SYNC).  fsync/fdatasync requests msync(MS_SYNC) the file's
 * mapping; trims go to file_trim().  A file of size 0 (nothing to map) is an
 * init error naming it.
 */
#include <errno.h>	/* EINVAL, ENOMEM */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* memcpy, strerror */
#include <sys/mman.h>	/* mmap, munmap, msync */
#include "io/engine.h"
#include "io/file.h"

struct mmap_state {
	void **maps;		/* per file: the mapping of [0, offset + size) */
	size_t *lens;
	unsigned nr;
};

static void mm_exit(struct engine_ctx *ctx)
{
	struct mmap_state *s = ctx->priv;
	unsigned i;

	if (!s)
		return;
	for (i = 0; i < s->nr; i++)
		if (s->maps[i] && s->maps[i] != MAP_FAILED)
			munmap(s->maps[i], s->lens[i]);
	free(s->maps);
	free(s->lens);
	free(s);
	ctx->priv = NULL;
}

static int mm_init(struct engine_ctx *ctx, struct err *e)
{
	struct mmap_state *s = calloc(1, sizeof(*s));
	int prot = PROT_READ | (ctx->job && job_writes(ctx->job) ? PROT_WRITE : 0);
	unsigned i;

	ctx->info[0] = '\0';
	if (!s)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "mmap: out of memory");
	ctx->priv = s;
	s->maps = calloc(ctx->nr_files ? ctx->nr_files : 1, sizeof(*s->maps));
	s->lens = calloc(ctx->nr_files ? ctx->nr_files : 1, sizeof(*s->lens));
	if (!s->maps || !s->lens) {
		mm_exit(ctx);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "mmap: out of memory");
	}
	s->nr = ctx->nr_files;
	for (i = 0; i < ctx->nr_files; i++) {
		const struct engine_file *f = &ctx->files[i];

		s->lens[i] = (size_t)(f->offset + f->size);
		if (!s->lens[i]) {
			mm_exit(ctx);
			return err_set(e, -EINVAL, EXIT_TARGET, "mmap: %s: nothing to map (size 0)", f->path);
		}
		s->maps[i] = mmap(NULL, s->lens[i], prot, MAP_SHARED, f->fd, 0);
		if (s->maps[i] == MAP_FAILED) {
			int err = errno;

			mm_exit(ctx);
			return err_set(e, -err, EXIT_TARGET, "mmap: %s: %s", f->path, strerror(err));
		}
	}
	return 0;
}

static int mm_queue(struct engine_ctx *ctx, struct io_u *io)
{
	struct mmap_state *s = ctx->priv;
	uint8_t *map = s->maps[io->file];

	switch (io->ddir) {
	case DDIR_READ:
	case DDIR_WRITE:
		if (io->offset + io->len > s->lens[io->file]) {
			io->res = -EINVAL;
			break;
		}
		if (io->ddir == DDIR_READ)
			memcpy(io->buf, map + io->offset, io->len);
		else
			memcpy(map + io->offset, io->buf, io->len);
		io->res = io->len;
		break;
	case DDIR_TRIM:
		io->res = file_trim(&ctx->files[io->file], io->offset, io->len);
		break;
	case DDIR_SYNC:
	case DDIR_DATASYNC:
		io->res = msync(map, s->lens[io->file], MS_SYNC) ? -errno : 0;
		break;
	default:
		return -EINVAL;
	}
	return ENGINE_Q_COMPLETED;
}

const struct engine_ops engine_mmap_ops = {
	.name = "mmap",
	.init = mm_init,
	.queue = mm_queue,
	.exit = mm_exit,
};
