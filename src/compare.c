/*
 * compare: A/B comparison of result sets (see compare.h for the statistics,
 * the verdict rules and the warnings).
 */
#include "compare.h"
#include "vec.h"	/* vec_grow */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "abdrift.h"	/* order_warnings: blocks */
#include "bottleneck.h"	/* device figures and the bottleneck_differs warning */
#include "check.h"
#include "compare_stats.h"
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
	"  --noise=PCT                a difference whose whole interval lies within +-PCT% is\n"
	"                             \"negligible\"; beyond it, \"faster\"/\"slower\"; else\n"
	"                             \"inconclusive\" (default 2)\n"
	"  --cv-limit=PCT             flag a side whose CV exceeds PCT% (default 10; a note,\n"
	"                             never a verdict)\n"
	"  --alpha=P                  the interval's level is 1 - P (default 0.05: 95%)\n"
	"  --fail-on-regression=PCT   exit 6 when a metric is worse and its whole interval\n"
	"                             lies beyond PCT% in the bad direction\n"
	"  --bootstrap-seed=N         seed of the bootstrap-t interval (default 1)\n";

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

const char *compare_metric_at(size_t i, int *lower_better)
{
	if (i >= NR_MDEFS)
		return NULL;
	if (lower_better)
		*lower_better = mdefs[i].lower_better;
	return mdefs[i].name;
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

/*
 * Both sides' runs in run order.  The order is known when every run has a
 * distinct timestamp (iotrial's and fio's "timestamp_ms", else "timestamp");
 * otherwise it is A's runs, then B's, as given, and nothing is inferred from it.
 */
struct seq_item {
	struct resultread *r;
	char side;
};

struct seq {
	struct seq_item *v;
	size_t n;
	int known;
};

static int cmp_item_ts(const void *pa, const void *pb)
{
	int64_t x = ((const struct seq_item *)pa)->r->timestamp_ms;
	int64_t y = ((const struct seq_item *)pb)->r->timestamp_ms;

	return (x > y) - (x < y);
}

static void seq_fill(struct seq *s, struct resultread *const *a, size_t na,
		     struct resultread *const *b, size_t nb)
{
	size_t i;

	for (i = 0; i < na; i++)
		s->v[i] = (struct seq_item){ a[i], 'A' };
	for (i = 0; i < nb; i++)
		s->v[na + i] = (struct seq_item){ b[i], 'B' };
}

static int seq_build(struct resultread *const *a, size_t na, struct resultread *const *b,
		     size_t nb, struct seq *s)
{
	size_t i;

	s->n = na + nb;
	s->v = malloc(sizeof(*s->v) * (s->n ? s->n : 1));
	if (!s->v)
		return -ENOMEM;
	seq_fill(s, a, na, b, nb);
	s->known = 1;
	for (i = 0; i < s->n; i++)
		if (s->v[i].r->timestamp_ms < 0)
			s->known = 0;
	if (s->known) {
		qsort(s->v, s->n, sizeof(*s->v), cmp_item_ts);
		for (i = 1; i < s->n; i++)
			if (s->v[i].r->timestamp_ms == s->v[i - 1].r->timestamp_ms)
				s->known = 0;
		if (!s->known)
			seq_fill(s, a, na, b, nb);
	}
	return 0;
}

static int compare_def(const struct seq *s, const struct mdef *d,
		       const struct compare_opts *o, const char *block,
		       struct compare_metric *m)
{
	double *va = malloc(sizeof(*va) * (s->n + 1)), *vb = malloc(sizeof(*vb) * (s->n + 1));
	size_t ka = 0, kb = 0, i;

	memset(m, 0, sizeof(*m));
	m->runs = calloc(s->n + 1, sizeof(*m->runs));
	if (!va || !vb || !m->runs) {
		free(va);
		free(vb);
		free(m->runs);
		m->runs = NULL;
		return -ENOMEM;
	}
	m->name = d->name;
	m->lower_better = d->lower_better;
	m->order_known = s->known;
	for (i = 0; i < s->n; i++) {
		double v;

		if (value_of(s->v[i].r, d, &v))
			continue;
		m->runs[m->nruns++] = (struct compare_run){ s->v[i].r->path, s->v[i].side,
			s->known ? (unsigned)i + 1 : 0, s->v[i].r->timestamp_ms, v, 0 };
		if (s->v[i].side == 'A')
			va[ka++] = v;
		else
			vb[kb++] = v;
	}
	/* fio's latency histogram: 64 buckets per power of 2 */
	compare_stats_fill(va, ka, vb, kb, d->kind == MK_P99 ? 1.0 / 64 : 0.001, o, m);
	compare_stats_outliers(m, 'A');
	compare_stats_outliers(m, 'B');
	compare_verdict_decide(m, o, block);
	free(va);
	free(vb);
	return 0;
}

void compare_metric_free(struct compare_metric *m)
{
	free(m->runs);
	m->runs = NULL;
	m->nruns = 0;
}

int compare_one(struct resultread *const *a, size_t na, struct resultread *const *b,
		size_t nb, const char *name, const struct compare_opts *o,
		struct compare_metric *out)
{
	const struct mdef *d = mdef_find(name);
	struct seq s;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!d)
		return -ENOENT;
	if (seq_build(a, na, b, nb, &s))
		return -ENOMEM;
	ret = compare_def(&s, d, o, NULL, out);
	/* the per-run values are for reports (compare_run); callers of compare_one
	 * (ab's progress, suites) take the figures, and owe nothing back */
	compare_metric_free(out);
	free(s.v);
	return ret;
}

/* Does any run on either side have metric @d? */
static int metric_present(const struct seq_item *v, size_t n, const struct mdef *d)
{
	double x;
	size_t i;

	for (i = 0; i < n; i++)
		if (!value_of(v[i].r, d, &x))
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

/* Directions with I/O in @r, as a bit mask (1 read, 2 write, 4 trim). */
static unsigned dir_mask(const struct resultread *r)
{
	unsigned m = 0;
	int k;

	for (k = 0; k < RESULTREAD_NDIR; k++)
		if (r->dir[k].ios)
			m |= 1u << k;
	return m;
}

static void mask_text(unsigned m, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s%s%s%s", m & 1 ? "r" : "", m & 2 ? "w" : "", m & 4 ? "t" : "",
		 m ? "" : "none");
}

/*
 * Files of one side that come from different jobs, hold a different number
 * of jobs, or did I/O in different directions: the side is not one
 * configuration, and no metric of it gets a verdict.  Returns 1 when mixed.
 */
static int side_mixed(struct resultread *const *v, size_t n, const char *side,
		      json_t *warnings)
{
	char ma[8], mb[8];
	size_t i;

	for (i = 1; i < n; i++) {
		json_t *d = json_array();
		struct err e;

		err_clear(&e);
		if (d && !job_diff(v[0]->options, v[i]->options, d, &e) && json_array_size(d)) {
			json_t *first = json_array_get(d, 0);

			warn(warnings, "side_mixed", "warning", side,
			     "%s and %s come from different jobs (%s): the side is not one "
			     "configuration; no verdicts", v[0]->path, v[i]->path,
			     json_string_value(json_object_get(first, "key")));
			json_decref(d);
			return 1;
		}
		json_decref(d);
		if (v[i]->nr_jobs != v[0]->nr_jobs || dir_mask(v[i]) != dir_mask(v[0])) {
			mask_text(dir_mask(v[0]), ma, sizeof(ma));
			mask_text(dir_mask(v[i]), mb, sizeof(mb));
			warn(warnings, "side_mixed", "warning", side,
			     "%s and %s differ in jobs (%zu vs %zu) or directions with I/O (%s vs "
			     "%s): the side is not one configuration; no verdicts", v[0]->path,
			     v[i]->path, v[0]->nr_jobs, v[i]->nr_jobs, ma, mb);
			return 1;
		}
	}
	return 0;
}

/*
 * The same job options on both sides but a different number of jobs (a job
 * file holding the job twice) or different directions with I/O: what was
 * measured differs in a way the options do not show.  Returns 1 when so.
 */
static int jobs_differ(const struct resultread *a, const struct resultread *b,
		       const json_t *diff, json_t *warnings)
{
	char ma[8], mb[8];
	size_t i;
	json_t *it;

	json_array_foreach((json_t *)diff, i, it)
		if (!strncmp(json_string_value(json_object_get(it, "key")), "job.", 4))
			return 0;	/* job_differs says what changed */
	if (a->nr_jobs == b->nr_jobs && dir_mask(a) == dir_mask(b))
		return 0;
	mask_text(dir_mask(a), ma, sizeof(ma));
	mask_text(dir_mask(b), mb, sizeof(mb));
	warn(warnings, "jobs_differ", "warning", NULL,
	     "the job options are the same but A has %zu job%s doing I/O in %s and B %zu "
	     "doing %s: the sides ran different workloads; no verdicts", a->nr_jobs,
	     a->nr_jobs == 1 ? "" : "s", ma, b->nr_jobs, mb);
	return 1;
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
	size_t nagg = 0, cap = 0, i, k, j;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		struct check_list l;

		check_list_init(&l);
		ret = check_result(v[i], &l);
		for (k = 0; k < l.n && !ret; k++) {
			for (j = 0; j < nagg && strcmp(agg[j].item.id, l.v[k].id); j++)
				;
			if (j == nagg) {
				if (vec_grow((void **)&agg, &cap, nagg + 1, sizeof(*agg), 8)) {
					ret = -ENOMEM;
					break;
				}
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

/* Drop runs without any I/O (failed runs), with a warning naming them. */
static int drop_zero_io(struct resultread *const *v, size_t n, const char *side,
			struct resultread ***out, size_t *nout, json_t *warnings)
{
	char names[400] = "";
	size_t i, off = 0, dropped = 0;

	*out = malloc(sizeof(**out) * (n ? n : 1));
	if (!*out)
		return -ENOMEM;
	*nout = 0;
	for (i = 0; i < n; i++) {
		if (dir_mask(v[i])) {
			(*out)[(*nout)++] = v[i];
			continue;
		}
		if (off < sizeof(names))
			off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s",
						dropped ? ", " : "", v[i]->path);
		dropped++;
	}
	if (dropped)
		warn(warnings, "zero_io", "warning", side,
		     "%zu of %zu runs did no I/O (%s): counted as failed runs and left out; "
		     "the figures are over the other %zu", dropped, n, names, *nout);
	return 0;
}

/* Why metric @d may not get a verdict (a side has it in only some runs), or NULL. */
static const char *partial_block(const struct seq *s, const struct mdef *d, char *buf,
				 size_t sz, json_t *warnings)
{
	size_t have[2] = { 0, 0 }, all[2] = { 0, 0 }, i;
	double v;
	int k;

	for (i = 0; i < s->n; i++) {
		k = s->v[i].side == 'B';
		all[k]++;
		have[k] += !value_of(s->v[i].r, d, &v);
	}
	for (k = 0; k < 2; k++)
		if (have[k] && have[k] < all[k]) {
			snprintf(buf, sz, "%s is in only %zu of %c's %zu runs", d->name, have[k],
				 "AB"[k], all[k]);
			warn(warnings, "partial_direction", "warning", k ? "b" : "a",
			     "%s: runs of one side differ in what they measured; no verdict", buf);
			return buf;
		}
	return NULL;
}

/* Run order: unknown, or made in blocks (warned; the verdicts say inconclusive). */
static void order_warnings(const struct seq *s, const struct compare_opts *o, json_t *warnings)
{
	struct abdrift_run r[256];
	struct abdrift_fit f;
	char strip[80];
	size_t i;

	if (!s->known) {
		warn(warnings, "run_order", "info", NULL, "the run order is unknown (timestamps "
		     "missing or equal): a drift in time cannot be separated from the effect");
		return;
	}
	if (s->n > 256)
		return;
	for (i = 0; i < s->n; i++)
		r[i] = (struct abdrift_run){ 1, s->v[i].side == 'B' };
	if (abdrift_fit(r, s->n, &f) == -EINVAL && f.switches > 1)
		return;
	if (!f.blocky && f.switches > 1)
		return;
	for (i = 0; i < s->n && i < sizeof(strip) - 4; i++)
		strip[i] = s->v[i].side;
	snprintf(strip + i, sizeof(strip) - i, "%s", i < s->n ? "..." : "");
	if (o->sides_apart) {
		warn(warnings, "run_order", "info", NULL,
		     "the baseline ran before the candidate, by design (%s): the interval allows "
		     "for a linear drift along the runs, fitted within the sides; anything else "
		     "that changed in between is part of the difference", strip);
		return;
	}
	warn(warnings, "run_order", "warning", NULL,
	     "the sides ran in blocks (%s, order/side correlation %.2f): a drift in time "
	     "would read as a difference; %s", strip, f.corr,
	     f.confounded ? "side and order are confounded, verdicts are inconclusive" :
	     "the interval allows for a linear drift only");
}

/* One warning per run flagged as an outlier, listing the metrics. */
static void outlier_warnings(const struct compare_report *r, const struct seq *s)
{
	size_t i, k, j;

	for (i = 0; i < s->n; i++) {
		char list[300] = "";
		size_t off = 0, nf = 0;

		for (k = 0; k < r->nm; k++)
			for (j = 0; j < r->m[k].nruns; j++)
				if (r->m[k].runs[j].outlier &&
				    r->m[k].runs[j].file == s->v[i].r->path && off < sizeof(list)) {
					off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s",
								nf++ ? ", " : "", r->m[k].name);
				}
		if (nf)
			warn(r->warnings, "outlier", "warning", s->v[i].side == 'A' ? "a" : "b",
			     "%s is an outlier in %s (robust z above %.1f: its distance from "
			     "the side's median over 1.4826 x MAD): check what happened during it",
			     s->v[i].r->path, list, COMPARE_OUTLIER_Z);
	}
}

static int compare_metrics(struct compare_report *out, const struct seq *s,
			   const struct compare_opts *o, const char *block_all)
{
	char buf[160];
	size_t i;

	for (i = 0; i < NR_MDEFS; i++) {
		const char *block = block_all;

		if (!metric_present(s->v, s->n, &mdefs[i]))
			continue;
		if (!block)
			block = partial_block(s, &mdefs[i], buf, sizeof(buf), out->warnings);
		if (compare_def(s, &mdefs[i], o, block, &out->m[out->nm]))
			return -ENOMEM;
		/* the device's figures referee, they never count as a regression */
		if (mdefs[i].kind == MK_DEV_LAT || mdefs[i].kind == MK_DEV_QD)
			out->m[out->nm].regression = 0;
		out->regressed |= out->m[out->nm++].regression;
	}
	outlier_warnings(out, s);
	return 0;
}

int compare_run(struct resultread *const *a0, size_t na0, struct resultread *const *b0,
		size_t nb0, const struct compare_opts *o, struct compare_report *out,
		struct err *e)
{
	struct resultread **a = NULL, **b = NULL;
	const char *block = NULL;
	struct seq s = { 0 };
	size_t na = 0, nb = 0;
	int ret, mixed;

	memset(out, 0, sizeof(*out));
	if (!na0 || !nb0)
		return err_set(e, -EINVAL, EXIT_USAGE, "nothing to compare: side %s has no results",
			       na0 ? "B" : "A");
	out->warnings = json_array();
	if (!out->warnings || drop_zero_io(a0, na0, "a", &a, &na, out->warnings) ||
	    drop_zero_io(b0, nb0, "b", &b, &nb, out->warnings)) {
		ret = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		goto fail;
	}
	if (!na || !nb) {
		ret = err_set(e, -EINVAL, EXIT_USAGE, "nothing to compare: no run of side %s did "
			      "any I/O (%zu failed runs)", na ? "B" : "A", na ? nb0 : na0);
		goto fail;
	}
	out->na = na;
	out->nb = nb;
	out->failed_a = na0 - na;
	out->failed_b = nb0 - nb;
	out->noise_pct = o->noise_pct;
	out->fail_regression_pct = o->fail_regression_pct;
	out->ci_level = 1 - o->alpha;
	out->m = calloc(NR_MDEFS, sizeof(*out->m));
	out->side_a = side_json(a, na);
	out->side_b = side_json(b, nb);
	if (!out->m || !out->side_a || !out->side_b || seq_build(a, na, b, nb, &s)) {
		ret = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		goto fail;
	}
	out->order_known = s.known;
	ret = build_diff(out, a, b, e);
	if (ret)
		goto fail;
	run_warnings(a, na, b, nb, out->warnings);
	bottleneck_warning(a, b, out->warnings);
	diff_warnings(out->env_diff, o, out->warnings);
	order_warnings(&s, o, out->warnings);
	mixed = side_mixed(a, na, "a", out->warnings);
	mixed |= side_mixed(b, nb, "b", out->warnings);
	if (mixed)
		block = "a side mixes different jobs or directions (warning side_mixed)";
	else if (jobs_differ(a[0], b[0], out->env_diff, out->warnings))
		block = "the sides ran different job sets under the same options (warning "
			"jobs_differ)";
	ret = compare_metrics(out, &s, o, block);
	if (!ret)
		ret = side_checks(a, na, "a", out->warnings);
	if (!ret)
		ret = side_checks(b, nb, "b", out->warnings);
	if (ret) {
		ret = err_set(e, ret, EXIT_INTERNAL, "out of memory");
		goto fail;
	}
	free(s.v);
	free(a);
	free(b);
	return 0;
fail:
	free(s.v);
	free(a);
	free(b);
	compare_report_free(out);
	return ret;
}

void compare_report_free(struct compare_report *r)
{
	size_t i;

	for (i = 0; r->m && i < r->nm; i++)
		compare_metric_free(&r->m[i]);
	free(r->m);
	json_decref(r->side_a);
	json_decref(r->side_b);
	json_decref(r->env_diff);
	json_decref(r->warnings);
	memset(r, 0, sizeof(*r));
}
