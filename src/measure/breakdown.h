/*
 * breakdown: where the time of each I/O goes (docs/breakdown.md).
 *
 * A job keeps S I/Os in flight (its depth per thread, times its threads) and
 * completes X I/Os a second, so each of those S slots takes S / X per I/O:
 * the mean completion cycle (at QD1, 1 / IOPS: one I/O's latency plus the
 * time until the next one is submitted).  That cycle is split into
 *   device    the device's time per job I/O, from its counters over the
 *             job's window (read/write ticks / requests, weighted by the
 *             job's mix of directions): with O_DIRECT every I/O waits for
 *             the request that holds it, merged or not, so the time per
 *             request; with the page cache between, its busy time (ticks)
 *             over the job's I/Os, the rest being cache hits and readahead's
 *             followers the kernel served on its own; at most the latency;
 *   tool_user the thread's user time per I/O (getrusage), the tool's own code;
 *   tool_sys  its system time per I/O: the system calls, including the part of
 *             the kernel's I/O path that runs on the thread;
 *   cpu_wait  the thread's run-queue wait per I/O (schedstat.h): runnable,
 *             completions waiting, but no CPU;
 *   idle      time with no I/O in flight on the slot: the cycle outside the
 *             I/O's latency (cycle - lat) less the tool and CPU-wait parts,
 *             which may fall there -- a rate limit's or thinktime's sleep, a
 *             slow submitter; 0 when those parts fill it;
 *   io_path   the rest: the cycle less all of the above -- the block layer,
 *             driver, interrupt and virtualization path outside the device
 *             that runs on no thread of the tool.  With the idle part known
 *             it is at most the latency less the device.
 * The thread figures are per I/O of the thread; with several completions per
 * reap (b on average) a completion also waits for those handled before it,
 * so tool time counts (b + 1) / 2 times and a CPU wait, which delays the
 * whole batch, b times.  At QD1 (b = 1) every part is measured; at depth
 * they are that estimate, and say so.  Each part carries what it was
 * measured from and how exact it is.  When the parts exceed the cycle (they
 * overlap: a device whose worker also waits for a CPU), io_path is 0 and
 * overlap_ns says by how much.
 */
#ifndef IOTRIAL_BREAKDOWN_H
#define IOTRIAL_BREAKDOWN_H

#include <stddef.h>

enum breakdown_part { BD_DEVICE, BD_IO_PATH, BD_TOOL_USER, BD_TOOL_SYS, BD_CPU_WAIT, BD_IDLE,
		      BD_NR };

/* What one cycle is computed from; NAN (or 0 counts) for what is unknown. */
struct breakdown_in {
	double ios;		/* I/Os the job completed, all directions */
	double slots;		/* I/Os it keeps in flight: depth kept per thread x threads */
	double threads;
	double wall_s;		/* mean thread runtime (job_runtime / threads) */
	double lat_ns;		/* mean total latency (slat + clat) */
	int has_dev;		/* a block device under the target: the two below */
	double dev_lat_ns;	/* device time per request in the job's directions; NAN none */
	double dev_ios;		/* device requests in the job's directions over the window */
	int dev_whole_run;	/* fio's disk_util: the whole run, every group, set-up too */
	int direct;		/* O_DIRECT: every job I/O became (part of) a request */
	double dev_busy_ns;	/* the device's busy (util) time over the window, the job's
				 * share of it; NAN unknown (fio's disk_util) */
	double usr_ns, sys_ns;	/* CPU time of the job's threads (NAN unknown) */
	int cpu_rounded;	/* from fio's percentages of job_runtime */
	double wait_ns;		/* run-queue wait of its threads (NAN unknown) */
	double batch;		/* completions per reap (NAN unknown) */
	int batch_exact;	/* counted (iotrial), else from fio's iodepth_complete buckets */
	int deviceless;		/* an engine that touches no device (null) */
	int passthru;		/* commands to the device's char node: no block layer counts them */
};

struct breakdown_item {
	double ns;		/* per I/O; NAN unknown */
	double share;		/* of the cycle, 0..1; NAN unknown */
	char from[112];		/* what it was measured from */
	char exact[200];	/* how exact it is */
};

struct breakdown {
	int valid;		/* computed: the job has I/Os and a runtime */
	double cycle_ns;	/* slots / IOPS */
	double lat_ns;		/* mean latency (context: cycle - lat is outside it) */
	double batch;		/* completions per reap used (1 when unknown) */
	double overlap_ns;	/* parts beyond the cycle, 0 when they fit */
	struct breakdown_item part[BD_NR];
};

/* "device", "io_path", "tool_user", "tool_sys", "cpu_wait", "idle". */
const char *breakdown_part_name(enum breakdown_part p);

/* "device", "I/O path", "tool (user)", "tool (system)", "CPU wait", "idle": for people. */
const char *breakdown_part_label(enum breakdown_part p);

/* Compute @out from @in; out->valid 0 when there is nothing to split. */
void breakdown_compute(const struct breakdown_in *in, struct breakdown *out);

/*
 * Mean completions per reap from fio's iodepth_complete percentages (@pct
 * for the buckets 0, 4, 8, 16, 32, 64, >=64: reaps of 1-4, 5-8, ... I/Os),
 * each bucket at its midpoint, capped at @depth.  NAN when all are 0.
 */
double breakdown_batch_from_buckets(const double pct[7], double depth);

/*
 * The I/O-weighted mean of @n breakdowns (@w their I/Os) into @out: the
 * per-I/O figures of a group or of a whole result.  The texts are the first
 * valid one's.
 */
void breakdown_mean(const struct breakdown *v, const double *w, size_t n, struct breakdown *out);

/* The part with the largest time, or BD_NR when none is known. */
enum breakdown_part breakdown_largest(const struct breakdown *b);

#endif
