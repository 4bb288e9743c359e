/*
 * engine_rows: engine option rows that engines in different files list, so
 * that each is one row (io/engine.h, "An engine's options"), kept below
 * those engines and the registry alike.  Per-I/O priorities' rows are
 * cmdprio.h's, beside their mechanism.
 */
#ifndef IOTRIAL_ENGINE_ROWS_H
#define IOTRIAL_ENGINE_ROWS_H

#include "model/opt_def.h"

/*
 * hipri=: polled completions, which io_uring (IORING_SETUP_IOPOLL) and
 * pvsync2 (RWF_HIPRI) take; its value is struct job's hipri.  Ended by a
 * row without a name.
 */
extern const struct opt_def engine_rows_hipri[];

/*
 * force_async=N: every Nth SQE with IOSQE_ASYNC, which io_uring and
 * io_uring_cmd take; its value is struct job's force_async.  Ended by a row
 * without a name.
 */
extern const struct opt_def engine_rows_force_async[];

/*
 * The ring's options, which io_uring and io_uring_cmd both take (fio lists
 * them under both, with one meaning).  Their values live in the job's
 * engine area: each of the two engines' options structs starts with this
 * one, so the rows' offsets are the same under either.
 */
struct engine_ring_opts {
	int fixedbufs;		/* register the I/O buffers */
	int registerfiles;	/* register the files */
	int sqthread_poll;	/* IORING_SETUP_SQPOLL */
	int sqthread_poll_cpu;	/* its CPU (SQ_AFF), -1 = unset */
	int nonvectored;	/* a command with the buffer's address, not an iovec */
};

/* fixedbufs, registerfiles, sqthread_poll, sqthread_poll_cpu; ended by a row without a name. */
extern const struct opt_def engine_rows_ring_setup[];

/* nonvectored (listed after hipri, in fio's order); ended by a row without a name. */
extern const struct opt_def engine_rows_ring_io[];

#endif
