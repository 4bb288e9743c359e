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
#include "steady_stream.h"

/*
 * The steady tail of a run whose intervals went through @ss and were stored
 * in @stored (every interval, possibly coarsened: series_sink), into @out,
 * which holds steady_stream_result and steady_stream_mser's outcome.  From a
 * held window: its start exactly (the stream's running sums); else from
 * MSER's point rounded up to the first stored element at or after it.  The
 * CI's batches are whole stored elements.  With no coarsening, the same
 * figures as steady_analyse.  Returns 0 or -ENOMEM.
 */
int steady_tail_stream(const struct steady_stream *ss, const struct series *stored, struct steady *out);

/* Release a tail.  NULL is fine. */
void steady_tail_free(struct steady_tail *t);

/*
 * Add "mser" (when computed) and "tail" (when there is one) to the steady
 * object @o:
 *   "mser": {"truncate_ms", "mean", "sd", "ci95", "batches", "truncated_batches",
 *            "batch_intervals"}
 *   "tail": {"from": "window"|"mser", "start_ms", "end_ms", "intervals",
 *            "iops", ["iops_ci95": [lo, hi], "batches", "batch_intervals"],
 *            ["resolution": {"element_intervals": n, "start": "..."},]  (coarsened only)
 *            "read"|"write"|"trim": {window figures, ["iops_ci95": [lo, hi]]}}
 * Returns 0 or -ENOMEM.
 */
int steady_tail_to_json(const struct steady *st, json_t *o);

/* The text lines for MSER and the tail, under the steady-state lines. */
void steady_tail_print_text(FILE *f, const struct steady *st);

#endif
