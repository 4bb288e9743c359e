/*
 * bottleneck: who limited a job -- the device, the tool itself, a rate
 * limit, or the page cache (docs/json.md, the device view).
 *
 * A benchmark result is a measurement of the device only when the device was
 * the limit.  The verdict weighs what the job asked for against what the
 * device saw over the same time (diskutil/devwatch), in this order:
 *   rate_limit  rate= / rate_iops= set and reached (>= 90% of the limit),
 *               with the thread not CPU-bound;
 *   tool        an engine that touches no device (null): nothing else works;
 *   page_cache  the device moved far fewer bytes than the job did (< 50%):
 *               the page cache served the rest;
 *   tool        the thread used >= 90% of one CPU, or the device saw < 90% of
 *               the requested depth (iodepth x threads; 1 per thread for
 *               synchronous engines) while its queue was not full
 *               (nr_requests) -- the tool's own time between I/Os kept the
 *               depth down;
 *   cpu_contention  instead of that last `tool`: the thread was runnable
 *               but waiting for a CPU (schedstat.h) for a share of the run
 *               at least half the share of the depth the device missed,
 *               wait/runtime >= (1 - depth ratio) / 2 -- other load on the
 *               machine, not the tool's loop, held the resubmissions back;
 *   device      otherwise, with a device under the target and O_DIRECT (or,
 *               buffered, a device busy >= 90% of the time);
 *   unknown     no device to look at (tmpfs) and a thread not CPU-bound, or
 *               buffered I/O on an idle device.
 * The evidence is one line of the figures that decided it: thread CPU share,
 * device depth against the requested one, device bytes against the job's,
 * and the part of the job's mean completion latency not spent in the device.
 * Device counters include other processes' I/O to the same device: a shared
 * device shows more depth and more bytes than the job made.
 */
#ifndef IOTRIAL_BOTTLENECK_H
#define IOTRIAL_BOTTLENECK_H

#include <stddef.h>
#include "result.h"
#include "trial/resultread.h"

#define BOTTLENECK_CPU_PCT 90.0		/* % of one CPU: the thread is the limit */
#define BOTTLENECK_DEPTH 0.90		/* device depth / requested below: not kept */
#define BOTTLENECK_CACHE 0.50		/* device bytes / job bytes below: page cache */
#define BOTTLENECK_RATE 0.90		/* achieved / limit at or above: rate limit */
#define BOTTLENECK_WAIT 0.50		/* run-queue wait share / missed depth share: cpu_contention */

struct bottleneck_in {
	double cpu_pct;			/* per thread, usr + sys, % of one CPU */
	double req_depth;		/* I/Os asked in flight on the device */
	int has_dev;			/* the device figures below are known */
	double dev_depth;		/* its mean number in flight */
	double dev_util;		/* % busy */
	double dev_nr_requests;		/* its queue's capacity, 0 unknown */
	double job_amount, dev_amount;	/* bytes (or I/Os when bytes are unknown) */
	int dev_amount_is_ios;		/* fio's disk_util has no bytes: I/Os then */
	double job_clat_ns, dev_lat_ns;	/* mean per I/O; NAN unknown */
	int rate_limited;		/* a rate limit is set */
	double rate_share;		/* achieved / limit, NAN unknown */
	int direct;
	int deviceless;			/* an engine that touches no device (null) */
	int has_sched;			/* the scheduler figures below are known */
	double wait_share;		/* run-queue wait / runtime, summed over threads */
	double wait_ns_per_io;		/* run-queue wait per I/O the job did */
	double nivcsw;			/* involuntary context switches, all threads */
	double load1;			/* 1-minute load average, < 0 unknown */
};

/* Judge @in into @out (verdict, evidence and the deciding figures). */
void bottleneck_judge(const struct bottleneck_in *in, struct bottleneck_verdict *out);

/*
 * Judge every job of a finished run (jobs[].bottleneck), and give each
 * run-level disk_util the view of the first job on that device.  Jobs of
 * one group that share a device run together: their requested depths and
 * bytes are added up, since the device saw them all.
 */
void bottleneck_run(struct run_result *r);

/*
 * The same verdict from a loaded result (fio's JSON or iotrial's), for job
 * @i: fio's disk_util covers the whole run, so the device depth is its ticks
 * over the run's longest direction runtime.  Returns 0, or -ENOENT when the
 * job has no I/O to judge.
 */
int bottleneck_from_read(const struct resultread *r, size_t i, struct bottleneck_verdict *out);

/*
 * The device side of a loaded result, for compare: the busiest disk_util
 * device's mean latency per I/O (ns) and mean number in flight (over the
 * longest job_runtime; iotrial's measured-time view when present).  Returns
 * 0, or -ENOENT when the result has no device with I/O.
 */
int bottleneck_device_figures(const struct resultread *r, double *lat_ns, double *queue_depth);

/* The verdict of a loaded result's first job with I/O into @buf; -ENOENT if none. */
int bottleneck_of_result(const struct resultread *r, char *buf, size_t sz);

/*
 * I/Os in flight one thread of @j can keep: iodepth, or 1 for synchronous
 * engines and libaio without direct=1 (*@why then says which).
 */
unsigned bottleneck_depth_kept(const struct resultread_job *j, const char **why);

/*
 * Threads of the job definition that entry @i belongs to (one entry per
 * thread, or one group_reporting entry for numjobs); *@first is 1 for the
 * definition's first entry, so that each definition is counted once.
 */
unsigned bottleneck_threads_of(const struct resultread *r, size_t i, int *first);

#endif
