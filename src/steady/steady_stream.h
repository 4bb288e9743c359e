/*
 * steady_stream: the steady-state search (steady_find) fed one interval at a
 * time, in memory bounded by the window, not by the run (docs/time-series.md, long runs).
 *
 * steady_find reads the whole series after the run.  Its verdict only needs:
 * before the window is found, the last W round values; once found, one
 * comparison per later round against the band, a count and a running sum.
 * steady_stream keeps exactly that: a ring of the last W rounds (three
 * doubles, their first interval index and start time each), the round being
 * summed, and the hold state.  The round values are summed in the same order
 * as steady.c's span_values, so every double is bit-identical to what
 * steady_find computes on the same intervals, and so are the window
 * statistics (the same window_stats code, via steady_window_stats) and the
 * verdict: tests/unit/steady/test_steady_stream.c checks field by field on random
 * series, both rules, k > 1, ramp and ss_ramp, held and lost.
 *
 * The window's per-direction figures (dir[], percentiles from the window's
 * merged histogram) need the window's histograms: they are taken, at the
 * moment the window is found, from the series passed to steady_stream_add,
 * which must then still hold the window's intervals at their absolute
 * indexes.  That is the one point where the caller's series must reach back
 * W x k intervals.
 *
 * Feeding contract: pass every interval of the series once, in order
 * (ramp ones included: they are skipped as steady_find skips them), and only
 * once it is final: series_add may still fold a sliver into the LAST
 * interval, so feed interval i after interval i + 1 was appended, and the
 * last one when the series is complete.
 *
 * MSER-5 (steady_analyse's truncation point) is fed the same way: the
 * eligible intervals are summed into batches of MSER_BATCH, and each batch
 * keeps its exact sums (ios, bytes, duration, latency sum on the tracked
 * direction(s)) and start time, 40 bytes.  Until mser_max batches (8192 by
 * default: 41k intervals, 410 s at 10 ms, 11 h at 1 s) the batch means are
 * bit-identical to steady_analyse's.  When the array is full, adjacent
 * batches are merged in pairs (their sums add, exactly) and new batches take
 * twice as many intervals: MSER then runs on batches of 10, 20, ... intervals
 * (mser_batch says how many), an honest coarser MSER, not MSER-5: its
 * truncation point is a multiple of the longer batch, and a batch of 2L
 * intervals averages out what MSER-5 would have seen.  Memory stays under
 * mser_max x 40 bytes.
 *
 * The steady tail from a held window (steady_tail_stream): once the window
 * is found, its per-direction figures are kept as running sums (a
 * series_window per direction, dense histogram included: 45 KB) that every
 * later interval extends, until the level is lost.  So the tail from a held
 * window starts exactly at the window, whatever the stored series' resolution.
 *
 * Wired into the run by series_sink (one per reported job or group).
 */
#ifndef IOTRIAL_STEADY_STREAM_H
#define IOTRIAL_STEADY_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include "measure/series.h"
#include "steady/steady.h"

/* Exact sums of one MSER batch. */
struct steady_stream_batch {
	uint64_t ios, bytes, dur_us;
	double lat;			/* latency sum, summed as span_values does */
	uint64_t start_ms;
};

#define STEADY_STREAM_MSER_MAX 8192

struct steady_stream {
	struct steady_cfg cfg;
	size_t fed;			/* intervals seen, ramp included */
	int measuring;			/* the first measured interval was seen */
	uint64_t m0;			/* its start (ms), for ss_ramp */
	int eligible;			/* past ss_ramp: rounds are being formed */
	/* the round being summed */
	unsigned r_k;			/* intervals in it so far */
	size_t r_first;			/* its first interval index */
	uint64_t r_start_ms;
	uint64_t r_ios, r_bytes, r_dur;
	double r_lat;
	/* ring of the last W complete rounds */
	double *iops, *bw, *lat;
	size_t *first;
	uint64_t *start_ms;
	size_t rounds;			/* complete rounds so far */
	uint64_t last_end_ms;		/* end of the last complete round */
	/* once found: the window, and the hold state */
	struct steady win;		/* evaluated window (attained or last) */
	/* MSER: batches of mser_batch eligible intervals */
	size_t mser_max;		/* batch cap (even); set before feeding */
	size_t mser_batch;		/* intervals per batch: MSER_BATCH x 2^m */
	size_t mser_nr;			/* complete batches */
	struct steady_stream_batch *mb;	/* mser_nr of them, then the one filling */
	size_t mb_k;			/* intervals in the filling batch */
	int found;
	double lost_sum;
	size_t lost_n;
	size_t e_first;			/* the first eligible interval (MSER's origin) */
	struct series_window *tail;	/* [DDIR_NR] from the window on, while held */
};

/* Start with @c (copied).  Returns 0, -EINVAL (rule off, no window) or -ENOMEM. */
int steady_stream_init(struct steady_stream *ss, const struct steady_cfg *c);

/*
 * Feed interval @i of @s (i == the number fed so far; see the contract at the
 * top).  Returns 0, -EINVAL (out of order) or -ENOMEM.
 */
int steady_stream_add(struct steady_stream *ss, const struct series *s, size_t i);

/*
 * The outcome, as steady_find would give it over the intervals fed: into
 * @out (steady_free'd first; owns its arrays).  Returns 0 or -ENOMEM.
 */
int steady_stream_result(const struct steady_stream *ss, struct steady *out);

/*
 * MSER over the batches (see the top), as steady_analyse computes it:
 * out->mser_ok, out->mser, out->mser_ms.  While no batches were merged
 * (ss->mser_batch == MSER_BATCH) identical to steady_analyse's.  Returns 0
 * or -ENOMEM.
 */
int steady_stream_mser(const struct steady_stream *ss, struct steady *out);

/*
 * The oldest interval number @ss may still read from the caller's series
 * (the window's figures, when it is found); intervals before it can be
 * dropped (series_trim).
 */
size_t steady_stream_keep(const struct steady_stream *ss);

/* Bytes held by @ss (ring, window figures): independent of the run length. */
size_t steady_stream_mem(const struct steady_stream *ss);

void steady_stream_free(struct steady_stream *ss);

#endif
