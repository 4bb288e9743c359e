/*
 * Tests for compare: the seed pair (single runs, its +17.9%, its warnings),
 * fixture sets with a known +10% difference, a known 20% regression, and
 * synthetic sides for each verdict.  Run from the repository root.
 */
#include <errno.h>
#include <stdlib.h>
#include "trial/compare.h"
#include "check.h"

#define DATA "tests/data/results/"

struct sides {
	struct resultread **a, **b;
	size_t na, nb;
};

static int load_sides(struct sides *s, const char *a, const char *b)
{
	char *pa[] = { (char *)a }, *pb[] = { (char *)b };
	struct err e;

	err_clear(&e);
	memset(s, 0, sizeof(*s));
	if (resultread_load_set(pa, 1, &s->a, &s->na, &e) ||
	    resultread_load_set(pb, 1, &s->b, &s->nb, &e)) {
		printf("  %s\n", e.msg);
		return -1;
	}
	return 0;
}

static void free_sides(struct sides *s)
{
	resultread_set_free(s->a, s->na);
	resultread_set_free(s->b, s->nb);
}

static const struct compare_metric *metric(const struct compare_report *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nm; i++)
		if (!strcmp(r->m[i].name, name))
			return &r->m[i];
	return NULL;
}

static const char *warning(const struct compare_report *r, const char *id, const char *side)
{
	size_t i;
	json_t *w;

	json_array_foreach(r->warnings, i, w) {
		const char *s = json_string_value(json_object_get(w, "side"));

		if (!strcmp(json_string_value(json_object_get(w, "id")), id) &&
		    (!side ? !s : s && !strcmp(s, side)))
			return json_string_value(json_object_get(w, "message"));
	}
	return NULL;
}

static int run(struct sides *s, const struct compare_opts *o, struct compare_report *r)
{
	struct err e;

	err_clear(&e);
	if (compare_run(s->a, s->na, s->b, s->nb, o, r, &e)) {
		printf("  %s\n", e.msg);
		return -1;
	}
	return 0;
}

TEST(seed_pair)
{
	struct compare_opts o;
	struct compare_report r;
	const struct compare_metric *m;
	struct sides s;

	compare_opts_init(&o);
	if (load_sides(&s, DATA "seed_virtio.json", DATA "seed_passthrough.json") ||
	    run(&s, &o, &r)) {
		CHECK(0);
		return;
	}
	m = metric(&r, "read.iops");
	CHECK(m != NULL);
	if (m) {
		CHECK_NEAR(m->diff_pct, 100.0 * (92000.0 / 78000 - 1), 1e-9);	/* +17.95% */
		CHECK(m->verdict == COMPARE_SINGLE_RUN);
		CHECK_STR(m->verdict_text, "single run: no significance can be claimed");
		CHECK(isnan(m->p) && isnan(m->ci_lo) && isnan(m->a.sd));
	}
	CHECK_NEAR(metric(&r, "write.iops")->diff_pct, 100.0 * (26.0 / 22 - 1), 1e-9);
	CHECK_NEAR(metric(&r, "read.lat_mean_ns")->diff_pct, 100.0 * (350.0 / 410 - 1), 1e-9);
	CHECK(metric(&r, "trim.iops") == NULL);		/* absent on both sides */
	CHECK(metric(&r, "cpu_per_io_ns") != NULL);
	CHECK(warning(&r, "single_run", NULL) != NULL);
	CHECK(warning(&r, "mix", "a") && strstr(warning(&r, "mix", "a"), "78.0%"));
	CHECK(warning(&r, "mix", "b") && strstr(warning(&r, "mix", "b"), "78.0%"));
	CHECK(warning(&r, "littles_law", "a") && strstr(warning(&r, "littles_law", "a"), "62.8"));
	CHECK(warning(&r, "littles_law", "b") && strstr(warning(&r, "littles_law", "b"), "63.4"));
	CHECK(warning(&r, "job_differs", NULL) == NULL);
	CHECK_EQ_U(json_array_size(r.env_diff), 1);
	CHECK_STR(json_string_value(json_object_get(json_array_get(r.env_diff, 0), "key")),
		  "disk_util");
	CHECK(!r.regressed);
	compare_report_free(&r);
	free_sides(&s);
}

TEST(known_ten_percent)
{
	struct compare_opts o;
	struct compare_report r;
	const struct compare_metric *m;
	struct sides s;

	compare_opts_init(&o);
	if (load_sides(&s, DATA "uring_a", DATA "uring_b") || run(&s, &o, &r)) {
		CHECK(0);
		return;
	}
	CHECK_EQ_U(r.na, 5);
	m = metric(&r, "read.iops");
	CHECK_NEAR(m->diff_pct, 10, 1e-9);
	CHECK(m->ci_lo < 10 && 10 < m->ci_hi && m->ci_lo > 0);
	CHECK(m->boot_lo < 10 && 10 < m->boot_hi && m->boot_lo > 0);	/* bootstrap-t */
	CHECK(m->p < 0.001);
	CHECK_NEAR(m->p_mwu, 2.0 / 252, 1e-12);		/* exact: all B above all A */
	CHECK(m->verdict == COMPARE_BETTER);
	CHECK_STR(m->verdict_text, "B is 7.5..12.6% faster");	/* the interval leads */
	CHECK(m->method == COMPARE_CI_FIELLER);		/* the fixtures' timestamps tie */
	m = metric(&r, "read.lat_mean_ns");
	CHECK_NEAR(m->diff_pct, 100 * (1 / 1.1 - 1), 1e-6);
	CHECK_STR(m->verdict_text, "B is 7.0..11.2% better");
	m = metric(&r, "write.iops");
	CHECK(m->verdict == COMPARE_INCONCLUSIVE);
	CHECK(warning(&r, "single_run", NULL) == NULL);
	CHECK(warning(&r, "few_runs", NULL) == NULL);
	CHECK(warning(&r, "short_run", "a") && strstr(warning(&r, "short_run", "a"), "(in 5 of 5 files)"));
	compare_report_free(&r);
	free_sides(&s);
}

TEST(same_configuration)
{
	struct compare_opts o;
	struct compare_report r;
	struct sides s;
	size_t i;

	compare_opts_init(&o);
	if (load_sides(&s, DATA "uring_a", DATA "uring_same") || run(&s, &o, &r)) {
		CHECK(0);
		return;
	}
	for (i = 0; i < r.nm; i++)
		CHECK(r.m[i].verdict == COMPARE_INCONCLUSIVE || r.m[i].verdict == COMPARE_NEGLIGIBLE);
	compare_report_free(&r);
	free_sides(&s);
}

TEST(regression_threshold)
{
	struct compare_opts o;
	struct compare_report r;
	struct sides s;

	compare_opts_init(&o);
	o.fail_regression_pct = 10;
	if (load_sides(&s, DATA "jp_a", DATA "jp_b") || run(&s, &o, &r)) {
		CHECK(0);
		return;
	}
	/* B's read IOPS x 0.8: -20%, beyond 10% and significant */
	CHECK_NEAR(metric(&r, "read.iops")->diff_pct, -20, 1e-9);
	CHECK(metric(&r, "read.iops")->regression);
	CHECK_STR(metric(&r, "read.iops")->verdict_text, "B is 18.1..21.8% slower");
	CHECK(metric(&r, "read.lat_mean_ns")->regression);	/* +25% latency */
	CHECK(r.regressed);
	CHECK(warning(&r, "few_runs", NULL) != NULL);		/* 3 runs a side */
	CHECK(strstr(metric(&r, "read.iops")->mwu_note, "cannot go below p = 0.100") != NULL);
	compare_report_free(&r);
	o.fail_regression_pct = 30;
	CHECK(run(&s, &o, &r) == 0);
	CHECK(!r.regressed);
	compare_report_free(&r);
	/* improvements are never regressions: swap the sides */
	o.fail_regression_pct = 10;
	CHECK(compare_run(s.b, s.nb, s.a, s.na, &o, &r, NULL) == 0);
	CHECK(!r.regressed);
	CHECK_STR(metric(&r, "read.iops")->verdict_text, "B is 22.1..27.9% faster");
	compare_report_free(&r);
	free_sides(&s);
}

static char buf[1024];

static struct resultread *synth(double iops)
{
	struct resultread *r = NULL;
	struct err e;

	snprintf(buf, sizeof(buf),
		 "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"s\","
		 " \"job options\": {\"rw\": \"randread\", \"direct\": \"1\", \"ioengine\": \"null\"},"
		 " \"read\": {\"iops\": %g, \"total_ios\": %lu, \"runtime\": 60000,"
		 "  \"lat_ns\": {\"mean\": 1000, \"N\": %lu}},"
		 " \"write\": {\"iops\": 0, \"total_ios\": 0}}]}",
		 iops, (unsigned long)(iops * 60), (unsigned long)(iops * 60));
	err_clear(&e);
	if (resultread_parse(buf, strlen(buf), "synth.json", &r, &e))
		printf("  %s\n", e.msg);
	return r;
}

static void verdict_of(const double *a, size_t na, const double *b, size_t nb,
		       struct compare_metric *out)
{
	struct resultread *ra[8], *rb[8];
	struct compare_opts o;
	size_t i;

	compare_opts_init(&o);
	for (i = 0; i < na; i++)
		ra[i] = synth(a[i]);
	for (i = 0; i < nb; i++)
		rb[i] = synth(b[i]);
	CHECK(compare_one(ra, na, rb, nb, "read.iops", &o, out) == 0);
	compare_metric_free(out);	/* the scalars stay valid */
	for (i = 0; i < na; i++)
		resultread_free(ra[i]);
	for (i = 0; i < nb; i++)
		resultread_free(rb[i]);
}

TEST(verdicts)
{
	const double base[] = { 1000, 1001, 999, 1000, 1000 };
	const double plus1[] = { 1010, 1011, 1009, 1010, 1010 };
	const double plus5[] = { 1050, 1051, 1049, 1050, 1050 };
	const double noisy[] = { 800, 1200, 1000, 900, 1100 };
	const double overlap[] = { 995, 1006, 1001, 998, 1003 };
	struct compare_metric m;

	verdict_of(base, 5, plus1, 5, &m);	/* significant, but within 2%: negligible */
	CHECK(m.p < 0.05);
	CHECK(m.verdict == COMPARE_NEGLIGIBLE);
	verdict_of(base, 5, plus5, 5, &m);
	CHECK(m.verdict == COMPARE_BETTER);
	CHECK_STR(m.verdict_text, "B is 4.9..5.1% faster");
	verdict_of(base, 5, noisy, 5, &m);	/* CV 15.8% on B: a flag, the CI decides */
	CHECK(m.verdict == COMPARE_INCONCLUSIVE && m.high_variance);
	CHECK(strstr(m.note, "CV 15.8% on B") != NULL);
	CHECK(m.runs_needed > 5);
	verdict_of(base, 5, overlap, 5, &m);	/* the whole CI within +-2% */
	CHECK(m.verdict == COMPARE_NEGLIGIBLE);
	verdict_of(base, 1, plus5, 3, &m);	/* one run of A */
	CHECK(m.verdict == COMPARE_SINGLE_RUN);
	CHECK_NEAR(m.diff_pct, 5, 1e-9);
	verdict_of(base, 2, plus5, 2, &m);
	CHECK(strstr(m.mwu_note, "needs 3 runs") != NULL);
	CHECK(isnan(m.boot_lo));		/* bootstrap-t only from 5 runs a side */
}

TEST(job_and_env_differences)
{
	const char *expected[] = { "bs" };
	struct compare_opts o;
	struct compare_report r;
	struct sides s;

	compare_opts_init(&o);
	if (load_sides(&s, DATA "iotrial_a.json", DATA "iotrial_b.json")) {
		CHECK(0);
		return;
	}
	/* only the target differs: driver, device name, path count as one thing */
	CHECK(run(&s, &o, &r) == 0);
	CHECK(json_array_size(r.env_diff) == 3);
	CHECK(warning(&r, "many_differences", NULL) == NULL);
	CHECK(warning(&r, "job_differs", NULL) == NULL);
	CHECK(warning(&r, "steady_state", "b") != NULL);
	compare_report_free(&r);
	/* and the block size: two things */
	json_object_set_new(s.b[0]->options, "bs", json_string("8k"));
	CHECK(run(&s, &o, &r) == 0);
	CHECK(warning(&r, "job_differs", NULL) &&
	      strstr(warning(&r, "job_differs", NULL), "bs (\"4k\" vs \"8k\")"));
	CHECK(warning(&r, "many_differences", NULL) &&
	      strstr(warning(&r, "many_differences", NULL), "job.bs, targets.0"));
	compare_report_free(&r);
	/* bs is what ab varies: no job warning, still two things */
	o.expected = expected;
	o.nr_expected = 1;
	CHECK(run(&s, &o, &r) == 0);
	CHECK(warning(&r, "job_differs", NULL) == NULL);
	CHECK(warning(&r, "many_differences", NULL) != NULL);
	compare_report_free(&r);
	free_sides(&s);
}

TEST(mixed_side_and_missing_env)
{
	char *a[] = { DATA "uring_a/run-1.json", DATA "jp_a/run-1.json" };
	char *b[] = { DATA "iotrial_a.json" };
	struct compare_opts o;
	struct compare_report r;
	struct sides s;
	struct err e;

	err_clear(&e);
	compare_opts_init(&o);
	memset(&s, 0, sizeof(s));
	CHECK(resultread_load_set(a, 2, &s.a, &s.na, &e) == 0);
	CHECK(resultread_load_set(b, 1, &s.b, &s.nb, &e) == 0);
	CHECK(run(&s, &o, &r) == 0);
	CHECK(warning(&r, "side_mixed", "a") != NULL);
	CHECK(warning(&r, "env_missing", NULL) && strstr(warning(&r, "env_missing", NULL), "B only"));
	compare_report_free(&r);
	free_sides(&s);
	CHECK(compare_run(NULL, 0, NULL, 0, &o, &r, &e) == -EINVAL);
	CHECK(e.exit_code == EXIT_USAGE);
}

TEST(json_and_text)
{
	struct compare_opts o;
	struct compare_report r;
	struct sides s;
	json_t *j, *m0;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	compare_opts_init(&o);
	if (load_sides(&s, DATA "seed_virtio.json", DATA "seed_passthrough.json") ||
	    run(&s, &o, &r)) {
		CHECK(0);
		return;
	}
	j = compare_json(&r);
	CHECK(json_is_object(json_object_get(j, "a")) && json_is_object(json_object_get(j, "b")));
	CHECK(json_is_array(json_object_get(j, "env_diff")));
	CHECK(json_is_array(json_object_get(j, "warnings")));
	m0 = json_array_get(json_object_get(j, "metrics"), 0);
	CHECK_STR(json_string_value(json_object_get(m0, "name")), "read.iops");
	CHECK_NEAR(json_real_value(json_object_get(json_object_get(m0, "a"), "mean")), 78000, 0);
	CHECK_EQ_U(json_integer_value(json_object_get(json_object_get(m0, "b"), "n")), 1);
	CHECK(json_is_null(json_object_get(m0, "ci")));
	CHECK(json_is_null(json_object_get(m0, "p_value")));
	CHECK(json_is_null(json_object_get(json_object_get(m0, "a"), "sd")));
	CHECK_STR(json_string_value(json_object_get(m0, "verdict")),
		  "single run: no significance can be claimed");
	json_decref(j);
	f = open_memstream(&text, &len);
	CHECK(compare_write_text(&r, f) == 0);
	fclose(f);
	CHECK(strstr(text, "read.iops") && strstr(text, "+17.9%"));
	CHECK(strstr(text, "disk_util") != NULL);
	free(text);
	compare_report_free(&r);
	free_sides(&s);
}

TEST(options)
{
	struct compare_opts o;
	struct err e;
	int json = 0;

	compare_opts_init(&o);
	err_clear(&e);
	CHECK(compare_parse_option("noise", "5%", &o, &json, &e) == 1);
	CHECK_NEAR(o.noise_pct, 5, 0);
	CHECK(compare_parse_option("fail-on-regression", "7.5", &o, &json, &e) == 1);
	CHECK_NEAR(o.fail_regression_pct, 7.5, 0);
	CHECK(compare_parse_option("output-format", "json", &o, &json, &e) == 1 && json);
	CHECK(compare_parse_option("runs", "5", &o, &json, &e) == 0);
	CHECK(compare_parse_option("noise", "-1", &o, &json, &e) == -EINVAL);
	CHECK_STR(e.msg, "--noise=-1: expected a number from 0 to 1000");
	CHECK(compare_metric_known("read.lat_p99_ns") && !compare_metric_known("read.speed"));
}

int main(void)
{
	RUN(seed_pair);
	RUN(known_ten_percent);
	RUN(same_configuration);
	RUN(regression_threshold);
	RUN(verdicts);
	RUN(job_and_env_differences);
	RUN(mixed_side_and_missing_env);
	RUN(json_and_text);
	RUN(options);
	return CHECK_DONE();
}
