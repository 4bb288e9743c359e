/*
 * kernel_probe.h: does this kernel let us use io_uring / Linux AIO at all?
 * A container's seccomp profile, kernel.io_uring_disabled or a kernel built
 * without them refuses the set-up call itself; the engine tests then skip
 * with the reason instead of failing on every case.
 */
#ifndef IOTRIAL_KERNEL_PROBE_H
#define IOTRIAL_KERNEL_PROBE_H

#include <errno.h>
#include <libaio.h>
#include <liburing.h>
#include <stdio.h>
#include <string.h>

/* 1 with @why filled when io_uring_setup is refused; 0 when a ring can be made. */
static inline int probe_uring_refused(char *why, size_t sz)
{
	struct io_uring ring;
	int r = io_uring_queue_init(2, &ring, 0);

	if (!r) {
		io_uring_queue_exit(&ring);
		return 0;
	}
	if (r != -ENOSYS && r != -EPERM && r != -EACCES)
		return 0;	/* another failure: let the tests show it */
	snprintf(why, sz, "the kernel refuses io_uring (io_uring_setup: %s%s)", strerror(-r),
		 r == -EPERM ? "; kernel.io_uring_disabled or a seccomp profile" : "");
	return 1;
}

/* 1 with @why filled when io_setup is refused; 0 when a context can be made. */
static inline int probe_aio_refused(char *why, size_t sz)
{
	io_context_t ctx = 0;
	int r = io_setup(2, &ctx);

	if (!r) {
		io_destroy(ctx);
		return 0;
	}
	if (r != -ENOSYS && r != -EPERM && r != -EACCES)
		return 0;
	snprintf(why, sz, "the kernel refuses Linux AIO (io_setup: %s)", strerror(-r));
	return 1;
}

#endif
