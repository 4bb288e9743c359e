/*
 * report_text: a run_result as human-readable text in the shape of fio's
 * "normal" output (per job: rates, latencies, percentiles, distributions,
 * cpu, depths; then per group totals and disk stats), so that people used
 * to fio find everything where they expect it.  Not byte-identical to fio:
 * units are chosen per line by one rule (see report_text.c), and a run that
 * ended early says so in its first line.
 */
#ifndef IOTRIAL_REPORT_TEXT_H
#define IOTRIAL_REPORT_TEXT_H

#include <stdio.h>
#include "lib/err.h"
#include "result/result.h"

/*
 * Write the report for @r to @f.  Never prints anywhere else.  Returns 0, or
 * -errno with @e filled (EXIT_OUTPUT) when @f fails.
 */
int report_text_write(FILE *f, const struct run_result *r, struct err *e);

/*
 * fio's "CPU idleness" block for --idle-prof (nothing for mode NONE): the
 * system and per-CPU shares, the unit of work's time; calibrate's is the
 * unit alone, without the blank line before it.
 */
void report_text_idle(FILE *f, const struct idleprof_result *ip);

#endif
