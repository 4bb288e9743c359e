/*
 * abstat: the statistics behind an A/B comparison.
 *
 * Inputs are one value per run and side (runs are the unit of replication:
 * intervals inside one run are autocorrelated and are never fed here as if
 * independent).  What it provides:
 *   - mean, sample standard deviation (n - 1) and coefficient of variation;
 *   - Student's t distribution (CDF through the regularized incomplete beta
 *     function, quantile by bisection) and the normal CDF;
 *   - Welch's t-test: unequal variances, Welch-Satterthwaite degrees of
 *     freedom, two-sided p-value;
 *   - a 95% (any level) confidence interval for the relative difference
 *     (B - A) / A by Fieller's theorem for a ratio of independent means.  Why
 *     Fieller and not "Welch CI of B - A divided by mean A": the latter treats
 *     mean A as exact and is too narrow when A is noisy; Fieller carries A's
 *     uncertainty into the denominator, and it excludes 0 exactly when the
 *     Welch test rejects at the same level, so the CI and the p-value never
 *     disagree.  With A's variance 0 both coincide;
 *   - (the bootstrap-t for the same difference is in abstat_boot.h; the
 *     percentile bootstrap that was here covered 88% for a nominal 95% at 5
 *     runs a side and is gone);
 *   - Mann-Whitney U with mid-ranks for ties: exact two-sided p-value for
 *     small samples (the permutation distribution of the mid-ranks when there
 *     are ties, up to 20 values; without ties, up to 40), else the normal
 *     approximation with tie correction and continuity correction.  Runs of
 *     a rate-limited job often tie exactly, and the normal approximation is
 *     far too optimistic for 3 + 3 runs.
 * Functions return 0 or -errno (-EINVAL when a sample is too small) and never
 * allocate except the exact Mann-Whitney distribution.
 */
#ifndef IOTRIAL_ABSTAT_H
#define IOTRIAL_ABSTAT_H

#include <stddef.h>
#include <stdint.h>

/* One side's description: sd and cv are NAN when n < 2, cv also when mean = 0. */
struct abstat_desc {
	size_t n;
	double mean;
	double sd;
	double cv;	/* sd / |mean| (a fraction, not %) */
};

void abstat_describe(const double *x, size_t n, struct abstat_desc *out);

/* Regularized incomplete beta I_x(a, b), a, b > 0, 0 <= x <= 1. NAN on bad input. */
double abstat_betai(double a, double b, double x);

/* Student t with df > 0 (not necessarily an integer): P(T <= t). */
double abstat_t_cdf(double t, double df);

/* The t with P(T <= t) = p, 0 < p < 1. */
double abstat_t_quantile(double p, double df);

struct abstat_welch {
	double diff;	/* mean B - mean A */
	double se;	/* sqrt(sA^2/nA + sB^2/nB) */
	double t;	/* diff / se (+-INFINITY when se = 0 and diff != 0) */
	double df;	/* Welch-Satterthwaite; nA + nB - 2 when se = 0 */
	double p;	/* two-sided */
};

/* Welch's t-test of B against A.  -EINVAL when either side has n < 2. */
int abstat_welch(const double *a, size_t na, const double *b, size_t nb,
		 struct abstat_welch *out);

/*
 * Fieller confidence interval at @level (e.g. 0.95) for (mean B / mean A - 1),
 * using the Welch-Satterthwaite degrees of freedom.  -EINVAL when a side has
 * n < 2; -ERANGE when mean A is not significantly different from 0 at that
 * level (the interval is then unbounded).
 */
int abstat_ratio_ci(const double *a, size_t na, const double *b, size_t nb,
		    double level, double *lo, double *hi);

/* A small seeded generator (splitmix64) so that bootstraps are reproducible. */
struct abstat_rng {
	uint64_t s;
};

void abstat_rng_seed(struct abstat_rng *r, uint64_t seed);
uint64_t abstat_rng_next(struct abstat_rng *r);
double abstat_rng_uniform(struct abstat_rng *r);	/* [0, 1) */
double abstat_rng_normal(struct abstat_rng *r);		/* N(0, 1), Box-Muller */

struct abstat_mwu {
	double u_a;	/* pairs (a, b) with a > b, ties counting 1/2 */
	double u_b;	/* nA * nB - u_a */
	double z;	/* normal approximation (0 when exact) */
	double p;	/* two-sided */
	int exact;	/* p from the exact permutation distribution (small n) */
	int ties;	/* any tied values across both samples */
};

/* Largest nA + nB for the exact distribution, without and with ties. */
#define ABSTAT_MWU_EXACT_MAX 40
#define ABSTAT_MWU_EXACT_TIES_MAX 20

/* Mann-Whitney U test of A against B.  -EINVAL when a side is empty, -ENOMEM. */
int abstat_mwu(const double *a, size_t na, const double *b, size_t nb,
	       struct abstat_mwu *out);

#endif
