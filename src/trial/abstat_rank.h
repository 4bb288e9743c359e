/*
 * abstat_rank: a distribution-free interval for B / A - 1 when the values
 * are too tied for a t interval to mean anything.
 *
 * fio reports percentiles as histogram bucket values, and rate-limited jobs
 * give the same IOPS every run: a side whose runs are all equal has sd 0, and
 * a t-based interval then has zero width and a p-value of 0, from three runs.
 * Here instead: the Hodges-Lehmann interval of the log ratio (every pairwise
 * log(b_j / a_i), sorted; the k-th from each end, k from the exact null
 * distribution of the Mann-Whitney U without ties, or its normal
 * approximation above 40 runs), widened at each end by the quantum the values
 * are known to (the smallest relative gap between distinct values within a
 * side, or a given resolution when both sides are constant).  It never has zero width, and it does not exist when
 * the sample is too small to reach the level (3 + 3 runs cannot reach 95%).
 */
#ifndef IOTRIAL_ABSTAT_RANK_H
#define IOTRIAL_ABSTAT_RANK_H

#include <stddef.h>

/*
 * k for level @level: the largest k with P(U <= k - 1) <= (1 - level) / 2;
 * 0 when even the most extreme arrangement is more likely than that.
 */
size_t abstat_rank_k(size_t na, size_t nb, double level);

/*
 * The smallest relative gap between distinct values within @a or within @b
 * (all positive), or @fallback when each side is constant.
 */
double abstat_rank_quantum(const double *a, size_t na, const double *b, size_t nb,
			   double fallback);

/*
 * The interval at @level for B / A - 1 (fractions) in *lo, *hi, each end
 * widened by @quantum (relative).  -EINVAL when a value is not positive or a
 * side is empty, -ERANGE when the sample cannot reach @level, -ENOMEM.
 */
int abstat_rank_ci(const double *a, size_t na, const double *b, size_t nb, double level,
		   double quantum, double *lo, double *hi);

#endif
