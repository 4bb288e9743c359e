/*
 * compare: is B faster than A, by how much, and how sure can we be?
 *
 * Input: two sets of loaded results (resultread), one file per run.  Per
 * metric (read/write/trim/total IOPS, bandwidth, mean and p99 latency, CPU
 * per I/O; a metric absent from every file is skipped) it reports each
 * side's mean, sd and n, every run's value in run order, the relative
 * difference (B - A) / A and an interval for it at level 1 - alpha, by the
 * first method that applies:
 *   "rank"       the values are tied or constant (fio's percentiles are
 *                bucket values; rate-limited IOPS repeat exactly): the
 *                Hodges-Lehmann interval of the ratio, widened by the
 *                values' quantum, with Mann-Whitney's p (abstat_rank.h);
 *   "run_order"  every run has a distinct timestamp: least squares of
 *                log(value) on side and run order, so a drift in time is
 *                not taken for the effect (abdrift.h);
 *   "fieller"    otherwise: Fieller's interval with Welch's df (abstat.h).
 * The verdict is read off the interval (as criterion.rs does), never off
 * the point estimate:
 *   "B is L..H% faster|slower|better|worse"  the whole interval lies beyond
 *                                            +-noise (default 2%);
 *   "negligible"      the whole interval lies within +-noise;
 *   "inconclusive"    otherwise, or no interval, or side and run order
 *                     confounded (runs in blocks), with about how many runs
 *                     a side would likely settle it;
 *   "no verdict"      the sides are not comparable for this metric (a side
 *                     mixes jobs, directions present in only some runs, the
 *                     job sets differ under the same options): a warning
 *                     says why;
 *   "single run: ..." a side has one run.
 * A CV above --cv-limit is a flag and a note, never a verdict: it cannot hide
 * what the interval establishes.  A regression (--fail-on-regression=T) is a
 * "worse" verdict whose whole interval lies beyond T in the bad direction.
 * Runs without any I/O are dropped as failed runs, with a warning.
 * It also lists what differs between the sides (job options as "job.<key>",
 * environment as flattened keys), repeats each file's plausibility checks
 * (grouped per side and id), and adds its own: single_run, few_runs,
 * job_differs, many_differences, side_mixed, env_missing, zero_io,
 * jobs_differ, partial_direction, run_order, outlier; with --trial-of
 * (the environment entries a trial is about; ab across hosts: the disk)
 * env_differs for each other entry that differs (kernel, cpu, ...), noted
 * in every verdict too; trial_incomplete for runs of a trial that ended
 * early.
 * The library never prints: the caller picks text (compare_write_text) or
 * JSON (compare_json).
 */
#ifndef IOTRIAL_COMPARE_H
#define IOTRIAL_COMPARE_H

#include <stdint.h>
#include <stdio.h>
#include <jansson.h>	/* json_t */
#include "abstat.h"
#include "err.h"
#include "resultread.h"
#include "trial/compare_time.h"

struct compare_opts {
	double noise_pct;		/* "negligible" threshold, default 2 */
	double cv_limit_pct;		/* "high variance" threshold, default 10 */
	double alpha;			/* significance level, default 0.05 */
	double fail_regression_pct;	/* < 0: off */
	unsigned boot_iters;		/* default 2000 */
	uint64_t boot_seed;		/* default 1: same input, same output */
	const char *const *expected;	/* job option keys meant to differ (ab); "*": any */
	size_t nr_expected;
	const char *trial_of;		/* --trial-of: the environment entries under trial
					 * ("disk", "kernel,cpu"; compare_trial_of_valid);
					 * NULL: not said, no env_differs judgement */
	const char *incomplete;		/* the trial the runs come from ended early: why
					 * (trialdir.h); NULL: it did not, or no trial */
	int sides_apart;		/* A was measured before B by design (a baseline from
					 * the history): blocks are expected, so the run-order
					 * fit gives the interval instead of "confounded"
					 * (docs/statistics.md, "Baselines") */
};

enum compare_verdict {
	COMPARE_ABSENT,		/* one side lacks the metric */
	COMPARE_SINGLE_RUN,
	COMPARE_BLOCKED,	/* the sides are not comparable for this metric */
	COMPARE_INCONCLUSIVE,	/* the interval straddles a noise bound, or none */
	COMPARE_NEGLIGIBLE,	/* the interval lies within +-noise */
	COMPARE_BETTER,		/* ... beyond it: faster for IOPS/bw */
	COMPARE_WORSE,		/* slower for IOPS/bw */
};

enum compare_method {
	COMPARE_CI_NONE,
	COMPARE_CI_FIELLER,	/* ratio of means, Welch df, order unknown */
	COMPARE_CI_RUN_ORDER,	/* log value on side + run order (abdrift) */
	COMPARE_CI_RANK,	/* Hodges-Lehmann on tied values (abstat_rank) */
};

/* One run's value of a metric. */
struct compare_run {
	const char *file;	/* borrowed from the resultread */
	char side;		/* 'A' or 'B' */
	unsigned order;		/* 1-based place in the run order of both sides; 0 unknown */
	int64_t timestamp_ms;	/* -1 unknown */
	double value;
	int outlier;		/* robust z (median, MAD) above COMPARE_OUTLIER_Z in its side */
};

#define COMPARE_OUTLIER_Z 3.5
#define COMPARE_RUNS_CAP 10000	/* runs a side beyond which "runs needed" is not given */

struct compare_metric {
	const char *name;		/* "read.iops" */
	int lower_better;
	struct abstat_desc a, b;
	double diff_pct;		/* NAN when not computable */
	double ci_lo, ci_hi;		/* % at ci_level by @method, NAN when none */
	double ci_level;		/* 1 - alpha */
	enum compare_method method;
	char method_note[192];		/* why this method ("A's 5 runs are all equal: ...") */
	double boot_lo, boot_hi;	/* % (bootstrap-t), NAN when not computed */
	double p;			/* of @method's test; NAN when none */
	double p_welch;			/* Welch's t-test, NAN when a side has n < 2 */
	double df;			/* of the interval's t (Welch's, or n - 3) */
	int order_known;		/* every run has a distinct timestamp */
	int confounded;			/* side and run order cannot be separated */
	double drift_pct;		/* fitted drift per run in %, NAN unless run_order */
	int high_variance;		/* a side's CV is above the limit (a flag only) */
	long runs_needed;		/* per side, to likely settle "inconclusive"; 0 n/a, -1 too many */
	long runs_for_noise;		/* per side, for a half-width <= noise; 0 n/a, -1 too many */
	struct compare_run *runs;	/* in run order (A's then B's when unknown) */
	size_t nruns;
	double p_mwu;			/* NAN when not computed */
	int mwu_exact;
	char mwu_note[96];
	enum compare_verdict verdict;
	char verdict_text[96];		/* "B is 17.9% faster", "negligible", ... */
	char note[320];			/* the numbers behind the verdict */
	int regression;
};

struct compare_report {
	struct compare_metric *m;
	size_t nm;
	size_t na, nb;
	json_t *side_a, *side_b;	/* {"n", "files", "version", "job", "environment"} */
	json_t *env_diff;		/* [{"key", "a", "b"}], with --trial-of also
					 * "under_trial": false for an environment entry
					 * outside it (warning env_differs) */
	int diff_first;			/* --trial-of: the text shows the differences first */
	char not_under_trial[256];	/* "kernel, cpu": what differs besides the trial */
	json_t *warnings;		/* [{"id", "severity", "message", "side"}] */
	int regressed;			/* some metric is a regression */
	double noise_pct, fail_regression_pct;
	double ci_level;		/* 1 - alpha */
	int order_known;		/* every run has a distinct timestamp */
	int order_by_trial;		/* ... each its trial's start of it (the manifest's
					 * clock), not the result's own */
	size_t failed_a, failed_b;	/* runs dropped for having no I/O */
	struct compare_time time;	/* time per I/O side by side (compare_time.h) */
};

void compare_opts_init(struct compare_opts *o);

/* Compare @b against @a.  *out must be freed with compare_report_free.  0 or -errno. */
int compare_run(struct resultread *const *a, size_t na, struct resultread *const *b,
		size_t nb, const struct compare_opts *o, struct compare_report *out,
		struct err *e);

void compare_report_free(struct compare_report *r);

/* {"a", "b", "metrics", "env_diff", "warnings"}: a new reference, NULL on ENOMEM. */
json_t *compare_json(const struct compare_report *r);

/* The human table.  Returns 0, or -EIO when writing to @f failed. */
int compare_write_text(const struct compare_report *r, FILE *f);

/*
 * Options shared by `iotrial compare` and `iotrial ab`: @name without its
 * leading "--" ("noise", "fail-on-regression", "cv-limit", "alpha",
 * "output-format", "bootstrap-seed"), @value its argument.  Returns 1 when
 * consumed, 0 when @name is not one of them, or -EINVAL (with @e filled).
 */
int compare_parse_option(const char *name, const char *value, struct compare_opts *o,
			 int *json_output, struct err *e);

/*
 * Is @list a valid --trial-of value: comma-separated names of environment
 * entries ("disk": the targets' devices and filesystems; "kernel", "cpu",
 * "memory", "hypervisor", "clock_source", "iommu_groups",
 * "iotrial_version", "host")?  0, or -EINVAL with @e filled.
 */
int compare_trial_of_valid(const char *list, struct err *e);

/* The --help lines for those options (for the CLI to print). */
extern const char compare_options_help[];

/*
 * The @i-th metric compare knows, in its order ("read.iops" first), or NULL
 * past the last; *@lower_better (when not NULL) says which way is better.
 */
const char *compare_metric_at(size_t i, int *lower_better);

/* True when @name is a metric compare knows ("read.iops", ...). */
int compare_metric_known(const char *name);

/* @name's value in result @r; 0 when present, -ENOENT when not. */
int compare_metric_value(const struct resultread *r, const char *name, double *out);

/*
 * One metric over the two sides (what ab uses for its running CI): every
 * figure of compare_run's metric except the per-run values (@out->runs is
 * NULL; nothing to free).
 */
int compare_one(struct resultread *const *a, size_t na, struct resultread *const *b,
		size_t nb, const char *name, const struct compare_opts *o,
		struct compare_metric *out);

/* Free @m's per-run values (compare_report_free does it for a report). */
void compare_metric_free(struct compare_metric *m);

/*
 * compare_verdict.c: decide @m's verdict, note, regression and runs needed
 * from its interval (ci_lo, ci_hi, method, confounded already filled);
 * @block, when not NULL, is why no verdict may be given.
 */
void compare_verdict_decide(struct compare_metric *m, const struct compare_opts *o,
			    const char *block);

/* "inconclusive", "better", ... (the JSON "verdict_kind"). */
const char *compare_verdict_kind(enum compare_verdict v);

/* "fieller", "run_order", "rank", "none". */
const char *compare_method_name(enum compare_method m);

#endif
