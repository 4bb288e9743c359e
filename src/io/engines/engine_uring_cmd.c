/*
 * engine_uring_cmd: NVMe passthrough, fio's io_uring_cmd engine (cmd_type=nvme).
 *
 * Every I/O is an NVMe command (nvme.h builds them) sent through
 * IORING_OP_URING_CMD to a namespace's generic char device (/dev/ngXnY):
 * reads and writes as NVMe Read/Write, trims as Dataset Management
 * (deallocate, one range per trim), fsync/fdatasync as Flush.  The ring has
 * 128-byte SQEs (the command rides in the SQE) and 32-byte CQEs, as the
 * kernel requires for NVMe passthrough.  No block layer sits in between:
 * the block device's counters never see these commands (engine_traits.h,
 * ENGINE_F_PASSTHRU; docs/breakdown.md says what the device view is then).
 *
 * Set-up identifies each namespace (LBA size, metadata, protection
 * information, capacity: file.c sized the region on it) and refuses, with
 * one line naming the file, a block size or region not made of whole LBAs,
 * extended-LBA formats, and a metadata format the options leave unserved
 * (md_per_io_size below what the largest block carries).  With protection
 * information, pi_act=1 (fio's default) has the controller insert and strip
 * it (PRACT); pi_act=0 has the host write it (guard, application tag,
 * reference tag: nvme_pi_fill) into each I/O's metadata buffer; pi_chk
 * selects what the controller checks.  A failed check completes as -EILSEQ,
 * as the block layer reports it.
 *
 * The ring's options are io_uring's rows (engine_rows.h): fixedbufs
 * (IORING_URING_CMD_FIXED on the registered buffer area; non-vectored
 * commands only, as the kernel maps a registered buffer only so),
 * registerfiles, sqthread_poll(_cpu), nonvectored (0: NVME_URING_CMD_IO_VEC
 * with one iovec per io_u), and hipri (an IOPOLL ring, probed with one
 * polled read at set-up so a kernel or device that cannot poll is one line,
 * not an error per I/O), force_async (io_uring's row and meaning: every Nth
 * command with IOSQE_ASYNC).  queue/commit/getevents never allocate: the
 * iovecs, ranges and metadata buffers are per io_u, made at init.
 *
 * write_mode=zone_append (zonemode=zbd on a zoned namespace): a write goes
 * as a Zone Append to the start of the zone zbd.c put it in; the controller
 * writes it at the zone's write pointer and returns the LBA it chose in the
 * completion's dwords 0-1, which the kernel hands over as the 32-byte CQE's
 * big_cqe[0].  The completion puts that place in the io_u's offset, so what
 * the worker logs and verify reads back is where the data is.  zbd.c has
 * reserved the same number of bytes in the same zone, so its write pointers
 * hold; appends in flight in one zone may land in any order among
 * themselves (engine_ctx.append_zone tells verify so).
 */
#include <errno.h>	/* EINVAL */
#include <liburing.h>	/* io_uring_* */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* calloc, free, posix_memalign */
#include <string.h>	/* memset, strerror */
#include <strings.h>	/* strcasecmp */
#include <sys/uio.h>	/* struct iovec */
#include "io/engine.h"
#include "io/engine_rows.h"	/* the ring's rows and hipri, shared with io_uring */
#include "io/nvme.h"
#include "io/nvme_zns.h"	/* write_mode=zone_append: the zone size */
#include "io/uring_ring.h"	/* what io_uring shares: bind, booking, files */

#define UCMD_BUF_MAX (1ull << 30)	/* the kernel's limit on one registered buffer */
#define UCMD_NLB_MAX 65536u		/* a command's block count is 16 bits, 0-based */

enum { UCMD_NVME = 0 };
enum { UCMD_WM_WRITE = 0, UCMD_WM_ZONE_APPEND = 1 };	/* write_mode= */

/* Its options, in the job's engine area: the ring's first (shared rows). */
struct ucmd_opts {
	struct engine_ring_opts ring;
	int cmd_type;		/* UCMD_NVME: the only one fio has */
	uint32_t md_per_io_size;	/* bytes of separate metadata per I/O */
	int pi_act;		/* PRACT: the controller inserts/strips the PI */
	int pi_chk;		/* NVME_PICHK_* */
	uint32_t apptag;
	uint32_t apptag_mask;
	int write_mode;		/* UCMD_WM_*: how writes are sent */
};

/* fio's defaults: non-vectored commands, pi_act=1, application tag 0x1234/0xffff */
static const struct ucmd_opts ucmd_defaults = {
	.ring = { .sqthread_poll_cpu = -1, .nonvectored = 1 },
	.cmd_type = UCMD_NVME, .pi_act = 1, .apptag = 0x1234, .apptag_mask = 0xffff,
};

static const struct ucmd_opts *ucmd_opts_of(const struct job *j)
{
	return j ? engine_job_opts(j) : &ucmd_defaults;
}

/* One target: its namespace and what every command to it carries. */
struct ucmd_file {
	struct nvme_ns ns;
	struct nvme_io_flags fl;
	int host_pi;		/* pi_act=0 on a PI format: the host writes the PI */
	int pract;
	uint64_t zone_bytes;	/* write_mode=zone_append: the namespace's zone size */
};

struct ucmd_state {
	struct io_uring ring;
	unsigned flags;		/* setup flags the kernel took */
	struct ucmd_file *nf;	/* per file */
	struct iovec *iov;	/* per io_u: vectored commands */
	struct nvme_dsm_range *dsm;	/* per io_u: trims */
	uint8_t *md;		/* per io_u, md_size bytes each: separate metadata */
	uint32_t md_size;
	uint8_t *md_sync;	/* verify's read-backs: metadata of the largest read */
	int fixedbufs, regfiles, vectored, have_ring, disabled, bound, submit_reaps;
	int zone_append;	/* write_mode=zone_append */
	unsigned enter_flags;	/* IORING_ENTER_REGISTERED_RING once the fd is (uring_ring_bind) */
	unsigned cqe_shift;	/* 1: 32-byte CQEs */
	uint32_t force_async;	/* force_async=N: every Nth SQE is IOSQE_ASYNC (engine_rows.h) */
	uint32_t since_async;	/* SQEs prepared since the last forced one */
	unsigned unsubmitted, inflight, nr_cqes;
};

/* The largest block any direction of @j uses. */
static uint64_t ucmd_max_bs(const struct job *j)
{
	uint64_t hi = 0;
	unsigned d, i;

	for (d = 0; d < DDIR_NR; d++) {
		if (j->bs[d] > hi)
			hi = j->bs[d];
		if (j->bs_max[d] > hi)
			hi = j->bs_max[d];
		for (i = 0; i < j->bssplit_nr[d]; i++)
			if (j->bssplit[d][i].bs > hi)
				hi = j->bssplit[d][i].bs;
	}
	return hi;
}

/* A block size of @j that is not whole LBAs of @ns, or 0. */
static uint64_t ucmd_bad_bs(const struct job *j, const struct nvme_ns *ns)
{
	uint64_t mask = ns->lba_size - 1;
	unsigned d, i;

	for (d = 0; d < DDIR_NR; d++) {
		if ((j->bs[d] & mask) || (j->bs_min[d] & mask) || (j->bs_max[d] & mask))
			return j->bs[d] & mask ? j->bs[d] : j->bs_min[d] & mask ? j->bs_min[d] : j->bs_max[d];
		for (i = 0; i < j->bssplit_nr[d]; i++)
			if (j->bssplit[d][i].bs & mask)
				return j->bssplit[d][i].bs;
		if (j->blockalign[d] & mask)
			return j->blockalign[d];
	}
	return 0;
}

/*
 * write_mode=zone_append: the namespace behind @f must be zoned, its zone
 * size the same as the other files' (verify knows one), and the host must
 * not write the PI (its reference tag would name an LBA the controller has
 * not chosen yet).  0 or -errno (+ @e).
 */
static int ucmd_file_zoned(struct engine_ctx *ctx, struct ucmd_file *nf,
			   const struct engine_file *f, struct err *e)
{
	struct nvme_zns z;
	int r = nvme_zns_identify(f->fd, &nf->ns, &z);

	if (r == -ENODEV)
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: write_mode=zone_append needs a zoned "
			       "namespace (this one has no zones)", f->path);
	if (r)
		return err_set(e, r, EXIT_TARGET, "%s: identify the zoned namespace: %s", f->path,
			       strerror(-r));
	if (nf->host_pi)
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: write_mode=zone_append with pi_act=0 is "
			       "not supported (the reference tag of an appended block is known only "
			       "at its completion)", f->path);
	nf->zone_bytes = z.zone_lbas << nf->ns.lba_shift;
	if (ctx->append_zone && ctx->append_zone != nf->zone_bytes)
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: write_mode=zone_append: its zones of %llu "
			       "bytes differ from another file's %llu", f->path,
			       (unsigned long long)nf->zone_bytes,
			       (unsigned long long)ctx->append_zone);
	ctx->append_zone = nf->zone_bytes;
	return 0;
}

/* Identify file @i's namespace and check the job fits it.  0 or -errno (+ @e). */
static int ucmd_file_setup(struct engine_ctx *ctx, struct ucmd_state *s, unsigned i,
			   uint64_t max_bs, struct err *e)
{
	const struct job *j = ctx->job;
	const struct ucmd_opts *o = ucmd_opts_of(j);
	const struct engine_file *f = &ctx->files[i];
	struct ucmd_file *nf = &s->nf[i];
	struct nvme_ns *ns = &nf->ns;
	uint64_t bad, md;
	int r = nvme_ns_identify(f->fd, ns);

	if (r)
		return err_set(e, r, EXIT_TARGET, "%s: ioengine=io_uring_cmd: %s", f->path,
			       r == -ENOTTY ? "not an NVMe namespace's char device (/dev/ngXnY)" :
			       strerror(-r));
	if (ns->ext_lba)
		return err_set(e, -EOPNOTSUPP, EXIT_TARGET, "%s: the namespace's format puts %u bytes "
			       "of metadata inside each block (extended LBA): not supported; format it "
			       "with separate metadata", f->path, ns->ms);
	if (j && (bad = ucmd_bad_bs(j, ns)))
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: block size %llu is not a multiple of the "
			       "namespace's LBA size (%u bytes)", f->path, (unsigned long long)bad,
			       ns->lba_size);
	if (f->offset & (ns->lba_size - 1))
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: the region starts at offset %llu, not a "
			       "multiple of the namespace's LBA size (%u bytes)", f->path,
			       (unsigned long long)f->offset, ns->lba_size);
	if ((max_bs >> ns->lba_shift) > UCMD_NLB_MAX)
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: block size %llu is more than one NVMe "
			       "command carries (%u LBAs of %u bytes)", f->path,
			       (unsigned long long)max_bs, UCMD_NLB_MAX, ns->lba_size);
	if (o->pi_chk && !nvme_ns_has_pi(ns))
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: pi_chk is set but the namespace's format "
			       "has no protection information", f->path);
	nf->pract = o->pi_act != 0;
	nf->fl.prinfo = nvme_prinfo(ns, nf->pract, (unsigned)o->pi_chk);
	nf->fl.apptag = (uint16_t)o->apptag;
	nf->fl.apptag_mask = (uint16_t)o->apptag_mask;
	nf->host_pi = nvme_ns_has_pi(ns) && !nf->pract;
	md = nvme_md_len(ns, nf->pract, max_bs);
	if (md > o->md_per_io_size)
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: the namespace carries %u bytes of metadata "
			       "per LBA%s: set md_per_io_size to at least %llu (the largest block's)",
			       f->path, ns->ms, nvme_ns_has_pi(ns) && nf->pract ?
			       " beyond its protection information" : "", (unsigned long long)md);
	if (md && o->md_per_io_size > s->md_size)
		s->md_size = o->md_per_io_size;
	return o->write_mode == UCMD_WM_ZONE_APPEND ? ucmd_file_zoned(ctx, nf, f, e) : 0;
}

/* The per-io_u arrays: iovecs, trim ranges, metadata buffers.  0 or -ENOMEM. */
static int ucmd_alloc(struct engine_ctx *ctx, struct ucmd_state *s, int trims)
{
	unsigned n = ctx->depth ? ctx->depth : 1;

	s->nf = calloc(ctx->nr_files ? ctx->nr_files : 1, sizeof(*s->nf));
	if (s->vectored)
		s->iov = calloc(n, sizeof(*s->iov));
	if (trims)
		s->dsm = calloc(n, sizeof(*s->dsm));
	if (!s->nf || (s->vectored && !s->iov) || (trims && !s->dsm))
		return -ENOMEM;
	return 0;
}

static int ucmd_alloc_md(struct engine_ctx *ctx, struct ucmd_state *s)
{
	unsigned n = ctx->depth ? ctx->depth : 1;
	void *p;

	if (!s->md_size)
		return 0;
	if (posix_memalign(&p, 4096, (size_t)s->md_size * n))
		return -ENOMEM;
	memset(p, 0, (size_t)s->md_size * n);
	s->md = p;
	if (posix_memalign(&p, 4096, s->md_size))
		return -ENOMEM;
	s->md_sync = p;
	return 0;
}

/* The optional flags, best first (older kernels lack DEFER_TASKRUN, SINGLE_ISSUER). */
static const unsigned ucmd_extra[] = {
	IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
	IORING_SETUP_SINGLE_ISSUER,
	IORING_SETUP_COOP_TASKRUN,
	0,
};

static int ucmd_ring(struct engine_ctx *ctx, struct ucmd_state *s, struct err *e)
{
	const struct ucmd_opts *o = ucmd_opts_of(ctx->job);
	unsigned base = IORING_SETUP_SQE128 | IORING_SETUP_CQE32, i;
	struct io_uring_params p;
	int r = -EINVAL;

	if (o->ring.sqthread_poll)
		base |= IORING_SETUP_SQPOLL | (o->ring.sqthread_poll_cpu >= 0 ? IORING_SETUP_SQ_AFF : 0);
	if (ctx->job && ctx->job->hipri)
		base |= IORING_SETUP_IOPOLL;
	for (i = 0; i < sizeof(ucmd_extra) / sizeof(ucmd_extra[0]) && r == -EINVAL; i++) {
		memset(&p, 0, sizeof(p));
		p.flags = base | ucmd_extra[i];
		if (p.flags & IORING_SETUP_SINGLE_ISSUER)	/* bound to the I/O thread later */
			p.flags |= IORING_SETUP_R_DISABLED;
		p.sq_thread_cpu = o->ring.sqthread_poll_cpu >= 0 ? (unsigned)o->ring.sqthread_poll_cpu : 0;
		r = io_uring_queue_init_params(ctx->depth ? ctx->depth : 1, &s->ring, &p);
	}
	if (r == -EINVAL)
		return err_set(e, r, EXIT_TARGET, "io_uring_cmd: the kernel refused a ring with "
			       "128-byte SQEs and 32-byte CQEs%s (Linux 5.19 or later is needed)",
			       base & IORING_SETUP_SQ_AFF ? " on sqthread_poll_cpu" : "");
	if (r)
		return err_set(e, r, EXIT_TARGET, "io_uring_cmd: setting up a ring of %u entries "
			       "failed: %s", ctx->depth, strerror(-r));
	s->have_ring = 1;
	s->flags = p.flags;
	s->disabled = (p.flags & IORING_SETUP_R_DISABLED) != 0;
	s->cqe_shift = 1;
	s->submit_reaps = !(p.flags & (IORING_SETUP_SQPOLL | IORING_SETUP_IOPOLL));
	return 0;
}

static int ucmd_register(struct engine_ctx *ctx, struct ucmd_state *s, struct err *e)
{
	const struct ucmd_opts *o = ucmd_opts_of(ctx->job);
	int r;

	if (o->ring.fixedbufs && ctx->buf_base && ctx->buf_len) {
		struct iovec one = { .iov_base = ctx->buf_base, .iov_len = ctx->buf_len };

		if (ctx->buf_len > UCMD_BUF_MAX)
			return err_set(e, -EINVAL, EXIT_USAGE, "io_uring_cmd: fixedbufs=1: the buffers "
				       "(%llu bytes) pass the kernel's 1 GiB per registered buffer",
				       (unsigned long long)ctx->buf_len);
		r = io_uring_register_buffers(&s->ring, &one, 1);
		if (r)
			return err_set(e, r, EXIT_TARGET, "io_uring_cmd: fixedbufs=1: registering %llu "
				       "bytes of buffers failed: %s", (unsigned long long)ctx->buf_len,
				       strerror(-r));
		s->fixedbufs = 1;
	}
	if (o->ring.registerfiles && ctx->nr_files) {
		r = uring_ring_register_files(&s->ring, ctx);
		if (r)
			return err_set(e, r, EXIT_TARGET, "io_uring_cmd: registerfiles=1: registering "
				       "%u files failed: %s", ctx->nr_files, strerror(-r));
		s->regfiles = 1;
	}
	return 0;
}

/* Fill @sqe (zeroed) with @c's command to file @file for @io, and what rides with it. */
static void ucmd_sqe(struct ucmd_state *s, struct engine_ctx *ctx, struct io_uring_sqe *sqe,
		     unsigned file, int vec, int fixed, struct io_u *io)
{
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = s->regfiles ? (int)file : ctx->files[file].fd;
	if (s->regfiles)
		sqe->flags = IOSQE_FIXED_FILE;
	sqe->cmd_op = vec ? NVME_URING_CMD_IO_VEC : NVME_URING_CMD_IO;
	if (fixed) {
		sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;
		sqe->buf_index = 0;
	}
	/* force_async: the kernel hands the command to an io-wq worker, as io_uring's */
	if (s->force_async && ++s->since_async == s->force_async) {
		s->since_async = 0;
		sqe->flags |= IOSQE_ASYNC;
	}
	io_uring_sqe_set_data(sqe, io);
}

/*
 * One I/O as one NVMe command in one SQE: no allocation, no call into the
 * kernel (commit submits).  Trims use the io_u's own range; host PI is
 * computed into the io_u's metadata buffer before the write goes.
 */
static int ucmd_queue(struct engine_ctx *ctx, struct io_u *io)
{
	struct ucmd_state *s = ctx->priv;
	struct ucmd_file *nf = &s->nf[io->file];
	struct io_uring_sqe *sqe;
	struct nvme_uring_cmd *c;
	uint8_t *md = NULL;
	uint32_t md_len = 0;
	int vec = 0, fixed = 0;
	const void *addr = io->buf;
	uint32_t dlen = io->len;

	if (io->ddir > DDIR_DATASYNC)
		return -EINVAL;
	sqe = io_uring_get_sqe(&s->ring);
	if (!sqe)
		return ENGINE_Q_BUSY;
	memset(sqe, 0, 128);	/* an SQE128: the command is its second half */
	c = (struct nvme_uring_cmd *)sqe->cmd;
	switch (io->ddir) {
	case DDIR_READ:
	case DDIR_WRITE:
		if (s->md) {
			md = s->md + (size_t)io->index * s->md_size;
			md_len = (uint32_t)nvme_md_len(&nf->ns, nf->pract, io->len);
			if (nf->host_pi && io->ddir == DDIR_WRITE)
				nvme_pi_fill(&nf->ns, io->buf, io->len, md, io->offset, nf->fl.apptag);
		}
		if (s->vectored) {
			s->iov[io->index].iov_base = io->buf;
			s->iov[io->index].iov_len = io->len;
			addr = &s->iov[io->index];
			dlen = 1;
			vec = 1;
		} else {
			fixed = s->fixedbufs;
		}
		if (s->zone_append && io->ddir == DDIR_WRITE)	/* to its zone's start */
			nvme_cmd_zone_append(c, &nf->ns, io->offset - io->offset % nf->zone_bytes,
					     io->len, addr, dlen, md, md_len, &nf->fl);
		else
			nvme_cmd_rw(c, &nf->ns, io->ddir == DDIR_WRITE, io->offset, io->len, addr,
				    dlen, md, md_len, &nf->fl);
		break;
	case DDIR_TRIM:
		nvme_cmd_dsm(c, &nf->ns, io->offset, io->len, &s->dsm[io->index]);
		break;
	default:	/* DDIR_SYNC, DDIR_DATASYNC */
		nvme_cmd_flush(c, &nf->ns);
		break;
	}
	ucmd_sqe(s, ctx, sqe, io->file, vec, fixed, io);
	s->unsubmitted++;
	return ENGINE_Q_QUEUED;
}

static int ucmd_commit(struct engine_ctx *ctx)
{
	struct ucmd_state *s = ctx->priv;
	int r;

	/* the first commit binds the ring to this, the I/O thread (uring_ring.h) */
	if (__builtin_expect(!s->bound, 0)) {
		if ((r = uring_ring_bind(&s->ring, &s->disabled, &s->enter_flags)) < 0)
			return r;
		s->bound = 1;
	}
	do	/* outside SQPOLL/IOPOLL the same enter runs pending completion work */
		r = s->submit_reaps ? io_uring_submit_and_get_events(&s->ring) :
				      io_uring_submit(&s->ring);
	while (r == -EINTR);
	return uring_ring_booked(s->flags, &s->unsubmitted, &s->inflight, r);
}

/*
 * Hand over up to @max completions in the ring (32-byte CQEs), released at
 * once.  A zone append's data is where the controller put it: the LBA in
 * big_cqe[0].
 */
static unsigned ucmd_take(struct ucmd_state *s, unsigned max, struct io_u **out)
{
	struct io_uring_cq *cq = &s->ring.cq;
	unsigned head = *cq->khead, n = io_uring_smp_load_acquire(cq->ktail) - head, i;

	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		const struct io_uring_cqe *cqe = &cq->cqes[((head + i) & cq->ring_mask) << s->cqe_shift];
		struct io_u *io = (struct io_u *)(uintptr_t)cqe->user_data;

		/*
		 * 0 is success: the whole length (a flush moves none).  -EINTR is
		 * the NVMe driver's cancel of a command that timed out or was in
		 * flight at a controller reset: the I/O's result, kept (issue 34)
		 */
		if (cqe->res) {
			io->res = nvme_status_errno(cqe->res);
		} else {
			io->res = io->ddir <= DDIR_TRIM ? (int64_t)io->len : 0;
			if (s->zone_append && io->ddir == DDIR_WRITE)
				io->offset = nvme_append_offset(&s->nf[io->file].ns, cqe->big_cqe[0]);
		}
		out[i] = io;
	}
	if (n)
		io_uring_smp_store_release(cq->khead, head + n);
	s->inflight -= n;
	return n;
}

static int ucmd_reap(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out,
		     struct __kernel_timespec *ts)
{
	struct ucmd_state *s = ctx->priv;
	unsigned n;
	int r;

	if (__builtin_expect(s->unsubmitted != 0, 0) && !(s->flags & IORING_SETUP_SQPOLL) &&
	    (r = ucmd_commit(ctx)) < 0)
		return r;
	if (max > s->nr_cqes)
		max = s->nr_cqes;
	if (min > max)
		min = max;
	if ((r = uring_ring_wait(&s->ring, min, ts, s->enter_flags)) < 0)
		return r;
	n = ucmd_take(s, max, out);
	if (!n && !min && uring_ring_more_on_enter(&s->ring, s->flags)) {
		r = io_uring_get_events(&s->ring);
		if (r < 0 && r != -EINTR)
			return r;
		n = ucmd_take(s, max, out);
	}
	return (int)n;
}

static int ucmd_getevents(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out)
{
	return ucmd_reap(ctx, min, max, out, NULL);
}

static int ucmd_getevents_timed(struct engine_ctx *ctx, unsigned min, unsigned max,
				struct io_u **out, uint64_t timeout_ns)
{
	struct __kernel_timespec ts = uring_ring_ts(timeout_ns);

	return ucmd_reap(ctx, min, max, out, &ts);
}

/*
 * hipri: one polled read of file 0's first LBA on a scratch ring, so a
 * kernel or controller that cannot poll passthrough commands is one line.
 */
static int ucmd_probe_hipri(struct engine_ctx *ctx, struct ucmd_state *s, struct err *e)
{
	struct ucmd_file *nf = &s->nf[0];
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	int r;

	if (!ctx->nr_files || !ctx->ios || !ctx->ios[0].buf || ctx->buf_len < nf->ns.lba_size)
		return 0;
	r = io_uring_queue_init(2, &ring, IORING_SETUP_IOPOLL | IORING_SETUP_SQE128 |
				IORING_SETUP_CQE32);
	if (r)
		return err_set(e, r, EXIT_TARGET, "hipri: the kernel refused a polled io_uring_cmd "
			       "ring: %s", strerror(-r));
	sqe = io_uring_get_sqe(&ring);
	memset(sqe, 0, 128);
	nvme_cmd_rw((struct nvme_uring_cmd *)sqe->cmd, &nf->ns, 0, 0, nf->ns.lba_size,
		    ctx->ios[0].buf, nf->ns.lba_size, s->md_sync,
		    (uint32_t)nvme_md_len(&nf->ns, nf->pract, nf->ns.lba_size), &nf->fl);
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = ctx->files[0].fd;
	sqe->cmd_op = NVME_URING_CMD_IO;
	r = io_uring_submit_and_wait(&ring, 1);
	if (r == 1)
		r = io_uring_wait_cqe(&ring, &cqe);
	else if (r >= 0)
		r = -EIO;
	if (!r) {
		r = cqe->res;
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	if (r)
		return err_set(e, r < 0 ? r : -EIO, EXIT_TARGET, "hipri: polled passthrough I/O is "
			       "not supported for %s (a polled read failed: %s)", ctx->files[0].path,
			       r < 0 ? strerror(-r) : "NVMe status");
	return 0;
}

static void ucmd_describe(struct engine_ctx *ctx, const struct ucmd_state *s)
{
	const struct nvme_ns *ns = ctx->nr_files ? &s->nf[0].ns : NULL;
	size_t n = 0;

	if (ns)
		n = (size_t)snprintf(ctx->info, sizeof(ctx->info),
				     "io_uring_cmd nvme: nsid %u, %u-byte LBAs + %u metadata%s%s%s; ",
				     ns->nsid, ns->lba_size, ns->ms,
				     nvme_ns_has_pi(ns) ? (s->nf[0].pract ? ", PI by controller" :
							   ", PI by host") : "",
				     s->vectored ? ", vectored" : "",
				     s->zone_append ? ", zone appends" : "");
	if (n < sizeof(ctx->info))
		snprintf(ctx->info + n, sizeof(ctx->info) - n, "setup:%s%s%s%s%s%s",
			 s->flags & IORING_SETUP_SQPOLL ? " SQPOLL" : "",
			 s->flags & IORING_SETUP_IOPOLL ? " IOPOLL" : "",
			 s->flags & IORING_SETUP_SINGLE_ISSUER ? " SINGLE_ISSUER" : "",
			 s->flags & IORING_SETUP_DEFER_TASKRUN ? " DEFER_TASKRUN" : "",
			 s->fixedbufs ? "; fixedbufs" : "", s->regfiles ? "; registerfiles" : "");
}

static void ucmd_exit(struct engine_ctx *ctx)
{
	struct ucmd_state *s = ctx->priv;

	if (!s)
		return;
	if (s->have_ring)
		io_uring_queue_exit(&s->ring);
	free(s->nf);
	free(s->iov);
	free(s->dsm);
	free(s->md);
	free(s->md_sync);
	free(s);
	ctx->priv = NULL;
}

static int ucmd_init(struct engine_ctx *ctx, struct err *e)
{
	const struct job *j = ctx->job;
	const struct ucmd_opts *o = ucmd_opts_of(j);
	struct ucmd_state *s = calloc(1, sizeof(*s));
	uint64_t hi;
	unsigned i;
	int r;

	ctx->info[0] = '\0';
	if (!s)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "io_uring_cmd: out of memory");
	ctx->priv = s;
	s->nr_cqes = ctx->depth ? ctx->depth : 1;
	s->vectored = !o->ring.nonvectored;
	s->force_async = j ? j->force_async : 0;
	s->zone_append = o->write_mode == UCMD_WM_ZONE_APPEND;
	ctx->append_zone = 0;
	/* the largest I/O: the job's largest block (an io_u's buffer without a job) */
	hi = j ? ucmd_max_bs(j) : ctx->buf_len / (ctx->depth ? ctx->depth : 1);
	if (ucmd_alloc(ctx, s, 1)) {
		r = err_set(e, -ENOMEM, EXIT_INTERNAL, "io_uring_cmd: out of memory");
		goto fail;
	}
	for (i = 0; i < ctx->nr_files; i++)
		if ((r = ucmd_file_setup(ctx, s, i, hi, e)))
			goto fail;
	if (ucmd_alloc_md(ctx, s)) {
		r = err_set(e, -ENOMEM, EXIT_INTERNAL, "io_uring_cmd: out of memory");
		goto fail;
	}
	if (j && j->hipri && (r = ucmd_probe_hipri(ctx, s, e)))
		goto fail;
	if ((r = ucmd_ring(ctx, s, e)) || (r = ucmd_register(ctx, s, e)))
		goto fail;
	ucmd_describe(ctx, s);
	return 0;
fail:
	ucmd_exit(ctx);
	return r;
}

/* verify's read-backs: a synchronous Read through the passthrough ioctl. */
static int64_t ucmd_read_sync(struct engine_ctx *ctx, unsigned file, void *buf, uint64_t len,
			      uint64_t off)
{
	struct ucmd_state *s = ctx->priv;
	struct ucmd_file *nf = &s->nf[file];
	uint64_t md = nvme_md_len(&nf->ns, nf->pract, len);

	if (len > UINT32_MAX || (len >> nf->ns.lba_shift) > UCMD_NLB_MAX || md > s->md_size)
		return -EINVAL;
	return nvme_io_sync(ctx->files[file].fd, &nf->ns, 0, off, (uint32_t)len, buf,
			    md ? s->md_sync : NULL, (uint32_t)md, &nf->fl);
}

static int ucmd_validate(const struct job *j, struct err *e)
{
	const struct ucmd_opts *o = engine_job_opts(j);

	if (o->ring.fixedbufs && !o->ring.nonvectored)
		return job_err(e, j, "ioengine io_uring_cmd: fixedbufs=1 needs nonvectored=1 (the "
			       "kernel maps a registered buffer for a non-vectored command only)");
	if (o->apptag > 0xffff || o->apptag_mask > 0xffff)
		return job_err(e, j, "ioengine io_uring_cmd: apptag and apptag_mask are 16 bits "
			       "(0-0xffff)");
	/* zbd.c puts each write in a zone, and the append goes to that zone's start */
	if (o->write_mode == UCMD_WM_ZONE_APPEND && j->zonemode != JOB_ZONE_ZBD)
		return job_err(e, j, "ioengine io_uring_cmd: write_mode=zone_append needs "
			       "zonemode=zbd");
	return 0;
}

/* ---- options ---- */

/* pi_chk=GUARD,REFTAG,APPTAG (fio's words, any of them, in any order). */
static int ucmd_parse_pi_chk(struct job *j, const struct opt_def *o, const char *val,
			     const struct num_ctx *c, struct err *e)
{
	static const struct { const char *w; int bit; } words[] = {
		{ "GUARD", NVME_PICHK_GUARD }, { "REFTAG", NVME_PICHK_REFTAG },
		{ "APPTAG", NVME_PICHK_APPTAG },
	};
	const char *p = val ? val : "";
	int v = 0;

	while (*p) {
		size_t n = strcspn(p, ","), k;

		for (k = 0; k < sizeof(words) / sizeof(words[0]); k++)
			if (n == strlen(words[k].w) && !strncmp(p, words[k].w, n))
				break;
		if (k == sizeof(words) / sizeof(words[0]))
			return num_error(e, c, -EINVAL, val, "a comma-separated list of GUARD, "
					 "REFTAG, APPTAG");
		v |= words[k].bit;
		p += n + (p[n] == ',');
	}
	memcpy((char *)j + o->off, &v, sizeof(v));
	return 0;
}

static int ucmd_show_pi_chk(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	int v;

	memcpy(&v, (const char *)j + o->off, sizeof(v));
	if (!v)
		return 1;
	snprintf(buf, len, "%s%s%s%s%s", v & NVME_PICHK_GUARD ? "GUARD" : "",
		 (v & NVME_PICHK_GUARD) && (v & (NVME_PICHK_REFTAG | NVME_PICHK_APPTAG)) ? "," : "",
		 v & NVME_PICHK_REFTAG ? "REFTAG" : "",
		 (v & NVME_PICHK_REFTAG) && (v & NVME_PICHK_APPTAG) ? "," : "",
		 v & NVME_PICHK_APPTAG ? "APPTAG" : "");
	return 0;
}

/* cmd_type=nvme; fio's bsg (SCSI generic, 3.39) is refused by name. */
static int ucmd_parse_cmd_type(struct job *j, const struct opt_def *o, const char *val,
			       const struct num_ctx *c, struct err *e)
{
	int v = UCMD_NVME;

	if (val && !strcasecmp(val, "bsg"))
		return num_unsupported(e, c, val, "SCSI generic passthrough is not supported "
				       "(nvme only)");
	if (!val || strcasecmp(val, "nvme"))
		return num_error(e, c, -EINVAL, val ? val : "", "not one of nvme");
	memcpy((char *)j + o->off, &v, sizeof(v));
	return 0;
}

static int ucmd_show_cmd_type(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	(void)j;
	(void)o;
	snprintf(buf, len, "nvme");
	return 0;
}

static const char *ucmd_type_at(size_t i)
{
	return i ? NULL : "nvme";
}

static const char *const ucmd_wm_names[] = { "write", "zone_append" };

/*
 * write_mode=write|zone_append; fio's other modes (uncor, zeroes, verify)
 * and its ratios (write/40:zeroes/60) are refused by name.
 */
static int ucmd_parse_write_mode(struct job *j, const struct opt_def *o, const char *val,
				 const struct num_ctx *c, struct err *e)
{
	static const char *const fio_only[] = { "uncor", "zeroes", "verify" };
	int v;
	size_t k;

	for (k = 0; val && k < sizeof(fio_only) / sizeof(fio_only[0]); k++)
		if (!strcasecmp(val, fio_only[k]))
			return num_unsupported(e, c, val, "not supported (write and zone_append are)");
	if (val && strpbrk(val, "/:"))
		return num_unsupported(e, c, val, "mixed write modes are not supported (write and "
				       "zone_append are)");
	for (v = 0; val && v < (int)(sizeof(ucmd_wm_names) / sizeof(ucmd_wm_names[0])); v++)
		if (!strcasecmp(val, ucmd_wm_names[v]))
			break;
	if (!val || v == (int)(sizeof(ucmd_wm_names) / sizeof(ucmd_wm_names[0])))
		return num_error(e, c, -EINVAL, val ? val : "", "not one of write, zone_append");
	memcpy((char *)j + o->off, &v, sizeof(v));
	return 0;
}

static int ucmd_show_write_mode(const struct job *j, const struct opt_def *o, char *buf,
				size_t len)
{
	int v;

	memcpy(&v, (const char *)j + o->off, sizeof(v));
	snprintf(buf, len, "%s", ucmd_wm_names[v == UCMD_WM_ZONE_APPEND]);
	return 0;
}

static const char *ucmd_wm_at(size_t i)
{
	return i < sizeof(ucmd_wm_names) / sizeof(ucmd_wm_names[0]) ? ucmd_wm_names[i] : NULL;
}

static const struct opt_def ucmd_rows[] = {
	{ .name = "cmd_type", .type = OPT_FUNC, ENGINE_OPT_FIELD(struct ucmd_opts, cmd_type),
	  .parse = ucmd_parse_cmd_type, .show = ucmd_show_cmd_type, .value_at = ucmd_type_at,
	  .help = "io_uring_cmd: the passthrough command set (nvme)" },
	{ .name = "md_per_io_size", .type = OPT_INT,
	  ENGINE_OPT_FIELD(struct ucmd_opts, md_per_io_size),
	  .help = "io_uring_cmd: bytes of separate metadata buffer per I/O" },
	{ .name = "pi_act", .type = OPT_BOOL, ENGINE_OPT_FIELD(struct ucmd_opts, pi_act),
	  .help = "io_uring_cmd: the controller inserts and strips protection information "
		  "(default 1); 0: iotrial writes it" },
	{ .name = "pi_chk", .type = OPT_FUNC, ENGINE_OPT_FIELD(struct ucmd_opts, pi_chk),
	  .parse = ucmd_parse_pi_chk, .show = ucmd_show_pi_chk,
	  .help = "io_uring_cmd: protection information the controller checks: GUARD, REFTAG, "
		  "APPTAG" },
	{ .name = "apptag", .type = OPT_INT, ENGINE_OPT_FIELD(struct ucmd_opts, apptag),
	  .max = 0xffff, .help = "io_uring_cmd: the application tag (default 0x1234)" },
	{ .name = "apptag_mask", .type = OPT_INT, ENGINE_OPT_FIELD(struct ucmd_opts, apptag_mask),
	  .max = 0xffff, .help = "io_uring_cmd: the application tag's mask (default 0xffff)" },
	{ .name = "write_mode", .type = OPT_FUNC, ENGINE_OPT_FIELD(struct ucmd_opts, write_mode),
	  .parse = ucmd_parse_write_mode, .show = ucmd_show_write_mode, .value_at = ucmd_wm_at,
	  .help = "io_uring_cmd: how writes are sent: write, or zone_append (zonemode=zbd on a "
		  "zoned namespace: the device picks each write's place in its zone)" },
	{ .name = NULL },
};

static const struct opt_def *const ucmd_opts[] = {
	engine_rows_ring_setup, engine_rows_hipri, engine_rows_ring_io, engine_rows_force_async,
	ucmd_rows, NULL,
};

const struct engine_ops engine_uring_cmd_ops = {
	.name = "io_uring_cmd",
	.opts = ucmd_opts,
	ENGINE_OPTS_AREA(struct ucmd_opts, &ucmd_defaults),
	.init = ucmd_init,
	.queue = ucmd_queue,
	.commit = ucmd_commit,
	.getevents = ucmd_getevents,
	.exit = ucmd_exit,
	.validate = ucmd_validate,
	.getevents_timed = ucmd_getevents_timed,
	.read_sync = ucmd_read_sync,
};
