/*
 * Tests for compare's verdicts, one or more per shortfall the verdict rules answer (docs/statistics.md): the
 * interval decides (and --fail-on-regression with it); a CV above the limit
 * never hides what the interval shows; run order from timestamps; tied and
 * constant values; the level's label; zero-I/O runs; no nan or inf; sides
 * that ran different jobs; the bootstrap-t and the run-order fit themselves.
 * Results are synthetic fio JSON read through resultread_parse.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>	/* floor: fio's bw_bytes is whole */
#include <stdlib.h>
#include "trial/abdrift.h"
#include "trial/abstat_boot.h"
#include "trial/abstat_rank.h"
#include "check.h"		/* the test harness (tests/unit) */
#include "analysis/plausibility.h"	/* plausibility_check: the no_io warning */
#include "trial/compare.h"

struct spec {
	double iops;		/* read IOPS; 0: no read I/O */
	long long ts;		/* timestamp_ms, -1 none */
	int njobs;		/* copies of the job in the file */
	double wiops;		/* write IOPS (rw=randrw when > 0) */
	double p99;		/* read p99 in ns, 0 none */
};

static struct resultread *synth(const struct spec *s, const char *name)
{
	char buf[4096], job[1024], ts[48] = "", p99[96] = "";
	struct resultread *r = NULL;
	size_t off;
	int i;
	struct err e;

	if (s->ts >= 0)
		snprintf(ts, sizeof(ts), "\"timestamp_ms\": %lld, ", s->ts);
	if (s->p99 > 0)
		snprintf(p99, sizeof(p99), ", \"percentile\": {\"99.000000\": %.0f}", s->p99);
	snprintf(job, sizeof(job),
		 "{\"jobname\": \"s\", \"job options\": {\"rw\": \"%s\", \"ioengine\": \"libaio\"},"
		 " \"read\": {\"iops\": %.6f, \"bw_bytes\": %.0f, \"total_ios\": %lu, \"runtime\": 60000,"
		 "  \"lat_ns\": {\"mean\": 1000, \"N\": %lu%s}},"
		 " \"write\": {\"iops\": %.6f, \"total_ios\": %lu, \"runtime\": 60000,"
		 "  \"lat_ns\": {\"mean\": 2000, \"N\": %lu}}}",
		 s->wiops > 0 ? "randrw" : "randread", s->iops, floor(s->iops * 4096),
		 (unsigned long)(s->iops * 60),
		 (unsigned long)(s->iops * 60), p99, s->wiops, (unsigned long)(s->wiops * 60),
		 (unsigned long)(s->wiops * 60));
	off = (size_t)snprintf(buf, sizeof(buf), "{\"fio version\": \"fio-3.33\", %s\"jobs\": [",
			       ts);
	for (i = 0; i < (s->njobs ? s->njobs : 1); i++)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s", i ? ", " : "", job);
	snprintf(buf + off, sizeof(buf) - off, "]}");
	err_clear(&e);
	if (resultread_parse(buf, strlen(buf), name, &r, &e))
		printf("  %s\n", e.msg);
	return r;
}

struct set {
	struct resultread *a[32], *b[32];
	size_t na, nb;
};

static void add(struct set *s, char side, struct spec sp)
{
	char name[32];

	snprintf(name, sizeof(name), "%c%zu.json", side, (side == 'A' ? s->na : s->nb) + 1);
	if (side == 'A')
		s->a[s->na++] = synth(&sp, name);
	else
		s->b[s->nb++] = synth(&sp, name);
}

static void set_free(struct set *s)
{
	size_t i;

	for (i = 0; i < s->na; i++)
		resultread_free(s->a[i]);
	for (i = 0; i < s->nb; i++)
		resultread_free(s->b[i]);
	s->na = s->nb = 0;
}

static const struct compare_metric *metric(const struct compare_report *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nm; i++)
		if (!strcmp(r->m[i].name, name))
			return &r->m[i];
	return NULL;
}

static const char *warning(const struct compare_report *r, const char *id)
{
	size_t i;
	json_t *w;

	json_array_foreach(r->warnings, i, w)
		if (!strcmp(json_string_value(json_object_get(w, "id")), id))
			return json_string_value(json_object_get(w, "message"));
	return NULL;
}

static char *text_of(const struct compare_report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(compare_write_text(r, f) == 0);
	fclose(f);
	return text;
}

static void decide(struct compare_metric *m, int lower_better, double lo, double hi,
		   double fail)
{
	struct compare_opts o;

	compare_opts_init(&o);
	o.fail_regression_pct = fail;
	memset(m, 0, sizeof(*m));
	m->a.n = m->b.n = 5;
	m->a.cv = m->b.cv = 0.03;
	m->lower_better = lower_better;
	m->ci_level = 0.95;
	m->df = 8;
	m->ci_lo = lo;
	m->ci_hi = hi;
	m->diff_pct = (lo + hi) / 2;	/* a symmetric interval around the estimate */
	m->method = COMPARE_CI_FIELLER;
	compare_verdict_decide(m, &o, NULL);
}

/*
 * Fieller's interval with 2 runs a side is lopsided: -83.8% inside
 * -170..+166%, whose centre (-2%) is on the noise bound.  The note must not
 * say the difference sits on the threshold (it is 80 points clear of it):
 * more runs would settle it, and the note says about how many.
 */
TEST(lopsided_interval)
{
	struct compare_opts o;
	struct compare_metric m;

	compare_opts_init(&o);
	memset(&m, 0, sizeof(m));
	m.a.n = m.b.n = 2;
	m.ci_level = 0.95;
	m.df = 1.4;
	m.ci_lo = -170;
	m.ci_hi = 166;
	m.diff_pct = -83.8;
	m.method = COMPARE_CI_FIELLER;
	compare_verdict_decide(&m, &o, NULL);
	CHECK(m.verdict == COMPARE_INCONCLUSIVE);
	CHECK(strstr(m.note, "noise threshold") == NULL);
	CHECK(m.runs_needed > 2 && strstr(m.note, "runs a side would likely settle it"));
	CHECK(strstr(m.note, "straddles -2.0%") != NULL);
}

/* A description (device.queue_depth) is higher or lower, never faster or a regression. */
TEST(description_has_no_side)
{
	struct compare_opts o;
	struct compare_metric m;

	compare_opts_init(&o);
	o.fail_regression_pct = 5;
	memset(&m, 0, sizeof(m));
	m.a.n = m.b.n = 5;
	m.ci_level = 0.95;
	m.df = 8;
	m.ci_lo = 1238.7;
	m.ci_hi = 1412.7;
	m.diff_pct = 1300;
	m.kind = COMPARE_DESCRIPTION;
	m.method = COMPARE_CI_FIELLER;
	compare_verdict_decide(&m, &o, NULL);
	CHECK(m.verdict == COMPARE_DIFFERS && !m.regression);
	CHECK_STR(m.verdict_text, "B is 1238.7..1412.7% higher");
	m.ci_lo = -60;
	m.ci_hi = -50;
	m.diff_pct = -55;
	compare_verdict_decide(&m, &o, NULL);
	CHECK(m.verdict == COMPARE_DIFFERS && !m.regression);
	CHECK_STR(m.verdict_text, "B is 50.0..60.0% lower");
	m.kind = COMPARE_REFEREE;	/* a direction, never the gate */
	m.lower_better = 1;
	m.ci_lo = 20;
	m.ci_hi = 30;
	compare_verdict_decide(&m, &o, NULL);
	CHECK(m.verdict == COMPARE_WORSE && !m.regression);
	m.kind = COMPARE_SCORE;
	compare_verdict_decide(&m, &o, NULL);
	CHECK(m.verdict == COMPARE_WORSE && m.regression);
	CHECK(compare_metric_kind("device.queue_depth") == COMPARE_DESCRIPTION);
	CHECK(compare_metric_kind("time.cycle_ns") == COMPARE_REFEREE);
	CHECK(compare_metric_kind("read.lat_p99_ns") == COMPARE_SCORE);
}

/* 1: the whole interval beyond +-noise, within it, or neither; the same for regressions. */
TEST(interval_decides)
{
	struct compare_metric m;

	decide(&m, 0, 0.6, 3.6, -1);	/* was "B is 2.1% faster" */
	CHECK(m.verdict == COMPARE_INCONCLUSIVE && m.runs_needed > 5);
	CHECK(strstr(m.note, "straddles +2.0%") && strstr(m.note, "runs a side"));
	decide(&m, 0, 0.4, 3.4, -1);	/* was "negligible" */
	CHECK(m.verdict == COMPARE_INCONCLUSIVE);
	decide(&m, 0, 2.1, 5, -1);
	CHECK(m.verdict == COMPARE_BETTER);
	CHECK_STR(m.verdict_text, "B is 2.1..5.0% faster");
	decide(&m, 0, -1.5, 1.5, -1);
	CHECK(m.verdict == COMPARE_NEGLIGIBLE && m.runs_needed == 0);
	decide(&m, 1, -5, -2.5, -1);	/* latency down: better */
	CHECK_STR(m.verdict_text, "B is 2.5..5.0% better");
	decide(&m, 0, -3.6, -0.6, 1);	/* could be negligible: not a regression */
	CHECK(m.verdict == COMPARE_INCONCLUSIVE && !m.regression);
	decide(&m, 0, -1.5, -1.2, 1);	/* never REGRESSION beside "negligible" */
	CHECK(m.verdict == COMPARE_NEGLIGIBLE && !m.regression);
	decide(&m, 0, -8, -3, 1);
	CHECK(m.verdict == COMPARE_WORSE && m.regression);
	decide(&m, 0, -8, -3, 5);	/* worse, but not surely by more than 5% */
	CHECK(m.verdict == COMPARE_WORSE && !m.regression);
	decide(&m, 1, 3, 8, 1);		/* latency up */
	CHECK(m.verdict == COMPARE_WORSE && m.regression);
	/* a difference sitting on the threshold: no run count is promised */
	decide(&m, 0, 0, 4, -1);
	CHECK(m.verdict == COMPARE_INCONCLUSIVE && m.runs_needed == -1);
	/* a hair off the threshold: the run count overflows a long (fuzz_compare) */
	decide(&m, 0, 0, 4 + 1e-10, -1);
	CHECK(m.verdict == COMPARE_INCONCLUSIVE && m.runs_needed == -1);
	CHECK(strstr(m.note, "more runs may never settle it") != NULL);
}

/* 2: a high CV is a flag, never a verdict that hides a clear difference. */
TEST(cv_never_hides)
{
	const double a[] = { 1000, 1250, 800, 1100, 950, 1200, 850, 1050 };
	struct compare_opts o;
	struct compare_metric m;
	struct set s = { .na = 0 };
	size_t i;

	compare_opts_init(&o);
	for (i = 0; i < 8; i++) {
		add(&s, 'A', (struct spec){ a[i], -1, 1, 0, 0 });
		add(&s, 'B', (struct spec){ a[7 - i] * 1.6, -1, 1, 0, 0 });
	}
	CHECK(compare_one(s.a, s.na, s.b, s.nb, "read.iops", &o, &m) == 0);
	CHECK(100 * m.a.cv > 10 && m.high_variance);
	CHECK(m.verdict == COMPARE_BETTER);
	CHECK(strstr(m.note, "high variance: CV") != NULL);
	compare_metric_free(&m);
	set_free(&s);
}

/* 3: run order from timestamps: blocks are confounded; an interleaved drift is removed. */
TEST(run_order)
{
	struct compare_opts o;
	struct compare_report r;
	const struct compare_metric *m;
	struct set s = { .na = 0 };
	const double jit[] = { 0.3, -0.2, 0.1, -0.4, 0.2, 0.0, -0.1, 0.4, -0.3, 0.1 };
	size_t i;
	json_t *j, *runs;

	compare_opts_init(&o);
	/* A = B, all A then all B, the system slowing 10% over the trial */
	for (i = 0; i < 10; i++)
		add(&s, i < 5 ? 'A' : 'B', (struct spec){ 1000 * (1 - 0.011 * (double)i) *
			(1 + jit[i] / 100), 1700000000000LL + 60000 * (long long)i, 1, 0, 0 });
	CHECK(compare_run(s.a, s.na, s.b, s.nb, &o, &r, NULL) == 0);
	m = metric(&r, "read.iops");
	CHECK(m->verdict == COMPARE_INCONCLUSIVE && m->confounded);
	CHECK(strstr(m->note, "confounded") != NULL);
	CHECK(warning(&r, "run_order") && strstr(warning(&r, "run_order"), "AAAAABBBBB"));
	compare_report_free(&r);
	set_free(&s);
	/* B 10% faster, alternating, the same drift: found, with the drift estimated */
	for (i = 0; i < 10; i++)
		add(&s, i % 2 ? 'B' : 'A', (struct spec){ 1000 * (i % 2 ? 1.1 : 1) *
			(1 - 0.011 * (double)i) * (1 + jit[i] / 100),
			1700000000000LL + 60000 * (long long)i, 1, 0, 0 });
	CHECK(compare_run(s.a, s.na, s.b, s.nb, &o, &r, NULL) == 0);
	m = metric(&r, "read.iops");
	CHECK(m->method == COMPARE_CI_RUN_ORDER && m->order_known && !m->confounded);
	CHECK(m->verdict == COMPARE_BETTER && m->ci_lo < 10 && 10 < m->ci_hi);
	CHECK(m->drift_pct < -0.8 && m->drift_pct > -1.4);
	CHECK(warning(&r, "run_order") == NULL);
	j = compare_json(&r);
	runs = json_object_get(json_array_get(json_object_get(j, "metrics"), 0), "runs");
	CHECK_EQ_U(json_array_size(runs), 10);
	CHECK_EQ_U(json_integer_value(json_object_get(json_array_get(runs, 3), "order")), 4);
	CHECK_STR(json_string_value(json_object_get(json_array_get(runs, 3), "side")), "B");
	CHECK_STR(json_string_value(json_object_get(json_array_get(runs, 3), "file")), "B2.json");
	json_decref(j);
	compare_report_free(&r);
	set_free(&s);
}

/*
 * A baseline measured before by design (sides_apart, docs/statistics.md
 * "Baselines"): the same blocks give the run-order interval, not
 * "confounded"; a real step is found, a drift alone is not taken for one.
 */
TEST(sides_apart)
{
	struct compare_opts o;
	struct compare_report r;
	const struct compare_metric *m;
	struct set s = { .na = 0 };
	const double jit[] = { 0.3, -0.2, 0.1, -0.4, 0.2, 0.0, -0.1, 0.4, -0.3, 0.1 };
	size_t i;

	compare_opts_init(&o);
	o.sides_apart = 1;
	o.fail_regression_pct = 5;
	/* B 20% slower than A, all A then all B, no drift */
	for (i = 0; i < 10; i++)
		add(&s, i < 5 ? 'A' : 'B', (struct spec){ 1000 * (i < 5 ? 1 : 0.8) *
			(1 + jit[i] / 100), 1700000000000LL + 60000 * (long long)i, 1, 0, 0 });
	CHECK(compare_run(s.a, s.na, s.b, s.nb, &o, &r, NULL) == 0);
	m = metric(&r, "read.iops");
	CHECK(m->method == COMPARE_CI_RUN_ORDER && !m->confounded);
	CHECK(m->verdict == COMPARE_WORSE && m->regression && r.regressed);
	CHECK(m->ci_lo < -20 && -20 < m->ci_hi && m->ci_hi < -5);
	CHECK(warning(&r, "run_order") && strstr(warning(&r, "run_order"), "by design (AAAAABBBBB)"));
	compare_report_free(&r);
	set_free(&s);
	/* A = B with the drift of run_order above (10% over the runs): no regression */
	for (i = 0; i < 10; i++)
		add(&s, i < 5 ? 'A' : 'B', (struct spec){ 1000 * (1 - 0.011 * (double)i) *
			(1 + jit[i] / 100), 1700000000000LL + 60000 * (long long)i, 1, 0, 0 });
	CHECK(compare_run(s.a, s.na, s.b, s.nb, &o, &r, NULL) == 0);
	m = metric(&r, "read.iops");
	CHECK(m->method == COMPARE_CI_RUN_ORDER && !m->regression);
	CHECK(m->ci_lo < 0 && 0 < m->ci_hi);	/* the drift is fitted, not read as B */
	CHECK(m->drift_pct < -0.5 && m->drift_pct > -1.7);
	compare_report_free(&r);
	set_free(&s);
}

/* resultread: the run's start from "timestamp_ms", else "timestamp" (s), else unknown. */
TEST(timestamps)
{
#define TS_JOBS "\"jobs\": [{\"jobname\": \"x\", \"read\": {\"iops\": 1, \"total_ios\": 1}, " \
	"\"write\": {\"iops\": 0, \"total_ios\": 0}}]}"
	const char *ms = "{\"fio version\": \"fio-3.33\", \"timestamp\": 1700000001, "
		"\"timestamp_ms\": 1700000001234, " TS_JOBS;
	const char *sec = "{\"fio version\": \"fio-3.33\", \"timestamp\": 1700000001, " TS_JOBS;
	const char *none = "{\"fio version\": \"fio-3.33\", " TS_JOBS;
	struct resultread *r;
	struct err e;

	err_clear(&e);
	CHECK(resultread_parse(ms, strlen(ms), "ms.json", &r, &e) == 0);
	CHECK(r && r->timestamp_ms == 1700000001234LL);
	resultread_free(r);
	CHECK(resultread_parse(sec, strlen(sec), "s.json", &r, &e) == 0);
	CHECK(r && r->timestamp_ms == 1700000001000LL);
	resultread_free(r);
	CHECK(resultread_parse(none, strlen(none), "n.json", &r, &e) == 0);
	CHECK(r && r->timestamp_ms == -1);
	resultread_free(r);
}

/* 5: constant or bucketed values: a rank test, never p = 0 or a zero-width interval. */
TEST(tied_values)
{
	struct compare_opts o;
	struct compare_report r;
	const struct compare_metric *m;
	struct set s = { .na = 0 };
	size_t i;

	compare_opts_init(&o);
	o.fail_regression_pct = 1;
	/* p99 is one bucket value in every run: 3 + 3 runs cannot reach 95% */
	for (i = 0; i < 3; i++) {
		add(&s, 'A', (struct spec){ 1000 + (double)i, -1, 1, 0, 50176 });
		add(&s, 'B', (struct spec){ 1001 + (double)i, -1, 1, 0, 55296 });
	}
	CHECK(compare_run(s.a, s.na, s.b, s.nb, &o, &r, NULL) == 0);
	m = metric(&r, "read.lat_p99_ns");
	CHECK(m->method == COMPARE_CI_RANK && isnan(m->ci_lo));
	CHECK(m->p > 0.05 && !(m->p == 0));
	CHECK(m->verdict == COMPARE_INCONCLUSIVE && !m->regression && !r.regressed);
	CHECK(strstr(m->method_note, "all equal") && strstr(m->method_note, "too few"));
	compare_report_free(&r);
	set_free(&s);
	/* 5 + 5 constant and equal: negligible within the bucket quantum, width > 0 */
	for (i = 0; i < 5; i++) {
		add(&s, 'A', (struct spec){ 1000, -1, 1, 0, 50176 });
		add(&s, 'B', (struct spec){ 1000, -1, 1, 0, 50176 });
	}
	CHECK(compare_run(s.a, s.na, s.b, s.nb, &o, &r, NULL) == 0);
	m = metric(&r, "read.lat_p99_ns");
	CHECK(m->ci_hi - m->ci_lo > 3 && m->ci_lo < 0 && m->verdict == COMPARE_NEGLIGIBLE);
	m = metric(&r, "read.iops");
	CHECK(m->ci_hi > m->ci_lo && m->verdict == COMPARE_NEGLIGIBLE && m->p == 1);
	compare_report_free(&r);
	set_free(&s);
	CHECK_EQ_U(abstat_rank_k(5, 5, 0.95), 3);	/* P(U <= 2) = 4/252 */
	CHECK_EQ_U(abstat_rank_k(3, 3, 0.95), 0);	/* P(U = 0) = 1/20 > 2.5% */
}

/* 6: the level actually used labels the text and the JSON. */
TEST(level_label)
{
	struct compare_opts o;
	struct compare_report r;
	struct set s = { .na = 0 };
	json_t *j;
	char *text;
	size_t i;

	compare_opts_init(&o);
	o.alpha = 0.1;
	for (i = 0; i < 5; i++) {
		add(&s, 'A', (struct spec){ 1000 + 3.0 * (double)i, -1, 1, 0, 0 });
		add(&s, 'B', (struct spec){ 1100 - 2.0 * (double)i, -1, 1, 0, 0 });
	}
	CHECK(compare_run(s.a, s.na, s.b, s.nb, &o, &r, NULL) == 0);
	text = text_of(&r);
	CHECK(strstr(text, " 90% CI ") != NULL && strstr(text, "95%") == NULL);
	free(text);
	j = compare_json(&r);
	CHECK_NEAR(json_real_value(json_object_get(json_array_get(json_object_get(j, "metrics"), 0),
						   "ci_level")), 0.9, 1e-12);
	CHECK(json_object_get(json_array_get(json_object_get(j, "metrics"), 0), "ci95") == NULL);
	json_decref(j);
	compare_report_free(&r);
	set_free(&s);
}

/* 7: a run without I/O is a failed run: dropped, named, and counted; check warns. */
TEST(zero_io_run)
{
	struct compare_opts o;
	struct compare_report r;
	struct set s = { .na = 0 };
	struct plausibility_list l;
	size_t i;

	compare_opts_init(&o);
	for (i = 0; i < 3; i++) {
		add(&s, 'A', (struct spec){ i == 1 ? 0 : 1000 + (double)i, -1, 1, 0, 0 });
		add(&s, 'B', (struct spec){ 1010 + (double)i, -1, 1, 0, 0 });
	}
	CHECK(compare_run(s.a, s.na, s.b, s.nb, &o, &r, NULL) == 0);
	CHECK(r.na == 2 && r.failed_a == 1 && metric(&r, "read.iops")->a.n == 2);
	CHECK(warning(&r, "zero_io") && strstr(warning(&r, "zero_io"), "A2.json") &&
	      strstr(warning(&r, "zero_io"), "1 of 3 runs"));
	compare_report_free(&r);
	plausibility_list_init(&l);
	CHECK(plausibility_check(s.a[1], &l) == 0);
	for (i = 0; i < l.n && strcmp(l.v[i].id, "no_io"); i++)
		;
	CHECK(i < l.n);
	plausibility_list_free(&l);
	set_free(&s);
}

/* "nan" or "inf" as a printed number (not inside "info"). */
static int has_nonfinite(const char *s)
{
	static const char *const bad[] = { "nan", "NaN", "+inf", "-inf", "inf ", "inf%", "(inf" };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (strstr(s, bad[i]))
			return 1;
	return 0;
}

/* 8: an unbounded ratio or a missing figure prints "-", never nan or inf. */
TEST(no_nan)
{
	const double a[] = { 1, 2000, 1, 2000, 1 };
	struct compare_opts o;
	struct compare_report r;
	const struct compare_metric *m;
	struct set s = { .na = 0 };
	char *text, *js;
	json_t *j;
	size_t i;

	compare_opts_init(&o);
	for (i = 0; i < 5; i++) {
		add(&s, 'A', (struct spec){ a[i], -1, 1, 0, 0 });
		add(&s, 'B', (struct spec){ 1500 + (double)i, -1, 1, 0, 0 });
	}
	CHECK(compare_run(s.a, s.na, s.b, s.nb, &o, &r, NULL) == 0);
	m = metric(&r, "read.iops");
	CHECK(m->verdict == COMPARE_INCONCLUSIVE && isnan(m->ci_lo));
	text = text_of(&r);
	CHECK(!has_nonfinite(text));
	free(text);
	j = compare_json(&r);
	js = json_dumps(j, 0);
	CHECK(js && !has_nonfinite(js));
	free(js);
	json_decref(j);
	compare_report_free(&r);
	set_free(&s);
}

/* 9: the job twice under the same options, or a side mixing directions: no verdicts. */
TEST(different_jobs)
{
	struct compare_opts o;
	struct compare_report r;
	struct set s = { .na = 0 };
	size_t i;

	compare_opts_init(&o);
	for (i = 0; i < 3; i++) {
		add(&s, 'A', (struct spec){ 1000 + (double)i, -1, 1, 0, 0 });
		add(&s, 'B', (struct spec){ 1000 + (double)i, -1, 2, 0, 0 });
	}
	CHECK(compare_run(s.a, s.na, s.b, s.nb, &o, &r, NULL) == 0);
	CHECK(warning(&r, "jobs_differ") && strstr(warning(&r, "jobs_differ"), "A has 1 job"));
	for (i = 0; i < r.nm; i++)
		CHECK(r.m[i].verdict == COMPARE_BLOCKED);
	CHECK(metric(&r, "read.iops") && strcmp(metric(&r, "read.iops")->verdict_text,
						"no verdict") == 0);
	compare_report_free(&r);
	set_free(&s);
	/* B: two read-only runs and one randrw run */
	for (i = 0; i < 3; i++) {
		add(&s, 'A', (struct spec){ 1000 + (double)i, -1, 1, 0, 0 });
		add(&s, 'B', (struct spec){ 1000 + (double)i, -1, 1, i == 2 ? 400 : 0, 0 });
	}
	CHECK(compare_run(s.a, s.na, s.b, s.nb, &o, &r, NULL) == 0);
	CHECK(warning(&r, "side_mixed") != NULL);
	for (i = 0; i < r.nm; i++)
		CHECK(r.m[i].verdict == COMPARE_BLOCKED || r.m[i].verdict == COMPARE_ABSENT);
	compare_report_free(&r);
	set_free(&s);
}

/*
 * 6: the MAD flag names the run; "runs needed" is one figure, said the same
 * wherever it is shown (the verdict's note, the run strip, the JSON): two
 * estimates by two rules (about 370 and ~25 for one metric) told the user
 * two things.
 */
TEST(outlier_and_runs_needed)
{
	const double a[] = { 1000, 1004, 998, 1002, 1001, 1003 };
	struct compare_opts o;
	struct compare_report r;
	const struct compare_metric *m;
	struct set s = { .na = 0 };
	char *text;
	size_t i;

	compare_opts_init(&o);
	for (i = 0; i < 6; i++) {
		add(&s, 'A', (struct spec){ a[i], -1, 1, 0, 0 });
		add(&s, 'B', (struct spec){ i == 4 ? 700 : a[5 - i] * 1.01, -1, 1, 0, 0 });
	}
	CHECK(compare_run(s.a, s.na, s.b, s.nb, &o, &r, NULL) == 0);
	m = metric(&r, "read.iops");
	CHECK(m->runs[6 + 4].outlier && m->runs[6 + 4].side == 'B');
	CHECK(warning(&r, "outlier") && strstr(warning(&r, "outlier"), "B5.json is an outlier in "
						   "read.iops"));
	CHECK(m->verdict == COMPARE_INCONCLUSIVE && m->runs_needed > 6);
	text = text_of(&r);
	CHECK(strstr(text, "B-30.1!") != NULL);	/* the strip marks it */
	{
		char want[64];
		const char *p;
		json_t *j = compare_json(&r), *jm;
		size_t k, said = 0;

		snprintf(want, sizeof(want), "about %ld runs a side", m->runs_needed);
		CHECK(strstr(text, want) != NULL);
		snprintf(want, sizeof(want), "[runs needed: ~%ld a side]", m->runs_needed);
		CHECK(strstr(text, want) != NULL);
		/* every runs figure in the text is that one */
		for (p = text; (p = strstr(p, "runs a side")) != NULL; p++)
			said++;
		CHECK(said >= 1);
		for (p = text; (p = strstr(p, "~")) != NULL; p++)
			CHECK(strtol(p + 1, NULL, 10) == m->runs_needed || !isdigit((unsigned char)p[1]));
		json_array_foreach(json_object_get(j, "metrics"), k, jm) {
			CHECK(!json_object_get(jm, "runs_for_noise"));
			if (!strcmp(json_string_value(json_object_get(jm, "name")), "read.iops"))
				CHECK(json_integer_value(json_object_get(jm, "runs_needed")) ==
				      m->runs_needed);
		}
		json_decref(j);
	}
	free(text);
	compare_report_free(&r);
	set_free(&s);
}

/*
 * A job that only reads at one block size: read.iops is total.iops and
 * read.bw_bytes is total.iops x bs in every run (up to fio's whole-byte
 * bw_bytes), so they fold into total.iops (same_as) and are not three rows
 * of one figure; read.lat_mean_ns (constant here) is not folded.
 */
TEST(same_figures_folded)
{
	const double a[] = { 1000, 1013, 991, 1007, 1002 };
	struct compare_opts o;
	struct compare_report r;
	struct set s = { .na = 0 };
	char *text, *p;
	size_t i, rows = 0;

	compare_opts_init(&o);
	for (i = 0; i < 5; i++) {
		add(&s, 'A', (struct spec){ a[i], 1000 + 20 * (long long)i, 1, 0, 0 });
		add(&s, 'B', (struct spec){ a[4 - i] * 1.1, 1010 + 20 * (long long)i, 1, 0, 0 });
	}
	CHECK(compare_run(s.a, s.na, s.b, s.nb, &o, &r, NULL) == 0);
	CHECK(metric(&r, "read.iops") && metric(&r, "read.iops")->same_as &&
	      !strcmp(metric(&r, "read.iops")->same_as, "total.iops"));
	CHECK(metric(&r, "read.bw_bytes") && metric(&r, "read.bw_bytes")->same_as &&
	      !strcmp(metric(&r, "read.bw_bytes")->same_as, "total.iops"));
	CHECK(metric(&r, "total.iops") && !metric(&r, "total.iops")->same_as);
	CHECK(metric(&r, "read.lat_mean_ns") && !metric(&r, "read.lat_mean_ns")->same_as);
	text = text_of(&r);
	for (p = text; (p = strstr(p, "\ntotal.iops ")) != NULL; p++)
		rows++;
	CHECK(rows == 1);
	CHECK(!strstr(text, "\nread.iops ") && !strstr(text, "\nread.bw_bytes "));
	CHECK(strstr(text, "read.iops, read.bw_bytes: not shown, a fixed multiple of total.iops"));
	free(text);
	compare_report_free(&r);
	set_free(&s);
}

/* 10 and the building blocks: bootstrap-t, run-order fit. */
TEST(bootstrap_and_fit)
{
	const double a[] = { 100, 102, 98, 101, 99, 103, 97, 100 };
	const double b[] = { 110, 112, 108, 111, 109, 113, 107, 110 };
	const double c[] = { 100, 100, 100 };
	struct abdrift_run runs[8];
	struct abdrift_fit f;
	double lo, hi, lo2, hi2, p;
	size_t i;

	CHECK(abstat_boot_t_ci(a, 8, b, 8, 2000, 1, 0.95, &lo, &hi) == 0);
	CHECK(lo < 0.10 && 0.10 < hi && lo > 0.07 && hi < 0.13);
	CHECK(abstat_boot_t_ci(a, 8, b, 8, 2000, 1, 0.95, &lo2, &hi2) == 0);
	CHECK(lo == lo2 && hi == hi2);			/* seeded */
	CHECK(abstat_boot_t_ci(c, 3, c, 3, 2000, 1, 0.95, &lo, &hi) == -ERANGE);
	/* B = 1.2 A, a drift of exactly +1% a run: recovered */
	for (i = 0; i < 8; i++)
		runs[i] = (struct abdrift_run){ 100 * pow(1.01, (double)i) * (i % 2 ? 1.2 : 1) *
						(1 + (i % 3 == 0 ? 1e-3 : -1e-3)), (int)(i % 2) };
	CHECK(abdrift_fit(runs, 8, &f) == 0);
	CHECK_NEAR(exp(f.effect), 1.2, 2e-3);
	CHECK_NEAR(exp(f.drift), 1.01, 1e-3);
	CHECK(!f.confounded && f.switches == 7);
	abdrift_ci(&f, 0.95, &lo, &hi, &p);
	CHECK(lo < 0.2 && 0.2 < hi && p < 1e-6);
	for (i = 0; i < 8; i++)
		runs[i].is_b = i >= 4;
	CHECK(abdrift_fit(runs, 8, &f) == 0 && f.confounded && f.switches == 1);
	CHECK(abdrift_fit(runs, 4, &f) == -EINVAL);
}

int main(void)
{
	RUN(interval_decides);
	RUN(lopsided_interval);
	RUN(description_has_no_side);
	RUN(cv_never_hides);
	RUN(run_order);
	RUN(sides_apart);
	RUN(timestamps);
	RUN(tied_values);
	RUN(level_label);
	RUN(zero_io_run);
	RUN(no_nan);
	RUN(different_jobs);
	RUN(outlier_and_runs_needed);
	RUN(same_figures_folded);
	RUN(bootstrap_and_fit);
	return CHECK_DONE();
}
