/*
 * Tests for abstat.  Reference values come from closed forms (t with 1 and 2
 * degrees of freedom), printed t tables, Wikipedia's Welch example, and
 * python3 with the math module only: Simpson integration of the t density
 * for p-values, full enumeration of rank arrangements for exact Mann-Whitney
 * p-values, and the tie-corrected normal formula written out by hand.
 */
#include <errno.h>
#include "lib/abstat.h"
#include "trial/abstat_boot.h"
#include "check.h"

#define NEL(x) (sizeof(x) / sizeof((x)[0]))

TEST(describe_basic)
{
	const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct abstat_desc d;

	abstat_describe(x, NEL(x), &d);
	CHECK_EQ_U(d.n, 8);
	CHECK_NEAR(d.mean, 5, 1e-12);
	CHECK_NEAR(d.sd, sqrt(32.0 / 7), 1e-12);	/* sum of squares 32, n - 1 */
	CHECK_NEAR(d.cv, sqrt(32.0 / 7) / 5, 1e-12);
}

TEST(describe_one_run)
{
	const double x[] = { 78000 };
	struct abstat_desc d;

	abstat_describe(x, 1, &d);
	CHECK_EQ_U(d.n, 1);
	CHECK_NEAR(d.mean, 78000, 0);
	CHECK(isnan(d.sd));
	CHECK(isnan(d.cv));
}

TEST(betai_known)
{
	/* I_x(1, 1) = x; I_x(a, 1) = x^a; I_x(1, b) = 1 - (1 - x)^b */
	CHECK_NEAR(abstat_betai(1, 1, 0.3), 0.3, 1e-14);
	CHECK_NEAR(abstat_betai(3.5, 1, 0.6), pow(0.6, 3.5), 1e-13);
	CHECK_NEAR(abstat_betai(1, 4, 0.2), 1 - pow(0.8, 4), 1e-13);
	/* symmetry I_x(a, b) = 1 - I_(1-x)(b, a), both branches of the CF */
	CHECK_NEAR(abstat_betai(2.5, 7, 0.8), 1 - abstat_betai(7, 2.5, 0.2), 1e-13);
	CHECK(isnan(abstat_betai(0, 1, 0.5)));
	CHECK(isnan(abstat_betai(1, 1, 1.5)));
}

TEST(t_cdf_closed_forms)
{
	const double ts[] = { -7, -1.5, -0.2, 0, 0.3, 1, 2.5, 40 };
	size_t i;

	for (i = 0; i < NEL(ts); i++) {
		double t = ts[i];

		/* df = 1 is Cauchy; df = 2 has t / (2 sqrt(2 + t^2)) */
		CHECK_NEAR(abstat_t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-12);
		CHECK_NEAR(abstat_t_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)), 1e-12);
	}
}

TEST(t_cdf_fractional_df)
{
	/* python3 Simpson integration of the t density (see file header) */
	CHECK_NEAR(1 - abstat_t_cdf(2.0, 3.5), 0.06306926128795583, 1e-9);
	CHECK_NEAR(1 - abstat_t_cdf(1.3, 7.25), 0.11670181692169411, 1e-9);
	CHECK_NEAR(abstat_t_cdf(-1.3, 7.25), 0.11670181692169411, 1e-9);
}

TEST(t_quantile_table)
{
	/* two-sided 95% critical values from t tables */
	CHECK_NEAR(abstat_t_quantile(0.975, 1), 12.7062047361747, 1e-8);
	CHECK_NEAR(abstat_t_quantile(0.975, 3), 3.18244630528371, 1e-9);
	CHECK_NEAR(abstat_t_quantile(0.975, 5), 2.57058183661474, 1e-9);
	CHECK_NEAR(abstat_t_quantile(0.975, 10), 2.22813885198627, 1e-9);
	CHECK_NEAR(abstat_t_quantile(0.025, 10), -2.22813885198627, 1e-9);
	CHECK_NEAR(abstat_t_quantile(0.5, 4), 0, 0);
	CHECK(isnan(abstat_t_quantile(1, 4)));
}

TEST(welch_wikipedia)
{
	/* Wikipedia "Welch's t-test", example 1: t 2.46, df 24.99, p 0.021 */
	const double a1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
			      21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	const double a2[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
			      24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
	struct abstat_welch w;

	CHECK(abstat_welch(a1, NEL(a1), a2, NEL(a2), &w) == 0);
	CHECK_NEAR(w.t, 2.45535639828601, 1e-9);
	CHECK_NEAR(w.df, 24.98852929023142, 1e-9);
	CHECK_NEAR(w.p, 0.02137800146286588, 1e-9);
}

TEST(welch_small_samples)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	const double c[] = { 10.1, 9.8, 10.4, 10.0 };
	const double d[] = { 11.0, 12.5, 10.7, 11.9, 12.2, 11.4 };
	struct abstat_welch w;

	/* equal variances 1, n 3: se^2 = 2/3, df = 4 exactly */
	CHECK(abstat_welch(a, 3, b, 3, &w) == 0);
	CHECK_NEAR(w.diff, 3, 1e-12);
	CHECK_NEAR(w.t, 3 / sqrt(2.0 / 3), 1e-12);
	CHECK_NEAR(w.df, 4, 1e-12);
	CHECK_NEAR(w.p, 0.021311641128757025, 1e-9);
	/* unequal n and variances: python reference */
	CHECK(abstat_welch(c, 4, d, 6, &w) == 0);
	CHECK_NEAR(w.t, 4.927118135339508, 1e-9);
	CHECK_NEAR(w.df, 6.67798286763398, 1e-9);
	CHECK_NEAR(w.p, 0.0019460782610866137, 1e-9);
	/* sides swapped: same p, opposite t */
	CHECK(abstat_welch(d, 6, c, 4, &w) == 0);
	CHECK_NEAR(w.t, -4.927118135339508, 1e-9);
	CHECK_NEAR(w.p, 0.0019460782610866137, 1e-9);
}

TEST(welch_degenerate)
{
	const double one[] = { 5 }, k1[] = { 7, 7, 7 }, k2[] = { 9, 9 }, k3[] = { 7, 7 };
	struct abstat_welch w;

	CHECK(abstat_welch(one, 1, k1, 3, &w) == -EINVAL);
	CHECK(abstat_welch(k1, 3, one, 1, &w) == -EINVAL);
	/* no variance at all: certainly different, or identical */
	CHECK(abstat_welch(k1, 3, k2, 2, &w) == 0);
	CHECK(isinf(w.t) && w.t > 0);
	CHECK_NEAR(w.p, 0, 0);
	CHECK(abstat_welch(k1, 3, k3, 2, &w) == 0);
	CHECK_NEAR(w.p, 1, 0);
}

TEST(fieller_known_a)
{
	/*
	 * A constant (variance 0): Fieller reduces to the t interval of the
	 * difference over mean A.  B mean 111, sd sqrt(20/3), n 4, df 3:
	 * 11 +- 3.182446305 * 1.290994449 = 11 +- 4.108480 -> /100.
	 */
	const double a[] = { 100, 100, 100 }, b[] = { 110, 112, 108, 114 };
	double lo, hi;

	CHECK(abstat_ratio_ci(a, 3, b, 4, 0.95, &lo, &hi) == 0);
	CHECK_NEAR(lo, 0.0689152, 1e-6);
	CHECK_NEAR(hi, 0.1510848, 1e-6);
}

TEST(fieller_endpoints)
{
	/* Each endpoint r satisfies (mB - r mA)^2 = tq^2 (qB + r^2 qA). */
	const double a[] = { 1000, 1030, 985, 1012, 996 };
	const double b[] = { 1170, 1195, 1181, 1160, 1188, 1176 };
	struct abstat_desc da, db;
	struct abstat_welch w;
	double lo, hi, qa, qb, tq, r;
	int k;

	CHECK(abstat_ratio_ci(a, 5, b, 6, 0.95, &lo, &hi) == 0);
	CHECK(abstat_welch(a, 5, b, 6, &w) == 0);
	abstat_describe(a, 5, &da);
	abstat_describe(b, 6, &db);
	qa = da.sd * da.sd / 5;
	qb = db.sd * db.sd / 6;
	tq = abstat_t_quantile(0.975, w.df);
	for (k = 0; k < 2; k++) {
		r = 1 + (k ? hi : lo);
		CHECK_NEAR((db.mean - r * da.mean) * (db.mean - r * da.mean),
			   tq * tq * (qb + r * r * qa), 1e-6);
	}
	CHECK(lo < db.mean / da.mean - 1 && db.mean / da.mean - 1 < hi);
	/* wider than the naive interval that treats mean A as exact */
	CHECK(hi - lo > 2 * tq * w.se / da.mean);
}

TEST(fieller_agrees_with_welch)
{
	/* significant by Welch <=> the ratio interval excludes 0 */
	const double c[] = { 10.1, 9.8, 10.4, 10.0 };
	const double d[] = { 11.0, 12.5, 10.7, 11.9, 12.2, 11.4 };
	const double e[] = { 10.3, 9.6, 10.9, 10.2, 9.9 };
	struct abstat_welch w;
	double lo, hi;

	CHECK(abstat_welch(c, 4, d, 6, &w) == 0 && w.p < 0.05);
	CHECK(abstat_ratio_ci(c, 4, d, 6, 0.95, &lo, &hi) == 0);
	CHECK(lo > 0);
	CHECK(abstat_welch(c, 4, e, 5, &w) == 0 && w.p >= 0.05);
	CHECK(abstat_ratio_ci(c, 4, e, 5, 0.95, &lo, &hi) == 0);
	CHECK(lo < 0 && hi > 0);
}

TEST(fieller_unbounded)
{
	/* mean A indistinguishable from 0: no finite interval */
	const double a[] = { -5, 6, -4, 5 }, b[] = { 10, 11, 12 };
	double lo, hi;

	CHECK(abstat_ratio_ci(a, 4, b, 3, 0.95, &lo, &hi) == -ERANGE);
	CHECK(abstat_ratio_ci(a, 1, b, 3, 0.95, &lo, &hi) == -EINVAL);
}

static void synth(struct abstat_rng *r, double *x, size_t n, double mean, double sd)
{
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = mean + sd * abstat_rng_normal(r);
}

TEST(bootstrap_coverage)
{
	/* bootstrap-t, true relative difference 0.18; 200 seeded trials of 5 runs
	 * a side (where the percentile bootstrap covered only ~88%) */
	struct abstat_rng r;
	double a[5], b[5], lo, hi;
	int trial, covered = 0, ok = 1;

	abstat_rng_seed(&r, 42);
	for (trial = 0; trial < 200; trial++) {
		synth(&r, a, 5, 1000, 40);
		synth(&r, b, 5, 1180, 40);
		if (abstat_boot_t_ci(a, 5, b, 5, 1000, 1000 + (uint64_t)trial, 0.95, &lo, &hi))
			ok = 0;
		covered += lo <= 0.18 && 0.18 <= hi;
	}
	CHECK(ok);
	printf("  bootstrap coverage %d/200\n", covered);
	CHECK(covered >= 180);
	CHECK(covered <= 199);	/* a 95% interval that always covers is too wide */
}

TEST(bootstrap_seeded)
{
	const double a[] = { 1000, 1030, 985, 1012, 996 };
	const double b[] = { 1170, 1195, 1181, 1160, 1188 };
	double lo1, hi1, lo2, hi2, lo3, hi3;

	CHECK(abstat_boot_t_ci(a, 5, b, 5, 2000, 7, 0.95, &lo1, &hi1) == 0);
	CHECK(abstat_boot_t_ci(a, 5, b, 5, 2000, 7, 0.95, &lo2, &hi2) == 0);
	CHECK(abstat_boot_t_ci(a, 5, b, 5, 2000, 8, 0.95, &lo3, &hi3) == 0);
	CHECK(lo1 == lo2 && hi1 == hi2);
	CHECK(lo1 != lo3 || hi1 != hi3);
	CHECK(lo1 > 0.14 && hi1 < 0.22 && lo1 < 0.1768 && hi1 > 0.1768);
	CHECK(abstat_boot_t_ci(a, 1, b, 5, 2000, 7, 0.95, &lo1, &hi1) == -EINVAL);
	CHECK(abstat_boot_t_ci(a, 5, b, 5, 10, 7, 0.95, &lo1, &hi1) == -EINVAL);
}

TEST(fieller_coverage_small_n)
{
	/* 5 runs a side, 12% CV on A: the t-based interval keeps its level */
	struct abstat_rng r;
	double a[5], b[5], lo, hi;
	int trial, covered = 0;

	abstat_rng_seed(&r, 4242);
	for (trial = 0; trial < 200; trial++) {
		synth(&r, a, 5, 1000, 120);
		synth(&r, b, 5, 1180, 60);
		if (abstat_ratio_ci(a, 5, b, 5, 0.95, &lo, &hi) == 0)
			covered += lo <= 0.18 && 0.18 <= hi;
	}
	printf("  fieller coverage %d/200\n", covered);
	CHECK(covered >= 180);
}

TEST(welch_null_calibration)
{
	/* no difference: about 5% of p-values fall below 0.05 */
	struct abstat_rng r;
	struct abstat_welch w;
	double a[6], b[4];
	int trial, rejected = 0;

	abstat_rng_seed(&r, 99);
	for (trial = 0; trial < 1000; trial++) {
		synth(&r, a, 6, 500, 10);
		synth(&r, b, 4, 500, 30);
		abstat_welch(a, 6, b, 4, &w);
		rejected += w.p < 0.05;
	}
	printf("  welch false positives %d/1000\n", rejected);
	CHECK(rejected >= 25 && rejected <= 80);
}

TEST(mwu_exact_small)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	const double c[] = { 1, 3, 5, 7 }, d[] = { 2, 4, 6, 8, 10 };
	const double e[] = { 12, 15, 11, 19, 14, 13 };
	const double f[] = { 21, 18, 17, 25, 16, 20, 22 };
	struct abstat_mwu m;

	/* enumeration: 2 of the 20 arrangements are as extreme */
	CHECK(abstat_mwu(a, 3, b, 3, &m) == 0);
	CHECK(m.exact && !m.ties);
	CHECK_NEAR(m.u_a, 0, 0);
	CHECK_NEAR(m.u_b, 9, 0);
	CHECK_NEAR(m.p, 0.1, 1e-12);
	CHECK(abstat_mwu(c, 4, d, 5, &m) == 0);
	CHECK_NEAR(m.u_a, 6, 0);
	CHECK_NEAR(m.p, 0.4126984126984127, 1e-12);
	CHECK(abstat_mwu(e, 6, f, 7, &m) == 0);
	CHECK_NEAR(m.u_a, 3, 0);
	CHECK_NEAR(m.p, 0.008158508158508158, 1e-12);
}

TEST(mwu_ties_exact)
{
	/* python enumeration of all C(n, nA) splits of the mid-ranks */
	const double a[] = { 1, 2, 2 }, b[] = { 2, 3, 4 };
	const double c[] = { 999.5, 999.5, 999.5 }, d[] = { 1179.4, 1179.4, 1179.4 };
	const double e[] = { 1, 2, 2, 3, 4, 4 }, f[] = { 2, 4, 5, 5, 6, 7, 8 };
	struct abstat_mwu m;

	CHECK(abstat_mwu(a, 3, b, 3, &m) == 0);
	CHECK(m.exact && m.ties);
	CHECK_NEAR(m.u_a, 1, 1e-12);
	CHECK_NEAR(m.p, 0.3, 1e-12);
	/* identical runs within each side (a rate-limited job): 2 of 20, not 0.059 */
	CHECK(abstat_mwu(c, 3, d, 3, &m) == 0);
	CHECK_NEAR(m.p, 0.1, 1e-12);
	CHECK(abstat_mwu(e, 6, f, 7, &m) == 0);
	CHECK(m.exact);
	CHECK_NEAR(m.p, 0.019813519813519812, 1e-12);
}

TEST(mwu_ties_normal)
{
	/*
	 * Past 20 values the tie-corrected normal approximation is used.  The
	 * 13 tied values of mwu_ties_exact plus 5 far below on A's side and 5
	 * far above on B's: mid-ranks give U_A = 5; tie term sum(t^3 - t) = 54;
	 * sigma^2 = 11 x 12 / 12 x (24 - 54 / 506); z = (|5 - 66| - 0.5) / sigma
	 * = 3.731824, p = 0.00019010 (python, math module only).
	 */
	double a[11] = { 1, 2, 2, 3, 4, 4 }, b[12] = { 2, 4, 5, 5, 6, 7, 8 };
	struct abstat_mwu m;
	int i;

	for (i = 6; i < 11; i++)
		a[i] = -10 - i;
	for (i = 7; i < 12; i++)
		b[i] = 100 + i;
	CHECK(abstat_mwu(a, 11, b, 12, &m) == 0);
	CHECK(!m.exact && m.ties);
	CHECK_NEAR(m.u_a, 5, 1e-12);
	CHECK_NEAR(m.z, 3.7318238854470858, 1e-9);
	CHECK_NEAR(m.p, 0.00019009839075614384, 1e-12);
}

TEST(mwu_all_tied_and_large)
{
	const double k[] = { 3, 3, 3 };
	double a[30], b[30];
	struct abstat_mwu m;
	int i;

	CHECK(abstat_mwu(k, 3, k, 2, &m) == 0);
	CHECK_NEAR(m.p, 1, 0);
	CHECK(abstat_mwu(k, 0, k, 2, &m) == -EINVAL);
	/* 60 values: beyond the exact limit, normal approximation */
	for (i = 0; i < 30; i++) {
		a[i] = i;
		b[i] = i + 0.5;
	}
	CHECK(abstat_mwu(a, 30, b, 30, &m) == 0);
	CHECK(!m.exact);
	/* U_A = sum over a_i of #b below it = 0 + 1 + ... + 29 = 435 */
	CHECK_NEAR(m.u_a, 435, 1e-9);
	CHECK(m.p > 0.5);
}

int main(void)
{
	RUN(describe_basic);
	RUN(describe_one_run);
	RUN(betai_known);
	RUN(t_cdf_closed_forms);
	RUN(t_cdf_fractional_df);
	RUN(t_quantile_table);
	RUN(welch_wikipedia);
	RUN(welch_small_samples);
	RUN(welch_degenerate);
	RUN(fieller_known_a);
	RUN(fieller_endpoints);
	RUN(fieller_agrees_with_welch);
	RUN(fieller_unbounded);
	RUN(bootstrap_coverage);
	RUN(bootstrap_seeded);
	RUN(fieller_coverage_small_n);
	RUN(welch_null_calibration);
	RUN(mwu_exact_small);
	RUN(mwu_ties_exact);
	RUN(mwu_ties_normal);
	RUN(mwu_all_tied_and_large);
	return CHECK_DONE();
}
