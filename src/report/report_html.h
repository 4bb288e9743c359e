/*
 * report_html: self-contained HTML reports with inline SVG charts
 * (svg.h): one for result files (`iotrial report`), one for a comparison
 * (`iotrial compare --output-format=html`) and the same with the trial's
 * runs for `iotrial ab` (its report.html).
 *
 * A page is one HTML file: inline CSS, inline SVG, no scripts, no fonts or
 * anything else fetched from elsewhere; it reads without JavaScript and
 * prints (charts do not break across pages).  Long time series are drawn
 * downsampled to at most REPORT_HTML_MAX_POINTS points per line (averages of
 * k intervals, which the chart states) so that a long run stays small.
 *
 * The reports read the result files' JSON as written (iotrial's or fio's
 * json/json+): what a file lacks (fio has no time series, no environment)
 * is said on the page, not invented.  The writers only write to the FILE *
 * they are given; the caller makes the file appear whole or not at all
 * (outfile.h).
 */
#ifndef IOTRIAL_REPORT_HTML_H
#define IOTRIAL_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>	/* json_t */
#include "lib/err.h"
#include "result/resultread.h"

#define REPORT_HTML_MAX_POINTS 300

/*
 * Load @path as a run result (iotrial's JSON or fio's json/json+), checked
 * as `iotrial compare` checks it (resultread.h) and refused when it is a
 * compare or ab report instead.  *root is a new reference.  0, or -errno
 * with @e filled (EXIT_USAGE, one line naming the file).
 */
int report_html_load(const char *path, json_t **root, struct err *e);

/* The run report of @n results (@names[i] is shown as the file's name).  0, or -EIO. */
int report_html_run(FILE *f, json_t *const *roots, const char *const *names, size_t n);

/* One run of a comparison: its file, its JSON, its summary and its side ('A'/'B'). */
struct report_html_run {
	const char *name;
	json_t *root;
	const struct resultread *res;
	char side;
};

/*
 * Load the JSON of every result in @a and @b (their ->path) into *runs
 * (A's then B's); free with report_html_runs_free.  0 or -errno with @e set.
 */
int report_html_runs_load(struct resultread *const *a, size_t na, struct resultread *const *b,
			  size_t nb, struct report_html_run **runs, size_t *n, struct err *e);

void report_html_runs_free(struct report_html_run *runs, size_t n);

/*
 * The comparison report: @cmp is compare_json()'s object, @runs the runs of
 * both sides (drawn in run order: by the results' timestamps).  @trial, when
 * not NULL, is `iotrial ab`'s manifest (order, seed, stop rule, runs) and
 * makes it an A/B trial report; @note, when not NULL, is shown under the
 * headline (e.g. "interrupted after 3 runs").  0, or -EIO.
 */
int report_html_compare(FILE *f, const json_t *cmp, const struct report_html_run *runs,
			size_t n, const json_t *trial, const char *note);

#endif
