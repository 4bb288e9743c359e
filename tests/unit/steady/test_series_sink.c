/*
 * test_series_sink: a job's intervals fed one at a time, as the worker feeds
 * them, from a series that keeps only its recent intervals (series_trim to
 * what the sink and the stream still read), give:
 *  - a stored series equal to series_bound(full series, series_max), element
 *    by element (sums, extremes, durations, ends, counts, histograms): the
 *    exact merging of coarsened intervals, done as the run goes;
 *  - the steady verdict, window, statistics, held/lost and MSER of
 *    steady_analyse on the full series, bit for bit, coarsened or not, and
 *    the same tail when nothing was coarsened; when coarsened, a tail from a
 *    held window still starts at the window with its exact figures, and one
 *    from MSER's point starts at the first stored element at or after it;
 *  - memory bounded: the recent series holds a few rounds, the stored one at
 *    most series_max elements, whatever the number of intervals.
 */
#include "check.h"
#include "run/series_group.h"
#include "steady/series_sink.h"
#include "steady/steady_tail.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return rng_state >> 33;
}

static double unif(void)
{
	return (double)(rnd() & 0xffffff) / (double)0x1000000;
}

struct run {
	struct series full;		/* every interval, as kept without series_max */
	struct series recent;		/* trimmed as the worker trims */
	struct series_sink sink;
	size_t max_held;		/* the most intervals recent held */
};

/*
 * @n intervals of about 1 s (the first @ramp ramp) shaped by @shape (0
 * warm-up then flat, 1 flat then a step, 2 drift, 3 noise), added to both
 * series; the sink is fed interval i once i + 1 exists, and recent trimmed.
 */
static int feed(struct run *x, size_t n, size_t ramp, int shape)
{
	static struct hist h[DDIR_NR];
	struct series_in in[DDIR_NR];
	uint64_t t_ms = 0;
	int r;

	for (size_t i = 0; i < n; i++) {
		double level = 1000;
		uint64_t dur_us = 1000000 - 5000 + rnd() % 10000;

		switch (shape) {
		case 0:	level = i < 8 + n / 10 ? 300 + 700.0 * (double)i / (double)(8 + n / 10) : 1000; break;
		case 1:	level = i < n / 2 ? 1000 : 1600; break;
		case 2:	level = 1000 + 15.0 * (double)i; break;
		default: break;
		}
		if (i == n - 1)
			dur_us = shape & 1 ? 20000 : 400000;	/* a sliver, or a short last one */
		t_ms += (dur_us + 500) / 1000;
		memset(in, 0, sizeof(in));
		for (int d = 0; d < DDIR_NR; d++) {
			uint64_t ios = d == 2 ? 0 : (uint64_t)(level * (0.85 + 0.3 * unif()) *
							       (double)dur_us / 1e6 * (d ? 0.5 : 1));

			memset(&h[d], 0, sizeof(h[d]));
			in[d].lat_min = UINT64_MAX;
			if (ios < 3)
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
		if ((r = series_add(&x->full, t_ms, dur_us, i < ramp, in)) ||
		    (r = series_add(&x->recent, t_ms, dur_us, i < ramp, in)))
			return r;
		if (x->recent.nr > x->max_held)
			x->max_held = x->recent.nr;
		while (x->sink.fed + 1 < series_end(&x->recent))
			if ((r = series_sink_add(&x->sink, &x->recent, x->sink.fed)))
				return r;
		series_trim(&x->recent, series_sink_keep(&x->sink));
	}
	return series_sink_drain(&x->sink, &x->recent);
}

static int run_init(struct run *x, const struct steady_cfg *c, size_t max)
{
	memset(x, 0, sizeof(*x));
	series_init(&x->full);
	series_init(&x->recent);
	return series_sink_init(&x->sink, c, max);
}

static void run_free(struct run *x)
{
	series_free(&x->full);
	series_free(&x->recent);
	series_sink_free(&x->sink);
}

/* Element by element: the same figures and the same histogram buckets. */
static void same_series(const struct series *a, const struct series *b)
{
	CHECK_EQ_U(a->nr, b->nr);
	CHECK_EQ_U(a->nr_ramp, b->nr_ramp);
	for (size_t i = 0; i < a->nr && i < b->nr; i++) {
		const struct series_iv *x = &a->iv[i], *y = &b->iv[i];

		CHECK_EQ_U(x->t_ms, y->t_ms);
		CHECK_EQ_U(x->dur_us, y->dur_us);
		CHECK_EQ_U(x->ramp, y->ramp);
		CHECK_EQ_U(series_iv_n(x), series_iv_n(y));
		for (int d = 0; d < DDIR_NR; d++) {
			const struct series_dir *p = &x->d[d], *q = &y->d[d];

			CHECK_EQ_U(p->ios, q->ios);
			CHECK_EQ_U(p->bytes, q->bytes);
			CHECK_EQ_U(p->lat_sum_ns, q->lat_sum_ns);
			CHECK_EQ_U(p->lat_min, q->lat_min);
			CHECK_EQ_U(p->lat_max, q->lat_max);
			CHECK_EQ_U(p->p50, q->p50);
			CHECK_EQ_U(p->p99, q->p99);
			CHECK_EQ_U(p->p999, q->p999);
			CHECK_EQ_U(p->hist_nr, q->hist_nr);
			if (p->hist_nr == q->hist_nr)
				CHECK(memcmp(&a->b[p->hist_off], &b->b[q->hist_off],
					     p->hist_nr * sizeof(*a->b)) == 0);
		}
	}
}

#define SAME_D(a, b) CHECK(memcmp(&(a), &(b), sizeof(double)) == 0)

/* The verdict, window, statistics, held/lost and MSER, bit for bit. */
static void same_steady(const struct steady *a, const struct steady *b)
{
	CHECK_EQ_U(a->evaluated, b->evaluated);
	CHECK_EQ_U(a->attained, b->attained);
	CHECK_EQ_U(a->first, b->first);
	CHECK_EQ_U(a->last, b->last);
	CHECK_EQ_U(a->start_ms, b->start_ms);
	CHECK_EQ_U(a->end_ms, b->end_ms);
	CHECK_EQ_U(a->nr, b->nr);
	SAME_D(a->mean, b->mean);
	SAME_D(a->range_pct, b->range_pct);
	SAME_D(a->excursion_pct, b->excursion_pct);
	CHECK_EQ_U(a->held, b->held);
	CHECK_EQ_U(a->after, b->after);
	CHECK_EQ_U(a->lost_ms, b->lost_ms);
	if (!a->held)
		SAME_D(a->lost_mean, b->lost_mean);
	for (int d = 0; d < DDIR_NR; d++) {
		CHECK((a->dir[d] != NULL) == (b->dir[d] != NULL));
		if (a->dir[d] && b->dir[d])
			CHECK(memcmp(a->dir[d], b->dir[d], sizeof(*a->dir[d])) == 0);
	}
	CHECK_EQ_U(a->mser_ok, b->mser_ok);
	CHECK(memcmp(&a->mser, &b->mser, sizeof(a->mser)) == 0);
	CHECK_EQ_U(a->mser_ms, b->mser_ms);
}

static void same_tail(const struct steady_tail *a, const struct steady_tail *b)
{
	CHECK((a != NULL) == (b != NULL));
	if (!a || !b)
		return;
	CHECK_EQ_U(a->from_window, b->from_window);
	CHECK_EQ_U(a->start_ms, b->start_ms);
	CHECK_EQ_U(a->end_ms, b->end_ms);
	CHECK_EQ_U(a->intervals, b->intervals);
	CHECK_EQ_U(a->element_intervals, 1);
	CHECK_EQ_U(a->batches, b->batches);
	CHECK_EQ_U(a->batch_intervals, b->batch_intervals);
	SAME_D(a->iops, b->iops);
	SAME_D(a->iops_ci95, b->iops_ci95);
	for (int d = 0; d < DDIR_NR; d++) {
		CHECK((a->dir[d] != NULL) == (b->dir[d] != NULL));
		if (a->dir[d] && b->dir[d]) {
			CHECK(memcmp(a->dir[d], b->dir[d], sizeof(*a->dir[d])) == 0);
			SAME_D(a->dir_ci95[d], b->dir_ci95[d]);
		}
	}
}

static void cfg_of(struct steady_cfg *c, int rule)
{
	steady_cfg_snia(c, 0);
	if (rule == 1) {
		c->round_intervals = 3;	/* rounds of 3 intervals */
		c->window = 4;
	} else if (rule == 2) {
		c->rule = STEADY_FIO;	/* fio's iops:10% over 5 rounds */
		c->window = 5;
		c->fio_limit = 10;
		c->fio_pct = 1;
		c->ramp_ms = 3000;	/* ss_ramp */
	}
}

/* Nothing coarsened (series_max 0, or a short run): everything as steady_analyse. */
TEST(uncoarsened_same_as_batch)
{
	static const size_t lens[] = { 9, 40, 230 };

	rng_state = 11;
	for (int rule = 0; rule < 3; rule++)
		for (int shape = 0; shape < 4; shape++)
			for (size_t li = 0; li < 3; li++)
				for (size_t ramp = 0; ramp <= 3; ramp += 3) {
					struct steady_cfg c;
					struct steady ref;
					struct series *s = NULL;
					struct steady *st = NULL;
					struct run x;

					cfg_of(&c, rule);
					CHECK_EQ_U(run_init(&x, &c, li == 2 ? 0 : 512), 0);
					CHECK_EQ_U(feed(&x, lens[li], ramp, shape), 0);
					steady_init(&ref);
					CHECK_EQ_U(steady_analyse(&c, &x.full, &ref), 0);
					CHECK_EQ_U(series_sink_finish(&x.sink, &s, &st), 0);
					CHECK(s && st);
					if (s && st) {
						same_series(s, &x.full);
						same_steady(st, &ref);
						same_tail(st->tail, ref.tail);
					}
					steady_free(&ref);
					steady_free(st);
					free(st);
					series_free(s);
					free(s);
					run_free(&x);
				}
}

/*
 * Long runs, coarsened: the stored series is series_bound's, the window and
 * MSER the full-resolution ones; the tail as the new rule says.
 */
TEST(coarsened_bounded_exact)
{
	static const size_t lens[] = { 1000, 3001 };
	static const size_t maxes[] = { 16, 100 };

	rng_state = 12;
	for (int rule = 0; rule < 3; rule++)
		for (int shape = 0; shape < 4; shape++)
			for (size_t li = 0; li < 2; li++) {
				size_t max = maxes[li];
				struct steady_cfg c;
				struct steady ref;
				struct series *s = NULL, bound;
				struct steady *st = NULL;
				struct run x;

				cfg_of(&c, rule);
				CHECK_EQ_U(run_init(&x, &c, max), 0);
				CHECK_EQ_U(feed(&x, lens[li], 2, shape), 0);
				/* memory: a few rounds held, at most max stored */
				CHECK(x.max_held <= 3 + (size_t)(c.window + 1) * c.round_intervals);
				CHECK(x.sink.stored.nr <= max);
				steady_init(&ref);
				CHECK_EQ_U(steady_analyse(&c, &x.full, &ref), 0);
				CHECK_EQ_U(series_sink_finish(&x.sink, &s, &st), 0);
				series_init(&bound);
				CHECK_EQ_U(series_merge(&bound, &x.full), 0);	/* a copy */
				CHECK_EQ_U(series_bound(&bound, max), 0);
				if (!s || !st) {
					CHECK(0);
					goto next;
				}
				same_series(s, &bound);
				same_steady(st, &ref);
				CHECK(ref.tail != NULL);
				CHECK(st->tail != NULL);
				if (!ref.tail || !st->tail)
					goto next;
				if (ref.tail->from_window) {
					/* exact from the window, whatever the stored resolution */
					CHECK_EQ_U(st->tail->from_window, 1);
					CHECK_EQ_U(st->tail->start_ms, ref.tail->start_ms);
					CHECK_EQ_U(st->tail->intervals, ref.tail->intervals);
					SAME_D(st->tail->iops, ref.tail->iops);
					for (int d = 0; d < DDIR_NR; d++)
						if (st->tail->dir[d] && ref.tail->dir[d])
							CHECK(memcmp(st->tail->dir[d], ref.tail->dir[d],
								     sizeof(*st->tail->dir[d])) == 0);
				} else {
					/* from the first stored element at or after MSER's point */
					CHECK_EQ_U(st->tail->from_window, 0);
					CHECK(st->tail->start_ms >= ref.tail->start_ms);
					CHECK(st->tail->intervals <= ref.tail->intervals);
					CHECK(st->tail->intervals + st->tail->element_intervals > ref.tail->intervals);
					CHECK(st->tail->element_intervals > 1);
				}
				CHECK_EQ_U(st->tail->end_ms, ref.tail->end_ms);
next:
				series_free(&bound);
				steady_free(&ref);
				steady_free(st);
				free(st);
				series_free(s);
				free(s);
				run_free(&x);
			}
}

/* The sink's memory after 2,000 and after 20,000 intervals: the same bound. */
TEST(memory_bounded)
{
	struct steady_cfg c;
	struct run a, b;
	size_t ma, mb;

	rng_state = 13;
	steady_cfg_snia(&c, 0);
	CHECK_EQ_U(run_init(&a, &c, 64), 0);
	CHECK_EQ_U(run_init(&b, &c, 64), 0);
	CHECK_EQ_U(feed(&a, 2000, 0, 3), 0);
	CHECK_EQ_U(feed(&b, 20000, 0, 3), 0);
	ma = series_sink_mem(&a.sink) + series_mem(&a.recent);
	mb = series_sink_mem(&b.sink) + series_mem(&b.recent);
	printf("  sink + recent: %zu bytes after 2000, %zu after 20000 intervals\n", ma, mb);
	CHECK(mb < ma + ma / 4);
	CHECK(b.sink.stored.nr <= 64);
	CHECK(b.max_held <= 8);
	run_free(&a);
	run_free(&b);
}

/* One thread's next interval: @ramp, about @dur_us long, level @level IOPS. */
static int thr_add(struct series *s, uint64_t *t_ms, int ramp, uint64_t dur_us, double level)
{
	static struct hist h[DDIR_NR];
	struct series_in in[DDIR_NR];

	*t_ms += (dur_us + 500) / 1000;
	memset(in, 0, sizeof(in));
	for (int d = 0; d < DDIR_NR; d++) {
		uint64_t ios = d == 2 ? 0 : (uint64_t)(level * (0.85 + 0.3 * unif()) * (double)dur_us / 1e6);

		memset(&h[d], 0, sizeof(h[d]));
		in[d].lat_min = UINT64_MAX;
		if (ios < 3)
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
	return series_add(s, *t_ms, dur_us, ramp, in);
}

/*
 * group_reporting: three threads with different ramps (2, 3 and 0
 * intervals) and lengths, pulled while they run (one interval per thread
 * per step, threads trimmed to what the group still needs) give the series
 * series_merge gives on the whole series, bounded as series_bound bounds
 * it, and steady_analyse's verdict, window and MSER on that merged series.
 */
TEST(group_merged_as_it_runs)
{
	static const size_t ramps[3] = { 2, 3, 0 }, lens[3] = { 600, 580, 610 };
	static const size_t maxes[2] = { 0, 40 };

	rng_state = 14;
	for (int mi = 0; mi < 2; mi++) {
		struct series full[3], thr[3], merged, bound, *s = NULL;
		const struct series *tp[3];
		struct steady_cfg c;
		struct steady ref, *st = NULL;
		struct series_group g;
		uint64_t t_ms[3] = { 0, 0, 0 };
		int done[3] = { 0, 0, 0 };
		size_t held = 0;

		steady_cfg_snia(&c, 0);
		CHECK_EQ_U(series_group_init(&g, &c, maxes[mi]), 0);
		for (int t = 0; t < 3; t++) {
			series_init(&full[t]);
			series_init(&thr[t]);
			tp[t] = &thr[t];
		}
		for (size_t i = 0; i < 620; i++) {
			for (int t = 0; t < 3; t++) {
				uint64_t dur = 1000000 - 5000 + rnd() % 10000;
				double level = i < 100 ? 300 + 7.0 * (double)i : 1000;
				uint64_t save = t_ms[t], save_rng = rng_state;

				if (i >= lens[t]) {
					done[t] = 1;
					continue;
				}
				if (i == lens[t] - 1)
					dur = 30000;	/* a sliver, folded into the one before */
				CHECK_EQ_U(thr_add(&full[t], &t_ms[t], i < ramps[t], dur, level), 0);
				t_ms[t] = save;
				rng_state = save_rng;
				CHECK_EQ_U(thr_add(&thr[t], &t_ms[t], i < ramps[t], dur, level), 0);
			}
			CHECK_EQ_U(series_group_pull(&g, tp, done, 3), 0);
			for (int t = 0; t < 3; t++) {
				series_trim(&thr[t], series_group_hold(&g, &thr[t]));
				if (thr[t].nr > held)
					held = thr[t].nr;
			}
		}
		for (int t = 0; t < 3; t++)
			done[t] = 1;
		CHECK_EQ_U(series_group_pull(&g, tp, done, 3), 0);
		printf("  most intervals a thread held: %zu\n", held);
		CHECK(held <= 6);	/* each thread holds only what the group has not built (the longest ramp) */
		series_init(&merged);
		for (int t = 0; t < 3; t++)
			CHECK_EQ_U(series_merge(&merged, &full[t]), 0);
		steady_init(&ref);
		CHECK_EQ_U(steady_analyse(&c, &merged, &ref), 0);
		series_init(&bound);
		CHECK_EQ_U(series_merge(&bound, &merged), 0);
		CHECK_EQ_U(series_bound(&bound, maxes[mi]), 0);
		CHECK_EQ_U(series_group_finish(&g, &s, &st), 0);
		CHECK(s && st);
		if (s && st) {
			CHECK_EQ_U(s->nr_ramp, maxes[mi] ? bound.nr_ramp : 3);
			same_series(s, &bound);
			same_steady(st, &ref);
			if (!maxes[mi])
				same_tail(st->tail, ref.tail);
		}
		steady_free(&ref);
		steady_free(st);
		free(st);
		series_free(s);
		free(s);
		series_free(&merged);
		series_free(&bound);
		for (int t = 0; t < 3; t++) {
			series_free(&full[t]);
			series_free(&thr[t]);
		}
		series_group_free(&g);
	}
}

/*
 * MPI ranks bound their series apart, possibly to different levels: brought
 * to the coarsest one (series_coarsen_to) and merged, they equal the merge
 * of the full series coarsened to that level -- exact merging of coarsened
 * intervals, in either order.
 */
TEST(merge_at_common_level)
{
	struct series a, b, fa, fb, ref;
	uint64_t ta = 0, tb = 0;

	rng_state = 15;
	series_init(&a);
	series_init(&b);
	for (size_t i = 0; i < 700; i++) {
		uint64_t dur = 1000000 - 5000 + rnd() % 10000;

		CHECK_EQ_U(thr_add(&a, &ta, i < 3, dur, 1000), 0);
		if (i < 650)
			CHECK_EQ_U(thr_add(&b, &tb, i < 3, dur, 700), 0);
	}
	series_init(&ref);
	CHECK_EQ_U(series_merge(&ref, &a), 0);
	CHECK_EQ_U(series_merge(&ref, &b), 0);
	series_init(&fa);
	series_init(&fb);
	CHECK_EQ_U(series_merge(&fa, &a), 0);
	CHECK_EQ_U(series_merge(&fb, &b), 0);
	CHECK_EQ_U(series_bound(&fa, 100), 0);	/* level 8 */
	CHECK_EQ_U(series_bound(&fb, 200), 0);	/* level 4 */
	CHECK_EQ_U(series_level(&fa), 8);
	CHECK_EQ_U(series_level(&fb), 4);
	CHECK_EQ_U(series_coarsen_to(&fb, series_level(&fa)), 0);
	CHECK_EQ_U(series_level(&fb), 8);
	CHECK_EQ_U(series_merge(&fb, &fa), 0);
	CHECK_EQ_U(series_coarsen_to(&ref, 8), 0);
	same_series(&fb, &ref);
	series_free(&a);
	series_free(&b);
	series_free(&fa);
	series_free(&fb);
	series_free(&ref);
}

int main(void)
{
	RUN(merge_at_common_level);
	RUN(group_merged_as_it_runs);
	RUN(uncoarsened_same_as_batch);
	RUN(coarsened_bounded_exact);
	RUN(memory_bounded);
	return CHECK_DONE();
}
