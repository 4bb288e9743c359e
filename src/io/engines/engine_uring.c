/*
 * engine_uring: io_uring through liburing.
 *
 * queue() fills one SQE per io_u (plain IORING_OP_READ/WRITE, the
 * non-vectored ops fio uses by default; READ/WRITE_FIXED with fixedbufs=1;
 * IOSQE_FIXED_FILE with registerfiles=1; FSYNC for fsync/fdatasync), commit()
 * submits the SQ in one io_uring_enter that also runs the completion work
 * already pending (so the reap after it rarely enters the kernel again),
 * getevents() waits for @min CQEs only when fewer are ready and then takes
 * them as one batch, read in place with one head update (uring_take).  The
 * per-I/O submit and reap are inline on the ring's fields, not calls into
 * liburing's library; set-up, waits and registration go through liburing.
 * commit_wait() submits and
 * waits in one enter (the worker uses it only when slat and clat are off).
 * The ring fd is registered with the issuing thread at the first commit, so
 * no enter looks it up.  Trims are done inline (file_trim).
 *
 * Setup.  sqthread_poll=1 asks for IORING_SETUP_SQPOLL (+SQ_AFF with
 * sqthread_poll_cpu), hipri=1 for IORING_SETUP_IOPOLL.  On top, the cheap-
 * submission flags are tried and dropped while the kernel says -EINVAL:
 * SINGLE_ISSUER + DEFER_TASKRUN + COOP_TASKRUN + TASKRUN_FLAG (completion
 * work runs only when this thread enters the kernel to submit or reap,
 * batched, with no IPI or task-work signal per completion), then without
 * DEFER_TASKRUN (kernels before 6.1), then SINGLE_ISSUER alone (what SQPOLL
 * accepts), then COOP alone, then none.  None of them changes what the
 * device sees: the same SQEs go down in the same enters; they change only
 * the kernel's bookkeeping of completions (docs/performance.md, "Ring
 * choices": 60-120 ns less system time per I/O on the RAM loop device, the
 * device's depth and IOPS the same).  ctx->info says what the kernel took.  A
 * SINGLE_ISSUER ring is created disabled (R_DISABLED) and enabled by the
 * first commit, so the issuing task is the thread that does the I/O, even
 * when init ran on another thread; queue/commit/getevents must then stay on
 * that one thread.
 *
 * Fixed buffers: the worker's buffer area is registered as one buffer when it
 * fits the kernel's 1 GiB limit per buffer, else one buffer per io_u.
 *
 * hipri: polled completions fail with -EOPNOTSUPP where the file or device
 * cannot poll (buffered I/O, tmpfs, a device without poll queues, as
 * virtio-blk usually is).  init checks each file (O_DIRECT, the device's
 * queue/io_poll, one polled read) and turns a refusal into "hipri: polled I/O
 * is not supported for <file> (<why>)" rather than an I/O error per request.
 */
#include <errno.h>	/* EINVAL */
#include <fcntl.h>	/* fcntl, O_DIRECT */
#include <liburing.h>	/* io_uring_* */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* calloc */
#include <string.h>	/* memset */
#include <sys/stat.h>	/* fstat */
#include <sys/sysmacros.h>	/* major, minor */
#include <sys/uio.h>	/* struct iovec */
#include "io/cmdprio.h"	/* cmdprio_opt_rows: per-I/O priorities are io_uring options */
#include "io/engine.h"
#include "io/engine_rows.h"	/* hipri (pvsync2 takes it too), the ring's rows (io_uring_cmd) */
#include "io/file.h"
#include "io/uring_ring.h"	/* what io_uring_cmd shares: bind, booking, files */

#define URING_BUF_MAX (1ull << 30)	/* kernel limit on one registered buffer */

/*
 * Its options, in the job's engine area: the ring's, whose rows it shares
 * with io_uring_cmd (engine_rows.h).  nonvectored is accepted: iotrial's
 * commands are READ/WRITE already.
 */
static const struct engine_ring_opts uring_defaults = { .sqthread_poll_cpu = -1 };

/* The job's options (@j NULL, as engine tests have it: the defaults). */
static const struct engine_ring_opts *uring_opts_of(const struct job *j)
{
	return j ? engine_job_opts(j) : &uring_defaults;
}

struct uring_state {
	struct io_uring ring;
	unsigned flags;		/* setup flags the kernel took */
	int fixedbufs;		/* 0 off, 1 one buffer (index 0), 2 one per io_u */
	int regfiles;
	int disabled;		/* created R_DISABLED, enabled on first commit */
	int bound;		/* first commit done: ring fd registered if the kernel could */
	int submit_reaps;	/* submit with GETEVENTS: completions come back in the same enter */
	int have_ring;
	unsigned unsubmitted;	/* SQEs queued that the kernel has not taken yet */
	unsigned inflight;	/* submitted, not reaped */
	unsigned nr_cqes;		/* at most this many CQEs per reap (the depth) */
	unsigned enter_flags;		/* IORING_ENTER_REGISTERED_RING once the fd is */
	uint32_t force_async;		/* force_async=N: every Nth SQE is IOSQE_ASYNC */
	uint32_t since_async;		/* SQEs prepared since the last forced one */
};

/*
 * The optional flags, best first.  SQPOLL takes only SINGLE_ISSUER; older
 * kernels (before 6.1/6.0/5.19) lack DEFER_TASKRUN, SINGLE_ISSUER, COOP_TASKRUN.
 */
static const unsigned uring_extra[] = {
	IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN |
		IORING_SETUP_TASKRUN_FLAG,
	IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
	IORING_SETUP_SINGLE_ISSUER,
	IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
	0,
};

static const struct {
	unsigned flag;
	const char *name;
} uring_flag_names[] = {
	{ IORING_SETUP_SQPOLL, "SQPOLL" },
	{ IORING_SETUP_SQ_AFF, "SQ_AFF" },
	{ IORING_SETUP_IOPOLL, "IOPOLL" },
	{ IORING_SETUP_SINGLE_ISSUER, "SINGLE_ISSUER" },
	{ IORING_SETUP_DEFER_TASKRUN, "DEFER_TASKRUN" },
	{ IORING_SETUP_COOP_TASKRUN, "COOP_TASKRUN" },
	{ IORING_SETUP_TASKRUN_FLAG, "TASKRUN_FLAG" },
};

static void uring_describe(struct engine_ctx *ctx, const struct uring_state *s)
{
	size_t i, n = 0;

	n += (size_t)snprintf(ctx->info, sizeof(ctx->info), "io_uring setup:");
	for (i = 0; i < sizeof(uring_flag_names) / sizeof(uring_flag_names[0]); i++)
		if ((s->flags & uring_flag_names[i].flag) && n < sizeof(ctx->info))
			n += (size_t)snprintf(ctx->info + n, sizeof(ctx->info) - n, " %s",
					      uring_flag_names[i].name);
	if (!(s->flags & ~IORING_SETUP_R_DISABLED) && n < sizeof(ctx->info))
		n += (size_t)snprintf(ctx->info + n, sizeof(ctx->info) - n, " none");
	if (s->fixedbufs && n < sizeof(ctx->info))
		n += (size_t)snprintf(ctx->info + n, sizeof(ctx->info) - n, "; fixedbufs");
	if (s->regfiles && n < sizeof(ctx->info))
		snprintf(ctx->info + n, sizeof(ctx->info) - n, "; registerfiles");
}

static int uring_setup(struct engine_ctx *ctx, struct uring_state *s, struct err *e)
{
	const struct job *j = ctx->job;
	const struct engine_ring_opts *uo = uring_opts_of(j);
	struct io_uring_params p;
	unsigned base = 0, i;
	int ret = -EINVAL;

	if (uo->sqthread_poll) {
		base |= IORING_SETUP_SQPOLL;
		if (uo->sqthread_poll_cpu >= 0)
			base |= IORING_SETUP_SQ_AFF;
	}
	if (j && j->hipri)
		base |= IORING_SETUP_IOPOLL;
	for (i = 0; i < sizeof(uring_extra) / sizeof(uring_extra[0]); i++) {
		memset(&p, 0, sizeof(p));
		p.flags = base | uring_extra[i];
		if (p.flags & IORING_SETUP_SINGLE_ISSUER)
			p.flags |= IORING_SETUP_R_DISABLED;
		if (base & IORING_SETUP_SQ_AFF)
			p.sq_thread_cpu = (unsigned)uo->sqthread_poll_cpu;
		ret = io_uring_queue_init_params(ctx->depth, &s->ring, &p);
		if (ret != -EINVAL)
			break;
	}
	if (ret == -EINVAL && (base & IORING_SETUP_SQ_AFF))
		return err_set(e, ret, EXIT_USAGE,
			       "io_uring: the kernel refused sqthread_poll_cpu=%d (Invalid argument)",
			       uo->sqthread_poll_cpu);
	if (ret == -EPERM || ret == -ENOSYS)
		return err_set(e, ret, EXIT_TARGET, "io_uring is not available here: %s "
			       "(kernel.io_uring_disabled, a seccomp filter or an old kernel)",
			       strerror(-ret));
	if (ret)
		return err_set(e, ret, EXIT_TARGET, "io_uring: setting up a ring of %u entries failed: %s",
			       ctx->depth, strerror(-ret));
	s->have_ring = 1;
	s->flags = p.flags;
	s->disabled = (p.flags & IORING_SETUP_R_DISABLED) != 0;
	/* SQPOLL submits without entering, IOPOLL would poll on every submit */
	s->submit_reaps = !(p.flags & (IORING_SETUP_SQPOLL | IORING_SETUP_IOPOLL));
	return 0;
}

static int uring_register(struct engine_ctx *ctx, struct uring_state *s, struct err *e)
{
	const struct engine_ring_opts *uo = uring_opts_of(ctx->job);
	unsigned i, n;
	int ret;

	if (uo->fixedbufs && ctx->buf_base && ctx->buf_len) {
		struct iovec one = { .iov_base = ctx->buf_base, .iov_len = ctx->buf_len };
		struct iovec *iov = &one;
		char *end = (char *)ctx->buf_base + ctx->buf_len;

		n = 1;
		s->fixedbufs = 1;
		if (ctx->buf_len > URING_BUF_MAX) {
			iov = calloc(ctx->depth, sizeof(*iov));
			if (!iov)
				return err_set(e, -ENOMEM, EXIT_INTERNAL, "io_uring: out of memory");
			for (i = 0; i < ctx->depth; i++) {
				uint64_t len = (uint64_t)(end - (char *)ctx->ios[i].buf);

				iov[i].iov_base = ctx->ios[i].buf;
				iov[i].iov_len = len < URING_BUF_MAX ? len : URING_BUF_MAX;
			}
			n = ctx->depth;
			s->fixedbufs = 2;
		}
		ret = io_uring_register_buffers(&s->ring, iov, n);
		if (iov != &one)
			free(iov);
		if (ret)
			return err_set(e, ret, EXIT_TARGET, "io_uring: fixedbufs=1: registering %llu bytes of buffers failed: %s%s",
				       (unsigned long long)ctx->buf_len, strerror(-ret),
				       ret == -ENOMEM ? " (RLIMIT_MEMLOCK too low?)" : "");
	}
	if (uo->registerfiles && ctx->nr_files) {
		ret = uring_ring_register_files(&s->ring, ctx);
		if (ret)
			return err_set(e, ret, EXIT_TARGET, "io_uring: registerfiles=1: registering %u files failed: %s",
				       ctx->nr_files, strerror(-ret));
		s->regfiles = 1;
	}
	return 0;
}

/*
 * Why @f cannot poll, in a few words, or NULL when it may: polling needs
 * O_DIRECT and a block device whose queue has poll queues (queue/io_poll).
 */
static const char *uring_poll_refusal(const struct engine_file *f, char *buf, size_t n)
{
	char path[96], val[16] = "";
	struct stat st;
	dev_t dev;
	FILE *fp;
	int fl = fcntl(f->fd, F_GETFL);

	if (fl >= 0 && !(fl & O_DIRECT))
		return "it needs direct=1";
	if (fstat(f->fd, &st))
		return NULL;
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	if (!major(dev))
		return "its filesystem has no block device to poll";
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/io_poll", major(dev), minor(dev));
	fp = fopen(path, "re");
	if (!fp) {	/* a partition: the queue is the whole disk's */
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../queue/io_poll",
			 major(dev), minor(dev));
		fp = fopen(path, "re");
	}
	if (!fp)
		return NULL;	/* dm, md, ...: let the probe read tell */
	if (!fgets(val, sizeof(val), fp))
		val[0] = '\0';
	fclose(fp);
	if (val[0] != '0')
		return NULL;
	snprintf(buf, n, "device %u:%u has no poll queues: queue/io_poll is 0", major(dev), minor(dev));
	return buf;
}

/*
 * Can every file be polled?  sysfs answers for the usual cases; a polled read
 * on a scratch ring catches the rest (a read of a hole needs no device, so the
 * probe alone would pass files that fail later).
 */
static int uring_probe_hipri(struct engine_ctx *ctx, struct err *e)
{
	struct io_uring ring;
	char why[96];
	const char *no;
	unsigned i;
	int ret;

	for (i = 0; i < ctx->nr_files; i++) {
		no = uring_poll_refusal(&ctx->files[i], why, sizeof(why));
		if (no)
			return err_set(e, -EOPNOTSUPP, EXIT_TARGET,
				       "hipri: polled I/O is not supported for %s (%s)",
				       ctx->files[i].path, no);
	}
	if (!ctx->depth || !ctx->ios || !ctx->ios[0].buf || ctx->buf_len < 512)
		return 0;
	ret = io_uring_queue_init(2, &ring, IORING_SETUP_IOPOLL);
	if (ret)
		return err_set(e, ret, EXIT_TARGET, "hipri: cannot set up a polled io_uring: %s",
			       strerror(-ret));
	for (i = 0; i < ctx->nr_files && !ret; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
		struct io_uring_cqe *cqe;
		unsigned len = ctx->buf_len < 4096 ? 512 : 4096;

		io_uring_prep_read(sqe, ctx->files[i].fd, ctx->ios[0].buf, len,
				   ctx->files[i].offset & ~4095ull);
		ret = io_uring_submit(&ring);
		if (ret == 1)
			ret = io_uring_wait_cqe(&ring, &cqe);
		else if (ret >= 0)
			ret = -EIO;
		if (ret) {
			ret = err_set(e, ret, EXIT_TARGET, "hipri: probing %s failed: %s",
				      ctx->files[i].path, strerror(-ret));
			break;
		}
		if (cqe->res == -EOPNOTSUPP)
			ret = err_set(e, -EOPNOTSUPP, EXIT_TARGET,
				      "hipri: polled I/O is not supported for %s (a polled read failed)",
				      ctx->files[i].path);
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	return ret;
}

static void uring_exit(struct engine_ctx *ctx)
{
	struct uring_state *s = ctx->priv;

	if (!s)
		return;
	if (s->have_ring)
		io_uring_queue_exit(&s->ring);	/* also drops registered buffers/files */
	free(s);
	ctx->priv = NULL;
}

static int uring_init(struct engine_ctx *ctx, struct err *e)
{
	struct uring_state *s = calloc(1, sizeof(*s));
	int ret;

	ctx->info[0] = '\0';
	if (!s)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "io_uring: out of memory");
	ctx->priv = s;
	s->nr_cqes = ctx->depth ? ctx->depth : 1;
	s->force_async = ctx->job ? ctx->job->force_async : 0;
	if (ctx->job && ctx->job->hipri && (ret = uring_probe_hipri(ctx, e)))
		goto fail;
	ret = uring_setup(ctx, s, e);
	if (ret)
		goto fail;
	ret = uring_register(ctx, s, e);
	if (ret)
		goto fail;
	uring_describe(ctx, s);
	return 0;
fail:
	uring_exit(ctx);
	return ret;
}

static int uring_queue(struct engine_ctx *ctx, struct io_u *io)
{
	struct uring_state *s = ctx->priv;
	struct io_uring_sqe *sqe;
	int fd = s->regfiles ? io->file : ctx->files[io->file].fd;
	int bi = s->fixedbufs == 2 ? (int)io->index : 0;

	if (io->ddir == DDIR_TRIM) {
		io->res = file_trim(&ctx->files[io->file], io->offset, io->len);
		return ENGINE_Q_COMPLETED;
	}
	if (io->ddir != DDIR_READ && io->ddir != DDIR_WRITE && io->ddir != DDIR_SYNC &&
	    io->ddir != DDIR_DATASYNC)
		return -EINVAL;
	sqe = io_uring_get_sqe(&s->ring);
	if (!sqe)
		return ENGINE_Q_BUSY;
	switch (io->ddir) {
	case DDIR_READ:
		if (s->fixedbufs)
			io_uring_prep_read_fixed(sqe, fd, io->buf, io->len, io->offset, bi);
		else
			io_uring_prep_read(sqe, fd, io->buf, io->len, io->offset);
		break;
	case DDIR_WRITE:
		if (s->fixedbufs)
			io_uring_prep_write_fixed(sqe, fd, io->buf, io->len, io->offset, bi);
		else
			io_uring_prep_write(sqe, fd, io->buf, io->len, io->offset);
		break;
	case DDIR_SYNC:
		io_uring_prep_fsync(sqe, fd, 0);
		break;
	default:	/* DDIR_DATASYNC */
		io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
		break;
	}
	if (s->regfiles)
		sqe->flags |= IOSQE_FIXED_FILE;
	/* force_async: the kernel hands the SQE to an io-wq worker instead of trying inline */
	if (s->force_async && ++s->since_async == s->force_async) {
		s->since_async = 0;
		sqe->flags |= IOSQE_ASYNC;
	}
	sqe->ioprio = io->ioprio;	/* cmdprio (0: the task's own priority) */
	io_uring_sqe_set_data(sqe, io);
	s->unsubmitted++;
	return ENGINE_Q_QUEUED;
}

/* On the first commit, on the thread that does the I/O (uring_ring.h). */
static int uring_bind(struct uring_state *s)
{
	int r = uring_ring_bind(&s->ring, &s->disabled, &s->enter_flags);

	s->bound = r == 0;
	return r;
}

/* Book what one submit call returned: the number taken, 0 to reap first, or -errno. */
static int uring_submitted(struct uring_state *s, int r)
{
	return uring_ring_booked(s->flags, &s->unsubmitted, &s->inflight, r);
}

/*
 * Submit the SQ: the number taken, 0 when the kernel is busy and completions
 * are due, or -errno.  Outside SQPOLL/IOPOLL the same io_uring_enter also
 * runs the completion work pending for this ring (GETEVENTS, no wait), as
 * fio's commit does: the reap that follows then usually finds its CQEs
 * without entering the kernel again.
 */
static int uring_commit(struct engine_ctx *ctx)
{
	struct uring_state *s = ctx->priv;
	int r;

	if (__builtin_expect(!s->bound, 0) && (r = uring_bind(s)) < 0)
		return r;
	if (__builtin_expect(!s->submit_reaps, 0)) {
		do
			r = io_uring_submit(&s->ring);
		while (r == -EINTR);
		return uring_submitted(s, r);
	}
	/*
	 * io_uring_submit_and_get_events(), inline: publish the queued SQEs
	 * (the SQ array maps slot i to SQE i since liburing 2.2 sets it up so)
	 * and enter once.  liburing's is a call into its library on every I/O;
	 * this is the I/O path's one kernel entry, with nothing else around it.
	 */
	if (s->ring.sq.sqe_head != s->ring.sq.sqe_tail) {
		s->ring.sq.sqe_head = s->ring.sq.sqe_tail;
		io_uring_smp_store_release(s->ring.sq.ktail, s->ring.sq.sqe_tail);
	}
	do
		r = io_uring_enter((unsigned)s->ring.enter_ring_fd,
				   s->ring.sq.sqe_tail - *s->ring.sq.khead, 0,
				   IORING_ENTER_GETEVENTS | s->enter_flags, NULL);
	while (r == -EINTR);	/* liburing's io_uring_enter returns -errno */
	return uring_submitted(s, r);
}

/*
 * commit() and wait for @min completions in one io_uring_enter (submission
 * first, then the wait, in the kernel).  The caller cannot tell when the
 * submission ended, so the worker uses this only when no submission time is
 * recorded (see engine.h).
 */
static int uring_commit_wait(struct engine_ctx *ctx, unsigned min)
{
	struct uring_state *s = ctx->priv;
	int r;

	if (__builtin_expect(!s->bound, 0) && (r = uring_bind(s)) < 0)
		return r;
	if (min > s->inflight + s->unsubmitted)
		min = s->inflight + s->unsubmitted;
	do
		r = io_uring_submit_and_wait(&s->ring, min);
	while (r == -EINTR);
	return uring_submitted(s, r);
}

/*
 * Hand over up to @max CQEs that are in the ring: read in place and
 * released with one head update (io_uring_peek_batch_cqe without its call
 * into the library and its array of CQE pointers).
 */
static unsigned uring_take(struct uring_state *s, unsigned max, struct io_u **out)
{
	struct io_uring_cq *cq = &s->ring.cq;
	unsigned head = *cq->khead, n = io_uring_smp_load_acquire(cq->ktail) - head, i;

	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		const struct io_uring_cqe *cqe = &cq->cqes[(head + i) & cq->ring_mask];
		struct io_u *io = (struct io_u *)(uintptr_t)cqe->user_data;

		io->res = cqe->res;
		out[i] = io;
	}
	if (n)
		io_uring_smp_store_release(cq->khead, head + n);
	s->inflight -= n;
	return n;
}

/* Wait for @min CQEs, at most *@ts when @ts is not NULL (then maybe fewer). */
static int uring_reap(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out,
		      struct __kernel_timespec *ts)
{
	struct uring_state *s = ctx->priv;
	unsigned n;
	int r;

	if (__builtin_expect(s->unsubmitted != 0, 0) && !(s->flags & IORING_SETUP_SQPOLL)) {
		/* a commit the kernel took only in part: the rest go now */
		r = uring_commit(ctx);
		if (r < 0)
			return r;
	}
	if (max > s->nr_cqes)
		max = s->nr_cqes;
	if (min > max)
		min = max;
	if ((r = uring_ring_wait(&s->ring, min, ts, s->enter_flags)) < 0)
		return r;
	n = uring_take(s, max, out);
	if (!n && !min && uring_ring_more_on_enter(&s->ring, s->flags)) {
		r = io_uring_get_events(&s->ring);
		if (r < 0 && r != -EINTR)
			return r;
		n = uring_take(s, max, out);
	}
	return (int)n;
}

static int uring_getevents(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out)
{
	return uring_reap(ctx, min, max, out, NULL);
}

static int uring_getevents_timed(struct engine_ctx *ctx, unsigned min, unsigned max,
				 struct io_u **out, uint64_t timeout_ns)
{
	struct __kernel_timespec ts = uring_ring_ts(timeout_ns);

	return uring_reap(ctx, min, max, out, &ts);
}

/* ---- options ---- */

static const struct opt_def *const uring_opts[] = {
	engine_rows_ring_setup, cmdprio_opt_rows, engine_rows_hipri, engine_rows_force_async,
	engine_rows_ring_io, NULL,
};

const struct engine_ops engine_uring_ops = {
	.name = "io_uring",
	.opts = uring_opts,
	ENGINE_OPTS_AREA(struct engine_ring_opts, &uring_defaults),
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.commit_wait = uring_commit_wait,
	.getevents = uring_getevents,
	.exit = uring_exit,
	.getevents_timed = uring_getevents_timed,
};
