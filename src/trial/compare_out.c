/*
 * compare_out: the two renderings of a compare_report (compare.h): the JSON
 * object that `iotrial compare --output-format=json` prints, and the human
 * table.  Both show the same numbers; the JSON keeps full precision.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lib/human.h"	/* human_ns */
#include "trial/compare.h"

static json_t *num(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *pair(double lo, double hi)
{
	if (isnan(lo) || isnan(hi))
		return json_null();
	return json_pack("[o, o]", json_real(lo), json_real(hi));
}

static json_t *side_stat(const struct abstat_desc *d)
{
	return json_pack("{s:o, s:o, s:I, s:o}", "mean", num(d->mean), "sd", num(d->sd),
			 "n", (json_int_t)d->n, "cv", num(d->cv));
}

/* A count that may be "not applicable" (0) or "too many" (-1): both null. */
static json_t *count(long n)
{
	return n > 0 ? json_integer(n) : json_null();
}

static json_t *runs_json(const struct compare_metric *m)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; arr && i < m->nruns; i++) {
		const struct compare_run *r = &m->runs[i];
		char side[2] = { r->side, 0 };

		json_array_append_new(arr, json_pack("{s:o, s:s, s:s, s:o, s:o, s:b}",
				      "order", r->order ? json_integer(r->order) : json_null(),
				      "side", side, "file", r->file,
				      "timestamp_ms", r->timestamp_ms >= 0 ?
				      json_integer(r->timestamp_ms) : json_null(),
				      "value", num(r->value), "outlier", r->outlier));
	}
	return arr;
}

static json_t *metric_json(const struct compare_metric *m)
{
	json_t *o = json_pack("{s:s, s:o, s:o, s:o, s:o, s:f, s:s, s:o, s:s}",
			      "name", m->name, "a", side_stat(&m->a), "b", side_stat(&m->b),
			      "diff_pct", num(m->diff_pct), "ci", pair(m->ci_lo, m->ci_hi),
			      "ci_level", m->ci_level, "ci_method", compare_method_name(m->method),
			      "ci_bootstrap", pair(m->boot_lo, m->boot_hi),
			      "ci_bootstrap_method", "bootstrap_t");

	if (!o)
		return NULL;
	json_object_set_new(o, "ci_note", m->method_note[0] ?
			    json_string(m->method_note) : json_null());
	json_object_set_new(o, "ci_method_why", m->method_why[0] ?
			    json_string(m->method_why) : json_null());
	json_object_set_new(o, "unit", json_string(compare_metric_unit(m->name)));
	json_object_set_new(o, "label", json_string(compare_metric_label(m->name)));
	json_object_set_new(o, "same_as", m->same_as ? json_string(m->same_as) : json_null());
	json_object_set_new(o, "p_value", num(m->p));
	json_object_set_new(o, "test", json_string(compare_method_desc(m->method)->test_id));
	json_object_set_new(o, "df", num(m->df));
	json_object_set_new(o, "p_welch", num(m->p_welch));
	json_object_set_new(o, "p_mann_whitney", num(m->p_mwu));
	json_object_set_new(o, "mann_whitney_exact", json_boolean(m->mwu_exact));
	json_object_set_new(o, "mann_whitney_note", m->mwu_note[0] ?
			    json_string(m->mwu_note) : json_null());
	json_object_set_new(o, "kind", json_string(compare_kind_name(m->kind)));
	json_object_set_new(o, "lower_is_better", m->kind == COMPARE_DESCRIPTION ? json_null() :
			    json_boolean(m->lower_better));
	json_object_set_new(o, "gated", json_boolean(m->kind == COMPARE_SCORE));
	json_object_set_new(o, "verdict", json_string(m->verdict_text));
	json_object_set_new(o, "verdict_kind", json_string(compare_verdict_kind(m->verdict)));
	json_object_set_new(o, "note", json_string(m->note));
	json_object_set_new(o, "regression", json_boolean(m->regression));
	json_object_set_new(o, "high_variance", json_boolean(m->high_variance));
	json_object_set_new(o, "order_known", json_boolean(m->order_known));
	json_object_set_new(o, "confounded", json_boolean(m->confounded));
	json_object_set_new(o, "drift_pct_per_run", num(m->drift_pct));
	json_object_set_new(o, "runs_needed", count(m->runs_needed));
	json_object_set_new(o, "runs", runs_json(m));
	return o;
}

json_t *compare_json(const struct compare_report *r)
{
	json_t *metrics = json_array(), *o;
	size_t i;

	for (i = 0; metrics && i < r->nm; i++)
		if (json_array_append_new(metrics, metric_json(&r->m[i]))) {
			json_decref(metrics);
			return NULL;
		}
	o = json_pack("{s:O, s:O, s:o, s:O, s:O, s:b}", "a", r->side_a, "b", r->side_b,
		      "metrics", metrics, "env_diff", r->env_diff, "warnings", r->warnings,
		      "regression", r->regressed);
	if (o)
		json_object_set_new(o, "time_breakdown", compare_time_json(&r->time));
	if (o)
		json_object_set_new(o, "settings", json_pack("{s:f, s:o, s:f, s:b, s:b, s:I, s:I}",
				    "noise_pct", r->noise_pct, "fail_on_regression_pct",
				    r->fail_regression_pct < 0 ? json_null() :
				    json_real(r->fail_regression_pct), "ci_level", r->ci_level,
				    "order_known", r->order_known, "order_by_trial", r->order_by_trial,
				    "failed_runs_a", (json_int_t)r->failed_a,
				    "failed_runs_b", (json_int_t)r->failed_b));
	return o;
}

/* A metric value for people, in its unit (compare_metric_unit): 78.0k, 312.5 MiB/s, 410 us. */
static void fmt_value(const char *metric, double v, char *buf, size_t sz)
{
	const char *unit = compare_metric_unit(metric);

	if (!isfinite(v))
		snprintf(buf, sz, "-");
	else if (!unit || !strcmp(unit, COMPARE_UNIT_IOPS))
		snprintf(buf, sz, v >= 1e6 ? "%.2fM" : v >= 1e4 ? "%.1fk" : "%.0f",
			 v >= 1e6 ? v / 1e6 : v >= 1e4 ? v / 1e3 : v);
	else if (!strcmp(unit, COMPARE_UNIT_NS))
		human_ns(buf, sz, v, HUMAN_TABLE);
	else if (!strcmp(unit, COMPARE_UNIT_BW))
		snprintf(buf, sz, v >= 1073741824.0 ? "%.2f GiB/s" : "%.1f MiB/s",
			 v >= 1073741824.0 ? v / 1073741824.0 : v / 1048576.0);
	else	/* I/Os in flight: fractions matter */
		snprintf(buf, sz, "%.1f", v);
}

static void fmt_p(double p, char *buf, size_t sz)
{
	if (!isfinite(p))
		snprintf(buf, sz, "-");
	else if (p < 0.0001)
		snprintf(buf, sz, "<0.0001");
	else
		snprintf(buf, sz, "%.4f", p);
}

static void write_side(FILE *f, const char *label, const json_t *side)
{
	const json_t *files = json_object_get(side, "files");
	size_t n = json_array_size(files);

	fprintf(f, "%s: %zu run%s (%s): %s", label, n, n == 1 ? "" : "s",
		json_string_value(json_object_get(side, "version")),
		json_string_value(json_array_get(files, 0)));
	if (n > 2)
		fprintf(f, " ... %s", json_string_value(json_array_get(files, n - 1)));
	else if (n == 2)
		fprintf(f, ", %s", json_string_value(json_array_get(files, 1)));
	fputc('\n', f);
}

/* "+1.2..+3.4%", or "-" when there is no interval (never nan or inf). */
static void fmt_ci(double lo, double hi, char *buf, size_t sz)
{
	if (!isfinite(lo) || !isfinite(hi))
		snprintf(buf, sz, "-");
	else
		snprintf(buf, sz, "%+.1f..%+.1f%%", lo, hi);
}

static void write_metric(FILE *f, const struct compare_metric *m)
{
	char am[32], as[32], bm[32], bs[32], diff[16], ci[40], p[16], pm[16];

	fmt_value(m->name, m->a.mean, am, sizeof(am));
	fmt_value(m->name, m->a.sd, as, sizeof(as));
	fmt_value(m->name, m->b.mean, bm, sizeof(bm));
	fmt_value(m->name, m->b.sd, bs, sizeof(bs));
	if (!isfinite(m->diff_pct))
		snprintf(diff, sizeof(diff), "-");
	else
		snprintf(diff, sizeof(diff), "%+.1f%%", m->diff_pct);
	fmt_ci(m->ci_lo, m->ci_hi, ci, sizeof(ci));
	fmt_p(m->p, p, sizeof(p));
	fmt_p(m->p_mwu, pm, sizeof(pm));
	/* [REGRESSION]: the rows the gate counts, as the JSON's "regression" */
	fprintf(f, "%-18s %12s %9s %3zu  %12s %9s %3zu  %-17s %7s  %-8s %-8s %s%s%s%s%s\n",
		m->name, am, as, m->a.n, bm, bs, m->b.n, ci, diff, p, pm, m->verdict_text,
		m->regression ? " [REGRESSION]" : "", m->note[0] ? " (" : "", m->note,
		m->note[0] ? ")" : "");
}

/*
 * Each run's value in run order, as % from A's mean, side letter first;
 * '!' marks an outlier.  At most 24 runs, then "...".
 */
static void write_strip(FILE *f, const struct compare_metric *m)
{
	size_t i;

	if (m->same_as || m->nruns < 3 || !isfinite(m->a.mean) || m->a.mean == 0)
		return;
	fprintf(f, "  %-18s", m->name);
	for (i = 0; i < m->nruns && i < 24; i++) {
		double d = 100 * (m->runs[i].value / m->a.mean - 1);

		if (fabs(d) < 0.05)
			d = 0;	/* no "-0.0" */
		if (isfinite(d))
			fprintf(f, " %c%+.1f%s", m->runs[i].side, d, m->runs[i].outlier ? "!" : "");
		else
			fprintf(f, " %c-", m->runs[i].side);
	}
	fprintf(f, "%s", m->nruns > 24 ? " ..." : "");
	if (m->runs_needed > 0)	/* the verdict's own figure, never a second estimate */
		fprintf(f, "  [runs needed: ~%ld a side]", m->runs_needed);
	fputc('\n', f);
}

static void write_strips(FILE *f, const struct compare_report *r)
{
	size_t i;

	fprintf(f, "\nruns %s, each as %% from A's mean (! outlier; [runs needed: of an "
		"inconclusive verdict, as in its note]):\n", r->order_by_trial ?
		"in run order (from the trial's manifest: when it started each run, in one clock)" :
		r->order_known ? "in run order (from the result timestamps)" :
		"of A then B (run order unknown: timestamps missing or equal)");
	for (i = 0; i < r->nm; i++)
		write_strip(f, &r->m[i]);
}

static void write_diff(FILE *f, const struct compare_report *r)
{
	size_t i;
	json_t *it;

	fprintf(f, "%sdifferences between A and B (job options, environment):\n",
		r->diff_first ? "" : "\n");
	if (!json_array_size(r->env_diff))
		fprintf(f, "  none recorded%s\n",
			json_is_null(json_object_get(r->side_a, "environment")) ||
			json_is_null(json_object_get(r->side_b, "environment")) ?
			" (job options are the same; no environment was recorded on both sides)" :
			"");
	json_array_foreach(r->env_diff, i, it) {
		char *a = json_dumps(json_object_get(it, "a"), JSON_ENCODE_ANY);
		char *b = json_dumps(json_object_get(it, "b"), JSON_ENCODE_ANY);

		fprintf(f, "%c %-36s A %s, B %s\n",
			json_is_false(json_object_get(it, "under_trial")) ? '!' : ' ',
			json_string_value(json_object_get(it, "key")), a ? a : "?", b ? b : "?");
		free(a);
		free(b);
	}
	if (r->not_under_trial[0])
		fprintf(f, "! not under trial: %s (warning env_differs; the verdicts note it)\n",
			r->not_under_trial);
}

static void write_warnings(FILE *f, const struct compare_report *r)
{
	size_t i;
	json_t *it;

	if (!json_array_size(r->warnings))
		return;
	fprintf(f, "\nwarnings:\n");
	json_array_foreach(r->warnings, i, it) {
		const char *side = json_string_value(json_object_get(it, "side"));

		fprintf(f, "  %-7s %s[%s] %s\n",
			json_string_value(json_object_get(it, "severity")),
			side ? (!strcmp(side, "a") ? "A " : "B ") : "",
			json_string_value(json_object_get(it, "id")),
			json_string_value(json_object_get(it, "message")));
	}
}

/*
 * "read.iops, read.bw_bytes: not shown, a fixed multiple of total.iops ..."
 * for the folded metrics, wherever they stand in the table (the one kept may
 * come after them: mark_same keeps total.iops).
 */
static void write_same(FILE *f, const struct compare_report *r)
{
	size_t i, k, n;

	for (i = 0; i < r->nm; i++) {
		if (r->m[i].same_as)
			continue;
		for (k = 0, n = 0; k < r->nm; k++)
			if (r->m[k].same_as == r->m[i].name)
				fprintf(f, "%s%s", n++ ? ", " : "", r->m[k].name);
		if (n)
			fprintf(f, ": not shown, a fixed multiple of %s in every run (the same "
				"difference, interval and verdict)\n", r->m[i].name);
	}
}

/*
 * The footnote: each interval method the metrics used (compare_method_desc),
 * with the metrics it made, so the words always name the method behind the
 * figures shown.
 */
static void write_methods(FILE *f, const struct compare_report *r, const char *level)
{
	enum compare_method k;
	size_t i, n;

	fprintf(f, "%s of (B - A) / A, and p, by the method each metric's runs allowed:\n", level);
	for (k = COMPARE_CI_FIELLER; k <= COMPARE_CI_SWEEP; k++) {
		const struct compare_method_desc *d = compare_method_desc(k);

		for (i = 0, n = 0; i < r->nm; i++)
			if (!r->m[i].same_as && r->m[i].method == k)
				fprintf(f, "%s%s", n++ ? ", " : "  ", r->m[i].name);
		if (!n)
			continue;
		fprintf(f, ": %s", d->interval);
		/* why not the run-order fit, as each metric's runs said (the distinct reasons) */
		for (i = 0, n = 0; i < r->nm; i++) {
			const struct compare_metric *m = &r->m[i];
			size_t j;

			if (m->same_as || m->method != k || !m->method_why[0])
				continue;
			for (j = 0; j < i; j++)
				if (!r->m[j].same_as && r->m[j].method == k &&
				    !strcmp(r->m[j].method_why, m->method_why))
					break;
			if (j == i)
				fprintf(f, "%s%s", n++ ? "; " : ", because ", m->method_why);
		}
		fprintf(f, "; p: %s\n", d->test);
	}
	fprintf(f, "The verdict is read off the interval: beyond +-%.1f%% (the noise threshold) as "
		"a whole, faster/slower (better/worse where lower is better); within it, "
		"negligible; else inconclusive, with the runs a side that would likely settle it.  "
		"B vs A: ratio of the means.  p MWU: Mann-Whitney U.\n", r->noise_pct);
	for (i = 0, n = 0; i < r->nm; i++)
		if (!r->m[i].same_as && r->m[i].kind == COMPARE_DESCRIPTION)
			fprintf(f, "%s%s", n++ ? ", " : "", r->m[i].name);
	if (n)
		fprintf(f, ": describe%s the runs, with no better side: higher or lower, never "
			"better or worse, and never a regression.\n", n == 1 ? "s" : "");
}

/*
 * --fail-on-regression's verdict, above the table: which metrics failed and
 * by how much (their rows say [REGRESSION]), and which rows the gate does
 * not count.
 */
static void write_gate(FILE *f, const struct compare_report *r)
{
	size_t i, n = 0;

	if (r->fail_regression_pct < 0)
		return;
	fprintf(f, "Regression threshold %.1f%%: ", r->fail_regression_pct);
	for (i = 0; i < r->nm; i++)
		if (r->m[i].regression && !r->m[i].same_as)
			fprintf(f, "%s%s %s", n++ ? "; " : "REGRESSION: ", r->m[i].name,
				r->m[i].verdict_text);
	if (n)
		fprintf(f, " (the whole interval beyond %.1f%%; rows marked [REGRESSION])",
			r->fail_regression_pct);
	else if (r->regressed)
		fprintf(f, "REGRESSION in a test of the suite (its row below says REGRESSION)");
	else
		fprintf(f, "no regression");
	/* the rows it leaves out, by family ("device.*, time.*"), from their kinds */
	for (i = 0, n = 0; i < r->nm; i++) {
		const char *name = r->m[i].name, *dot = strchr(name, '.');
		int len = dot ? (int)(dot - name) : (int)strlen(name);
		size_t k;

		if (r->m[i].kind == COMPARE_SCORE)
			continue;
		for (k = 0; k < i; k++)
			if (r->m[k].kind != COMPARE_SCORE && !strncmp(r->m[k].name, name, (size_t)len) &&
			    (r->m[k].name[len] == '.' || !r->m[k].name[len]))
				break;
		if (k == i)
			fprintf(f, "%s%.*s%s", n++ ? ", " : "; not counted: ", len, name,
				dot ? ".*" : "");
	}
	fprintf(f, "%s\n", n ? " (they explain or describe the scores)" : "");
}

int compare_write_text(const struct compare_report *r, FILE *f)
{
	char level[32];
	size_t i;

	if (r->diff_first) {	/* --trial-of: what differs comes before the figures */
		write_diff(f, r);
		fputc('\n', f);
	}
	write_side(f, "A", r->side_a);
	write_side(f, "B", r->side_b);
	snprintf(level, sizeof(level), "%g%% CI", 100 * r->ci_level);
	if (r->fail_regression_pct >= 0) {
		fputc('\n', f);
		write_gate(f, r);
	}
	fprintf(f, "\n%-18s %12s %9s %3s  %12s %9s %3s  %-17s %7s  %-8s %-8s %s\n", "metric",
		"A mean", "sd", "n", "B mean", "sd", "n", level, "B vs A", "p", "p MWU",
		"verdict");
	for (i = 0; i < r->nm; i++)
		if (!r->m[i].same_as)
			write_metric(f, &r->m[i]);
	write_same(f, r);
	fputc('\n', f);
	write_methods(f, r, level);
	compare_time_write_text(&r->time, f);	/* where each I/O's time went, A and B */
	write_strips(f, r);
	if (!r->diff_first)
		write_diff(f, r);
	write_warnings(f, r);
	fflush(f);
	return ferror(f) ? -EIO : 0;
}
