/*
 * report_html_page: what the run and the compare HTML reports share (not a
 * public API): the page frame and its CSS, escaping and number formats,
 * the latency-by-percentile curve from a latency object's bins or
 * percentiles, and its chart.
 */
#ifndef IOTRIAL_REPORT_HTML_PAGE_H
#define IOTRIAL_REPORT_HTML_PAGE_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>
#include "lib/human.h"	/* human_ns, human_count, human_rate: the pages' numbers */
#include "report/svg.h"

/* <!doctype html> ... <body>, with the inline stylesheet. */
void report_html_page_begin(FILE *f, const char *title);

/* The footer and </body></html>. */
void report_html_page_end(FILE *f);

/* Text escaped for HTML. */
void report_html_esc(FILE *f, const char *s);

/* printf-style text, escaped. */
void report_html_escf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One plausibility warning (plausibility.h's JSON) as a list item: severity, the
 * side ("a"/"b") when it has one, id and message, escaped. */
void report_html_warning_li(FILE *f, const json_t *w);

/* Value formats for tables: "-" for NaN. */

/* A number from @o[@key] (integer, real, or a numeric string); NaN when absent. */
double report_html_num(const json_t *o, const char *key);

/*
 * The latency object of a direction to draw: "lat_ns" when it has
 * percentiles or bins (lat_percentiles=1), else "clat_ns"; *which says
 * which ("total latency" / "completion latency").  NULL when neither.
 */
const json_t *report_html_lat(const json_t *dir, const char **which);

#define REPORT_HTML_CURVE_PTS 64

/* Latency (ns) by percentile; x is "nines": -log10(1 - p/100), p50 = 0.30, p99 = 2. */
struct report_html_curve {
	double x[REPORT_HTML_CURVE_PTS], y[REPORT_HTML_CURVE_PTS];
	size_t n;
	int from_bins;	/* from json+ bins (else fio's percentile list) */
};

/* Fill @c from @lat's bins (preferred) or its percentiles, p50 and up; 0, or -ENOENT. */
int report_html_curve(const json_t *lat, struct report_html_curve *c);

/*
 * The latency-by-percentile chart of @n curves (@labels: their tooltips,
 * @styles), log latency axis, a legend of @nl entries (@legend, @lstyles);
 * @note (may be NULL) goes under it as a caption.
 */
void report_html_curve_chart(FILE *f, const char *id, const char *title,
			     const struct report_html_curve *c, const char *const *labels,
			     const unsigned *styles, size_t n, const char *const *legend,
			     const unsigned *lstyles, size_t nl, const char *note);

/* <figure> around a chart and its caption. */
void report_html_fig_begin(FILE *f);
void report_html_fig_end(FILE *f, const char *caption);

#endif
