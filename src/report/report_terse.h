/*
 * report_terse: fio's terse output (--minimal, --output-format=terse),
 * versions 2 to 5, field for field as fio's HOWTO lists them: one line of
 * ';'-separated values per reported job (or group, with group_reporting).
 *
 * The values are those of the JSON document (report_json_build), so the two
 * outputs never disagree: KiB and KiB/s as integers, latencies in
 * microseconds (min/max truncated to integers, mean/stdev "%f"), 20
 * percentile fields "P%=usec" padded with "0%=0", CPU, I/O depth and
 * latency distributions as percentages.
 *   v2: no fio version; read, write, trim; no disk utilisation; the
 *       description on its own line after ';'.
 *   v3: fio version; read and write only; disk utilisation.
 *   v4: v3 with trim.
 *   v5: v4 with bw sample counts and IOPS min/max/mean/stdev/samples.
 */
#ifndef IOTRIAL_REPORT_TERSE_H
#define IOTRIAL_REPORT_TERSE_H

#include <stdio.h>
#include "lib/err.h"
#include "result/result.h"

/*
 * Write @r's terse lines (version @version) to @f.  0, or -errno with @e
 * filled (EXIT_OUTPUT when @f fails, EXIT_INTERNAL out of memory, EXIT_USAGE
 * for a version outside 2..5).
 */
int report_terse_write(FILE *f, const struct run_result *r, int version, struct err *e);

#endif
