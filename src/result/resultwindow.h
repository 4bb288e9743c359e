/*
 * resultwindow: which part of each run a comparison uses -- the whole run,
 * or the steady tail (from the start of the steady part to the end, see
 * steady.h) -- and the one line that says which.
 *
 * compare and ab work on resultread's dir[] figures.  This module only puts
 * the whole-run or the tail figures there; the statistics that follow are
 * compare's.  Rules:
 *   - --window=all: whole runs, always.
 *   - --window=steady: the tails; every result must have one (fio's results
 *     have no series, hence no tail): EXIT_USAGE naming the first that lacks.
 *   - default (auto): the tails when every result on both sides has one,
 *     else whole runs for all, and the line says why (fio results, or runs
 *     without a steady part).  Never a mix: A and B would measure different
 *     things.
 * With tails, a warning when A's and B's steady parts differ greatly: the
 * mean tail length of one side more than 1.5 times the other's, or mean
 * starts further apart than a quarter of the longer side's mean run.
 */
#ifndef IOTRIAL_RESULTWINDOW_H
#define IOTRIAL_RESULTWINDOW_H

#include <stddef.h>
#include <jansson.h>	/* json_t */
#include "lib/err.h"
#include "result/resultread.h"

enum resultwindow { RESULTWINDOW_AUTO = 0, RESULTWINDOW_ALL, RESULTWINDOW_STEADY };

struct resultwindow_note {
	int steady;		/* 1: dir[] holds the tails */
	char what[200];		/* "window: steady tails (...)" */
	char warning[240];	/* "" or why the steady parts are not alike */
};

/* "all", "steady" or "auto" into @w.  Returns 0, or -EINVAL with @e set (EXIT_USAGE). */
int resultwindow_parse(const char *v, enum resultwindow *w, struct err *e);

/*
 * Put the chosen figures in dir[]/total_iops of every result of both sides
 * (idempotent: it can be called again as runs are added).  Returns 0, or
 * -EINVAL with @e set (--window=steady and a result without a tail).
 */
int resultwindow_apply(enum resultwindow w, struct resultread **a, size_t na,
		       struct resultread **b, size_t nb, struct resultwindow_note *note,
		       struct err *e);

/*
 * The note as JSON: {"used": "steady"|"all", "note": "...", ["warning": "..."]}
 * ("warning" only when there is one).  A new reference, NULL when out of memory.
 */
json_t *resultwindow_note_json(const struct resultwindow_note *note);

#endif
