/*
 * mser: MSER-5 truncation over batch means (mser.h).
 *
 * Suffix sums make the search O(k): for each d, the sum and the sum of
 * squares of batches d..k-1 give the centred sum of squares as
 * ss - s^2 / n.  Values are centred on the overall mean first so that the
 * subtraction does not lose the digits that matter at 5 million IOPS.
 */
#include "steady/mser.h"
#include "lib/abstat.h"	/* abstat_t_quantile */

#include <errno.h>	/* EINVAL */
#include <math.h>	/* isfinite, sqrt */
#include <string.h>	/* memset */

double mser_ci95(double sd, size_t n)
{
	if (n < 2 || !(sd > 0))
		return 0.0;
	return abstat_t_quantile(0.975, (double)(n - 1)) * sd / sqrt((double)n);
}

int mser_compute(const double *b, size_t k, struct mser *out)
{
	double c = 0, s = 0, ss = 0, best = 0;
	size_t d, best_d = 0;

	memset(out, 0, sizeof(*out));
	if (k < 3)
		return -EINVAL;
	for (size_t j = 0; j < k; j++) {
		if (!isfinite(b[j]))
			return -EINVAL;
		c += b[j];
	}
	c /= (double)k;
	/* walk d from k/2 down to 0, growing the suffix one batch at a time */
	for (size_t j = k; j-- > k / 2;) {
		s += b[j] - c;
		ss += (b[j] - c) * (b[j] - c);
	}
	for (d = k / 2 + 1; d-- > 0;) {
		double n = (double)(k - d), m;

		if (d < k / 2) {
			s += b[d] - c;
			ss += (b[d] - c) * (b[d] - c);
		}
		m = ss - s * s / n;
		if (m < 0)
			m = 0;	/* rounding on a flat series */
		m /= n * n;
		if (d == k / 2 || m <= best) {	/* <=: ties go to the smaller d */
			best = m;
			best_d = d;
		}
	}
	out->truncate = best_d;
	out->batches = k - best_d;
	out->stat = best;
	s = 0;
	for (size_t j = best_d; j < k; j++)
		s += b[j];
	out->mean = s / (double)out->batches;
	ss = 0;
	for (size_t j = best_d; j < k; j++)
		ss += (b[j] - out->mean) * (b[j] - out->mean);
	out->sd = sqrt(ss / (double)(out->batches - 1));
	out->ci95 = mser_ci95(out->sd, out->batches);
	return 0;
}
