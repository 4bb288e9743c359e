/*
 * history_hooks: the results history as the other commands use it (see
 * history_hooks.c).
 */
#ifndef IOTRIAL_HISTORY_HOOKS_H
#define IOTRIAL_HISTORY_HOOKS_H

#include <limits.h>	/* PATH_MAX */
#include <jansson.h>
#include "history/history.h"
#include "parse/cmdline.h"
#include "result/result.h"
#include "trial/compare.h"

/*
 * Open the history database @given (NULL: IOTRIAL_HISTORY, else the default
 * path) for @mode, waiting IOTRIAL_HISTORY_WAIT seconds for another writer's
 * lock.  0 or -errno with @e filled.
 */
int history_hooks_open(const char *given, enum history_mode mode, struct history **h,
		       struct err *e);

/*
 * The hooks in the other commands.  None of them ever changes a
 * run's outcome: a database problem is one warning line on stderr.
 */

/* A run has written its results: store it when --history or IOTRIAL_HISTORY asks. */
void history_hooks_after_run(const struct cmdline *cl, const struct run_result *res, int code);

/*
 * ab and sweep: --history[=FILE] taken out of argv (and IOTRIAL_HISTORY out
 * of the runs' environment: the trial or the sweep is stored, not its runs).
 */
struct history_hooks_ab {
	int on;
	char file[PATH_MAX];
};
int history_hooks_ab_take(int *argc, char **argv, struct history_hooks_ab *hab);

/* ab: a finished trial, stored with its runs and verdicts (@keys: the options under test). */
void history_hooks_after_ab(const struct history_hooks_ab *hab, const char *dir, const json_t *manifest,
			  const struct compare_opts *copts, char *const *keys, size_t nkeys);

/*
 * sweep: a finished sweep's document (@path: DIR/sweep.json, one per side
 * of an ab sweep, @what naming it in the message), stored as a run from
 * source "sweep" when --history or IOTRIAL_HISTORY asked (docs/sweep.md).
 */
void history_hooks_after_sweep(const struct history_hooks_ab *hab, const char *path,
			       const char *what);

/* compare: --baseline=, --candidate= (history:SELECTOR or files), --history=, --allow-differences. */
struct history_hooks_sides {
	const char *baseline, *candidate, *db;
	int allow_diff;
	int used;		/* --baseline or --candidate given */
};

/* One compare option: 1 taken with its value, 2 a flag taken, 0 not one of these, -1 error. */
int history_hooks_compare_option(const char *name, const char *value, struct history_hooks_sides *hs,
			       struct err *e);

/*
 * Load compare's sides when --baseline/--candidate were given; @files (the
 * positional arguments) are the side not given.  A side from the history
 * must be comparable with the other (else EXIT_USAGE saying what differs)
 * and sets o->sides_apart.  0, or -1 with @e set.
 */
int history_hooks_compare_load(const struct history_hooks_sides *hs, char *const *files, size_t nfiles,
			     struct compare_opts *o, struct resultread ***a, size_t *na,
			     struct resultread ***b, size_t *nb, struct err *e);

#endif
