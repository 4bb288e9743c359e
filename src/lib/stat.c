/*
 * stat: turning exact integer sums into moments, and merging moments
 * (see stat.h).
 *
 * lat_acc keeps sum and sum of squares of v - shift, shift being the first
 * sample, exactly in integers.  Converting uses long double (64-bit mantissa):
 * M2 = sumsq - sum^2 / n.  Because the sums are of deviations from a typical
 * sample, not from 0, the subtraction loses little: even when the first
 * sample is an outlier 10^4 times the spread, about 10^-11 relative error
 * remains, against 10^-3 or worse for a naive double sum of squares.
 */
#include "lib/stat.h"

#include <math.h>	/* sqrt */
#include <string.h>	/* memset */

void lat_acc_moments(const struct lat_acc *a, struct moments *m)
{
	long double n, sum, m2;

	memset(m, 0, sizeof(*m));
	if (!a->n)
		return;
	n = (long double)a->n;
	sum = (long double)a->sum;
	m2 = (long double)a->sumsq - sum * sum / n;
	m->n = a->n;
	m->min = a->min;
	m->max = a->max;
	m->mean = (double)((long double)a->shift + sum / n);
	m->m2 = m2 > 0 ? (double)m2 : 0.0;
}

void moments_init(struct moments *m)
{
	memset(m, 0, sizeof(*m));
}

/*
 * Chan, Golub & LeVeque: the pooled mean and M2 of two disjoint sets.  An
 * empty side contributes nothing, so a zeroed struct is a valid identity and
 * its min of 0 never leaks into the result.
 */
void moments_merge(struct moments *dst, const struct moments *src)
{
	long double na, nb, n, delta;

	if (!src->n)
		return;
	if (!dst->n) {
		*dst = *src;
		return;
	}
	na = (long double)dst->n;
	nb = (long double)src->n;
	n = na + nb;
	delta = (long double)src->mean - (long double)dst->mean;
	dst->mean = (double)((long double)dst->mean + delta * nb / n);
	dst->m2 = (double)((long double)dst->m2 + (long double)src->m2 + delta * delta * na * nb / n);
	dst->n += src->n;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

double moments_stddev(const struct moments *m)
{
	if (m->n < 2)
		return 0.0;
	return sqrt(m->m2 / (double)(m->n - 1));
}

void sample_stat_init(struct sample_stat *s)
{
	memset(s, 0, sizeof(*s));
}

/* Welford's update: stable for a few thousand samples, no sums kept. */
void sample_stat_add(struct sample_stat *s, double v)
{
	double delta;

	s->n++;
	if (s->n == 1) {
		s->min = s->max = s->mean = v;
		s->m2 = 0;
		return;
	}
	if (v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	delta = v - s->mean;
	s->mean += delta / (double)s->n;
	s->m2 += delta * (v - s->mean);
}

void sample_stat_merge(struct sample_stat *dst, const struct sample_stat *src)
{
	double na, nb, n, delta;

	if (!src->n)
		return;
	if (!dst->n) {
		*dst = *src;
		return;
	}
	na = (double)dst->n;
	nb = (double)src->n;
	n = na + nb;
	delta = src->mean - dst->mean;
	dst->mean += delta * nb / n;
	dst->m2 += src->m2 + delta * delta * na * nb / n;
	dst->n += src->n;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

double sample_stat_stddev(const struct sample_stat *s)
{
	if (s->n < 2)
		return 0.0;
	return sqrt(s->m2 / (double)(s->n - 1));
}
