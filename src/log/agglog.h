/*
 * agglog: fio's aggregate bandwidth logs (--bandwidth-log): the whole run's
 * bandwidth over time, one file per direction, agg-read_bw.log,
 * agg-write_bw.log and agg-trim_bw.log in the current directory, the three
 * always (a direction without I/O writes lines of 0).
 *
 * Format, as fio 3.33 writes it: "msec, value, ddir, 0, 0\n" (fiolog.h's
 * bw line with bs and prio 0): msec since the run started, value the KiB/s
 * of every job of the run since the line before (bytes x 1000 / 1024 / ms),
 * ddir 0, 1, 2.  fio samples when its status display runs (about every
 * 0.5-0.65 s with an ETA line or --status-interval, only once at the end
 * with JSON output and never otherwise); iotrial samples every 500 ms (fio's
 * bwavgtime) whatever is displayed, and once more at the end.  No line while
 * a job is in its ramp_time (as fio); the next window starts after it.
 *
 * Not on the I/O path: run.c's waiting thread samples the workers' published
 * byte counts (worker.h's live_bytes, stored with a relaxed atomic at every
 * completion while the log is on, instead of twice a second, so that a 500 ms
 * window never sees a half-second step).  Streams through stdio; a write
 * error is reported at close (run.c makes it the first job's error, as a
 * job's own log's).
 */
#ifndef IOTRIAL_AGGLOG_H
#define IOTRIAL_AGGLOG_H

#include <stdint.h>
#include <stdio.h>
#include "lib/ddir.h"
#include "lib/err.h"

/* The sample period: fio's bwavgtime default. */
#define AGGLOG_PERIOD_NS 500000000ull

struct agglog {
	FILE *f[DDIR_NR];		/* NULL: not open */
	uint64_t t_last_ns;		/* the previous line's time (or the window's start) */
	uint64_t bytes_last[DDIR_NR];	/* the byte counts then */
	int primed;			/* t_last_ns and bytes_last hold a start */
};

/*
 * The three paths (in @dir, NULL: the current directory) pass
 * safety_check_output (@allow_device: --allow-output-device).  0 or -errno
 * with @e filled.  No I/O.
 */
int agglog_check(const char *dir, int allow_device, struct err *e);

/* Create the three files (truncated).  0, or -errno with @e filled (EXIT_OUTPUT). */
int agglog_open(struct agglog *a, const char *dir, struct err *e);

/*
 * At @now_ns (@t0_ns: the run's start) with the run's byte counts @bytes:
 * a line per direction when AGGLOG_PERIOD_NS passed since the last one
 * (every time with @final, if any ms passed).  @ramping: a job is in its
 * ramp; no line, and the next window starts after it.
 */
void agglog_sample(struct agglog *a, uint64_t now_ns, uint64_t t0_ns,
		   const uint64_t bytes[DDIR_NR], int ramping, int final);

/* Close the files (NULL-safe, idempotent).  0, or -errno with @e filled. */
int agglog_close(struct agglog *a, struct err *e);

#endif
