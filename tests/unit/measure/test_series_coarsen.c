/*
 * test_series_coarsen: merging adjacent intervals is exact (docs/time-series.md, long runs).
 * Totals, histograms, min/max and percentiles over the whole run are the
 * same before and after, ramp intervals are only merged with ramp ones, and
 * the steady rules give the same verdict (window, held or lost, the window's
 * figures, the tail from a held window) when their rounds are unions of the
 * merged intervals.
 */
#include "check.h"
#include "measure/series.h"
#include "steady/steady.h"
#include "steady/steady_tail.h"

#include <stdlib.h>

/*
 * Interval i of 1 s: ios[i] I/Os, half at lat_a and half at lat_b (ns), for
 * reads; writes a third as many at 3 x lat_a.  The first @ramp are ramp.
 */
static void build(struct series *s, const double *ios, size_t n, size_t ramp)
{
	static struct hist h[2];
	struct series_in in[DDIR_NR];

	series_init(s);
	for (size_t i = 0; i < n; i++) {
		uint64_t r = (uint64_t)ios[i], w = r / 3;
		uint64_t la = 1000 + 37 * i, lb = 50000 + 911 * (i % 7);

		memset(in, 0, sizeof(in));
		memset(h, 0, sizeof(h));
		for (int d = 0; d < DDIR_NR; d++)
			in[d].lat_min = UINT64_MAX;
		h[0].b[hist_index(la)] += r - r / 2;
		h[0].b[hist_index(lb)] += r / 2;
		in[0] = (struct series_in){ .ios = r, .bytes = r * 4096,
			.lat_sum_ns = (r - r / 2) * la + r / 2 * lb,
			.lat_min = r ? la : UINT64_MAX, .lat_max = r / 2 ? lb : r ? la : 0, .lat_hist = &h[0] };
		h[1].b[hist_index(3 * la)] = w;
		in[1] = (struct series_in){ .ios = w, .bytes = w * 8192, .lat_sum_ns = w * 3 * la,
			.lat_min = w ? 3 * la : UINT64_MAX, .lat_max = w ? 3 * la : 0, .lat_hist = &h[1] };
		series_add(s, (i + 1) * 1000, 1000000, i < ramp, in);
	}
}

/* Whole-phase figures of @s equal those of @f, direction by direction. */
static void same_totals(const struct series *f, const struct series *s)
{
	static struct series_window a, b;

	for (int d = 0; d < DDIR_NR; d++) {
		CHECK_EQ_U(series_total_ios(s, (enum ddir)d), series_total_ios(f, (enum ddir)d));
		if (f->nr == f->nr_ramp)
			continue;
		CHECK_EQ_U(series_window(f, f->nr_ramp, f->nr - 1, (enum ddir)d, &a), 0);
		CHECK_EQ_U(series_window(s, s->nr_ramp, s->nr - 1, (enum ddir)d, &b), 0);
		CHECK_EQ_U(a.ios, b.ios);
		CHECK_EQ_U(a.bytes, b.bytes);
		CHECK_EQ_U(a.dur_us, b.dur_us);
		CHECK_EQ_U(a.start_ms, b.start_ms);
		CHECK_EQ_U(a.end_ms, b.end_ms);
		CHECK_EQ_U(a.lat_min, b.lat_min);
		CHECK_EQ_U(a.lat_max, b.lat_max);
		CHECK_NEAR(a.lat_mean, b.lat_mean, 1e-9 * a.lat_mean);
		CHECK_EQ_U(a.p50, b.p50);
		CHECK_EQ_U(a.p99, b.p99);
		CHECK_EQ_U(a.p999, b.p999);
		CHECK(!memcmp(a.hist.b, b.hist.b, sizeof(a.hist.b)));
	}
}

TEST(exact_pairs)
{
	double y[20];
	struct series f, s;
	size_t n0 = 0;

	for (int i = 0; i < 20; i++)
		y[i] = 1000 + 100 * (i % 5) + (i == 9 ? 5000 : 0);
	build(&f, y, 20, 3);	/* 3 ramp (odd), 17 measured (odd) */
	build(&s, y, 20, 3);
	CHECK_EQ_U(series_coarsen(&s), 0);
	CHECK_EQ_U(s.nr, 2 + 9);	/* ramp 2+1 -> 2, measured 17 -> 9 */
	CHECK_EQ_U(s.nr_ramp, 2);
	CHECK(s.iv[0].ramp && s.iv[1].ramp && !s.iv[2].ramp);
	CHECK_EQ_U(series_iv_n(&s.iv[0]), 2);
	CHECK_EQ_U(series_iv_n(&s.iv[1]), 1);	/* the odd last ramp interval */
	CHECK_EQ_U(series_iv_n(&s.iv[2]), 2);
	CHECK_EQ_U(series_iv_n(&s.iv[10]), 1);	/* the odd last measured one */
	/* pair (3, 4): t_ms of 4, durations add, min/max fold */
	CHECK_EQ_U(s.iv[2].t_ms, f.iv[4].t_ms);
	CHECK_EQ_U(s.iv[2].dur_us, f.iv[3].dur_us + f.iv[4].dur_us);
	CHECK_EQ_U(s.iv[2].d[0].ios, f.iv[3].d[0].ios + f.iv[4].d[0].ios);
	CHECK_EQ_U(s.iv[2].d[0].lat_min, f.iv[3].d[0].lat_min);
	CHECK_EQ_U(s.iv[2].d[0].lat_max, f.iv[4].d[0].lat_max > f.iv[3].d[0].lat_max ?
					 f.iv[4].d[0].lat_max : f.iv[3].d[0].lat_max);
	same_totals(&f, &s);
	for (size_t i = 0; i < s.nr; i++)
		n0 += series_iv_n(&s.iv[i]);
	CHECK_EQ_U(n0, 20);
	/* bound: halve until at most 4 remain (ramp 1 + measured 3) */
	CHECK_EQ_U(series_bound(&s, 4), 0);
	CHECK(s.nr <= 4);
	CHECK_EQ_U(s.nr_ramp, 1);
	CHECK_EQ_U(series_iv_n(&s.iv[0]), 3);
	same_totals(&f, &s);
	/* cannot go below one interval per phase */
	CHECK_EQ_U(series_bound(&s, 1), 0);
	CHECK_EQ_U(s.nr, 2);
	same_totals(&f, &s);
	series_free(&f);
	series_free(&s);
}

/* The JSON says how many intervals each merged one holds. */
TEST(json_resolution)
{
	double y[5] = { 1000, 1000, 1000, 1000, 1000 };
	struct series s;
	json_t *a;

	build(&s, y, 5, 0);
	CHECK_EQ_U(series_coarsen(&s), 0);
	CHECK_EQ_U(series_to_json(&s, 0, &a), 0);
	CHECK_EQ_U(json_array_size(a), 3);
	CHECK_EQ_U(json_integer_value(json_object_get(json_array_get(a, 0), "intervals")), 2);
	CHECK(json_object_get(json_array_get(a, 2), "intervals") == NULL);
	CHECK_EQ_U(json_integer_value(json_object_get(json_array_get(a, 0), "dur_us")),
		   2000000);
	json_decref(a);
	series_free(&s);
}

/*
 * Rounds of 4 s (4 intervals).  The same series coarsened once (2 s
 * intervals, rounds of 2) and twice (4 s, rounds of 1): the SNIA rule finds
 * the same window, the same loss, the same window figures.
 */
static void verdicts(const double *y, size_t n, int expect_held)
{
	struct steady_cfg c;
	struct steady ref, st;
	struct series s;

	steady_cfg_snia(&c, 1000000);
	c.round_intervals = 4;
	c.round_us = 4000000;
	build(&s, y, n, 0);
	steady_init(&ref);
	CHECK_EQ_U(steady_analyse(&c, &s, &ref), 0);
	CHECK(ref.attained);
	CHECK(ref.held == expect_held);
	for (unsigned k = 2; k >= 1; k--) {
		CHECK_EQ_U(series_coarsen(&s), 0);
		c.round_intervals = k;
		steady_init(&st);
		CHECK_EQ_U(steady_analyse(&c, &s, &st), 0);
		CHECK(st.attained == ref.attained && st.held == ref.held);
		CHECK_EQ_U(st.start_ms, ref.start_ms);
		CHECK_EQ_U(st.end_ms, ref.end_ms);
		CHECK_EQ_U(st.lost_ms, ref.lost_ms);
		CHECK_EQ_U(st.after, ref.after);
		CHECK_NEAR(st.mean, ref.mean, 1e-9 * ref.mean);
		CHECK_NEAR(st.range_pct, ref.range_pct, 1e-9);
		CHECK_NEAR(st.excursion_pct, ref.excursion_pct, 1e-9);
		CHECK_NEAR(st.lost_mean, ref.lost_mean, 1e-9 * ref.mean);
		for (int d = 0; d < 2; d++) {
			CHECK(st.dir[d] && ref.dir[d]);
			if (!st.dir[d] || !ref.dir[d])
				continue;
			CHECK_EQ_U(st.dir[d]->ios, ref.dir[d]->ios);
			CHECK_EQ_U(st.dir[d]->p99, ref.dir[d]->p99);
			CHECK_EQ_U(st.dir[d]->lat_max, ref.dir[d]->lat_max);
		}
		if (ref.held) {	/* the tail starts at the window: the same I/Os */
			CHECK(st.tail && ref.tail);
			if (st.tail && ref.tail) {
				CHECK_EQ_U(st.tail->start_ms, ref.tail->start_ms);
				CHECK_EQ_U(st.tail->dir[0]->ios, ref.tail->dir[0]->ios);
				CHECK_EQ_U(st.tail->dir[0]->p999, ref.tail->dir[0]->p999);
			}
		}
		steady_free(&st);
	}
	steady_free(&ref);
	series_free(&s);
}

TEST(verdict_invariant)
{
	double y[64];

	/* warm-up 8 s, then flat with +-5% noise: the window holds */
	for (int i = 0; i < 64; i++)
		y[i] = i < 8 ? 300 + 50 * i : 1000 + (i % 3 - 1) * 50;
	verdicts(y, 64, 1);
	/* ... then falls by 60% at 40 s: lost at 40 s */
	for (int i = 40; i < 64; i++)
		y[i] = 400;
	verdicts(y, 64, 0);
}

int main(void)
{
	RUN(exact_pairs);
	RUN(json_resolution);
	RUN(verdict_invariant);
	return CHECK_DONE();
}
