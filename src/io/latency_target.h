/*
 * latency_target: the search for the deepest queue that still meets a
 * latency target (fio's latency_target, latency_window, latency_percentile,
 * latency_run).
 *
 * The job starts at depth 1.  At the end of each window of latency_window,
 * the window passes when at least latency_percentile % of the I/Os completed
 * in it took no longer than latency_target (total latency, issue to
 * completion, as fio measures it).  The depth then moves:
 *   - passed, and no depth has failed yet: it doubles (capped at iodepth);
 *   - passed after a failure: halfway up to the shallowest depth that failed;
 *   - failed: that depth becomes the upper bound and the depth goes halfway
 *     down to the deepest one that passed (a passed depth that now fails is
 *     no longer trusted: the lower bound drops by one).
 * When a pass leaves the depth where it was, the search has settled: one
 * more window runs at that depth with the statistics restarted (the job's
 * results are then those of the settled depth alone), and the job ends when
 * that window passes too.  With latency_run the search never settles: it
 * keeps moving the depth for as long as the job runs, and nothing restarts.
 * With latency_percentile=100 a single I/O over the target fails the window
 * at once; at depth 1 that is the job's error (ETIMEDOUT), as in fio.
 *
 * This file is the decision alone: counts in, a step out.  The worker
 * (worker.c) counts completions over the target on its hot path (one
 * compare), and calls lat_target_window() from its event path, where it also
 * applies the new depth (a cap on the I/Os in flight) and, after a step down
 * or when the search settles, first waits for the I/Os in flight so that the
 * next window sees only the new depth.
 */
#ifndef IOTRIAL_LATENCY_TARGET_H
#define IOTRIAL_LATENCY_TARGET_H

#include <stddef.h>	/* size_t */
#include <stdint.h>
#include "model/latency_target_cfg.h"	/* struct lat_target_cfg */

/* What the worker does after a window. */
enum lat_target_step {
	LAT_TARGET_UP,			/* deeper (or unchanged): go on */
	LAT_TARGET_DOWN,		/* shallower: let the I/Os in flight finish first */
	LAT_TARGET_SETTLE,		/* settled: drain, restart the statistics, one last window */
	LAT_TARGET_DONE,		/* the last window passed too: the job ends */
	LAT_TARGET_FATAL,		/* failed at depth 1 with percentile 100 (ETIMEDOUT) */
};

/* The search's state.  Invariant: 1 <= depth <= max; good < bad when bad_seen. */
struct lat_target {
	unsigned depth;			/* the depth allowed now */
	unsigned max;			/* iodepth */
	unsigned good;			/* deepest depth that passed (0: none yet) */
	unsigned bad;			/* shallowest depth that failed, when bad_seen */
	int bad_seen;
	int settled;			/* the last window (statistics restarted) is running */
	uint64_t windows;		/* windows judged so far */
};

/* Start a search between 1 and @max_depth (0 is taken as 1). */
void lat_target_init(struct lat_target *lt, unsigned max_depth);

/*
 * True when a window of @ios completions, @over of them above the target,
 * passes: (ios - over) / ios >= percentile / 100.  A window without any
 * completion fails (nothing came back within a whole window).
 */
int lat_target_met(const struct lat_target_cfg *c, uint64_t ios, uint64_t over);

/*
 * True when one completion over the target fails the window at once,
 * without waiting for its end (percentile 100, as fio).
 */
static inline int lat_target_at_once(const struct lat_target_cfg *c)
{
	return c->percentile >= 100.0;
}

/*
 * A window ended with @ios completions, @over of them above the target:
 * move lt->depth and say what the worker must do.  Never allocates.
 */
enum lat_target_step lat_target_window(struct lat_target *lt, const struct lat_target_cfg *c,
				       uint64_t ios, uint64_t over);

struct job;
struct opt_def;
struct num_ctx;
struct err;

/* latency_percentile=P, 0..100 (fio's list syntax: only its first value counts). */
int lat_target_parse_percentile(struct job *j, const struct opt_def *o, const char *val,
				const struct num_ctx *c, struct err *e);
int lat_target_show_percentile(const struct job *j, const struct opt_def *o, char *buf,
			       size_t len);

/* latency_target needs a latency_window.  0 or -EINVAL with @e filled (job_err). */
int lat_target_validate(const struct job *j, struct err *e);

#endif
