/*
 * runner: one run of --runner's command (ab's runs, and the plain run
 * driven from the host into a guest, docs/vm.md), a child process waited
 * for without blocking: while it runs, the caller's tick is called (the
 * host's samples) and SIGINT/SIGTERM, held by the caller, are passed on
 * to it once.
 */
#ifndef IOTRIAL_CLI_RUNNER_H
#define IOTRIAL_CLI_RUNNER_H

#include <signal.h>
#include <stddef.h>

/*
 * argv[0] onwards for @runner (NULL: "iotrial", this very binary).  A
 * runner with blanks is a command line: --runner="mpirun -n 4 -H a,b
 * iotrial" makes each run one whole MPI job (docs/mpi.md).  Its words and
 * a copy of the string go at the end of *argv's own allocation (grown from
 * @cap pointers), so free(*argv) frees them.  Returns 0 or -ENOMEM.
 */
int runner_words(const char *runner, char ***argv, size_t *n, size_t cap);

struct runner_wait {
	/* called every ~50 ms while the child runs; NULL: none */
	void (*tick)(void *arg);
	/* waits up to @s for SIGINT/SIGTERM: the signal, or 0 */
	int (*signalled)(void *arg, double s);
	void *arg;
	const sigset_t *child_mask;	/* the child's signal mask (the caller's before it held them) */
	const char *log;		/* stdout and stderr go there; NULL: inherited */
	const char *out;		/* then stdout apart, there; NULL or "": with the log */
};

/*
 * Run @runner (NULL: /proc/self/exe) with @args (@nargs) and wait for it.
 * Returns its exit code (127: it could not be started; 128 + N: killed by
 * signal N; EXIT_INTERNAL: no fork).
 */
int runner_run(const char *runner, char *const *args, size_t nargs, const struct runner_wait *w);

#endif
