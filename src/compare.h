/*
 * compare: is B faster than A, by how much, and how sure can we be?
 *
 * Input: two sets of loaded results (resultread), one file per run.  Per
 * metric (read/write/trim/total IOPS, bandwidth, mean and p99 latency, CPU
 * per I/O; a metric absent from every file is skipped) it reports each
 * side's mean, sd and n; the relative difference (B - A) / A; its 95%
 * confidence interval (Fieller's interval for a ratio of means with Welch's
 * degrees of freedom, see abstat.h; a seeded percentile bootstrap too when
 * both sides have 5 runs or more); the p-value of Welch's t-test (and of
 * Mann-Whitney U, with a note when the sample is too small for it to ever
 * reach significance); and a verdict, decided in this order:
 *   "single run: no significance can be claimed"   a side has one run;
 *   "high variance"              CV of either side above the limit (10%);
 *   "no significant difference"  p >= alpha (0.05) or the CI spans 0;
 *   "negligible"                 |diff| within the noise threshold (2%);
 *   "B is X% faster|slower"      IOPS and bandwidth (higher is better),
 *   "B is X% better|worse"       latency and CPU per I/O (lower is better).
 * A regression (for --fail-on-regression) is a difference in the bad
 * direction, beyond the given percentage, with p < alpha and a CI excluding
 * 0, whatever the variance label says.
 * It also lists what differs between the sides (job options as "job.<key>",
 * environment as flattened keys), repeats each file's plausibility checks
 * (grouped per side and id), and adds its own: single_run, few_runs,
 * job_differs, many_differences, side_mixed, env_missing.
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

struct compare_opts {
	double noise_pct;		/* "negligible" threshold, default 2 */
	double cv_limit_pct;		/* "high variance" threshold, default 10 */
	double alpha;			/* significance level, default 0.05 */
	double fail_regression_pct;	/* < 0: off */
	unsigned boot_iters;		/* default 2000 */
	uint64_t boot_seed;		/* default 1: same input, same output */
	const char *const *expected;	/* job option keys meant to differ (ab); "*": any */
	size_t nr_expected;
};

enum compare_verdict {
	COMPARE_ABSENT,		/* one side lacks the metric */
	COMPARE_SINGLE_RUN,
	COMPARE_HIGH_VARIANCE,
	COMPARE_NOT_SIGNIFICANT,
	COMPARE_NEGLIGIBLE,
	COMPARE_BETTER,		/* faster for IOPS/bw */
	COMPARE_WORSE,		/* slower for IOPS/bw */
};

struct compare_metric {
	const char *name;		/* "read.iops" */
	int lower_better;
	struct abstat_desc a, b;
	double diff_pct;		/* NAN when not computable */
	double ci_lo, ci_hi;		/* % (Fieller), NAN when not computable */
	double boot_lo, boot_hi;	/* % (bootstrap), NAN when not computed */
	double p;			/* Welch, NAN when a side has n < 2 */
	double df;
	double p_mwu;			/* NAN when not computed */
	int mwu_exact;
	char mwu_note[96];
	enum compare_verdict verdict;
	char verdict_text[64];		/* "B is 17.9% faster", "negligible", ... */
	char note[128];			/* the numbers behind the verdict */
	int regression;
};

struct compare_report {
	struct compare_metric *m;
	size_t nm;
	size_t na, nb;
	json_t *side_a, *side_b;	/* {"n", "files", "version", "job", "environment"} */
	json_t *env_diff;		/* [{"key", "a", "b"}] */
	json_t *warnings;		/* [{"id", "severity", "message", "side"}] */
	int regressed;			/* some metric is a regression */
	double noise_pct, fail_regression_pct;
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

/* The --help lines for those options (for the CLI to print). */
extern const char compare_options_help[];

/* True when @name is a metric compare knows ("read.iops", ...). */
int compare_metric_known(const char *name);

/* @name's value in result @r; 0 when present, -ENOENT when not. */
int compare_metric_value(const struct resultread *r, const char *name, double *out);

/* One metric over the two sides (what ab uses for its running CI). */
int compare_one(struct resultread *const *a, size_t na, struct resultread *const *b,
		size_t nb, const char *name, const struct compare_opts *o,
		struct compare_metric *out);

#endif
