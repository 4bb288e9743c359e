/*
 * report_ranks: the per-rank part of an MPI run's report (docs/mpi.md):
 * the text per-host table and the JSON "iotrial.ranks" / "iotrial.mpi".
 * fio's "client_stats" (a job object per rank plus "All clients") is built
 * by report_json.c, which owns the job object.  Both do nothing when the
 * result has no ranks (run_result.ranks == NULL: not an MPI run).
 */
#ifndef IOTRIAL_REPORT_RANKS_H
#define IOTRIAL_REPORT_RANKS_H

#include <stdio.h>
#include <jansson.h>
#include "result/result.h"

/*
 * One line per rank and job: host, I/Os, IOPS and bandwidth (over that
 * rank's own runtime), latency mean and p99 (all directions pooled), start
 * offset from the earliest rank, and whether it ended early.
 */
void report_ranks_text(FILE *f, const struct run_result *r);

/*
 * iotrial.ranks: [{rank, host, start_ns, end_ns, start_offset_ns, partial,
 * signal, env}], and iotrial.mpi: {ranks, start_skew_ns, merge_s}.  Adds
 * them to @iot (the top-level "iotrial" object).  Returns 0 or -ENOMEM.
 */
int report_ranks_json(json_t *iot, const struct run_result *r);

#endif
