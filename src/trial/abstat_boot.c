/*
 * abstat_boot: bootstrap-t interval of the log ratio of means (see abstat_boot.h).
 */
#include "trial/abstat_boot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "lib/abstat.h"	/* abstat_rng */

/* Mean and squared standard error of the mean of one resample (or of @x when @r is NULL). */
static void draw(const double *x, size_t n, struct abstat_rng *r, double *mean, double *q)
{
	double s = 0, ss = 0, v;
	size_t i;

	for (i = 0; i < n; i++) {
		v = r ? x[(size_t)(abstat_rng_uniform(r) * (double)n)] : x[i];
		s += v;
		ss += v * v;
	}
	*mean = s / (double)n;
	v = (ss - s * s / (double)n) / (double)(n - 1);
	*q = (v > 0 ? v : 0) / (double)n;
}

static int cmp_double(const void *pa, const void *pb)
{
	double x = *(const double *)pa, y = *(const double *)pb;

	return (x > y) - (x < y);
}

static double quantile(const double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;

	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

int abstat_boot_t_ci(const double *a, size_t na, const double *b, size_t nb,
		     unsigned iters, uint64_t seed, double level, double *lo, double *hi)
{
	double ma, qa, mb, qb, d, se, *t;
	struct abstat_rng rng;
	size_t m = 0;
	unsigned i;

	if (na < 2 || nb < 2 || iters < 100 || !(level > 0) || !(level < 1))
		return -EINVAL;
	draw(a, na, NULL, &ma, &qa);
	draw(b, nb, NULL, &mb, &qb);
	if (!(ma > 0) || !(mb > 0))
		return -EINVAL;
	d = log(mb / ma);
	se = sqrt(qa / (ma * ma) + qb / (mb * mb));
	if (!(se > 0))
		return -ERANGE;
	t = malloc(sizeof(*t) * iters);
	if (!t)
		return -ENOMEM;
	abstat_rng_seed(&rng, seed);
	for (i = 0; i < iters; i++) {
		double sa, sb, s;

		draw(a, na, &rng, &sa, &qa);
		draw(b, nb, &rng, &sb, &qb);
		if (!(sa > 0) || !(sb > 0))
			continue;
		s = sqrt(qa / (sa * sa) + qb / (sb * sb));
		if (s > 0)
			t[m++] = (log(sb / sa) - d) / s;
	}
	if (m < iters / 2) {
		free(t);
		return -ERANGE;
	}
	qsort(t, m, sizeof(*t), cmp_double);
	*lo = expm1(d - quantile(t, m, 1 - (1 - level) / 2) * se);
	*hi = expm1(d - quantile(t, m, (1 - level) / 2) * se);
	free(t);
	return 0;
}
