/*
 * schedstat: how long a thread waited for a CPU (docs/json.md, the device view).
 *
 * On a shared machine a job's thread can be runnable -- a completion is
 * there to reap and resubmit -- yet not running, because other threads hold
 * the CPUs.  The device then sees less than the requested depth through no
 * fault of the tool's loop.  The kernel keeps, per thread, the time spent
 * runnable but waiting on a run queue (/proc/thread-self/schedstat, second
 * field, ns; CONFIG_SCHED_INFO).  Read at the start and end of the measured
 * period (never per I/O: it opens a file).
 */
#ifndef IOTRIAL_SCHEDSTAT_H
#define IOTRIAL_SCHEDSTAT_H

#include <stdint.h>

/*
 * The calling thread's run-queue wait so far, ns, into *@wait_ns.  Returns
 * 0, or -errno (-ENOENT when the kernel has no schedstat; *@wait_ns is 0).
 */
int schedstat_thread_wait(uint64_t *wait_ns);

/* Parse a schedstat line ("run_ns wait_ns slices"): 0 or -EINVAL. */
int schedstat_parse(const char *line, uint64_t *wait_ns);

#endif
