/*
 * steady_live: the steady-state verdict while the job runs, for status
 * lines ("steady since 12 s").
 *
 * The same rule as the report (the job's reporting rule, steady.h), fed one
 * final interval at a time (the caller's duty: run_status.c feeds one only
 * once a later one exists or the thread has ended, as a fold may still grow
 * the newest, series.h), so that it needs only the last W round values: rounds
 * are aligned on the first measured interval after ss_ramp, as after the run;
 * the first window that meets the criterion makes the job "steady since"
 * its start; every later round is checked against the band (steady_band);
 * the first one outside makes it "lost at" that round's start, and the
 * search starts again from that round (after the run the report keeps the
 * first window and falls back to MSER-5 for the tail instead).
 *
 * Memory: W doubles and W start times, whatever the run's length.  Called
 * from the status thread, never from a worker's hot path.
 */
#ifndef IOTRIAL_STEADY_LIVE_H
#define IOTRIAL_STEADY_LIVE_H

#include <stdint.h>
#include "measure/series.h"
#include "steady/steady.h"

/* One interval of an entry, summed over its threads (steady_live_pick). */
struct steady_live_iv {
	uint64_t t_ms, dur_us;		/* the latest end, the longest duration */
	uint64_t ios, bytes;		/* the rule's directions */
	double lat_sum;
	int ramp, used;
};

enum steady_live_state { STEADY_LIVE_SEARCHING = 0, STEADY_LIVE_STEADY, STEADY_LIVE_LOST };

struct steady_live {
	struct steady_cfg cfg;		/* rule STEADY_OFF: nothing is tracked */
	double *v;			/* the last W round values, oldest first */
	uint64_t *start;		/* their start times */
	unsigned nr;
	uint64_t r_ios, r_bytes, r_dur;	/* the round in progress */
	double r_lat;
	unsigned r_n;
	uint64_t r_start;
	uint64_t first_ms;		/* start of the first measured interval */
	int has_prev;			/* prev_end_ms: the end of the last interval seen */
	uint64_t prev_end_ms;
	int seen;
	enum steady_live_state state;
	uint64_t since_ms, lost_ms;	/* series clock */
	double lo, hi;			/* the band while steady */
};

/* Track @c (copied).  Returns 0 or -ENOMEM (the tracker is then off). */
int steady_live_init(struct steady_live *l, const struct steady_cfg *c);

void steady_live_free(struct steady_live *l);

/* Add one thread's interval @iv into @acc (zeroed first by the caller). */
void steady_live_pick(const struct steady_cfg *c, const struct series_iv *iv,
		      struct steady_live_iv *acc);

/* Feed one interval (ramp ones are skipped). */
void steady_live_add(struct steady_live *l, const struct steady_live_iv *iv);

#endif
