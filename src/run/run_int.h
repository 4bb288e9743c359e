/*
 * run_int: what run.c (orchestration) and run_status.c (status lines and
 * progress) share.  Internal to run: nothing else includes it.  run.c calls
 * run_status.c, never the other way.
 */
#ifndef IOTRIAL_RUN_INT_H
#define IOTRIAL_RUN_INT_H

#include "env/iosched.h"
#include <signal.h>	/* sigset_t */
#include <stddef.h>
#include <stdint.h>
#include "log/agglog.h"
#include "lib/clock.h"
#include "io/flow.h"
#include "io/zbd_dev.h"	/* struct zbd_set */
#include "measure/sample_group.h"
#include "run/series_group.h"
#include "worker/worker.h"

/* run.h's, by pointer only: run.c and run_status.c include run.h, run_int.h
 * does not, so that run.c including run_int.h makes no include loop. */
struct run_req;
struct run_progress_job;

struct run_state {
	const struct run_req *req;
	struct iosched sched;		/* ioscheduler=: devices switched, put back at the end */
	struct clock clk;
	struct worker *w;
	size_t nr;
	sigset_t sigs;
	int signal;
	uint64_t t0_ns;
	uint64_t grp_t0_ns;		/* when the running stonewall group started */
	int peer_stop;			/* a peer process ended early (run_sync) */
	/* docs/time-series.md, long runs: group_reporting groups' series, merged as the threads run */
	struct series_group *grp;
	size_t nr_grp;
	size_t *grp_of;			/* per worker: its group, or SIZE_MAX */
	size_t *hold_status;		/* per worker: the status lines' next interval */
	size_t *hold_grp;		/* per worker: the group's next interval */
	int grp_err;			/* a pull failed (-ENOMEM) */
	struct flow_set flows;		/* flow=: counters shared by the jobs of a flow_id */
	struct zbd_set zbd;		/* zonemode=zbd: the zoned devices, shared by their jobs */
	int zbd_on;			/* zbd initialised */
	struct sample_group *sgrp;	/* per group: bw/iops figures, streamed */
	struct agglog agg;		/* --bandwidth-log (closed: not asked) */
};

/*
 * The end of the stonewall group whose first worker is @first: a stonewall
 * job waits for everything before it.  The one rule, for the run loop and
 * for the ETA over the groups still to come.
 */
static inline size_t run_group_end(const struct run_state *s, size_t first)
{
	size_t end = first + 1;

	while (end < s->nr && !(s->w[end].job != s->w[end - 1].job && s->w[end].job->stonewall))
		end++;
	return end;
}

/*
 * Status entries of one stonewall group: the workers [first, end) grouped as
 * the report groups them, and what has been delivered of each one's series.
 */
struct run_status {
	struct run_progress_job *e;
	size_t nr;
	const struct job **job;		/* the first thread's job, per entry */
	size_t *of;			/* entry of worker first + i */
	size_t *sent;			/* intervals delivered, per entry */
	size_t *ready;			/* intervals complete in every thread, per entry */
	size_t *done_nr;		/* intervals of the ended threads (the most) */
	int *caught_up;			/* -1 no running thread, 0 behind, 1 caught up */
	struct hist *h;			/* DDIR_NR scratch histograms */
	uint64_t last_data_ns;		/* when intervals were last delivered */
	struct steady_live *live;	/* per entry: "steady since" (steady_live.h) */
	size_t *live_sent;		/* intervals fed to it, per entry */
	size_t *live_ready;		/* intervals final in every thread, per entry */
	struct steady_live_iv *acc;	/* scratch: one entry's intervals summed */
	size_t acc_cap;
};

/*
 * The threads' series keep only what is still to be read: publish worker
 * @i's series_hold, the smaller of what the status lines and its group's
 * collector have not read yet.
 */
void run_hold_publish(struct run_state *s, size_t i);

/* Status entries of workers [first, end): as the report groups them. */
void run_status_init(struct run_state *s, struct run_status *st, size_t first, size_t end);
void run_status_free(struct run_status *st);
/* Are the entries' next intervals complete (or is a lagging one past @period)? */
int run_status_ready(struct run_state *s, struct run_status *st, size_t first, size_t end,
		     uint64_t period);
/* Call the progress callback; with @st, its entries' new intervals too. */
void run_progress(struct run_state *s, size_t first, size_t end, struct run_status *st,
		  int with_data, int final);
/* Deliver what is ready (all of it when @final), in phase-pure calls. */
void run_status_deliver(struct run_state *s, size_t first, size_t end, struct run_status *st,
			int final);

#endif
