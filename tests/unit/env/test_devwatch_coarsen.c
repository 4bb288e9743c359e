/*
 * test_devwatch_coarsen: after series_bound merged a series, the device
 * views merged by devwatch_coarsen still line up with the series elements
 * (view k is over exactly the intervals of element k, phase by phase), and
 * their figures equal those computed from the summed raw counters (ios,
 * bytes, ticks) over the merged window.
 */
#include "check.h"
#include "env/devwatch.h"
#include "measure/series.h"

#include <stdlib.h>

struct raw {
	uint64_t dur_ns, rio, wio, rsec, wsec, rt, wt, tiq, iot;
};

/* diskutil_view's formulas, from raw counters */
static void view_of(const struct raw *r, struct disk_view *v)
{
	double secs = (double)r->dur_ns / 1e9, ms = (double)r->dur_ns / 1e6;

	memset(v, 0, sizeof(*v));
	strcpy(v->name, "loop9");
	v->dur_ns = r->dur_ns;
	v->read_ios = r->rio;
	v->write_ios = r->wio;
	v->read_bytes = 512 * r->rsec;
	v->write_bytes = 512 * r->wsec;
	v->read_iops = (double)r->rio / secs;
	v->write_iops = (double)r->wio / secs;
	v->read_lat_ns_mean = r->rio ? (double)r->rt * 1e6 / (double)r->rio : 0;
	v->write_lat_ns_mean = r->wio ? (double)r->wt * 1e6 / (double)r->wio : 0;
	v->read_queue_depth = (double)r->rt / ms;
	v->write_queue_depth = (double)r->wt / ms;
	v->queue_depth = (double)r->tiq / ms;
	v->util = 100.0 * (double)r->iot / ms;
	v->nr_requests = 128;
}

#define NEAR_REL(a, b) CHECK_NEAR(a, b, 1e-9 * (fabs((double)(b)) + 1))

/* @n intervals, the first @ramp ramp, bounded to @max; @nv views (<= n). */
static void run_case(size_t n, size_t ramp, size_t max, size_t nv)
{
	struct series s;
	struct series_in in[DDIR_NR];
	struct raw *raw = calloc(n, sizeof(*raw));
	struct disk_view_iv *iv = calloc(n, sizeof(*iv));
	size_t nr = nv, pos[2] = { 0, ramp };

	series_init(&s);
	for (size_t i = 0; i < n; i++) {
		struct raw *r = &raw[i];

		memset(in, 0, sizeof(in));
		for (int d = 0; d < DDIR_NR; d++)
			in[d].lat_min = UINT64_MAX;
		in[0].ios = 10 + i;
		in[0].bytes = 4096 * (10 + i);
		in[0].lat_sum_ns = 1000 * (10 + i);
		in[0].lat_min = in[0].lat_max = 1000;
		CHECK_EQ_U(series_add(&s, (i + 1) * 1000, 1000000 + i, i < ramp, in), 0);
		r->dur_ns = 1000000000ULL + 1000 * i;
		r->rio = 100 + 7 * i;
		r->wio = i % 3 ? 40 + i : 0;
		r->rsec = 8 * r->rio;
		r->wsec = 8 * r->wio;
		r->rt = 30 + 3 * i;
		r->wt = r->wio ? 20 + i : 0;
		r->tiq = r->rt + r->wt;
		r->iot = 500 + 11 * i;
		iv[i].t_ms = (i + 1) * 1000;
		iv[i].ramp = i < ramp;
		view_of(r, &iv[i].v);
	}
	CHECK_EQ_U(series_bound(&s, max), 0);
	devwatch_coarsen(iv, &nr, &s);
	CHECK(nr <= s.nr);
	if (nv == n)
		CHECK_EQ_U(nr, s.nr);
	for (size_t k = 0; k < nr; k++) {
		int ph = s.iv[k].ramp ? 0 : 1;
		size_t m = series_iv_n(&s.iv[k]), end = ph ? nv : ramp;
		struct raw sum;
		struct disk_view want;

		CHECK_EQ_U(iv[k].ramp, s.iv[k].ramp);
		memset(&sum, 0, sizeof(sum));
		for (size_t j = pos[ph]; j < pos[ph] + m && j < end; j++) {
			sum.dur_ns += raw[j].dur_ns;
			sum.rio += raw[j].rio;
			sum.wio += raw[j].wio;
			sum.rsec += raw[j].rsec;
			sum.wsec += raw[j].wsec;
			sum.rt += raw[j].rt;
			sum.wt += raw[j].wt;
			sum.tiq += raw[j].tiq;
			sum.iot += raw[j].iot;
		}
		if (pos[ph] + m <= end)
			CHECK_EQ_U(iv[k].t_ms, s.iv[k].t_ms);
		pos[ph] += m;
		view_of(&sum, &want);
		CHECK_EQ_U(iv[k].v.dur_ns, want.dur_ns);
		CHECK_EQ_U(iv[k].v.read_ios, want.read_ios);
		CHECK_EQ_U(iv[k].v.write_ios, want.write_ios);
		CHECK_EQ_U(iv[k].v.read_bytes, want.read_bytes);
		CHECK_EQ_U(iv[k].v.write_bytes, want.write_bytes);
		NEAR_REL(iv[k].v.read_iops, want.read_iops);
		NEAR_REL(iv[k].v.write_iops, want.write_iops);
		NEAR_REL(iv[k].v.read_lat_ns_mean, want.read_lat_ns_mean);
		NEAR_REL(iv[k].v.write_lat_ns_mean, want.write_lat_ns_mean);
		NEAR_REL(iv[k].v.read_queue_depth, want.read_queue_depth);
		NEAR_REL(iv[k].v.write_queue_depth, want.write_queue_depth);
		NEAR_REL(iv[k].v.queue_depth, want.queue_depth);
		NEAR_REL(iv[k].v.util, want.util);
		CHECK_EQ_U(iv[k].v.nr_requests, 128);
	}
	free(raw);
	free(iv);
	series_free(&s);
}

TEST(merged_views_follow_the_series)
{
	run_case(40, 0, 8, 40);		/* 5 intervals per element */
	run_case(37, 3, 6, 37);		/* ramp, odd ends kept alone */
	run_case(37, 3, 6, 30);		/* fewer views than intervals */
	run_case(2, 1, 1, 2);		/* nothing to pair */
}

/* No element merged: the views are left exactly as they were. */
TEST(unbounded_untouched)
{
	struct series s;
	struct series_in in[DDIR_NR];
	struct disk_view_iv iv[4], copy[4];
	size_t nr = 4;

	series_init(&s);
	memset(iv, 0, sizeof(iv));
	for (size_t i = 0; i < 4; i++) {
		struct raw r = { 1000000000ULL, 10 + i, 0, 80, 0, 5, 0, 5, 100 };

		memset(in, 0, sizeof(in));
		for (int d = 0; d < DDIR_NR; d++)
			in[d].lat_min = UINT64_MAX;
		CHECK_EQ_U(series_add(&s, (i + 1) * 1000, 1000000, 0, in), 0);
		view_of(&r, &iv[i].v);
		iv[i].t_ms = (i + 1) * 1000;
	}
	memcpy(copy, iv, sizeof(iv));
	CHECK_EQ_U(series_bound(&s, 0), 0);
	devwatch_coarsen(iv, &nr, &s);
	CHECK_EQ_U(nr, 4);
	CHECK(memcmp(copy, iv, sizeof(iv)) == 0);
	series_free(&s);
}

int main(void)
{
	RUN(merged_views_follow_the_series);
	RUN(unbounded_untouched);
	return CHECK_DONE();
}
