/*
 * test_steady_tail: what follows the steady window, on synthetic series of
 * 1 s intervals worked out by hand (SNIA defaults: W = 5, band +-20% of the
 * window mean): held or lost and when, MSER-5's truncation point (batch
 * means of 5 intervals, searched over the first half) and the steady tail's
 * start, mean and batch-means interval.  Shapes: flat; step up; step down
 * after a flat start; linear drift; noisy flat after a slow warm-up; a single
 * spike.
 */
#include "check.h"
#include "steady/steady.h"
#include "steady/steady_out.h"
#include "steady/steady_tail.h"

#include <stdlib.h>

/* n intervals of 1 s whose read IOPS are y[i]; every I/O takes 2000 ns. */
static void build(struct series *s, const double *y, size_t n)
{
	static struct hist h;
	struct series_in in[DDIR_NR];

	series_init(s);
	for (size_t i = 0; i < n; i++) {
		uint64_t ios = (uint64_t)(y[i] + 0.5);

		memset(in, 0, sizeof(in));
		for (int d = 0; d < DDIR_NR; d++)
			in[d].lat_min = UINT64_MAX;
		memset(&h, 0, sizeof(h));
		h.b[hist_index(2000)] = ios;
		in[0].ios = ios;
		in[0].bytes = ios * 4096;
		in[0].lat_sum_ns = ios * 2000;
		in[0].lat_min = 2000;
		in[0].lat_max = 2000;
		in[0].lat_hist = &h;
		series_add(s, (i + 1) * 1000, 1000000, 0, in);
	}
}

static void analyse(const double *y, size_t n, struct steady *st)
{
	struct steady_cfg c;
	struct series s;

	steady_cfg_snia(&c, 0);
	build(&s, y, n);
	steady_init(st);
	CHECK_EQ_U(steady_analyse(&c, &s, st), 0);
	series_free(&s);
}

static void text(const struct steady *st, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	steady_print_text(f, st);
	fclose(f);
}

/* Flat 1000 x 20: window 0-5 s, held over the 15 rounds after it; no warm-up. */
TEST(flat)
{
	double y[20];
	struct steady st;

	for (int i = 0; i < 20; i++)
		y[i] = 1000;
	analyse(y, 20, &st);
	CHECK(st.attained && st.held);
	CHECK_EQ_U(st.after, 15);
	CHECK_NEAR(st.band_lo, 800, 1e-9);
	CHECK_NEAR(st.band_hi, 1200, 1e-9);
	CHECK(st.mser_ok);
	CHECK_EQ_U(st.mser.truncate, 0);
	CHECK_EQ_U(st.mser_ms, 0);
	CHECK(st.tail && st.tail->from_window);
	CHECK_EQ_U(st.tail->start_ms, 0);
	CHECK_EQ_U(st.tail->end_ms, 20000);
	CHECK_NEAR(st.tail->iops, 1000, 1e-9);
	CHECK_EQ_U(st.tail->batches, 4);	/* 20 intervals, batches of 5 */
	CHECK_NEAR(st.tail->iops_ci95, 0, 1e-9);
	CHECK(st.tail->dir[DDIR_READ] && st.tail->dir[DDIR_READ]->ios == 20000);
	steady_free(&st);
}

/*
 * 1000 x 10 then 2000 x 10.  Window 0-5 s; rounds 5-9 in band, round 10
 * (2000 > 1200) is not: lost at 10 s, lost_mean 2000 (+100%).  MSER batches
 * [1000, 1000, 2000, 2000]: MSER(0) = 1e6 / 16, MSER(1) = 666667 / 9,
 * MSER(2) = 0: truncate 2 batches = 10 s.  The level was lost, so the tail
 * starts at MSER's point: 10-20 s at 2000.
 */
TEST(step_up)
{
	double y[20];
	struct steady st;
	char buf[2048];

	for (int i = 0; i < 20; i++)
		y[i] = i < 10 ? 1000 : 2000;
	analyse(y, 20, &st);
	CHECK(st.attained && !st.held);
	CHECK_EQ_U(st.start_ms, 0);
	CHECK_EQ_U(st.lost_ms, 10000);
	CHECK_NEAR(st.lost_mean, 2000, 1e-9);
	CHECK_EQ_U(st.mser.truncate, 2);
	CHECK_EQ_U(st.mser_ms, 10000);
	CHECK(st.tail && !st.tail->from_window);
	CHECK_EQ_U(st.tail->start_ms, 10000);
	CHECK_NEAR(st.tail->iops, 2000, 1e-9);
	text(&st, buf, sizeof(buf));
	CHECK(strstr(buf, "reached at 0.000-5.000 s, lost at 10.000 s (IOPS rose 100%)") != NULL);
	CHECK(strstr(buf, "steady tail 10.000-20.000 s (from the MSER-5 truncation): 2000 IOPS") != NULL);
	steady_free(&st);
}

/*
 * 2000 x 8 then 600 x 12 (a throttled job in small, docs/time-series.md "Held or lost").  Lost at
 * 8 s, lost_mean 600: "IOPS fell 70%".  MSER batches [2000, 1440, 600, 600]:
 * MSER(0) = 1411200 / 16, MSER(1) = 470400 / 9, MSER(2) = 0: 10 s.
 */
TEST(step_down)
{
	double y[20];
	struct steady st;
	char buf[2048];
	json_t *o;

	for (int i = 0; i < 20; i++)
		y[i] = i < 8 ? 2000 : 600;
	analyse(y, 20, &st);
	CHECK(st.attained && !st.held);
	CHECK_EQ_U(st.lost_ms, 8000);
	CHECK_NEAR(st.lost_mean, 600, 1e-9);
	CHECK_EQ_U(st.mser_ms, 10000);
	CHECK_NEAR(st.mser.mean, 600, 1e-9);
	CHECK(st.tail && st.tail->start_ms == 10000);
	CHECK_NEAR(st.tail->iops, 600, 1e-9);
	text(&st, buf, sizeof(buf));
	CHECK(strstr(buf, "lost at 8.000 s (IOPS fell 70%)") != NULL);
	CHECK_EQ_U(steady_to_json(&st, &o), 0);
	CHECK(json_is_false(json_object_get(o, "held")));
	CHECK_EQ_U(json_integer_value(json_object_get(o, "lost_ms")), 8000);
	CHECK_EQ_U(json_integer_value(json_object_get(json_object_get(o, "mser"), "truncate_ms")), 10000);
	CHECK_STR(json_string_value(json_object_get(json_object_get(o, "tail"), "from")), "mser");
	CHECK_EQ_U(json_integer_value(json_object_get(json_object_get(json_object_get(o, "tail"), "read"), "ios")),
		   6000);
	json_decref(o);
	steady_free(&st);
}

/*
 * y = 1000 + 100 i: a 5-round window has excursion 400 > 10% of any mean
 * below 4000: never steady.  MSER batches [1200, 1700, 2200, 2700]: MSER(0) =
 * 1.25e6 / 16, MSER(1) = 5e5 / 9, MSER(2) = 125000 / 4: truncated at the
 * search limit, 10 s; the tail (10-20 s) averages 2450 and still drifts.
 */
TEST(linear_drift)
{
	double y[20];
	struct steady st;

	for (int i = 0; i < 20; i++)
		y[i] = 1000 + 100 * i;
	analyse(y, 20, &st);
	CHECK(!st.attained);
	CHECK_EQ_U(st.mser.truncate, 2);
	CHECK_EQ_U(st.mser_ms, 10000);
	CHECK(st.tail && !st.tail->from_window);
	CHECK_NEAR(st.tail->iops, 2450, 1e-9);
	steady_free(&st);
}

/*
 * Warm-up 200, 360, 520, 680, 840, then 1050, 950, 1050, ... (30 s).  The
 * window at 4 s has range 210 / 968 = 21.7% > 20%; at 5 s: range 100 / 1010
 * = 9.9%, slope 0: steady at 5-10 s, held.  MSER batches [520, 1010, 990,
 * 1010, 990, 1010]: MSER(1) = 480 / 25 = 19.2 beats MSER(2) = 400 / 16 and
 * MSER(3) = 266.7 / 9: 5 s, as the window.  Tail 5-30 s: 25050 ios / 25 s =
 * 1002, batch means of 5 intervals [1010, 990, 1010, 990, 1010]: sd
 * sqrt(120), half-width t(0.975, 4) = 2.776445 x sqrt(120) / sqrt(5).
 */
TEST(noisy_slow_warmup)
{
	double y[30];
	struct steady st;

	for (int i = 0; i < 30; i++)
		y[i] = i < 5 ? 200 + 160 * i : (i % 2 ? 1050 : 950);
	analyse(y, 30, &st);
	CHECK(st.attained && st.held);
	CHECK_EQ_U(st.start_ms, 5000);
	CHECK_EQ_U(st.mser.truncate, 1);
	CHECK_EQ_U(st.mser_ms, 5000);
	CHECK_NEAR(st.mser.mean, 1002, 1e-9);
	CHECK(st.tail && st.tail->from_window);
	CHECK_EQ_U(st.tail->start_ms, 5000);
	CHECK_NEAR(st.tail->iops, 1002, 1e-9);
	CHECK_EQ_U(st.tail->batches, 5);
	CHECK_EQ_U(st.tail->batch_intervals, 5);
	CHECK_NEAR(st.tail->iops_ci95, 2.776445 * sqrt(120.0) / sqrt(5.0), 1e-4);
	CHECK_NEAR(st.tail->dir_ci95[DDIR_READ], st.tail->iops_ci95, 1e-9);
	steady_free(&st);
}

/*
 * Flat 1000 with 3000 at 12 s.  The window (0-5 s) is lost at 12 s: one
 * round out of the band is a loss (lost_mean (3000 + 7 x 1000) / 8 = 1250).
 * MSER batches [1000, 1000, 1400, 1000]: MSER(0) = 120000 / 16 = 7500 beats
 * 106667 / 9 and 80000 / 4: no truncation, the tail is the whole run, 1100.
 */
TEST(single_spike)
{
	double y[20];
	struct steady st;
	char buf[2048];

	for (int i = 0; i < 20; i++)
		y[i] = i == 12 ? 3000 : 1000;
	analyse(y, 20, &st);
	CHECK(st.attained && !st.held);
	CHECK_EQ_U(st.lost_ms, 12000);
	CHECK_NEAR(st.lost_mean, 1250, 1e-9);
	CHECK_EQ_U(st.mser.truncate, 0);
	CHECK(st.tail && !st.tail->from_window && st.tail->start_ms == 0);
	CHECK_NEAR(st.tail->iops, 1100, 1e-9);
	text(&st, buf, sizeof(buf));
	CHECK(strstr(buf, "lost at 12.000 s (IOPS rose 25%)") != NULL);
	steady_free(&st);
}

/* Too short for MSER (2 batches) and never steady: no tail at all. */
TEST(too_short)
{
	double y[10];
	struct steady st;
	json_t *o;

	for (int i = 0; i < 10; i++)
		y[i] = 100 * (i + 1);
	analyse(y, 10, &st);
	CHECK(!st.attained && !st.mser_ok && !st.tail);
	CHECK_EQ_U(steady_to_json(&st, &o), 0);
	CHECK(!json_object_get(o, "tail") && !json_object_get(o, "mser") && !json_object_get(o, "held"));
	json_decref(o);
	steady_free(&st);
}

/* fio's ss=iops:10% band is fio's own limit; iops_slope's is limit x window. */
TEST(fio_band)
{
	struct steady_cfg c;

	memset(&c, 0, sizeof(c));
	c.rule = STEADY_FIO;
	c.fio_limit = 10;
	c.fio_pct = 1;
	c.window = 30;
	c.round_us = 1000000;
	CHECK_NEAR(steady_band(&c, 5000), 500, 1e-9);
	c.fio_slope = 1;
	c.fio_limit = 0.5;
	CHECK_NEAR(steady_band(&c, 5000), 0.5 * 30 / 100.0 * 5000, 1e-9);
	c.fio_pct = 0;
	CHECK_NEAR(steady_band(&c, 5000), 15, 1e-9);
}

int main(void)
{
	RUN(flat);
	RUN(step_up);
	RUN(step_down);
	RUN(linear_drift);
	RUN(noisy_slow_warmup);
	RUN(single_spike);
	RUN(too_short);
	RUN(fio_band);
	return CHECK_DONE();
}
