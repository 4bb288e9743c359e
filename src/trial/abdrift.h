/*
 * abdrift: the A/B effect with run order as a covariate.
 *
 * Runs of a trial are made one after another, and the system drifts while
 * they run (thermal state, SSD garbage collection, page cache, a neighbour's
 * load).  A two-sample test that ignores order counts the drift as noise at
 * best (interleaved runs: power lost) and as the effect at worst (all A, then
 * all B: a drift of -10% reads as "B is slower").  abdrift fits, by least
 * squares on log(value),
 *     log y_i = b0 + b_side * [run i is B] + b_order * (its place in the run order)
 * and gives the side effect exp(b_side) - 1 with a t interval (n - 3 degrees
 * of freedom).  A linear drift is removed exactly; with interleaved runs a
 * smoother drift mostly is.  When side and order are nearly collinear (the
 * runs were made in blocks: one switch from A to B, or |corr(side, order)|
 * >= ABDRIFT_CONFOUNDED) the effect cannot be told from a step in time:
 * abdrift says so (confounded = 1) and the caller must not decide from it.
 * The side effect's standard error and degrees of freedom are the more
 * cautious of the equal-variance fit's and a Welch-like one that lets each
 * side have its own variance.  Values must be positive.
 */
#ifndef IOTRIAL_ABDRIFT_H
#define IOTRIAL_ABDRIFT_H

#include <stddef.h>

/* |corr(side, order)| from which side and order count as confounded. */
#define ABDRIFT_CONFOUNDED 0.8
/* ... and from which the runs count as "made in blocks" (a warning). */
#define ABDRIFT_BLOCKY 0.5

struct abdrift_run {
	double value;	/* > 0 */
	int is_b;	/* 0: side A, 1: side B */
};

struct abdrift_fit {
	size_t n;
	double effect;		/* b_side (log scale): B / A = exp(effect) */
	double se;		/* its standard error (the larger of equal/unequal variances) */
	double df;		/* n - 3, or Satterthwaite's when smaller */
	double drift;		/* b_order: log change per run */
	double drift_se;
	double corr;		/* corr(side, order) */
	unsigned switches;	/* side changes along the run order */
	int confounded;		/* one switch, or |corr| >= ABDRIFT_CONFOUNDED */
	int blocky;		/* |corr| >= ABDRIFT_BLOCKY or one switch */
};

/*
 * Fit @runs, given in run order (@n of them, both sides mixed).  out->switches
 * is set even on error.  -EINVAL when
 * a side has fewer than 2 runs, n < 5 (no residual freedom worth having) or
 * a value is not positive; -ERANGE when side and order are exactly collinear.
 */
int abdrift_fit(const struct abdrift_run *runs, size_t n, struct abdrift_fit *out);

/* Interval at @level for exp(effect) - 1 in *lo, *hi (fractions); the two-sided p of b_side. */
void abdrift_ci(const struct abdrift_fit *f, double level, double *lo, double *hi, double *p);

#endif
