/*
 * series: the per-interval time series of one thread, one group or one job.
 *
 * The worker hands over, once per interval (1 s by default, sub-second
 * allowed), the interval's deltas per direction: I/Os, bytes, the latency sum,
 * min and max, and the interval's own latency histogram delta.  series keeps
 * them compactly: the figures plus the histogram delta stored sparsely (only
 * the non-zero buckets), so that the latency percentiles of ANY window of
 * intervals can be recomputed exactly later (series_window) -- the steady
 * window's p99 is the p99 of the window's I/Os, not an average of p99s.
 *
 * Time: t_ms is the END of the interval in ms since the series' origin, the
 * moment the job started doing I/O (the start of ramp_time when there is one),
 * so ramp and measured intervals share one monotonic clock.  The ramp's
 * intervals are kept, flagged ramp, and always come first; totals and the
 * steady-state search skip them (invariant: the non-ramp intervals' ios add up
 * to the job's total_ios).
 *
 * Memory, per interval: a fixed 240-byte record (struct series_iv: t_ms,
 * dur_us, ramp flag, and per direction ios, bytes, latency sum/min/max,
 * p50/p99/p99.9, sparse-histogram offset and length) plus the non-zero
 * histogram buckets per direction, byte-coded (series.c: the gap from the
 * previous bucket and the count, 7 bits a byte): 2-3 bytes a bucket for
 * neighbouring buckets with counts below 16384, at most 12.  A realistic
 * interval touches 50-600 buckets, so 0.1-1.8 KB per direction-interval;
 * the worst case is all 1856 buckets at large counts (about 7 KB).  Memory
 * grows with runtime / interval only, never with the number of I/Os.
 *
 * Worker contract: at each interval boundary, series_add() the deltas since
 * the previous boundary with the interval's real duration; cut an interval at
 * the end of ramp_time (the ramp's last interval may be short, flagged ramp)
 * so that no interval mixes ramp and measured I/O; add the final partial
 * interval at the end (or on SIGINT) with its real duration.
 *
 * Slivers: an interval shorter than 1/SERIES_SLIVER of the one before it, in
 * the same phase, is folded into that one (its end and duration grow, its
 * counts and histogram are added).  A run that ends a few microseconds after
 * an interval boundary would otherwise report a last interval whose rate
 * rests on 0 or 1 I/O in 20 us -- a meaningless 0 or 50,000 IOPS that would
 * also break any steady-state window containing it.
 *
 * Not thread-safe: one writer (the worker's interval tick) per series; merge
 * and report after the workers are done (or under the caller's lock).
 */
#ifndef IOTRIAL_SERIES_H
#define IOTRIAL_SERIES_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>	/* json_t */
#include "lib/hist.h"
#include "model/job.h"	/* enum ddir */

/* A new interval shorter than 1/10 of the previous one is folded into it. */
#define SERIES_SLIVER 10

/* One direction's deltas over one interval, as the worker measured them. */
struct series_in {
	uint64_t ios, bytes;
	uint64_t lat_sum_ns;		/* sum of the latencies of these ios */
	uint64_t lat_min, lat_max;	/* UINT64_MAX and 0 when ios == 0 */
	const struct hist *lat_hist;	/* this interval's delta; NULL = none */
};

/* What is stored per interval and direction. */
struct series_dir {
	uint64_t ios, bytes;
	uint64_t lat_sum_ns;
	uint64_t lat_min, lat_max;	/* UINT64_MAX / 0 when ios == 0 */
	uint64_t p50, p99, p999;	/* ns, from the histogram; 0 without one */
	uint32_t hist_off, hist_nr;	/* this interval's buckets: bytes of series.b[] */
};

struct series_iv {
	uint64_t t_ms;			/* end of the interval, see the top */
	uint64_t dur_us;		/* its real length */
	uint32_t ramp;			/* 1: inside ramp_time */
	uint32_t n;			/* intervals merged into it by series_coarsen (0 or 1: none) */
	struct series_dir d[DDIR_NR];
};

struct series {
	struct series_iv *iv;		/* intervals in time order */
	size_t nr, cap;
	size_t nr_ramp;			/* the first nr_ramp intervals are ramp */
	uint8_t *b;			/* all sparse buckets, byte-coded, interval by interval */
	size_t b_nr, b_cap;
	/*
	 * A running thread's series keeps only its recent intervals
	 * (series_trim): iv[0] is interval number base of the run, and base_ramp
	 * of the dropped ones were ramp.  Functions that take an interval index
	 * (series_window, series_hist_add, series_iops, series_bw) take this
	 * absolute number; nr and nr_ramp count what is held.  0 unless trimmed.
	 */
	size_t base, base_ramp;
	int has_m0;			/* the first measured interval was dropped: */
	uint64_t m0_ms;			/* its start (ms), for steady's ss_ramp */
};

/* Absolute number of the interval after the last one (base + nr). */
static inline size_t series_end(const struct series *s)
{
	return s->base + s->nr;
}

/* Ramp intervals of the run so far, dropped ones included. */
static inline size_t series_ramp_end(const struct series *s)
{
	return s->base_ramp + s->nr_ramp;
}

/* Interval number @i of the run (base <= i < series_end). */
static inline const struct series_iv *series_at(const struct series *s, size_t i)
{
	return &s->iv[i - s->base];
}

/*
 * When an interval began, in ms: its end @t_ms less its duration @dur_us,
 * rounded.  Both are stamped at their own resolution, so that can fall 1 ms
 * before the previous interval's end (@prev_end_ms, when @has_prev), where
 * it really began: then it is that end.  Every reader of a start (the
 * steady window, its loss, the live status lines) uses this one rule, so a
 * loss is never stamped before the window it ends.
 */
static inline uint64_t series_start_ms(uint64_t t_ms, uint64_t dur_us, int has_prev,
				       uint64_t prev_end_ms)
{
	uint64_t d = (dur_us + 500) / 1000, start = t_ms > d ? t_ms - d : 0;

	if (has_prev && start < prev_end_ms && prev_end_ms - start <= 1)
		return prev_end_ms;
	return start;
}

/* When the interval held at index @k of s->iv began (series_start_ms). */
static inline uint64_t series_held_start_ms(const struct series *s, size_t k)
{
	return series_start_ms(s->iv[k].t_ms, s->iv[k].dur_us, k > 0, k > 0 ? s->iv[k - 1].t_ms : 0);
}

/* When interval number @i of the run began (base <= i < series_end). */
static inline uint64_t series_iv_start_ms(const struct series *s, size_t i)
{
	return series_held_start_ms(s, i - s->base);
}

/*
 * Figures over a window of intervals, for one direction.  It holds the merged
 * histogram (14.8 KB): keep it off small stacks.
 */
struct series_window {
	size_t first, last;		/* interval indexes, inclusive */
	uint64_t start_ms, end_ms;	/* start of first, end of last interval */
	uint64_t dur_us;		/* sum of the intervals' real durations */
	uint64_t ios, bytes;
	double iops;			/* ios / dur */
	double bw_bytes;		/* bytes / dur, bytes per second */
	double lat_mean;		/* ns; 0 without I/O */
	uint64_t lat_min, lat_max;	/* ns; 0 without I/O */
	uint64_t p50, p99, p999;	/* ns, from the merged histogram */
	double lat_sum;			/* ns, summed interval by interval */
	uint64_t lat_acc_min;		/* UINT64_MAX until an I/O: lat_min's running value */
	struct hist hist;		/* the window's merged histogram */
};

/* An empty series (equivalent to zeroing it). */
void series_init(struct series *s);

/*
 * Append one interval: @t_ms its end (ms since the series origin, strictly
 * increasing), @dur_us its real length (> 0), @ramp whether it lies in
 * ramp_time, @in the per-direction deltas.  Ramp intervals must all come
 * before the first measured one.  A sliver (see the top) is folded into the
 * last interval instead of being appended.  Called once per interval by the worker,
 * never per I/O: it may allocate.  Returns 0, -EINVAL (time not increasing,
 * zero duration, ramp after measurement) or -ENOMEM.
 */
int series_add(struct series *s, uint64_t t_ms, uint64_t dur_us, int ramp,
	       const struct series_in in[DDIR_NR]);

/*
 * dst += src, for group_reporting.  Ramp intervals are aligned with ramp
 * intervals by index, measured ones with measured ones by index (so that
 * "non-ramp ios add up to total_ios" holds for the group too, even when the
 * threads' ramps ended one interval apart).  Per interval: ios, bytes, the
 * latency sums and histograms are added, min/max merged, percentiles
 * recomputed; t_ms and dur_us are the larger of the two (so a merged rate is
 * never overstated).  Returns 0 or -ENOMEM (dst is then unchanged).
 */
int series_merge(struct series *dst, const struct series *src);

/*
 * Figures of direction @d over intervals @first..@last (inclusive), using the
 * real durations and the exact merged histogram.  Ramp intervals are not
 * skipped: pass a range that excludes them.  Returns 0 or -EINVAL (empty or
 * out-of-range window).
 */
int series_window(const struct series *s, size_t first, size_t last,
		  enum ddir d, struct series_window *out);

/*
 * Grow a window (from series_window) by the next interval @i, and refresh its
 * figures: a window can run to the end of the run (the steady tail from a
 * held window) with the intervals dropped as they are added.  The figures
 * come out as series_window's over the whole span, bit for bit (the sums are
 * taken in the same order).
 */
void series_window_add(struct series_window *w, const struct series *s, size_t i, enum ddir d);
void series_window_finish(struct series_window *w);

/* Add interval @i's histogram for direction @d into @h. */
void series_hist_add(const struct series *s, size_t i, enum ddir d, struct hist *h);

/* Rates of one interval: direction @d, or the sum over directions if d < 0. */
double series_iops(const struct series *s, size_t i, int d);
double series_bw(const struct series *s, size_t i, int d);	/* bytes/s */

/* Sum of ios of direction @d over the measured (non-ramp) intervals. */
uint64_t series_total_ios(const struct series *s, enum ddir d);

/*
 * Coarsening (results bounded in run length: docs/time-series.md, long runs).  Adjacent intervals
 * are merged in pairs, exactly: ios, bytes and latency sums add, histograms
 * add bucket by bucket, min and max fold, percentiles are recomputed from the
 * merged histogram; t_ms is the later end, dur_us the sum, n the sum.  A ramp
 * interval is only merged with a ramp one (the first nr_ramp stay ramp), so
 * "non-ramp ios add up to total_ios" still holds; an odd last interval of a
 * phase is kept as it is.  Every merged interval says how many it holds (n),
 * and its duration is its resolution.
 *
 * series_coarsen: one pass of pairing.  Returns 0 or -ENOMEM (@s unchanged).
 */
int series_coarsen(struct series *s);

/*
 * Coarsen until at most @max intervals remain (0: no bound).  Windows whose
 * rounds are unions of the merged intervals give the same figures before and
 * after.  Returns 0 or -ENOMEM.
 */
int series_bound(struct series *s, size_t max);

/*
 * Append one interval as it is: no sliver folding, no time check.  For
 * collectors that build merged or coarsened series (series_group,
 * series_sink), whose elements obey series_merge's rules, not series_add's.
 * @n: intervals it holds.  Returns 0 or -ENOMEM.
 */
int series_append(struct series *s, uint64_t t_ms, uint64_t dur_us, int ramp, uint32_t n,
		  const struct series_in in[DDIR_NR]);

/*
 * Fold @in (one more interval's worth, @dur_us long, ending at @t_ms, @n
 * intervals) into the last interval, exactly as series_coarsen would have
 * merged them.  Returns 0 or -ENOMEM.
 */
int series_fold_last(struct series *s, uint64_t t_ms, uint64_t dur_us, uint32_t n,
		     const struct series_in in[DDIR_NR]);

/*
 * Drop the intervals numbered below @upto (absolute), never the last one
 * (series_add may still fold a sliver into it).  The rest keep their
 * numbers (base grows).  Memory is kept for reuse, so a series trimmed
 * every interval stays at the size of what it holds.
 */
void series_trim(struct series *s, size_t upto);

/*
 * The coarsening level of @s: intervals per element (a power of two; the
 * last element of a phase may hold fewer).  1 for a series as measured.
 */
uint32_t series_level(const struct series *s);

/*
 * Coarsen @s until its level is at least @n (a power of two), so that two
 * series of one job, bounded apart (MPI ranks), are merged element by element
 * over the same intervals.  Returns 0 or -ENOMEM.
 */
int series_coarsen_to(struct series *s, uint32_t n);

/* Intervals merged into interval @i (1 when it is as measured). */
static inline uint32_t series_iv_n(const struct series_iv *iv)
{
	return iv->n ? iv->n : 1;
}

/* Release what @s owns; @s is then empty and reusable.  NULL is fine. */
void series_free(struct series *s);

/* Bytes held by @s (for the memory-per-interval check and --debug). */
size_t series_mem(const struct series *s);

/* series_to_json flags */
enum {
	/* json+: add "bins" {"<bucket midpoint ns>": count} per direction */
	SERIES_JSON_HIST = 1u << 0,
};

/*
 * The series as a JSON array in time order (jobs[i].iotrial.intervals):
 *   {"t_ms": N, "dur_us": N, ["ramp": true,] ["intervals": n,]
 *    "read"|"write"|"trim": {"ios", "bytes", "iops", "bw_bytes",
 *       "lat_ns": {"mean", "min", "max", "p50", "p99", "p99.9"} [, "bins"]}}
 * "ramp" appears only on ramp intervals, "intervals" only on merged ones
 * (series_coarsen: how many measured intervals it holds).  All three directions are always
 * present so every element has one shape; an idle direction has zeros.
 * Returns 0 or -ENOMEM; *out is a new reference.
 */
int series_to_json(const struct series *s, unsigned flags, json_t **out);

/* One window's direction object, same shape as in series_to_json. */
int series_window_to_json(const struct series_window *w, json_t **out);

#endif
