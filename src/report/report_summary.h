/*
 * report_summary: the one-screen table that ends a preset's text output
 * (preset.h says which kind each preset uses).
 *
 *  - tests: one row per test.  A job named "X_read" or "X_write" fills row X
 *    (so CrystalDiskMark's read and write of one test share a row); any other
 *    job is its own row.  Columns: read and write MB/s (10^6 bytes/s), IOPS,
 *    and mean total latency in microseconds, for every direction the job did
 *    I/O in; "-" where none.  A second job with the same row and direction
 *    (numjobs without group_reporting) starts a new row rather than being
 *    summed.
 *  - matrix: jobs named "<prefix><row>_<col>" (row: the block size, col: the
 *    read/write mix) give a table of read+write IOPS; other jobs are left out.
 *
 * Under either, every warning of the run's checks (not the infos), in its
 * short form with its number ("warning [short_run] 2.0 s run (< 10 s)"):
 * the table is what people paste, and what qualifies its figures goes with
 * it.
 *
 * Every figure is the JSON's own, over each job's own runtime: bw_bytes / 1e6,
 * iops, lat_ns.mean / 1000 (report_calc.h), printed with two decimals (the
 * matrix: IOPS rounded to whole numbers), so the table can be checked
 * against the JSON.
 */
#ifndef IOTRIAL_REPORT_SUMMARY_H
#define IOTRIAL_REPORT_SUMMARY_H

#include <stdio.h>
#include "lib/err.h"
#include "parse/preset.h"
#include "result/result.h"

/*
 * Write @p's summary of @r to @f.  Returns 0, or -errno with @e filled
 * (EXIT_OUTPUT when @f fails, EXIT_INTERNAL when out of memory).
 */
int report_summary_write(FILE *f, const struct run_result *r, const struct preset *p,
			 struct err *e);

#endif
