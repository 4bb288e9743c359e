/*
 * abstat_rank: Hodges-Lehmann interval of the log ratio (see abstat_rank.h).
 */
#include "trial/abstat_rank.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

/*
 * The number of arrangements giving each U (no ties) are the coefficients of
 * the Gaussian binomial [na + nb choose na]_q; doubles hold them exactly up
 * to C(40, 20) < 2^53.
 */
static size_t exact_k(size_t na, size_t nb, double tail)
{
	size_t cap = na * nb + na + 1, deg = 0, i, k;
	double *c = calloc(cap, sizeof(*c)), total = 0, cum = 0;

	if (!c)
		return 0;
	c[0] = 1;
	for (i = 1; i <= na; i++) {
		size_t sh = nb + i;

		for (k = deg + sh; k >= sh; k--)
			c[k] -= c[k - sh];
		for (k = i; k <= deg + sh; k++)
			c[k] += c[k - i];
		deg += nb;
	}
	for (k = 0; k <= deg; k++)
		total += c[k];
	for (k = 0; k <= deg; k++) {
		if ((cum + c[k]) / total > tail)
			break;
		cum += c[k];
	}
	free(c);
	return k;	/* P(U <= k - 1) <= tail < P(U <= k) */
}

size_t abstat_rank_k(size_t na, size_t nb, double level)
{
	double tail = (1 - level) / 2, mn = (double)na * (double)nb, z, k;

	if (!na || !nb || !(level > 0) || !(level < 1))
		return 0;
	if (na + nb <= 40)
		return exact_k(na, nb, tail);
	/* normal approximation: z from the inverse by bisection on erfc */
	{
		double lo = 0, hi = 40;
		int i;

		for (i = 0; i < 100; i++) {
			double mid = (lo + hi) / 2;

			if (0.5 * erfc(mid / sqrt(2.0)) > tail)
				lo = mid;
			else
				hi = mid;
		}
		z = (lo + hi) / 2;
	}
	k = floor(mn / 2 - z * sqrt(mn * (double)(na + nb + 1) / 12));
	return k < 0 ? 0 : (size_t)k;
}

static int cmp_double(const void *pa, const void *pb)
{
	double x = *(const double *)pa, y = *(const double *)pb;

	return (x > y) - (x < y);
}

/* The smallest relative gap between distinct values of one side; INFINITY if none. */
static double side_gap(const double *x, size_t n)
{
	double *v = malloc(sizeof(*v) * (n ? n : 1)), q = INFINITY;
	size_t i;

	if (!v)
		return INFINITY;
	for (i = 0; i < n; i++)
		v[i] = x[i];
	qsort(v, n, sizeof(*v), cmp_double);
	for (i = 1; i < n; i++)
		if (v[i] > v[i - 1] && v[i - 1] > 0)
			q = fmin(q, v[i] / v[i - 1] - 1);
	free(v);
	return q;
}

double abstat_rank_quantum(const double *a, size_t na, const double *b, size_t nb,
			   double fallback)
{
	/* within a side only: the gap between A and B is the effect, not a quantum */
	double q = fmin(side_gap(a, na), side_gap(b, nb));

	return isinf(q) ? fallback : q;
}

int abstat_rank_ci(const double *a, size_t na, const double *b, size_t nb, double level,
		   double quantum, double *lo, double *hi)
{
	size_t m = na * nb, i, j, k;
	double *d;

	if (!na || !nb)
		return -EINVAL;
	for (i = 0; i < na; i++)
		if (!(a[i] > 0))
			return -EINVAL;
	for (j = 0; j < nb; j++)
		if (!(b[j] > 0))
			return -EINVAL;
	k = abstat_rank_k(na, nb, level);
	if (k < 1)
		return -ERANGE;
	d = malloc(sizeof(*d) * m);
	if (!d)
		return -ENOMEM;
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			d[i * nb + j] = log(b[j] / a[i]);
	qsort(d, m, sizeof(*d), cmp_double);
	*lo = expm1(d[k - 1] - log1p(quantum));
	*hi = expm1(d[m - k] + log1p(quantum));
	free(d);
	return 0;
}
