/*
 * test_latency_target: the depth search of latency_target (latency_target.h).
 *
 * First the decision alone, driven by made-up sequences of windows: a device
 * that meets the target up to depth K must settle at exactly min(K, iodepth)
 * for every K and iodepth tried, by the path fio's search takes (double, then
 * bisect, then one more window); latency_run never settles; a settled depth
 * that fails is searched again; percentile arithmetic at its edges.
 *
 * Then the real worker on the null engine and a fake clock (fake_clock.h),
 * with a device model whose latency is 10 us per I/O in flight: with a 55 us
 * target the job must end at depth 5, its statistics those of the last
 * window alone (every latency 50 us), and its series' measured intervals
 * adding up to the totals.  At depth 1 over the target with percentile 100
 * the job ends with ETIMEDOUT.  A job whose I/O runs out mid-search reports
 * the search, as fio does.
 */
#include <errno.h>
#include <stddef.h>	/* offsetof */
#include <stdlib.h>
#include "check.h"
#include "worker_fixture.h"
#include "job_fixture.h"
#include "io/latency_target.h"
#include "worker/worker.h"

#define US 1000ull
#define MS 1000000ull

static const struct lat_target_cfg cfg100 = { .target_us = 100, .window_us = 1000,
					      .percentile = 100 };

/* Run a search against "passes up to depth k"; returns the final depth. */
static unsigned search(unsigned max, unsigned k, const struct lat_target_cfg *c,
		       enum lat_target_step *last, unsigned *windows)
{
	struct lat_target lt;
	enum lat_target_step s = LAT_TARGET_UP;
	unsigned n = 0;

	lat_target_init(&lt, max);
	while (n < 1000) {
		n++;
		s = lat_target_window(&lt, c, 1000, lt.depth <= k ? 0 : 1000);
		if (s == LAT_TARGET_DONE || s == LAT_TARGET_FATAL)
			break;
		CHECK(lt.depth >= 1 && lt.depth <= lt.max);
	}
	*last = s;
	*windows = n;
	return lt.depth;
}

TEST(settles_at_the_deepest_passing_depth)
{
	unsigned max, k, w, bad = 0;
	enum lat_target_step s;

	for (max = 1; max <= 130; max++)
		for (k = 1; k <= 140; k++) {
			unsigned d = search(max, k, &cfg100, &s, &w);

			if (d != (k < max ? k : max) || s != LAT_TARGET_DONE || w > 40)
				bad++;
		}
	CHECK_EQ_U(bad, 0);
}

/* fio's path for iodepth 128, target met up to 5: 1 2 4 8 | 6 5 | settle at 5 */
TEST(path_double_then_bisect)
{
	static const unsigned want[] = { 2, 4, 8, 6, 5, 5, 5 };
	static const enum lat_target_step steps[] = { LAT_TARGET_UP, LAT_TARGET_UP,
		LAT_TARGET_UP, LAT_TARGET_DOWN, LAT_TARGET_DOWN, LAT_TARGET_SETTLE, LAT_TARGET_DONE };
	struct lat_target lt;
	unsigned i;

	lat_target_init(&lt, 128);
	CHECK_EQ_U(lt.depth, 1);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		enum lat_target_step s = lat_target_window(&lt, &cfg100, 500, lt.depth <= 5 ? 0 : 3);

		CHECK_EQ_U(s, steps[i]);
		CHECK_EQ_U(lt.depth, want[i]);
	}
}

/* All windows pass: the depth doubles to iodepth, one more window, done. */
TEST(all_pass_ends_at_iodepth)
{
	static const unsigned want[] = { 2, 4, 8, 8, 8 };
	struct lat_target lt;
	unsigned i;

	lat_target_init(&lt, 8);
	for (i = 0; i < 5; i++) {
		enum lat_target_step s = lat_target_window(&lt, &cfg100, 10, 0);

		CHECK_EQ_U(lt.depth, want[i]);
		CHECK_EQ_U(s, i < 3 ? LAT_TARGET_UP : i == 3 ? LAT_TARGET_SETTLE : LAT_TARGET_DONE);
	}
}

/* The settled depth fails its last window: the search goes on below it. */
TEST(settled_depth_that_fails_is_searched_again)
{
	struct lat_target lt;

	lat_target_init(&lt, 16);
	while (lat_target_window(&lt, &cfg100, 10, lt.depth <= 5 ? 0 : 1) != LAT_TARGET_SETTLE)
		;
	CHECK_EQ_U(lt.depth, 5);
	CHECK_EQ_U(lat_target_window(&lt, &cfg100, 10, 1), LAT_TARGET_DOWN);
	CHECK_EQ_U(lt.depth, 4);
	/* 4 passes, halfway to 5 is 4: it stays, and the last window was had */
	CHECK_EQ_U(lat_target_window(&lt, &cfg100, 10, 0), LAT_TARGET_DONE);
	CHECK_EQ_U(lt.depth, 4);
}

/* latency_run: never settles, and follows a device that gets slower. */
TEST(latency_run_keeps_adjusting)
{
	struct lat_target_cfg c = cfg100;
	struct lat_target lt;
	unsigned i, k = 12, settle = 0;

	c.run = 1;
	lat_target_init(&lt, 32);
	for (i = 0; i < 200; i++) {
		enum lat_target_step s;

		if (i == 100)
			k = 3;	/* the device slows down: fewer depths pass */
		s = lat_target_window(&lt, &c, 100, lt.depth <= k ? 0 : 100);
		if (s == LAT_TARGET_SETTLE || s == LAT_TARGET_DONE)
			settle++;
		if (i == 99)
			CHECK_EQ_U(lt.depth, 12);
	}
	CHECK_EQ_U(settle, 0);
	CHECK_EQ_U(lt.depth, 3);
}

/* Depth 1 over the target: fatal at percentile 100, otherwise it stays at 1. */
TEST(depth1_failure)
{
	struct lat_target_cfg c = cfg100;
	struct lat_target lt;
	int i;

	lat_target_init(&lt, 64);
	CHECK_EQ_U(lat_target_window(&lt, &c, 100, 1), LAT_TARGET_FATAL);
	c.percentile = 99;
	lat_target_init(&lt, 64);
	for (i = 0; i < 10; i++)
		CHECK_EQ_U(lat_target_window(&lt, &c, 100, 2), LAT_TARGET_UP);
	CHECK_EQ_U(lt.depth, 1);
	CHECK(lat_target_at_once(&cfg100));
	CHECK(!lat_target_at_once(&c));
}

TEST(percentile_edges)
{
	struct lat_target_cfg c = cfg100;

	c.percentile = 99.9;
	CHECK(lat_target_met(&c, 1000, 1));	/* 99.9% exactly */
	CHECK(!lat_target_met(&c, 1000, 2));
	CHECK(!lat_target_met(&c, 0, 0));	/* nothing completed in a window */
	c.percentile = 100;
	CHECK(lat_target_met(&c, 5, 0));
	CHECK(!lat_target_met(&c, 5, 1));
	c.percentile = 0;
	CHECK(lat_target_met(&c, 5, 5));
	CHECK(lat_target_met(&c, 5, 9));	/* over is clamped to ios */
}

/* ---- the worker on a fake device: 10 us per I/O in flight ---------------- */

struct lw {
	struct wfix f;			/* first: the fixture's callbacks cast back */
	uint64_t per_io_ns;
	unsigned max_seen;		/* most I/Os reaped at once after the search settled */
};

/* Everything in flight completes together, after 10 us per I/O in flight. */
static void lw_device(struct wfix *f, struct io_u **done, int n, unsigned inflight,
		      int inline_done)
{
	struct lw *t = (struct lw *)f;

	(void)done;
	if (inline_done)
		return;
	fake_clock_advance(&f->fc, t->per_io_ns * inflight);
	if (atomic_load(&f->w.measuring) && (unsigned)n > t->max_seen)
		t->max_seen = (unsigned)n;
}

static struct lw *lw_new(unsigned depth, uint64_t target_us, uint64_t window_us)
{
	struct lw *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	if (wfix_init(&t->f, RW_READ | RW_RAND, 4096, 1ull << 40, 9000000000000ull)) {
		free(t);
		return NULL;
	}
	t->f.j.iodepth = depth;
	/* the device below completes everything in flight together: whole-queue
	 * commits and reaps (fio's iodepth_batch_submit=0 and
	 * iodepth_batch_complete_max=iodepth) are what it models */
	t->f.j.iodepth_batch_submit = 0;
	t->f.j.iodepth_batch_complete_max = depth;
	t->f.j.interval_us = 1000000;
	t->f.j.lat_target.target_us = target_us;
	t->f.j.lat_target.window_us = window_us;
	t->f.j.lat_target.percentile = 100;
	t->f.j.norandommap = 1;
	t->f.device = lw_device;
	t->per_io_ns = 10 * US;
	return t;
}

static int lw_run(struct lw *t)
{
	return wfix_run(&t->f);
}

static void lw_free(struct lw *t)
{
	if (!t)
		return;
	wfix_release(&t->f);
	free(t);
}

TEST(worker_settles_on_a_depth_dependent_device)
{
	struct lw *t = lw_new(64, 55, 10000);	/* 55 us target, 10 ms windows */
	const struct dir_result *dr;
	const struct series *s;
	uint64_t ios = 0;
	size_t i;

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK_EQ_U(lw_run(t), 0);
	dr = &t->f.r.dir[DDIR_READ];
	/* 1 2 4 8 | 6 5 | 5 settled, its window measured, then done */
	CHECK_EQ_U(t->f.r.lat_depth, 5);
	CHECK_EQ_U(t->f.w.lt.windows, 7);
	CHECK_EQ_U(t->max_seen, 5);
	CHECK_EQ_U(dr->lat.min, 50 * US);
	CHECK_EQ_U(dr->lat.max, 50 * US);
	/* the settled window alone: 10 ms of 5 I/Os per 50 us (the last
	 * batch may end past the window's end) */
	CHECK(dr->total_ios >= 1000 && dr->total_ios <= 1005);
	CHECK(t->f.w.measure_ns >= 10 * MS && t->f.w.measure_ns <= 10 * MS + 50 * US);
	s = &t->f.w.series;
	CHECK(s->nr_ramp >= 1);
	for (i = s->nr_ramp; i < s->nr; i++)
		ios += s->iv[i].d[DDIR_READ].ios;
	CHECK_EQ_U(ios, dr->total_ios);
	lw_free(t);
}

/* With ramp_time the search starts after it, and the ramp's I/O is not counted. */
TEST(worker_search_starts_after_ramp_time)
{
	struct lw *t = lw_new(64, 55, 10000);
	const struct series *s;
	uint64_t ios = 0;
	size_t i;

	CHECK(t != NULL);
	if (!t)
		return;
	t->f.j.ramp_time_us = 5000;
	CHECK_EQ_U(lw_run(t), 0);
	CHECK_EQ_U(t->f.r.lat_depth, 5);
	CHECK_EQ_U(t->f.w.lt.windows, 7);
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].lat.max, 50 * US);
	/* 5 ms of ramp, 10 ms windows at depths 1, 2, 4, two failed ones cut
	 * short by their first late I/O (depth 8: 80 us, 6: 60 us), 10 ms at 5,
	 * 10 ms at 5 settled: 55.14 ms and the last batch */
	if (t->f.w.elapsed_ns < 55140 * US || t->f.w.elapsed_ns > 55140 * US + 150 * US)
		printf("  elapsed %llu ns\n", (unsigned long long)t->f.w.elapsed_ns);
	CHECK(t->f.w.elapsed_ns >= 55140 * US && t->f.w.elapsed_ns <= 55140 * US + 150 * US);
	s = &t->f.w.series;
	for (i = s->nr_ramp; i < s->nr; i++)
		ios += s->iv[i].d[DDIR_READ].ios;
	CHECK_EQ_U(ios, t->f.r.dir[DDIR_READ].total_ios);
	lw_free(t);
}

/* Capped at iodepth: a device fast enough for any depth ends at iodepth. */
TEST(worker_fast_device_ends_at_iodepth)
{
	struct lw *t = lw_new(16, 1000, 5000);

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK_EQ_U(lw_run(t), 0);
	CHECK_EQ_U(t->f.r.lat_depth, 16);
	CHECK_EQ_U(t->max_seen, 16);
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].lat.max, 160 * US);
	lw_free(t);
}

/* Over the target already at depth 1 (10 us > 5 us): ETIMEDOUT at once. */
TEST(worker_depth1_over_target_is_fatal)
{
	struct lw *t = lw_new(8, 5, 100000);

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK_EQ_U(lw_run(t), ETIMEDOUT);
	CHECK(strstr(t->f.w.first_error, "latency of 10000 ns exceeds latency_target (5000 ns)") != NULL);
	/* judged on the first completion, not at the window's end (100 ms) */
	CHECK(t->f.w.elapsed_ns < 1 * MS);
	lw_free(t);
}

/*
 * The I/O runs out before the search settles (2500 I/Os; this device does
 * one per 10 us at any depth, so 1000 at depth 1 fill the first 10 ms
 * window, 1000 at depth 2 the second, and the rest end the third, at depth
 * 4, after 5 ms): as fio, the report is the whole search, not an empty
 * settled window.
 */
TEST(worker_unsettled_search_reports_the_search)
{
	struct lw *t = lw_new(64, 55, 10000);

	CHECK(t != NULL);
	if (!t)
		return;
	t->f.j.size = 4096ull * 2500;
	CHECK_EQ_U(lw_run(t), 0);
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].total_ios, 2500);
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].lat.min, 10 * US);
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].lat.max, 40 * US);
	CHECK_EQ_U(t->f.r.lat_depth, 4);
	CHECK_EQ_U(t->f.w.measure_ns, t->f.w.elapsed_ns);
	CHECK_EQ_U(t->f.w.measure_ns, 25 * MS);
	lw_free(t);
}

/* Off: nothing is held back, the job runs at iodepth. */
TEST(worker_off_runs_at_iodepth)
{
	struct lw *t = lw_new(8, 0, 0);

	CHECK(t != NULL);
	if (!t)
		return;
	t->f.j.size = 4096 * 800;
	CHECK_EQ_U(lw_run(t), 0);
	CHECK_EQ_U(t->f.r.lat_depth, 0);
	CHECK_EQ_U(t->max_seen, 8);
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].total_ios, 800);
	lw_free(t);
}

int main(void)
{
	RUN(settles_at_the_deepest_passing_depth);
	RUN(path_double_then_bisect);
	RUN(all_pass_ends_at_iodepth);
	RUN(settled_depth_that_fails_is_searched_again);
	RUN(latency_run_keeps_adjusting);
	RUN(depth1_failure);
	RUN(percentile_edges);
	RUN(worker_settles_on_a_depth_dependent_device);
	RUN(worker_search_starts_after_ramp_time);
	RUN(worker_fast_device_ends_at_iodepth);
	RUN(worker_depth1_over_target_is_fatal);
	RUN(worker_unsettled_search_reports_the_search);
	RUN(worker_off_runs_at_iodepth);
	return CHECK_DONE();
}
