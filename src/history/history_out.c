/*
 * history_out: the history's text and JSON (list, show, trend).  Writes to
 * the FILE * it is given; the CLI chooses the format and the destination.
 * Numbers in JSON are plain (null when absent); text rounds for reading.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>	/* strtoull */
#include <string.h>
#include <time.h>
#include "history/history.h"
#include "lib/human.h"	/* human_*: the same number formats as the reports */
#include "report/report_html_page.h"	/* report_html_num */

static json_t *jreal(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *jstr(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

/* "2025-03-01 14:02:11" (UTC). */
static void fmt_time(int64_t ms, char *buf, size_t sz)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sz, "%Y-%m-%d %H:%M:%S", &tm);
}

static void fmt_iso(int64_t ms, char *buf, size_t sz)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sz, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* "randread bs=4096 qd=32 libaio direct" from the signature, or "3 jobs". */
/* A block size in bytes as people type it: 4096 -> 4k, 1048576 -> 1m; else as stored. */
static void short_bs(char *bs, size_t sz)
{
	static const char unit[] = "kmg";
	char *end;
	unsigned long long v = strtoull(bs, &end, 10);
	int u = -1;

	if (*end || !v)
		return;
	while (u < 2 && v % 1024 == 0) {
		v /= 1024;
		u++;
	}
	if (u >= 0)
		snprintf(bs, sz, "%llu%c", v, unit[u]);
}

/* The workload column: one job's signature, short ("randread 4k qd32 libaio direct"). */
static void workload(const struct history_key *k, char *buf, size_t sz)
{
	char rw[24] = "?", bs[24] = "?", qd[16] = "?", eng[24] = "?", nj[16] = "1", dir[4] = "0";
	char rate[40] = "", riops[40] = "", sweep[40] = "";
	const char *p = k->sig_text;

	if (k->nr_jobs != 1) {
		snprintf(buf, sz, "%u jobs", k->nr_jobs);
		return;
	}
	while (p && *p) {
		sscanf(p, "rw=%23s", rw);
		sscanf(p, "bs=%23s", bs);
		sscanf(p, "iodepth=%15s", qd);
		sscanf(p, "ioengine=%23s", eng);
		sscanf(p, "numjobs=%15s", nj);
		sscanf(p, "direct=%3s", dir);
		sscanf(p, "rate=%39s", rate);
		sscanf(p, "rate_iops=%39s", riops);
		sscanf(p, "sweep=%39s", sweep);	/* a sweep's: what it judged (history_key.c) */
		p = strchr(p, ' ');
		p = p ? p + 1 : NULL;
	}
	short_bs(bs, sizeof(bs));
	snprintf(buf, sz, "%s %s qd%s%s%s %s%s%s%s%s%s%s%s", rw, bs, qd, strcmp(nj, "1") ? " x" : "",
		 strcmp(nj, "1") ? nj : "", eng, strcmp(dir, "1") ? "" : " direct",
		 rate[0] ? " rate=" : "", rate, riops[0] ? " rate_iops=" : "", riops,
		 sweep[0] ? " sweep " : "", sweep);
}

json_t *history_run_json(const struct history_run *r)
{
	char iso[32], side[2] = { r->trial_side, 0 };
	json_t *o, *labels = json_array();
	char buf[256], *tok, *save = NULL;

	fmt_iso(r->start_ms, iso, sizeof(iso));
	snprintf(buf, sizeof(buf), "%s", r->labels);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		json_array_append_new(labels, json_string(tok));
	o = json_pack("{s:I, s:s, s:I, s:I, s:s, s:s, s:o, s:o, s:o, s:o, "
		      "s:{s:s, s:o, s:o, s:o, s:o, s:o, s:o}, s:s, s:s, s:i, s:s, s:b, s:o, s:o, "
		      "s:{s:o, s:o, s:o, s:o, s:o}, s:o, s:o}",
		      "id", (json_int_t)r->id, "start", iso, "start_ms", (json_int_t)r->start_ms,
		      "recorded_ms", (json_int_t)r->recorded_ms, "source", r->source,
		      "tool", r->tool, "preset", jstr(r->preset),
		      "exit_code", r->exit_code >= 0 ? json_integer(r->exit_code) : json_null(),
		      "host", jstr(r->key.host), "kernel", jstr(r->key.kernel),
		      "device", "id", r->key.dev_id, "name", jstr(r->key.dev_name),
		      "model", jstr(r->key.dev_model), "serial", jstr(r->key.dev_serial),
		      "driver", jstr(r->key.dev_driver), "scheduler", jstr(r->key.dev_scheduler),
		      "write_cache", jstr(r->key.dev_cache),
		      "sig", r->key.sig, "sig_text", r->key.sig_text, "jobs", (int)r->key.nr_jobs,
		      "job_name", r->job_name, "partial", r->partial,
		      "steady", r->steady < 0 ? json_null() : json_boolean(r->steady),
		      "bottleneck", jstr(r->bottleneck),
		      "figures", "total_iops", jreal(r->total_iops), "read_bw_bytes",
		      jreal(r->read_bw), "write_bw_bytes", jreal(r->write_bw), "read_lat_mean_ns",
		      jreal(r->read_lat_ns), "write_lat_mean_ns", jreal(r->write_lat_ns),
		      "trial", r->trial_id ? json_pack("{s:I, s:s}", "id", (json_int_t)r->trial_id,
						       "side", side) : json_null(),
		      "labels", labels);
	return o;
}

int history_write_list_head(FILE *f)
{
	return fprintf(f, "%-6s %-19s %-22s %-12s %-14s %-34s %9s %12s %9s %s\n", "ID",
		       "START (UTC)", "DEVICE", "HOST", "JOB", "WORKLOAD", "IOPS", "BW", "LAT",
		       "LABELS") < 0 ? -1 : 0;
}

int history_write_list_line(FILE *f, const struct history_run *r)
{
	char when[24], wl[160], iops[24], bw[32], lat[24], id[24];
	double b = (isfinite(r->read_bw) ? r->read_bw : 0) + (isfinite(r->write_bw) ? r->write_bw : 0);
	double l = isfinite(r->read_lat_ns) ? r->read_lat_ns : r->write_lat_ns;

	fmt_time(r->start_ms, when, sizeof(when));
	workload(&r->key, wl, sizeof(wl));
	human_count(iops, sizeof(iops), r->total_iops, HUMAN_PAGE);
	human_rate(bw, sizeof(bw), b > 0 ? b : NAN, HUMAN_PAGE);
	human_ns(lat, sizeof(lat), l, HUMAN_PAGE);
	snprintf(id, sizeof(id), "%lld%s", (long long)r->id, r->partial ? "*" : "");
	/* the workload is never cut (a cut word misleads): a longer one pushes the row right */
	return fprintf(f, "%-6s %-19s %-22.22s %-12.12s %-14.14s %-34s %9s %12s %9s %s\n", id,
		       when, r->key.dev_name[0] ? r->key.dev_name : r->key.dev_id,
		       r->key.host[0] ? r->key.host : "-", r->job_name, wl, iops, bw, lat,
		       r->labels) < 0 ? -1 : 0;
}

int history_write_show_text(FILE *f, const struct history_run *r, const json_t *figures)
{
	char when[24], rec[24], a[32], b[32], c[32], d[32];
	const json_t *x;
	size_t i;

	fmt_time(r->start_ms, when, sizeof(when));
	fmt_time(r->recorded_ms, rec, sizeof(rec));
	fprintf(f, "run %lld: %s, recorded %s UTC (%s, %s%s%s)\n", (long long)r->id, r->tool, rec,
		r->source, r->exit_code >= 0 ? "exit " : "exit unknown",
		r->exit_code >= 0 ? (snprintf(a, sizeof(a), "%d", r->exit_code), a) : "",
		r->partial ? ", partial: cut short" : "");
	fprintf(f, "  start:     %s UTC\n", when);
	fprintf(f, "  host:      %s, kernel %s\n", r->key.host[0] ? r->key.host : "-",
		r->key.kernel[0] ? r->key.kernel : "-");
	fprintf(f, "  device:    %s (%s%s%s; scheduler %s, write cache %s)\n", r->key.dev_id,
		r->key.dev_name[0] ? r->key.dev_name : "-", r->key.dev_driver[0] ? ", " : "",
		r->key.dev_driver, r->key.dev_scheduler[0] ? r->key.dev_scheduler : "-",
		r->key.dev_cache[0] ? r->key.dev_cache : "-");
	fprintf(f, "  workload:  %s [%s]\n", r->key.sig_text, r->key.sig);
	fprintf(f, "  jobs:      %u, the first '%s'%s%s\n", r->key.nr_jobs, r->job_name,
		r->preset[0] ? "; preset " : "", r->preset);
	fprintf(f, "  verdicts:  steady state %s; bottleneck %s\n",
		r->steady < 0 ? "not asked" : r->steady ? "reached" : "not reached",
		r->bottleneck[0] ? r->bottleneck : "-");
	if (r->trial_id)
		fprintf(f, "  trial:     %lld, side %c\n", (long long)r->trial_id, r->trial_side);
	if (r->labels[0])
		fprintf(f, "  labels:    %s\n", r->labels);
	fprintf(f, "  %-16s %-5s %-6s %9s %12s %9s %9s %7s\n", "JOB", "DIR", "WINDOW", "IOPS", "BW",
		"LAT MEAN", "LAT P99", "CV");
	json_array_foreach((json_t *)figures, i, x) {
		const char *name = json_string_value(json_object_get(x, "name"));
		double cv = report_html_num(x, "interval_cv");
		char cvs[16];

		human_count(a, sizeof(a), report_html_num(x, "iops"), HUMAN_PAGE);
		human_rate(b, sizeof(b), report_html_num(x, "bw_bytes"), HUMAN_PAGE);
		human_ns(c, sizeof(c), report_html_num(x, "lat_mean_ns"), HUMAN_PAGE);
		human_ns(d, sizeof(d), report_html_num(x, "lat_p99_ns"), HUMAN_PAGE);
		if (isfinite(cv))
			snprintf(cvs, sizeof(cvs), "%.1f%%", 100 * cv);
		else
			snprintf(cvs, sizeof(cvs), "-");
		fprintf(f, "  %-16.16s %-5s %-6s %9s %12s %9s %9s %7s\n", name ? name : "(all jobs)",
			json_string_value(json_object_get(x, "ddir")),
			json_string_value(json_object_get(x, "window")), a, b, c, d, cvs);
	}
	return ferror(f) ? -1 : 0;
}

/*
 * The side of the band a point is on (@o: 1 the bad side, -1 the good one,
 * as for a score whose higher is better: a description's 1 is below it).
 */
static const char *outside_word(const struct history_trend *t, int o)
{
	if (t->description)
		return o > 0 ? "lower" : o < 0 ? "higher" : NULL;
	return o > 0 ? "worse" : o < 0 ? "better" : NULL;
}

/* "(lower is better)", or what a description is, for the head lines. */
const char *history_trend_direction(const struct history_trend *t)
{
	if (t->description)
		return "describes the runs: higher or lower is neither better nor worse";
	return t->lower_better ? "lower is better" : "higher is better";
}

json_t *history_trend_json(const struct history_trend *t)
{
	json_t *pts = json_array(), *o;
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct history_trend_point *p = &t->p[i];
		char iso[32];

		fmt_iso(p->start_ms, iso, sizeof(iso));
		json_array_append_new(pts, json_pack("{s:I, s:s, s:I, s:f, s:o, s:o, s:o, s:o, s:o, "
				      "s:o, s:o, s:s}",
				      "id", (json_int_t)p->id, "start", iso, "start_ms",
				      (json_int_t)p->start_ms, "value", p->value, "run_sd",
				      jreal(p->within_sd), "run_interval", isfinite(p->lo) &&
				      isfinite(p->hi) ? json_pack("[f, f]", p->lo, p->hi) : json_null(),
				      "band_mean", jreal(p->band_mean),
				      "band_sd", jreal(p->band_sd), "outside",
				      jstr(outside_word(t, p->outside)), "jump", jreal(p->jump),
				      "jump_side", jstr(outside_word(t, p->jump_side)), "labels", p->labels));
	}
	o = json_pack("{s:s, s:s, s:o, s:s, s:{s:s, s:o, s:o, s:o}, s:s, s:s, s:I, s:I, s:o, s:O}",
		      "metric", t->metric, "kind", compare_kind_name(compare_metric_kind(t->metric)),
		      "lower_is_better", t->description ? json_null() : json_boolean(t->lower_better),
		      "window", t->window,
		      "device", "id", t->key.dev_id, "name", jstr(t->key.dev_name), "model",
		      jstr(t->key.dev_model), "serial", jstr(t->key.dev_serial),
		      "sig", t->key.sig, "sig_text", t->key.sig_text,
		      "band_runs", (json_int_t)t->band_runs, "other_signatures",
		      (json_int_t)t->other_sigs, "points", pts, "signatures", t->sigs);
	return o;
}

/* A value of @t's metric for text: latency in time units, the rest as numbers. */
static void fmt_metric(const struct history_trend *t, double v, char *buf, size_t sz)
{
	if (strstr(t->metric, "_ns"))
		human_ns(buf, sz, v, HUMAN_PAGE);
	else if (strstr(t->metric, "bw_bytes"))
		human_rate(buf, sz, v, HUMAN_PAGE);
	else
		human_count(buf, sz, v, HUMAN_PAGE);
}

int history_trend_has_intervals(const struct history_trend *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (isfinite(t->p[i].lo) && isfinite(t->p[i].hi))
			return 1;
	return 0;
}

/* A point's own spread for text: its interval "lo..hi" when the trend's points have them, else its sd. */
static void fmt_spread(const struct history_trend *t, int iv, const struct history_trend_point *p,
		       char *buf, size_t sz)
{
	char lo[24], hi[24];

	if (!iv) {
		fmt_metric(t, p->within_sd, buf, sz);
	} else if (isfinite(p->lo) && isfinite(p->hi)) {
		fmt_metric(t, p->lo, lo, sizeof(lo));
		fmt_metric(t, p->hi, hi, sizeof(hi));
		snprintf(buf, sz, "%s..%s", lo, hi);
	} else {
		snprintf(buf, sz, "-");
	}
}

int history_write_trend_text(FILE *f, const struct history_trend *t)
{
	size_t i, nout = 0, njump = 0;
	int iv = history_trend_has_intervals(t);

	fprintf(f, "trend of %s (%s) on %s, %s window\n", t->metric,
		history_trend_direction(t), t->key.dev_id, t->window);
	fprintf(f, "workload: %s [%s]\n", t->key.sig_text, t->key.sig);
	fprintf(f, "%zu runs; band: mean +- 2 sd of up to %zu runs before each point, formed "
		"once %d runs precede it; before that a point more than %.0f%% from the mean "
		"of the runs before it is marked a jump\n", t->n, t->band_runs,
		HISTORY_TREND_BAND_MIN, 100 * HISTORY_TREND_JUMP);
	if (iv)
		fprintf(f, "run interval: each run's own (%s)\n", HISTORY_TREND_INTERVAL_WHAT);
	fprintf(f, "%-6s %-19s %12s %*s %27s  %-7s %s\n", "ID", "START (UTC)", "VALUE", iv ? 21 : 12,
		iv ? "RUN INTERVAL" : "RUN SD", "BAND", "OUTSIDE", "LABELS");
	for (i = 0; i < t->n; i++) {
		const struct history_trend_point *p = &t->p[i];
		char when[24], v[24], sd[56], lo[24], hi[24], band[56], mark[40];

		fmt_time(p->start_ms, when, sizeof(when));
		fmt_metric(t, p->value, v, sizeof(v));
		fmt_spread(t, iv, p, sd, sizeof(sd));
		if (isfinite(p->band_mean)) {
			/* the figures are never negative: a wide band stops at 0 */
			fmt_metric(t, fmax(0, p->band_mean - 2 * p->band_sd), lo, sizeof(lo));
			fmt_metric(t, p->band_mean + 2 * p->band_sd, hi, sizeof(hi));
			snprintf(band, sizeof(band), "%s..%s", lo, hi);
		} else {
			snprintf(band, sizeof(band), "-");
		}
		nout += !t->description && p->outside > 0;
		njump += !t->description && p->jump_side > 0;
		if (p->jump_side)
			snprintf(mark, sizeof(mark), "%s (jump %+.0f%%)", outside_word(t, p->jump_side),
				 100 * p->jump);
		else
			snprintf(mark, sizeof(mark), "%s", p->outside ? outside_word(t, p->outside) : "");
		fprintf(f, "%-6lld %-19s %12s %*s %27s  %-7s %s\n", (long long)p->id, when, v,
			iv ? 21 : 12, sd, band, mark, p->labels);
	}
	if (nout)
		fprintf(f, "%zu run(s) outside the band on the bad side: check them with history "
			"compare (the band is descriptive, not a test)\n", nout);
	if (njump)
		fprintf(f, "%zu run(s) jumped on the bad side before the band formed (more than "
			"%.0f%% from the runs before): check them with history compare\n", njump,
			100 * HISTORY_TREND_JUMP);
	if (t->other_sigs)
		fprintf(f, "%zu other job signature(s) on this device (history trend --sig=SIG; "
			"history list --device shows them)\n", t->other_sigs);
	return ferror(f) ? -1 : 0;
}
