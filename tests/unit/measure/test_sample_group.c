/*
 * test_sample_group: bounded memory (docs/time-series.md, long runs).  A group's bw/iops figures streamed while its
 * threads run (sample_group) are those of the whole-array computation run.c
 * did at the end (threads' samples added period by period, then
 * min/max/mean/stddev over the sums): bit-identical on random data, with
 * threads of different lengths pulled at random moments, while each thread
 * keeps only the periods not complete in every thread.
 */
#include "check.h"
#include "measure/sample_group.h"

#include <stdlib.h>
#include <string.h>

#define MAXT 6
#define MAXN 400

static unsigned rs;

static unsigned rnd(unsigned m)
{
	rs = rs * 1103515245u + 12345u;
	return (rs >> 8) % m;
}

/* The old computation: all samples kept, summed per period at the end. */
static void whole(double v[MAXT][DDIR_NR][MAXN][2], const size_t cnt[MAXT][DDIR_NR], size_t n,
		  struct sample_stat *bw, struct sample_stat *io, int d)
{
	size_t nmax = 0;

	for (size_t t = 0; t < n; t++)
		if (cnt[t][d] > nmax)
			nmax = cnt[t][d];
	sample_stat_init(bw);
	sample_stat_init(io);
	for (size_t k = 0; k < nmax; k++) {
		double b = 0, i = 0;

		for (size_t t = 0; t < n; t++) {
			if (k >= cnt[t][d])
				continue;
			b += v[t][d][k][0];
			i += v[t][d][k][1];
		}
		sample_stat_add(bw, b);
		sample_stat_add(io, i);
	}
}

static int same(const struct sample_stat *a, const struct sample_stat *b)
{
	return a->n == b->n && (!a->n || (a->min == b->min && a->max == b->max &&
					  a->mean == b->mean && a->m2 == b->m2));
}

static void run_case(unsigned seed)
{
	static double v[MAXT][DDIR_NR][MAXN][2];
	size_t cnt[MAXT][DDIR_NR], pushed[MAXT][DDIR_NR], n, most_kept = 0;
	struct sample_seq seq[MAXT][DDIR_NR], *q[MAXT];
	int done[MAXT];
	unsigned dirs[MAXT];
	struct sample_group g;

	rs = seed;
	n = 1 + rnd(MAXT);
	memset(seq, 0, sizeof(seq));
	memset(pushed, 0, sizeof(pushed));
	for (size_t t = 0; t < n; t++) {
		size_t len = rnd(MAXN);

		q[t] = seq[t];
		done[t] = 0;
		dirs[t] = 0;
		for (int d = 0; d < DDIR_NR; d++) {
			/* a direction may be idle in some threads; lengths differ a little */
			cnt[t][d] = d == 2 && rnd(2) ? 0 : len - (len ? rnd(len < 3 ? len : 3) : 0);
			if (cnt[t][d])
				dirs[t] |= 1u << d;	/* the job issues it */
			for (size_t k = 0; k < cnt[t][d]; k++) {
				v[t][d][k][0] = rnd(4) ? (double)rnd(1u << 20) / 7.0 : 0;
				v[t][d][k][1] = (double)rnd(100000) / 3.0;
			}
		}
	}
	sample_group_init(&g);
	for (size_t step = 0, all = 0; !all; step++) {
		/* some threads push a few samples, some finish, then a pull */
		all = 1;
		for (size_t t = 0; t < n; t++) {
			if (done[t])
				continue;
			for (int d = 0; d < DDIR_NR; d++) {
				/* the threads keep time within a few periods of each other */
				size_t want = step + rnd(5);

				for (; pushed[t][d] < want && pushed[t][d] < cnt[t][d]; pushed[t][d]++)
					CHECK_EQ_U(sample_seq_push(&seq[t][d], v[t][d][pushed[t][d]][0],
								   v[t][d][pushed[t][d]][1]), 0);
			}
			done[t] = pushed[t][0] == cnt[t][0] && pushed[t][1] == cnt[t][1] &&
				  pushed[t][2] == cnt[t][2];	/* ends after its last sample */
			all &= done[t];
		}
		sample_group_pull(&g, q, done, dirs, n);
		for (size_t t = 0; t < n; t++)
			for (int d = 0; d < DDIR_NR; d++)
				if (seq[t][d].nr > most_kept)
					most_kept = seq[t][d].nr;
	}
	for (int d = 0; d < DDIR_NR; d++) {
		struct sample_stat bw, io;

		whole(v, cnt, n, &bw, &io, d);
		CHECK(same(&g.bw_kib[d], &bw));
		CHECK(same(&g.iops[d], &io));
		CHECK_EQ_U(g.out[d], bw.n);
		for (size_t t = 0; t < n; t++) {
			CHECK_EQ_U(seq[t][d].nr, 0);	/* all taken */
			sample_seq_free(&seq[t][d]);
		}
	}
	/* only the periods some thread has not reached: a few, not the run's length */
	CHECK(most_kept <= 8);
}

TEST(streamed_equals_whole_array)
{
	for (unsigned seed = 1; seed <= 300; seed++)
		run_case(seed);
}

int main(void)
{
	RUN(streamed_equals_whole_array);
	return CHECK_DONE();
}
