/*
 * worker_compat: worker steps for fio-compatibility options (see
 * worker_compat.c).  Used only by worker.c.
 */
#ifndef IOTRIAL_WORKER_COMPAT_H
#define IOTRIAL_WORKER_COMPAT_H

#include <stdint.h>
#include "err.h"
#include "worker.h"

/* verify=: set up @w->verify from the job (nothing when verify is off).  0 or -errno (+ @e). */
int worker_compat_verify_init(struct worker *w, struct err *e);

/* do_verify: read every file's region back and check it; a failure sets @w->error. */
void worker_compat_verify_pass(struct worker *w);

/* verify_backlog: @io (a write) completed; every verify_backlog writes, check the latest. */
void worker_compat_verify_written(struct worker *w, const struct io_u *io);

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

/* verify= on a read job: check @io's data as it completed; a failure sets @w->error (EILSEQ). */
void worker_compat_verify_read(struct worker *w, const struct io_u *io);

/* Free what verify_backlog allocated. */
void worker_compat_verify_free(struct worker *w);

/* rate_min/rate_iops_min at a sample tick @now; a miss sets @w->error (EIO). */
void worker_compat_min_rate(struct worker *w, uint64_t now);

/* wait_for: return when the waitee's threads are done, or the run stops. */
void worker_compat_wait_for(struct worker *w);

#endif
