/*
 * compare_stats: one metric's statistics from its per-run values: the
 * interval by the first method that applies (rank for tied values, the
 * run-order fit when the order is known, else Fieller), the tests beside it,
 * the bootstrap-t, and the outlier flags (see compare.h for the rules).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trial/abdrift.h"
#include "trial/abstat_boot.h"
#include "trial/abstat_rank.h"
#include "trial/compare_stats.h"

/* Mann-Whitney p, or a note saying why there is none or why it cannot be small. */
static void metric_mwu(const double *va, size_t na, const double *vb, size_t nb,
		       double alpha, struct compare_metric *m)
{
	struct abstat_mwu u;
	double min_p;

	m->p_mwu = NAN;
	if (na < 3 || nb < 3) {
		snprintf(m->mwu_note, sizeof(m->mwu_note), "Mann-Whitney needs 3 runs a side");
		return;
	}
	if (abstat_mwu(va, na, vb, nb, &u))
		return;
	m->p_mwu = u.p;
	m->mwu_exact = u.exact;
	/* the most extreme arrangement has exact p = 2 / C(na + nb, na) */
	min_p = 2 / exp(lgamma((double)(na + nb + 1)) - lgamma((double)(na + 1)) -
			lgamma((double)(nb + 1)));
	if (min_p >= alpha)
		snprintf(m->mwu_note, sizeof(m->mwu_note),
			 "with %zu and %zu runs Mann-Whitney cannot go below p = %.3f",
			 na, nb, min_p);
}

static int cmp_dbl(const void *pa, const void *pb)
{
	double x = *(const double *)pa, y = *(const double *)pb;

	return (x > y) - (x < y);
}

/*
 * Values a t interval cannot be trusted on: a side whose runs are all equal
 * (sd 0 reads as certainty), or so many ties that the values are clearly
 * quantised (at most half as many distinct values as runs).  Fills @why.
 */
static int degenerate(const double *va, size_t na, const double *vb, size_t nb,
		      const struct compare_metric *m, char *why, size_t sz)
{
	size_t n = na + nb, i, distinct = 1;
	double *v;

	if (m->a.sd == 0 && m->b.sd == 0) {
		snprintf(why, sz, "the runs of each side are all equal");
		return 1;
	}
	if (m->a.sd == 0 || m->b.sd == 0) {
		snprintf(why, sz, "%s's %zu runs are all equal", m->a.sd == 0 ? "A" : "B",
			 m->a.sd == 0 ? na : nb);
		return 1;
	}
	v = malloc(sizeof(*v) * n);
	if (!v)
		return 0;
	memcpy(v, va, sizeof(*v) * na);
	memcpy(v + na, vb, sizeof(*v) * nb);
	qsort(v, n, sizeof(v[0]), cmp_dbl);
	for (i = 1; i < n; i++)
		distinct += v[i] != v[i - 1];
	free(v);
	if (2 * distinct > n)
		return 0;
	snprintf(why, sz, "only %zu distinct values in %zu runs (quantised)", distinct, n);
	return 1;
}

/* The rank interval on tied values, with Mann-Whitney's p. */
static void metric_rank(const double *va, size_t na, const double *vb, size_t nb,
			double quantum, struct compare_metric *m, const char *why)
{
	double q = abstat_rank_quantum(va, na, vb, nb, quantum);
	double lo, hi;
	int ret;

	m->method = COMPARE_CI_RANK;
	m->p = m->p_mwu;
	m->df = (double)(na + nb - 2);
	ret = abstat_rank_ci(va, na, vb, nb, m->ci_level, q, &lo, &hi);
	if (!ret) {
		m->ci_lo = 100 * lo;
		m->ci_hi = 100 * hi;
		snprintf(m->method_note, sizeof(m->method_note), "%s: rank interval, +-%.2f%% "
			 "quantum", why, 100 * q);
	} else {
		snprintf(m->method_note, sizeof(m->method_note), "%s, and %zu + %zu runs are too "
			 "few for a rank interval at %g%%", why, na, nb, 100 * m->ci_level);
	}
}

/*
 * Side + run order regression when the order is known; 0 when it gave the
 * interval.  @apart: the sides were measured apart by design, so one switch
 * is the design, not a confounding to block on: the fit's drift, from the
 * runs within each side, is carried across it.
 */
static int metric_order(const struct compare_run *runs, size_t n, int apart,
			struct compare_metric *m)
{
	struct abdrift_run r[256];
	struct abdrift_fit f;
	double lo, hi, p;
	size_t i, nb = 0;
	int ret;

	if (!n || n > 256) {
		snprintf(m->method_why, sizeof(m->method_why), "the run order is known, but "
			 "the run-order fit takes 5 to 256 runs, not %zu", n);
		return -1;
	}
	for (i = 0; i < n; i++) {
		r[i] = (struct abdrift_run){ runs[i].value, runs[i].side == 'B' };
		nb += runs[i].side == 'B';
	}
	ret = abdrift_fit(r, n, &f);
	if (ret) {
		m->confounded = f.switches <= 1 && !apart;
		/* abdrift_fit's own conditions, said (abdrift.h) */
		if (n < 5 || nb < 2 || n - nb < 2)
			snprintf(m->method_why, sizeof(m->method_why), "the run order is known, "
				 "but %zu runs (%zu of A, %zu of B) are too few for the run-order fit, "
				 "which needs 5 or more, 2 a side", n, n - nb, nb);
		else if (ret == -ERANGE)
			snprintf(m->method_why, sizeof(m->method_why), "side and run order are "
				 "collinear (the runs were made in blocks)");
		else
			snprintf(m->method_why, sizeof(m->method_why), "a value is not positive, "
				 "which the run-order fit (on log values) cannot take");
		return -1;
	}
	if (f.confounded && !apart) {
		m->confounded = 1;
		snprintf(m->method_why, sizeof(m->method_why), "side and run order are "
			 "confounded (the runs were made in blocks)");
		return -1;
	}
	if (!(f.se > 0)) {
		snprintf(m->method_why, sizeof(m->method_why), "the run-order fit left no "
			 "residual noise to build an interval on");
		return -1;
	}
	abdrift_ci(&f, m->ci_level, &lo, &hi, &p);
	m->method = COMPARE_CI_RUN_ORDER;
	m->ci_lo = 100 * lo;
	m->ci_hi = 100 * hi;
	m->p = p;
	m->df = f.df;
	m->drift_pct = 100 * expm1(f.drift);
	return 0;
}

void compare_stats_fill(const double *va, size_t na, const double *vb, size_t nb,
			double quantum, const struct compare_opts *o, struct compare_metric *m)
{
	struct abstat_welch w;
	double lo, hi;
	char why[64];

	abstat_describe(va, na, &m->a);
	abstat_describe(vb, nb, &m->b);
	m->diff_pct = m->ci_lo = m->ci_hi = m->boot_lo = m->boot_hi = NAN;
	m->p = m->p_welch = m->df = m->p_mwu = m->drift_pct = NAN;
	m->ci_level = 1 - o->alpha;
	m->method = COMPARE_CI_NONE;
	if (na && nb && m->a.mean != 0)
		m->diff_pct = 100 * (m->b.mean / m->a.mean - 1);
	m->high_variance = (!isnan(m->a.cv) && 100 * m->a.cv > o->cv_limit_pct) ||
			   (!isnan(m->b.cv) && 100 * m->b.cv > o->cv_limit_pct);
	if (na < 2 || nb < 2)
		return;
	if (!abstat_welch(va, na, vb, nb, &w) && !(w.se == 0))
		m->p_welch = w.p;
	metric_mwu(va, na, vb, nb, o->alpha, m);
	if (degenerate(va, na, vb, nb, m, why, sizeof(why))) {
		metric_rank(va, na, vb, nb, quantum, m, why);
		return;
	}
	if (m->order_known && !metric_order(m->runs, m->nruns, o->sides_apart, m))
		goto boot;
	if (!m->order_known)	/* why Fieller: said beside it (the JSON's ci_note) */
		snprintf(m->method_why, sizeof(m->method_why), "the run order is not known "
			 "(timestamps missing or equal)");
	m->method = COMPARE_CI_FIELLER;
	m->p = m->p_welch;
	m->df = w.df;
	if (!abstat_ratio_ci(va, na, vb, nb, m->ci_level, &lo, &hi)) {
		m->ci_lo = 100 * lo;
		m->ci_hi = 100 * hi;
	} else {
		snprintf(m->method_note, sizeof(m->method_note), "A's mean is not "
			 "distinguishable from 0, so the ratio is unbounded");
	}
boot:
	if (na >= ABSTAT_BOOT_MIN_N && nb >= ABSTAT_BOOT_MIN_N &&
	    !abstat_boot_t_ci(va, na, vb, nb, o->boot_iters, o->boot_seed, m->ci_level,
			      &lo, &hi)) {
		m->boot_lo = 100 * lo;
		m->boot_hi = 100 * hi;
	}
}

static double median_of(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_dbl);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Flag a run whose robust z, |x - median| / (1.4826 MAD), exceeds
 * COMPARE_OUTLIER_Z within its side (Iglewicz & Hoaglin's modified z-score).
 * When most runs tie (MAD 0, common with rate limits and bucketed
 * percentiles) the mean absolute deviation from the median, x 1.2533, stands
 * in for it, so one run off an otherwise constant side is still named.
 * From 4 runs a side.
 */
void compare_stats_outliers(struct compare_metric *m, char side)
{
	double v[256], dev[256], med, mad, sum = 0;
	size_t i, k = 0;

	for (i = 0; i < m->nruns && k < 256; i++)
		if (m->runs[i].side == side)
			v[k++] = m->runs[i].value;
	if (k < 4)
		return;
	med = median_of(v, k);
	for (i = 0; i < k; i++) {
		dev[i] = fabs(v[i] - med);
		sum += dev[i];
	}
	mad = 1.4826 * median_of(dev, k);
	if (!(mad > 0))
		mad = 1.2533 * sum / (double)k;
	if (!(mad > 0))
		return;
	for (i = 0; i < m->nruns; i++)
		if (m->runs[i].side == side &&
		    fabs(m->runs[i].value - med) / mad > COMPARE_OUTLIER_Z)
			m->runs[i].outlier = 1;
}

