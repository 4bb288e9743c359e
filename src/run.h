/*
 * run: executes a list of jobs the way fio does and fills the result model.
 *
 * It expands numjobs into worker threads, lays out and opens every target
 * before any I/O starts (so read jobs find their files filled, and unsafe
 * targets are refused before anything is written), runs stonewalled groups one
 * after another, watches the clock, signals and steady state from the calling
 * thread, and merges group_reporting groups at the end.
 *
 * Signals: SIGINT and SIGTERM are blocked in every thread and collected by the
 * run loop with sigtimedwait(), so no handler and no global flag is needed.
 * The first one stops all jobs promptly; the results gathered so far are
 * returned, marked partial.
 */
#ifndef IOTRIAL_RUN_H
#define IOTRIAL_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "job.h"
#include "result.h"

enum { RUN_CLOCK_AUTO = 0, RUN_CLOCK_TSC = 1, RUN_CLOCK_GETTIME = 2 };

/* What the progress callback sees (about once a second, from the run loop). */
struct run_progress {
	double elapsed_s;
	double eta_s;			/* < 0 when unknown */
	double pct;			/* 0..100, < 0 when unknown */
	unsigned running, total;	/* threads */
	uint64_t ios[DDIR_NR];		/* cumulative, measured phase only */
	uint64_t bytes[DDIR_NR];
	int ramping;
};

struct run_req {
	struct job *jobs;		/* as parsed (numjobs not expanded) */
	size_t nr_jobs;
	const struct job_kv *globals;	/* "global options" as typed */
	size_t nr_globals;
	int readonly;
	int clock_mode;			/* RUN_CLOCK_* */
	uint64_t progress_us;		/* how often to call progress (0: never) */
	void (*progress)(void *arg, const struct run_progress *p);
	void *progress_arg;
	int handle_signals;		/* collect SIGINT/SIGTERM (the CLI sets it) */
};

/*
 * Run every job of @req and fill @out (free it with result_free even on
 * failure).  Returns 0 when the jobs ran (even if a job hit an I/O error or a
 * signal cut the run short: see out->partial and the jobs' error fields), or
 * -errno with @e filled when the run could not start (bad target, unsafe
 * device, engine setup).
 */
int run_execute(const struct run_req *req, struct run_result *out, struct err *e);

#endif
