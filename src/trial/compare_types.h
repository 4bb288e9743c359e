/*
 * compare_types: what a comparison is asked (struct compare_opts) and what
 * it reports (struct compare_report, one struct compare_metric per metric);
 * compare.h says what the fields mean for a reader.  In a header of its own
 * so that the parts compare.c calls (compare_stats.h, compare_warn.h) see
 * the types without including compare.h: they sit below compare.c, and the
 * modules form no include loop.
 */
#ifndef IOTRIAL_COMPARE_TYPES_H
#define IOTRIAL_COMPARE_TYPES_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>	/* json_t */
#include "lib/abstat.h"	/* struct abstat_desc */
#include "trial/compare_time.h"	/* struct compare_time */

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

/*
 * What a metric is: compare.c's table says it for each metric, and the text,
 * the JSON ("kind"), the HTML page, the history and the --fail-on-regression
 * gate all read it from there (compare_metric_kind).
 */
enum compare_kind {
	COMPARE_SCORE,		/* a figure of merit with a direction (IOPS, bandwidth,
				 * latency, CPU per I/O): faster/slower or better/worse,
				 * counted in the headline and by the gate */
	COMPARE_REFEREE,	/* a score that explains the scores (the device's latency,
				 * where each I/O's time went): better/worse, counted in
				 * the headline, never by the gate */
	COMPARE_DESCRIPTION,	/* describes the run (device.queue_depth: a deeper queue
				 * is neither good nor bad): higher/lower, never better or
				 * worse; counted nowhere, drawn on no difference chart */
};

enum compare_verdict {
	COMPARE_ABSENT,		/* one side lacks the metric */
	COMPARE_SINGLE_RUN,
	COMPARE_BLOCKED,	/* the sides are not comparable for this metric */
	COMPARE_INCONCLUSIVE,	/* the interval straddles a noise bound, or none */
	COMPARE_NEGLIGIBLE,	/* the interval lies within +-noise */
	COMPARE_BETTER,		/* ... beyond it: faster for IOPS/bw */
	COMPARE_WORSE,		/* slower for IOPS/bw */
	COMPARE_DIFFERS,	/* a description whose interval lies beyond +-noise:
				 * B's is higher or lower, neither better nor worse */
};

enum compare_method {
	COMPARE_CI_NONE,
	COMPARE_CI_FIELLER,	/* ratio of means, Welch df, order unknown */
	COMPARE_CI_RUN_ORDER,	/* log value on side + run order (abdrift) */
	COMPARE_CI_RANK,	/* Hodges-Lehmann on tied values (abstat_rank) */
	COMPARE_CI_SWEEP,	/* one sweep a side: from the sweeps' SLO intervals */
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
	enum compare_kind kind;
	int lower_better;		/* a score's direction (0 for a description) */
	struct abstat_desc a, b;
	double diff_pct;		/* NAN when not computable */
	double ci_lo, ci_hi;		/* % at ci_level by @method, NAN when none */
	double ci_level;		/* 1 - alpha */
	enum compare_method method;
	char method_note[192];		/* why this method ("A's 5 runs are all equal: ...") */
	char method_why[160];		/* why not the run-order fit, when Fieller gave the
					 * interval ("the run order is not known", "4 runs
					 * are too few ..."); "" otherwise */
	double boot_lo, boot_hi;	/* % (bootstrap-t), NAN when not computed */
	double p;			/* of @method's test; NAN when none */
	double p_welch;			/* Welch's t-test, NAN when a side has n < 2 */
	double df;			/* of the interval's t (Welch's, or n - 3) */
	int order_known;		/* every run has a distinct timestamp */
	int confounded;			/* side and run order cannot be separated */
	double drift_pct;		/* fitted drift per run in %, NAN unless run_order */
	int high_variance;		/* a side's CV is above the limit (a flag only) */
	/*
	 * The one "runs needed" figure (compare_verdict.c, docs/statistics.md):
	 * runs a side at which the interval's half-width would likely fall to
	 * the distance between its centre and the nearest noise bound, so that
	 * "inconclusive" settles.  0 n/a (not inconclusive), -1 beyond
	 * COMPARE_RUNS_CAP or not settled by more runs.
	 */
	long runs_needed;
	struct compare_run *runs;	/* in run order (A's then B's when unknown) */
	size_t nruns;
	double p_mwu;			/* NAN when not computed */
	int mwu_exact;
	char mwu_note[96];
	enum compare_verdict verdict;
	char verdict_text[96];		/* "B is 17.9% faster", "negligible", ... */
	char note[320];			/* the numbers behind the verdict */
	int regression;
	/*
	 * The name of the metric whose per-run values this one's are a fixed
	 * multiple of (within COMPARE_SAME_TOL, run for run: read.iops of a
	 * read-only job is total.iops, read.bw_bytes at a fixed bs is it times
	 * bs): the same relative difference, interval and verdict, so the
	 * renderers fold it into that one (total.iops when it is one of them,
	 * else the first in table order).  NULL otherwise.
	 */
	const char *same_as;
};

#define COMPARE_SAME_TOL 1e-4	/* relative: integer-rounded figures (bw_bytes) still match */

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

#endif
