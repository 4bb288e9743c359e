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
 *   "B is L..H% higher|lower"  the same for a description of the run
 *                     (device.queue_depth), which has no better side;
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
 * "worse" verdict of a score (not a referee: compare_types.h) whose whole
 * interval lies beyond T in the bad direction.
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
#include "lib/err.h"
#include "result/resultread.h"
#include "trial/compare_types.h"	/* struct compare_opts, compare_metric, compare_report */

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

/*
 * What @name is (compare_types.h, enum compare_kind): a score, a referee or
 * a description, from the one table of metrics; COMPARE_SCORE when unknown.
 */
enum compare_kind compare_metric_kind(const char *name);

/* "score", "referee", "description": the JSON "kind". */
const char *compare_kind_name(enum compare_kind k);

/*
 * The unit of @name's values (its JSON "unit"): one of the COMPARE_UNIT_*
 * strings, NULL for a metric compare does not know.  Renderers format and
 * label a metric's values from its unit, never from its name.
 */
#define COMPARE_UNIT_IOPS "IOPS"
#define COMPARE_UNIT_BW "B/s"
#define COMPARE_UNIT_NS "ns"
#define COMPARE_UNIT_DEPTH "I/Os in flight"
const char *compare_metric_unit(const char *name);

/* What @name measures, for people ("read p99 latency"); NULL when unknown. */
const char *compare_metric_label(const char *name);

/* True when @name is a metric compare knows ("read.iops", ...). */
int compare_metric_known(const char *name);

/* @name's value in result @r; 0 when present, -ENOENT when not. */
int compare_metric_value(const struct resultread *r, const char *name, double *out);

/*
 * @name's own interval in result @r, when its document gives one: a
 * sweep's SLO capacity (slo.iops), from its interval's low end to the step
 * above its high end, where the capacity lies under (docs/sweep.md).  0
 * with [*@lo, *@hi], or -ENOENT (both NAN) for a metric that has none.
 */
int compare_metric_interval(const struct resultread *r, const char *name, double *lo, double *hi);

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

/*
 * What an interval method is, in the words every renderer uses beside a
 * figure it made: the JSON's "ci_method" and "test" ids, a short label for
 * a table cell and a sentence for a footnote, for the interval and its test.
 */
struct compare_method_desc {
	const char *name;		/* "run_order": the JSON "ci_method" */
	const char *test_id;		/* "ols_side_run_order": the JSON "test" */
	const char *label;		/* "run-order fit" */
	const char *interval;		/* the interval, in a sentence */
	const char *test_label;		/* "t (side)" */
	const char *test;		/* the p-value's test, in a sentence */
};

const struct compare_method_desc *compare_method_desc(enum compare_method m);

/* The description of "ci_method" @name; NULL when it is not one. */
const struct compare_method_desc *compare_method_find(const char *name);

#endif
