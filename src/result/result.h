/*
 * result: the one result model.  The runner fills it, the text and JSON
 * writers print it, and (later) a reader loads it back from JSON.  Everything
 * a report needs is here, so a report can be drawn from a saved file alone.
 *
 * A job_result is one reported entity: a job (one thread), or a whole
 * group_reporting group merged exactly (histograms summed, moments merged).
 */
#ifndef IOTRIAL_RESULT_H
#define IOTRIAL_RESULT_H

#include <stdint.h>
#include <time.h>
#include "lib/hist.h"
#include "io/cmdprio.h"	/* struct cmdprio_result */
#include "io/verify.h"
#include "model/job.h"
#include "lib/stat.h"
#include "measure/breakdown.h"	/* struct breakdown: where each I/O's time goes */
#include "measure/idleprof.h"	/* struct idleprof_result: --idle-prof */

struct series;		/* series.h: per-interval time series (docs/time-series.md) */
struct steady;		/* steady.h: steady-state outcome (docs/time-series.md) */

#define RESULT_DEPTH_NR 7	/* iodepth buckets 1 2 4 8 16 32 >=64 */

struct dir_result {
	uint64_t io_bytes;
	uint64_t total_ios;
	uint64_t short_ios;
	uint64_t drop_ios;
	uint64_t runtime_ms;		/* time this direction was active */
	struct moments slat, clat, lat;	/* ns */
	struct hist slat_hist, clat_hist, lat_hist;
	/*
	 * lat_from_due (rated jobs, else N = 0): from the I/O's slot in the rate
	 * schedule to its completion, so the time an I/O waited for a free
	 * io_u or a late issue counts (the closed lat/clat leave it out: the
	 * coordinated omission).  docs/json.md, lat_from_due_ns.
	 */
	struct moments due;
	struct hist due_hist;
	struct sample_stat bw_kib;	/* KiB/s sampled every 500 ms */
	struct sample_stat iops;	/* IOPS sampled every 500 ms */
	double bw_agg_pct;		/* this job's share of its group's bw */
};

/*
 * What a block device saw over a window (diskutil_view): rates per second of
 * the window, mean latency per I/O from the device's own tick counters, and
 * the average number of I/Os in flight (ticks / window).  dur_ns 0: no view.
 */
struct disk_view {
	char name[64];
	uint64_t dur_ns;			/* the window */
	uint64_t read_ios, write_ios;
	uint64_t read_bytes, write_bytes;	/* from sectors */
	double read_iops, write_iops;
	double read_lat_ns_mean, write_lat_ns_mean;	/* 0 without I/O */
	double read_queue_depth, write_queue_depth;	/* read/write ticks / window */
	double queue_depth;			/* time_in_queue / window */
	double util;				/* % of the window busy */
	uint64_t nr_requests;			/* the queue's capacity, 0 unknown */
};

/*
 * Per-interval device view of a job's first device (t_ms as in series.h),
 * one per series interval of the job's first thread, in the same order.
 */
struct disk_view_iv {
	uint64_t t_ms;
	int ramp;			/* inside ramp_time */
	uint32_t n;			/* series intervals it covers (docs/time-series.md, long runs); 0 or 1: one */
	struct disk_view v;
};

/*
 * What an NVMe controller counted over a job's measured time, from its own
 * SMART / health log read before and after (the device view of a
 * passthrough engine, whose commands no block layer counts: docs/breakdown.md).
 * Commands and data units only: the log has no time, so no latency, depth
 * or busy share.
 */
struct ctrl_view {
	int valid;			/* 0: not an NVMe char device target, or the log unreadable */
	char name[64];			/* the char device, "ng0n1" */
	uint32_t nsid;			/* the log's scope: the namespace, 0xffffffff the controller */
	uint64_t dur_ns;		/* the window */
	uint64_t read_cmds, write_cmds;	/* host read / write commands */
	uint64_t units_read, units_written;	/* data units: 1000 x 512 bytes, rounded up */
};

/* A job's bottleneck verdict (bottleneck.h). */
struct bottleneck_verdict {
	char verdict[16];		/* "" when not judged */
	char evidence[900];		/* one line of the figures that decided it */
	double cpu_pct;			/* per thread, % of one CPU */
	double req_depth, dev_depth;	/* requested, seen at the device (-1 unknown) */
	double dev_io_share;		/* device bytes / job bytes (-1 unknown) */
	double tool_minus_dev_ns;	/* job mean latency - device mean latency (NAN unknown) */
};

struct job_result {
	const struct job *job;		/* the definition (first clone) */
	char name[JOB_NAME_MAX];
	unsigned groupid;
	unsigned nr_threads;		/* threads merged into this entry */
	int error;			/* first errno (positive, as fio) */
	int target_error;		/* the error was laying out its target: exit 3 */
	char first_error[256];		/* human text of the first error, "" if none */
	/* continue_on_error (ioerr.h): errors let pass, the first errno of all */
	int coe;			/* the job has continue_on_error: fio's two fields */
	uint64_t total_err;
	int first_err;
	uint64_t elapsed_s;
	int pid;			/* the first thread's id (fio's pid=), 0 unknown */
	time_t end_time;		/* when its last thread ended, 0 unknown */
	uint64_t job_runtime_ms;
	double usr_cpu, sys_cpu;	/* % of job_runtime */
	uint64_t ctx, majf, minf;
	uint64_t usr_us, sys_us;	/* raw CPU time, for CPU per I/O */
	uint64_t rq_wait_ns;		/* runnable but waiting for a CPU (schedstat.h), summed over threads */
	uint64_t nivcsw;		/* involuntary context switches, summed over threads */
	int has_sched;			/* rq_wait_ns known for every thread */
	double load1;			/* 1-minute load average at the end (max over threads), -1 unknown */
	struct dir_result dir[DDIR_NR];
	struct moments sync_lat;
	struct hist sync_hist;
	uint64_t sync_ios;
	uint64_t depth_level[RESULT_DEPTH_NR];	/* in-flight count at submit */
	uint64_t depth_submit[RESULT_DEPTH_NR + 1];	/* batch sizes 0 4 8 16 32 64 >=64 */
	uint64_t depth_complete[RESULT_DEPTH_NR + 1];
	uint64_t total_submit, total_complete;
	uint64_t zone_resets;		/* zonemode=zbd: zones reset (fio's "zone resets") */
	struct series *series;		/* NULL when not sampled */
	/* what the devices under the job saw over its measured time (docs/json.md, the device view) */
	struct disk_view *dev;		/* malloc'ed, nr_dev entries, or NULL */
	size_t nr_dev;
	struct disk_view_iv *dev_iv;	/* per series interval, first device */
	size_t nr_dev_iv;
	struct ctrl_view ctrl;		/* an NVMe passthrough target's controller counters */
	struct bottleneck_verdict bottleneck;
	struct breakdown bd;		/* each I/O's cycle split (breakdown.h), over the measured time */
	struct breakdown bd_tail;	/* the same over the steady tail (valid 0: none) */
	struct steady *steady;		/* NULL when no criterion */
	int partial;			/* ended early (signal or error) */
	unsigned lat_depth;		/* latency_target: the depth its search ended at (0: off) */
	struct verify_result verify;	/* verify=: what the read-back pass found */
	/* the files this run laid out for it: threads that laid out any, files, bytes (fio's text) */
	unsigned laid_threads, laid_files;
	uint64_t laid_bytes;
	struct cmdprio_result *prio;	/* cmdprio: clat per priority (owned), or NULL */
	uint64_t rand_seeds[4];		/* the first thread's random stream seeds (iogen.h) */
};

struct disk_util {
	char name[64];
	uint64_t read_ios, write_ios;
	uint64_t read_merges, write_merges;
	uint64_t read_ticks, write_ticks;	/* ms */
	uint64_t in_queue;			/* ms */
	uint64_t io_ticks;			/* ms busy */
	double util;				/* % of the run's wall time */
	struct disk_view view;			/* over the jobs' measured time; dur_ns 0: none */
};

/*
 * One stonewall group (docs/breakdown.md): its jobs' breakdown, I/O-weighted,
 * and what each device under them saw over the group's window (the view of
 * the group's job with the longest measured time on that device).
 */
struct result_group {
	unsigned groupid;
	char jobs[256];			/* its job names, ", "-separated (cut to fit) */
	struct breakdown bd;
	struct disk_view *dev;		/* malloc'ed, nr_dev entries, or NULL */
	size_t nr_dev;
};

/* MPI mode (docs/mpi.md): every rank's part, packed and merged by mpimerge.h. */
struct json_t;	/* jansson's json_t */

/* Where and when one rank ran (packed beside its result). */
struct result_rank_info {
	unsigned rank;
	char host[256];
	uint64_t start_ns, end_ns;	/* CLOCK_REALTIME: I/O start (barrier left), run end */
};

/* One rank's part, as rank 0 holds it after the gather. */
struct result_rank {
	struct result_rank_info info;
	int partial, signal;
	struct json_t *env;		/* summary of the rank's environment (owned) */
	struct job_result *jobs;	/* its entries; job pointers into rank 0's list */
	size_t nr_jobs;
};

/* Every rank's part, attached to the merged run_result (run_result.ranks) by mpimerge.h. */
struct result_ranks {
	struct result_rank *ranks;	/* by rank number */
	size_t nr;
	uint64_t skew_ns;		/* latest minus earliest start_ns */
	double merge_s;			/* gather + unpack + merge on rank 0, seconds */
};

struct run_result {
	time_t timestamp;
	uint64_t timestamp_ms;
	struct job_result *jobs;
	size_t nr_jobs;
	struct disk_util *du;
	size_t nr_du;
	struct idleprof_result idle;	/* --idle-prof (mode NONE: none); cpus owned */
	const struct job_kv *global_opts;	/* as typed; owned by the job list */
	size_t nr_global_opts;
	int partial;			/* interrupted or errored: not the full run */
	int signal;			/* the signal that stopped it, 0 if none */
	const char *clock_source;	/* "tsc" or "clock_gettime" */
	double clock_ghz;		/* TSC rate when used */
	void *env;			/* json_t * from env.c, or NULL */
	void *warnings;			/* json_t * array from run_warnings, or NULL */
	struct result_ranks *ranks;	/* MPI mode: every rank's part (jobs are their merge) */
	struct result_group *groups;	/* per stonewall group (bottleneck_run), or NULL */
	size_t nr_groups;
};

/* Zero a job_result and initialise its accumulators. */
void result_job_init(struct job_result *r);

/* Merge @src into @dst (group_reporting): sums, histograms, moments. */
void result_job_merge(struct job_result *dst, const struct job_result *src);

/*
 * unified_rw_reporting=mixed|both: the job's directions summed into @out
 * (fio's "mixed"): counts and bytes added, latencies and histograms merged,
 * bw/iops samples pooled, runtime the longest direction's.
 */
void result_dir_mixed(const struct job_result *jr, struct dir_result *out);

/*
 * Fill each entry's dir[].bw_agg_pct as fio does: the entry's mean sampled
 * bandwidth as a percentage of its group's aggregate bandwidth (the group's
 * bytes over its longest runtime, per direction).
 */
void result_bw_agg(struct run_result *r);

/*
 * fio's "error" of a job (its JSON field and its text's err=): the error that
 * ended it, or with continue_on_error the first error, fatal or not.
 */
static inline int result_job_error(const struct job_result *r)
{
	return r->error ? r->error : r->coe ? r->first_err : 0;
}

/*
 * Did the entry do any I/O?  fio prints no block for one that did none.  A
 * verify pass counts (fio counts its reads as the job's; iotrial does not,
 * but the job did read).
 */
int result_job_did_io(const struct job_result *jr);

/*
 * Clones: the entries of one job definition, told apart by the entries that
 * share job @i's name and group (numjobs=4 without group_reporting: four).
 * Returns how many there are, with *@index job @i's place among them (0..).
 * A reader names clone k of job "randrw" "randrw.k" when there are several.
 */
size_t result_job_clones(const struct run_result *r, size_t i, size_t *index);

/*
 * Stonewall groups in ascending order (jobs need not be sorted by group):
 * the smallest group id above @after (any, when @first), in *@gid.  Returns
 * 0 when there is none.  for (ok = result_next_group(r, 1, 0, &g); ok;
 * ok = result_next_group(r, 0, g, &g)) visits each group once.
 */
int result_next_group(const struct run_result *r, int first, unsigned after, unsigned *gid);

/* Release the series and steady outcome @r owns (not the struct itself). */
void result_job_clear(struct job_result *r);

/* Release what @r owns (jobs array, series, steady, du, ranks; not global_opts). */
void result_free(struct run_result *r);

/* Release what one rank's part owns. */
void result_rank_clear(struct result_rank *r);

/* Release @set and what it owns; NULL is fine. */
void result_ranks_free(struct result_ranks *set);

#endif
