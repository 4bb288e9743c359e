/*
 * test_rate: linear schedules are exactly evenly spaced; Poisson schedules
 * have the requested mean rate and exponential gaps.
 */
#include <stdint.h>
#include "check.h"
#include "job_fixture.h"
#include "io/rate.h"

TEST(disabled_by_default)
{
	struct job j;
	struct rate r;

	fixture_job(&j, RW_READ, 4096, 1 << 20);
	CHECK_EQ_U(rate_init(&r, &j, 0, NULL), 0);
	CHECK(!rate_enabled(&r));
	CHECK_EQ_U(rate_next_ns(&r, DDIR_READ, 4096), 0);
}

TEST(linear_bytes_exact)
{
	struct job j;
	struct rate r;
	uint64_t k, bad = 0;

	fixture_job(&j, RW_READ, 4096, 1 << 20);
	j.rate[DDIR_READ] = 1048576;	/* 1 MiB/s: a 4 KiB I/O every 3906250 ns */
	CHECK_EQ_U(rate_init(&r, &j, 0, NULL), 0);
	CHECK(rate_enabled(&r));
	for (k = 0; k < 100000; k++) {
		uint64_t t = rate_next_ns(&r, DDIR_READ, 4096), want = k * 3906250;

		bad += t + 1 < want || t > want + 1;
	}
	CHECK_EQ_U(bad, 0);
	/* writes are not limited */
	CHECK_EQ_U(rate_next_ns(&r, DDIR_WRITE, 4096), 0);
	CHECK_EQ_U(rate_next_ns(&r, DDIR_WRITE, 4096), 0);
	/* 3 GB/s over an hour of bytes: 3600 s within a ns per second */
	j.rate[DDIR_READ] = 3000000000ull;
	rate_init(&r, &j, 0, NULL);
	rate_next_ns(&r, DDIR_READ, 1);
	r.bytes[DDIR_READ] = 3600 * 3000000000ull;
	CHECK_NEAR((double)rate_next_ns(&r, DDIR_READ, 4096), 3600e9, 3600);
}

TEST(linear_iops_and_both)
{
	struct job j;
	struct rate r;
	uint64_t k, bad = 0;

	fixture_job(&j, RW_WRITE, 4096, 1 << 20);
	j.rate_iops[DDIR_WRITE] = 3000;	/* 333333.33 ns apart */
	CHECK_EQ_U(rate_init(&r, &j, 0, NULL), 0);
	for (k = 0; k < 30000; k++) {
		uint64_t t = rate_next_ns(&r, DDIR_WRITE, 65536);
		uint64_t want = k * 1000000000ull / 3000;

		bad += t + 1 < want || t > want + 1;
	}
	CHECK_EQ_U(bad, 0);
	/* both limits: the slower wins. 1000 IOPS and 1 MB/s with 4000-byte I/Os:
	 * bytes allow one per 4 ms, IOPS one per 1 ms */
	j.rate[DDIR_WRITE] = 1000000;
	j.rate_iops[DDIR_WRITE] = 1000;
	rate_init(&r, &j, 0, NULL);
	rate_next_ns(&r, DDIR_WRITE, 4000);
	CHECK_EQ_U(rate_next_ns(&r, DDIR_WRITE, 4000), 4000000);
	/* after a reset, 100-byte I/Os: bytes allow one per 0.1 ms, IOPS one per 1 ms */
	rate_reset(&r);
	CHECK_EQ_U(rate_next_ns(&r, DDIR_WRITE, 100), 0);
	CHECK_EQ_U(rate_next_ns(&r, DDIR_WRITE, 100), 1000000);
	CHECK_EQ_U(rate_next_ns(&r, DDIR_WRITE, 100), 2000000);
}

TEST(poisson_rate_and_shape)
{
	struct job j;
	struct rate r, r2;
	uint64_t prev = 0, t = 0, k, n = 100000, over = 0, same = 1;
	double sum = 0, sq = 0, mean = 100000;	/* 10000 IOPS: 100 us mean gap */

	fixture_job(&j, RW_READ, 4096, 1 << 20);
	j.rate_iops[DDIR_READ] = 10000;
	j.rate_process = RATE_POISSON;
	CHECK_EQ_U(rate_init(&r, &j, 0, NULL), 0);
	CHECK_EQ_U(rate_init(&r2, &j, 0, NULL), 0);
	for (k = 0; k < n; k++) {
		double gap;

		t = rate_next_ns(&r, DDIR_READ, 4096);
		same &= t == rate_next_ns(&r2, DDIR_READ, 4096);
		gap = (double)(t - prev);
		prev = t;
		sum += gap;
		sq += gap * gap;
		over += gap > mean;
	}
	/* n gaps of mean 100 us: total 10 s, within 1% (the sd is 0.3%) */
	CHECK_NEAR((double)t / (n * mean), 1.0, 0.01);
	/* exponential: P(gap > mean) = 1/e, and sd = mean */
	CHECK_NEAR((double)over / n, exp(-1), 0.006);
	CHECK_NEAR(sqrt(sq / n - (sum / n) * (sum / n)) / mean, 1.0, 0.02);
	CHECK(same);	/* randrepeat: the same schedule */
	/* a byte rate: mean gap = len / rate = 4096 / 4096000 = 1 ms */
	j.rate_iops[DDIR_READ] = 0;
	j.rate[DDIR_READ] = 4096000;
	rate_init(&r, &j, 1, NULL);
	for (k = 0; k < 20000; k++)
		t = rate_next_ns(&r, DDIR_READ, 4096);
	CHECK_NEAR((double)t / 20000e6, 1.0, 0.03);
}

int main(void)
{
	RUN(disabled_by_default);
	RUN(linear_bytes_exact);
	RUN(linear_iops_and_both);
	RUN(poisson_rate_and_shape);
	return CHECK_DONE();
}
