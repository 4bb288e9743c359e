/*
 * report_html: the run report (report_html.h) of one or more result files.
 * Per file: its plausibility warnings, a summary of every job, then per job
 * its steady-state / MSER / bottleneck findings, the time-series charts
 * (IOPS, bandwidth, latency; ramp, steady window and MSER warm-up shaded),
 * the latency by percentile and the histogram, the device's queue depth and
 * latency over time when recorded, and tables of its figures and options;
 * last, the environment and the devices' utilisation.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report/report_html.h"
#include "report/report_host.h"
#include "report/report_breakdown.h"
#include "lib/ddir.h"
#include "report/report_html_page.h"
#include "report/svg.h"

/* ---- loading ----------------------------------------------------------- */

int report_html_load(const char *path, json_t **out, struct err *e)
{
	struct resultread *r = NULL;
	json_t *root;

	if (resultread_load_json(path, &root, e))
		return -EINVAL;
	if (json_object_get(root, "metrics") && !json_object_get(root, "jobs")) {
		json_decref(root);
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: a compare report, not a run result "
			       "(give the result files that were compared)", path);
	}
	if (resultread_from_json(root, path, &r, e)) {
		json_decref(root);
		return -EINVAL;
	}
	resultread_free(r);
	*out = root;
	return 0;
}

/* ---- time series ------------------------------------------------------- */

enum {
	V_IOPS = 0, V_BW = 3, V_LAT = 6, V_P99 = 9,	/* + direction */
	V_DQD_R = 12, V_DQD_W, V_DQD, V_DLAT_R, V_DLAT_W, V_DUTIL, NV
};

/* What each value is, to downsample it: a rate, an I/O-weighted mean, or a maximum. */
static int v_mode(int v)
{
	if (v >= V_LAT && v < V_P99)
		return 1;
	return v >= V_P99 && v < V_DQD_R ? 2 : 0;
}

struct series {
	size_t n, raw, k;	/* points drawn, intervals in the file, intervals per point */
	double *t;		/* seconds since the job started I/O (end of the interval) */
	double *t0;		/* its start: each value holds over [t0, t], drawn as a step */
	double *v[NV];
	double *dur, *ios[3];	/* weights */
	int has_dev;
	double ramp_end_s;	/* end of ramp_time, 0 without */
};

static void series_free(struct series *s)
{
	free(s->t);
	memset(s, 0, sizeof(*s));
}

static void read_interval(struct series *s, size_t i, const json_t *it)
{
	const json_t *dev = json_object_get(it, "device");
	static const char *const dkeys[] = { "read_queue_depth", "write_queue_depth",
		"queue_depth", "read_lat_ns_mean", "write_lat_ns_mean", "util" };
	int d, k;

	s->t[i] = report_html_num(it, "t_ms") / 1e3;
	s->dur[i] = report_html_num(it, "dur_us");
	s->t0[i] = isfinite(s->dur[i]) && s->dur[i] / 1e6 < s->t[i] ? s->t[i] - s->dur[i] / 1e6 : 0;
	if (json_is_true(json_object_get(it, "ramp")) && s->t[i] > s->ramp_end_s)
		s->ramp_end_s = s->t[i];
	for (d = 0; d < 3; d++) {
		const json_t *o = json_object_get(it, ddir_name(d));
		const json_t *lat = json_object_get(o, "lat_ns");

		s->ios[d][i] = report_html_num(o, "ios");
		s->v[V_IOPS + d][i] = report_html_num(o, "iops");
		s->v[V_BW + d][i] = report_html_num(o, "bw_bytes") / 1048576.0;
		s->v[V_LAT + d][i] = s->ios[d][i] > 0 ? report_html_num(lat, "mean") : NAN;
		s->v[V_P99 + d][i] = s->ios[d][i] > 0 ? report_html_num(lat, "p99") : NAN;
	}
	for (k = 0; k < 6; k++)
		s->v[V_DQD_R + k][i] = report_html_num(dev, dkeys[k]);
	s->has_dev |= json_is_object(dev);
}

/* Average groups of k intervals in place: rates by time, latency by I/Os, p99 by max. */
static void downsample(struct series *s)
{
	size_t j, i, end;
	int v;

	s->k = (s->raw + REPORT_HTML_MAX_POINTS - 1) / REPORT_HTML_MAX_POINTS;
	if (s->k <= 1) {
		s->k = 1;
		s->n = s->raw;
		return;
	}
	for (j = 0; j * s->k < s->raw; j++) {
		end = (j + 1) * s->k < s->raw ? (j + 1) * s->k : s->raw;
		for (v = 0; v < NV; v++) {
			double num = 0, den = 0, mx = NAN, w;

			for (i = j * s->k; i < end; i++) {
				if (isnan(s->v[v][i]))
					continue;
				w = v_mode(v) == 1 ? s->ios[(v - V_LAT) % 3][i] : s->dur[i];
				num += s->v[v][i] * w;
				den += w;
				mx = isnan(mx) || s->v[v][i] > mx ? s->v[v][i] : mx;
			}
			s->v[v][j] = v_mode(v) == 2 ? mx : den > 0 ? num / den : NAN;
		}
		s->t0[j] = s->t0[j * s->k];
		s->t[j] = s->t[end - 1];
	}
	s->n = j;
}

static int series_load(const json_t *intervals, struct series *s)
{
	size_t n = json_array_size(intervals), i;
	int v, d;

	memset(s, 0, sizeof(*s));
	if (!n)
		return -ENOENT;
	s->t = calloc((NV + 6) * n, sizeof(double));
	if (!s->t)
		return -ENOMEM;
	for (v = 0; v < NV; v++)
		s->v[v] = s->t + (size_t)(v + 1) * n;
	s->dur = s->t + (size_t)(NV + 1) * n;
	for (d = 0; d < 3; d++)
		s->ios[d] = s->t + (size_t)(NV + 2 + d) * n;
	s->t0 = s->t + (size_t)(NV + 5) * n;
	s->raw = n;
	for (i = 0; i < n; i++)
		read_interval(s, i, json_array_get(intervals, i));
	downsample(s);
	return 0;
}

/* ---- per-job pieces ---------------------------------------------------- */

struct jobctx {
	FILE *f;
	const json_t *job;
	char id[40];		/* element id prefix: "f0j1" */
	int dirs[3];		/* directions with I/O */
	struct series s;
	const json_t *steady;
	char caption[200];	/* downsampling note */
};

/* Time-series bounds over values [v0, v0 + nv) of the active directions (or all). */
static void y_range(const struct jobctx *j, const int *vs, size_t nv, double *lo, double *hi)
{
	size_t i, k;

	*lo = *hi = NAN;
	for (k = 0; k < nv; k++)
		for (i = 0; i < j->s.n; i++) {
			double y = j->s.v[vs[k]][i];

			if (!isfinite(y) || y <= 0)
				continue;
			*lo = isnan(*lo) || y < *lo ? y : *lo;
			*hi = isnan(*hi) || y > *hi ? y : *hi;
		}
}

/* Ramp, MSER warm-up, steady window and where steady state was lost, on a time chart. */
static void bands(const struct jobctx *j, struct svg_chart *c)
{
	const json_t *st = j->steady, *mser = json_object_get(st, "mser");
	double r = j->s.ramp_end_s, a, b, trunc, lost;
	char lab[96];

	if (r > 0)
		svg_chart_band(c, 0, r, "ramp", "ramp");
	trunc = report_html_num(mser, "truncate_ms");
	if (trunc > 0)
		svg_chart_band(c, r, r + trunc / 1e3, "mser", "MSER warm-up");
	a = report_html_num(st, "start_ms");
	b = report_html_num(st, "end_ms");
	if (json_is_true(json_object_get(st, "attained")) && isfinite(a) && isfinite(b)) {
		snprintf(lab, sizeof(lab), "steady window (%s)",
			 json_string_value(json_object_get(st, "criterion")) ?
			 json_string_value(json_object_get(st, "criterion")) : "rule");
		svg_chart_band(c, r + a / 1e3, r + b / 1e3, "steady", lab);
	}
	lost = report_html_num(st, "lost_ms");
	if (isfinite(lost))
		svg_chart_vline(c, r + lost / 1e3, "mser", "steady state lost");
}

/*
 * One time chart: values @vs (with @labels and @styles) over time; @log for
 * a log y axis.  Lines without any finite value are left out.
 */
static void time_chart(struct jobctx *j, const char *suffix, const char *title,
		       const char *ylabel, enum svg_fmt yfmt, int log, const int *vs,
		       const char *const *labels, const unsigned *styles, size_t nv)
{
	struct svg_chart_spec sp = { .title = title, .xlabel = "time since start",
		.ylabel = ylabel, .xkind = SVG_TIME, .xfmt = SVG_FMT_TIME, .ykind = log ? SVG_LOG :
		SVG_LINEAR, .yfmt = yfmt, .xlo = 0, .ynice = 1 };	/* time: the run's own span */
	const char *lab[NV];
	unsigned sty[NV];
	char id[64], desc[160];
	struct svg_chart c;
	size_t k, nl = 0, i;
	/* each interval's value over its own span, from its start: the first from 0 */
	double *sx = malloc(2 * (j->s.n ? j->s.n : 1) * sizeof(*sx));
	double *sy = malloc(2 * (j->s.n ? j->s.n : 1) * sizeof(*sy));

	if (!sx || !sy) {
		free(sx);
		free(sy);
		return;
	}
	for (i = 0; i < j->s.n; i++) {
		sx[2 * i] = j->s.t0[i];
		sx[2 * i + 1] = j->s.t[i];
	}
	snprintf(id, sizeof(id), "%s-%s", j->id, suffix);
	snprintf(desc, sizeof(desc), "%s over time, one step per %zu interval%s, over its own span",
		 title, j->s.k, j->s.k > 1 ? "s (averaged)" : "");
	sp.id = id;
	sp.desc = desc;
	sp.xhi = j->s.n ? j->s.t[j->s.n - 1] : NAN;
	y_range(j, vs, nv, &sp.ylo, &sp.yhi);
	if (!log)
		sp.ylo = 0;
	report_html_fig_begin(j->f);
	svg_chart_begin(&c, j->f, &sp);
	bands(j, &c);
	for (k = 0; k < nv; k++) {
		double lo, hi;

		y_range(j, &vs[k], 1, &lo, &hi);
		if (isnan(hi) && !(vs[k] < V_LAT && j->dirs[vs[k] % 3]))
			continue;
		for (i = 0; i < j->s.n; i++)
			sy[2 * i] = sy[2 * i + 1] = j->s.v[vs[k]][i];
		svg_chart_line(&c, styles[k], sx, sy, 2 * j->s.n, labels[k]);
		lab[nl] = labels[k];
		sty[nl++] = styles[k];
	}
	svg_chart_legend(&c, lab, sty, nl);
	svg_chart_end(&c);
	report_html_fig_end(j->f, j->caption);
	free(sx);
	free(sy);
}

static void time_charts(struct jobctx *j)
{
	static const char *const mean_l[] = { "read mean", "write mean", "trim mean" };
	static const char *const p99_l[] = { "read p99", "write p99", "trim p99" };
	int vs[8], d;
	const char *lab[8];
	unsigned sty[8];
	size_t n = 0;

	for (d = 0; d < 3; d++)
		if (j->dirs[d]) {
			vs[n] = V_IOPS + d;
			lab[n] = ddir_name(d);
			sty[n++] = (unsigned)d;
		}
	time_chart(j, "iops", "IOPS over time", "IOPS", SVG_FMT_NUM, 0, vs, lab, sty, n);
	for (d = 0; d < (int)n; d++)
		vs[d] += V_BW;
	time_chart(j, "bw", "Bandwidth over time", "bandwidth (MiB/s)", SVG_FMT_NUM, 0, vs, lab,
		   sty, n);
	n = 0;
	for (d = 0; d < 3; d++)
		if (j->dirs[d]) {
			vs[n] = V_LAT + d;
			lab[n] = mean_l[d];
			sty[n++] = (unsigned)d;
			vs[n] = V_P99 + d;
			lab[n] = p99_l[d];
			sty[n++] = (unsigned)d + 3;
		}
	time_chart(j, "lat", "Latency over time (mean and p99)", "latency", SVG_FMT_NS, 1, vs,
		   lab, sty, n);
}

static void device_charts(struct jobctx *j)
{
	static const int qd[] = { V_DQD_R, V_DQD_W, V_DQD }, lat[] = { V_DLAT_R, V_DLAT_W };
	const char *const qdl[] = { ddir_name(DDIR_READ), ddir_name(DDIR_WRITE), "total" };
	const char *const latl[] = { ddir_name(DDIR_READ), ddir_name(DDIR_WRITE) };
	static const unsigned qds[] = { 0, 1, 5 }, lats[] = { 0, 1 };

	if (!j->s.has_dev)
		return;
	time_chart(j, "dqd", "Device queue depth over time", "requests in flight", SVG_FMT_NUM,
		   0, qd, qdl, qds, 3);
	time_chart(j, "dlat", "Device latency over time (mean)", "latency", SVG_FMT_NS, 1, lat,
		   latl, lats, 2);
}

/* Bars of the share of I/Os per tenth of a decade of latency, from json+ bins. */
static void histogram(struct jobctx *j)
{
	double x0[3][80], x1[3][80], y[3][80], tot[3] = { 0 }, lo = NAN, hi = NAN, ymax = 0;
	const char *lab[3], *which;
	unsigned sty[3];
	size_t n = 0, k;
	char id[64];
	int d;

	memset(y, 0, sizeof(y));
	for (d = 0; d < 3; d++) {
		const json_t *bins = json_object_get(report_html_lat(json_object_get(j->job,
						     ddir_name(d)), &which), "bins");
		const char *key;
		json_t *val;

		json_object_foreach((json_t *)bins, key, val) {
			double v = strtod(key, NULL), c = json_number_value(val);
			int b = v >= 1 ? (int)floor(log10(v) * 10) : 0;

			b = b < 0 ? 0 : b > 79 ? 79 : b;
			y[d][b] += c;
			tot[d] += c;
		}
	}
	for (d = 0; d < 3; d++)
		if (tot[d] > 0)
			for (k = 0; k < 80; k++) {
				x0[d][k] = pow(10, k / 10.0);
				x1[d][k] = pow(10, (k + 1) / 10.0);
				y[d][k] = y[d][k] > 0 ? 100 * y[d][k] / tot[d] : NAN;
				if (y[d][k] > 0) {
					lo = isnan(lo) || x0[d][k] < lo ? x0[d][k] : lo;
					hi = isnan(hi) || x1[d][k] > hi ? x1[d][k] : hi;
					ymax = y[d][k] > ymax ? y[d][k] : ymax;
				}
			}
	if (isnan(lo))
		return;
	{
		struct svg_chart_spec sp = { .title = "Latency histogram", .xlabel = "latency",
			.ylabel = "% of I/Os", .xkind = SVG_LOG, .xfmt = SVG_FMT_NS, .ykind =
			SVG_LINEAR, .yfmt = SVG_FMT_NUM, .xlo = lo, .xhi = hi, .ylo = 0, .yhi = ymax,
			.xnice = 1, .ynice = 1, .desc = "Share of the I/Os in each tenth of a decade "
			"of latency, from the result's histogram bins (json+)." };
		struct svg_chart c;

		snprintf(id, sizeof(id), "%s-hist", j->id);
		sp.id = id;
		report_html_fig_begin(j->f);
		svg_chart_begin(&c, j->f, &sp);
		for (d = 0; d < 3; d++) {
			if (!(tot[d] > 0))
				continue;
			svg_chart_bars(&c, (unsigned)d, x0[d], x1[d], y[d], 80, ddir_name(d));
			lab[n] = ddir_name(d);
			sty[n++] = (unsigned)d;
		}
		svg_chart_legend(&c, lab, sty, n);
		svg_chart_end(&c);
		report_html_fig_end(j->f, n > 1 ? "Directions overlap: bars are translucent." :
				    NULL);
	}
}

static void percentiles(struct jobctx *j)
{
	struct report_html_curve c[3];
	const char *lab[3], *which = "latency";
	unsigned sty[3];
	size_t n = 0;
	char id[64], title[96], note[200];
	int d, bins = 0;

	for (d = 0; d < 3; d++) {
		const json_t *lat = report_html_lat(json_object_get(j->job, ddir_name(d)), &which);

		if (!j->dirs[d] || report_html_curve(lat, &c[n]))
			continue;
		bins |= c[n].from_bins;
		lab[n] = ddir_name(d);
		sty[n++] = (unsigned)d;
	}
	if (!n) {
		fputs("<p class=\"missing\">No latency percentiles in this result "
		      "(clat_percentiles off, or no I/O).</p>\n", j->f);
		return;
	}
	snprintf(id, sizeof(id), "%s-pct", j->id);
	snprintf(title, sizeof(title), "Latency by percentile (%s)", which);
	snprintf(note, sizeof(note), "%s, over the whole measured run.%s", bins ?
		 "From the histogram bins (json+): exact up to a bucket's width (1/128 of its value)" :
		 "From the result's percentile list (no json+ bins)",
		 bins ? " The curve ends where the samples do (p = 1 - 1/N)." : "");
	report_html_curve_chart(j->f, id, title, c, lab, sty, n, lab, sty, n, note);
}

/* ---- tables ------------------------------------------------------------ */

static void td_text(FILE *f, const char *s)
{
	fputs("<td>", f);
	report_html_esc(f, s ? s : "-");
	fputs("</td>", f);
}

static void td_num(FILE *f, const char *s)
{
	fprintf(f, "<td class=\"n\">%s</td>", s);
}

/* The value of percentile @p of a latency object's list, NaN when absent. */
static double pct_of(const json_t *lat, double p)
{
	const json_t *pct = json_object_get(lat, "percentile");
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)pct, key, v)
		if (fabs(strtod(key, NULL) - p) < 1e-9)
			return json_number_value(v);
	return NAN;
}

static void summary_rows(FILE *f, const json_t *job, const char *jname, size_t idx)
{
	char b[9][40];
	const char *which;
	int d;

	for (d = 0; d < 3; d++) {
		const json_t *o = json_object_get(job, ddir_name(d));
		const json_t *lat = report_html_lat(o, &which), *tl = json_object_get(o, "lat_ns");

		if (!(report_html_num(o, "total_ios") > 0))
			continue;
		human_count(b[0], sizeof(b[0]), report_html_num(o, "iops"), HUMAN_PAGE);
		human_rate(b[1], sizeof(b[1]), report_html_num(o, "bw_bytes"), HUMAN_PAGE);
		human_ns(b[2], sizeof(b[2]), report_html_num(tl, "mean") > 0 ?
				   report_html_num(tl, "mean") : report_html_num(lat, "mean"), HUMAN_PAGE);
		human_ns(b[3], sizeof(b[3]), pct_of(lat, 50), HUMAN_PAGE);
		human_ns(b[4], sizeof(b[4]), pct_of(lat, 99), HUMAN_PAGE);
		human_ns(b[5], sizeof(b[5]), pct_of(lat, 99.9), HUMAN_PAGE);
		human_ns(b[6], sizeof(b[6]), report_html_num(lat, "max"), HUMAN_PAGE);
		snprintf(b[7], sizeof(b[7]), "%.0f", report_html_num(o, "total_ios"));
		snprintf(b[8], sizeof(b[8]), "%.1f s", report_html_num(o, "runtime") / 1e3);
		fprintf(f, "<tr><td class=\"n\">%zu</td>", idx + 1);
		td_text(f, jname);
		td_text(f, ddir_name(d));
		for (int k = 0; k < 9; k++)
			td_num(f, b[k]);
		fputs("</tr>\n", f);
	}
}

static void summary_table(FILE *f, const json_t *jobs)
{
	const json_t *job;
	size_t i;

	fputs("<table class=\"summary\"><tr><th>#</th><th>job</th><th>dir</th><th>IOPS</th><th>bandwidth"
	      "</th><th>mean lat</th><th>p50</th><th>p99</th><th>p99.9</th><th>max</th>"
	      "<th>I/Os</th><th>runtime</th></tr>\n", f);
	json_array_foreach((json_t *)jobs, i, job)
		summary_rows(f, job, json_string_value(json_object_get(job, "jobname")), i);
	fputs("</table>\n", f);
}

static void kv_row(FILE *f, const char *k, const char *v)
{
	fputs("<tr>", f);
	td_text(f, k);
	td_text(f, v);
	fputs("</tr>\n", f);
}

static void cpu_table(FILE *f, const json_t *job)
{
	double usr = report_html_num(job, "usr_cpu"), sys = report_html_num(job, "sys_cpu");
	double rt = report_html_num(job, "job_runtime"), ios = 0;
	char b[64];
	int d;

	for (d = 0; d < 3; d++)
		ios += fmax(0, report_html_num(json_object_get(job, ddir_name(d)), "total_ios"));
	fputs("<table class=\"kv\"><tr><th colspan=\"2\">CPU</th></tr>\n", f);
	snprintf(b, sizeof(b), "%.2f%% user, %.2f%% system", usr, sys);
	kv_row(f, "CPU of the job's threads", b);
	human_ns(b, sizeof(b), ios > 0 && isfinite(rt) ? (usr + sys) / 100 * rt * 1e6 /
			   ios : NAN, HUMAN_PAGE);
	kv_row(f, "CPU per I/O ((usr+sys) x runtime / I/Os)", b);
	snprintf(b, sizeof(b), "%.0f", report_html_num(job, "ctx"));
	kv_row(f, "context switches", b);
	fputs("</table>\n", f);
}

/* Options as given: fio's "global options" overlaid with the job's own. */
static void options_table(FILE *f, const json_t *root, const json_t *job)
{
	const json_t *g = json_object_get(root, "global options");
	const json_t *o = json_object_get(job, "job options");
	const char *key;
	json_t *v;

	fputs("<table class=\"kv\"><tr><th>option (as given)</th><th>value</th></tr>\n", f);
	json_object_foreach((json_t *)g, key, v)
		if (!json_object_get(o, key))
			kv_row(f, key, json_string_value(v) ? json_string_value(v) : "");
	json_object_foreach((json_t *)o, key, v)
		kv_row(f, key, json_string_value(v) ? json_string_value(v) : "");
	fputs("</table>\n", f);
}

/* An array of strings as "a; b; c". */
static void join_strings(const json_t *v, char *buf, size_t sz)
{
	size_t i, len = 0;
	const json_t *it;

	buf[0] = 0;
	json_array_foreach((json_t *)v, i, it)
		if (len < sz)
			len += (size_t)snprintf(buf + len, sz - len, "%s%s", i ? "; " : "",
						json_string_value(it) ? json_string_value(it) : "?");
}

/* A JSON value as short text: strings bare, numbers as plain digits (human_plain), others as JSON. */
static void value_text(const json_t *v, char *buf, size_t sz)
{
	char *s;

	if (json_is_string(v))
		snprintf(buf, sz, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, sz, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		human_plain(buf, sz, json_real_value(v));
	else if (json_is_array(v) && json_is_string(json_array_get(v, 0)))
		join_strings(v, buf, sz);
	else if ((s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT))) {
		snprintf(buf, sz, "%s", s);
		free(s);
	} else {
		snprintf(buf, sz, "?");
	}
}

/* Rows "prefix.key = value" for a JSON tree; arrays of scalars stay on one row. */
static void flatten(FILE *f, const char *prefix, const json_t *v, int depth)
{
	char key[256], val[512];
	const char *k;
	json_t *c;
	size_t i;

	if (json_is_object(v) && depth < 6) {
		json_object_foreach((json_t *)v, k, c) {
			snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "", k);
			flatten(f, key, c, depth + 1);
		}
	} else if (json_is_array(v) && json_array_size(v) && json_is_object(json_array_get(v, 0)) &&
		   depth < 6) {
		json_array_foreach((json_t *)v, i, c) {
			snprintf(key, sizeof(key), "%s[%zu]", prefix, i);
			flatten(f, key, c, depth + 1);
		}
	} else {
		value_text(v, val, sizeof(val));
		kv_row(f, prefix, val);
	}
}

/* What the job's steady state, MSER, tail and bottleneck analyses found. */
static void findings(FILE *f, const json_t *job)
{
	const json_t *it = json_object_get(job, "iotrial"), *st = json_object_get(it, "steady");
	const json_t *mser = json_object_get(st, "mser"), *bn = json_object_get(it, "bottleneck");
	const json_t *held = json_object_get(st, "held");
	char mean[32];

	if (!st && !bn)
		return;
	fputs("<ul class=\"findings\">", f);
	if (st) {
		int ok = json_is_true(json_object_get(st, "attained"));

		fputs("<li><b>Steady state ", f);
		fputs(ok ? "reached" : "NOT reached", f);
		fputs("</b> (", f);
		report_html_esc(f, json_string_value(json_object_get(st, "spec")));
		fputs(")", f);
		human_count(mean, sizeof(mean), report_html_num(st, "mean"), HUMAN_PAGE);
		if (ok && isfinite(report_html_num(st, "start_ms")))
			report_html_escf(f, ": window %.1f-%.1f s after the ramp, mean %s %s",
					 report_html_num(st, "start_ms") / 1e3,
					 report_html_num(st, "end_ms") / 1e3, mean,
					 json_string_value(json_object_get(st, "metric")) ?
					 json_string_value(json_object_get(st, "metric")) : "");
		else if (!ok && isfinite(report_html_num(st, "range_pct")))
			report_html_escf(f, ": last window's range %.1f%%, slope excursion %.1f%%",
					 report_html_num(st, "range_pct"),
					 report_html_num(st, "slope_excursion_pct"));
		if (json_is_boolean(held))
			report_html_escf(f, "; %s", json_is_true(held) ? "held to the end of the run" :
					 "not held");
		if (isfinite(report_html_num(st, "lost_ms")))
			report_html_escf(f, " (lost at %.1f s after the ramp)",
					 report_html_num(st, "lost_ms") / 1e3);
		fputs(".</li>", f);
	}
	if (mser) {
		const json_t *ci = json_object_get(mser, "ci95");
		char sd[32], lo[32], hi[32];

		human_count(mean, sizeof(mean), report_html_num(mser, "mean"), HUMAN_PAGE);
		human_count(sd, sizeof(sd), report_html_num(mser, "sd"), HUMAN_PAGE);
		fputs("<li>", f);
		report_html_escf(f, "MSER: the first %.1f s are warm-up (truncated); mean after it "
				 "%s, sd %s", report_html_num(mser, "truncate_ms") / 1e3, mean, sd);
		if (json_array_size(ci) == 2) {
			human_count(lo, sizeof(lo), json_number_value(json_array_get(ci, 0)), HUMAN_PAGE);
			human_count(hi, sizeof(hi), json_number_value(json_array_get(ci, 1)), HUMAN_PAGE);
			report_html_escf(f, ", 95%% CI %s..%s", lo, hi);
		}
		if (isfinite(report_html_num(mser, "batches")))
			report_html_escf(f, " (%.0f batches)", report_html_num(mser, "batches"));
		fputs(".</li>", f);
	}
	if (json_object_get(st, "tail")) {
		fputs("<li>Tail: <table class=\"kv\">", f);
		flatten(f, "", json_object_get(st, "tail"), 0);
		fputs("</table></li>", f);
	}
	if (bn) {
		fputs("<li><b>Bottleneck: ", f);
		report_html_esc(f, json_string_value(json_object_get(bn, "verdict")));
		fputs("</b>", f);
		if (json_is_string(json_object_get(bn, "evidence"))) {
			fputs(": ", f);
			report_html_esc(f, json_string_value(json_object_get(bn, "evidence")));
		} else if (json_object_get(bn, "evidence")) {
			fputs("<table class=\"kv\">", f);
			flatten(f, "evidence", json_object_get(bn, "evidence"), 0);
			fputs("</table>", f);
		}
		fputs("</li>", f);
	}
	fputs("</ul>\n", f);
}

static void job_section(FILE *f, const json_t *root, const json_t *job, size_t fi, size_t ji)
{
	struct jobctx j = { .f = f, .job = job };
	const json_t *it = json_object_get(job, "iotrial");
	int d, sr;

	snprintf(j.id, sizeof(j.id), "f%zuj%zu", fi, ji);
	j.steady = json_object_get(it, "steady");
	for (d = 0; d < 3; d++)
		j.dirs[d] = report_html_num(json_object_get(job, ddir_name(d)), "total_ios") > 0;
	fprintf(f, "<section class=\"job\"><h3>#%zu job ", ji + 1);
	report_html_esc(f, json_string_value(json_object_get(job, "jobname")));
	report_html_escf(f, " (group %.0f", report_html_num(job, "groupid"));
	if (report_html_num(it, "nr_threads") > 1)
		report_html_escf(f, ", %.0f threads merged", report_html_num(it, "nr_threads"));
	fputs(")</h3>\n", f);
	if (json_is_true(json_object_get(it, "partial")))
		fputs("<p class=\"warn\">This job ended early (signal or error): its figures "
		      "cover only what it ran.</p>\n", f);
	findings(f, job);
	report_breakdown_html_job(f, job);	/* where each I/O's time went */
	sr = series_load(json_object_get(it, "intervals"), &j.s);
	if (j.s.k > 1)
		snprintf(j.caption, sizeof(j.caption), "%zu intervals drawn as %zu points: each "
			 "the average of %zu intervals (p99: their highest).", j.s.raw, j.s.n, j.s.k);
	fputs("<div class=\"charts\">\n", f);
	if (!sr) {
		time_charts(&j);
		device_charts(&j);
	}
	percentiles(&j);
	histogram(&j);
	fputs("</div>\n", f);
	if (sr == -ENOENT)
		fputs("<p class=\"missing\">No time series: this result has no per-interval "
		      "figures (fio's JSON does not carry them; iotrial's has "
		      "<code>iotrial.intervals</code>), so IOPS, bandwidth and latency over time, "
		      "the ramp and the steady window cannot be drawn.</p>\n", f);
	fputs("<div class=\"charts\">", f);
	cpu_table(f, job);
	options_table(f, root, job);
	fputs("</div></section>\n", f);
	series_free(&j.s);
}

static void warnings(FILE *f, const json_t *root)
{
	const json_t *w = json_object_get(json_object_get(root, "iotrial"), "warnings"), *it;
	size_t i;

	if (!json_object_get(root, "iotrial")) {
		fputs("<p class=\"missing\">fio's result: no plausibility warnings recorded "
		      "(<code>iotrial check FILE</code> runs them on it).</p>\n", f);
		return;
	}
	if (!json_array_size(w)) {
		fputs("<p>Plausibility checks: no warnings.</p>\n", f);
		return;
	}
	fputs("<div class=\"warn\"><b>Plausibility warnings</b><ul>", f);
	json_array_foreach((json_t *)w, i, it)
		report_html_warning_li(f, it);
	fputs("</ul></div>\n", f);
}

/* The environment; targets that share a filesystem and device show them once. */
static void environment(FILE *f, const json_t *root)
{
	const json_t *env = json_object_get(json_object_get(root, "iotrial"), "environment");
	const json_t *tg = json_object_get(env, "targets"), *t0 = json_array_get(tg, 0), *t;
	const char *key;
	json_t *v;
	size_t i, same = 1;
	char k[64];

	fputs("<h3>Environment</h3>\n", f);
	if (!env) {
		fputs("<p class=\"missing\">Not recorded (fio's results carry no environment).</p>\n",
		      f);
		return;
	}
	fputs("<table class=\"kv env\">\n", f);
	json_object_foreach((json_t *)env, key, v)
		if (strcmp(key, "targets"))
			flatten(f, key, v, 0);
	json_array_foreach((json_t *)tg, i, t)
		same &= json_equal(json_object_get(t, "fs"), json_object_get(t0, "fs")) &&
			json_equal(json_object_get(t, "device"), json_object_get(t0, "device"));
	json_array_foreach((json_t *)tg, i, t) {
		snprintf(k, sizeof(k), "targets[%zu]", i);
		if (!i || !same) {
			flatten(f, k, t, 0);
			continue;
		}
		snprintf(k, sizeof(k), "targets[%zu].path", i);
		flatten(f, k, json_object_get(t, "path"), 0);
	}
	if (same && json_array_size(tg) > 1)
		kv_row(f, "targets", "all on the filesystem and device of targets[0]");
	fputs("</table>\n", f);
}

static void disks(FILE *f, const json_t *root)
{
	const json_t *du = json_object_get(root, "disk_util"), *d;
	size_t i;
	char name[80];

	if (!json_array_size(du))
		return;
	fputs("<h3>Devices (disk_util: the whole run)</h3>\n<table class=\"kv\">\n", f);
	json_array_foreach((json_t *)du, i, d) {
		snprintf(name, sizeof(name), "%s", json_string_value(json_object_get(d, "name")) ?
			 json_string_value(json_object_get(d, "name")) : "?");
		flatten(f, name, d, 0);
	}
	fputs("</table>\n", f);
}

static void file_section(FILE *f, const json_t *root, const char *name, size_t fi)
{
	const json_t *jobs = json_object_get(root, "jobs"), *job;
	const json_t *it = json_object_get(root, "iotrial");
	size_t i;

	fputs("<h2>", f);
	report_html_esc(f, name);
	fputs("</h2>\n<p class=\"meta\">", f);
	report_html_esc(f, json_string_value(json_object_get(root, "fio version")));
	fputs(", ", f);
	report_html_esc(f, json_string_value(json_object_get(root, "time")));
	if (json_string_value(json_object_get(it, "clock_source")))
		report_html_escf(f, ", clock %s", json_string_value(json_object_get(it, "clock_source")));
	report_html_escf(f, ", %zu job entr%s", json_array_size(jobs),
			 json_array_size(jobs) == 1 ? "y" : "ies");
	fputs("</p>\n", f);
	if (json_is_true(json_object_get(it, "partial")))
		report_html_escf(f, "<p class=\"warn\">Partial result: the run was stopped "
				 "(signal %lld) or a job failed.</p>\n",
				 (long long)json_integer_value(json_object_get(it, "signal")));
	warnings(f, root);
	summary_table(f, jobs);
	json_array_foreach((json_t *)jobs, i, job)
		job_section(f, root, job, fi, i);
	report_breakdown_html_groups(f, root);	/* each group's device window and time per I/O */
	report_host_html(f, root);	/* a run in a QEMU guest: the host's side */
	environment(f, root);
	disks(f, root);
}

int report_html_run(FILE *f, json_t *const *roots, const char *const *names, size_t n)
{
	size_t i;

	report_html_page_begin(f, n == 1 ? names[0] : "iotrial report");
	fputs("<h1>iotrial run report</h1>\n<p class=\"meta\">", f);
	report_html_escf(f, "%zu result file%s. Times are seconds since the job started I/O; "
			 "shaded: ramp (grey), MSER warm-up (red), steady window (green).",
			 n, n == 1 ? "" : "s");
	fputs("</p>\n", f);
	for (i = 0; i < n; i++)
		file_section(f, roots[i], names[i], i);
	report_html_page_end(f);
	fflush(f);
	return ferror(f) ? -EIO : 0;
}
