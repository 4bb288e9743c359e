/*
 * series_group: a group_reporting group's series, merged from its threads'
 * intervals while they run (docs/time-series.md, long runs), instead of merging whole per-thread
 * series at the end.
 *
 * The merge is series_merge's: ramp intervals are matched by their index in
 * the ramp, measured ones by their index after it; counts, sums and
 * histograms add, extremes fold, t_ms and dur_us are the largest.  A merged
 * interval is built once it is final in every thread: a thread that is done
 * has all its intervals final; a running one, all but its last (series_add
 * may still fold a sliver into it); a thread's ramp has ended once it has a
 * measured interval.  Merged intervals go into a short series (only what the
 * sink still reads is kept) that feeds the group's series_sink: its stored
 * series and steady analysis are the group's result, equal to merging the
 * full series and analysing them.
 *
 * The threads' series may be trimmed (series.h): the group needs thread t's
 * intervals from series_group_hold() on.  Not thread-safe: the caller holds
 * each thread's series still (its lock) while pulling.
 */
#ifndef IOTRIAL_SERIES_GROUP_H
#define IOTRIAL_SERIES_GROUP_H

#include <stddef.h>
#include "measure/series.h"
#include "steady/series_sink.h"

struct series_group {
	struct series merged;		/* recent merged intervals */
	struct series_sink sink;
	size_t ramp_out, meas_out;	/* merged intervals built, per phase */
	int meas_phase;			/* every thread's ramp is over and built */
	struct hist *h;			/* DDIR_NR scratch */
};

/* As series_sink_init, for the group's reporting rule @c and series_max @max. */
int series_group_init(struct series_group *g, const struct steady_cfg *c, size_t max);

/*
 * Build every merged interval that is final in all @n threads (@thr their
 * series, @done whether each has ended) and feed it to the sink.  Returns
 * 0 or -ENOMEM.
 */
int series_group_pull(struct series_group *g, const struct series *const *thr, const int *done, size_t n);

/* The oldest interval of a thread's series @s the group still needs. */
size_t series_group_hold(const struct series_group *g, const struct series *s);

/* The group's results, as series_sink_finish (pull with every thread done first). */
int series_group_finish(struct series_group *g, struct series **series, struct steady **steady);

void series_group_free(struct series_group *g);

#endif
