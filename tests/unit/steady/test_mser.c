/*
 * test_mser: MSER-5's truncation point on batch means worked out by hand
 * (MSER(d) = sum of squared deviations of batches d..k-1 / (k-d)^2), the
 * first-half search limit, ties and the reported mean, sd and 95% half-width.
 */
#include "check.h"
#include "steady/mser.h"

#include <errno.h>
#include <math.h>

/* A flat series is not truncated: every MSER(d) is 0, the tie goes to d = 0. */
TEST(flat)
{
	double b[4] = { 5, 5, 5, 5 };
	struct mser m;

	CHECK_EQ_U(mser_compute(b, 4, &m), 0);
	CHECK_EQ_U(m.truncate, 0);
	CHECK_EQ_U(m.batches, 4);
	CHECK_NEAR(m.mean, 5, 1e-12);
	CHECK_NEAR(m.sd, 0, 1e-12);
	CHECK_NEAR(m.ci95, 0, 1e-12);
}

/*
 * [10, 4, 4, 4, 4, 4]: MSER(0) = (25 + 5 x 1) / 36 = 0.833, MSER(1..3) = 0:
 * one batch of warm-up, the tie among 1..3 goes to 1.
 */
TEST(one_batch_warmup)
{
	double b[6] = { 10, 4, 4, 4, 4, 4 };
	struct mser m;

	CHECK_EQ_U(mser_compute(b, 6, &m), 0);
	CHECK_EQ_U(m.truncate, 1);
	CHECK_EQ_U(m.batches, 5);
	CHECK_NEAR(m.mean, 4, 1e-12);
	CHECK_NEAR(m.stat, 0, 1e-12);
}

/*
 * [0, 6, 4, 6, 4]: MSER(0) = 24 / 25 = 0.96; MSER(1) = 4 / 16 = 0.25;
 * MSER(2) = 2.667 / 9 = 0.296.  d = 1, mean 5, sd sqrt(4/3), and the
 * half-width t(0.975, 3) = 3.182446 x sd / 2.
 */
TEST(hand_worked)
{
	double b[5] = { 0, 6, 4, 6, 4 };
	struct mser m;

	CHECK_EQ_U(mser_compute(b, 5, &m), 0);
	CHECK_EQ_U(m.truncate, 1);
	CHECK_EQ_U(m.batches, 4);
	CHECK_NEAR(m.stat, 0.25, 1e-12);
	CHECK_NEAR(m.mean, 5, 1e-12);
	CHECK_NEAR(m.sd, sqrt(4.0 / 3.0), 1e-12);
	CHECK_NEAR(m.ci95, 3.182446 * sqrt(4.0 / 3.0) / 2.0, 1e-5);
}

/*
 * [1, 2, 3, 4, 5, 6, 6, 6]: d = 6 would give MSER 0 (two equal batches), but
 * the search stops at k / 2 = 4: MSER(4) = 0.75 / 16 = 0.047 beats
 * MSER(3) = 3.2 / 25 = 0.128.
 */
TEST(first_half_only)
{
	double b[8] = { 1, 2, 3, 4, 5, 6, 6, 6 };
	struct mser m;

	CHECK_EQ_U(mser_compute(b, 8, &m), 0);
	CHECK_EQ_U(m.truncate, 4);
	CHECK_NEAR(m.stat, 0.75 / 16, 1e-12);
	CHECK_NEAR(m.mean, 5.75, 1e-12);
}

/*
 * Large values close together: the centred sums keep the digits.  MSER(1) =
 * 2 / 25, MSER(2) = 2 / 16, MSER(3) = 2 / 9.
 */
TEST(large_values)
{
	double b[6] = { 1e6, 5242880, 5242880, 5242881, 5242879, 5242880 };
	struct mser m;

	CHECK_EQ_U(mser_compute(b, 6, &m), 0);
	CHECK_EQ_U(m.truncate, 1);
	CHECK_NEAR(m.mean, 5242880, 1e-6);
	CHECK_NEAR(m.sd, sqrt(2.0 / 4.0), 1e-6);
}

TEST(bad_input)
{
	double b[3] = { 1, NAN, 2 };
	struct mser m;

	CHECK(mser_compute(b, 2, &m) == -EINVAL);
	CHECK(mser_compute(b, 3, &m) == -EINVAL);
	CHECK_NEAR(mser_ci95(1.0, 1), 0, 0);
}

int main(void)
{
	RUN(flat);
	RUN(one_batch_warmup);
	RUN(hand_worked);
	RUN(first_half_only);
	RUN(large_values);
	RUN(bad_input);
	return CHECK_DONE();
}
