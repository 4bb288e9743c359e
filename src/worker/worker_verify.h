/*
 * worker_verify: verify='s steps in a worker (see worker_verify.c): the
 * blocks a job writes are logged (verify_log.h), read back and checked
 * during the job (verify_backlog) or after it, each read-back counted as one
 * of the job's reads, as fio counts them; verify_state_save/_load.  Used by
 * worker.c and worker_setup.c only; none of it runs unless verify= is set.
 */
#ifndef IOTRIAL_WORKER_VERIFY_H
#define IOTRIAL_WORKER_VERIFY_H

#include <stdint.h>
#include "lib/err.h"
#include "worker/worker_types.h"	/* struct worker */

/*
 * Set up @w->verify and its logs from the job (nothing when verify is off);
 * with verify_state_load, read the state file.  0 or -errno (+ @e).
 */
int worker_verify_init(struct worker *w, struct err *e);

/* A write @io completed (w->vtrack): logged; with verify_backlog, checks may be due. */
void worker_verify_written(struct worker *w, const struct io_u *io);

/*
 * verify_backlog asked for read-backs (w->vbl_due): make @io, a free io_u,
 * the oldest of them (a READ with io->vbl set), for the engine to carry as
 * any other I/O.
 */
void worker_verify_backlog_next(struct worker *w, struct io_u *io);

/* A read-back @io completed (counted as one of the job's reads): check it; a failure sets @w->error. */
void worker_verify_backlog_done(struct worker *w, const struct io_u *io);

/* verify= on a read job: check @io's data as it completed; a failure sets @w->error (EILSEQ). */
void worker_verify_read(struct worker *w, const struct io_u *io);

/*
 * do_verify: read back and check what the job wrote (what verify_backlog
 * left pending; with verify_only, the blocks the job would write, or those
 * verify_state_load names).  A failure sets @w->error.
 */
void worker_verify_pass(struct worker *w);

/* verify_state_save: write the state file of a writing job (an error sets @w->error). */
void worker_verify_save(struct worker *w);

/* Free what verify allocated. */
void worker_verify_free(struct worker *w);

#endif
