/*
 * devwatch: what the block devices under one worker's files saw, over the
 * worker's measured time (ramp excluded) and over each series interval
 * (docs/json.md, the device view).  The worker calls it at its ramp end, at each interval boundary
 * and at its end: a few reads of /sys/block/<dev>/stat per interval, never
 * per I/O.  Per-interval views are kept for the first device only (the one
 * directly under the target: the loop device, the partition, the dm device),
 * and fold a sliver interval into the one before it exactly as series.h
 * does, so that they line up with the series intervals by t_ms.
 */
#ifndef IOTRIAL_DEVWATCH_H
#define IOTRIAL_DEVWATCH_H

#include <stddef.h>
#include <stdint.h>
#include "env/diskutil.h"
#include "io/nvme.h"	/* the SMART log of a passthrough target */
#include "lib/err.h"
#include "result/result.h"

struct devwatch {
	struct diskutil du;		/* the devices, target's own first */
	struct diskutil_snap *start;	/* per device, at the start of measurement */
	struct diskutil_snap iv_from;	/* first device, start of the open interval */
	struct diskutil_snap last_from;	/* first device, start of the last kept interval */
	int last_ramp;
	uint64_t last_dur_ns;
	/*
	 * Bounded memory (docs/time-series.md, long runs): the last interval's view waits in pend until the next one
	 * shows it is final (not followed by a sliver), then goes into iv, which
	 * holds at most max views: coarsened in pairs within each phase as
	 * series_sink does its stored series, each view covering level_n
	 * intervals but the last of each phase.
	 */
	struct disk_view_iv pend;
	int has_pend;
	struct disk_view_iv *iv;	/* per interval or element, first device */
	size_t nr_iv, cap_iv;
	size_t max;			/* series_max; 0: every interval */
	uint32_t level_n;
	struct disk_view *view;		/* per device, over the measured time */
	size_t nr_view;
	/*
	 * A target that is an NVMe namespace's char device (no block device
	 * under it: passthrough) is watched through its controller's SMART
	 * log instead: read at the start of measurement and at the end.
	 */
	int ctrl_fd;			/* -1 (or 0 when zeroed): none */
	struct nvme_smart ctrl_start;
	uint64_t ctrl_t0;
	struct ctrl_view ctrl;
};

/*
 * Find the devices behind @paths[0..n).  @w must be zeroed.  Paths without a device give none (not an
 * error); a first path that is an NVMe char device is watched through its
 * controller's log (ctrl), when the log can be read.  Returns 0 or -ENOMEM (@e filled).
 */
int devwatch_init(struct devwatch *w, const char *const *paths, size_t n, struct err *e);

/* Keep at most @max per-interval views (the job's series_max; 0: all). */
void devwatch_bound(struct devwatch *w, size_t max);

/*
 * Add the final interval view @v to the bounded list @iv (*@nr views, *@cap
 * allocated, @max and *@level_n as in struct devwatch).  Exposed for tests.
 * Returns 0 or -ENOMEM.
 */
int devwatch_store(struct disk_view_iv **iv, size_t *nr, size_t *cap, size_t max,
		   uint32_t *level_n, const struct disk_view_iv *v);

/* The worker starts its I/O at @t_ns: the first interval starts there. */
void devwatch_begin(struct devwatch *w, uint64_t t_ns);

/* The measured time starts at @t_ns (after ramp_time): snapshot every device. */
void devwatch_measure(struct devwatch *w, uint64_t t_ns);

/*
 * A series interval of @dur_ns (the length handed to series_add) ended at
 * @t_ns, stamped @t_ms (series.h), in the ramp or not: keep the first
 * device's view over it.  May allocate (while the list grows to max).
 * Returns 0 or -ENOMEM.
 */
int devwatch_interval(struct devwatch *w, uint64_t t_ms, uint64_t dur_ns, uint64_t t_ns, int ramp);

/* The measured time ended at @t_ns: the per-device views over it. */
void devwatch_end(struct devwatch *w, uint64_t t_ns);

/* Hand the views over to @r (job_result's dev and dev_iv); @w keeps none. */
void devwatch_take(struct devwatch *w, struct job_result *r);

void devwatch_free(struct devwatch *w);

struct series;

/*
 * After series_bound merged the job's series (docs/time-series.md, long runs), merge its
 * per-interval device views the same way, so that view k still describes
 * series element k (report_json matches them by position within the ramp
 * and measured phases): element k of a phase, holding n intervals
 * (series_iv_n), takes the phase's next views covering n intervals (a view
 * may cover several already: devwatch_store coarsens at a level no finer
 * than the series').  The counters are deltas,
 * so they add (ios, bytes, duration); the derived figures are recombined
 * exactly from them: IOPS = ios / duration, mean latency weighted by ios,
 * queue depths and util weighted by duration (util was capped at 100% per
 * interval before).  Views without a window (dur_ns 0) add nothing.  Views
 * beyond what the series covers are dropped.  Nothing changes when no
 * element was merged.  In place; cannot fail.
 */
void devwatch_coarsen(struct disk_view_iv *iv, size_t *nr, const struct series *s);

#endif
