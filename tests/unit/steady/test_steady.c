/*
 * test_steady: SNIA PTS and fio ss= criteria on hand-worked series (flat,
 * linear ramp, one outlier, a step), both as a stop rule (steady_check on a
 * growing series) and as a reporting rule (steady_find), and fio's
 * "steadystate" JSON object reproduced from ss.json's own data.
 */
#include "check.h"
#include "steady/steady.h"
#include "steady/steady_out.h"

#include <errno.h>
#include <stdlib.h>

/*
 * A series of 1 s intervals (interval_ms each, really) whose read IOPS are
 * @y; the first @ramp are ramp intervals.  Every I/O takes 2000 ns, 4 KiB.
 */
static void build(struct series *s, const double *y, size_t n, size_t ramp, uint64_t iv_ms)
{
	static struct hist h;
	struct series_in in[DDIR_NR];

	series_init(s);
	for (size_t i = 0; i < n; i++) {
		uint64_t ios = (uint64_t)(y[i] * (double)iv_ms / 1000.0 + 0.5);

		memset(in, 0, sizeof(in));
		for (int d = 0; d < DDIR_NR; d++)
			in[d].lat_min = UINT64_MAX;
		memset(&h, 0, sizeof(h));
		h.b[hist_index(2000)] = ios;
		in[0].ios = ios;
		in[0].bytes = ios * 4096;
		in[0].lat_sum_ns = ios * 2000;
		in[0].lat_min = ios ? 2000 : UINT64_MAX;
		in[0].lat_max = ios ? 2000 : 0;
		in[0].lat_hist = &h;
		series_add(s, (i + 1) * iv_ms, iv_ms * 1000, i < ramp, in);
	}
}

/* Stop rule: the number of intervals after which steady_check first says attained. */
static size_t stop_after(const struct steady_cfg *c, const double *y, size_t n, size_t ramp)
{
	struct steady st;
	struct series s;

	steady_init(&st);
	for (size_t k = 1; k <= n; k++) {
		build(&s, y, k, ramp, 1000);
		steady_check(c, &s, &st);
		series_free(&s);
		if (st.attained) {
			steady_free(&st);
			return k;
		}
	}
	steady_free(&st);
	return 0;
}

TEST(snia_flat)
{
	double y[10];
	struct series s;
	struct steady st;
	struct steady_cfg c;

	for (int i = 0; i < 10; i++)
		y[i] = 1000;
	steady_cfg_snia(&c, 0);
	build(&s, y, 10, 0, 1000);
	steady_init(&st);
	CHECK_EQ_U(steady_find(&c, &s, &st), 0);
	CHECK(st.evaluated && st.attained);
	CHECK_EQ_U(st.first, 0);
	CHECK_EQ_U(st.last, 4);
	CHECK_EQ_U(st.start_ms, 0);
	CHECK_EQ_U(st.end_ms, 5000);
	CHECK_NEAR(st.mean, 1000, 1e-9);
	CHECK_NEAR(st.range_pct, 0, 1e-12);
	CHECK_NEAR(st.excursion_pct, 0, 1e-12);
	/* the window's figures per direction, from its merged histogram */
	CHECK(st.dir[DDIR_READ] && !st.dir[DDIR_WRITE] && !st.dir[DDIR_TRIM]);
	CHECK_EQ_U(st.dir[DDIR_READ]->ios, 5000);
	CHECK_NEAR(st.dir[DDIR_READ]->iops, 1000, 1e-9);
	CHECK_NEAR(st.dir[DDIR_READ]->bw_bytes, 1000 * 4096, 1e-6);
	/* every I/O took 2000 ns: the bucket's value (2008) is held to the max */
	CHECK(hist_bucket_value(hist_index(2000)) > 2000);
	CHECK_EQ_U(st.dir[DDIR_READ]->p99, 2000);
	CHECK_EQ_U(st.dir[DDIR_READ]->lat_max, 2000);
	CHECK_NEAR(st.dir[DDIR_READ]->lat_mean, 2000, 1e-9);
	steady_free(&st);
	series_free(&s);
	/* stop rule: attained as soon as the first full window exists */
	CHECK_EQ_U(stop_after(&c, y, 10, 0), 5);
}

/*
 * Linear ramp 1000, 1050, ..., 1450, then flat at 1450.  Window [1000..1200]:
 * mean 1100, slope 50/round, excursion 50 x 4 = 200 = 18.18% > 10% (range
 * 200 = 18.18% passes).  [1300,1350,1400,1450,1450]: slope 40, excursion
 * 160/1390 = 11.51%: still fails.  [1350,1400,1450,1450,1450]: slope 25,
 * excursion 100/1420 = 7.04%, range 7.04%: steady, intervals 7..11.
 */
TEST(snia_linear_ramp)
{
	double y[16];
	struct series s;
	struct steady st;
	struct steady_cfg c;

	for (int i = 0; i < 16; i++)
		y[i] = i < 10 ? 1000 + 50 * i : 1450;
	steady_cfg_snia(&c, 0);
	build(&s, y, 5, 0, 1000);
	steady_init(&st);
	CHECK_EQ_U(steady_check(&c, &s, &st), 0);
	CHECK(st.evaluated && !st.attained);
	CHECK_NEAR(st.mean, 1100, 1e-9);
	CHECK_NEAR(st.slope, 50, 1e-9);
	CHECK_NEAR(st.excursion_pct, 200.0 / 1100 * 100, 1e-9);
	CHECK_NEAR(st.range_pct, 200.0 / 1100 * 100, 1e-9);
	CHECK(st.dir[DDIR_READ] == NULL);
	series_free(&s);

	build(&s, y, 11, 0, 1000);	/* last window = intervals 6..10 */
	CHECK_EQ_U(steady_check(&c, &s, &st), 0);
	CHECK(!st.attained);
	CHECK_NEAR(st.slope, 40, 1e-9);
	CHECK_NEAR(st.excursion_pct, 160.0 / 1390 * 100, 1e-9);
	series_free(&s);

	build(&s, y, 16, 0, 1000);
	CHECK_EQ_U(steady_find(&c, &s, &st), 0);
	CHECK(st.attained);
	CHECK_EQ_U(st.first, 7);
	CHECK_EQ_U(st.last, 11);
	CHECK_NEAR(st.slope, 25, 1e-9);
	CHECK_NEAR(st.excursion_pct, 100.0 / 1420 * 100, 1e-9);
	CHECK_NEAR(st.range_pct, 100.0 / 1420 * 100, 1e-9);
	CHECK_EQ_U(st.start_ms, 7000);
	CHECK_EQ_U(st.end_ms, 12000);
	CHECK_NEAR(st.dir[DDIR_READ]->iops, (1350 + 1400 + 1450 * 3) / 5.0, 1e-9);
	steady_free(&st);
	series_free(&s);
	CHECK_EQ_U(stop_after(&c, y, 16, 0), 12);
}

/*
 * Flat 1000 with one 1300 at index 6: every window holding it has range
 * 300 / 1060 = 28.30% > 20% and fails; the stop rule fires at interval 5
 * (before it) and, started after it, only once it left the window.
 */
TEST(snia_outlier)
{
	double y[14];
	struct series s;
	struct steady st;
	struct steady_cfg c;
	char buf[512];
	FILE *f;

	for (int i = 0; i < 14; i++)
		y[i] = i == 6 ? 1300 : 1000;
	steady_cfg_snia(&c, 0);
	steady_init(&st);
	for (size_t n = 7; n <= 11; n++) {
		build(&s, y, n, 0, 1000);
		CHECK_EQ_U(steady_check(&c, &s, &st), 0);
		CHECK(st.evaluated && !st.attained);
		CHECK_NEAR(st.range_pct, 300.0 / 1060 * 100, 1e-9);
		series_free(&s);
	}
	f = fmemopen(buf, sizeof(buf), "w");
	steady_print_text(f, &st);
	fclose(f);
	CHECK(strstr(buf, "steady state NOT reached (snia iops") != NULL);
	CHECK(strstr(buf, "range 28.30% > 20%") != NULL);
	build(&s, y, 12, 0, 1000);
	CHECK_EQ_U(steady_check(&c, &s, &st), 0);
	CHECK(st.attained);
	CHECK_EQ_U(st.first, 7);
	series_free(&s);

	/* reporting rule with the outlier at index 2: first clean window is 3..7 */
	y[6] = 1000;
	y[2] = 1300;
	build(&s, y, 14, 0, 1000);
	CHECK_EQ_U(steady_find(&c, &s, &st), 0);
	CHECK(st.attained);
	CHECK_EQ_U(st.first, 3);
	CHECK_EQ_U(st.last, 7);
	steady_free(&st);
	series_free(&s);
}

/* A step 1000 -> 1500 at index 3: steady only from the step, a window later. */
TEST(snia_step)
{
	double y[12];
	struct series s;
	struct steady st;
	struct steady_cfg c;

	for (int i = 0; i < 12; i++)
		y[i] = i < 3 ? 1000 : 1500;
	steady_cfg_snia(&c, 0);
	steady_init(&st);
	build(&s, y, 5, 0, 1000);	/* [1000 x3, 1500 x2]: mean 1200, range 41.67% */
	CHECK_EQ_U(steady_check(&c, &s, &st), 0);
	CHECK(!st.attained);
	CHECK_NEAR(st.range_pct, 500.0 / 1200 * 100, 1e-9);
	series_free(&s);
	CHECK_EQ_U(stop_after(&c, y, 12, 0), 8);
	build(&s, y, 12, 0, 1000);
	CHECK_EQ_U(steady_find(&c, &s, &st), 0);
	CHECK_EQ_U(st.first, 3);
	CHECK_EQ_U(st.last, 7);
	CHECK_NEAR(st.mean, 1500, 1e-9);
	steady_free(&st);
	series_free(&s);
}

TEST(snia_never_and_ramp)
{
	double y[10] = { 5000, 100, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000 };
	double z[8] = { 1000, 2000, 1000, 2000, 1000, 2000, 1000, 2000 };
	struct series s;
	struct steady st;
	struct steady_cfg c;
	json_t *j;

	steady_cfg_snia(&c, 0);
	steady_init(&st);
	/* ramp intervals never count, whatever they hold */
	build(&s, y, 10, 2, 1000);
	CHECK_EQ_U(steady_find(&c, &s, &st), 0);
	CHECK(st.attained);
	CHECK_EQ_U(st.first, 2);
	series_free(&s);
	/* ss_ramp skips further measured intervals */
	c.ramp_ms = 2000;
	build(&s, y, 10, 2, 1000);
	CHECK_EQ_U(steady_find(&c, &s, &st), 0);
	CHECK_EQ_U(st.first, 4);
	CHECK_EQ_U(st.start_ms, 4000);
	series_free(&s);
	c.ramp_ms = 0;
	/* too short: not evaluated, says how many rounds it had */
	build(&s, y, 5, 2, 1000);
	CHECK_EQ_U(steady_find(&c, &s, &st), 0);
	CHECK(!st.evaluated && !st.attained);
	CHECK_EQ_U(st.nr, 3);
	series_free(&s);
	/* never steady: attained false, the last window's values kept */
	build(&s, z, 8, 0, 1000);
	CHECK_EQ_U(steady_find(&c, &s, &st), 0);
	CHECK(st.evaluated && !st.attained);
	CHECK_EQ_U(st.first, 3);
	CHECK_EQ_U(st.last, 7);
	CHECK_NEAR(st.mean, 1600, 1e-9);
	CHECK_EQ_U(steady_to_json(&st, &j), 0);
	CHECK(json_is_false(json_object_get(j, "attained")));
	CHECK_STR(json_string_value(json_object_get(j, "criterion")), "snia");
	CHECK_EQ_U(json_integer_value(json_object_get(j, "start_ms")), 3000);
	CHECK_EQ_U(json_integer_value(json_object_get(j, "end_ms")), 8000);
	CHECK_NEAR(json_real_value(json_object_get(j, "range_pct")), 1000.0 / 1600 * 100, 1e-9);
	CHECK(json_object_get(j, "read") == NULL);
	CHECK_EQ_U(json_array_size(json_object_get(j, "values")), 5);
	json_decref(j);
	steady_free(&st);
	series_free(&s);
}

/* Rounds of k intervals: 500 ms intervals, 2 per round. */
TEST(snia_rounds_of_intervals)
{
	double y[12];
	struct series s;
	struct steady st;
	struct steady_cfg c;
	json_t *j, *r;

	for (int i = 0; i < 12; i++)
		y[i] = i % 2 ? 1200 : 800;	/* noisy per interval, flat per round */
	steady_cfg_snia(&c, 500000);
	build(&s, y, 12, 0, 500);
	steady_init(&st);
	CHECK_EQ_U(steady_find(&c, &s, &st), 0);
	CHECK(!st.attained);		/* range 40% per 500 ms interval */
	c.round_intervals = 2;
	c.round_us = 1000000;
	CHECK_EQ_U(steady_find(&c, &s, &st), 0);
	CHECK(st.attained);
	CHECK_EQ_U(st.first, 0);
	CHECK_EQ_U(st.last, 9);
	CHECK_NEAR(st.mean, 1000, 1e-9);
	CHECK_EQ_U(steady_to_json(&st, &j), 0);
	CHECK(json_is_true(json_object_get(j, "attained")));
	CHECK_EQ_U(json_integer_value(json_object_get(j, "round_ms")), 1000);
	r = json_object_get(j, "read");
	CHECK(r != NULL);
	CHECK_EQ_U(json_integer_value(json_object_get(r, "ios")), 5000);
	CHECK(json_object_get(json_object_get(r, "lat_ns"), "p99.9") != NULL);
	CHECK(json_object_get(j, "write") == NULL);
	json_decref(j);
	steady_free(&st);
	series_free(&s);
}

/* Mean latency of one direction as the tracked variable (PTS latency test). */
TEST(snia_latency_metric)
{
	static struct hist h;
	struct series s;
	struct series_in in[DDIR_NR];
	struct steady st;
	struct steady_cfg c;
	const uint64_t lat[8] = { 9000, 5000, 2000, 2100, 2000, 1900, 2000, 2050 };

	series_init(&s);
	for (int i = 0; i < 8; i++) {
		memset(in, 0, sizeof(in));
		memset(&h, 0, sizeof(h));
		for (int d = 0; d < DDIR_NR; d++)
			in[d].lat_min = UINT64_MAX;
		in[1].ios = 100;
		in[1].bytes = 409600;
		in[1].lat_sum_ns = 100 * lat[i];
		in[1].lat_min = in[1].lat_max = lat[i];
		h.b[hist_index(lat[i])] = 100;
		in[1].lat_hist = &h;
		in[0].ios = 1000 * (uint64_t)(i + 1);	/* reads ramp: ignored */
		series_add(&s, (uint64_t)(i + 1) * 1000, 1000000, 0, in);
	}
	steady_cfg_snia(&c, 0);
	c.metric = STEADY_LAT;
	c.ddir = DDIR_WRITE;
	steady_init(&st);
	CHECK_EQ_U(steady_find(&c, &s, &st), 0);
	CHECK(st.attained);
	CHECK_EQ_U(st.first, 2);
	CHECK_NEAR(st.mean, (2000 + 2100 + 2000 + 1900 + 2000) / 5.0, 1e-9);
	steady_free(&st);
	series_free(&s);
}

static void fio_job(struct job *j, enum ss_metric m, double limit, int pct, unsigned dur_s)
{
	memset(j, 0, sizeof(*j));
	j->interval_us = 1000000;
	j->ss_metric = m;
	j->ss_limit = limit;
	j->ss_pct = pct;
	j->ss_dur_us = (uint64_t)dur_s * 1000000;
}

TEST(fio_cfg_from_job)
{
	struct job j;
	struct steady_cfg c;

	fio_job(&j, SS_IOPS, 5, 1, 3);
	CHECK_EQ_U(steady_cfg_from_job(&c, &j), 0);
	CHECK(c.rule == STEADY_FIO && c.metric == STEADY_IOPS && !c.fio_slope && c.fio_pct);
	CHECK_EQ_U(c.window, 3);
	CHECK_EQ_U(c.round_intervals, 1);
	fio_job(&j, SS_BW_SLOPE, 0.5, 0, 10);
	j.interval_us = 250000;
	j.ss_ramp_us = 5000000;
	CHECK_EQ_U(steady_cfg_from_job(&c, &j), 0);
	CHECK(c.metric == STEADY_BW && c.fio_slope && !c.fio_pct);
	CHECK_EQ_U(c.round_intervals, 4);	/* fio's one-second samples */
	CHECK_EQ_U(c.window, 10);
	CHECK_EQ_U(c.ramp_ms, 5000);
	j.interval_us = 300000;
	CHECK_EQ_U(steady_cfg_from_job(&c, &j), (uint64_t)-EINVAL);
	fio_job(&j, SS_NONE, 0, 0, 0);
	CHECK_EQ_U(steady_cfg_from_job(&c, &j), 0);
	CHECK(c.rule == STEADY_OFF);
	fio_job(&j, SS_IOPS, 5, 1, 0);	/* ss_dur 0 = off */
	CHECK_EQ_U(steady_cfg_from_job(&c, &j), 0);
	CHECK(c.rule == STEADY_OFF);
}

/* --ss=iops:5% --ss_dur=3 on a flat job: attained after 3 s, stops there. */
TEST(fio_iops_pct_flat)
{
	double y[30];
	struct job j;
	struct steady_cfg c;
	char buf[256];
	FILE *f;
	struct series s;
	struct steady st;

	for (int i = 0; i < 30; i++)
		y[i] = 2000 + (i % 2) * 20;	/* within 1% */
	fio_job(&j, SS_IOPS, 5, 1, 3);
	steady_cfg_from_job(&c, &j);
	CHECK_EQ_U(stop_after(&c, y, 30, 0), 3);
	/* with a 1 s ramp_time interval in front, one later */
	CHECK_EQ_U(stop_after(&c, y, 30, 1), 4);
	build(&s, y, 3, 0, 1000);
	steady_init(&st);
	steady_check(&c, &s, &st);
	CHECK(st.attained);
	CHECK_NEAR(st.max_deviation, 2020 - 2006.0 - 2.0 / 3, 1e-9);
	CHECK_NEAR(st.criterion, (2020 - 2006.0 - 2.0 / 3) / (2006.0 + 2.0 / 3) * 100, 1e-9);
	f = fmemopen(buf, sizeof(buf), "w");
	steady_print_text(f, &st);
	fclose(f);
	CHECK(strstr(buf, "steady state reached (iops:5.000000%)") != NULL);
	CHECK(strstr(buf, "read : iops=2006.7") != NULL);
	steady_free(&st);
	series_free(&s);
}

/*
 * iops_slope on [1000, 1010, 1030]: x = 0,1,2, mean 1013.33, slope
 * ((-1)(-13.33) + (1)(16.67)) / 2 = 15 IOPS/s = 1.480263% of the mean.
 */
TEST(fio_slope_hand)
{
	double y[3] = { 1000, 1010, 1030 };
	struct job j;
	struct steady_cfg c;
	struct series s;
	struct steady st;
	json_t *o;

	fio_job(&j, SS_IOPS_SLOPE, 1, 1, 3);
	steady_cfg_from_job(&c, &j);
	build(&s, y, 3, 0, 1000);
	steady_init(&st);
	CHECK_EQ_U(steady_check(&c, &s, &st), 0);
	CHECK(st.evaluated && !st.attained);
	CHECK_NEAR(st.slope, 15, 1e-9);
	CHECK_NEAR(st.criterion, 15 / (3040 / 3.0) * 100, 1e-9);
	CHECK_EQ_U(steady_fio_json(&st, &o), 0);
	CHECK_STR(json_string_value(json_object_get(o, "ss")), "iops_slope:1.000000%");
	CHECK_STR(json_string_value(json_object_get(o, "criterion")), "1.480263%");
	CHECK_NEAR(json_real_value(json_object_get(o, "slope")), 15, 1e-9);
	CHECK_NEAR(json_real_value(json_object_get(o, "max_deviation")), 0, 0);
	CHECK_EQ_U(json_integer_value(json_object_get(o, "attained")), 0);
	json_decref(o);
	c.fio_limit = 2;
	CHECK_EQ_U(steady_check(&c, &s, &st), 0);
	CHECK(st.attained);
	/* absolute limit: slope 15 IOPS/s < 16 but not < 15 (strict, like fio) */
	c.fio_pct = 0;
	c.fio_limit = 16;
	steady_check(&c, &s, &st);
	CHECK(st.attained);
	c.fio_limit = 15;
	steady_check(&c, &s, &st);
	CHECK(!st.attained);
	/* a falling series has a negative slope; the limit applies to |slope| */
	y[0] = 1030;
	y[2] = 1000;
	series_free(&s);
	build(&s, y, 3, 0, 1000);
	c.fio_limit = 16;
	steady_check(&c, &s, &st);
	CHECK(st.attained);
	CHECK_NEAR(st.criterion, -15, 1e-9);
	steady_free(&st);
	series_free(&s);
}

/* Feed ss.json's own per-second data back: the same steadystate object. */
TEST(fio_json_matches_ss_json)
{
	const uint64_t ios[3] = { 14986, 16048, 16059 };
	const uint64_t bytes[3] = { 61386698, 65732608, 65777905 };
	json_error_t jerr;
	json_t *want = json_load_file("tests/data/series/ss_steadystate.json", 0, &jerr);
	json_t *got, *ws, *wd, *gd;
	struct series s;
	struct series_in in[DDIR_NR];
	struct job j;
	struct steady_cfg c;
	struct steady st;
	const char *key;
	json_t *v;

	if (!want)
		SKIP("fixture tests/data/series/ss_steadystate.json not found (run from the tree root)");
	ws = json_object_get(want, "steadystate");
	series_init(&s);
	/* 1 s of ss_ramp first (the job had steadystate_ramp_time=1) */
	for (int i = 0; i < 4; i++) {
		memset(in, 0, sizeof(in));
		for (int d = 0; d < DDIR_NR; d++)
			in[d].lat_min = UINT64_MAX;
		in[0].ios = i ? ios[i - 1] : 99;
		in[0].bytes = i ? bytes[i - 1] : 99 * 4096;
		series_add(&s, (uint64_t)(i + 1) * 1000, 1000000, 0, in);
	}
	fio_job(&j, SS_IOPS, 20, 1, 3);
	j.ss_ramp_us = 1000000;
	CHECK_EQ_U(steady_cfg_from_job(&c, &j), 0);
	steady_init(&st);
	CHECK_EQ_U(steady_check(&c, &s, &st), 0);
	CHECK_EQ_U(steady_fio_json(&st, &got), 0);
	/* the same keys, in the same order */
	{
		void *it1 = json_object_iter(ws), *it2 = json_object_iter(got);

		while (it1 && it2) {
			CHECK_STR(json_object_iter_key(it1), json_object_iter_key(it2));
			it1 = json_object_iter_next(ws, it1);
			it2 = json_object_iter_next(got, it2);
		}
		CHECK(!it1 && !it2);
	}
	json_object_foreach(ws, key, v) {
		json_t *g = json_object_get(got, key);

		if (json_is_string(v))
			CHECK_STR(json_string_value(g), json_string_value(v));
		else if (json_is_integer(v))
			CHECK_EQ_U(json_integer_value(g), json_integer_value(v));
		else if (json_is_real(v))
			CHECK_NEAR(json_real_value(g), json_real_value(v), 5e-7);
	}
	wd = json_object_get(ws, "data");
	gd = json_object_get(got, "data");
	CHECK_EQ_U(json_integer_value(json_object_get(gd, "bw_mean")),
		   json_integer_value(json_object_get(wd, "bw_mean")));
	CHECK_EQ_U(json_integer_value(json_object_get(gd, "iops_mean")),
		   json_integer_value(json_object_get(wd, "iops_mean")));
	CHECK(json_equal(json_object_get(gd, "iops"), json_object_get(wd, "iops")));
	CHECK(json_equal(json_object_get(gd, "bw"), json_object_get(wd, "bw")));
	{
		void *it1 = json_object_iter(wd), *it2 = json_object_iter(gd);

		while (it1 && it2) {
			CHECK_STR(json_object_iter_key(it1), json_object_iter_key(it2));
			it1 = json_object_iter_next(wd, it1);
			it2 = json_object_iter_next(gd, it2);
		}
		CHECK(!it1 && !it2);
	}
	json_decref(got);
	json_decref(want);
	steady_free(&st);
	series_free(&s);
}

int main(void)
{
	RUN(snia_flat);
	RUN(snia_linear_ramp);
	RUN(snia_outlier);
	RUN(snia_step);
	RUN(snia_never_and_ramp);
	RUN(snia_rounds_of_intervals);
	RUN(snia_latency_metric);
	RUN(fio_cfg_from_job);
	RUN(fio_iops_pct_flat);
	RUN(fio_slope_hand);
	RUN(fio_json_matches_ss_json);
	return CHECK_DONE();
}
