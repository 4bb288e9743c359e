/*
 * worker_fill: fill_device's end of a job (see worker_fill.c).  Used only by
 * worker.c.
 */
#ifndef IOTRIAL_WORKER_FILL_H
#define IOTRIAL_WORKER_FILL_H

#include "worker/worker_types.h"	/* struct worker */

/*
 * fill_device: write @io came back short: the file system is (nearly) full,
 * so its region ends there (the verify pass checks no further).
 */
void worker_fill_clamp(struct worker *w, const struct io_u *io);

/*
 * fill_device: @io failed.  A write's ENOSPC or EDQUOT is the job's end, not
 * its error (as fio): counted as issued, the region clamped, w->filled set.
 * Returns 1 then, 0 for any other error.
 */
int worker_fill_full(struct worker *w, const struct io_u *io);

#endif
