/*
 * history_html: the history's HTML pages -- the trend chart and the run
 * list -- in the reports' frame (report_html_page.h) with svg.h's charts:
 * self-contained, no scripts.
 *
 * The trend chart puts runs in time order on x (run 1 is the oldest; the
 * table under it gives the dates), each run's value with its own spread as
 * a whisker (+- the sd of its interval samples), and the band the runs
 * before it make (mean +- 2 sd, history_trend.c): a run that falls out of it
 * on the bad side is drawn with its own marker.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "history/history.h"
#include "report/report_html_page.h"
#include "report/svg.h"

#define STYLE_VALUE 0
#define STYLE_MEAN 1
#define STYLE_OUT 3

static void fmt_date(int64_t ms, char *buf, size_t sz)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sz, "%Y-%m-%d %H:%M:%S", &tm);
}

static void fmt_metric(const struct history_trend *t, double v, char *buf, size_t sz)
{
	if (strstr(t->metric, "_ns"))
		human_ns(buf, sz, v, HUMAN_PAGE);
	else if (strstr(t->metric, "bw_bytes"))
		human_rate(buf, sz, v, HUMAN_PAGE);
	else
		human_count(buf, sz, v, HUMAN_PAGE);
}

/* The band as one filled path per stretch of points that have one. */
static void band_paths(struct svg_chart *c, const struct history_trend *t)
{
	size_t i = 0, a, k;

	while (i < t->n) {
		while (i < t->n && !isfinite(t->p[i].band_mean))
			i++;
		a = i;
		while (i < t->n && isfinite(t->p[i].band_mean))
			i++;
		if (i - a < 1)
			continue;
		fprintf(c->f, "<path class=\"trend-band\" fill=\"%s\" fill-opacity=\"0.16\" "
			"stroke=\"none\" d=\"", svg_style_colour(STYLE_MEAN));
		for (k = a; k < i; k++)
			fprintf(c->f, "%c%.1f,%.1f", k == a ? 'M' : 'L',
				svg_scale_map(&c->x, (double)(k + 1)),
				svg_scale_map(&c->y, t->p[k].band_mean + 2 * t->p[k].band_sd));
		for (k = i; k-- > a;)	/* the figures are never negative: the band stops at 0 */
			fprintf(c->f, "L%.1f,%.1f", svg_scale_map(&c->x, (double)(k + 1)),
				svg_scale_map(&c->y, fmax(0, t->p[k].band_mean - 2 * t->p[k].band_sd)));
		fputs("Z\"><title>mean +- 2 sd of the runs before</title></path>", c->f);
	}
}

static void whiskers(struct svg_chart *c, const struct history_trend *t)
{
	size_t i;

	fprintf(c->f, "<g class=\"run-spread\" stroke=\"%s\" stroke-width=\"1\">",
		svg_style_colour(STYLE_VALUE));
	for (i = 0; i < t->n; i++) {
		const struct history_trend_point *p = &t->p[i];
		double x;

		double lo = p->value - p->within_sd, hi = p->value + p->within_sd;

		if (isfinite(p->lo) && isfinite(p->hi)) {	/* its own interval (a sweep's) */
			lo = p->lo;
			hi = p->hi;
		} else if (!isfinite(p->within_sd) || !(p->within_sd > 0)) {
			continue;
		}
		x = svg_scale_map(&c->x, (double)(i + 1));
		fprintf(c->f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", x, x,
			svg_scale_map(&c->y, lo), svg_scale_map(&c->y, hi));
	}
	fputs("</g>", c->f);
}

static void trend_chart(FILE *f, const struct history_trend *t)
{
	const char *const legend[] = { history_trend_has_intervals(t) ?
		"run (whisker: its own interval)" : "run (whisker: its own sd)",
		"mean of the runs before", t->description ? "outside the band" : "outside the band, worse" };
	static const unsigned styles[] = { STYLE_VALUE, STYLE_MEAN, STYLE_OUT };
	struct svg_chart_spec sp = { 0 };
	struct svg_chart c;
	double lo = INFINITY, hi = -INFINITY, *xy;
	char title[160], desc[400], tip[200], v[32], when[24], ylabel[64];
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct history_trend_point *p = &t->p[i];
		double s = isfinite(p->within_sd) ? p->within_sd : 0;

		lo = fmin(lo, p->value - s);
		hi = fmax(hi, p->value + s);
		if (isfinite(p->lo) && isfinite(p->hi)) {
			lo = fmin(lo, p->lo);
			hi = fmax(hi, p->hi);
		}
		if (isfinite(p->band_mean)) {
			lo = fmin(lo, fmax(0, p->band_mean - 2 * p->band_sd));
			hi = fmax(hi, p->band_mean + 2 * p->band_sd);
		}
	}
	if (lo > 0 && lo < (hi - lo))
		lo = 0;		/* near zero anyway: show the axis from 0 */
	snprintf(title, sizeof(title), "%s over %zu runs", t->metric, t->n);
	snprintf(desc, sizeof(desc), "%s of each run of %s in time order, with the band of the "
		 "%zu runs before each (mean +- 2 sd)", t->metric, t->key.dev_id, t->band_runs);
	sp.id = "trend";
	sp.title = title;
	sp.desc = desc;
	sp.xlabel = "run, oldest to newest";
	snprintf(ylabel, sizeof(ylabel), "%s%s", t->metric, strstr(t->metric, "_ns") ? "" :
		 strstr(t->metric, "bw_bytes") ? " (bytes/s)" : strstr(t->metric, "iops") ?
		 " (I/O per s)" : "");
	sp.ylabel = ylabel;
	sp.xkind = SVG_LINEAR;
	sp.ykind = SVG_LINEAR;
	sp.xfmt = SVG_FMT_NUM;
	sp.yfmt = strstr(t->metric, "_ns") ? SVG_FMT_NS : SVG_FMT_NUM;
	sp.xlo = 0.5;
	sp.xhi = (double)t->n + 0.5;
	sp.ylo = lo;
	sp.yhi = hi;
	sp.ynice = 1;
	sp.width = 900;
	sp.height = 340;
	sp.left = 72;
	sp.xmin_step = 1;
	report_html_fig_begin(f);
	svg_chart_begin(&c, f, &sp);
	band_paths(&c, t);
	whiskers(&c, t);
	xy = malloc(2 * sizeof(*xy) * (t->n ? t->n : 1));
	if (xy) {	/* without memory the markers below still draw the runs */
		for (i = 0; i < t->n; i++) {
			xy[i] = (double)(i + 1);
			xy[t->n + i] = t->p[i].band_mean;
		}
		svg_chart_line(&c, STYLE_MEAN, xy, xy + t->n, t->n, "mean of the runs before");
		for (i = 0; i < t->n; i++)
			xy[t->n + i] = t->p[i].value;
		svg_chart_line(&c, STYLE_VALUE, xy, xy + t->n, t->n, t->metric);
		free(xy);
	}
	for (i = 0; i < t->n; i++) {
		const struct history_trend_point *p = &t->p[i];

		fmt_metric(t, p->value, v, sizeof(v));
		fmt_date(p->start_ms, when, sizeof(when));
		snprintf(tip, sizeof(tip), "run %lld, %s UTC: %s%s%s", (long long)p->id, when, v,
			 t->description ? (p->outside ? " (outside the band)" : p->jump_side ?
					   " (a jump before the band formed)" : "") :
			 p->outside > 0 ? " (outside the band, worse)" :
			 p->jump_side > 0 ? " (a jump before the band formed, worse)" : "",
			 p->labels[0] ? " -- " : "");
		if (p->labels[0])
			snprintf(tip + strlen(tip), sizeof(tip) - strlen(tip), "%s", p->labels);
		svg_chart_marker(&c, (t->description ? p->outside || p->jump_side :
				      p->outside > 0 || p->jump_side > 0) ? STYLE_OUT : STYLE_VALUE,
				 (double)(i + 1),
				 p->value, tip);
	}
	svg_chart_legend(&c, legend, styles, 3);
	svg_chart_end(&c);
	report_html_fig_end(f, history_trend_has_intervals(t) ? "Each point is one run; its "
			    "whisker is its own interval (" HISTORY_TREND_INTERVAL_WHAT "). The "
			    "shaded band is the mean +- 2 sd of the runs before each point: "
			    "descriptive, not a test. history compare gives compare's interval and "
			    "verdict." : "Each point is one run; its whisker is +- the sd of its own "
			    "interval samples (IOPS and bandwidth). The shaded band is the mean "
			    "+- 2 sd of the runs before each point: descriptive, not a test. "
			    "history compare gives compare's interval and verdict.");
}

/* One table cell: <td> (class "n": a number) with @text escaped. */
static void cell(FILE *f, int num, const char *text)
{
	fputs(num ? "<td class=\"n\">" : "<td>", f);
	report_html_esc(f, text);
	fputs("</td>", f);
}

int history_write_trend_html(FILE *f, const struct history_trend *t)
{
	char title[288], v[32], sd[32], lo[32], hi[32], band[72], when[24], first[24], last[24];
	char num[32];
	size_t i, nout = 0;

	snprintf(title, sizeof(title), "iotrial history: %s on %s", t->metric, t->key.dev_id);
	report_html_page_begin(f, title);
	fputs("<h1>", f);
	report_html_esc(f, title);
	fputs("</h1>\n<p class=\"meta\">", f);
	fmt_date(t->n ? t->p[0].start_ms : 0, first, sizeof(first));
	fmt_date(t->n ? t->p[t->n - 1].start_ms : 0, last, sizeof(last));
	report_html_escf(f, "%zu runs from %s to %s UTC, %s window; %s. Workload: %s [%s]",
			 t->n, first, last, t->window, history_trend_direction(t),
			 t->key.sig_text, t->key.sig);
	fputs("</p>\n", f);
	for (i = 0; i < t->n; i++)
		nout += !t->description && t->p[i].outside > 0;
	if (nout) {
		fputs("<p class=\"verdict bad\">", f);
		report_html_escf(f, "%zu run(s) outside the band on the bad side", nout);
		fputs("</p>\n", f);
	}
	fputs("<div class=\"charts\">", f);
	trend_chart(f, t);
	fputs("</div>\n<h2>Runs</h2>\n<table><tr><th>#</th><th>run</th><th>start (UTC)</th>"
	      "<th>value</th>", f);
	fputs(history_trend_has_intervals(t) ? "<th>run interval</th>" : "<th>run sd</th>", f);
	fputs("<th>band</th><th>outside</th><th>labels</th></tr>\n", f);
	for (i = 0; i < t->n; i++) {
		const struct history_trend_point *p = &t->p[i];

		fmt_date(p->start_ms, when, sizeof(when));
		fmt_metric(t, p->value, v, sizeof(v));
		fmt_metric(t, p->within_sd, sd, sizeof(sd));
		if (isfinite(p->lo) && isfinite(p->hi)) {
			fmt_metric(t, p->lo, lo, sizeof(lo));
			fmt_metric(t, p->hi, hi, sizeof(hi));
			snprintf(sd, sizeof(sd), "%.14s..%.14s", lo, hi);
		}
		fmt_metric(t, fmax(0, p->band_mean - 2 * p->band_sd), lo, sizeof(lo));
		fmt_metric(t, p->band_mean + 2 * p->band_sd, hi, sizeof(hi));
		snprintf(band, sizeof(band), "%s..%s", lo, hi);
		fputs("<tr>", f);
		snprintf(num, sizeof(num), "%zu", i + 1);
		cell(f, 1, num);
		snprintf(num, sizeof(num), "%lld", (long long)p->id);
		cell(f, 1, num);
		cell(f, 0, when);
		cell(f, 1, v);
		cell(f, 1, sd);
		cell(f, 1, isfinite(p->band_mean) ? band : "");
		if (p->jump_side) {
			snprintf(num, sizeof(num), "%s (jump %+.0f%%)", t->description ?
				 (p->jump_side > 0 ? "lower" : "higher") : p->jump_side > 0 ? "worse" :
				 "better", 100 * p->jump);
			cell(f, 0, num);
		} else if (t->description) {
			/* a description's sides as a higher-is-better score's: 1 is below */
			cell(f, 0, p->outside > 0 ? "lower" : p->outside < 0 ? "higher" : "");
		} else {
			cell(f, 0, p->outside > 0 ? "worse" : p->outside < 0 ? "better" : "");
		}
		cell(f, 0, p->labels);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	if (t->other_sigs) {
		fputs("<p class=\"missing\">", f);
		report_html_escf(f, "%zu other job signature(s) on this device are not in this trend "
				 "(history trend --sig=SIG).", t->other_sigs);
		fputs("</p>\n", f);
	}
	report_html_page_end(f);
	return ferror(f) ? -1 : 0;
}

int history_write_list_html(FILE *f, const struct history_run *runs, size_t n)
{
	char when[24], iops[24], bw[32], lat[24], id[40];
	size_t i;

	report_html_page_begin(f, "iotrial history");
	fputs("<h1>iotrial history</h1>\n<p class=\"meta\">", f);
	report_html_escf(f, "%zu runs, newest first", n);
	fputs("</p>\n<table><tr><th>run</th><th>start (UTC)</th><th>device</th><th>host</th>"
	      "<th>job</th><th>workload</th><th>IOPS</th><th>bandwidth</th><th>latency</th>"
	      "<th>labels</th></tr>\n", f);
	for (i = 0; i < n; i++) {
		const struct history_run *r = &runs[i];
		double b = (isfinite(r->read_bw) ? r->read_bw : 0) +
			   (isfinite(r->write_bw) ? r->write_bw : 0);

		fmt_date(r->start_ms, when, sizeof(when));
		human_count(iops, sizeof(iops), r->total_iops, HUMAN_PAGE);
		human_rate(bw, sizeof(bw), b > 0 ? b : NAN, HUMAN_PAGE);
		human_ns(lat, sizeof(lat), isfinite(r->read_lat_ns) ? r->read_lat_ns : r->write_lat_ns,
			 HUMAN_PAGE);
		snprintf(id, sizeof(id), "%lld%s", (long long)r->id, r->partial ? " (partial)" : "");
		fputs("<tr>", f);
		cell(f, 1, id);
		cell(f, 0, when);
		cell(f, 0, r->key.dev_id);
		cell(f, 0, r->key.host);
		cell(f, 0, r->job_name);
		fputs("<td><code>", f);
		report_html_esc(f, r->key.sig_text);
		fputs("</code></td>", f);
		cell(f, 1, iops);
		cell(f, 1, bw);
		cell(f, 1, lat);
		cell(f, 0, r->labels);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	report_html_page_end(f);
	return ferror(f) ? -1 : 0;
}
