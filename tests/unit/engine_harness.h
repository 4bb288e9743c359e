/*
 * engine_harness.h: a miniature worker for the engine tests.
 *
 * It owns what the real worker owns (the io_u pool, 4096-aligned buffers in
 * one area, the open file) and drives an engine through queue / commit /
 * getevents exactly as the ops contract in engine.h says.  eh_pass() writes
 * or reads a whole file in blocks, in a scrambled order so completions come
 * back out of order at depth > 1; reads are compared byte for byte with the
 * pattern that writes put there.  Included by tests/unit/test_engine_*.c only.
 */
#ifndef IOTRIAL_ENGINE_HARNESS_H
#define IOTRIAL_ENGINE_HARNESS_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "io/engine.h"
#include "parse/opt.h"	/* opt_set: an engine's options, as a job file sets them */

struct eh {
	struct job job;
	struct engine_ctx ctx;
	struct engine_file file;
	char dir[64];
	char path[128];
	struct io_u **out;
	int inited;
	char fail[256];		/* why eh_pass failed */
};

/* The byte a file holds at @off after a pass with @seed. */
static inline uint8_t eh_pat(uint64_t off, unsigned seed)
{
	uint64_t x = (off >> 9) * 0x9e3779b97f4a7c15ull + seed;

	return (uint8_t)((x >> 29) ^ off ^ (off >> 8));
}

/* A job with the fields the engines read, at fio's defaults. */
static inline void eh_job(struct job *j, unsigned depth)
{
	memset(j, 0, sizeof(*j));
	snprintf(j->name, sizeof(j->name), "t");
	j->iodepth = depth;
	j->nrfiles = 1;
	j->allow_file_create = 1;
	snprintf(j->origin, sizeof(j->origin), "test");
}

/*
 * Set job option @name=@val (NULL: bare) through the option table, as a job
 * file would: "ioengine" first puts that engine's defaults in the job's
 * engine area, then its own options land there.  0, or -1 (printed).
 */
static inline int eh_opt(struct eh *h, const char *name, const char *val)
{
	struct err e = { 0 };

	if (!opt_set(&h->job, name, val, "test", &e))
		return 0;
	printf("  %s=%s: %s\n", name, val ? val : "(bare)", e.msg);
	return -1;
}

/*
 * Create a @size-byte file in @dir ("/tmp", "/dev/shm"), open it with @oflags,
 * and set up the context at @depth with @bs-byte buffers.  0 or -errno.
 */
static inline int eh_setup(struct eh *h, const char *dir, uint64_t size, unsigned depth,
			   unsigned bs, int oflags)
{
	unsigned i;
	int fd;

	memset(h, 0, sizeof(*h));
	eh_job(&h->job, depth);
	snprintf(h->dir, sizeof(h->dir), "%s/iotrial-eng.XXXXXX", dir);
	if (!mkdtemp(h->dir))
		return -errno;
	snprintf(h->path, sizeof(h->path), "%s/f", h->dir);
	fd = open(h->path, O_RDWR | O_CREAT, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)size))
		return -errno;
	close(fd);
	fd = open(h->path, O_RDWR | oflags);
	if (fd < 0)
		return -errno;
	h->file.fd = fd;
	h->file.path = h->path;
	h->file.size = size;
	h->ctx.job = &h->job;
	h->ctx.files = &h->file;
	h->ctx.nr_files = 1;
	h->ctx.depth = depth;
	h->ctx.buf_len = (uint64_t)depth * bs;
	if (posix_memalign(&h->ctx.buf_base, 4096, h->ctx.buf_len))
		return -ENOMEM;
	h->ctx.ios = calloc(depth, sizeof(*h->ctx.ios));
	h->out = calloc(depth, sizeof(*h->out));
	if (!h->ctx.ios || !h->out)
		return -ENOMEM;
	for (i = 0; i < depth; i++) {
		h->ctx.ios[i].index = i;
		h->ctx.ios[i].buf = (char *)h->ctx.buf_base + (size_t)i * bs;
	}
	return 0;
}

static inline int eh_init(struct eh *h, const struct engine_ops *ops, struct err *e)
{
	int r = ops->init(&h->ctx, e);

	h->inited = r == 0;
	return r;
}

static inline void eh_teardown(struct eh *h, const struct engine_ops *ops)
{
	if (h->inited)
		ops->exit(&h->ctx);
	h->inited = 0;
	if (h->file.fd > 0)
		close(h->file.fd);
	h->file.fd = -1;
	unlink(h->path);
	rmdir(h->dir);
	free(h->ctx.buf_base);
	free(h->ctx.ios);
	free(h->out);
	h->ctx.buf_base = NULL;
	h->ctx.ios = NULL;
	h->out = NULL;
	job_free(&h->job);	/* what eh_opt() set */
}

/* A completed io_u: check it, and for reads check the data. 0 or -1 with h->fail. */
static inline int eh_complete(struct eh *h, struct io_u *io, unsigned seed)
{
	uint64_t k;

	if (io->res != (int64_t)io->len) {
		snprintf(h->fail, sizeof(h->fail), "ddir %u at %llu: res %lld, wanted %u", io->ddir,
			 (unsigned long long)io->offset, (long long)io->res, io->len);
		return -1;
	}
	if (io->ddir != DDIR_READ)
		return 0;
	for (k = 0; k < io->len; k++)
		if (((uint8_t *)io->buf)[k] != eh_pat(io->offset + k, seed)) {
			snprintf(h->fail, sizeof(h->fail), "read at %llu: byte %llu is %u, wanted %u",
				 (unsigned long long)io->offset, (unsigned long long)k,
				 ((uint8_t *)io->buf)[k], eh_pat(io->offset + k, seed));
			return -1;
		}
	return 0;
}

/*
 * Issue one @ddir I/O of @bs bytes for each block of the file, at most
 * ctx.depth in flight; the block order is scrambled (stride 7, prime to the
 * count when the count is a power of two).  Writes lay down eh_pat(@seed).
 * Returns 0, or -1 with h->fail set.
 */
static inline int eh_pass(struct eh *h, const struct engine_ops *ops, unsigned ddir, unsigned bs,
			  unsigned seed)
{
	unsigned nblk = (unsigned)(h->file.size / bs), next = 0, done = 0, queued = 0, inflight = 0;
	unsigned nfree = h->ctx.depth, i;
	struct io_u **freel = calloc(h->ctx.depth, sizeof(*freel));
	int ret = -1;

	if (!freel)
		return -1;
	for (i = 0; i < h->ctx.depth; i++)
		freel[i] = &h->ctx.ios[i];
	while (done < nblk) {
		while (nfree && next < nblk) {
			struct io_u *io = freel[--nfree];
			uint64_t k;
			int r;

			io->offset = (uint64_t)((next * 7u) % nblk) * bs;
			io->len = bs;
			io->ddir = (uint8_t)ddir;
			io->file = 0;
			io->res = -9999;
			if (ddir == DDIR_WRITE)
				for (k = 0; k < bs; k++)
					((uint8_t *)io->buf)[k] = eh_pat(io->offset + k, seed);
			else
				memset(io->buf, 0xEE, bs);
			r = ops->queue(&h->ctx, io);
			if (r == ENGINE_Q_BUSY) {
				freel[nfree++] = io;
				break;
			}
			if (r < 0) {
				snprintf(h->fail, sizeof(h->fail), "queue: %d", r);
				goto out;
			}
			next++;
			if (r == ENGINE_Q_COMPLETED) {
				if (eh_complete(h, io, seed))
					goto out;
				freel[nfree++] = io;
				done++;
			} else {
				queued++;
			}
		}
		if (queued) {
			/* an engine without commit (engine.h) never leaves one queued */
			int c = ops->commit ? ops->commit(&h->ctx) : -9999;

			if (c < 0) {
				snprintf(h->fail, sizeof(h->fail), "commit: %d", c);
				goto out;
			}
			queued -= (unsigned)c;
			inflight += (unsigned)c;
		}
		if (inflight) {
			int n = ops->getevents ? ops->getevents(&h->ctx, 1, h->ctx.depth, h->out) : -9999, k;

			if (n < 0) {
				snprintf(h->fail, sizeof(h->fail), "getevents: %d", n);
				goto out;
			}
			for (k = 0; k < n; k++) {
				if (eh_complete(h, h->out[k], seed))
					goto out;
				freel[nfree++] = h->out[k];
			}
			done += (unsigned)n;
			inflight -= (unsigned)n;
		}
	}
	ret = 0;
out:
	free(freel);
	return ret;
}

/*
 * One non-data request (fsync, fdatasync, trim) through the engine, waited
 * for.  Returns its res, or -9999 when the engine failed to run it.
 */
static inline int64_t eh_one(struct eh *h, const struct engine_ops *ops, unsigned ddir,
			     uint64_t off, uint32_t len)
{
	struct io_u *io = &h->ctx.ios[0];
	int r;

	io->ddir = (uint8_t)ddir;
	io->offset = off;
	io->len = len;
	io->file = 0;
	io->res = -9999;
	r = ops->queue(&h->ctx, io);
	if (r == ENGINE_Q_COMPLETED)
		return io->res;
	if (r != ENGINE_Q_QUEUED || !ops->commit || !ops->getevents || ops->commit(&h->ctx) != 1)
		return -9999;
	if (ops->getevents(&h->ctx, 1, h->ctx.depth, h->out) != 1 || h->out[0] != io)
		return -9999;
	return io->res;
}

/* Bytes the file really occupies (st_blocks), to see a punched hole. */
static inline uint64_t eh_allocated(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (uint64_t)st.st_blocks * 512;
}

#endif
