/*
 * mpirank: the same job run by many processes (hosts) at once under an MPI
 * launcher, with one merged result (docs/mpi.md).
 *
 * Built with IOTRIAL_MPI (the Makefile's MPI detection), and started by a
 * launcher (mpirun/mpiexec/srun: OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK
 * in the environment), every process is one rank.  Otherwise -- a plain
 * build, or the MPI build started plainly -- this file never calls MPI and
 * the process is rank 0 of 1: the run is exactly a plain run.
 *
 * The protocol, in the order every rank follows it (collectives must match):
 *   1. mpirank_init: MPI_Init (SIGINT/SIGTERM must already be blocked: the
 *      MPI library's threads inherit the mask, so the signals mpirun forwards
 *      reach the run loop instead of killing the process).
 *   2. mpirank_agree (run_sync.ready, once targets are laid out): an
 *      allreduce that is also the start barrier; if any rank failed, every
 *      rank gets the first failing rank's message, prefixed by its rank and
 *      host, and nobody starts I/O.  start_ns is taken when it returns.
 *   3. While jobs run (run_sync.poll, every loop tick): a rank that stops
 *      early (signal, job error) sends a stop to rank 0, which relays it to
 *      all; they stop too and the result is marked partial.  Point-to-point
 *      and non-blocking, so ranks that run normally never wait on each other.
 *   4. mpirank_gather: a non-blocking barrier while still relaying stops,
 *      then the stop messages are drained (counts exchanged, so none is left
 *      in flight), each rank's packed result is gathered to rank 0, which
 *      merges them (mpimerge.h).
 *   5. mpirank_exit_code: every rank exits with rank 0's code;
 *      mpirank_finalize: MPI_Finalize.
 * Only rank 0 writes results and prints; the others stay silent.
 */
#ifndef IOTRIAL_MPIRANK_H
#define IOTRIAL_MPIRANK_H

#include <stddef.h>
#include <stdint.h>
#include "lib/err.h"
#include "model/job.h"
#include "result/result.h"
#include "run/run.h"

struct mpirank {
	unsigned rank, nranks;		/* 0 and 1 when not active */
	int active;			/* MPI initialised: launched, MPI build */
	int agreed;			/* mpirank_agree was called (once per run) */
	int started;			/* mpirank_agree let I/O start */
	char host[256];
	uint64_t start_ns, end_ns;	/* CLOCK_REALTIME: I/O start, run end */
	uint64_t deadline_ns;		/* CLOCK_MONOTONIC; 0: none (mpirank_rearm) */
	struct run_sync sync;		/* hooks for run_req.sync */
	void *st;			/* MPI requests and counters (mpirank.c) */
};

/*
 * Fill @m; under a launcher initialise MPI (see the top for signals).
 * Returns 0, or -errno with @e filled (MPI failed to start, or its rank
 * disagrees with the launcher's environment).
 */
int mpirank_init(struct mpirank *m, struct err *e);

/*
 * Collective: @r is this rank's outcome so far (0 or its failure, @e
 * filled).  Returns 0 when every rank succeeded (I/O may start), or the
 * first failing rank's code with @e holding "rank N (host): message" on
 * every rank.  Not active: returns @r.
 */
int mpirank_agree(struct mpirank *m, int r, struct err *e);

/*
 * Collective, after run_execute on a run that started: rank 0 replaces @res's
 * jobs by the merge of all ranks and attaches the ranks (res->ranks); other
 * ranks leave @res as it is (they do not report).  @jobs is the job list
 * the run executed.  Returns 0 or -errno with @e filled.
 */
int mpirank_gather(struct mpirank *m, struct run_result *res, const struct job *jobs,
		   size_t nr_jobs, struct err *e);

/* Collective: rank 0's @code, on every rank (@code itself when not active). */
int mpirank_exit_code(struct mpirank *m, int code);

/* MPI_Finalize when active; @m is then inactive. */
void mpirank_finalize(struct mpirank *m);

/*
 * ab across hosts (docs/mpi.md, "A/B trials across hosts"): rank 0 is the
 * trial's controller, the other ranks' sides are sub-communicators, and the
 * controller talks to each rank with messages of bytes (what they mean is
 * abmpi.c's; this file only carries them).  Waiting here never spins on a
 * side that is meant to be idle: receives probe and then sleep or call the
 * caller's idle function.
 */

/*
 * Collective over @m: @sub becomes the ranks that passed the same @color
 * (>= 0), ranked by their rank in @m; a negative @color joins none (@sub
 * stays inactive).  Each run on @sub starts with mpirank_rearm and uses
 * @sub as cmd_run uses the world (agree, gather).  0 or -errno (@e).
 */
int mpirank_split(struct mpirank *m, int color, struct mpirank *sub, struct err *e);

/*
 * Ready @m for its next run: per-run state cleared, a stop receive posted.
 * @deadline_ns (CLOCK_MONOTONIC, 0 none): mpirank_agree and mpirank_gather
 * give up with -ETIMEDOUT when the run's other ranks have not come by then
 * (the communicator is then unusable: the job must end, mpirank_abort).
 */
void mpirank_rearm(struct mpirank *m, uint64_t deadline_ns);

/* Release a split communicator (every member calls it, before finalize). */
void mpirank_split_free(struct mpirank *sub);

/* Collective: every rank's host name into @hosts, @each bytes per rank (nranks of them). */
int mpirank_hosts(struct mpirank *m, char *hosts, size_t each, struct err *e);

/*
 * Send @len bytes to rank @to of @m; returns once they are on their way or
 * taken (polling each millisecond), -ETIMEDOUT at @deadline_ns (0: none).
 */
int mpirank_msg_send(struct mpirank *m, unsigned to, const void *buf, size_t len,
		     uint64_t deadline_ns, struct err *e);

/*
 * The next message from rank @from (< 0: any) into *@buf (malloc'd,
 * NUL-terminated beyond *@len), its sender in *@src.  Between probes it
 * calls @idle(@arg), which paces the wait (sleeps) and returns nonzero to
 * give up (-EINTR); NULL sleeps 20 ms.  -ETIMEDOUT at @deadline_ns (0: none).
 */
int mpirank_msg_recv(struct mpirank *m, int from, uint64_t deadline_ns, int (*idle)(void *),
		     void *arg, char **buf, size_t *len, unsigned *src, struct err *e);

/*
 * End the whole MPI job with @code (MPI_Abort): when a rank is hung or lost,
 * the others cannot finalize with it.  MPI_Abort ends every rank, this one
 * included, and does not come back in Open MPI or MPICH; without MPI (one
 * rank, @m inactive) there is nothing to end.  When it returns, the caller
 * (cli/) exits with @code itself: the library never exits.
 */
void mpirank_abort(struct mpirank *m, int code);

#endif
