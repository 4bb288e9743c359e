/*
 * hostview_series: the host's view sampled while a guest's run runs
 * (docs/vm.md, "The host's series").  A sample (hostview.h) is taken before
 * the run, then whenever a period is due while the caller waits for the
 * runner (hostview_series_tick, from its wait loop), and once after the
 * run.  Each sample keeps, per drive, QMP's counters and QEMU's CPU time by
 * role, cumulative since the first: a boundary of the host's series.
 *
 * Joined with the guest's own series (hostview_guest: its I/Os over its
 * job's clock), the host's figures cover the guest's measured window: the
 * guest's clock and the host's differ, so the job's start on the host's
 * clock is where the host's drive counters meet the guest's own count
 * curve (the median over the samples taken while the job ran), and the
 * window is that start plus the ramp to that start plus the job's last
 * interval.  Inside one host interval the drive's counters are spread as
 * the guest's own I/Os were (its series), QEMU's CPU evenly in time.
 *
 * Memory is bounded whatever the run's length: at most
 * HOSTVIEW_SERIES_POINTS boundaries (fewer with many drives:
 * HOSTVIEW_SERIES_CELLS drive counters in all); when full, every other
 * boundary goes (adjacent intervals merge in pairs) and the period doubles.
 * Not on any hot path: the caller's wait loop, a few samples a second.
 */
#ifndef IOTRIAL_HOSTVIEW_SERIES_H
#define IOTRIAL_HOSTVIEW_SERIES_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "env/hostview.h"
#include "lib/err.h"

#define HOSTVIEW_SERIES_POINTS 1024
#define HOSTVIEW_SERIES_CELLS 65536

/* One drive's counters at a boundary (QMP's, since QEMU started). */
struct hostview_count {
	uint64_t rd_ops, wr_ops, flush_ops, rd_bytes, wr_bytes, rd_ns, wr_ns, flush_ns;
};

/* One boundary: when, and QEMU's CPU since the first sample. */
struct hostview_point {
	int64_t t_ns;		/* CLOCK_MONOTONIC */
	double cpu[HOST_ROLE_NR], cpu_total;
};

struct hostview_series {
	const struct hostview_cfg *cfg;
	int64_t period_ns;	/* between samples (doubles when the points are thinned) */
	struct hostview_sample first, last;	/* before the run; the latest (empty: none yet) */
	struct hostview_point *pt;
	struct hostview_count *cnt;	/* [point * nd + drive], the drives of @first */
	size_t n, max, nd;
	struct hostview_point sum;	/* the CPU sums at the latest sample (thinning keeps it) */
	int lost;		/* a sample failed: no more are taken */
	int64_t lost_ns;
	char lost_msg[ERR_MSG_MAX];
};

/*
 * The sample before the run, and the period (@period_s: the guest job's
 * series interval; <= 0: 1 s).  0, or -errno with @e filled (@s then holds
 * nothing; hostview_series_free is safe).
 */
int hostview_series_start(struct hostview_series *s, const struct hostview_cfg *c,
			  double period_s, struct err *e);

/*
 * hostview_series_start's second half, on a sample taken elsewhere:
 * @first's arrays become the series' (@first is emptied).  0 or -ENOMEM.
 */
int hostview_series_init(struct hostview_series *s, const struct hostview_cfg *c,
			 double period_s, struct hostview_sample *first, struct err *e);

/*
 * @h, taken after the latest, as the next boundary (its arrays become the
 * series'; @h is emptied): the tick's and the end's second half.
 */
void hostview_series_add(struct hostview_series *s, struct hostview_sample *h);

/*
 * A sample if one is due (a period after the last).  0: taken or not due;
 * -errno with @e filled the first time a sample fails (the socket went
 * away): the samples so far are kept, no more are taken, and later calls
 * return 0.
 */
int hostview_series_tick(struct hostview_series *s, struct err *e);

/* The sample after the run, due or not; as hostview_series_tick otherwise. */
int hostview_series_end(struct hostview_series *s, struct err *e);

/*
 * "iotrial.host" (a new object) over the guest's measured window with the
 * guest's figures and series @g, and the host's series as "series".
 * Without a guest series, or when no sample fell inside the job, the window
 * is the whole run (window.from says which).  NULL with @e filled when
 * fewer than two samples were taken or no drive moved.
 */
json_t *hostview_series_join(const struct hostview_series *s, const struct hostview_guest *g,
			     struct err *e);

void hostview_series_free(struct hostview_series *s);

#endif
