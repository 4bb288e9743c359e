/*
 * compare_out: the two renderings of a compare_report (compare.h): the JSON
 * object that `iotrial compare --output-format=json` prints, and the human
 * table.  Both show the same numbers; the JSON keeps full precision.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"	/* check_fmt_ns */
#include "compare.h"

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

static const char *const verdict_kind[] = {
	[COMPARE_ABSENT] = "absent",
	[COMPARE_SINGLE_RUN] = "single_run",
	[COMPARE_HIGH_VARIANCE] = "high_variance",
	[COMPARE_NOT_SIGNIFICANT] = "no_significant_difference",
	[COMPARE_NEGLIGIBLE] = "negligible",
	[COMPARE_BETTER] = "better",
	[COMPARE_WORSE] = "worse",
};

static json_t *metric_json(const struct compare_metric *m)
{
	json_t *o = json_pack("{s:s, s:o, s:o, s:o, s:o, s:s, s:o, s:o, s:s, s:o, s:o}",
			      "name", m->name, "a", side_stat(&m->a), "b", side_stat(&m->b),
			      "diff_pct", num(m->diff_pct), "ci95", pair(m->ci_lo, m->ci_hi),
			      "ci_method", "fieller",
			      "ci95_bootstrap", pair(m->boot_lo, m->boot_hi),
			      "p_value", num(m->p), "test", "welch_t", "df", num(m->df),
			      "p_mann_whitney", num(m->p_mwu));

	if (!o)
		return NULL;
	json_object_set_new(o, "mann_whitney_exact", json_boolean(m->mwu_exact));
	json_object_set_new(o, "mann_whitney_note", m->mwu_note[0] ?
			    json_string(m->mwu_note) : json_null());
	json_object_set_new(o, "lower_is_better", json_boolean(m->lower_better));
	json_object_set_new(o, "verdict", json_string(m->verdict_text));
	json_object_set_new(o, "verdict_kind", json_string(verdict_kind[m->verdict]));
	json_object_set_new(o, "note", json_string(m->note));
	json_object_set_new(o, "regression", json_boolean(m->regression));
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
		json_object_set_new(o, "settings", json_pack("{s:f, s:o}",
				    "noise_pct", r->noise_pct, "fail_on_regression_pct",
				    r->fail_regression_pct < 0 ? json_null() :
				    json_real(r->fail_regression_pct)));
	return o;
}

/* A metric value for people: 78.0k IOPS, 312.5 MiB/s, 410 us. */
static void fmt_value(const char *metric, double v, char *buf, size_t sz)
{
	size_t n = strlen(metric);

	if (isnan(v))
		snprintf(buf, sz, "-");
	else if (n > 3 && !strcmp(metric + n - 3, "_ns"))
		check_fmt_ns(buf, sz, v);
	else if (strstr(metric, "queue_depth"))	/* I/Os in flight: fractions matter */
		snprintf(buf, sz, "%.1f", v);
	else if (strstr(metric, "bw_bytes"))
		snprintf(buf, sz, v >= 1073741824.0 ? "%.2f GiB/s" : "%.1f MiB/s",
			 v >= 1073741824.0 ? v / 1073741824.0 : v / 1048576.0);
	else if (v >= 1e6)
		snprintf(buf, sz, "%.2fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, sz, "%.1fk", v / 1e3);
	else
		snprintf(buf, sz, "%.0f", v);
}

static void fmt_p(double p, char *buf, size_t sz)
{
	if (isnan(p))
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

static void write_metric(FILE *f, const struct compare_metric *m)
{
	char am[32], as[32], bm[32], bs[32], diff[16], ci[40], p[16], pm[16];

	fmt_value(m->name, m->a.mean, am, sizeof(am));
	fmt_value(m->name, m->a.sd, as, sizeof(as));
	fmt_value(m->name, m->b.mean, bm, sizeof(bm));
	fmt_value(m->name, m->b.sd, bs, sizeof(bs));
	if (isnan(m->diff_pct))
		snprintf(diff, sizeof(diff), "-");
	else
		snprintf(diff, sizeof(diff), "%+.1f%%", m->diff_pct);
	if (isnan(m->ci_lo))
		snprintf(ci, sizeof(ci), "-");
	else
		snprintf(ci, sizeof(ci), "%+.1f..%+.1f%%", m->ci_lo, m->ci_hi);
	fmt_p(m->p, p, sizeof(p));
	fmt_p(m->p_mwu, pm, sizeof(pm));
	fprintf(f, "%-18s %12s %9s %3zu  %12s %9s %3zu  %7s  %-16s %-8s %-8s %s%s%s%s\n",
		m->name, am, as, m->a.n, bm, bs, m->b.n, diff, ci, p, pm, m->verdict_text,
		m->note[0] ? " (" : "", m->note, m->note[0] ? ")" : "");
}

static void write_diff(FILE *f, const struct compare_report *r)
{
	size_t i;
	json_t *it;

	fprintf(f, "\ndifferences between A and B (job options, environment):\n");
	if (!json_array_size(r->env_diff))
		fprintf(f, "  none recorded%s\n",
			json_is_null(json_object_get(r->side_a, "environment")) ||
			json_is_null(json_object_get(r->side_b, "environment")) ?
			" (job options are the same; no environment was recorded on both sides)" :
			"");
	json_array_foreach(r->env_diff, i, it) {
		char *a = json_dumps(json_object_get(it, "a"), JSON_ENCODE_ANY);
		char *b = json_dumps(json_object_get(it, "b"), JSON_ENCODE_ANY);

		fprintf(f, "  %-36s A %s, B %s\n", json_string_value(json_object_get(it, "key")),
			a ? a : "?", b ? b : "?");
		free(a);
		free(b);
	}
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

int compare_write_text(const struct compare_report *r, FILE *f)
{
	size_t i;

	write_side(f, "A", r->side_a);
	write_side(f, "B", r->side_b);
	fprintf(f, "\n%-18s %12s %9s %3s  %12s %9s %3s  %7s  %-16s %-8s %-8s %s\n", "metric",
		"A mean", "sd", "n", "B mean", "sd", "n", "B vs A", "95% CI", "p", "p MWU",
		"verdict");
	for (i = 0; i < r->nm; i++)
		write_metric(f, &r->m[i]);
	fprintf(f, "\nB vs A = (B - A) / A.  95%% CI: Fieller interval for the ratio of means "
		"(Welch df).  p: Welch's t-test, two-sided; p MWU: Mann-Whitney U.  "
		"Noise threshold %.1f%%.\n", r->noise_pct);
	if (r->fail_regression_pct >= 0)
		fprintf(f, "Regression threshold %.1f%%: %s\n", r->fail_regression_pct,
			r->regressed ? "REGRESSION (a metric got significantly worse beyond it)" :
			"no regression");
	write_diff(f, r);
	write_warnings(f, r);
	fflush(f);
	return ferror(f) ? -EIO : 0;
}
