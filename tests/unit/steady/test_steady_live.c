/*
 * test_steady_live: the streaming tracker behind "steady since" status
 * lines, fed one interval at a time: it finds the same first window as
 * steady_find, loses it at the same round, and then finds the new level.
 * Memory is W values whatever the length.
 */
#include "check.h"
#include "steady/steady_live.h"

static void feed(struct steady_live *l, const struct steady_cfg *c, double iops, uint64_t i, int ramp)
{
	struct series_iv iv;
	struct steady_live_iv acc;

	memset(&iv, 0, sizeof(iv));
	memset(&acc, 0, sizeof(acc));
	iv.t_ms = (i + 1) * 1000;
	iv.dur_us = 1000000;
	iv.ramp = (uint32_t)ramp;
	iv.d[DDIR_READ].ios = (uint64_t)iops;
	iv.d[DDIR_READ].lat_sum_ns = (uint64_t)iops * 2000;
	steady_live_pick(c, &iv, &acc);
	steady_live_pick(c, &iv, &acc);	/* a second thread, same interval: sums */
	steady_live_add(l, &acc);
}

TEST(step_down_and_back)
{
	struct steady_cfg c;
	struct steady_live l;
	uint64_t i;

	steady_cfg_snia(&c, 0);
	CHECK_EQ_U(steady_live_init(&l, &c), 0);
	for (i = 0; i < 2; i++)
		feed(&l, &c, 50, i, 1);		/* ramp: ignored */
	for (; i < 6; i++)
		feed(&l, &c, 2000, i, 0);
	CHECK_EQ_U(l.state, STEADY_LIVE_SEARCHING);	/* 4 rounds */
	feed(&l, &c, 2000, i++, 0);
	CHECK_EQ_U(l.state, STEADY_LIVE_STEADY);
	CHECK_EQ_U(l.since_ms, 2000);
	CHECK_NEAR(l.lo, 3200, 1e-9);	/* 2 threads x 2000, +-20% */
	CHECK_NEAR(l.hi, 4800, 1e-9);
	for (; i < 10; i++)
		feed(&l, &c, 2000, i, 0);
	feed(&l, &c, 600, i++, 0);
	CHECK_EQ_U(l.state, STEADY_LIVE_LOST);
	CHECK_EQ_U(l.lost_ms, 10000);
	for (; i < 15; i++)
		feed(&l, &c, 600, i, 0);
	CHECK_EQ_U(l.state, STEADY_LIVE_STEADY);	/* rounds 10..14 */
	CHECK_EQ_U(l.since_ms, 10000);
	for (; i < 100000; i++)		/* long runs: no growth, still steady */
		feed(&l, &c, 600, i, 0);
	CHECK_EQ_U(l.state, STEADY_LIVE_STEADY);
	CHECK(l.nr <= c.window);
	steady_live_free(&l);
}

TEST(off)
{
	struct steady_cfg c;
	struct steady_live l;

	memset(&c, 0, sizeof(c));
	CHECK_EQ_U(steady_live_init(&l, &c), 0);
	feed(&l, &c, 1000, 0, 0);
	CHECK_EQ_U(l.state, STEADY_LIVE_SEARCHING);
	CHECK(l.v == NULL);
	steady_live_free(&l);
}

int main(void)
{
	RUN(step_down_and_back);
	RUN(off);
	return CHECK_DONE();
}
