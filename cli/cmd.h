/*
 * cmd: the subcommands main() dispatches to.  Each takes the arguments after
 * its own name (argv[0] is the subcommand) and returns an exit code (EXIT_*).
 * Each prints its own output and errors; the library below them never does.
 */
#ifndef IOTRIAL_CMD_H
#define IOTRIAL_CMD_H

#include <limits.h>	/* PATH_MAX */
#include <stddef.h>
#include <jansson.h>	/* json_t: an ab trial's manifest */

struct cmdline;
struct compare_opts;
struct err;
struct resultread;
struct run_result;

/* Run the jobs described by a parsed command line (the fio-compatible mode). */
int cmd_run(struct cmdline *cl);

/*
 * ab across hosts (abmpi.h): one run of fio's @argv in this process, as one
 * of @side's ranks (MPI already started; its side's first rank writes the
 * result).  Returns its exit code; *@sig the signal that stopped it, or 0.
 */
struct mpirank;
int cmd_run_rank(int argc, char **argv, struct mpirank *side, int *sig);

/* iotrial compare A... [-- B...] */
int cmd_compare(int argc, char **argv);

/* iotrial check RESULT... */
int cmd_check(int argc, char **argv);

/* iotrial ab --runs N --a OPTS --b OPTS <fio options or job files> */
int cmd_ab(int argc, char **argv);

/* iotrial preset list | preset show NAME [fio options] */
int cmd_preset(int argc, char **argv);
/* iotrial report RESULT... [-o FILE.html] */
int cmd_report(int argc, char **argv);

/* iotrial history COMMAND ... (cmd_history.c, docs/history.md) */
int cmd_history(int argc, char **argv);

/*
 * The history's hooks in the other commands.  None of them ever changes a
 * run's outcome: a database problem is one warning line on stderr.
 */

/* A run has written its results: store it when --history or IOTRIAL_HISTORY asks. */
void cmd_history_after_run(const struct cmdline *cl, const struct run_result *res, int code);

/* ab: --history[=FILE] taken out of argv (and IOTRIAL_HISTORY out of the runs' environment). */
struct cmd_history_ab {
	int on;
	char file[PATH_MAX];
};
int cmd_history_ab_take(int *argc, char **argv, struct cmd_history_ab *hab);

/* ab: a finished trial, stored with its runs and verdicts (@keys: the options under test). */
void cmd_history_after_ab(const struct cmd_history_ab *hab, const char *dir, const json_t *manifest,
			  const struct compare_opts *copts, char *const *keys, size_t nkeys);

/* compare: --baseline=, --candidate= (history:SELECTOR or files), --history=, --allow-differences. */
struct cmd_history_sides {
	const char *baseline, *candidate, *db;
	int allow_diff;
	int used;		/* --baseline or --candidate given */
};

/* One compare option: 1 taken with its value, 2 a flag taken, 0 not one of these, -1 error. */
int cmd_history_compare_option(const char *name, const char *value, struct cmd_history_sides *hs,
			       struct err *e);

/*
 * Load compare's sides when --baseline/--candidate were given; @files (the
 * positional arguments) are the side not given.  A side from the history
 * must be comparable with the other (else EXIT_USAGE saying what differs)
 * and sets o->sides_apart.  0, or -1 with @e set.
 */
int cmd_history_compare_load(const struct cmd_history_sides *hs, char *const *files, size_t nfiles,
			     struct compare_opts *o, struct resultread ***a, size_t *na,
			     struct resultread ***b, size_t *nb, struct err *e);

#endif
