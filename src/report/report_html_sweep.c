/*
 * report_html_sweep: a sweep's page (report_html_sweep.h).
 */
#include "report/report_html_sweep.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include "lib/human.h"	/* the steps' latencies as the text report writes them */
#include "report/report_html_page.h"
#include "report/svg.h"

#define SWEEP_HTML_MAX 2	/* sweeps on one chart: one, or an ab's two */

/*
 * A step's figure: the due-time @pct ("p50", "p99") or the judged
 * percentile ("pooled": the SLO's, p99 without one).
 */
static double step_ns(const json_t *step, const char *pct)
{
	if (!strcmp(pct, "pooled"))
		return report_html_num(json_object_get(step, "percentile"), "pooled_ns");
	return report_html_num(json_object_get(step, "lat_from_due_ns"), pct);
}

/* The chart: due-time latency (log) against achieved IOPS, two lines a sweep. */
static void sweep_chart(FILE *f, const json_t *const *sw, const char *const *names, size_t n)
{
	struct svg_chart_spec sp = { .id = "sweep", .title = "Latency from the due time against "
		"achieved throughput", .xlabel = "achieved IOPS (mean over each step's batches)",
		.ylabel = "latency from the due time", .xkind = SVG_LINEAR, .ykind = SVG_LOG,
		.xfmt = SVG_FMT_NUM, .yfmt = SVG_FMT_NS, .xnice = 1, .ynice = 1, .width = 900,
		.height = 360, .desc = "One line per configuration and percentile: each step's "
		"latency, counted from when each I/O was due, pooled over the step's batches, "
		"against the IOPS it achieved. The horizontal line is the SLO; the large marker "
		"on each configuration is its knee (the highest offered load kept)." };
	double xs[64], ys[64], xlo = NAN, xhi = NAN, ylo = NAN, yhi = NAN, slo = NAN;
	const char *labels[2 * SWEEP_HTML_MAX + 1];
	unsigned styles[2 * SWEEP_HTML_MAX + 1];
	char lab[2 * SWEEP_HTML_MAX][64], t[160], pname[16] = "p99";
	const char *second = "pooled";	/* the line beside p50: the SLO's percentile */
	struct svg_chart c;
	size_t i, k, nl = 0;

	for (k = 0; k < n; k++) {
		const json_t *steps = json_object_get(sw[k], "steps"), *s;
		const json_t *o = json_object_get(sw[k], "slo");

		if (json_is_object(o)) {
			slo = report_html_num(o, "target_ns");
			snprintf(pname, sizeof(pname), "p%g", report_html_num(o, "percentile"));
		}
		if (!strcmp(pname, "p50"))	/* p50 is the first line: the second is p99 */
			second = "p99";
		json_array_foreach(steps, i, s) {
			double x = report_html_num(s, "achieved_iops");
			double a = step_ns(s, "p50"), b = step_ns(s, second);

			xlo = isnan(xlo) || x < xlo ? x : xlo;
			xhi = isnan(xhi) || x > xhi ? x : xhi;
			for (int j = 0; j < 2; j++) {
				double y = j ? b : a;

				if (!(y > 0))
					continue;
				ylo = isnan(ylo) || y < ylo ? y : ylo;
				yhi = isnan(yhi) || y > yhi ? y : yhi;
			}
		}
	}
	if (isfinite(slo)) {
		ylo = isnan(ylo) || slo < ylo ? slo : ylo;
		yhi = isnan(yhi) || slo > yhi ? slo : yhi;
	}
	sp.xlo = isfinite(xlo) ? fmin(0, xlo) : NAN;
	sp.xhi = xhi;
	sp.ylo = ylo;
	sp.yhi = yhi;
	report_html_fig_begin(f);
	svg_chart_begin(&c, f, &sp);
	for (k = 0; k < n; k++) {
		const json_t *steps = json_object_get(sw[k], "steps"), *s;
		double knee = report_html_num(sw[k], "knee_iops");

		for (int j = 0; j < 2; j++) {
			size_t m = 0;
			unsigned st = (unsigned)(2 * k + (unsigned)j);

			json_array_foreach(steps, i, s) {
				if (m >= 64)
					break;
				xs[m] = report_html_num(s, "achieved_iops");
				ys[m++] = step_ns(s, j ? second : "p50");
			}
			snprintf(lab[nl], sizeof(lab[nl]), "%s %s", names[k],
				 j ? (strcmp(second, "p99") ? pname : "p99") : "p50");
			svg_chart_line(&c, st, xs, ys, m, lab[nl]);
			labels[nl] = lab[nl];
			styles[nl++] = st;
		}
		json_array_foreach(steps, i, s) {	/* the knee: the step offered knee_iops */
			if (!(report_html_num(s, "offered_iops") == knee))
				continue;
			snprintf(t, sizeof(t), "%s's knee: %.0f IOPS offered, %.0f achieved", names[k],
				 knee, report_html_num(s, "achieved_iops"));
			/* on the judged percentile's line */
			svg_chart_marker(&c, (unsigned)(2 * k + !strcmp(second, "pooled")),
					 report_html_num(s, "achieved_iops"), step_ns(s, "pooled"), t);
			snprintf(t, sizeof(t), "%s knee", names[k]);
			svg_chart_vline(&c, report_html_num(s, "achieved_iops"), "knee", t);
		}
	}
	if (isfinite(slo)) {
		double sx[2] = { c.x.d0, c.x.d1 }, sy[2] = { slo, slo };	/* across the axis */

		snprintf(t, sizeof(t), "SLO: %s <= %.0f us", pname, slo / 1000);
		svg_chart_line(&c, 2 * SWEEP_HTML_MAX, sx, sy, 2, t);
		labels[nl] = "SLO";
		styles[nl++] = 2 * SWEEP_HTML_MAX;
	}
	svg_chart_legend(&c, labels, styles, nl);
	svg_chart_end(&c);
	report_html_fig_end(f, "Each point is one step: its achieved IOPS and its latency from "
			    "the due time (the wait for a free slot counts), pooled over its "
			    "batches. Beyond the knee the backlog grows and so does this latency.");
}

static void sweep_table(FILE *f, const json_t *const *sw, const char *const *names, size_t n)
{
	fputs("<table class=\"metrics\"><tr><th>configuration</th><th>capacity (IOPS)</th>"
	      "<th>knee (IOPS offered)</th><th>SLO</th><th>SLO capacity (IOPS)</th>"
	      "<th>its interval</th></tr>\n", f);
	for (size_t k = 0; k < n; k++) {
		const json_t *o = json_object_get(sw[k], "slo"), *ci = json_object_get(o, "ci");

		fputs("<tr><td>", f);
		report_html_esc(f, names[k]);
		fprintf(f, "</td><td>%.0f</td><td>%.0f</td>", report_html_num(sw[k], "capacity_iops"),
			report_html_num(sw[k], "knee_iops"));
		if (json_is_object(o) && json_is_number(json_object_get(o, "iops"))) {
			fprintf(f, "<td>p%g &lt;= %.0f us</td><td>%.0f</td><td>%.0f .. %.0f",
				report_html_num(o, "percentile"), report_html_num(o, "target_ns") / 1000,
				report_html_num(o, "iops"), json_number_value(json_array_get(ci, 0)),
				json_number_value(json_array_get(ci, 1)));
			if (json_is_number(json_object_get(o, "next_step_iops")))
				fprintf(f, " (under the next step, %.0f)",
					report_html_num(o, "next_step_iops"));
			fputs("</td>", f);
		}
		else if (json_is_object(o))
			fprintf(f, "<td>p%g &lt;= %.0f us</td><td>none: no step kept it</td><td></td>",
				report_html_num(o, "percentile"), report_html_num(o, "target_ns") / 1000);
		else
			fputs("<td>none</td><td></td><td></td>", f);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* A latency cell: @key of @lat in time units ("" when absent). */
static void ns_cell(FILE *f, const json_t *lat, const char *key)
{
	char v[32] = "";
	double x = report_html_num(lat, key);

	if (isfinite(x))
		human_ns(v, sizeof(v), x, HUMAN_TABLE);
	fprintf(f, "<td class=\"n\">%s</td>", v);
}

/* Each sweep's steps, as the text report has them: one row per step. */
static void step_tables(FILE *f, const json_t *const *sw, const char *const *names, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		const json_t *steps = json_object_get(sw[k], "steps"), *s;
		const json_t *pc = json_object_get(json_array_get(steps, 0), "percentile");
		const char *of = json_string_value(json_object_get(pc, "of"));
		double knee = report_html_num(sw[k], "knee_iops");
		size_t i;

		fputs("<h2>Steps", f);
		if (n > 1) {
			fputs(": ", f);
			report_html_esc(f, names[k]);
		}
		fputs("</h2>\n<table class=\"metrics\"><tr><th>offered IOPS</th><th>achieved IOPS "
		      "(mean; least..most batch)</th><th>kept</th><th>due p50</th><th>due p99</th>"
		      "<th>due p99.9</th><th>due max</th><th>clat p50</th><th>clat p99</th><th>", f);
		report_html_escf(f, "due %s: pooled (95%% interval of its batches)", of ? of : "p99");
		fputs("</th></tr>\n", f);
		json_array_foreach(steps, i, s) {
			const json_t *due = json_object_get(s, "lat_from_due_ns");
			const json_t *clat = json_object_get(s, "clat_ns"), *p = json_object_get(s, "percentile");
			char a[32] = "", b[32] = "", c2[32] = "";
			double off = report_html_num(s, "offered_iops");

			fprintf(f, "<tr><td class=\"n\">%.0f%s</td><td class=\"n\">%.0f (%.0f..%.0f)</td>"
				"<td>%s</td>", off, off == knee ? " (knee)" : "",
				report_html_num(s, "achieved_iops"), report_html_num(s, "achieved_iops_min"),
				report_html_num(s, "achieved_iops_max"),
				json_is_true(json_object_get(s, "kept")) ? "yes" : "behind");
			ns_cell(f, due, "p50");
			ns_cell(f, due, "p99");
			ns_cell(f, due, "p99.9");
			ns_cell(f, due, "max");
			ns_cell(f, clat, "p50");
			ns_cell(f, clat, "p99");
			if (isfinite(report_html_num(p, "pooled_ns"))) {
				human_ns(a, sizeof(a), report_html_num(p, "pooled_ns"), HUMAN_TABLE);
				human_ns(b, sizeof(b), fmax(0, report_html_num(p, "ci_low_ns")), HUMAN_TABLE);
				human_ns(c2, sizeof(c2), report_html_num(p, "ci_high_ns"), HUMAN_TABLE);
			}
			fprintf(f, "<td class=\"n\">%s (%s..%s)</td></tr>\n", a, b, c2);
		}
		fputs("</table>\n", f);
	}
}

int report_html_sweep(FILE *f, const json_t *const *sweeps, const char *const *names, size_t n,
		      const json_t *cmp)
{
	if (n > SWEEP_HTML_MAX)
		n = SWEEP_HTML_MAX;
	report_html_page_begin(f, n > 1 ? "iotrial ab sweep report" : "iotrial sweep report");
	if (cmp) {
		const json_t *ms = json_object_get(cmp, "metrics"), *m;
		size_t i;

		json_array_foreach(ms, i, m)
			if (!strcmp(json_string_value(json_object_get(m, "name")) ?: "", "slo.iops")) {
				fputs("<p id=\"headline\">SLO capacity, B vs A: ", f);
				report_html_esc(f, json_string_value(json_object_get(m, "verdict")));
				fputs("</p>\n", f);
			}
	}
	sweep_table(f, sweeps, names, n);
	sweep_chart(f, sweeps, names, n);
	step_tables(f, sweeps, names, n);
	report_html_page_end(f);
	return 0;
}
