/*
 * fiolog: fio's log files (write_bw_log, write_iops_log, write_lat_log,
 * write_hist_log), in fio 3.33's exact text format, so fio_generate_plots,
 * fio2gnuplot and fiologparser_hist.py read ours as they read fio's.
 *
 * Format (checked against files fio 3.33 wrote for the same jobs):
 *  - bw / iops / slat / clat / lat: one line per entry,
 *      "msec, value, ddir, bs, prio\n", with log_offset=1
 *      "msec, value, ddir, bs, offset, prio\n", and with
 *      log_window_value=both (newer fio) "msec, avg, max, ddir, bs, [offset, ]prio\n".
 *    ddir 0 read, 1 write, 2 trim; prio is 1 for an RT-class I/O (cmdprio),
 *    else 0, or with log_prio=1 the ioprio value as 0x%04x (0 in windows).
 *  - log_avg_msec=0: one line per I/O.  value: latency in ns; iops 1; bw the
 *    I/O's own rate, bs x 10^6 / clat_ns (KiB/s as fio prints it).
 *  - log_avg_msec=W: windows [kW, (k+1)W) of measured time; for every
 *    direction with I/O in a window, one line stamped (k+1)W with bs and
 *    offset 0.  bw = bytes x 1000 / W / 1024 (KiB/s), iops = ios x 1000 / W,
 *    latency = the window's mean (or max with log_window_value=max).  A window
 *    without I/O writes nothing.  At the end, a partial window is written for
 *    the latency logs (stamped with the end time) and dropped for bw/iops,
 *    as fio does; a bw/iops window that ends exactly when the job ends is
 *    dropped too (fio samples it only if the job still runs then: a 2 s job
 *    with log_avg_msec=250 has 7 bw lines per direction, not 8).
 *  - hist (log_hist_msec=H): every H ms, per direction with completions,
 *    "msec, ddir, bs, c0, ..., c1855\n": the window's clat histogram delta in
 *    hist.h's 1856 buckets (fiologparser_hist.py's default --group_nr 29);
 *    bs is the direction's last block size.  A partial last window, or one
 *    ending exactly at the job's end, is dropped.
 *    Without log_hist_msec the file is created empty, like fio.
 *  - Times are ms since the measurement started (after ramp_time).
 *  - Names: "<prefix>_<kind>.<N>.log" with N the job's 1-based number among
 *    all jobs (clones included), or "<prefix>_<kind>.log" with
 *    per_job_logs=0, where jobs sharing a prefix APPEND to one file (fio does
 *    this even across runs).  kind: bw, iops, slat, clat, lat, clat_hist.  An
 *    empty prefix (bare write_bw_log) means the job name.  disable_slat /
 *    disable_clat / disable_lat suppress that file; a synchronous engine's
 *    slat file exists but stays empty (pass FIOLOG_NONE).
 *
 * Cost: nothing unless the job asked for a log.  Then, per I/O: averaged
 * logs add to a few counters (inline, no call); per-I/O logs append 32-byte
 * records to in-memory arrays that grow by doubling (the user asked for one
 * line per I/O); the hist log adds one histogram increment.  Text is
 * formatted only in fiolog_close().  One struct fiolog per thread, no locks
 * (files shared under per_job_logs=0 are written under flock()).
 */
#ifndef IOTRIAL_FIOLOG_H
#define IOTRIAL_FIOLOG_H

#include <stddef.h>
#include <stdint.h>
#include "lib/err.h"
#include "log/fiolog_rec.h"
#include "lib/hist.h"
#include "model/job.h"

/* A latency that was not measured (slat on a synchronous engine). */
#define FIOLOG_NONE UINT64_MAX

enum fiolog_kind {
	FIOLOG_BW, FIOLOG_IOPS, FIOLOG_SLAT, FIOLOG_CLAT, FIOLOG_LAT, FIOLOG_HIST,
	FIOLOG_KINDS
};
#define FIOLOG_LINES FIOLOG_HIST	/* kinds that are "msec, value, ..." logs */


/* Window accumulator of one kind and direction. */
struct fiolog_acc {
	uint64_t n, sum, max;
};

/* One histogram line; its buckets are hb[off .. off + nr). */
struct fiolog_hrow {
	uint64_t t_ms;
	uint32_t ddir, bs;
	size_t off, nr;
};

struct fiolog_hb {
	uint32_t idx;
	uint32_t pad;
	uint64_t count;
};

struct fiolog {
	unsigned files;			/* bit per kind: file to write */
	unsigned rec;			/* bit per line kind: entries collected */
	uint32_t avg_ms, hist_ms;
	int window_value;		/* 0 avg, 1 max, 2 both */
	int log_offset;
	int log_prio;			/* log_prio=1: the ioprio value, else 1 for RT class */
	uint16_t prio;			/* ioprio of the I/O being logged (set by the caller) */
	int append;			/* per_job_logs=0 */
	int fz;				/* log_store_compressed: .fz files (fiolog_fz.h) */
	uint64_t fz_chunk;		/* log_compression: bytes per zlib stream (0: one) */
	char *path[FIOLOG_KINDS];

	struct fiolog_rec *r[FIOLOG_LINES];
	size_t nr[FIOLOG_LINES], cap[FIOLOG_LINES];
	uint64_t dropped;		/* entries lost to a failed allocation */

	uint64_t win_end;		/* end of the current averaging window */
	struct fiolog_acc acc[FIOLOG_LINES][DDIR_NR];

	struct hist *hist;		/* DDIR_NR window histograms, or NULL */
	uint64_t hist_end;
	uint32_t hist_bs[DDIR_NR];
	struct fiolog_hrow *hrow;
	size_t h_nr, h_cap;
	struct fiolog_hb *hb;
	size_t hb_nr, hb_cap;
};

/*
 * Set @l up for job @j (the thread's 1-based number among all jobs is
 * @jobnum) and create (or, per_job_logs=0, open for append) each log file
 * now, so that an unwritable path fails before the run.  A job without logs
 * gives an inert @l (fiolog_io returns at once).  Returns 0, -ENOMEM, or
 * -errno of the failed create (with @e naming the file; EXIT_OUTPUT).
 */
int fiolog_open(struct fiolog *l, const struct job *j, unsigned jobnum, struct err *e);

/*
 * Check every log path thread @jobnum of @j would write with
 * safety_check_output() (a block device is refused unless @allow_device),
 * without creating anything: called for every thread before any I/O.
 * Returns 0, -ENOMEM or -EPERM with @e filled (EXIT_UNSAFE).
 */
int fiolog_check_paths(const struct job *j, unsigned jobnum, int allow_device, struct err *e);

/* Slow paths of fiolog_io; not for direct use. */
void fiolog_roll(struct fiolog *l, uint64_t t_ms);
void fiolog_hist_roll(struct fiolog *l, uint64_t t_ms);
void fiolog_io_rec(struct fiolog *l, uint64_t t_ms, enum ddir d, uint32_t bs, uint64_t offset,
		   uint64_t slat_ns, uint64_t clat_ns, uint64_t lat_ns);

static inline void fiolog_acc_add(struct fiolog_acc *a, uint64_t v)
{
	a->n++;
	a->sum += v;
	if (v > a->max)
		a->max = v;
}

/*
 * One completed I/O: @t_ms its completion time (ms since the measurement
 * started), @slat_ns / @clat_ns / @lat_ns its latencies (FIOLOG_NONE when not
 * measured).  Call for every I/O completed after ramp_time, in completion
 * order per thread, only when fiolog_active(l).
 */
static inline void fiolog_io(struct fiolog *l, uint64_t t_ms, enum ddir d, uint32_t bs,
			     uint64_t offset, uint64_t slat_ns, uint64_t clat_ns, uint64_t lat_ns)
{
	if (l->rec) {
		if (!l->avg_ms) {
			fiolog_io_rec(l, t_ms, d, bs, offset, slat_ns, clat_ns, lat_ns);
		} else {
			if (t_ms >= l->win_end)
				fiolog_roll(l, t_ms);
			fiolog_acc_add(&l->acc[FIOLOG_BW][d], bs);
			fiolog_acc_add(&l->acc[FIOLOG_IOPS][d], 1);
			if (slat_ns != FIOLOG_NONE)
				fiolog_acc_add(&l->acc[FIOLOG_SLAT][d], slat_ns);
			if (clat_ns != FIOLOG_NONE)
				fiolog_acc_add(&l->acc[FIOLOG_CLAT][d], clat_ns);
			if (lat_ns != FIOLOG_NONE)
				fiolog_acc_add(&l->acc[FIOLOG_LAT][d], lat_ns);
		}
	}
	if (l->hist && clat_ns != FIOLOG_NONE) {
		if (t_ms >= l->hist_end)
			fiolog_hist_roll(l, t_ms);
		hist_add(&l->hist[d], clat_ns);
		l->hist_bs[d] = bs;
	}
}

/* Whether the worker needs to call fiolog_io at all. */
static inline int fiolog_active(const struct fiolog *l)
{
	return l->rec || l->hist;
}

/*
 * The end of the measurement at @t_end_ms: close the last windows as fio
 * does (see the top) and write every file whole.  Returns 0 or -errno with
 * @e naming the file (EXIT_OUTPUT).
 */
int fiolog_close(struct fiolog *l, uint64_t t_end_ms, struct err *e);

/* Release what @l owns.  NULL and inert logs are fine. */
void fiolog_free(struct fiolog *l);

#endif
