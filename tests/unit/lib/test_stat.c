/*
 * test_stat: exact moments from the integer accumulator, against a naive
 * two-pass computation in long double; Chan merges; Welford sample stats.
 */
#include <stdint.h>
#include "check.h"
#include "lib/stat.h"

/*
 * The reference: two passes in long double over v - min (exact integers, so
 * values near 2^62 do not lose their low bits before the subtraction).
 */
static void ref_moments(const uint64_t *v, size_t n, long double *mean, long double *m2)
{
	long double s = 0, d, mu;
	uint64_t lo = UINT64_MAX;
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] < lo)
			lo = v[i];
	for (i = 0; i < n; i++)
		s += (long double)(v[i] - lo);
	mu = s / (long double)n;
	*mean = (long double)lo + mu;
	*m2 = 0;
	for (i = 0; i < n; i++) {
		d = (long double)(v[i] - lo) - mu;
		*m2 += d * d;
	}
}

static void acc_of(const uint64_t *v, size_t n, struct moments *m)
{
	struct lat_acc a;
	size_t i;

	lat_acc_init(&a);
	for (i = 0; i < n; i++)
		lat_acc_add(&a, v[i]);
	lat_acc_moments(&a, m);
}

static int rel_close(long double a, long double b, long double tol)
{
	long double d = a - b;

	if (d < 0)
		d = -d;
	return d <= tol * (b < 0 ? -b : b) || d <= tol;
}

TEST(small_by_hand)
{
	uint64_t v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };	/* mean 5, M2 32 */
	struct moments m;

	acc_of(v, 8, &m);
	CHECK_EQ_U(m.n, 8);
	CHECK_EQ_U(m.min, 2);
	CHECK_EQ_U(m.max, 9);
	CHECK_NEAR(m.mean, 5.0, 0);
	CHECK_NEAR(m.m2, 32.0, 0);
	CHECK_NEAR(moments_stddev(&m), sqrt(32.0 / 7.0), 1e-15);
}

TEST(empty_and_single)
{
	struct moments m;
	uint64_t one = 123456789;

	acc_of(NULL, 0, &m);
	CHECK_EQ_U(m.n, 0);
	CHECK_EQ_U(m.min, 0);
	CHECK_EQ_U(m.max, 0);
	CHECK_NEAR(m.mean, 0, 0);
	CHECK_NEAR(moments_stddev(&m), 0, 0);
	acc_of(&one, 1, &m);
	CHECK_EQ_U(m.min, one);
	CHECK_EQ_U(m.max, one);
	CHECK_NEAR(m.mean, 123456789.0, 0);
	CHECK_NEAR(moments_stddev(&m), 0, 0);
}

TEST(constant_values_have_zero_spread)
{
	static uint64_t v[10000];
	struct moments m;
	size_t i;

	for (i = 0; i < 10000; i++)
		v[i] = 987654321123ull;
	acc_of(v, 10000, &m);
	CHECK_NEAR(m.m2, 0, 0);
	CHECK_NEAR(m.mean, 987654321123.0, 0);
	CHECK_NEAR(moments_stddev(&m), 0, 0);
}

TEST(huge_values_small_spread)
{
	/* around 2^62 with a spread of a few hundred: naive double sums lose it all */
	static uint64_t v[5000];
	long double rm, rm2;
	struct moments m;
	size_t i;

	for (i = 0; i < 5000; i++)
		v[i] = (1ull << 62) + (i * 7919) % 1000;
	acc_of(v, 5000, &m);
	ref_moments(v, 5000, &rm, &rm2);
	CHECK(rel_close(m.m2, rm2, 1e-12L));
	CHECK(rel_close(m.mean, rm, 1e-15L));
	CHECK(m.m2 > 1e8);	/* the spread survived */
}

TEST(outlier_first_sample)
{
	/* the shift is the first sample: make it far from the rest */
	static uint64_t v[20001];
	long double rm, rm2;
	struct moments m;
	size_t i;

	v[0] = 10000000000ull;	/* 10 s */
	for (i = 1; i <= 20000; i++)
		v[i] = 100000 + (i * 104729) % 2000;	/* ~100 us +- 1 us */
	acc_of(v, 20001, &m);
	ref_moments(v, 20001, &rm, &rm2);
	CHECK(rel_close(m.m2, rm2, 1e-10L));
	CHECK(rel_close(m.mean, rm, 1e-14L));
}

TEST(merge_of_parts_equals_whole)
{
	static uint64_t v[30000];
	struct moments whole, a, b, c, sum;
	uint64_t x = 1;
	size_t i;

	for (i = 0; i < 30000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		v[i] = 50000 + (x >> 40) % 100000 + (i > 20000 ? 5000000 : 0);
	}
	acc_of(v, 30000, &whole);
	acc_of(v, 1000, &a);
	acc_of(v + 1000, 19000, &b);
	acc_of(v + 20000, 10000, &c);
	moments_init(&sum);
	moments_merge(&sum, &a);
	moments_merge(&sum, &b);
	moments_merge(&sum, &c);
	CHECK_EQ_U(sum.n, whole.n);
	CHECK_EQ_U(sum.min, whole.min);
	CHECK_EQ_U(sum.max, whole.max);
	CHECK(rel_close(sum.mean, whole.mean, 1e-14L));
	CHECK(rel_close(sum.m2, whole.m2, 1e-12L));
	/* an empty side is the identity, in both directions */
	moments_init(&a);
	moments_merge(&sum, &a);
	CHECK_EQ_U(sum.min, whole.min);
	moments_merge(&a, &sum);
	CHECK_EQ_U(a.n, whole.n);
	CHECK_EQ_U(a.min, whole.min);
	CHECK_NEAR(a.m2, sum.m2, 0);
}

TEST(sample_stat_welford_and_merge)
{
	double v[] = { 10, 20, 30, 40, 50, 60, 70 };	/* mean 40, M2 2800 */
	struct sample_stat s, a, b;
	int i;

	sample_stat_init(&s);
	CHECK_NEAR(sample_stat_stddev(&s), 0, 0);
	for (i = 0; i < 7; i++)
		sample_stat_add(&s, v[i]);
	CHECK_EQ_U(s.n, 7);
	CHECK_NEAR(s.mean, 40, 1e-12);
	CHECK_NEAR(s.m2, 2800, 1e-9);
	CHECK_NEAR(s.min, 10, 0);
	CHECK_NEAR(s.max, 70, 0);
	CHECK_NEAR(sample_stat_stddev(&s), sqrt(2800.0 / 6), 1e-12);
	sample_stat_init(&a);
	sample_stat_init(&b);
	for (i = 0; i < 3; i++)
		sample_stat_add(&a, v[i]);
	for (i = 3; i < 7; i++)
		sample_stat_add(&b, v[i]);
	sample_stat_merge(&a, &b);
	CHECK_EQ_U(a.n, 7);
	CHECK_NEAR(a.mean, 40, 1e-12);
	CHECK_NEAR(a.m2, 2800, 1e-9);
	CHECK_NEAR(a.min, 10, 0);
	CHECK_NEAR(a.max, 70, 0);
	sample_stat_init(&b);
	sample_stat_merge(&b, &a);
	CHECK_NEAR(b.min, 10, 0);
	CHECK_NEAR(b.m2, 2800, 1e-9);
}

/*
 * lat_acc_add_n(v, k) leaves the accumulator exactly as k lat_acc_add(v):
 * runs of equal values mixed with single ones, the first run setting the
 * shift, values that go below the shift (negative deviations).
 */
TEST(add_n_equals_repeated_add)
{
	static const uint64_t val[] = { 5000, 4000, 4000, 123456789, 1, 5000, 77 };
	static const uint64_t cnt[] = { 3, 1, 7, 2, 32, 1, 1000 };
	struct lat_acc one, run;
	unsigned i;
	uint64_t k;

	lat_acc_init(&one);
	lat_acc_init(&run);
	for (i = 0; i < sizeof(val) / sizeof(val[0]); i++) {
		for (k = 0; k < cnt[i]; k++)
			lat_acc_add(&one, val[i]);
		lat_acc_add_n(&run, val[i], cnt[i]);
	}
	CHECK_EQ_U(run.n, one.n);
	CHECK_EQ_U(run.n, 1046);
	CHECK_EQ_U(run.min, 1);
	CHECK_EQ_U(run.max, 123456789);
	CHECK_EQ_U(run.shift, one.shift);
	CHECK(run.sum == one.sum);
	CHECK(run.sumsq == one.sumsq);
}

int main(void)
{
	RUN(small_by_hand);
	RUN(empty_and_single);
	RUN(constant_values_have_zero_spread);
	RUN(huge_values_small_spread);
	RUN(outlier_first_sample);
	RUN(merge_of_parts_equals_whole);
	RUN(sample_stat_welford_and_merge);
	RUN(add_n_equals_repeated_add);
	return CHECK_DONE();
}
