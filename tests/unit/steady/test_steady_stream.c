/*
 * test_steady_stream: the streaming steady-state search gives exactly what
 * steady_find gives on the whole series -- every field of the outcome, bit
 * for bit (window, statistics, verdict, per-direction window figures, held
 * or lost) -- on random series with warm-ups, steps and noise, for both
 * rules, rounds of k > 1 intervals, ramp intervals, ss_ramp, a direction
 * filter and the latency metric.  The stream is fed as the worker would feed
 * it: interval i once interval i + 1 exists (a sliver may still be folded
 * into the last one), the last at the end.  MSER over the streamed batches
 * equals steady_analyse's; once the batch array is full and halved, it
 * equals MSER computed directly on batches of the longer length.  And the
 * stream's memory does not grow with the number of intervals.
 */
#include "check.h"
#include "steady/steady_stream.h"
#include "steady/steady_tail.h"

#include <errno.h>
#include <stdlib.h>

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return rng_state >> 33;
}

/* 0..1 */
static double unif(void)
{
	return (double)(rnd() & 0xffffff) / (double)0x1000000;
}

/*
 * A series of @n intervals (the first @ramp of them ramp) of about 1 s, with
 * read and write I/O following a shape picked by @shape: warm-up then flat,
 * flat then a step (lost), slow drift, pure noise.  Fed to @ss (when not
 * NULL) one interval behind.  Returns 0 or the first error.
 */
static int build(struct series *s, size_t n, size_t ramp, int shape, struct steady_stream *ss)
{
	static struct hist h[DDIR_NR];
	struct series_in in[DDIR_NR];
	uint64_t t_ms = 0;
	int r;

	series_init(s);
	for (size_t i = 0; i < n; i++) {
		double level = 1000;
		uint64_t dur_us = 1000000 - 5000 + rnd() % 10000;

		switch (shape) {
		case 0:	level = i < 8 ? 300 + 90.0 * (double)i : 1000; break;
		case 1:	level = i < n / 2 ? 1000 : 1600; break;
		case 2:	level = 1000 + 15.0 * (double)i; break;
		default: break;
		}
		/* a short last interval, sometimes a sliver (folded into the one before) */
		if (i == n - 1)
			dur_us = shape & 1 ? 20000 : 400000;
		t_ms += (dur_us + 500) / 1000;
		memset(in, 0, sizeof(in));
		for (int d = 0; d < DDIR_NR; d++) {
			uint64_t ios = d == 2 ? 0 : (uint64_t)(level * (0.85 + 0.3 * unif()) *
							       (double)dur_us / 1e6 * (d ? 0.5 : 1));

			memset(&h[d], 0, sizeof(h[d]));
			in[d].lat_min = UINT64_MAX;
			if (!ios)
				continue;
			in[d].ios = ios;
			in[d].bytes = ios * 4096;
			in[d].lat_min = 1000 + rnd() % 1000;
			in[d].lat_max = 50000 + rnd() % 50000;
			h[d].b[hist_index(in[d].lat_min)] += 1;
			h[d].b[hist_index(in[d].lat_max)] += 1;
			h[d].b[hist_index(3000 + rnd() % 20000)] += ios - 2;
			in[d].lat_sum_ns = in[d].lat_min + in[d].lat_max + (ios - 2) * (5000 + rnd() % 3000);
			in[d].lat_hist = &h[d];
		}
		r = series_add(s, t_ms, dur_us, i < ramp, in);
		if (r)
			return r;
		/* the worker's order: interval nr-2 is final once nr-1 exists */
		if (ss && s->nr >= 2 && ss->fed < s->nr - 1 &&
		    (r = steady_stream_add(ss, s, s->nr - 2)))
			return r;
	}
	if (ss && ss->fed < s->nr)
		return steady_stream_add(ss, s, s->nr - 1);
	return 0;
}

#define SAME_D(a, b) CHECK(memcmp(&(a), &(b), sizeof(double)) == 0)

/* Every field steady_find fills, compared exactly; returns 1 when attained. */
static int same(const struct steady *a, const struct steady *b)
{
	CHECK_EQ_U(a->evaluated, b->evaluated);
	CHECK_EQ_U(a->attained, b->attained);
	CHECK_EQ_U(a->nr, b->nr);
	if (a->nr) {
		CHECK_EQ_U(a->first, b->first);
		CHECK_EQ_U(a->last, b->last);
		CHECK_EQ_U(a->start_ms, b->start_ms);
		CHECK_EQ_U(a->end_ms, b->end_ms);
		SAME_D(a->mean, b->mean);
		SAME_D(a->min, b->min);
		SAME_D(a->max, b->max);
		SAME_D(a->range_pct, b->range_pct);
		SAME_D(a->slope, b->slope);
		SAME_D(a->excursion_pct, b->excursion_pct);
		SAME_D(a->max_deviation, b->max_deviation);
		SAME_D(a->criterion, b->criterion);
		CHECK(memcmp(a->iops, b->iops, a->nr * sizeof(double)) == 0);
		CHECK(memcmp(a->bw, b->bw, a->nr * sizeof(double)) == 0);
		CHECK(memcmp(a->lat, b->lat, a->nr * sizeof(double)) == 0);
	}
	for (int d = 0; d < DDIR_NR; d++) {
		CHECK(!a->dir[d] == !b->dir[d]);
		if (a->dir[d] && b->dir[d])
			CHECK(memcmp(a->dir[d], b->dir[d], sizeof(*a->dir[d])) == 0);
	}
	CHECK_EQ_U(a->held, b->held);
	if (a->attained) {
		CHECK_EQ_U(a->after, b->after);
		SAME_D(a->band_lo, b->band_lo);
		SAME_D(a->band_hi, b->band_hi);
		CHECK_EQ_U(a->lost_ms, b->lost_ms);
		SAME_D(a->lost_mean, b->lost_mean);
	}
	return a->attained;
}

/* Run every shape and length under @c; count the attained and lost outcomes. */
static void sweep(const struct steady_cfg *c, unsigned *attained, unsigned *lost)
{
	static const size_t lens[] = { 0, 1, 3, 7, 12, 40, 97 };

	for (int shape = 0; shape < 4; shape++) {
		for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
			for (size_t ramp = 0; ramp <= 2; ramp += 2) {
				struct steady_stream ss;
				struct steady a, b;
				struct series s;

				if (ramp >= lens[li] && lens[li])
					continue;
				steady_init(&a);
				steady_init(&b);
				CHECK_EQ_U(steady_stream_init(&ss, c), 0);
				CHECK_EQ_U(build(&s, lens[li], ramp, shape, &ss), 0);
				CHECK_EQ_U(ss.fed, s.nr);
				CHECK_EQ_U(steady_analyse(c, &s, &a), 0);
				CHECK_EQ_U(steady_stream_result(&ss, &b), 0);
				CHECK_EQ_U(steady_stream_mser(&ss, &b), 0);
				CHECK_EQ_U(ss.mser_batch, MSER_BATCH);
				CHECK_EQ_U(a.mser_ok, b.mser_ok);
				CHECK(memcmp(&a.mser, &b.mser, sizeof(a.mser)) == 0);
				CHECK_EQ_U(a.mser_ms, b.mser_ms);
				if (same(&a, &b)) {
					(*attained)++;
					*lost += !a.held;
				}
				steady_free(&a);
				steady_free(&b);
				steady_stream_free(&ss);
				series_free(&s);
			}
		}
	}
}

TEST(snia_default)
{
	struct steady_cfg c;
	unsigned att = 0, lost = 0;

	rng_state = 1;
	steady_cfg_snia(&c, 0);
	sweep(&c, &att, &lost);
	/* the sweep must exercise both outcomes, or it proves little */
	CHECK(att >= 4);
	CHECK(lost >= 1);
}

TEST(snia_rounds_ssramp_lat_filter)
{
	struct steady_cfg c;
	unsigned att = 0, lost = 0;

	rng_state = 2;
	steady_cfg_snia(&c, 0);
	c.round_intervals = 3;
	c.round_us = 3000000;
	c.window = 3;
	c.ramp_ms = 2500;
	sweep(&c, &att, &lost);
	CHECK(att >= 2);
	c.metric = STEADY_LAT;
	c.ddir = 1;
	c.round_intervals = 2;
	c.ramp_ms = 0;
	sweep(&c, &att, &lost);
	c.metric = STEADY_BW;
	c.ddir = 0;
	sweep(&c, &att, &lost);
}

TEST(fio_rules)
{
	struct steady_cfg c;
	unsigned att = 0, lost = 0;

	rng_state = 3;
	memset(&c, 0, sizeof(c));
	c.rule = STEADY_FIO;
	c.ddir = -1;
	c.window = 6;
	c.round_intervals = 1;
	c.round_us = 1000000;
	c.metric = STEADY_IOPS;
	c.fio_limit = 20;
	c.fio_pct = 1;
	sweep(&c, &att, &lost);		/* iops:20% */
	CHECK(att >= 2);
	c.metric = STEADY_BW;
	c.fio_slope = 1;
	c.fio_limit = 2;
	sweep(&c, &att, &lost);		/* bw_slope:2% */
	c.fio_pct = 0;
	c.fio_limit = 1e12;
	c.metric = STEADY_IOPS;
	sweep(&c, &att, &lost);		/* iops_slope, absolute: always attained */
	CHECK(lost >= 1);
	c.window = 1;			/* a one-round window (ss_dur = one interval) */
	c.fio_slope = 0;
	c.fio_pct = 1;
	c.fio_limit = 5;
	sweep(&c, &att, &lost);
}

/*
 * A full batch array is halved: MSER then equals mser_compute over batches
 * of the longer length taken straight from the series (IOPS: integer sums,
 * so bit for bit), and its truncation time is that batch's start.
 */
TEST(mser_coarsened)
{
	static const size_t lens[] = { 39, 40, 41, 200, 333 };
	struct steady_cfg c;

	rng_state = 6;
	steady_cfg_snia(&c, 0);
	c.ramp_ms = 1500;
	for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
		for (int shape = 0; shape < 4; shape++) {
			struct steady_stream ss;
			struct steady st;
			struct series s;
			struct mser m;
			size_t e, L, k;
			double *b;

			steady_init(&st);
			CHECK_EQ_U(steady_stream_init(&ss, &c), 0);
			ss.mser_max = 8;
			CHECK_EQ_U(build(&s, lens[li], 2, shape, &ss), 0);
			CHECK_EQ_U(steady_stream_mser(&ss, &st), 0);
			e = steady_first_eligible(&c, &s);
			L = ss.mser_batch;
			k = (s.nr - e) / L;
			CHECK(lens[li] < 100 || L >= 4 * MSER_BATCH);
			CHECK_EQ_U(ss.mser_nr, k);
			CHECK(k < 8);
			b = calloc(k + 1, sizeof(*b));
			for (size_t j = 0; j < k; j++)
				b[j] = steady_metric(&c, &s, e + j * L, L);
			CHECK_EQ_U(mser_compute(b, k, &m) == 0, st.mser_ok);
			if (st.mser_ok) {
				uint64_t d = (s.iv[e + m.truncate * L].dur_us + 500) / 1000;

				CHECK(memcmp(&m, &st.mser, sizeof(m)) == 0);
				CHECK_EQ_U(st.mser_ms, s.iv[e + m.truncate * L].t_ms - d);
			}
			free(b);
			steady_free(&st);
			steady_stream_free(&ss);
			series_free(&s);
		}
	}
}

/* The stream's memory after 50 and after 3,000 intervals is the same. */
TEST(memory_bounded)
{
	struct steady_cfg c;
	struct steady_stream a, b;
	struct series s;
	size_t ma, mb;

	rng_state = 4;
	steady_cfg_snia(&c, 0);
	CHECK_EQ_U(steady_stream_init(&a, &c), 0);
	CHECK_EQ_U(steady_stream_init(&b, &c), 0);
	a.mser_max = b.mser_max = 64;
	CHECK_EQ_U(build(&s, 50, 0, 3, &a), 0);
	ma = steady_stream_mem(&a);
	series_free(&s);
	CHECK_EQ_U(build(&s, 3000, 0, 3, &b), 0);
	mb = steady_stream_mem(&b);
	series_free(&s);
	CHECK_EQ_U(ma, mb);
	CHECK(ma < 128 * 1024);	/* the window's figures and the held tail: 2 x 45 KB */
	CHECK(a.found && b.found);
	CHECK_EQ_U(a.mser_batch, MSER_BATCH);
	CHECK(b.mser_batch > MSER_BATCH);
	CHECK(b.mser_nr <= 64);
	steady_stream_free(&a);
	steady_stream_free(&b);
}

TEST(bad_use)
{
	struct steady_cfg c;
	struct steady_stream ss;
	struct series s;

	steady_cfg_snia(&c, 0);
	c.rule = STEADY_OFF;
	CHECK_EQ_U(steady_stream_init(&ss, &c), (unsigned long long)-EINVAL);
	steady_stream_free(&ss);
	c.rule = STEADY_SNIA;
	CHECK_EQ_U(steady_stream_init(&ss, &c), 0);
	rng_state = 5;
	CHECK_EQ_U(build(&s, 4, 0, 3, NULL), 0);
	/* out of order: interval 1 before interval 0 */
	CHECK_EQ_U(steady_stream_add(&ss, &s, 1), (unsigned long long)-EINVAL);
	CHECK_EQ_U(steady_stream_add(&ss, &s, 0), 0);
	CHECK_EQ_U(steady_stream_add(&ss, &s, 0), (unsigned long long)-EINVAL);
	series_free(&s);
	steady_stream_free(&ss);
}

int main(void)
{
	RUN(snia_default);
	RUN(snia_rounds_ssramp_lat_filter);
	RUN(fio_rules);
	RUN(mser_coarsened);
	RUN(memory_bounded);
	RUN(bad_use);
	return CHECK_DONE();
}
