/*
 * hist: bucket values, merging and percentiles of the latency histogram
 * (layout and error bound in hist.h).
 *
 * Percentiles follow fio's rule exactly, so that our numbers and fio's agree
 * bucket for bucket given the same counts: percentile p is the value of the
 * first bucket whose cumulative count reaches p/100 x N, the threshold
 * computed in long double.  tests/unit/lib/test_hist.c checks this against the
 * json+ bins and percentiles of a real fio run.
 */
#include "lib/hist.h"

/* Group g >= 1 holds [2^(g+5), 2^(g+6)) in 64 buckets of width 2^(g-1). */
uint64_t hist_bucket_low(unsigned idx)
{
	unsigned e;

	if (idx >= HIST_NR)
		idx = HIST_NR - 1;
	if (idx < 2 * HIST_VAL)
		return idx;
	e = (idx >> HIST_BITS) - 1;
	return (1ull << (e + HIST_BITS)) + ((uint64_t)(idx & (HIST_VAL - 1)) << e);
}

/* The last bucket also holds every larger value (clamping). */
uint64_t hist_bucket_high(unsigned idx)
{
	unsigned e;

	if (idx >= HIST_NR - 1)
		return UINT64_MAX;
	if (idx < 2 * HIST_VAL)
		return idx;
	e = (idx >> HIST_BITS) - 1;
	return hist_bucket_low(idx) + (1ull << e) - 1;
}

uint64_t hist_bucket_value(unsigned idx)
{
	unsigned e;

	if (idx >= HIST_NR)
		idx = HIST_NR - 1;
	if (idx < 2 * HIST_VAL)
		return idx;
	e = (idx >> HIST_BITS) - 1;
	/* width 2^e: the midpoint is low + 2^(e-1), an integer since e >= 1 */
	return hist_bucket_low(idx) + (1ull << (e - 1));
}

uint64_t hist_total(const struct hist *h)
{
	uint64_t n = 0;
	unsigned i;

	for (i = 0; i < HIST_NR; i++)
		n += h->b[i];
	return n;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned i;

	for (i = 0; i < HIST_NR; i++)
		dst->b[i] += src->b[i];
}

void hist_delta(struct hist *out, const struct hist *now, const struct hist *before)
{
	unsigned i;

	for (i = 0; i < HIST_NR; i++)
		out->b[i] = now->b[i] - before->b[i];
}

void hist_percentiles(const struct hist *h, const double *p, size_t n, uint64_t *out)
{
	uint64_t total = hist_total(h), sum = 0;
	size_t j = 0;
	unsigned i;

	if (!total) {
		for (j = 0; j < n; j++)
			out[j] = 0;
		return;
	}
	for (i = 0; i < HIST_NR && j < n; i++) {
		sum += h->b[i];
		while (j < n && (long double)sum >= (long double)p[j] / 100.0L * (long double)total)
			out[j++] = hist_bucket_value(i);
	}
	/* p > 100 (or rounding at 100): the last non-empty bucket */
	for (i = HIST_NR; i-- > 0 && j < n;) {
		if (h->b[i]) {
			while (j < n)
				out[j++] = hist_bucket_value(i);
		}
	}
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t v;

	hist_percentiles(h, &p, 1, &v);
	return v;
}
