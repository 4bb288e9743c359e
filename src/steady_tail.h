/*
 * steady_tail: what follows the steady window (steady.h's steady_analyse):
 * MSER-5's warm-up point over the measured intervals, and the steady tail's
 * figures.  Internal to steady.c's output; the structures are in steady.h.
 */
#ifndef IOTRIAL_STEADY_TAIL_H
#define IOTRIAL_STEADY_TAIL_H

#include <stdio.h>	/* FILE */
#include <jansson.h>	/* json_t */
#include "steady.h"

/* Release a tail.  NULL is fine. */
void steady_tail_free(struct steady_tail *t);

/*
 * Add "mser" (when computed) and "tail" (when there is one) to the steady
 * object @o:
 *   "mser": {"truncate_ms", "mean", "sd", "ci95", "batches", "truncated_batches",
 *            "batch_intervals"}
 *   "tail": {"from": "window"|"mser", "start_ms", "end_ms", "intervals",
 *            "iops", ["iops_ci95": [lo, hi], "batches", "batch_intervals"],
 *            "read"|"write"|"trim": {window figures, ["iops_ci95": [lo, hi]]}}
 * Returns 0 or -ENOMEM.
 */
int steady_tail_to_json(const struct steady *st, json_t *o);

/* The text lines for MSER and the tail, under the steady-state lines. */
void steady_tail_print_text(FILE *f, const struct steady *st);

#endif
