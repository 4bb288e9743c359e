/*
 * steady: is the workload in steady state, and which window is the steady one?
 *
 * Two criteria over a window of "rounds" (a round is one interval of the
 * series, or k consecutive intervals aggregated), on one tracked metric
 * (IOPS, bandwidth or mean latency; summed over directions, or one):
 *
 *  - SNIA PTS: over the last W rounds (W = 5), range max - min <= 20% of the
 *    window mean, and the least-squares line's excursion across the window,
 *    |slope| x (W - 1), <= 10% of the mean.  Both must hold; all three numbers
 *    are configurable.
 *  - fio's ss=: one-second rounds, W = ss_dur seconds.  iops / bw: every
 *    round lies within the limit of the window mean (max |y - mean| < limit,
 *    or < limit% of the mean); iops_slope / bw_slope: the least-squares slope
 *    (per second) is below the limit (or below limit% of the mean) in absolute
 *    value.  Strictly below, like fio.  Round values are whole numbers (I/O/s,
 *    bytes/s) as in fio's "steadystate" data arrays, so the criterion shown
 *    can be recomputed from the arrays shown.
 *
 * Ramp: intervals flagged ramp in the series never count; ss_ramp (cfg
 * ramp_ms) further skips the measured intervals that begin within ramp_ms of
 * the end of ramp_time.  Rounds are aligned on the first eligible interval;
 * a trailing partial round is ignored.
 *
 * Two uses.  Stop rule: steady_check() after each interval looks at the
 * latest W rounds only (cheap), and the worker stops once it says attained.
 * Reporting rule: steady_find() after the run returns the FIRST window that
 * meets the criterion.  First, not best: the first window is where PTS
 * declares steady state, it is what the stop rule would have picked, and
 * choosing the flattest window out of many would select for luck (an
 * optimistic, cherry-picked figure).  When no window qualifies the result
 * says so (attained = 0) and carries the LAST window's measured values, to
 * show how far from steady the run ended.
 */
#ifndef IOTRIAL_STEADY_H
#define IOTRIAL_STEADY_H

#include <stddef.h>
#include <stdint.h>
#include "model/job.h"
#include "measure/series.h"
#include "steady/mser.h"

/*
 * Relative slack on the SNIA "<=" tests, so that a window exactly at a limit
 * (a hand-worked 20.0% range) is not failed by the last bit of rounding.
 */
#define STEADY_EPS 1e-9

enum steady_rule { STEADY_OFF = 0, STEADY_FIO, STEADY_SNIA };
enum steady_metric { STEADY_IOPS = 0, STEADY_BW, STEADY_LAT };

struct steady_cfg {
	enum steady_rule rule;
	enum steady_metric metric;
	int ddir;			/* -1: sum over directions, else enum ddir */
	unsigned window;		/* W, in rounds (>= 2 for SNIA) */
	unsigned round_intervals;	/* k: intervals aggregated per round */
	uint64_t round_us;		/* nominal round length (k x interval) */
	uint64_t ramp_ms;		/* ss_ramp, see the top */
	/* fio */
	int fio_slope;			/* iops_slope / bw_slope */
	double fio_limit;
	int fio_pct;			/* limit in % of the window mean */
	/* SNIA */
	double range_pct;		/* 20 */
	double excursion_pct;		/* 10 */
};

struct steady {
	struct steady_cfg cfg;
	int evaluated;			/* a full window of rounds existed */
	int attained;
	size_t first, last;		/* the window's interval indexes */
	uint64_t start_ms, end_ms;	/* on the series' clock */
	unsigned nr;			/* rounds in the window (<= W) */
	/* measured over the window, on the tracked metric */
	double mean, min, max;
	double range_pct;		/* (max - min) / mean x 100 */
	double slope;			/* least squares, per round (x = round index) */
	double excursion_pct;		/* |slope| x (nr - 1) / mean x 100 */
	double max_deviation;		/* max |y - mean| */
	double criterion;		/* fio: deviation or slope, % when pct */
	/* per-round values (nr each): fio's data arrays, and the metric's */
	double *iops, *bw, *lat;
	/* the window's figures per direction (NULL unless attained) */
	struct series_window *dir[DDIR_NR];
	/*
	 * Held or lost (steady_find, when attained): every full round after the
	 * window is checked against the band [band_lo, band_hi] around the
	 * window mean (steady_band()).  held = 1 when all of them lie inside
	 * (also when none followed, as after a stop rule).
	 */
	int held;
	unsigned after;			/* full rounds after the window, checked */
	double band_lo, band_hi;	/* on the tracked metric */
	uint64_t lost_ms;		/* start of the first round outside (when !held) */
	double lost_mean;		/* mean of that round and the later ones */
	/* steady_analyse: MSER-5 over the measured intervals, and the steady tail */
	int mser_ok;			/* enough intervals for MSER (3 batches) */
	struct mser mser;		/* on the tracked metric, batches of 5 intervals */
	uint64_t mser_ms;		/* the truncation point, on the series' clock */
	size_t mser_batch;		/* intervals per MSER batch (0: MSER_BATCH) */
	struct steady_tail *tail;	/* NULL when there is no steady part */
};

/*
 * The steady tail: from the start of the steady part (the held window's
 * start, else MSER's truncation point) to the end of the run, with the
 * figures of its intervals merged (histograms added, so percentiles are the
 * tail's own) and a batch-means confidence interval for the mean IOPS.
 */
struct steady_tail {
	int from_window;		/* 1: the held window's start; 0: MSER's */
	size_t first, last;		/* element indexes in the series it was built from */
	size_t intervals;		/* measured intervals it covers */
	uint64_t start_ms, end_ms;
	/*
	 * Resolution (docs/time-series.md, long runs): the series the tail is built from may be
	 * coarsened (series_sink), each element holding element_intervals
	 * intervals.  Then the tail from MSER's point starts at the first
	 * element at or after it, and the CI's batches are whole elements; the
	 * tail from a held window still starts at the window (running sums).
	 * 1: full resolution, every figure as steady_analyse's.
	 */
	uint32_t element_intervals;
	size_t batch_elements;		/* elements per batch of the CI */
	size_t batch_intervals;		/* intervals per batch of the CI */
	size_t batches;			/* full batches (the CI needs 2) */
	double iops, iops_ci95;		/* all directions; half-width, 0 = none */
	double dir_ci95[DDIR_NR];	/* per direction, same batches */
	struct series_window *dir[DDIR_NR];	/* NULL for directions without I/O */
};

/*
 * SNIA PTS defaults: IOPS summed over directions, W = 5, 20%, 10%, one
 * interval of @interval_us (0 = 1 s) per round.
 */
void steady_cfg_snia(struct steady_cfg *c, uint64_t interval_us);

/*
 * fio's ss= from a job: ss_metric, ss_limit, ss_pct, ss_dur_us, ss_ramp_us,
 * with one-second rounds built from j->interval_us (1 s when 0).  A job
 * without ss (metric SS_NONE or ss_dur 0) gives rule STEADY_OFF.  Returns 0,
 * or -EINVAL when the interval does not divide a second (rounds would not be
 * fio's seconds).
 */
int steady_cfg_from_job(struct steady_cfg *c, const struct job *j);

/* A zeroed result (equivalent to memset 0). */
void steady_init(struct steady *st);

/*
 * Stop rule: evaluate the latest window of @s.  @out must be initialised; its
 * previous content is released, so one struct can be reused every interval.
 * Returns 0 (see out->evaluated / out->attained), -EINVAL or -ENOMEM.
 */
int steady_check(const struct steady_cfg *c, const struct series *s, struct steady *out);

/* Reporting rule: the first qualifying window (see the top).  As steady_check. */
int steady_find(const struct steady_cfg *c, const struct series *s, struct steady *out);


/*
 * Half-width of the held/lost band around the window mean @mean: SNIA, the
 * range limit (snia_range % of the mean); fio iops/bw, fio's own limit (or
 * limit % of the mean); fio *_slope, the drift the slope limit allows across
 * one window (limit x window seconds, or that % of the mean).
 */
double steady_band(const struct steady_cfg *c, double mean);

/*
 * The window statistics and verdict of st's nr round values (st->cfg,
 * st->evaluated and the arrays set): what steady_find computes per window,
 * for steady_stream.
 */
void steady_window_stats(struct steady *st);

/* The per-direction figures of an attained window [first, last] of @s: 0 or -ENOMEM. */
int steady_fill_dirs(struct steady *st, const struct series *s);

/*
 * The criterion of @c over @n round values @y of its metric (oldest first):
 * 1 when they make a steady window, with their mean in *@mean.  For the
 * streaming tracker (steady_live.h); steady_find uses the same test.
 */
int steady_judge(const struct steady_cfg *c, const double *y, unsigned n, double *mean);

/* First interval that counts for @c: after ramp_time and ss_ramp. */
size_t steady_first_eligible(const struct steady_cfg *c, const struct series *s);

/*
 * The tracked metric of @c over intervals [@first, @first + @n), exact
 * (ios or bytes over the real durations; latency from the sums), not
 * rounded to whole numbers.
 */
double steady_metric(const struct steady_cfg *c, const struct series *s, size_t first, size_t n);

/* The per-round values of the tracked metric (st->iops, st->bw or st->lat). */
const double *steady_values(const struct steady *st);

/* Release what @st owns (its tail too); it is then initialised again.  NULL is fine. */
void steady_free(struct steady *st);

/* Release a tail.  NULL is fine. */
void steady_tail_free(struct steady_tail *t);

#endif
