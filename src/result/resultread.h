/*
 * resultread: load a saved result file (fio 3.x JSON or json+, or iotrial's
 * JSON, which is fio's schema plus an "iotrial" object) and summarise it into
 * the figures compare and check work on.  It does not rebuild the full result
 * model (result.h): only what a comparison or a plausibility check needs.
 *
 * How a file is summarised, per direction (read, write, trim), over its jobs:
 *   - ios, bytes, iops, bw_bytes: sums (jobs of one group run concurrently;
 *     jobs of stonewalled groups do not, and their sum is still what fio's
 *     own "All jobs" line would add up, so we keep that convention);
 *   - lat_mean_ns: the I/O-weighted mean of the jobs' total-latency means
 *     ("lat_ns"; "clat_ns" when lat is absent), which is the exact mean over
 *     all I/Os;
 *   - lat_p99_ns: from json+ "bins" merged over jobs when every job has them
 *     (exact up to fio's bucket width), else the I/O-weighted mean of the
 *     jobs' own 99th percentiles (an approximation: percentiles do not
 *     average; with one job it is exact).  Percentiles are taken from
 *     "lat_ns" when fio printed them there (lat_percentiles=1), else "clat_ns";
 *   - interval_cv / samples: the largest per-job coefficient of variation of
 *     the IOPS samples (iotrial "intervals" outside the ramp, or fio's
 *     iops_stddev / iops_mean) and the fewest samples of any job.
 * CPU per I/O: sum over jobs of (usr_cpu + sys_cpu)% x job_runtime, divided
 * by all I/Os: CPU time of the benchmark's own threads per I/O, in ns.
 * Job options are the values the job ran with: iotrial's resolved job
 * (jobs[].iotrial.job) when the result has it, else fio's "global options"
 * overlaid with the job's "job options" (fio writes them with its variables
 * substituted), with fio's defaults (rw=read, iodepth=1, numjobs=1,
 * direct=0, ioengine=psync, rwmixread=50).  Never the typed text alone:
 * iotrial records options as typed, and "iodepth=$ncpus" is not 1.
 *
 * Errors (unreadable, empty, malformed or truncated JSON, JSON that is not a
 * fio result) fill struct err with a one-line message naming the file, and
 * EXIT_USAGE.  Leading lines before the first '{' line are skipped, as fio
 * sometimes prints notes before its JSON.
 */
#ifndef IOTRIAL_RESULTREAD_H
#define IOTRIAL_RESULTREAD_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>	/* json_t: options and environment objects */
#include "lib/ddir.h"	/* DDIR_NR */
#include "lib/err.h"
#include "lib/hostrole.h"	/* HOST_ROLE_NR: the host's CPU per role */
#include "result/resultread_time.h"	/* where each I/O's time went */

#define RESULTREAD_NDIR DDIR_NR	/* read, write, trim: enum ddir order */

struct resultread_dir {
	uint64_t ios;
	uint64_t bytes;
	double iops;
	double bw_bytes;	/* bytes per second */
	double lat_mean_ns;	/* NAN when no I/O */
	double lat_p99_ns;	/* NAN when unknown */
	int p99_from_bins;	/* merged json+ bins (else mean of job p99s) */
	uint64_t runtime_ms;	/* longest job's time in this direction */
	double interval_cv;	/* NAN when unknown */
	uint64_t samples;	/* fewest interval samples of a job; 0 unknown */
};

/* One reported job entry (a thread, or a group_reporting merge). */
struct resultread_job {
	char name[128];
	unsigned groupid;
	int error;
	uint64_t total_err;	/* with continue_on_error ("total_err" present), else 0 */
	int coe;		/* the result has fio's continue_on_error fields */
	char rw[24];
	unsigned rwmixread;	/* percent of reads in a mixed job */
	int rwmix_given;	/* rwmixread or rwmixwrite was set */
	unsigned iodepth;
	unsigned numjobs;
	int direct;
	char ioengine[32];
	int ioengine_given;	/* else fio's default, psync */
	int rate_limited;	/* rate, rate_iops, thinktime or latency_target set */
	int has_filename;	/* filename= given: clones share one target */
	char target_dev[32];	/* "sdb" for filename=/dev/sdb (one plain device), else "" */
	uint64_t size;		/* bytes per job, 0 when unknown or a percentage */
	uint64_t ios[RESULTREAD_NDIR];
	double iops[RESULTREAD_NDIR];
	double lat_mean_ns[RESULTREAD_NDIR];	/* NAN when no I/O */
	uint64_t job_runtime_ms;
	double cpu_pct;		/* usr + sys */
	/* the device view (docs/json.md, the device view): completion latency, bytes, the verdict stored */
	double clat_mean_ns[RESULTREAD_NDIR];	/* NAN when no I/O */
	uint64_t io_bytes;
	char bottleneck[16];	/* iotrial's jobs[].iotrial.bottleneck.verdict, "" if none */
	int steady;		/* -1 no criterion, 0 not attained, 1 attained */
	char steady_what[64];	/* the criterion as recorded */
	int steady_held;	/* -1 unknown, 0 lost after the window, 1 held */
	uint64_t steady_lost_ms;	/* when lost: start of the first round outside */
	double steady_lost_pct;	/* the level after the loss vs the window, % */
	struct resultread_time time;	/* breakdown, device view, fio's raw figures (resultread_time.h) */
};

/*
 * One disk_util entry: fio's counters over the whole run, and iotrial's view
 * over the measured time when the result has one (has_view).
 */
struct resultread_disk {
	char name[64];
	uint64_t read_ios, write_ios, read_ticks, write_ticks, in_queue;	/* ms */
	double util;
	int has_view;
	double read_lat_ns, write_lat_ns, read_qd, write_qd, qd, view_util;
};

/*
 * The time per I/O across the hypervisor (iotrial.host.breakdown): guest
 * tool, guest I/O path, virtual device path, host backend.
 */
#define RESULTREAD_HOST_NBD 4
extern const char *const resultread_host_bd_key[RESULTREAD_HOST_NBD];	/* "guest_tool_ns", ... */
extern const char *const resultread_host_bd_label[RESULTREAD_HOST_NBD];	/* "guest tool", ... */

/*
 * The host's view of a run in a QEMU guest ("iotrial.host", docs/vm.md):
 * figures per I/O of the guest, NAN when the result has none.
 */
struct resultread_host {
	int has;
	char drive[128];
	double ops, guest_ios;
	double cpu_per_io_ns, backend_lat_ns, virt_path_ns;
	double role_cpu_per_io_ns[HOST_ROLE_NR];
	double bd[RESULTREAD_HOST_NBD];	/* iotrial.host.breakdown, resultread_host_bd_key order */
	size_t npitfalls;
	struct {
		char id[32];	/* "host_no_iothread", ... (env/hostview.c) */
		char text[320];
	} pitfalls[4];		/* the first four, as the host's view worded them */
};

/*
 * A sweep's document (iotrial sweep --output-format=json, or its directory's
 * sweep.json; docs/sweep.md): no jobs, one figure per sweep that compare
 * treats as a metric (slo.iops), with the interval the sweep gave it.
 */
struct resultread_sweep {
	int is;			/* the document is a sweep's */
	int has_slo;		/* it had --slo and some step was within it */
	double slo_pct;		/* the SLO's percentile, e.g. 99 */
	double slo_target_ns;
	double slo_iops;	/* the SLO capacity (NAN: no step within) */
	double slo_lo, slo_hi;	/* its interval (slo.ci) */
	double slo_next;	/* the first step above slo_hi (slo.next_step_iops), NAN: none */
	double knee_iops;	/* NAN when none */
	unsigned batches;	/* runs per step the interval came from */
};

struct resultread {
	char *path;
	int is_iotrial;		/* has the "iotrial" object */
	char version[64];	/* "fio-3.33" or "iotrial-x.y.z" */
	char clock_source[32];	/* iotrial only, "" when not recorded */
	int partial;		/* iotrial: the run was cut short */
	unsigned nranks;	/* MPI ranks merged into each job (iotrial.mpi), else 1 */
	struct resultread_dir dir[RESULTREAD_NDIR];
	double total_iops;
	double cpu_per_io_ns;	/* NAN when not known */
	struct resultread_host host;
	struct resultread_job *jobs;
	size_t nr_jobs;
	json_t *options;	/* first job's resolved options: {"rw": "randrw", ...} */
	json_t *env;		/* iotrial.environment, or NULL */
	char disks[128];	/* fio's disk_util names, "vda,vdb"; "" if none */
	struct resultread_disk *du;	/* disk_util entries, nr_du of them */
	size_t nr_du;
	int64_t timestamp_ms;	/* run start ("timestamp_ms", else "timestamp" x 1000); -1 unknown */
	int order_by_trial;	/* timestamp_ms is when its ab trial started the run (the
				 * manifest, the controller's clock: trial.c, trialdir.c) */
	/*
	 * iotrial's steady tails (jobs[i].iotrial.steady.tail), summed over jobs
	 * as dir[] is; interval_cv and samples are the whole run's.  whole[] keeps
	 * the whole-run figures: resultwindow.h puts one or the other in dir[].
	 */
	int has_tail;		/* every job has a steady tail */
	size_t nr_tails;	/* jobs with one */
	uint64_t tail_start_ms;	/* the latest start of a job's tail */
	uint64_t tail_len_ms;	/* the shortest job's tail */
	struct resultread_dir tail[RESULTREAD_NDIR];
	double tail_total_iops;
	struct resultread_dir whole[RESULTREAD_NDIR];
	double whole_total_iops;
	/*
	 * The document itself, when the result was not read from a file at @path
	 * (a run from the results history, "history:ID"): readers that want more
	 * than this summary (per-test splits, the HTML charts) take it instead of
	 * reading @path again.  NULL otherwise; owned (resultread_free drops it).
	 */
	json_t *doc;
	struct resultread_sweep sweep;	/* sweep.is: a sweep's document, no jobs */
};

/* Load and summarise @path.  On success *out owns everything; free with resultread_free. */
/*
 * The largest result file read: fio's json+ of hundreds of jobs stays far
 * below it, and parsing takes several times the file's size in memory, so a
 * larger file (or /dev/zero) is refused rather than read until memory runs out.
 */
#define RESULTREAD_SIZE_MAX (256u << 20)

int resultread_load(const char *path, struct resultread **out, struct err *e);

/*
 * The JSON document of the result file @path as it is, from its first line
 * that starts with '{' (fio may print notes before it), into *@root (the
 * caller's reference).  Returns 0, or -errno with @e filled (EXIT_USAGE):
 * unreadable, larger than RESULTREAD_SIZE_MAX, no JSON object, invalid JSON.
 */
int resultread_load_json(const char *path, json_t **root, struct err *e);

/* The same from a buffer; @name is used in error messages and as path. */
int resultread_parse(const char *text, size_t len, const char *name,
		     struct resultread **out, struct err *e);

/*
 * The same from a JSON document already in memory (the runner's own result,
 * so that it can run plausibility_check() before or without writing a file).
 * @root is only borrowed.
 */
int resultread_from_json(const json_t *root, const char *name, struct resultread **out,
			 struct err *e);

void resultread_free(struct resultread *r);

/* The report a sweep leaves in its directory (iotrial sweep, docs/sweep.md). */
#define RESULTREAD_SWEEP_FILE "sweep.json"

/*
 * Expand @args (files, or directories whose *.json files are taken in name
 * order; a sweep's directory, one with RESULTREAD_SWEEP_FILE, is that file) into a malloc'd array of malloc'd paths.  A directory without any
 * *.json, or a path that does not exist, is an EXIT_USAGE error.  Free
 * *paths with vec_free_strings().
 */
int resultread_expand(char *const *args, size_t n, char ***paths, size_t *np,
		      struct err *e);

/*
 * Expand @args as resultread_expand does and load every file: *out is a
 * malloc'd array of *nout results (free with resultread_set_free).  The first
 * bad file stops it, with its error in @e.
 */
int resultread_load_set(char *const *args, size_t n, struct resultread ***out,
			size_t *nout, struct err *e);

void resultread_set_free(struct resultread **v, size_t n);

/*
 * A size option's value as the job ran it ("10G", "4k", "1KiB", "512"), by
 * num.c's rules (fio's, with its KiB quirk) under @kb_base (1024 or 1000);
 * 0 if it is not a plain size (a percentage, an expression error, "1.5m").
 */
uint64_t resultread_size(const char *s, unsigned kb_base);

/*
 * One option of job @job (an element of @root's "jobs") as the job ran with
 * it, for a reader that needs an option struct resultread_job does not
 * carry: the typed value (the job's, else the global one) when it is a
 * literal, else the resolved one (iotrial.job).  NULL when absent; may
 * point into @buf.  Every read of an option back from a result goes
 * through this or struct resultread_job (tests/e2e/check_options.sh).
 */
const char *resultread_job_option(const json_t *root, const json_t *job, const char *key,
				  char *buf, size_t sz);

/*
 * The block size job @job of @root ran with, into @out: in bytes when it is
 * one plain size ("4096"), else as typed ("4k,8k"); fio's default "4096"
 * when the job does not say.  Returns @out.
 */
const char *resultread_job_bs(const json_t *root, const json_t *job, char *out, size_t sz);

#endif
