/*
 * mser: where the warm-up ends, found from the data (MSER-5).
 *
 * White (1997), "An effective truncation heuristic for bias reduction in
 * simulation output": cut the output into batches of 5 observations (here,
 * 5 intervals of the series) and take each batch's mean.  For every candidate
 * truncation point d (batches dropped from the start), the marginal standard
 * error of the mean of what remains is
 *
 *     MSER(d) = sum_{j=d}^{k-1} (b_j - mean_d)^2 / (k - d)^2
 *
 * where mean_d is the mean of batches d..k-1.  The warm-up is the d that
 * minimises it: dropping a biased start lowers the sum of squares faster than
 * the shrinking count raises it, dropping steady data does not.  The search
 * covers only the first half of the batches (d <= k / 2): near the end few
 * batches remain, and a flat pair of them would otherwise win by luck (the
 * known failure of MSER on short series).  Ties go to the smallest d, so a
 * flat series is not truncated.
 *
 * What is reported of the kept batches: their mean, their sample standard
 * deviation and the 95% half-width t(0.975, n-1) x sd / sqrt(n).  Batch means
 * of 5 intervals are less autocorrelated than intervals; the half-width is
 * still a lower bound when the batches themselves are correlated.
 *
 * Pure computation on an array: no allocation, no I/O.
 */
#ifndef IOTRIAL_MSER_H
#define IOTRIAL_MSER_H

#include <stddef.h>

#define MSER_BATCH 5	/* intervals per batch: the "5" of MSER-5 */

struct mser {
	size_t truncate;	/* batches dropped at the start (d*) */
	size_t batches;		/* batches kept (k - d*) */
	double mean;		/* of the kept batch means */
	double sd;		/* their sample standard deviation */
	double ci95;		/* 95% half-width of the mean, t x sd / sqrt(n) */
	double stat;		/* MSER(d*) */
};

/*
 * MSER over the @k batch means @b.  Needs k >= 3 (so that at least two
 * batches remain whatever d is).  Returns 0, or -EINVAL (k < 3, or a value
 * that is not finite).
 */
int mser_compute(const double *b, size_t k, struct mser *out);

/* 95% half-width of the mean of @n values with sample sd @sd (0 when n < 2). */
double mser_ci95(double sd, size_t n);

#endif
