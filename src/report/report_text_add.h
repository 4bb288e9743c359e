/*
 * report_text_add: iotrial's additions to the text report, after all of
 * fio's lines (report_text.c writes fio's part and then calls this).
 *
 * Grouped as fio groups its output: per stonewall group, each job
 * definition once.  The clones of a definition (numjobs without
 * group_reporting) are named NAME.0, NAME.1, ... (fio's own numbering of
 * them) and said together where they agree, per clone only where they
 * differ:
 *   - a head line: "randrw.0..3 (group 0, 4 clones of job randrw):";
 *   - per direction, the clones' bandwidth and IOPS together (over the
 *     longest runtime, as fio's group line) with what qualifies the number
 *     beside it: "read : bw=1272MiB/s (1334MB/s), IOPS=326k: the page cache,
 *     not the device (the device did 1% of the bytes)" -- from the
 *     bottleneck verdict when the clones share one;
 *   - an error once when every clone ended on the same one;
 *   - steady state: the criterion once and each clone's figures
 *     (steady_print_text_clones);
 *   - time per I/O: the clones' breakdowns weighted by I/Os, with the range
 *     of their cycles;
 *   - the bottleneck once when the clones agree (the first clone's
 *     evidence, which leaves out the time per I/O said just above);
 * then the group's device views, and after every group the MPI per-host
 * table and the plausibility checks.
 */
#ifndef IOTRIAL_REPORT_TEXT_ADD_H
#define IOTRIAL_REPORT_TEXT_ADD_H

#include <stdio.h>
#include "result/result.h"

/* Write iotrial's part of the text report of @r to @f (errors: ferror(@f)). */
void report_text_add_write(FILE *f, const struct run_result *r);

#endif
