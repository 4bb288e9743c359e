/*
 * report_calc: the figures the text and JSON writers both derive from a
 * result (rates, the latency-range distribution, depth percentages, which
 * percentiles to print), computed once here so the two outputs always agree.
 * Pure functions of the result: no I/O, no allocation.
 */
#ifndef IOTRIAL_REPORT_CALC_H
#define IOTRIAL_REPORT_CALC_H

#include <stddef.h>
#include <stdint.h>
#include "result/result.h"

/* A direction's rates over its own runtime, as fio computes them. */
struct report_rates {
	uint64_t io_kbytes;	/* io_bytes / 1024 */
	uint64_t bw_bytes;	/* bytes/s, truncated */
	uint64_t bw_kib;	/* KiB/s, truncated (fio's "bw", whatever kb_base) */
	double iops;		/* total_ios per second */
};

void report_rates(const struct dir_result *d, struct report_rates *out);

/*
 * Latency ranges of fio's latency_ns / latency_us / latency_ms objects.  The
 * entry labelled L in unit U counts latencies below L*U and at or above the
 * previous label (the first from 0; ms has one more label, 2000, and then
 * ">=2000").  Built from the completion-latency histograms of all directions
 * (fio uses clat too; a direction without clat samples falls back to its
 * total latency), so the boundaries are bucket-accurate: a bucket that
 * straddles a boundary is counted where its midpoint falls (relative error
 * at most 1/128).  Percentages are of all counted latencies, exact (fio
 * rounds non-zero values below 0.01 up to 0.01; we do not).
 */
#define REPORT_LAT_NR 10	/* labels per unit for ns and us */
#define REPORT_LAT_MS_NR 12	/* ms: the 10 labels, 2000, ">=2000" */

struct report_lat_dist {
	double ns[REPORT_LAT_NR];
	double us[REPORT_LAT_NR];
	double ms[REPORT_LAT_MS_NR];
	uint64_t total;		/* latencies counted */
};

/* The label of entry @i of a unit (2 4 10 20 50 100 250 500 750 1000 2000). */
unsigned report_lat_label(unsigned i);

void report_lat_dist(const struct job_result *j, struct report_lat_dist *out);

/*
 * Percent of each of @n counters in @map over their sum (zeros when the sum is
 * zero).  fio divides I/O depths by the number of reads+writes+trims and so
 * prints sums above 100% when syncs are issued; we divide by the counters' sum.
 */
void report_pct(const uint64_t *map, size_t n, double *pct);

/* Depth labels: iodepth_level "1".."32", ">=64"; submit/complete "0".."64", ">=64". */
#define REPORT_SUBMIT_NR 7
const char *report_depth_label(unsigned i);
const char *report_submit_label(unsigned i);

/*
 * Batch-size counters folded to fio's 7 buckets (0, 1-4, 5-8, 9-16, 17-32,
 * 33-64, >64): result.h keeps RESULT_DEPTH_NR + 1 counters; any count in the
 * last spare slot is added to ">=64".
 */
void report_submit_fold(const uint64_t *in, uint64_t out[REPORT_SUBMIT_NR]);

/* Which percentiles a job asked for: its percentile_list, or fio's default. */
#define REPORT_PCT_MAX JOB_MAX_PERCENTILES	/* >= the 17 of fio's default */
size_t report_percentile_list(const struct job *j, const double **p);

/* Percentile switches of a job (fio's defaults when @j is NULL). */
struct report_pct_on {
	int slat, clat, lat, sync;
};

void report_pct_on(const struct job *j, struct report_pct_on *on);

#endif
