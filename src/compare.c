/*
 * compare: A/B comparison of result sets (see compare.h for the statistics,
 * the verdict rules and the warnings).
 */
#include "compare.h"
#include "bottleneck.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "env.h"
#include "utf8.h"

enum mkind { MK_IOPS, MK_TOTAL, MK_BW, MK_LAT, MK_P99, MK_CPU, MK_DEV_LAT, MK_DEV_QD };

struct mdef {
	const char *name;
	enum mkind kind;
	int dir;
	int lower_better;
};

static const struct mdef mdefs[] = {
	{ "read.iops", MK_IOPS, 0, 0 },
	{ "write.iops", MK_IOPS, 1, 0 },
	{ "trim.iops", MK_IOPS, 2, 0 },
	{ "total.iops", MK_TOTAL, -1, 0 },
	{ "read.bw_bytes", MK_BW, 0, 0 },
	{ "write.bw_bytes", MK_BW, 1, 0 },
	{ "trim.bw_bytes", MK_BW, 2, 0 },
	{ "read.lat_mean_ns", MK_LAT, 0, 1 },
	{ "write.lat_mean_ns", MK_LAT, 1, 1 },
	{ "trim.lat_mean_ns", MK_LAT, 2, 1 },
	{ "read.lat_p99_ns", MK_P99, 0, 1 },
	{ "write.lat_p99_ns", MK_P99, 1, 1 },
	{ "trim.lat_p99_ns", MK_P99, 2, 1 },
	{ "cpu_per_io_ns", MK_CPU, -1, 1 },
	/* the device's own view beside the tool's (issue 7, bottleneck.h) */
	{ "device.lat_mean_ns", MK_DEV_LAT, -1, 1 },
	{ "device.queue_depth", MK_DEV_QD, -1, 0 },
};

#define NR_MDEFS (sizeof(mdefs) / sizeof(mdefs[0]))

void compare_opts_init(struct compare_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->noise_pct = 2;
	o->cv_limit_pct = 10;
	o->alpha = 0.05;
	o->fail_regression_pct = -1;
	o->boot_iters = 2000;
	o->boot_seed = 1;
}

const char compare_options_help[] =
	"  --output-format=text|json  text table (default) or one JSON object on stdout\n"
	"  --noise=PCT                differences within PCT% are \"negligible\" (default 2)\n"
	"  --cv-limit=PCT             a side whose CV exceeds PCT% is \"high variance\" (default 10)\n"
	"  --alpha=P                  significance level (default 0.05; CI level 1 - P)\n"
	"  --fail-on-regression=PCT   exit 6 when a metric is significantly worse by more\n"
	"                             than PCT% (p < alpha and the CI excludes 0)\n"
	"  --bootstrap-seed=N         seed of the bootstrap interval (default 1)\n";

/*
 * Is @s a plain decimal number ("2", "0.05", ".5", "1e-3"), optionally with
 * a trailing '%'?  strtod alone also takes hex ("0x10", "0x0.1p0"), "inf",
 * "nan" and leading blanks or signs, which would be silent misreads here.
 */
static int plain_decimal(const char *s)
{
	int digits = 0;

	while (*s >= '0' && *s <= '9')
		s++, digits++;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			digits++;
	if (!digits)
		return 0;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(*s >= '0' && *s <= '9'))
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == '%')
		s++;
	return !*s;
}

static int parse_pct(const char *name, const char *value, double max, double *out,
		     struct err *e)
{
	char *end;
	double v;

	if (!value || !*value)
		return err_set(e, -EINVAL, EXIT_USAGE, "--%s needs a value", name);
	if (!plain_decimal(value))
		return err_set(e, -EINVAL, EXIT_USAGE, "--%s=%s: expected a number from 0 to %g",
			       name, value, max);
	v = strtod(value, &end);
	if (*end == '%')
		end++;
	if (end == value || *end || !(v >= 0) || v > max)
		return err_set(e, -EINVAL, EXIT_USAGE, "--%s=%s: expected a number from 0 to %g",
			       name, value, max);
	*out = v;
	return 1;
}

int compare_parse_option(const char *name, const char *value, struct compare_opts *o,
			 int *json_output, struct err *e)
{
	if (!strcmp(name, "noise"))
		return parse_pct(name, value, 1000, &o->noise_pct, e);
	if (!strcmp(name, "cv-limit"))
		return parse_pct(name, value, 1000, &o->cv_limit_pct, e);
	if (!strcmp(name, "fail-on-regression"))
		return parse_pct(name, value, 1000, &o->fail_regression_pct, e);
	if (!strcmp(name, "alpha")) {
		int ret = parse_pct(name, value, 0.5, &o->alpha, e);

		if (ret == 1 && o->alpha <= 0)
			return err_set(e, -EINVAL, EXIT_USAGE, "--alpha=%s: must be above 0", value);
		return ret;
	}
	if (!strcmp(name, "bootstrap-seed")) {
		unsigned long long v;
		char *end;

		/* decimal digits only: strtoull takes "-1" as 2^64-1 and "0x10" as 16 */
		errno = 0;
		v = value && *value >= '0' && *value <= '9' ? strtoull(value, &end, 10) : 0;
		if (!value || !(*value >= '0' && *value <= '9') || *end || errno == ERANGE)
			return err_set(e, -EINVAL, EXIT_USAGE, "--bootstrap-seed=%s: expected a "
				       "decimal integer from 0 to 18446744073709551615",
				       value ? value : "");
		o->boot_seed = v;
		return 1;
	}
	if (!strcmp(name, "output-format")) {
		if (value && !strcmp(value, "json"))
			*json_output = 1;
		else if (value && (!strcmp(value, "text") || !strcmp(value, "normal")))
			*json_output = 0;
		else
			return err_set(e, -EINVAL, EXIT_USAGE,
				       "--output-format=%s: expected text or json", value ? value : "");
		return 1;
	}
	return 0;
}

static const struct mdef *mdef_find(const char *name)
{
	size_t i;

	for (i = 0; i < NR_MDEFS; i++)
		if (!strcmp(mdefs[i].name, name))
			return &mdefs[i];
	return NULL;
}

int compare_metric_known(const char *name)
{
	return mdef_find(name) != NULL;
}

static int value_of(const struct resultread *r, const struct mdef *d, double *out)
{
	const struct resultread_dir *x = d->dir >= 0 ? &r->dir[d->dir] : NULL;
	double v;

	switch (d->kind) {
	case MK_IOPS:
		v = x->ios ? x->iops : NAN;
		break;
	case MK_TOTAL:
		v = r->total_iops > 0 ? r->total_iops : NAN;
		break;
	case MK_BW:
		v = x->ios ? x->bw_bytes : NAN;
		break;
	case MK_LAT:
		v = x->ios ? x->lat_mean_ns : NAN;
		break;
	case MK_P99:
		v = x->ios ? x->lat_p99_ns : NAN;
		break;
	case MK_DEV_LAT:
	case MK_DEV_QD: {
		double lat, qd;

		v = bottleneck_device_figures(r, &lat, &qd) ? NAN : d->kind == MK_DEV_LAT ? lat : qd;
		break;
	}
	default:
		v = r->cpu_per_io_ns;
		break;
	}
	*out = v;
	return isnan(v) ? -ENOENT : 0;
}

int compare_metric_value(const struct resultread *r, const char *name, double *out)
{
	const struct mdef *d = mdef_find(name);

	*out = NAN;
	return d ? value_of(r, d, out) : -ENOENT;
}

/* The values of metric @d over @n results, skipping files without it. */
static size_t gather(struct resultread *const *v, size_t n, const struct mdef *d, double *out)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (!value_of(v[i], d, &out[k]))
			k++;
	return k;
}

/* Mann-Whitney p, or a note saying why there is none or why it cannot be small. */
static void metric_mwu(const double *va, size_t na, const double *vb, size_t nb,
		       double alpha, struct compare_metric *m)
{
	struct abstat_mwu u;
	double min_p;

	m->p_mwu = NAN;
	if (na < 3 || nb < 3) {
		snprintf(m->mwu_note, sizeof(m->mwu_note), "Mann-Whitney needs 3 runs a side");
		return;
	}
	if (abstat_mwu(va, na, vb, nb, &u))
		return;
	m->p_mwu = u.p;
	m->mwu_exact = u.exact;
	/* the most extreme arrangement has exact p = 2 / C(na + nb, na) */
	min_p = 2 / exp(lgamma((double)(na + nb + 1)) - lgamma((double)(na + 1)) -
			lgamma((double)(nb + 1)));
	if (min_p >= alpha)
		snprintf(m->mwu_note, sizeof(m->mwu_note),
			 "with %zu and %zu runs Mann-Whitney cannot go below p = %.3f",
			 na, nb, min_p);
}

static void metric_stats(const double *va, size_t na, const double *vb, size_t nb,
			 const struct compare_opts *o, struct compare_metric *m)
{
	struct abstat_welch w;
	double lo, hi;

	abstat_describe(va, na, &m->a);
	abstat_describe(vb, nb, &m->b);
	m->diff_pct = m->ci_lo = m->ci_hi = m->boot_lo = m->boot_hi = NAN;
	m->p = m->df = m->p_mwu = NAN;
	if (na && nb && m->a.mean != 0)
		m->diff_pct = 100 * (m->b.mean / m->a.mean - 1);
	if (na < 2 || nb < 2)
		return;
	if (!abstat_welch(va, na, vb, nb, &w)) {
		m->p = w.p;
		m->df = w.df;
	}
	if (!abstat_ratio_ci(va, na, vb, nb, 1 - o->alpha, &lo, &hi)) {
		m->ci_lo = 100 * lo;
		m->ci_hi = 100 * hi;
	}
	if (na >= 5 && nb >= 5 &&
	    !abstat_bootstrap_ci(va, na, vb, nb, o->boot_iters, o->boot_seed, 1 - o->alpha,
				 &lo, &hi)) {
		m->boot_lo = 100 * lo;
		m->boot_hi = 100 * hi;
	}
	metric_mwu(va, na, vb, nb, o->alpha, m);
}

static void high_variance_note(const struct compare_metric *m, double limit, char *buf,
			       size_t sz)
{
	int ha = !isnan(m->a.cv) && 100 * m->a.cv > limit;
	int hb = !isnan(m->b.cv) && 100 * m->b.cv > limit;

	if (ha && hb)
		snprintf(buf, sz, "CV %.1f%% on A and %.1f%% on B (limit %.0f%%)",
			 100 * m->a.cv, 100 * m->b.cv, limit);
	else
		snprintf(buf, sz, "CV %.1f%% on %s (limit %.0f%%)",
			 100 * (ha ? m->a.cv : m->b.cv), ha ? "A" : "B", limit);
}

static void metric_verdict(struct compare_metric *m, const struct compare_opts *o)
{
	int better;

	if (!m->a.n || !m->b.n) {
		m->verdict = COMPARE_ABSENT;
		snprintf(m->verdict_text, sizeof(m->verdict_text), "absent in %s",
			 m->a.n ? "B" : "A");
		return;
	}
	if (m->a.n < 2 || m->b.n < 2) {
		m->verdict = COMPARE_SINGLE_RUN;
		snprintf(m->verdict_text, sizeof(m->verdict_text),
			 "single run: no significance can be claimed");
		return;
	}
	if ((!isnan(m->a.cv) && 100 * m->a.cv > o->cv_limit_pct) ||
	    (!isnan(m->b.cv) && 100 * m->b.cv > o->cv_limit_pct)) {
		m->verdict = COMPARE_HIGH_VARIANCE;
		snprintf(m->verdict_text, sizeof(m->verdict_text), "high variance");
		high_variance_note(m, o->cv_limit_pct, m->note, sizeof(m->note));
		return;
	}
	if (isnan(m->p) || m->p >= o->alpha || isnan(m->ci_lo) ||
	    (m->ci_lo <= 0 && m->ci_hi >= 0)) {
		m->verdict = COMPARE_NOT_SIGNIFICANT;
		snprintf(m->verdict_text, sizeof(m->verdict_text), "no significant difference");
		snprintf(m->note, sizeof(m->note), "p = %.3g, 95%% CI %+.1f..%+.1f%%",
			 m->p, m->ci_lo, m->ci_hi);
		return;
	}
	if (fabs(m->diff_pct) <= o->noise_pct) {
		m->verdict = COMPARE_NEGLIGIBLE;
		snprintf(m->verdict_text, sizeof(m->verdict_text), "negligible");
		snprintf(m->note, sizeof(m->note), "%+.1f%% is within the %.1f%% noise threshold "
			 "(p = %.3g)", m->diff_pct, o->noise_pct, m->p);
		return;
	}
	better = m->lower_better ? m->diff_pct < 0 : m->diff_pct > 0;
	m->verdict = better ? COMPARE_BETTER : COMPARE_WORSE;
	snprintf(m->verdict_text, sizeof(m->verdict_text), "B is %.1f%% %s", fabs(m->diff_pct),
		 m->lower_better ? (better ? "better" : "worse") : (better ? "faster" : "slower"));
	snprintf(m->note, sizeof(m->note), "95%% CI %+.1f..%+.1f%%, p = %.3g",
		 m->ci_lo, m->ci_hi, m->p);
}

static void metric_regression(struct compare_metric *m, const struct compare_opts *o)
{
	int worse;

	if (o->fail_regression_pct < 0 || isnan(m->p) || isnan(m->ci_lo) || m->p >= o->alpha ||
	    (m->ci_lo <= 0 && m->ci_hi >= 0))
		return;
	worse = m->lower_better ? m->diff_pct > 0 : m->diff_pct < 0;
	m->regression = worse && fabs(m->diff_pct) > o->fail_regression_pct;
}

static int compare_def(struct resultread *const *a, size_t na, struct resultread *const *b,
		       size_t nb, const struct mdef *d, const struct compare_opts *o,
		       struct compare_metric *m)
{
	double *va = malloc(sizeof(*va) * (na + 1)), *vb = malloc(sizeof(*vb) * (nb + 1));
	size_t ka, kb;

	if (!va || !vb) {
		free(va);
		free(vb);
		return -ENOMEM;
	}
	memset(m, 0, sizeof(*m));
	m->name = d->name;
	m->lower_better = d->lower_better;
	ka = gather(a, na, d, va);
	kb = gather(b, nb, d, vb);
	metric_stats(va, ka, vb, kb, o, m);
	metric_verdict(m, o);
	metric_regression(m, o);
	free(va);
	free(vb);
	return 0;
}

int compare_one(struct resultread *const *a, size_t na, struct resultread *const *b,
		size_t nb, const char *name, const struct compare_opts *o,
		struct compare_metric *out)
{
	const struct mdef *d = mdef_find(name);

	return d ? compare_def(a, na, b, nb, d, o, out) : -ENOENT;
}

/* Does any file on either side have metric @d? */
static int metric_present(struct resultread *const *a, size_t na,
			  struct resultread *const *b, size_t nb, const struct mdef *d)
{
	double v;
	size_t i;

	for (i = 0; i < na; i++)
		if (!value_of(a[i], d, &v))
			return 1;
	for (i = 0; i < nb; i++)
		if (!value_of(b[i], d, &v))
			return 1;
	return 0;
}

static json_t *side_json(struct resultread *const *v, size_t n)
{
	json_t *files = json_array();
	size_t i;

	for (i = 0; files && i < n; i++)
		json_array_append_new(files, utf8_json(v[i]->path));	/* any bytes */
	return json_pack("{s:I, s:o, s:s, s:O, s:O}", "n", (json_int_t)n, "files", files,
			 "version", v[0]->version, "job", v[0]->options,
			 "environment", v[0]->env ? v[0]->env : json_null());
}

/* Append a warning object to @arr; @side is "a", "b" or NULL. */
static void warn(json_t *arr, const char *id, const char *sev, const char *side,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void warn(json_t *arr, const char *id, const char *sev, const char *side,
		 const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:s?}", "id", id, "severity", sev,
					     "message", msg, "side", side));
}


static int is_expected(const struct compare_opts *o, const char *key)
{
	size_t i;

	for (i = 0; i < o->nr_expected; i++)
		if (!strcmp(o->expected[i], key) || !strcmp(o->expected[i], "*"))
			return 1;
	return 0;
}

/* Differences of two option objects as "job.<key>", without the job's name. */
static int job_diff(const json_t *oa, const json_t *ob, json_t *out, struct err *e)
{
	json_t *d = NULL, *it;
	size_t i;
	int ret = env_diff(oa, ob, &d, e);

	if (ret)
		return ret;
	json_array_foreach(d, i, it) {
		const char *k = json_string_value(json_object_get(it, "key"));
		char key[256];

		if (!strcmp(k, "name"))
			continue;
		snprintf(key, sizeof(key), "job.%s", k);
		json_array_append_new(out, json_pack("{s:s, s:O, s:O}", "key", key,
				      "a", json_object_get(it, "a"), "b", json_object_get(it, "b")));
	}
	json_decref(d);
	return 0;
}

/*
 * What a differing key is about, so that one change (a device: its driver,
 * model, size, ...) counts as one thing: the options under test, one job
 * option, one target, or one top-level environment entry.
 */
static void thing_of(const char *key, const struct compare_opts *o, int target_tested,
		     char *out, size_t sz)
{
	const char *dot;

	if (!strncmp(key, "job.", 4)) {
		snprintf(out, sz, "%s", is_expected(o, key + 4) ? "the options under test" : key);
		return;
	}
	if (!strncmp(key, "targets.", 8) || !strcmp(key, "disk_util")) {
		if (target_tested) {
			snprintf(out, sz, "the options under test");
			return;
		}
		dot = strchr(key, '.') ? strchr(key + 8, '.') : NULL;
		snprintf(out, sz, "%.*s", dot ? (int)(dot - key) : (int)strlen(key), key);
		return;
	}
	dot = strchr(key, '.');
	snprintf(out, sz, "%.*s", dot ? (int)(dot - key) : (int)strlen(key), key);
}

/* Warn about job options that differ (not the expected ones) and about many things differing. */
static void diff_warnings(const json_t *diff, const struct compare_opts *o, json_t *warnings)
{
	char things[6][96], jobs[400] = "", list[600] = "", t[96];
	int target_tested = is_expected(o, "filename") || is_expected(o, "directory");
	size_t i, k, nthings = 0, njobs = 0, off = 0, joff = 0;
	json_t *it;

	json_array_foreach((json_t *)diff, i, it) {
		const char *key = json_string_value(json_object_get(it, "key"));

		if (!strncmp(key, "job.", 4) && !is_expected(o, key + 4) && joff < sizeof(jobs)) {
			char *va = json_dumps(json_object_get(it, "a"), JSON_ENCODE_ANY);
			char *vb = json_dumps(json_object_get(it, "b"), JSON_ENCODE_ANY);

			joff += (size_t)snprintf(jobs + joff, sizeof(jobs) - joff, "%s%s (%s vs %s)",
						 njobs++ ? ", " : "", key + 4, va ? va : "?", vb ? vb : "?");
			free(va);
			free(vb);
		}
		thing_of(key, o, target_tested, t, sizeof(t));
		for (k = 0; k < nthings && k < 6; k++)
			if (!strcmp(things[k], t))
				break;
		if (k == nthings && nthings < 6)
			snprintf(things[nthings++], sizeof(things[0]), "%s", t);
	}
	if (njobs)
		warn(warnings, "job_differs", "warning", NULL,
		     "the jobs differ: %s; the comparison measures these changes too", jobs);
	if (nthings < 2)
		return;
	for (k = 0; k < nthings && off < sizeof(list); k++)
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s", k ? ", " : "",
					things[k]);
	warn(warnings, "many_differences", "warning", NULL,
	     "more than one thing differs between A and B (%s): a difference cannot be "
	     "attributed to one of them", list);
}

/* Files of one side that come from different jobs. */
static void side_mixed(struct resultread *const *v, size_t n, const char *side,
		       json_t *warnings)
{
	size_t i;

	for (i = 1; i < n; i++) {
		json_t *d = json_array();
		struct err e;

		err_clear(&e);
		if (d && !job_diff(v[0]->options, v[i]->options, d, &e) && json_array_size(d)) {
			json_t *first = json_array_get(d, 0);

			warn(warnings, "side_mixed", "warning", side,
			     "%s and %s come from different jobs (%s): the side is not one "
			     "configuration", v[0]->path, v[i]->path,
			     json_string_value(json_object_get(first, "key")));
			json_decref(d);
			return;
		}
		json_decref(d);
	}
}

struct agg {
	struct check_item item;
	size_t count;
};

/* Each file's plausibility checks, one warning per id and side. */
static int side_checks(struct resultread *const *v, size_t n, const char *side,
		       json_t *warnings)
{
	struct agg *agg = NULL;
	size_t nagg = 0, i, k, j;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		struct check_list l;

		check_list_init(&l);
		ret = check_result(v[i], &l);
		for (k = 0; k < l.n && !ret; k++) {
			for (j = 0; j < nagg && strcmp(agg[j].item.id, l.v[k].id); j++)
				;
			if (j == nagg) {
				struct agg *na = realloc(agg, (nagg + 1) * sizeof(*agg));

				if (!na) {
					ret = -ENOMEM;
					break;
				}
				agg = na;
				agg[nagg].item = l.v[k];
				agg[nagg++].count = 0;
			}
			agg[j].count++;
		}
		check_list_free(&l);
	}
	for (j = 0; j < nagg && !ret; j++) {
		if (n > 1)
			warn(warnings, agg[j].item.id, check_sev_name(agg[j].item.sev), side,
			     "%s (in %zu of %zu files)", agg[j].item.msg, agg[j].count, n);
		else
			warn(warnings, agg[j].item.id, check_sev_name(agg[j].item.sev), side,
			     "%s", agg[j].item.msg);
	}
	free(agg);
	return ret;
}

static void run_warnings(struct resultread *const *a, size_t na, struct resultread *const *b,
			 size_t nb, json_t *warnings)
{
	size_t n = na < nb ? na : nb;

	if (n == 1)
		warn(warnings, "single_run", "warning", NULL,
		     "%zu run of A and %zu of B: one run cannot separate a difference from "
		     "run-to-run noise; repeat each side 5 times or more, interleaved "
		     "(iotrial ab)", na, nb);
	else if (n < 5)
		warn(warnings, "few_runs", "info", NULL,
		     "%zu runs of A and %zu of B: the interval is wide and Mann-Whitney weak "
		     "below 5 runs a side", na, nb);
	if (!a[0]->env != !b[0]->env)
		warn(warnings, "env_missing", "info", NULL,
		     "the environment is recorded for %s only: what else differed is unknown",
		     a[0]->env ? "A" : "B");
}

/*
 * When A and B were limited by different things (bottleneck.h), the
 * comparison measures that change of limit (often the tool), not the
 * configurations: say so.  The verdict of each side is its first result's.
 */
static void bottleneck_warning(struct resultread *const *a, struct resultread *const *b,
			       json_t *warnings)
{
	char va[16], vb[16];

	if (bottleneck_of_result(a[0], va, sizeof(va)) || bottleneck_of_result(b[0], vb, sizeof(vb)) ||
	    !strcmp(va, vb))
		return;
	warn(warnings, "bottleneck_differs", "warning", NULL,
	     "A was limited by %s, B by %s: the comparison measures that change of bottleneck, "
	     "not only the configurations", va, vb);
}

static int build_diff(struct compare_report *r, struct resultread *const *a,
		      struct resultread *const *b, struct err *e)
{
	json_t *envd = NULL;
	size_t i;
	json_t *it;
	int ret;

	r->env_diff = json_array();
	if (!r->env_diff)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	ret = job_diff(a[0]->options, b[0]->options, r->env_diff, e);
	if (!ret && a[0]->disks[0] && b[0]->disks[0] && strcmp(a[0]->disks, b[0]->disks))
		json_array_append_new(r->env_diff, json_pack("{s:s, s:s, s:s}", "key", "disk_util",
				      "a", a[0]->disks, "b", b[0]->disks));
	if (!ret)
		ret = env_diff(a[0]->env, b[0]->env, &envd, e);
	if (ret)
		return ret;
	json_array_foreach(envd, i, it)
		json_array_append(r->env_diff, it);
	json_decref(envd);
	return 0;
}

int compare_run(struct resultread *const *a, size_t na, struct resultread *const *b,
		size_t nb, const struct compare_opts *o, struct compare_report *out,
		struct err *e)
{
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!na || !nb)
		return err_set(e, -EINVAL, EXIT_USAGE, "nothing to compare: side %s has no results",
			       na ? "B" : "A");
	out->na = na;
	out->nb = nb;
	out->noise_pct = o->noise_pct;
	out->fail_regression_pct = o->fail_regression_pct;
	out->m = calloc(NR_MDEFS, sizeof(*out->m));
	out->warnings = json_array();
	out->side_a = side_json(a, na);
	out->side_b = side_json(b, nb);
	if (!out->m || !out->warnings || !out->side_a || !out->side_b) {
		compare_report_free(out);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	}
	for (i = 0; i < NR_MDEFS; i++) {
		if (!metric_present(a, na, b, nb, &mdefs[i]))
			continue;
		if (compare_def(a, na, b, nb, &mdefs[i], o, &out->m[out->nm])) {
			compare_report_free(out);
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		}
		/* the device's figures referee, they never count as a regression */
		if (mdefs[i].kind == MK_DEV_LAT || mdefs[i].kind == MK_DEV_QD)
			out->m[out->nm].regression = 0;
		out->regressed |= out->m[out->nm++].regression;
	}
	ret = build_diff(out, a, b, e);
	if (!ret) {
		run_warnings(a, na, b, nb, out->warnings);
		bottleneck_warning(a, b, out->warnings);
		diff_warnings(out->env_diff, o, out->warnings);
		side_mixed(a, na, "a", out->warnings);
		side_mixed(b, nb, "b", out->warnings);
		ret = side_checks(a, na, "a", out->warnings);
	}
	if (!ret)
		ret = side_checks(b, nb, "b", out->warnings);
	if (ret) {
		compare_report_free(out);
		return err_set(e, ret, EXIT_INTERNAL, "out of memory");
	}
	return 0;
}

void compare_report_free(struct compare_report *r)
{
	free(r->m);
	json_decref(r->side_a);
	json_decref(r->side_b);
	json_decref(r->env_diff);
	json_decref(r->warnings);
	memset(r, 0, sizeof(*r));
}
