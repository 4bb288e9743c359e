/*
 * report_html_compare: the comparison and A/B trial report (report_html.h).
 * A headline verdict; a forest plot of every metric's difference B vs A
 * with its confidence interval around zero and the noise threshold shaded;
 * the figures table; every run's value in run order, A and B in two styles,
 * so drift and outliers show; every run's latency-by-percentile curve, A and
 * B overlaid; what differs between the sides; the warnings; and for a trial
 * its design (order, seed, stop rule) and runs.
 *
 * It reads compare_json()'s object.  Every read of a compare field is in
 * cmp_read()/cmp_headline()/cmp_noise() below, so that a change of that
 * schema is absorbed in one place; they accept "ci95": [lo, hi] as well as
 * "ci" ([lo, hi] or {"lo", "hi"}) with "ci_level" (0.95 or 95), and per-run
 * values from the metric ("runs"/"values": [{"side", "value"}]) when the
 * compare JSON carries them, else from the results (compare_metric_value).
 *
 * Every label comes from the figure it describes: a value's unit and what it
 * measures from the metric's "unit" and "label" (compare_metric_unit/_label
 * for an older JSON without them), an interval's and a p-value's method from
 * the metric's "ci_method" (compare_method_find), the level from its
 * "ci_level".  No sentence here names a method or a unit on its own.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report/report_breakdown.h"
#include "trial/compare.h"
#include "lib/ddir.h"
#include "report/report_html.h"
#include "report/report_html_page.h"
#include "report/svg.h"

/* ---- reading the compare JSON (the one place) -------------------------- */

struct cmp_metric {
	const char *name;
	const char *unit, *label;	/* COMPARE_UNIT_*, "read p99 latency" */
	const struct compare_method_desc *method;	/* NULL: not said */
	const char *same_as;		/* folded into that metric (compare_types.h) */
	double a_mean, a_sd, b_mean, b_sd, na, nb;
	double diff, lo, hi, level;	/* %, %, %, confidence level in % */
	double p;
	int lower_better, regression;
	int description;		/* describes the run: no better side, no chart row */
	const char *verdict, *kind;
	const json_t *runs;		/* per-run values, or NULL */
	const char *why;		/* why not the run-order fit (ci_method_why), or NULL */
};

static double num_or_nan(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void cmp_read_ci(const json_t *m, struct cmp_metric *v)
{
	const json_t *ci = json_object_get(m, "ci95"), *lvl;

	v->level = 95;
	if (!ci) {
		ci = json_object_get(m, "ci");
		lvl = json_object_get(m, "ci_level");
		if (json_is_number(lvl))
			v->level = json_number_value(lvl) <= 1 ? 100 * json_number_value(lvl) :
				   json_number_value(lvl);
	}
	if (json_is_array(ci)) {
		v->lo = num_or_nan(json_array_get(ci, 0));
		v->hi = num_or_nan(json_array_get(ci, 1));
	} else {
		v->lo = num_or_nan(json_object_get(ci, "lo"));
		v->hi = num_or_nan(json_object_get(ci, "hi"));
	}
}

static void cmp_read(const json_t *m, struct cmp_metric *v)
{
	const json_t *a = json_object_get(m, "a"), *b = json_object_get(m, "b");
	const json_t *verdict = json_object_get(m, "verdict");

	memset(v, 0, sizeof(*v));
	v->name = json_string_value(json_object_get(m, "name"));
	v->unit = json_string_value(json_object_get(m, "unit"));
	if (!v->unit && v->name)
		v->unit = compare_metric_unit(v->name);
	if (!v->unit)
		v->unit = COMPARE_UNIT_IOPS;
	v->label = json_string_value(json_object_get(m, "label"));
	if (!v->label && v->name)
		v->label = compare_metric_label(v->name);
	if (!v->label)
		v->label = v->name ? v->name : "?";
	v->method = compare_method_find(json_string_value(json_object_get(m, "ci_method")));
	v->same_as = json_string_value(json_object_get(m, "same_as"));
	v->a_mean = num_or_nan(json_object_get(a, "mean"));
	v->a_sd = num_or_nan(json_object_get(a, "sd"));
	v->na = num_or_nan(json_object_get(a, "n"));
	v->b_mean = num_or_nan(json_object_get(b, "mean"));
	v->b_sd = num_or_nan(json_object_get(b, "sd"));
	v->nb = num_or_nan(json_object_get(b, "n"));
	v->diff = num_or_nan(json_object_get(m, "diff_pct"));
	cmp_read_ci(m, v);
	v->p = num_or_nan(json_object_get(m, "p_value"));
	v->lower_better = json_is_true(json_object_get(m, "lower_is_better"));
	/* the metric's kind as compare wrote it, else from compare's one table */
	v->description = json_is_string(json_object_get(m, "kind")) ?
			 !strcmp(json_string_value(json_object_get(m, "kind")), "description") :
			 v->name && compare_metric_kind(v->name) == COMPARE_DESCRIPTION;
	v->regression = json_is_true(json_object_get(m, "regression"));
	v->verdict = json_is_string(verdict) ? json_string_value(verdict) :
		     json_string_value(json_object_get(verdict, "text"));
	v->kind = json_string_value(json_object_get(m, "verdict_kind"));
	if (!v->kind)
		v->kind = json_string_value(json_object_get(verdict, "kind"));
	if (!v->verdict)
		v->verdict = "";
	if (!v->kind)
		v->kind = "";
	v->why = json_string_value(json_object_get(m, "ci_method_why"));
	v->runs = json_object_get(m, "runs");
	if (!json_is_array(v->runs))
		v->runs = json_is_array(json_object_get(m, "values")) ?
			  json_object_get(m, "values") : NULL;
}

static double cmp_noise(const json_t *cmp)
{
	double n = num_or_nan(json_object_get(json_object_get(cmp, "settings"), "noise_pct"));

	return isnan(n) ? num_or_nan(json_object_get(cmp, "noise_pct")) : n;
}

/* The compare object's own overall verdict, when it has one. */
static const char *cmp_headline(const json_t *cmp)
{
	const json_t *v = json_object_get(cmp, "verdict");

	return json_is_string(v) ? json_string_value(v) :
	       json_string_value(json_object_get(v, "text"));
}

/* ---- helpers ----------------------------------------------------------- */

static int unit_is(const struct cmp_metric *m, const char *unit)
{
	return !strcmp(m->unit, unit);
}

/* @v in @m's unit, for people. */
static void fmt_metric(const struct cmp_metric *m, double v, char *buf, size_t sz)
{
	if (unit_is(m, COMPARE_UNIT_NS))
		human_ns(buf, sz, v, HUMAN_PAGE);
	else if (unit_is(m, COMPARE_UNIT_BW))
		human_rate(buf, sz, v, HUMAN_PAGE);
	else if (unit_is(m, COMPARE_UNIT_DEPTH))
		snprintf(buf, sz, isfinite(v) ? "%.1f" : "-", v);
	else
		human_count(buf, sz, v, HUMAN_PAGE);
}

/* A per-run chart's y value and axis: bandwidth in MiB/s, the rest as they are. */
static double chart_y(const struct cmp_metric *m, double v)
{
	return unit_is(m, COMPARE_UNIT_BW) ? v / 1048576.0 : v;
}

static void chart_ylabel(const struct cmp_metric *m, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s (%s)", m->label, unit_is(m, COMPARE_UNIT_BW) ? "MiB/s" :
		 unit_is(m, COMPARE_UNIT_NS) ? "time" : m->unit);
}

static void fmt_pct(double v, char *buf, size_t sz)
{
	if (isfinite(v))
		snprintf(buf, sz, "%+.1f%%", v);
	else
		snprintf(buf, sz, "-");
}

static int kind_is(const struct cmp_metric *m, const char *k)
{
	return !strcmp(m->kind, k);
}

/* Marker style of a metric's verdict: better green triangle, worse red diamond, else blue. */
static unsigned verdict_style(const struct cmp_metric *m)
{
	return kind_is(m, "better") ? 2 : kind_is(m, "worse") ? 3 : 0;
}

/* ---- run order --------------------------------------------------------- */

static double run_time(const struct report_html_run *r)
{
	double t = report_html_num(r->root, "timestamp_ms");

	return isnan(t) ? report_html_num(r->root, "timestamp") * 1e3 : t;
}

/* Indices of @runs sorted by the results' timestamps (stable: equal ones keep A..B order). */
static size_t *run_order(const struct report_html_run *runs, size_t n)
{
	size_t *ix = malloc((n ? n : 1) * sizeof(*ix)), i, k, t;

	if (!ix)
		return NULL;
	for (i = 0; i < n; i++)
		ix[i] = i;
	for (i = 1; i < n; i++)	/* insertion sort: n is a few dozen */
		for (k = i; k > 0 && run_time(&runs[ix[k]]) < run_time(&runs[ix[k - 1]]); k--) {
			t = ix[k];
			ix[k] = ix[k - 1];
			ix[k - 1] = t;
		}
	return ix;
}

/* Run @pos's value of @m: from the compare JSON when it has them, else from the result. */
static double run_value(const struct cmp_metric *m, const struct report_html_run *runs,
			const size_t *order, size_t pos, char *side)
{
	const json_t *e;
	double v;

	if (m->runs) {
		e = json_array_get(m->runs, pos);
		*side = json_string_value(json_object_get(e, "side")) ?
			(char)(json_string_value(json_object_get(e, "side"))[0] & ~0x20) : '?';
		return json_is_number(e) ? json_number_value(e) :
		       num_or_nan(json_object_get(e, "value"));
	}
	*side = runs[order[pos]].side;
	if (!runs[order[pos]].res ||
	    compare_metric_value(runs[order[pos]].res, m->name, &v))
		return NAN;
	return v;
}

/* ---- sections ---------------------------------------------------------- */

static void headline(FILE *f, const json_t *cmp, const struct cmp_metric *m, size_t nm,
		     const char *note)
{
	const char *own = cmp_headline(cmp), *cls = "";
	const struct cmp_metric *pm = NULL;
	char d[16], lo[16], hi[16];
	size_t i, better = 0, worse = 0, shown = 0, described = 0;

	for (i = 0; i < nm; i++) {
		if (!pm && m[i].name && !strcmp(m[i].name, "total.iops"))
			pm = &m[i];
		/* as the table: a folded metric is its row's, counted there */
		if (m[i].same_as)
			continue;
		if (m[i].description) {	/* no better side: not a score to count */
			described++;
			continue;
		}
		shown++;
		better += kind_is(&m[i], "better");
		worse += kind_is(&m[i], "worse");
	}
	if (!pm && nm)
		pm = &m[0];
	if (json_is_true(json_object_get(cmp, "regression")) || (pm && kind_is(pm, "worse")))
		cls = " bad";
	else if (pm && kind_is(pm, "better"))
		cls = " good";
	fprintf(f, "<div class=\"verdict%s\" id=\"headline\">", cls);
	if (own) {
		report_html_esc(f, own);
	} else if (pm) {
		fmt_pct(pm->diff, d, sizeof(d));
		fmt_pct(pm->lo, lo, sizeof(lo));
		fmt_pct(pm->hi, hi, sizeof(hi));
		report_html_escf(f, "%s, B vs A: %s (%s", pm->name, pm->verdict, d);
		if (isfinite(pm->lo))
			report_html_escf(f, ", %.0f%% CI %s..%s", pm->level, lo, hi);
		fputs(")", f);
	} else {
		fputs("No metric in common between the sides.", f);
	}
	fputs("</div>\n<p>", f);
	report_html_escf(f, "%zu metric%s compared: %zu better for B, %zu worse for B, %zu "
			 "without a claimable difference (not significant, negligible, too variable "
			 "or too few runs).", shown, shown == 1 ? "" : "s", better, worse,
			 shown - better - worse);
	if (described)
		report_html_escf(f, " %zu more describe%s the runs (device queue depth): a "
				 "difference there is neither better nor worse.", described,
				 described == 1 ? "s" : "");
	if (json_is_true(json_object_get(cmp, "regression")))
		fputs(" <b>Regression beyond the threshold.</b>", f);
	fputs("</p>\n", f);
	if (note) {
		fputs("<p class=\"warn\">", f);
		report_html_esc(f, note);
		fputs("</p>\n", f);
	}
}

static void sides(FILE *f, const json_t *cmp)
{
	static const char *const keys[2] = { "a", "b" };
	const json_t *files;
	size_t n;
	int s;

	fputs("<table><tr><th>side</th><th>runs</th><th>version</th><th>files</th></tr>\n", f);
	for (s = 0; s < 2; s++) {
		const json_t *side = json_object_get(cmp, keys[s]);

		files = json_object_get(side, "files");
		n = json_array_size(files);
		fprintf(f, "<tr><td>%c</td><td class=\"n\">%zu</td><td>", 'A' + s, n);
		report_html_esc(f, json_string_value(json_object_get(side, "version")));
		fputs("</td><td>", f);
		report_html_esc(f, json_string_value(json_array_get(files, 0)));
		if (n > 1) {
			fputs(n > 2 ? " ... " : ", ", f);
			report_html_esc(f, json_string_value(json_array_get(files, n - 1)));
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

#define FOREST_CLIP 4	/* times the median row's reach: beyond it, clipped */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Where the forest plot's axis stops.  One interval as wide as
 * time.cpu_wait_ns's -84..+4844% would squash every other row into the
 * first 2% of the axis, so what lies beyond FOREST_CLIP times the median
 * row's reach (the farthest of its marker and whiskers from zero), and
 * beyond twice the noise threshold, is clipped there, with an arrow and its
 * number.  INFINITY: nothing to clip.
 */
static double forest_cap(const struct cmp_metric *m, size_t nm, double noise)
{
	double r[64], cap;
	size_t i, n = 0;

	for (i = 0; i < nm && n < 64; i++) {
		if (!isfinite(m[i].diff) || m[i].same_as || m[i].description)
			continue;
		r[n] = fabs(m[i].diff);
		if (isfinite(m[i].lo) && isfinite(m[i].hi))
			r[n] = fmax(r[n], fmax(fabs(m[i].lo), fabs(m[i].hi)));
		n++;
	}
	if (n < 2)
		return INFINITY;
	qsort(r, n, sizeof(r[0]), cmp_double);
	cap = FOREST_CLIP * (n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2);
	if (isfinite(noise))
		cap = fmax(cap, 2 * noise);
	return r[n - 1] > cap && cap > 0 ? cap : INFINITY;
}

/* The forest plot: each metric's difference and CI around zero, noise shaded. */
static void forest(FILE *f, const struct cmp_metric *m, size_t nm, double noise)
{
	struct svg_chart_spec sp = { .id = "forest", .title = "B vs A per metric: difference "
		"and confidence interval", .xlabel = "(B - A) / A in %", .xkind = SVG_LINEAR,
		.ykind = SVG_LINEAR, .xfmt = SVG_FMT_PCT, .width = 900, .left = 150,
		.desc = "One row per metric: the relative difference of B's mean against A's "
		"(marker) and its confidence interval (whiskers). Zero is no difference; the "
		"shaded band is the noise threshold." };
	double yv[64], lo = isfinite(noise) ? -noise : 0, hi = isfinite(noise) ? noise : 0;
	double cap = forest_cap(m, nm, noise);
	const char *yl[64];
	struct svg_chart c;
	size_t i, n = 0, rows, clipped = 0;
	char t[640];

	for (i = 0; i < nm && n < 64; i++) {
		if (!isfinite(m[i].diff) || m[i].same_as || m[i].description)
			continue;
		lo = fmin(lo, isfinite(m[i].lo) ? fmin(m[i].lo, m[i].diff) : m[i].diff);
		hi = fmax(hi, isfinite(m[i].hi) ? fmax(m[i].hi, m[i].diff) : m[i].diff);
		n++;
	}
	lo = fmax(lo, -cap);
	hi = fmin(hi, cap);
	if (!n) {
		fputs("<p class=\"missing\">No metric has a difference to plot.</p>\n", f);
		return;
	}
	/* the data's own span, padded: a mean cannot fall by more than all of it */
	sp.xlo = fmax(lo - (hi - lo) * 0.04, -100);
	sp.xhi = hi + (hi - lo) * 0.04;
	sp.ylo = -0.7;
	sp.yhi = (double)n - 0.3;
	sp.height = 46 + 42 + 24 * (int)n;
	report_html_fig_begin(f);
	svg_chart_begin(&c, f, &sp);
	if (isfinite(noise) && noise > 0)
		svg_chart_band(&c, -noise, noise, "noise", "noise threshold");
	svg_chart_vline(&c, 0, "zero", NULL);
	rows = n;
	for (i = 0, n = 0; i < nm && n < 64; i++) {
		if (!isfinite(m[i].diff) || m[i].same_as || m[i].description)
			continue;
		yv[n] = (double)(rows - 1 - n);	/* the first metric on top */
		yl[n] = m[i].name;
		snprintf(t, sizeof(t), "%s: %+.2f%%, %.0f%% CI %+.2f..%+.2f%%: %s", m[i].name,
			 m[i].diff, m[i].level, m[i].lo, m[i].hi, m[i].verdict);
		svg_chart_interval(&c, verdict_style(&m[i]), yv[n], fmax(m[i].lo, -cap),
				   fmax(fmin(m[i].diff, cap), -cap), fmin(m[i].hi, cap), t);
		/* a clipped end: an arrow at the axis's end, with the true figure */
		for (int side = 0; side < 2; side++) {
			double v = side ? fmax(m[i].hi, m[i].diff) : fmin(m[i].lo, m[i].diff);
			char num[32];

			if (!(side ? v > cap : v < -cap))
				continue;
			snprintf(num, sizeof(num), "%+.0f%%", v);
			svg_chart_clip(&c, side ? cap : -cap, yv[n], side, num);
			clipped++;
		}
		n++;
	}
	svg_chart_ylabels(&c, yv, yl, n);
	{
		static const char *const lab[] = { "better for B", "worse for B",
			"no claimable difference" };
		static const unsigned sty[] = { 2, 3, 0 };

		svg_chart_legend(&c, lab, sty, 3);
	}
	svg_chart_end(&c);
	{
		size_t len = (size_t)snprintf(t, sizeof(t), "Whiskers: the %.0f%% confidence "
					      "interval (none when a side has one run).", m[0].level);
		int nl = 0;

		if (clipped)
			len += (size_t)snprintf(t + len, sizeof(t) - len, " Clipped at %+.0f%% "
						"(%d times the middle row's reach; an arrow with the "
						"true end): the wider ones would hide the others.",
						cap, FOREST_CLIP);

		for (i = 0; i < nm && len < sizeof(t); i++)	/* said from the metrics shown */
			if (m[i].lower_better && !m[i].same_as && isfinite(m[i].diff))
				len += (size_t)snprintf(t + len, sizeof(t) - len, "%s%s",
							nl++ ? ", " : " Lower is better for ",
							m[i].label);
		if (nl && len < sizeof(t))
			len += (size_t)snprintf(t + len, sizeof(t) - len, ": a positive difference "
						"is worse.");
		for (i = 0, nl = 0; i < nm && len < sizeof(t); i++)
			if (m[i].description && !m[i].same_as && isfinite(m[i].diff))
				len += (size_t)snprintf(t + len, sizeof(t) - len, "%s%s",
							nl++ ? ", " : " Not drawn, as they describe "
							"the runs rather than score them (the table has "
							"them): ", m[i].label);
		if (nl && len < sizeof(t))
			snprintf(t + len, sizeof(t) - len, ".");
	}
	report_html_fig_end(f, t);
}

static void metrics_table(FILE *f, const struct cmp_metric *m, size_t nm)
{
	char b[8][40];
	size_t i;
	int k;

	fputs("<table class=\"metrics\"><tr><th>metric</th><th>A mean</th><th>A sd</th>"
	      "<th>n</th><th>B mean</th><th>B sd</th><th>n</th><th>B vs A</th><th>CI</th>"
	      "<th>interval</th><th>p</th><th>p from</th><th>verdict</th></tr>\n", f);
	for (i = 0; i < nm; i++) {
		if (m[i].same_as)
			continue;
		fmt_metric(&m[i], m[i].a_mean, b[0], sizeof(b[0]));
		fmt_metric(&m[i], m[i].a_sd, b[1], sizeof(b[1]));
		snprintf(b[2], sizeof(b[2]), "%.0f", m[i].na);
		fmt_metric(&m[i], m[i].b_mean, b[3], sizeof(b[3]));
		fmt_metric(&m[i], m[i].b_sd, b[4], sizeof(b[4]));
		snprintf(b[5], sizeof(b[5]), "%.0f", m[i].nb);
		fmt_pct(m[i].diff, b[6], sizeof(b[6]));
		if (isfinite(m[i].lo))
			snprintf(b[7], sizeof(b[7]), "%.0f%%: %+.1f..%+.1f%%", m[i].level, m[i].lo,
				 m[i].hi);
		else
			snprintf(b[7], sizeof(b[7]), "-");
		fputs("<tr><td>", f);
		report_html_esc(f, m[i].name);
		fputs("</td>", f);
		for (k = 0; k < 8; k++)
			fprintf(f, "<td class=\"n\">%s</td>", b[k]);
		fputs("<td>", f);
		report_html_esc(f, m[i].method && isfinite(m[i].lo) ? m[i].method->label : "-");
		fputs("</td>", f);
		if (isfinite(m[i].p))
			fprintf(f, "<td class=\"n\">%s%.4f</td>", m[i].p < 0.0001 ? "&lt;" : "",
				m[i].p < 0.0001 ? 0.0001 : m[i].p);
		else
			fputs("<td class=\"n\">-</td>", f);
		fputs("<td>", f);
		report_html_esc(f, m[i].method && isfinite(m[i].p) ? m[i].method->test_label : "-");
		fputs("</td><td>", f);
		report_html_esc(f, m[i].verdict);
		fprintf(f, "%s</td></tr>\n", m[i].regression ? " <b>(regression)</b>" : "");
	}
	fputs("</table>\n", f);
}

/*
 * Under the table: the folded metrics, and each method the shown metrics
 * used, in the library's words (compare_method_desc), with its metrics.
 */
static void metrics_notes(FILE *f, const struct cmp_metric *m, size_t nm)
{
	const struct compare_method_desc *seen[8];
	size_t i, k, n, ns = 0;

	for (i = 0; i < nm; i++) {
		if (m[i].same_as)
			continue;
		for (k = 0, n = 0; k < nm; k++)
			if (m[k].same_as && !strcmp(m[k].same_as, m[i].name)) {
				fputs(n++ ? ", " : "<p class=\"meta\">", f);
				report_html_esc(f, m[k].name);
			}
		if (n) {
			report_html_escf(f, ": not shown, a fixed multiple of %s in every run (the "
					 "same difference, interval and verdict).", m[i].name);
			fputs("</p>\n", f);
		}
	}
	fputs("<p class=\"meta\">B vs A = (B - A) / A.", f);
	for (i = 0; i < nm; i++) {
		if (m[i].same_as || !m[i].method || (!isfinite(m[i].lo) && !isfinite(m[i].p)))
			continue;
		for (k = 0; k < ns && seen[k] != m[i].method; k++)
			;
		if (k < ns || ns == 8)
			continue;
		seen[ns++] = m[i].method;
		report_html_escf(f, " %s: %s%s%s; p: %s.", m[i].method->label, m[i].method->interval,
				 m[i].why ? ", because " : "", m[i].why ? m[i].why : "",
				 m[i].method->test);
	}
	fputs("</p>\n", f);
}

/* One metric's value per run, in run order, A and B in two styles. */
static void run_chart(FILE *f, const struct cmp_metric *m, const struct report_html_run *runs,
		      const size_t *order, size_t n, size_t idx)
{
	struct svg_chart_spec sp = { .xlabel = "run (in the order they ran)", .xkind = SVG_LINEAR,
		.ykind = SVG_LINEAR, .xfmt = SVG_FMT_NUM, .xlo = 0.5, .xhi = (double)n + 0.5,
		.ylo = NAN, .yhi = NAN, .ynice = 1, .xmin_step = 1 };	/* the page's chart size */
	double x[2][128], y[2][128], v;
	size_t k[2] = { 0, 0 }, i;
	char id[32], title[96], tip[160], ylabel[96], side;
	struct svg_chart c;
	int s;

	if (m->same_as)
		return;
	if (m->runs)	/* the compare JSON's own list of runs */
		n = json_array_size(m->runs);
	sp.xhi = (double)n + 0.5;
	for (i = 0; i < n && i < 128; i++) {
		v = run_value(m, runs, order, i, &side);
		if (!isfinite(v) || (side != 'A' && side != 'B'))
			continue;
		s = side == 'B';
		x[s][k[s]] = (double)i + 1;
		y[s][k[s]++] = chart_y(m, v);
		sp.ylo = isnan(sp.ylo) || y[s][k[s] - 1] < sp.ylo ? y[s][k[s] - 1] : sp.ylo;
		sp.yhi = isnan(sp.yhi) || y[s][k[s] - 1] > sp.yhi ? y[s][k[s] - 1] : sp.yhi;
	}
	if (!k[0] && !k[1])
		return;
	snprintf(id, sizeof(id), "runs-%zu", idx);
	snprintf(title, sizeof(title), "%s per run", m->name);
	sp.id = id;
	sp.title = title;
	chart_ylabel(m, ylabel, sizeof(ylabel));
	sp.ylabel = ylabel;
	sp.yfmt = unit_is(m, COMPARE_UNIT_NS) ? SVG_FMT_NS : SVG_FMT_NUM;
	sp.desc = "Each run's value in the order the runs ran: A and B in two styles; a "
		  "trend across runs is drift, a lone point an outlier.";
	report_html_fig_begin(f);
	svg_chart_begin(&c, f, &sp);
	for (s = 0; s < 2; s++) {
		svg_chart_line(&c, (unsigned)s, x[s], y[s], k[s], s ? "B" : "A");
		for (i = 0; i < k[s]; i++) {
			char val[40];

			fmt_metric(m, unit_is(m, COMPARE_UNIT_BW) ? y[s][i] * 1048576.0 : y[s][i],
				   val, sizeof(val));
			snprintf(tip, sizeof(tip), "run %.0f (%c): %s", x[s][i], 'A' + s, val);
			svg_chart_marker(&c, (unsigned)s, x[s][i], y[s][i], tip);
		}
	}
	{
		static const char *const lab[] = { "A", "B" };

		svg_chart_legend(&c, lab, NULL, 2);
	}
	svg_chart_end(&c);
	report_html_fig_end(f, NULL);
}

/* A latency object of a run for direction @d: json+ bins merged over its jobs, or job 0's. */
static json_t *run_latency(const json_t *root, const char *dname, int *first_only)
{
	const json_t *jobs = json_object_get(root, "jobs"), *job, *lat;
	json_t *bins = json_object(), *out;
	const char *which, *key;
	json_t *val;
	size_t i;

	*first_only = 0;
	json_array_foreach((json_t *)jobs, i, job) {
		lat = report_html_lat(json_object_get(job, dname), &which);
		if (!json_object_size(json_object_get(lat, "bins"))) {
			if (report_html_num(json_object_get(job, dname), "total_ios") > 0)
				goto fallback;
			continue;
		}
		json_object_foreach(json_object_get(lat, "bins"), key, val) {
			double have = num_or_nan(json_object_get(bins, key));

			json_object_set_new(bins, key, json_real((isnan(have) ? 0 : have) +
					    json_number_value(val)));
		}
	}
	out = json_pack("{s:o}", "bins", bins);
	return out;
fallback:
	json_decref(bins);
	*first_only = json_array_size(jobs) > 1;
	lat = report_html_lat(json_object_get(json_array_get(jobs, 0), dname), &which);
	return json_incref((json_t *)lat);
}

static void curves(FILE *f, const struct report_html_run *runs, size_t n)
{
	static const char *const leg[2] = { "A (each run)", "B (each run)" };
	static const unsigned legs[2] = { 0, 1 };
	struct report_html_curve *c = calloc(n ? n : 1, sizeof(*c));
	const char **lab = calloc(n ? n : 1, sizeof(*lab));
	unsigned *sty = calloc(n ? n : 1, sizeof(*sty));
	size_t i, k;
	int d, first_only, any_first = 0, bins = 1;
	char id[32], title[96];

	if (!c || !lab || !sty)
		goto out;
	for (d = 0; d < 3; d++) {
		for (i = 0, k = 0; i < n; i++) {
			json_t *lat = run_latency(runs[i].root, ddir_name(d), &first_only);

			if (lat && !report_html_curve(lat, &c[k])) {
				lab[k] = runs[i].name;
				sty[k] = runs[i].side == 'B';
				bins &= c[k].from_bins;
				any_first |= first_only;
				k++;
			}
			json_decref(lat);
		}
		if (!k)
			continue;
		snprintf(id, sizeof(id), "pct-%s", ddir_name(d));
		snprintf(title, sizeof(title), "%s latency by percentile, A and B", ddir_name(d));
		report_html_curve_chart(f, id, title, c, lab, sty, k, leg, legs, 2,
					any_first ? "Several jobs without json+ bins: each run's "
					"first job is drawn." : bins ? "From json+ bins merged over "
					"each run's jobs." : "From each run's percentile list.");
	}
out:
	free(c);
	free(lab);
	free(sty);
}

/* A differing value as text: numbers as plain digits (never "3.477e+05"), the rest as JSON. */
static char *diff_value(const json_t *v)
{
	char buf[64];

	if (json_is_real(v)) {
		human_plain(buf, sizeof(buf), json_real_value(v));
		return strdup(buf);
	}
	return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
}

static void env_diff(FILE *f, const json_t *cmp)
{
	const json_t *d = json_object_get(cmp, "env_diff"), *it;
	size_t i;
	char *a, *b;

	fputs("<h2>What differs between A and B</h2>\n", f);
	if (!json_array_size(d)) {
		fputs("<p>Nothing recorded differs (job options, environment).</p>\n", f);
		return;
	}
	fputs("<table><tr><th>key</th><th>A</th><th>B</th></tr>\n", f);
	json_array_foreach((json_t *)d, i, it) {
		a = diff_value(json_object_get(it, "a"));
		b = diff_value(json_object_get(it, "b"));
		fputs("<tr><td>", f);
		report_html_esc(f, json_string_value(json_object_get(it, "key")));
		fputs("</td><td>", f);
		report_html_esc(f, a ? a : "?");
		fputs("</td><td>", f);
		report_html_esc(f, b ? b : "?");
		fputs("</td></tr>\n", f);
		free(a);
		free(b);
	}
	fputs("</table>\n", f);
}

static void warnings(FILE *f, const json_t *cmp)
{
	const json_t *w = json_object_get(cmp, "warnings"), *it;
	size_t i;

	fputs("<h2>Warnings</h2>\n", f);
	if (!json_array_size(w)) {
		fputs("<p>None.</p>\n", f);
		return;
	}
	fputs("<div class=\"warn\"><ul>", f);
	json_array_foreach((json_t *)w, i, it)
		report_html_warning_li(f, it);
	fputs("</ul></div>\n", f);
}

static void trial_section(FILE *f, const json_t *t)
{
	const json_t *runs = json_object_get(t, "runs"), *r, *stop = json_object_get(t, "stop");
	size_t i;

	fputs("<h2>Trial</h2>\n<table class=\"kv\">", f);
	fputs("<tr><td>order</td><td>", f);
	report_html_esc(f, json_string_value(json_object_get(t, "order")));
	fprintf(f, " (seed %lld)</td></tr><tr><td>A</td><td><code>",
		(long long)json_integer_value(json_object_get(t, "seed")));
	report_html_esc(f, json_string_value(json_object_get(t, "a")));
	fputs("</code></td></tr><tr><td>B</td><td><code>", f);
	report_html_esc(f, json_string_value(json_object_get(t, "b")));
	fputs("</code></td></tr><tr><td>stopped by</td><td>", f);
	report_html_esc(f, json_string_value(json_object_get(t, "stopped_by")) ?
			json_string_value(json_object_get(t, "stopped_by")) : "(still running)");
	fprintf(f, "</td></tr><tr><td>stop rule</td><td>%.0f runs a side, metric ",
		report_html_num(stop, "runs"));
	report_html_esc(f, json_string_value(json_object_get(stop, "metric")));
	fputs("</td></tr></table>\n<table><tr><th>#</th><th>side</th><th>file</th>"
	      "<th>start (UTC)</th><th>duration</th><th>exit</th></tr>\n", f);
	json_array_foreach((json_t *)runs, i, r) {
		fprintf(f, "<tr><td class=\"n\">%lld</td><td>",
			(long long)json_integer_value(json_object_get(r, "index")));
		report_html_esc(f, json_string_value(json_object_get(r, "side")));
		fputs("</td><td>", f);
		report_html_esc(f, json_string_value(json_object_get(r, "file")));
		fputs("</td><td>", f);
		report_html_esc(f, json_string_value(json_object_get(r, "start")));
		fprintf(f, "</td><td class=\"n\">%.1f s</td><td class=\"n\">%lld</td></tr>\n",
			report_html_num(r, "duration_ms") / 1e3,
			(long long)json_integer_value(json_object_get(r, "exit_code")));
	}
	fputs("</table>\n", f);
}

int report_html_compare(FILE *f, const json_t *cmp, const struct report_html_run *runs,
			size_t n, const json_t *trial, const char *note)
{
	const json_t *ms = json_object_get(cmp, "metrics");
	size_t nm = json_array_size(ms), i, *order = run_order(runs, n);
	struct cmp_metric *m = calloc(nm ? nm : 1, sizeof(*m));
	const char *title = trial ? "iotrial A/B trial report" : "iotrial compare report";

	if (!m || !order) {
		free(m);
		free(order);
		return -ENOMEM;
	}
	for (i = 0; i < nm; i++)
		cmp_read(json_array_get(ms, i), &m[i]);
	report_html_page_begin(f, title);
	fprintf(f, "<h1>%s</h1>\n", title);
	headline(f, cmp, m, nm, note);
	sides(f, cmp);
	fputs("<h2>B against A</h2>\n", f);
	forest(f, m, nm, cmp_noise(cmp));
	metrics_table(f, m, nm);
	metrics_notes(f, m, nm);
	report_breakdown_html_compare(f, json_object_get(cmp, "time_breakdown"));	/* a bar per side */
	fputs("<h2>Every run, in run order</h2>\n<div class=\"charts\">\n", f);
	for (i = 0; i < nm; i++)
		run_chart(f, &m[i], runs, order, n, i);
	fputs("</div>\n<h2>Latency by percentile</h2>\n<div class=\"charts\">\n", f);
	curves(f, runs, n);
	fputs("</div>\n", f);
	env_diff(f, cmp);
	warnings(f, cmp);
	if (trial)
		trial_section(f, trial);
	report_html_page_end(f);
	free(m);
	free(order);
	fflush(f);
	return ferror(f) ? -EIO : 0;
}

int report_html_runs_load(struct resultread *const *a, size_t na, struct resultread *const *b,
			  size_t nb, struct report_html_run **runs, size_t *n, struct err *e)
{
	struct report_html_run *r = calloc(na + nb ? na + nb : 1, sizeof(*r));
	size_t i;

	*runs = r;
	*n = 0;
	if (!r)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	for (i = 0; i < na + nb; i++) {
		const struct resultread *res = i < na ? a[i] : b[i - na];

		if (res->doc)	/* not a file: the document came with the result */
			r[i].root = json_incref(res->doc);
		else if (report_html_load(res->path, &r[i].root, e))
			return -EINVAL;
		r[i].name = res->path;
		r[i].res = res;
		r[i].side = i < na ? 'A' : 'B';
		(*n)++;
	}
	return 0;
}

void report_html_runs_free(struct report_html_run *runs, size_t n)
{
	size_t i;

	for (i = 0; runs && i < n; i++)
		json_decref(runs[i].root);
	free(runs);
}
