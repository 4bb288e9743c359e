/*
 * worker_compat: worker steps for fio-compatibility options (see
 * worker_compat.c).  Used only by worker.c.
 */
#ifndef IOTRIAL_WORKER_COMPAT_H
#define IOTRIAL_WORKER_COMPAT_H

#include <stdint.h>
#include "lib/err.h"
#include "worker/worker_types.h"	/* struct worker */

/*
 * fill_device: write @io came back short: the file system is (nearly) full,
 * so its region ends there (the verify pass checks no further).
 */
void worker_compat_fill_clamp(struct worker *w, const struct io_u *io);

/*
 * fill_device: @io failed.  A write's ENOSPC or EDQUOT is the job's end, not
 * its error (as fio): counted as issued, the region clamped, w->filled set.
 * Returns 1 then, 0 for any other error.
 */
int worker_compat_filled(struct worker *w, const struct io_u *io);

/* rate_min/rate_iops_min at a sample tick @now; a miss sets @w->error (EIO). */
void worker_compat_min_rate(struct worker *w, uint64_t now);

/* wait_for: return when the waitee's threads are done, or the run stops. */
void worker_compat_wait_for(struct worker *w);

#endif
