/*
 * stat: exact running moments for latencies, and sample statistics.
 *
 * The hot path adds a sample with lat_acc_add(): integer adds only (no
 * division, unlike Welford), on deviations from the first sample so that the
 * sum of squares neither overflows (128 bits) nor cancels.  At the end the
 * accumulator is turned into struct moments (n, min, max, mean, M2), which
 * merge exactly with Chan's parallel formula for group_reporting and threads.
 * stddev uses n - 1 like fio.
 */
#ifndef IOTRIAL_STAT_H
#define IOTRIAL_STAT_H

#include <stdint.h>

struct lat_acc {
	uint64_t n;
	uint64_t min, max;
	uint64_t shift;			/* first sample */
	int64_t sum;			/* sum of (v - shift) */
	unsigned __int128 sumsq;	/* sum of (v - shift)^2 */
};

struct moments {
	uint64_t n;
	uint64_t min, max;
	double mean;
	double m2;			/* sum of squared deviations from mean */
};

static inline void lat_acc_init(struct lat_acc *a)
{
	a->n = 0;
	a->min = UINT64_MAX;
	a->max = 0;
	a->shift = 0;
	a->sum = 0;
	a->sumsq = 0;
}

static inline void lat_acc_add(struct lat_acc *a, uint64_t v)
{
	int64_t d;

	if (__builtin_expect(a->n == 0, 0))
		a->shift = v;
	d = (int64_t)(v - a->shift);
	a->n++;
	a->sum += d;
	a->sumsq += (unsigned __int128)((__int128)d * d);
	if (v < a->min)
		a->min = v;
	if (v > a->max)
		a->max = v;
}

/*
 * @k samples of the same value @v at once: exactly what @k lat_acc_add(@a, @v)
 * calls leave (the I/Os of one submitted batch reaped together share their
 * latency, so the worker adds them as one run).
 */
static inline void lat_acc_add_n(struct lat_acc *a, uint64_t v, uint64_t k)
{
	int64_t d;

	if (__builtin_expect(a->n == 0, 0))
		a->shift = v;
	d = (int64_t)(v - a->shift);
	a->n += k;
	a->sum += d * (int64_t)k;
	a->sumsq += (unsigned __int128)((__int128)d * d) * k;
	if (v < a->min)
		a->min = v;
	if (v > a->max)
		a->max = v;
}

/* Moments of everything added to @a (n = 0 gives all zeros). */
void lat_acc_moments(const struct lat_acc *a, struct moments *m);

void moments_init(struct moments *m);

/* dst = dst (+) src, exactly (Chan et al.). */
void moments_merge(struct moments *dst, const struct moments *src);

/* Sample standard deviation (n - 1); 0 when n < 2. */
double moments_stddev(const struct moments *m);

/*
 * sample_stat: min/max/mean/stddev of a short series of doubles (fio's bw_* and
 * iops_* figures sampled every 500 ms).  Welford: not on the hot path.
 */
struct sample_stat {
	uint64_t n;
	double min, max, mean, m2;
};

void sample_stat_init(struct sample_stat *s);
void sample_stat_add(struct sample_stat *s, double v);
void sample_stat_merge(struct sample_stat *dst, const struct sample_stat *src);
double sample_stat_stddev(const struct sample_stat *s);

#endif
