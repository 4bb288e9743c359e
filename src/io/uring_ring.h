/*
 * uring_ring: the ring mechanics the io_uring and io_uring_cmd engines share
 * (io/engines/engine_uring.c, engine_uring_cmd.c): binding a ring to the
 * thread that does the I/O, booking what one submit took, registering the
 * job's files, and a wait's timeout.  What differs between them (the SQE,
 * the CQE's size and meaning, the set-up flags) stays in each engine.
 * Static inline: commit calls them once per batch, and they stay inlined
 * in each engine's hot path.
 */
#ifndef IOTRIAL_URING_RING_H
#define IOTRIAL_URING_RING_H

#include <errno.h>	/* EAGAIN, EBUSY, ENOMEM */
#include <liburing.h>	/* io_uring_* */
#include <stdlib.h>	/* calloc, free */
#include "io/engine.h"	/* struct engine_ctx */

/*
 * On the first commit, on the thread that does the I/O: enable a ring
 * created disabled (*@disabled: a SINGLE_ISSUER ring, bound to the thread
 * that enables it; liburing 2.3's .so lacks io_uring_enable_rings) and
 * register the ring fd with this thread, so that each io_uring_enter skips
 * looking the fd up (a per-task table: it must be the issuing thread).  The
 * registration is an optimisation: a kernel that refuses it (before 5.18)
 * keeps the plain fd, and *@enter_flags stays as it was.  0 or -errno.
 */
static inline int uring_ring_bind(struct io_uring *ring, int *disabled, unsigned *enter_flags)
{
	int r;

	if (*disabled) {
		r = io_uring_register((unsigned)ring->ring_fd, IORING_REGISTER_ENABLE_RINGS, NULL, 0);
		if (r < 0)
			return r;
		*disabled = 0;
	}
	if (io_uring_register_ring_fd(ring) == 1)
		*enter_flags = IORING_ENTER_REGISTERED_RING;
	return 0;
}

/*
 * Book what one submit call returned (@r) against the SQEs queued
 * (*@unsubmitted) and in flight (*@inflight) on a ring set up with @flags:
 * the number taken, 0 to reap first (the kernel is busy and completions are
 * due; the SQEs stay in the ring for the next commit), or -errno.
 */
static inline int uring_ring_booked(unsigned flags, unsigned *unsubmitted, unsigned *inflight,
				    int r)
{
	if (r >= 0) {
		/*
		 * With SQPOLL, io_uring_submit() counts the SQEs the poller has not
		 * picked up yet, old ones included; all that were queued are in the
		 * ring and will be taken, so they count as submitted now.
		 */
		if ((flags & IORING_SETUP_SQPOLL) || (unsigned)r > *unsubmitted)
			r = (int)*unsubmitted;
		*unsubmitted -= (unsigned)r;
		*inflight += (unsigned)r;
		return r;
	}
	if ((r == -EAGAIN || r == -EBUSY) && *inflight)
		return 0;
	return r;
}

/* Register @ctx's files with @ring (registerfiles=1): 0 or -errno. */
static inline int uring_ring_register_files(struct io_uring *ring, const struct engine_ctx *ctx)
{
	int *fds = calloc(ctx->nr_files, sizeof(*fds)), r;
	unsigned i;

	if (!fds)
		return -ENOMEM;
	for (i = 0; i < ctx->nr_files; i++)
		fds[i] = ctx->files[i].fd;
	r = io_uring_register_files(ring, fds, ctx->nr_files);
	free(fds);
	return r;
}

/*
 * Wait until @ring holds @min CQEs, at most *@ts when @ts is not NULL.
 * Untimed, the wait is one enter for @min CQEs (the kernel counts those
 * already in the ring), as liburing's wait_cqe_nr makes it after a walk
 * through its library (200 instructions a wait); timed waits pass the
 * timeout through liburing.  0 (also when interrupted or timed out: the
 * caller takes what is there) or -errno.
 */
static inline int uring_ring_wait(struct io_uring *ring, unsigned min, struct __kernel_timespec *ts,
				  unsigned enter_flags)
{
	struct io_uring_cqe *cqe;
	int r;

	if (!min || io_uring_cq_ready(ring) >= min)
		return 0;
	r = ts ? io_uring_wait_cqes(ring, &cqe, min, ts, NULL) :
		 io_uring_enter((unsigned)ring->enter_ring_fd, 0, min,
				IORING_ENTER_GETEVENTS | enter_flags, NULL);
	return r < 0 && r != -EINTR && r != -ETIME ? r : 0;
}

/*
 * After a take that found nothing when none was asked for: whether entering
 * the kernel may still bring completions.  Polled ones and, with
 * DEFER_TASKRUN, those whose work has not run are only found by an enter;
 * so are those whose task work is pending or whose CQ overflowed, which the
 * kernel flags in the SQ ring.
 */
static inline int uring_ring_more_on_enter(const struct io_uring *ring, unsigned setup_flags)
{
	return (setup_flags & (IORING_SETUP_IOPOLL | IORING_SETUP_DEFER_TASKRUN)) ||
	       (IO_URING_READ_ONCE(*ring->sq.kflags) & (IORING_SQ_TASKRUN | IORING_SQ_CQ_OVERFLOW));
}

/* @ns nanoseconds as a wait's timeout. */
static inline struct __kernel_timespec uring_ring_ts(uint64_t ns)
{
	struct __kernel_timespec ts = { .tv_sec = (long long)(ns / 1000000000ull),
					.tv_nsec = (long long)(ns % 1000000000ull) };

	return ts;
}

#endif
