/*
 * series_sink: where the intervals of one reported job (a thread, or a
 * group_reporting group) go as they complete, in memory bounded by the run's
 * length (docs/time-series.md, long runs).
 *
 * Two things are fed, one final interval at a time (series_sink_add):
 *  - the stored series, the one the result will carry: at most series_max
 *    elements.  When it would pass that, adjacent elements are merged in
 *    pairs (series_coarsen) and from then on each new interval is folded into
 *    the last element until that holds as many intervals as the others
 *    (2^m).  The outcome is exactly series_bound(full series, series_max):
 *    the same elements, sums, histograms and percentiles (the merges are
 *    exact and aligned on each phase's start, so the order they happen in
 *    does not matter).  series_max = 0 keeps every interval.
 *  - the reporting rule's steady_stream (steady_stream.h): the window, the
 *    verdict and MSER from every interval at full resolution; the tail is
 *    then built from the stored series (steady_tail_stream).
 *
 * The caller's series (the thread's, or the group's merged one) must hold
 * interval i when it is fed, and from series_sink_keep() on afterwards.
 *
 * Not thread-safe: one feeder.  Memory: the stored series (series_max
 * elements) plus the stream's ring, window and held-tail figures (~100 KB).
 */
#ifndef IOTRIAL_SERIES_SINK_H
#define IOTRIAL_SERIES_SINK_H

#include <stddef.h>
#include <stdint.h>
#include "measure/series.h"
#include "steady/steady.h"
#include "steady/steady_stream.h"

struct series_sink {
	struct series stored;		/* bounded: what the result keeps */
	size_t max;			/* series_max; 0: no bound */
	uint32_t level_n;		/* intervals per complete stored element (2^m) */
	size_t fed;			/* intervals fed: the next one's number */
	int ss_on;			/* a reporting rule is tracked */
	struct steady_stream ss;
	struct hist *h;			/* DDIR_NR scratch */
};

/*
 * Start with the reporting rule @c (NULL or STEADY_OFF: none) and the bound
 * @max (series_max).  Returns 0, -EINVAL or -ENOMEM.
 */
int series_sink_init(struct series_sink *k, const struct steady_cfg *c, size_t max);

/*
 * Feed interval @i of @s (i == k->fed), once it is final (series_add may
 * still fold a sliver into the last interval of a running thread).
 * Returns 0, -EINVAL or -ENOMEM.
 */
int series_sink_add(struct series_sink *k, const struct series *s, size_t i);

/* Feed every interval of @s not fed yet (the series is complete). */
int series_sink_drain(struct series_sink *k, const struct series *s);

/* The oldest interval number the sink may still read from the caller's series. */
size_t series_sink_keep(const struct series_sink *k);

/*
 * Hand over the results: *@series the stored series (malloc'd), *@steady
 * the reporting rule's outcome with MSER and the tail (malloc'd; NULL
 * without a rule).  The sink is then empty.  Returns 0 or -ENOMEM.
 */
int series_sink_finish(struct series_sink *k, struct series **series, struct steady **steady);

/* Bytes held by the sink (stored series, stream). */
size_t series_sink_mem(const struct series_sink *k);

/* Release everything; NULL and a zeroed sink are fine. */
void series_sink_free(struct series_sink *k);

#endif
