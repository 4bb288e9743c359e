/*
 * cmd: the subcommands main() dispatches to.  Each takes the arguments after
 * its own name (argv[0] is the subcommand) and returns an exit code (EXIT_*).
 * Each prints its own output and errors; the library below them never does.
 */
#ifndef IOTRIAL_CMD_H
#define IOTRIAL_CMD_H

#include <stddef.h>

struct cmdline;
struct err;

/* Run the jobs described by a parsed command line (the fio-compatible mode). */
int cmd_run(struct cmdline *cl);

/*
 * ab across hosts (abmpi.h): one run of fio's @argv in this process, as one
 * of @side's ranks (MPI already started; its side's first rank writes the
 * result).  Returns its exit code; *@sig the signal that stopped it, or 0.
 */
struct mpirank;
int cmd_run_rank(int argc, char **argv, struct mpirank *side, int *sig);

/*
 * iotrial --runner=CMD [--host-qmp=SOCKET[,drive=ID]] <fio options>: one run
 * through the runner (into a QEMU guest) with the host's view (docs/vm.md).
 * cmd_run_host_wanted: does the command line hold --runner or --host-qmp?
 */
int cmd_run_host_wanted(int argc, char **argv);
int cmd_run_host(int argc, char **argv);

/* iotrial compare A... [-- B...] */
int cmd_compare(int argc, char **argv);

/* iotrial check RESULT... */
int cmd_check(int argc, char **argv);

/* iotrial ab --runs N --a OPTS --b OPTS <fio options or job files> */
int cmd_ab(int argc, char **argv);

/* iotrial sweep [--slo=pNN:TIME] [--range=LO-HI] [--steps=N] <fio options or job files> */
int cmd_sweep(int argc, char **argv);

/* iotrial preset list | preset show NAME [fio options] */
int cmd_preset(int argc, char **argv);
/* iotrial report RESULT... [-o FILE.html] */
int cmd_report(int argc, char **argv);

/* iotrial history COMMAND ... (cmd_history.c, docs/history.md) */
int cmd_history(int argc, char **argv);

#endif
