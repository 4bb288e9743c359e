/*
 * abmpi: an A/B trial with each side on its own hosts (docs/mpi.md, "A/B
 * trials across hosts"):
 *
 *     mpirun -H vmA,vmB -n 2 iotrial ab --a-ranks=0 --b-ranks=1 --runs=5 job.fio
 *
 * Rank 0 is the controller: it runs trial.c's loop (order, stop rule,
 * manifest, one trial directory and one report, all on its host), and its
 * spawn callback (abmpi_spawn) tells the ranks of one side to run while every
 * other rank waits idle: the two sides never load shared hardware at once,
 * and a waiting rank sleeps between probes rather than spinning (OpenMPI's
 * blocking calls spin a core, which on a shared hypervisor loads the other
 * side).  The other ranks serve (abmpi_serve): wait for a command, run it in
 * this process on their side's communicator (a side of several ranks is one
 * multi-host run merged as under plain mpirun), and send back the exit code,
 * their log and, from the side's first rank, the result.  Each run is timed
 * on its own host; the controller records its own start and end around it,
 * and from the host's two clock readings an offset estimate (as NTP does).
 *
 * Faults: a run that fails ends the trial with its message and the ranks'
 * host; a rank that does not answer within the run timeout is named and the
 * job is ended (abmpi.lost: the caller writes what it has, then
 * mpirank_abort).  A rank that dies makes mpirun end the job: the controller
 * gets SIGTERM, which the trial records as an interruption of the run, with
 * its hosts.
 *
 * Messages are JSON texts; mpirank.c carries them and is the only file that
 * calls MPI.  Nothing here prints: the run callback is the CLI's.
 */
#ifndef IOTRIAL_ABMPI_H
#define IOTRIAL_ABMPI_H

#include <limits.h>	/* PATH_MAX */
#include <stddef.h>
#include <jansson.h>
#include "lib/err.h"
#include "mpi/mpirank.h"
#include "trial/trial.h"

#define ABMPI_HOSTLEN 64

struct abmpi {
	struct mpirank *world;
	struct mpirank side;		/* this rank's side (inactive: the controller alone) */
	int my_side;			/* 0 A, 1 B, -1 in neither (the controller only) */
	unsigned *ranks[2];		/* world ranks of A and B, ascending */
	size_t nranks[2];
	char *hosts;			/* ABMPI_HOSTLEN bytes per world rank */
	double timeout_s;		/* per run; 0: auto (abmpi_timeout) */
	double longest_s;		/* the longest run so far (controller) */
	int lost;			/* a rank did not answer: the job must be aborted */
	/*
	 * Run one run in this process: @argv (argv[0] "iotrial", then fio's
	 * arguments, --output=FILE last) on @side's ranks (cmd_run's path with
	 * @side for the world).  Returns its exit code; sets *@sig to the
	 * signal that stopped it, if one did.
	 */
	int (*run)(void *arg, int argc, char **argv, struct mpirank *side, int *sig);
	void *run_arg;
	char tmp[PATH_MAX];		/* this rank's scratch directory for a run's output */
};

/*
 * "--a-ranks=LIST": MPI ranks as numbers and ranges ("0", "1-3", "0,2,4-5"),
 * each below @nranks, none twice.  *@out (malloc'd, ascending), *@n.  0, or
 * -EINVAL with @e naming @opt and the value (EXIT_USAGE).
 */
int abmpi_parse_ranks(const char *opt, const char *list, unsigned nranks, unsigned **out,
		      size_t *n, struct err *e);

/*
 * Both sides' lists checked together: disjoint, and every rank but 0 in one
 * of them (rank 0 may be in a side or control alone).  0 or -EINVAL (@e).
 */
int abmpi_check_sides(unsigned *const ranks[2], const size_t nranks[2], unsigned world,
		      struct err *e);

/*
 * Collective over @world (every rank, after the lists were checked): make
 * the side communicators, learn every rank's host, make this rank's
 * scratch directory.  0 or -errno (@e).
 */
int abmpi_init(struct abmpi *x, struct mpirank *world, unsigned *ranks[2], size_t nranks[2],
	       struct err *e);

/* "rank 1 (vmB)" or "ranks 1, 2 (vmB, vmC)": side @s's ranks and hosts. */
void abmpi_where(const struct abmpi *x, int s, char *buf, size_t sz);

/* {"controller": {rank, host}, "a": {ranks, hosts}, "b": ..., "run_timeout_s"}. */
json_t *abmpi_manifest(const struct abmpi *x);

/* The timeout of the next run: the given one, or auto (10 min, or 3 x the longest run + 1 min). */
double abmpi_timeout(const struct abmpi *x);

/*
 * trial_cfg.spawn on the controller (@arg is the struct abmpi): run side
 * @side on its ranks; @args end with --output=FILE, where the result is
 * written here (on the controller), and @log receives the ranks' output.
 * Sets t->where and t->run_note.  Returns the run's exit code; 128 + N when
 * signal N came while waiting; EXIT_INTERNAL with x->lost set when a rank
 * gave no answer in time (@log says which).
 */
int abmpi_spawn(void *arg, struct trial *t, int side, char *const *args, size_t nargs,
		const char *log);

/*
 * A side rank: run what the controller sends until it says quit.  0, or
 * -errno (@e) when a message could not be read or answered.
 */
int abmpi_serve(struct abmpi *x, struct err *e);

/* Controller: tell every other rank to finish (after the trial, not after a loss). */
void abmpi_quit(struct abmpi *x);

/*
 * Remove this rank's scratch directory (abmpi_free does it too): the
 * controller, before it aborts a job that lost a rank and so never reaches
 * abmpi_free.
 */
void abmpi_scratch_remove(struct abmpi *x);

/* Release what @x holds (the side communicator, the scratch directory). */
void abmpi_free(struct abmpi *x);

#endif
