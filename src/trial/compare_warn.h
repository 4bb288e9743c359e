/*
 * compare_warn: the warnings of a comparison, and the run sequence they and
 * compare.c share.  Internal to trial/compare*.c.
 */
#ifndef IOTRIAL_COMPARE_WARN_H
#define IOTRIAL_COMPARE_WARN_H

#include <stddef.h>
#include <jansson.h>
#include "trial/compare_types.h"	/* struct compare_opts, compare_metric, compare_report */

/*
 * Both sides' runs in run order.  The order is known when every run has a
 * distinct timestamp (iotrial's and fio's "timestamp_ms", else "timestamp");
 * otherwise it is A's runs, then B's, as given, and nothing is inferred from it.
 */
struct seq_item {
	struct resultread *r;
	char side;
};

struct seq {
	struct seq_item *v;
	size_t n;
	int known;
};

/* Append a warning object to @arr; @side is "a", "b" or NULL. */
void compare_warn(json_t *arr, const char *id, const char *sev, const char *side,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* What the option and environment differences mean for the verdicts (target_* warnings). */
void compare_warn_diff(const json_t *diff, const struct compare_opts *o, json_t *warnings);

/*
 * --trial-of: mark each environment difference in r->env_diff as under
 * trial or not, warn env_differs about those that are not (the host name
 * alone is never a cause), fill r->not_under_trial and r->diff_first.
 */
void compare_warn_env(struct compare_report *r, const struct compare_opts *o);

/* --trial-of: every faster/slower/negligible verdict's note names what else differs. */
void compare_warn_env_verdicts(struct compare_report *r, const struct compare_opts *o);

/* Does a side mix different jobs or directions?  Warns and returns 1 when it does. */
int compare_warn_side_mixed(struct resultread *const *v, size_t n, const char *side,
			    json_t *warnings);

/* Do the sides run different job sets under the same options?  Warns, returns 1. */
int compare_warn_jobs_differ(const struct resultread *a, const struct resultread *b,
			     const json_t *diff, json_t *warnings);

/* Each side's per-run plausibility checks (plausibility.h), counted over its runs.  0 or -ENOMEM. */
int compare_warn_side_checks(struct resultread *const *v, size_t n, const char *side,
			     json_t *warnings);

/* A and B limited by different things (bottleneck.h): the bottleneck_differs warning. */
void compare_warn_bottleneck(struct resultread *const *a, struct resultread *const *b,
			     json_t *warnings);

/* Too few runs, and an environment recorded for one side only. */
void compare_warn_runs(struct resultread *const *a, size_t na, struct resultread *const *b,
		       size_t nb, json_t *warnings);

/* r->env_diff: the job options, disks and environment that differ.  0 or -errno (@e). */
int compare_warn_build_diff(struct compare_report *r, struct resultread *const *a,
			    struct resultread *const *b, struct err *e);

/* Runs without any I/O (failed runs) left out of *@out, with a warning naming them. */
int compare_warn_drop_zero_io(struct resultread *const *v, size_t n, const char *side,
			      struct resultread ***out, size_t *nout, json_t *warnings);

/* Run order unknown, or in blocks (the verdicts then say inconclusive). */
void compare_warn_order(const struct seq *s, const struct compare_opts *o, json_t *warnings);

/* One warning per run flagged as an outlier, listing the metrics. */
void compare_warn_outliers(const struct compare_report *r, const struct seq *s);

#endif
