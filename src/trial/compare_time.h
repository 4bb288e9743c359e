/*
 * compare_time: where each I/O's time went on each side of a comparison
 * (docs/breakdown.md), so that "B is 18% faster" comes with "and the
 * difference is in the I/O path: 41 us less per I/O".
 *
 * Each side's breakdown is the mean over its runs of each run's per-I/O
 * breakdown (bottleneck_result_breakdown: iotrial's own, or computed from
 * fio's figures).  The part whose mean moved most, in us per I/O, names
 * where the difference is.  The same parts are compare metrics too
 * (time.*_ns, with intervals and verdicts); they never count as a
 * regression.  Also the window each side's device.* rows cover.
 */
#ifndef IOTRIAL_COMPARE_TIME_H
#define IOTRIAL_COMPARE_TIME_H

#include <stdio.h>
#include <jansson.h>
#include "measure/breakdown.h"
#include "result/resultread.h"

struct compare_time {
	int valid;			/* both sides have a breakdown */
	struct breakdown a, b;		/* means over each side's runs */
	enum breakdown_part most;	/* the part that moved most (BD_NR: none) */
	char sentence[240];		/* "the difference is in the I/O path: 41.0 us less per I/O" */
	char window_a[200], window_b[200];	/* what the device.* rows cover, "" none */
	/* across the hypervisor (iotrial.host.breakdown): each part's mean over
	 * the side's runs that have it, NAN none; host_runs: runs with a host view */
	double host[2][RESULTREAD_HOST_NBD];
	size_t host_runs[2];
};

/* Fill @out from the runs of each side (never fails: missing figures leave it invalid). */
void compare_time_build(struct resultread *const *a, size_t na, struct resultread *const *b,
			size_t nb, struct compare_time *out);

/* {"a": breakdown, "b": breakdown, "most": part, "sentence", "device_window_a", ...}; NULL on ENOMEM. */
json_t *compare_time_json(const struct compare_time *t);

/* The side-by-side lines of the text report; nothing when there is nothing to show. */
void compare_time_write_text(const struct compare_time *t, FILE *f);

/* Part @p's mean over a side's runs, for the time.* metrics: 0 or -ENOENT. */
int compare_time_value(const struct resultread *r, int part, double *out);

#endif
