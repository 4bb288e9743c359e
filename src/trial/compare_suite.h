/*
 * compare_suite: A/B over a suite (a preset, or any result with several
 * jobs run one after another): one row per test, paired by job name.
 *
 * compare.c summarises a file over all its jobs, which for a stonewalled
 * suite adds up tests that never ran together.  Here each file is split by
 * job name ("jobname"; numjobs clones of one name stay together): for every
 * name, the runs of each side that hold it form one resultread set, and
 * compare_one() gives that test's difference, interval and verdict, with the
 * same rules and options as compare itself.  The metric of a row is the
 * test's IOPS in its own direction: read.iops or write.iops when the job did
 * only reads or only writes (for a fixed block size its bandwidth differs by
 * exactly the same ratio), total.iops when it did both.
 *
 * A file counts as a suite when it has two or more distinct job names; when
 * no file of either side does, there are no rows.  Tests are listed in the
 * order of their first appearance (A's files first).  A test missing from
 * every run of one side gets a row saying so and no verdict.
 *
 * Each compared test also gets its time breakdown side by side
 * (compare_time.h) and its own device.* rows (device.lat_mean_ns,
 * device.queue_depth), both from that test's jobs alone: their device views
 * cover the test's own window, never another test's, and each side's window
 * is named (compare_time's window_a/window_b).  Like the main table's, the
 * device rows referee: they never count as a regression.
 */
#ifndef IOTRIAL_COMPARE_SUITE_H
#define IOTRIAL_COMPARE_SUITE_H

#include <stdio.h>
#include <jansson.h>	/* json_t */
#include "trial/compare.h"
#include "trial/compare_time.h"
#include "lib/err.h"
#include "result/resultread.h"

#define COMPARE_SUITE_DEV 2	/* device.lat_mean_ns, device.queue_depth */

struct compare_suite_row {
	char test[128];			/* the job name */
	char metric[24];		/* "read.iops", "write.iops", "total.iops" */
	size_t na, nb;			/* runs of each side that hold the test */
	int compared;			/* both sides have it: @m is filled */
	struct compare_metric m;
	struct compare_time time;	/* the test's breakdown per side; .valid 0 when unknown;
					 * its window_a/b name the device rows' windows */
	struct compare_metric dev[COMPARE_SUITE_DEV];	/* the test's device.* rows */
	size_t ndev;			/* how many of @dev both sides have (0: none) */
};

struct compare_suite {
	struct compare_suite_row *rows;
	size_t nr;			/* 0: the files are not suites */
};

/*
 * Compare @b against @a test by test.  Each file is read again from its
 * path (r->path) to split it by job.  *out must be freed with
 * compare_suite_free.  Returns 0, or -errno with @e filled (EXIT_USAGE for a
 * file that cannot be read again, EXIT_INTERNAL when out of memory).
 */
int compare_suite_run(struct resultread *const *a, size_t na, struct resultread *const *b,
		      size_t nb, const struct compare_opts *o, struct compare_suite *out,
		      struct err *e);

void compare_suite_free(struct compare_suite *s);

/* The table, one row per test.  Returns 0, or -EIO when writing failed. */
int compare_suite_write_text(const struct compare_suite *s, FILE *f);

/* [{"test", "metric", "n_a", "n_b", "a_mean", "b_mean", "diff_pct", "ci_lo", "ci_hi",
 *   "p", "verdict", "regression", "time", "device": {"window_a", "window_b",
 *   "metrics": [{"name", "n_a", "n_b", "a_mean", "b_mean", "diff_pct", "ci_lo",
 *   "ci_hi", "p", "verdict"}]}}]: a new reference, NULL on ENOMEM. */
json_t *compare_suite_json(const struct compare_suite *s);

#endif
