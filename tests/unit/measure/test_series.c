/*
 * test_series: per-interval series -- sums, ramp handling, exact window
 * percentiles from the sparse histograms, group merge, JSON shape, memory.
 */
#include "check.h"
#include "measure/series.h"

#include <errno.h>
#include <stdlib.h>

/* A small deterministic generator (no libc rand state). */
static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

/* One direction's input built from @n latencies drawn around @base ns. */
static void make_in(struct series_in *in, struct hist *h, uint64_t n, uint64_t base,
		    uint64_t *seed)
{
	memset(h, 0, sizeof(*h));
	memset(in, 0, sizeof(*in));
	in->lat_min = UINT64_MAX;
	in->lat_hist = h;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t v = base + lcg(seed) % (base * 4 + 1);

		hist_add(h, v);
		in->ios++;
		in->bytes += 4096;
		in->lat_sum_ns += v;
		if (v < in->lat_min)
			in->lat_min = v;
		if (v > in->lat_max)
			in->lat_max = v;
	}
}

static void idle_in(struct series_in *in)
{
	memset(in, 0, sizeof(*in));
	in->lat_min = UINT64_MAX;
}

TEST(sums_and_ramp)
{
	static struct hist h;
	struct series s;
	struct series_in in[DDIR_NR];
	uint64_t seed = 1, want = 0;

	series_init(&s);
	for (int i = 0; i < 10; i++) {
		make_in(&in[DDIR_READ], &h, 100 + (uint64_t)i * 7, 1000, &seed);
		idle_in(&in[DDIR_WRITE]);
		idle_in(&in[DDIR_TRIM]);
		if (i >= 3)
			want += in[DDIR_READ].ios;
		CHECK_EQ_U(series_add(&s, (uint64_t)(i + 1) * 1000, 1000000, i < 3, in), 0);
	}
	CHECK_EQ_U(s.nr, 10);
	CHECK_EQ_U(s.nr_ramp, 3);
	CHECK_EQ_U(series_total_ios(&s, DDIR_READ), want);
	CHECK_EQ_U(series_total_ios(&s, DDIR_WRITE), 0);
	/* interval 4 (index 3) had 100 + 21 ios over exactly 1 s */
	CHECK_NEAR(series_iops(&s, 3, DDIR_READ), 121.0, 1e-9);
	CHECK_NEAR(series_iops(&s, 3, -1), 121.0, 1e-9);
	CHECK_NEAR(series_bw(&s, 3, -1), 121.0 * 4096, 1e-6);

	/* time must increase, duration must be > 0, no ramp after measurement */
	CHECK_EQ_U(series_add(&s, 10000, 1000000, 0, in), (uint64_t)-EINVAL);
	CHECK_EQ_U(series_add(&s, 11000, 0, 0, in), (uint64_t)-EINVAL);
	CHECK_EQ_U(series_add(&s, 11000, 1000000, 1, in), (uint64_t)-EINVAL);
	CHECK_EQ_U(s.nr, 10);
	series_free(&s);
	CHECK_EQ_U(s.nr, 0);
	series_free(NULL);
}

TEST(window_percentiles_exact)
{
	static struct hist h[DDIR_NR], direct;
	static struct series_window w;
	struct series s;
	struct series_in in[DDIR_NR];
	uint64_t seed = 42, ios = 0, bytes = 0, lo = UINT64_MAX, hi = 0, dur = 0;
	double lat_sum = 0;
	const double pcts[] = { 50.0, 99.0, 99.9 };
	uint64_t want[3];

	series_init(&s);
	memset(&direct, 0, sizeof(direct));
	for (int i = 0; i < 12; i++) {
		/* latencies drift upward so windows differ from the whole run */
		make_in(&in[DDIR_READ], &h[0], 500 + (uint64_t)lcg(&seed) % 300, 800 + (uint64_t)i * 900, &seed);
		make_in(&in[DDIR_WRITE], &h[1], 50, 20000, &seed);
		idle_in(&in[DDIR_TRIM]);
		uint64_t d_us = 1000000 + (uint64_t)i * 1000;	/* real durations differ */
		CHECK_EQ_U(series_add(&s, (uint64_t)(i + 1) * 1001, d_us, 0, in), 0);
		if (i >= 3 && i <= 8) {
			hist_merge(&direct, &h[0]);
			ios += in[0].ios;
			bytes += in[0].bytes;
			lat_sum += (double)in[0].lat_sum_ns;
			dur += d_us;
			if (in[0].lat_min < lo)
				lo = in[0].lat_min;
			if (in[0].lat_max > hi)
				hi = in[0].lat_max;
		}
		/* the stored per-interval percentiles are those of its histogram */
		CHECK_EQ_U(s.iv[i].d[0].p99, hist_percentile(&h[0], 99.0));
	}
	CHECK_EQ_U(series_window(&s, 3, 8, DDIR_READ, &w), 0);
	hist_percentiles(&direct, pcts, 3, want);
	CHECK_EQ_U(w.p50, want[0]);
	CHECK_EQ_U(w.p99, want[1]);
	CHECK_EQ_U(w.p999, want[2]);
	CHECK(memcmp(&w.hist, &direct, sizeof(direct)) == 0);
	CHECK_EQ_U(w.ios, ios);
	CHECK_EQ_U(w.bytes, bytes);
	CHECK_EQ_U(w.lat_min, lo);
	CHECK_EQ_U(w.lat_max, hi);
	CHECK_EQ_U(w.dur_us, dur);
	CHECK_NEAR(w.lat_mean, lat_sum / (double)ios, 1e-6);
	CHECK_NEAR(w.iops, (double)ios / ((double)dur / 1e6), 1e-9);
	CHECK_NEAR(w.bw_bytes, (double)bytes / ((double)dur / 1e6), 1e-6);
	CHECK_EQ_U(w.start_ms, 4 * 1001 - 1003);
	CHECK_EQ_U(w.end_ms, 9 * 1001);
	/* the window's p99 is not the mean of the intervals' p99s */
	CHECK(w.p99 != (s.iv[3].d[0].p99 + s.iv[8].d[0].p99) / 2);

	CHECK_EQ_U(series_window(&s, 5, 4, DDIR_READ, &w), (uint64_t)-EINVAL);
	CHECK_EQ_U(series_window(&s, 0, 12, DDIR_READ, &w), (uint64_t)-EINVAL);
	CHECK_EQ_U(series_window(&s, 0, 0, DDIR_TRIM, &w), 0);
	CHECK_EQ_U(w.ios, 0);
	CHECK_EQ_U(w.lat_min, 0);
	CHECK_EQ_U(w.p99, 0);
	series_free(&s);
}

/* Counts above 2^32 in one bucket survive the 32-bit sparse entries. */
TEST(huge_bucket_counts)
{
	static struct hist h;
	static struct series_window w;
	struct series s;
	struct series_in in[DDIR_NR];

	series_init(&s);
	memset(&h, 0, sizeof(h));
	h.b[300] = 3 * (uint64_t)UINT32_MAX + 5;
	h.b[7] = 1;
	idle_in(&in[0]);
	idle_in(&in[1]);
	idle_in(&in[2]);
	in[0].ios = h.b[300] + 1;
	in[0].lat_min = 7;
	in[0].lat_max = hist_bucket_high(300);
	in[0].lat_hist = &h;
	CHECK_EQ_U(series_add(&s, 1000, 1000000, 0, in), 0);
	/* bytes: bucket 7 (gap 7, count 1) 1 + 1; bucket 300 (gap 292, a 34-bit count) 2 + 5 */
	CHECK_EQ_U(s.iv[0].d[0].hist_nr, 9);
	CHECK_EQ_U(series_window(&s, 0, 0, DDIR_READ, &w), 0);
	CHECK_EQ_U(w.hist.b[300], h.b[300]);
	CHECK_EQ_U(w.hist.b[7], 1);
	CHECK_EQ_U(w.p50, hist_bucket_value(300));
	series_free(&s);
}

TEST(merge_groups)
{
	static struct hist ha, hb, hc, sum;
	static struct series_window w;
	struct series a, b;
	struct series_in in[DDIR_NR];
	uint64_t seed = 7, tot_a = 0, tot_b = 0;
	uint64_t lo = UINT64_MAX, hi = 0;

	series_init(&a);
	series_init(&b);
	memset(&sum, 0, sizeof(sum));
	/* a: 1 ramp + 3 measured; b: 2 ramp + 4 measured (its ramp ended later) */
	for (int i = 0; i < 4; i++) {
		make_in(&in[0], &ha, 200, 1000, &seed);
		idle_in(&in[1]);
		idle_in(&in[2]);
		if (i >= 1) {
			tot_a += in[0].ios;
			if (i == 2) {
				hist_merge(&sum, &ha);
				lo = in[0].lat_min < lo ? in[0].lat_min : lo;
				hi = in[0].lat_max > hi ? in[0].lat_max : hi;
			}
		}
		CHECK_EQ_U(series_add(&a, (uint64_t)(i + 1) * 1000, 1000000, i < 1, in), 0);
	}
	for (int i = 0; i < 6; i++) {
		make_in(&in[1], &hb, 300, 5000, &seed);
		idle_in(&in[0]);
		idle_in(&in[2]);
		if (i >= 2) {
			tot_b += in[1].ios;
		}
		if (i == 3) {
			/* b's 2nd measured interval also reads: merged with a's 2nd */
			make_in(&in[0], &hc, 100, 3000, &seed);
			hist_merge(&sum, &hc);
			lo = in[0].lat_min < lo ? in[0].lat_min : lo;
			hi = in[0].lat_max > hi ? in[0].lat_max : hi;
			tot_a += in[0].ios;
		}
		CHECK_EQ_U(series_add(&b, (uint64_t)(i + 1) * 1000 + 3, 1002000, i < 2, in), 0);
	}
	CHECK_EQ_U(series_merge(&a, &b), 0);
	CHECK_EQ_U(a.nr_ramp, 2);
	CHECK_EQ_U(a.nr, 6);
	CHECK_EQ_U(series_total_ios(&a, DDIR_READ), tot_a);
	CHECK_EQ_U(series_total_ios(&a, DDIR_WRITE), tot_b);
	/* measured interval 2 of the merge = a's 2nd measured + b's 2nd measured */
	CHECK_EQ_U(series_window(&a, 3, 3, DDIR_READ, &w), 0);
	CHECK(memcmp(&w.hist, &sum, sizeof(sum)) == 0);
	CHECK_EQ_U(w.p99, hist_percentile(&sum, 99.0));
	CHECK_EQ_U(a.iv[3].d[0].p50, hist_percentile(&sum, 50.0));
	CHECK_EQ_U(w.lat_min, lo);
	CHECK_EQ_U(w.lat_max, hi);
	CHECK_EQ_U(a.iv[3].t_ms, 4003);		/* the later end */
	CHECK_EQ_U(a.iv[3].dur_us, 1002000);	/* the longer duration */
	/* b's last measured interval has no partner in a: copied as is */
	CHECK_EQ_U(a.iv[5].d[0].ios, 0);
	CHECK_EQ_U(a.iv[5].d[1].ios, b.iv[5].d[1].ios);
	CHECK_EQ_U(a.iv[5].d[1].p99, b.iv[5].d[1].p99);
	/* merging into an empty series copies */
	{
		struct series c;

		series_init(&c);
		CHECK_EQ_U(series_merge(&c, &b), 0);
		CHECK_EQ_U(c.nr, b.nr);
		CHECK_EQ_U(c.nr_ramp, b.nr_ramp);
		CHECK_EQ_U(series_total_ios(&c, DDIR_WRITE), tot_b);
		CHECK_EQ_U(c.b_nr, b.b_nr);
		series_free(&c);
	}
	series_free(&a);
	series_free(&b);
}

/*
 * A run that ends 20 us after a boundary: the sliver (2 I/Os) is folded into
 * the last full interval, which then holds 102 I/Os over 1.00002 s, its
 * extremes and percentiles over both parts.  A short interval that is not a
 * sliver (300 ms) and a measured one after a short ramp cut stay separate.
 */
TEST(sliver_folded)
{
	static struct hist h1, h2;
	struct series s;
	struct series_in in[DDIR_NR];
	struct series_window *w = malloc(sizeof(*w));

	CHECK(w != NULL);
	series_init(&s);
	for (int d = 0; d < DDIR_NR; d++)
		idle_in(&in[d]);
	/* ramp: 1 s then a 50 ms cut (folded: same phase) */
	in[0] = (struct series_in){ .ios = 10, .bytes = 40960, .lat_sum_ns = 10000,
				    .lat_min = 1000, .lat_max = 1000, .lat_hist = NULL };
	CHECK_EQ_U(series_add(&s, 1000, 1000000, 1, in), 0);
	CHECK_EQ_U(series_add(&s, 1050, 50000, 1, in), 0);
	CHECK_EQ_U(s.nr, 1);
	CHECK_EQ_U(s.nr_ramp, 1);
	CHECK_EQ_U(s.iv[0].dur_us, 1050000);
	CHECK_EQ_U(s.iv[0].t_ms, 1050);
	CHECK_EQ_U(s.iv[0].d[0].ios, 20);
	/* a 20 ms first measured interval is not folded into the ramp */
	CHECK_EQ_U(series_add(&s, 1070, 20000, 0, in), 0);
	CHECK_EQ_U(s.nr, 2);
	memset(&h1, 0, sizeof(h1));
	for (int i = 0; i < 100; i++)
		hist_add(&h1, 1000);
	in[0] = (struct series_in){ .ios = 100, .bytes = 409600, .lat_sum_ns = 100000,
				    .lat_min = 1000, .lat_max = 1000, .lat_hist = &h1 };
	CHECK_EQ_U(series_add(&s, 2070, 1000000, 0, in), 0);
	/* 300 ms is a real (partial) interval, kept */
	CHECK_EQ_U(series_add(&s, 2370, 300000, 0, in), 0);
	CHECK_EQ_U(s.nr, 4);
	CHECK_EQ_U(series_add(&s, 3370, 1000000, 0, in), 0);
	memset(&h2, 0, sizeof(h2));
	hist_add(&h2, 900);
	hist_add(&h2, 5000000);
	in[0] = (struct series_in){ .ios = 2, .bytes = 8192, .lat_sum_ns = 5000900,
				    .lat_min = 900, .lat_max = 5000000, .lat_hist = &h2 };
	CHECK_EQ_U(series_add(&s, 3371, 20, 0, in), 0);
	CHECK_EQ_U(s.nr, 5);
	CHECK_EQ_U(s.iv[4].t_ms, 3371);
	CHECK_EQ_U(s.iv[4].dur_us, 1000020);
	CHECK_EQ_U(s.iv[4].d[0].ios, 102);
	CHECK_EQ_U(s.iv[4].d[0].bytes, 417792);
	CHECK_EQ_U(s.iv[4].d[0].lat_min, 900);
	CHECK_EQ_U(s.iv[4].d[0].lat_max, 5000000);
	CHECK_EQ_U(series_total_ios(&s, DDIR_READ), 10 + 100 + 100 + 102);
	/* the folded histogram: 101 of 102 at <= ~1 us, p99.9 the 5 ms one */
	CHECK_EQ_U(series_window(&s, 4, 4, DDIR_READ, w), 0);
	CHECK_EQ_U(w->hist.b[hist_index(1000)], 100);
	CHECK_EQ_U(w->hist.b[hist_index(900)] + w->hist.b[hist_index(1000)], 101);
	CHECK(w->p999 >= 4500000 && w->p999 <= 5500000);
	CHECK_EQ_U(s.iv[4].d[0].p999, w->p999);
	/* never past the exact max, though the bucket's value may be */
	CHECK(s.iv[4].d[0].p999 <= 5000000 && w->p999 <= w->lat_max);
	CHECK(s.iv[4].d[0].p50 >= 950 && s.iv[4].d[0].p50 <= 1050);
	/* and the earlier intervals' buckets are untouched */
	CHECK_EQ_U(series_window(&s, 2, 2, DDIR_READ, w), 0);
	CHECK_EQ_U(w->hist.b[hist_index(1000)], 100);
	CHECK_EQ_U(w->hist.b[hist_index(5000000)], 0);
	series_free(&s);
	free(w);
}

/*
 * Memory is a fixed record plus the byte-coded buckets, per interval: 2 bytes
 * for a bucket near the previous one with a small count (gap, count), 3 for
 * the first one here (its gap from 0 is 200: two bytes).
 */
TEST(memory_per_interval)
{
	static struct hist h;
	struct series s;
	struct series_in in[DDIR_NR];
	const size_t n = 1000, nz = 100;

	series_init(&s);
	memset(&h, 0, sizeof(h));
	for (size_t k = 0; k < nz; k++)
		h.b[200 + k * 3] = 5;
	for (int d = 0; d < DDIR_NR; d++) {
		idle_in(&in[d]);
		in[d].ios = nz * 5;
		in[d].lat_min = 1;
		in[d].lat_max = 10;
		in[d].lat_hist = &h;
	}
	for (size_t i = 0; i < n; i++)
		CHECK_EQ_U(series_add(&s, (i + 1) * 1000, 1000000, 0, in), 0);
	CHECK_EQ_U(sizeof(struct series_iv), 240);
	CHECK_EQ_U(s.b_nr, n * DDIR_NR * (3 + (nz - 1) * 2));
	/* used bytes per interval exactly; capacity at most double (growth) */
	CHECK_EQ_U(s.nr * sizeof(*s.iv) + s.b_nr * sizeof(*s.b), n * (240 + DDIR_NR * (1 + nz * 2)));
	CHECK(series_mem(&s) <= 2 * n * (240 + DDIR_NR * (1 + nz * 2)));
	/* and it does not depend on how many I/Os the intervals held */
	series_free(&s);
}

TEST(json_shape)
{
	static struct hist h;
	struct series s;
	struct series_in in[DDIR_NR];
	uint64_t seed = 3, tot = 0, nonramp = 0;
	json_t *j, *e, *r, *lat, *bins;
	size_t i;

	series_init(&s);
	for (int k = 0; k < 4; k++) {
		make_in(&in[0], &h, 10 + (uint64_t)k, 2000, &seed);
		idle_in(&in[1]);
		idle_in(&in[2]);
		CHECK_EQ_U(series_add(&s, (uint64_t)(k + 1) * 500, 500000, k == 0, in), 0);
	}
	CHECK_EQ_U(series_to_json(&s, 0, &j), 0);
	CHECK(json_is_array(j) && json_array_size(j) == 4);
	json_array_foreach(j, i, e) {
		const char *keys[] = { "ios", "bytes", "iops", "bw_bytes", "lat_ns" };
		const char *lk[] = { "mean", "min", "max", "p50", "p99", "p99.9" };

		CHECK_EQ_U(json_integer_value(json_object_get(e, "t_ms")), (i + 1) * 500);
		CHECK_EQ_U(json_integer_value(json_object_get(e, "dur_us")), 500000);
		CHECK((json_object_get(e, "ramp") != NULL) == (i == 0));
		CHECK(i != 0 || json_is_true(json_object_get(e, "ramp")));
		r = json_object_get(e, "read");
		CHECK(r && json_object_get(e, "write") && json_object_get(e, "trim"));
		for (size_t k = 0; r && k < 5; k++)
			CHECK(json_object_get(r, keys[k]) != NULL);
		lat = json_object_get(r, "lat_ns");
		for (size_t k = 0; lat && k < 6; k++)
			CHECK(json_object_get(lat, lk[k]) != NULL);
		CHECK(json_object_get(lat, "bins") == NULL);
		CHECK_NEAR(json_real_value(json_object_get(r, "iops")),
			   (double)(10 + i) * 2, 1e-9);
		tot += (uint64_t)json_integer_value(json_object_get(r, "ios"));
		if (i)
			nonramp += (uint64_t)json_integer_value(json_object_get(r, "ios"));
		/* an idle direction reports zeros, not UINT64_MAX */
		CHECK_EQ_U(json_integer_value(json_object_get(json_object_get(
			json_object_get(e, "write"), "lat_ns"), "min")), 0);
	}
	CHECK_EQ_U(tot, 10 + 11 + 12 + 13);
	CHECK_EQ_U(nonramp, series_total_ios(&s, DDIR_READ));
	json_decref(j);

	/* json+: bins keyed by bucket midpoint, counts adding up to ios */
	CHECK_EQ_U(series_to_json(&s, SERIES_JSON_HIST, &j), 0);
	bins = json_object_get(json_object_get(json_object_get(json_array_get(j, 3), "read"),
					       "lat_ns"), "bins");
	CHECK(json_is_object(bins));
	{
		const char *key;
		json_t *v;
		uint64_t c = 0;

		json_object_foreach(bins, key, v) {
			unsigned long long mid = strtoull(key, NULL, 10);

			CHECK_EQ_U(hist_bucket_value(hist_index(mid)), mid);
			c += (uint64_t)json_integer_value(v);
		}
		CHECK_EQ_U(c, 13);
	}
	json_decref(j);
	series_free(&s);
}

/*
 * An interval's start is its end less its duration, both stamped at their
 * own resolution: that fell 1 ms before the previous interval's end (a
 * steady window ending at 2500 ms "lost at 2499 ms" under load).  The start
 * is then that end; a real gap is kept.
 */
TEST(start_is_the_previous_end)
{
	CHECK(series_start_ms(2999, 500400, 1, 2500) == 2500);	/* 2499 by the formula */
	CHECK(series_start_ms(3000, 500000, 1, 2500) == 2500);
	CHECK(series_start_ms(3000, 499600, 1, 2500) == 2500);
	CHECK(series_start_ms(3500, 500000, 1, 2500) == 3000);	/* a gap: kept */
	CHECK(series_start_ms(2999, 500400, 0, 0) == 2499);	/* the first: the formula */
	CHECK(series_start_ms(300, 500000, 0, 0) == 0);
}

int main(void)
{
	RUN(sums_and_ramp);
	RUN(window_percentiles_exact);
	RUN(huge_bucket_counts);
	RUN(merge_groups);
	RUN(sliver_folded);
	RUN(memory_per_interval);
	RUN(json_shape);
	RUN(start_is_the_previous_end);
	return CHECK_DONE();
}
