/*
 * abside: what a side of `iotrial ab` will run, read by iotrial's own parser
 * before any run (fio's command lines and job files are iotrial's input, so
 * the parse holds for fio as the runner too).  Two uses:
 *   - two sides whose command lines resolve to the same jobs would compare
 *     a set-up with itself: ab refuses them (trial.h's resolve);
 *   - a runner that cannot take --set (fio: a job file's own settings beat
 *     its command line) would silently drop a side option the job file
 *     sets: ab names it and refuses, rather than run two sides that do not
 *     differ the way the user said.
 * Nothing is run or opened beyond what --parse-only does.
 */
#ifndef IOTRIAL_ABSIDE_H
#define IOTRIAL_ABSIDE_H

#include <stddef.h>
#include "lib/err.h"

/*
 * The jobs @args (argv[1] on: options and job files, as the runner gets
 * them) resolve to, one "--name=... --opt=value ..." line per job with
 * every value resolved (opt_job_cmdline), in *@text (malloc'd).  0, or
 * -errno with @e filled (the parser's own message) when iotrial cannot read
 * them (a foreign runner's own options).
 */
int abside_jobs(char *const *args, size_t nargs, char **text, struct err *e);

/* A side option that does not reach a job (abside_unreached). */
struct abside_miss {
	size_t which;		/* its index in the side's arguments */
	char job[256];		/* the job's name */
	char where[256];	/* where the job is: "qd.fio:7", or "command line" */
};

/*
 * For a runner without --set: the first side option of @side (its
 * "--key=value" arguments; job files are skipped) that the command line
 * @common + @side does not carry into every job, because a job file sets
 * that key itself, or because the option comes after another --name job.
 * 1 with @miss filled, 0 when every side option reaches every job, or
 * -errno with @e filled when iotrial cannot read the command line (then
 * nothing can be said).
 */
int abside_unreached(char *const *common, size_t ncommon, char *const *side, size_t nside,
		     struct abside_miss *miss, struct err *e);

#endif
