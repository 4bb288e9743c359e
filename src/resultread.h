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
 * Job options are fio's "global options" overlaid with the job's "job
 * options", resolved with fio's defaults (rw=read, iodepth=1, numjobs=1,
 * direct=0, ioengine=psync, rwmixread=50).
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
#include "err.h"

#define RESULTREAD_NDIR 3	/* read, write, trim: enum ddir order */

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
	uint64_t size;		/* bytes per job, 0 when unknown or a percentage */
	uint64_t ios[RESULTREAD_NDIR];
	double iops[RESULTREAD_NDIR];
	double lat_mean_ns[RESULTREAD_NDIR];	/* NAN when no I/O */
	uint64_t job_runtime_ms;
	double cpu_pct;		/* usr + sys */
	int steady;		/* -1 no criterion, 0 not attained, 1 attained */
	char steady_what[64];	/* the criterion as recorded */
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
	struct resultread_job *jobs;
	size_t nr_jobs;
	json_t *options;	/* first job's resolved options: {"rw": "randrw", ...} */
	json_t *env;		/* iotrial.environment, or NULL */
	char disks[128];	/* fio's disk_util names, "vda,vdb"; "" if none */
};

/* Load and summarise @path.  On success *out owns everything; free with resultread_free. */
int resultread_load(const char *path, struct resultread **out, struct err *e);

/* The same from a buffer; @name is used in error messages and as path. */
int resultread_parse(const char *text, size_t len, const char *name,
		     struct resultread **out, struct err *e);

/*
 * The same from a JSON document already in memory (the runner's own result,
 * so that it can run check_result() before or without writing a file).
 * @root is only borrowed.
 */
int resultread_from_json(const json_t *root, const char *name, struct resultread **out,
			 struct err *e);

void resultread_free(struct resultread *r);

/*
 * Expand @args (files, or directories whose *.json files are taken in name
 * order) into a malloc'd array of malloc'd paths.  A directory without any
 * *.json, or a path that does not exist, is an EXIT_USAGE error.
 */
int resultread_expand(char *const *args, size_t n, char ***paths, size_t *np,
		      struct err *e);

void resultread_paths_free(char **paths, size_t n);

/*
 * Expand @args as resultread_expand does and load every file: *out is a
 * malloc'd array of *nout results (free with resultread_set_free).  The first
 * bad file stops it, with its error in @e.
 */
int resultread_load_set(char *const *args, size_t n, struct resultread ***out,
			size_t *nout, struct err *e);

void resultread_set_free(struct resultread **v, size_t n);

/* Parse a fio size ("10G", "4k", "1m", "512") in bytes, base 1024; 0 if not one. */
uint64_t resultread_size(const char *s);

#endif
