/*
 * hist: the latency histogram, laid out exactly as fio's so that json+ "bins"
 * and histogram logs mean the same thing in both tools.
 *
 * Layout: log-linear.  Values below 128 are stored exactly (buckets 0..127).
 * Above, each power of two [2^m, 2^(m+1)) with m >= 7 is split into 64 equal
 * buckets: for msb = m, e = m - 6, index = (e + 1) * 64 + ((v >> e) & 63).
 * 29 groups of 64 give HIST_NR = 1856 buckets; values past the last bucket
 * (about 17 s in ns) clamp into it.
 * Error bound: a bucket's reported value is its midpoint, so the relative error
 * of any percentile is at most 1/128 (0.78%).  min/max/mean/stddev are kept
 * exactly elsewhere (stat.h); only percentiles come from here.
 * Memory: 1856 x 8 bytes = 14.8 KB per histogram.  Updating is one bsr, a
 * shift and an increment: cheap enough for every I/O.
 */
#ifndef IOTRIAL_HIST_H
#define IOTRIAL_HIST_H

#include <stddef.h>
#include <stdint.h>

#define HIST_BITS 6
#define HIST_VAL (1u << HIST_BITS)	/* 64 buckets per group */
#define HIST_GROUPS 29
#define HIST_NR (HIST_GROUPS * HIST_VAL)	/* 1856 */

struct hist {
	uint64_t b[HIST_NR];
};

static inline unsigned hist_index(uint64_t v)
{
	unsigned msb, e, idx;

	if (v < 2 * HIST_VAL)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	e = msb - HIST_BITS;
	idx = ((e + 1) << HIST_BITS) + (unsigned)((v >> e) & (HIST_VAL - 1));
	return idx < HIST_NR ? idx : HIST_NR - 1;
}

static inline void hist_add(struct hist *h, uint64_t v)
{
	h->b[hist_index(v)]++;
}

/* @k samples of value @v (a run of I/Os with the same latency). */
static inline void hist_add_n(struct hist *h, uint64_t v, uint64_t k)
{
	h->b[hist_index(v)] += k;
}

/* The value a bucket stands for: its midpoint (exact below 128). */
uint64_t hist_bucket_value(unsigned idx);

/* Smallest and largest value that land in bucket @idx. */
uint64_t hist_bucket_low(unsigned idx);
uint64_t hist_bucket_high(unsigned idx);

uint64_t hist_total(const struct hist *h);

/* dst += src */
void hist_merge(struct hist *dst, const struct hist *src);

/* out = now - before (a per-interval delta); @out may alias @now. */
void hist_delta(struct hist *out, const struct hist *now, const struct hist *before);

/*
 * Percentile p (0 < p <= 100): the value of the first bucket whose cumulative
 * count reaches p/100 * total.  Returns 0 for an empty histogram.
 */
uint64_t hist_percentile(const struct hist *h, double p);

/* Many percentiles in one pass; @p must be ascending. */
void hist_percentiles(const struct hist *h, const double *p, size_t n, uint64_t *out);

#endif
