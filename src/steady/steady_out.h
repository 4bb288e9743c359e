/*
 * steady_out: a steady-state result written out: iotrial's JSON object
 * (with MSER and the tail), fio's "steadystate" object, the spec string and
 * the text report's lines.  The top layer of steady/ (rule -> tail -> out).
 */
#ifndef IOTRIAL_STEADY_OUT_H
#define IOTRIAL_STEADY_OUT_H

#include <stddef.h>
#include <stdio.h>	/* FILE */
#include <jansson.h>	/* json_t */
#include "steady/steady.h"

/*
 * jobs[i].iotrial.steady:
 *   {"criterion": "snia"|"fio", "spec": "<human spec>", "metric": "iops"|"bw"|"lat",
 *    "attained": bool, "window_rounds": W, "round_ms": N, "rounds": n,
 *    "start_ms", "end_ms",            (absent when no full window existed)
 *    "mean", "min", "max", "range_pct", "slope", "slope_excursion_pct",
 *    "max_deviation", ["fio_criterion": x,] "limits": {...},
 *    "values": [per-round metric values],
 *    "read"/"write"/"trim": {"ios","bytes","iops","bw_bytes","lat_ns":{...}}}
 * The direction objects appear only when attained (the steady window's
 * figures) and only for directions with I/O in the window.  With MSER and a
 * tail (steady_tail.h), also:
 *   "mser": {"truncate_ms", "mean", "sd", "ci95", "batches", "truncated_batches",
 *            "batch_intervals"}
 *   "tail": {"from": "window"|"mser", "start_ms", "end_ms", "intervals",
 *            "iops", ["iops_ci95": [lo, hi], "batches", "batch_intervals"],
 *            ["resolution": {"element_intervals": n, "start": "..."},]  (coarsened only)
 *            "read"|"write"|"trim": {window figures, ["iops_ci95": [lo, hi]]}}
 */
int steady_to_json(const struct steady *st, json_t **out);

/*
 * fio's per-job "steadystate" object, key for key as fio 3.33 writes it:
 *   {"ss": "iops:20.000000%", "duration": s, "attained": 0|1,
 *    "criterion": "4.533583%", "max_deviation": f, "slope": f,
 *    "data": {"bw_mean": int, "iops_mean": int, "iops": [..], "bw": [..]}}
 * Only for a fio rule (-EINVAL otherwise).
 */
int steady_fio_json(const struct steady *st, json_t **out);

/* The spec as text, e.g. "snia iops: range <= 20%, slope excursion <= 10%, 5 rounds". */
void steady_spec(const struct steady_cfg *c, char *buf, size_t len);

/*
 * Lines for the text report: the criterion, the window and its measured
 * values, then one line per direction with I/O; or a single
 * "steady state NOT reached (...: range X% > 20%)" line.
 */
void steady_print_text(FILE *f, const struct steady *st);

/*
 * The verdicts of @n clones of one job (@names[i] is clone i's, e.g.
 * "randrw.2"), said once where they agree: the criterion once, then when
 * SNIA's rule judged every clone unsteady one line with the range of their
 * figures, else one line per clone (when it was reached and whether held,
 * the window's mean, or why not; its steady tail or warm-up).  The window's
 * per-direction figures are the JSON's.  Clones under different criteria
 * get each steady_print_text under its name.  @n == 1 is steady_print_text.
 */
void steady_print_text_clones(FILE *f, const struct steady *const *v, const char *const *names,
			      size_t n);

#endif
