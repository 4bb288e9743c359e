/*
 * bottleneck: which layer limited a job -- the device, the I/O path in front
 * of it, the tool, other load on the CPUs, the page cache or a rate limit
 * (docs/breakdown.md; the JSON in docs/json.md).
 *
 * A benchmark result is a measurement of the device only when the device was
 * the limit.  The verdict is drawn from the job's time breakdown
 * (breakdown.h: each I/O's cycle split into device, I/O path, tool user,
 * tool system and CPU wait) and the signals beside it -- the device's util
 * and depth against the requested one, the thread's CPU share and run-queue
 * wait over the run, device against job bytes, and other jobs of the same
 * result that ran the same workload (bottleneck_peer.c) -- in this order:
 *   rate_limit  rate= / rate_iops= set and reached (>= 90% of the limit),
 *               with the thread not CPU-bound;
 *   page_cache  the device moved far fewer bytes than the job did (< 50%);
 *   tool / cpu_contention  an engine that touches no device (null): only
 *               the tool and the CPU it was given are measured (its run-queue
 *               wait is in the evidence); cpu_contention only when the same
 *               job alone in another group did >= 1.25x the IOPS;
 *   tool        the thread used >= 90% of one CPU;
 *   unknown     no device to look at (tmpfs), a device that did more than
 *               twice the job's I/Os (mostly other I/O: its figures are not
 *               the job's), buffered I/O on a device not kept busy;
 *   device      buffered I/O on a device busy >= 90%; the device held the
 *               requested depth (>= 90%) or its queue was full; or a
 *               shallower run of the same job in the same result did as many
 *               IOPS (2x the depth or more added < 25%) and the added time was spent in
 *               the device (saturated);
 *   cpu_contention  the thread waited for a CPU >= 25% of the run while
 *               the device was not kept busy (util < 95%); or (results
 *               without the run-queue wait, fio's) the job ran beside
 *               CPU-burning jobs of its group and the same job alone in
 *               another group did >= 1.25x its IOPS;
 *   tool        the tool's own CPU (user + system) is >= 50% of each I/O's
 *               cycle: never at QD1 when that share is small;
 *   device      the device was busy >= 90% of the window and its share of
 *               the cycle is at least the I/O path's; or its share exceeds
 *               the I/O path's by >= 10 points (latency-bound);
 *   io_path     a shallower run did as many IOPS and the added time passed
 *               outside the device (a limit in front of it); or
 *               the I/O path's share exceeds the device's by >= 10 points:
 *               the evidence says how many us per I/O;
 *   unknown     device and I/O path within 10 points: the evidence cannot
 *               decide, and says so.
 * The evidence is one line of the figures that decided it.
 */
#ifndef IOTRIAL_BOTTLENECK_H
#define IOTRIAL_BOTTLENECK_H

#include <stddef.h>
#include "measure/breakdown.h"
#include "result/result.h"
#include "result/resultread.h"

#define BOTTLENECK_CPU_PCT 90.0		/* % of one CPU: the thread is the limit */
#define BOTTLENECK_DEPTH 0.90		/* device depth / requested at or above: the device held it */
#define BOTTLENECK_CACHE 0.50		/* device bytes / job bytes below: page cache */
#define BOTTLENECK_RATE 0.90		/* achieved / limit at or above: rate limit */
#define BOTTLENECK_WAIT 0.25		/* run-queue wait / runtime at or above: cpu_contention */
#define BOTTLENECK_BUSY 90.0		/* device util %: busy the whole window */
#define BOTTLENECK_NOT_IDLE 95.0	/* device util % at or above: contention cannot add IOPS */
#define BOTTLENECK_SHARED 2.0		/* device I/Os / job I/Os above: mostly other I/O */
#define BOTTLENECK_TOOL 0.50		/* tool user + system share of the cycle: tool */
#define BOTTLENECK_MARGIN 0.10		/* device vs I/O path shares closer than this: unknown */
#define BOTTLENECK_DEEPER_GAIN 0.25	/* a run at >= 2x the depth adding less IOPS than this added none */
#define BOTTLENECK_ALONE 1.25		/* the same job alone did this many times the IOPS */
#define BOTTLENECK_BURNER 50.0		/* % of one CPU used by I/O-less jobs beside: CPU burners */

/* What other jobs of the same result say about job i (bottleneck_peer.c). */
struct bottleneck_cross {
	int saturated;		/* 1: a shallower run did as many IOPS, the device took the added
				 * time; -1: as many IOPS, the time added outside the device; 0: none */
	int alone_faster;	/* the same job in a group without CPU burners did >= ALONE x IOPS */
	char text[360];		/* the figures, "" when nothing */
};

struct bottleneck_in {
	double cpu_pct;			/* per thread, usr + sys, % of one CPU */
	double req_depth;		/* I/Os asked in flight on the device */
	int has_dev;			/* the device figures below are known */
	double dev_depth;		/* its mean number in flight */
	double dev_util;		/* % busy */
	double dev_nr_requests;		/* its queue's capacity, 0 unknown */
	double job_amount, dev_amount;	/* bytes (or I/Os when bytes are unknown) */
	int dev_amount_is_ios;		/* fio's disk_util has no bytes: I/Os then */
	double dev_ios_ratio;		/* device I/Os in the job's directions / the job's, NAN unknown */
	int rate_limited;		/* a rate limit, think time or latency target is set */
	double rate_share;		/* achieved / limit, NAN unknown */
	int direct;
	int deviceless;			/* an engine that touches no device (null) */
	/*
	 * Commands to the device's char node (io_uring_cmd): no block layer
	 * counts them, so no device figures; ctrl_cmds is what the NVMe
	 * controller's own log counted (reads + writes, NAN unknown) against
	 * the job's job_rw_ios.
	 */
	int passthru;
	double ctrl_cmds, job_rw_ios;
	int has_sched;			/* the scheduler figures below are known */
	double wait_share;		/* run-queue wait / runtime, per thread */
	double wait_ns_per_io;		/* run-queue wait per I/O the job did */
	double nivcsw;			/* involuntary context switches, all threads */
	double load1;			/* 1-minute load average, < 0 unknown */
	struct breakdown bd;		/* the job's cycle split (breakdown.h) */
	int bd_beside;			/* the breakdown is reported beside the verdict (iotrial's
					 * own runs: "time per I/O"): the evidence leaves it out */
	struct bottleneck_cross cross;	/* other jobs of the result (bottleneck_peer.c) */
};

/* Judge @in into @out (verdict, evidence and the deciding figures). */
void bottleneck_judge(const struct bottleneck_in *in, struct bottleneck_verdict *out);

/*
 * Judge every job of a finished run (jobs[].bottleneck, jobs[].bd and
 * bd_tail), fill r->groups (a breakdown and device views per stonewall
 * group), and give each run-level disk_util the view of the first job on
 * that device.  Jobs of one group that share a device run together: their
 * requested depths and bytes are added up, since the device saw them all.
 * Returns 0 or -ENOMEM (the verdicts are made either way; groups may be
 * missing).
 */
int bottleneck_run(struct run_result *r);

/*
 * Job @i's breakdown from a loaded result: iotrial's own when it has one,
 * else computed from fio's figures (disk_util over the whole run, usr_cpu
 * and sys_cpu, iodepth_complete's buckets; no run-queue wait).  *out->valid
 * is 0 when the job has no I/O.
 */
void bottleneck_read_breakdown(const struct resultread *r, size_t i, struct breakdown *out);

/*
 * The per-I/O breakdown of a whole loaded result (its jobs' breakdowns,
 * I/O-weighted; the steady tails' under resultwindow's tail view when every
 * job has one and @tail is set).  Returns 0, or -ENOENT when none is valid.
 */
int bottleneck_result_breakdown(const struct resultread *r, int tail, struct breakdown *out);

/*
 * The same verdict from a loaded result (fio's JSON or iotrial's), for job
 * @i: fio's disk_util covers the whole run, so the device depth is its ticks
 * over the run's longest direction runtime.  Returns 0, or -ENOENT when the
 * job has no I/O to judge.
 */
int bottleneck_from_read(const struct resultread *r, size_t i, struct bottleneck_verdict *out);

/*
 * The device side of a loaded result, for compare: mean latency per device
 * I/O (ns) and mean number in flight.  From the jobs' own device views when
 * the result has them (iotrial: each stonewall group's window, combined
 * I/O-weighted and time-weighted), else the busiest disk_util device over
 * the longest job_runtime (its measured-time view when present).  @window
 * (may be NULL) gets which window that is, for people.  Returns 0, or
 * -ENOENT when the result has no device with I/O.
 */
int bottleneck_device_figures(const struct resultread *r, double *lat_ns, double *queue_depth,
			      char *window, size_t wsz);

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

/* One job as bottleneck_peer_judge compares it with the others of its result. */
struct bottleneck_peer {
	unsigned groupid;
	const char *key;		/* one workload: rw, bs, engine, direct, threads, target */
	double depth;			/* I/Os requested in flight, all threads */
	double iops, cycle_ns;
	double dev_lat_ns;		/* its own window's device latency, NAN unknown */
	int has_io;			/* I/O on a device (not an engine that touches none) */
	int burner;			/* an engine that touches no device (cpuio, null): CPU only */
	double cpu_threads_pct;		/* usr + sys over its threads, % of one CPU */
};

/*
 * What the other jobs of a result say about job @i of @v[0..n): a shallower
 * run of the same workload (saturation) and the same workload alone (CPU
 * burners beside it).  @whole_dev_share: for results whose device figures
 * cover the whole run (fio), the device's ticks over the jobs' summed
 * latency (the share of the I/Os' time spent in the device), else NAN.
 */
void bottleneck_peer_judge(const struct bottleneck_peer *v, size_t n, size_t i,
			   double whole_dev_share, struct bottleneck_cross *out);

#endif
