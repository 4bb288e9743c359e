/*
 * sweep: latency against offered load (`iotrial sweep`), as a library.  It
 * takes a job, finds its capacity with a short closed-loop run (unless a
 * range is given), then steps the offered load (rate_iops, open loop) from
 * low to beyond it.  Each step is a few batches, each batch one run started
 * through a spawn callback (the CLI forks /proc/self/exe, as ab does) that
 * writes its json+ result into the sweep directory, after a ramp that is
 * not measured (a throttle's burst at a run's start is not the device's
 * rate, and the rate's schedule starts at the ramp's end); the step's figures are
 * read back from those files: offered and achieved IOPS, the latency from
 * each I/O's due time (lat_from_due, result.h) and fio's clat, pooled over
 * the batches.  Stepping stops at the first step the device falls behind
 * (achieved below 95% of offered: the backlog grows), then the gap between
 * the last step kept and that one is halved a few times.
 *
 * What it reports (docs/sweep.md):
 *   - capacity_iops: the closed-loop run's IOPS (or, with a range, the most
 *     any step achieved);
 *   - the knee: the highest offered load kept (achieved >= 95% of offered);
 *   - with an SLO (pNN <= T): the highest offered load kept whose pNN from
 *     the due time, pooled over the step's batches, is within T; and an
 *     interval on it from the batches: each batch's pNN gives a 95%
 *     t-interval per step; the low end is the highest step where every
 *     batch kept up and whose upper bound (and every lower step's) is within
 *     T, the high end the highest step some batch kept up at whose lower
 *     bound is.
 * Nothing here prints: text and JSON are built from the result.
 */
#ifndef IOTRIAL_SWEEP_H
#define IOTRIAL_SWEEP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>	/* FILE */
#include <jansson.h>
#include "lib/err.h"

#define SWEEP_KEEP 0.95		/* achieved / offered at or above: kept */
#define SWEEP_MAX_STEPS 64
#define SWEEP_MAX_BATCHES 32

struct sweep_cfg {
	char *const *args;		/* the job: fio options or job files, as typed */
	size_t nargs;
	int has_slo;			/* --slo=pNN:TIME */
	double slo_pct;			/* (0, 100) */
	uint64_t slo_ns;		/* > 0 */
	int has_range;			/* --range=LO-HI: no capacity run */
	uint64_t lo, hi;		/* total offered IOPS, lo < hi */
	unsigned steps;			/* coarse steps (>= 2) */
	unsigned refine;		/* halvings between the last kept and the first behind */
	unsigned batches;		/* runs per step (>= 2: the interval needs them) */
	const char *batch_time;		/* each run's runtime unless the job sets one ("1s") */
	const char *ramp_time;		/* each run's ramp_time unless the job sets one ("500ms"):
					 * not measured, so a throttle's (or a cache's) burst at
					 * a run's start is not taken for the device's rate */
	const char *probe_time;		/* the capacity run's runtime unless the job sets one */
	const char *dir;		/* the sweep directory, made if missing */
	/*
	 * Run iotrial with @args (argv[1] on), its stdout and stderr to @log.
	 * Returns its exit code (127: not started; 128 + N: killed by signal N).
	 */
	int (*spawn)(void *arg, char *const *args, size_t nargs, const char *log);
	void *spawn_arg;
	void (*say)(void *arg, const char *line);	/* progress, one line; NULL: quiet */
	void *say_arg;
};

/* A latency distribution's figures (ns): p50, p90, p99, p99.9, mean, max. */
struct sweep_lat {
	uint64_t n;
	double p50, p90, p99, p999, mean, max;
};

struct sweep_step {
	double offered;			/* total IOPS asked for (per-thread rate x threads) */
	double achieved;		/* total IOPS done: mean over the batches */
	double achieved_lo, achieved_hi;	/* the batches' least and most */
	unsigned batches;
	int kept;			/* achieved >= SWEEP_KEEP x offered */
	struct sweep_lat due;		/* lat_from_due, pooled over the batches */
	struct sweep_lat clat;		/* fio's clat, pooled */
	double pct_ns;			/* the SLO's percentile (p99 without one), pooled */
	double pct_mean, pct_lo, pct_hi;	/* over the batches: mean and 95% t-interval */
	double pct_batch[SWEEP_MAX_BATCHES];
	int within;			/* has_slo: kept and pct_ns <= slo_ns */
};

struct sweep_result {
	double capacity_iops;		/* closed loop (or the most achieved with a range) */
	int capacity_measured;		/* 1: from the closed-loop run */
	double knee_iops;		/* highest kept offered load, 0: none kept */
	int knee_step;			/* its index, -1: none */
	struct sweep_step steps[SWEEP_MAX_STEPS];	/* in offered order */
	unsigned nsteps;
	double pct;			/* the percentile judged: the SLO's, else 99 */
	int has_slo;
	uint64_t slo_ns;
	double slo_iops;		/* 0: no step within */
	double slo_lo, slo_hi;		/* the interval on it (IOPS) */
	double slo_next;		/* the first step above slo_hi: the capacity lies
					 * under it (the grid's resolution); 0: none */
	int slo_step;			/* -1: none */
	unsigned threads;		/* job clones the rate is shared by */
	unsigned batches;
	double batch_s;			/* one run's measured time (from the results) */
	char ramp[32];			/* each run's ramp_time as given, "" when unknown */
	char dir[4096];
	/*
	 * What the sweep measured, from its first run (the closed-loop one, or
	 * the first batch): when it started (timestamp_ms, -1 unknown), the
	 * machine and its devices (iotrial.environment) and the jobs as they
	 * ran (workload: [{name, rw, rwmixread, bs, iodepth, direct, ioengine,
	 * numjobs}]), so that the history keys a sweep as it keys a run.  Owned
	 * references, NULL when unknown: drop them with sweep_result_clear().
	 */
	int64_t start_ms;
	json_t *env;
	json_t *workload;
};

/*
 * Check @c (the SLO, the range, steps, batches) and the job as the runner
 * would parse it (cmdline_parse), and count the threads the offered load is
 * shared by.  0, or -EINVAL with @e filled (EXIT_USAGE): a bad SLO or range,
 * a job that sets its own rate, jobs that mix directions differently, an
 * offered rate no rate limiter can hold (under 1 IOPS per thread or above
 * what rate_iops represents).
 */
int sweep_check(const struct sweep_cfg *c, unsigned *threads, struct err *e);

/*
 * Run the sweep: the capacity run (unless a range), the steps, the
 * refinements; fills @r (all of it: a result that holds references must be
 * cleared first).  0, or -errno with @e filled: a run failed (its exit
 * code), a result could not be read, the directory not made.
 */
int sweep_run(const struct sweep_cfg *c, struct sweep_result *r, struct err *e);

/* Drop @r's references (env, workload); @r may then be filled again. */
void sweep_result_clear(struct sweep_result *r);

/* "p99:1ms" into @pct and @ns.  0, or -EINVAL with @e naming the part. */
int sweep_parse_slo(const char *s, double *pct, uint64_t *ns, struct err *e);

/* "1000-20000" (k/m suffixes as fio's numbers) into @lo < @hi.  0 or -EINVAL. */
int sweep_parse_range(const char *s, uint64_t *lo, uint64_t *hi, struct err *e);

/* --- the document (sweep_doc.c) --- */

/* The sweep as JSON: steps[], capacity_iops, knee_iops, slo {...}.  NULL: ENOMEM. */
json_t *sweep_json(const struct sweep_result *r);

/*
 * A sweep's document (sweep_json's, as `iotrial sweep --output-format=json`
 * or DIR/sweep.json has it) back into @r, which it fills anew (clear it
 * after).  @name names the document in messages.  0, or -EINVAL with @e
 * filled (EXIT_USAGE) naming the first key that is missing or wrong.
 */
int sweep_from_json(const json_t *doc, const char *name, struct sweep_result *r, struct err *e);

/* Is @doc a sweep's document (steps[] and capacity_iops, no jobs)? */
int sweep_doc_is(const json_t *doc);

/* The text report: a table per step, then the capacity, knee and SLO lines. */
int sweep_write_text(const struct sweep_result *r, FILE *f);

#endif
