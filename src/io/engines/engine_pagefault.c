/*
 * engine_pagefault: the page_fault engine of fio's page_fault.fio example.
 * It needs no file: init reserves an anonymous private mapping as large as
 * the job's region (offset + size, MAP_NORESERVE, aligned to 2 MiB so
 * transparent huge pages can back it), and each I/O touches every page of
 * its range: a read loads one byte per page (a first read maps the zero
 * page), a write stores one (a first write allocates and zeroes a page),
 * a trim gives the pages back (madvise MADV_DONTNEED), so later touches
 * fault again.  It measures the kernel's page-fault path and memory
 * bandwidth of first touches, not storage.  Completes inline.
 */
#include <errno.h>	/* ENOMEM, EINVAL */
#include <stdint.h>	/* uintptr_t */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* strerror */
#include <sys/mman.h>	/* mmap, munmap, madvise */
#include <unistd.h>	/* sysconf */
#include "io/engine.h"

#define PF_ALIGN (2ull << 20)	/* a huge page on x86-64 */

struct pf_state {
	void *map;		/* as mmap returned it */
	size_t map_len;
	uint8_t *base;		/* aligned to PF_ALIGN */
	uint64_t len;		/* usable bytes from base */
	size_t page;
};

static uint64_t pf_region_end(const struct job *j)
{
	uint64_t size = j->size ? j->size : (j->io_size ? j->io_size : 1ull << 30);

	/* the worker's virtual region of clone n starts at offset + n * offset_increment */
	return j->offset + j->offset_increment * (j->numjobs ? j->numjobs : 1) + size;
}

static int pf_init(struct engine_ctx *ctx, struct err *e)
{
	struct pf_state *s = calloc(1, sizeof(*s));
	uintptr_t a;

	ctx->info[0] = '\0';
	if (!s)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "page_fault: out of memory");
	s->page = (size_t)sysconf(_SC_PAGESIZE);
	s->len = pf_region_end(ctx->job);
	s->map_len = (size_t)(s->len + PF_ALIGN);
	s->map = mmap(NULL, s->map_len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s->map == MAP_FAILED) {
		int err = errno;
		unsigned long long len = (unsigned long long)s->len;

		free(s);
		return err_set(e, -err, EXIT_TARGET, "page_fault: cannot map %llu bytes: %s",
			       len, strerror(err));
	}
	a = ((uintptr_t)s->map + PF_ALIGN - 1) & ~(uintptr_t)(PF_ALIGN - 1);
	s->base = (uint8_t *)a;
	ctx->priv = s;
	snprintf(ctx->info, sizeof(ctx->info), "page_fault: %llu bytes of anonymous memory",
		 (unsigned long long)s->len);
	return 0;
}

static int pf_queue(struct engine_ctx *ctx, struct io_u *io)
{
	struct pf_state *s = ctx->priv;
	uint8_t *p, *end;
	volatile uint8_t sink = 0;

	if (io->ddir >= DDIR_NR) {
		io->res = 0;	/* anonymous memory: nothing to sync */
		return ENGINE_Q_COMPLETED;
	}
	if (io->offset + io->len > s->len) {
		io->res = -EINVAL;
		return ENGINE_Q_COMPLETED;
	}
	p = s->base + io->offset;
	end = p + io->len;
	switch (io->ddir) {
	case DDIR_READ:
		for (; p < end; p += s->page)
			sink += *(volatile uint8_t *)p;
		break;
	case DDIR_WRITE:
		for (; p < end; p += s->page)
			*(volatile uint8_t *)p = (uint8_t)io->offset;
		break;
	default: {
		/* whole pages inside the range only */
		uintptr_t lo = ((uintptr_t)p + s->page - 1) & ~(uintptr_t)(s->page - 1);
		uintptr_t hi = (uintptr_t)end & ~(uintptr_t)(s->page - 1);

		if (hi > lo && madvise((void *)lo, hi - lo, MADV_DONTNEED)) {
			io->res = -errno;
			return ENGINE_Q_COMPLETED;
		}
	}
	}
	(void)sink;
	io->res = io->len;
	return ENGINE_Q_COMPLETED;
}

static void pf_exit(struct engine_ctx *ctx)
{
	struct pf_state *s = ctx->priv;

	if (!s)
		return;
	munmap(s->map, s->map_len);
	free(s);
	ctx->priv = NULL;
}

const struct engine_ops engine_pagefault_ops = {
	.name = "page_fault",
	.init = pf_init,
	.queue = pf_queue,
	.exit = pf_exit,
};
