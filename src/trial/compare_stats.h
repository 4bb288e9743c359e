/*
 * compare_stats: the statistics of one metric of a comparison, from its
 * values per side (compare.c gathers them, in run order, and decides the
 * verdict from what is filled here with compare_verdict_decide).
 */
#ifndef IOTRIAL_COMPARE_STATS_H
#define IOTRIAL_COMPARE_STATS_H

#include "trial/compare_types.h"	/* struct compare_opts, compare_metric, compare_report */

/*
 * Fill @m's descriptions, interval, p-values and method from A's @va (@na)
 * and B's @vb (@nb).  @m->runs (in run order) and @m->order_known must be set:
 * the run-order fit reads them.  @quantum is the resolution assumed for tied
 * values when a side is constant (fio's p99 bucket: 1/64).
 */
void compare_stats_fill(const double *va, size_t na, const double *vb, size_t nb,
			double quantum, const struct compare_opts *o, struct compare_metric *m);

/* Flag the runs of @side ('A' or 'B') whose robust z exceeds COMPARE_OUTLIER_Z. */
void compare_stats_outliers(struct compare_metric *m, char side);

#endif
