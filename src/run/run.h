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

#include "lib/err.h"
#include "model/job.h"
#include "io/ioerr.h"	/* ioerr_dump_fn */
#include "result/result.h"

/* One direction of a status entry, over the entry's new intervals. */
struct run_progress_dir {
	uint64_t ios, bytes;
	double iops, bw_bytes;		/* per second of the intervals' length */
	double lat_mean;		/* ns; 0 without I/O */
	uint64_t lat_min, lat_max;	/* ns; 0 without I/O */
	uint64_t p50, p99, p999;	/* ns, from the intervals' merged histograms */
};

/*
 * A status entry: one job clone, or one group under group_reporting (the
 * same units as the report's jobs), over the series intervals it completed
 * since the previous callback.  nr_iv == 0: nothing new for it this time.
 * The intervals of one entry are all ramp or all measured: a callback never
 * mixes the two (a second callback follows at once with the rest).
 */
struct run_progress_job {
	const char *name;
	unsigned groupid;
	unsigned clone;			/* clone index (numjobs) of the first thread */
	unsigned threads;		/* threads summed (group_reporting) */
	unsigned dirs;			/* bit per direction the job issues or did */
	size_t first_iv, nr_iv;		/* intervals [first_iv, first_iv + nr_iv) */
	uint64_t t_ms;			/* end of the last one, on the series clock */
	uint64_t dur_us;		/* their length (the longest thread's) */
	int ramp;			/* inside ramp_time: not in the totals */
	struct run_progress_dir d[DDIR_NR];
	/* the reporting rule, live (steady_live.h): -1 none, 0 searching, 1 steady, 2 lost */
	int steady;
	uint64_t steady_since_ms, steady_lost_ms;	/* series clock */
};

/*
 * What the progress callback sees, from the run loop: every progress_us
 * (for an ETA line) and, for status lines, once new series intervals are
 * complete for every running entry about progress_us after the previous
 * such call (a line per interval when progress_us is the series interval,
 * several intervals summed when it is longer).  A last call with final set
 * delivers each stonewall group's remaining intervals (the partial last one)
 * when its jobs have ended, so the entries' measured ios add up to the
 * report's total_ios.
 */
struct run_progress {
	double elapsed_s;		/* since the run (its first group) started */
	/*
	 * The time left over the whole run: the running group's threads'
	 * startdelay + ramp_time + runtime still to go (a job that ends with
	 * its size: from its rate so far), plus every later group's.  < 0 when
	 * unknown (a later group's job ends with its size).
	 */
	double eta_s;
	double pct;			/* 0..100 of the whole run, < 0 when unknown */
	unsigned running, total;	/* threads: of the running group, of the run */
	/*
	 * Every I/O completed so far by every thread of the run, ramp included:
	 * they never go down, at a group change or the end of a ramp.
	 */
	uint64_t ios[DDIR_NR];
	uint64_t bytes[DDIR_NR];
	int ramping;			/* a thread of the running group is in its ramp_time */
	int delaying;			/* one waits out its startdelay (no I/O yet) */
	/* per job or group, valid during the call only; NULL if memory ran out */
	const struct run_progress_job *jobs;
	size_t nr_jobs;
	int new_intervals;		/* some entry has nr_iv > 0 */
	int final;			/* the jobs of this stonewall group have ended */
};

/*
 * Several processes running the same jobs together (MPI mode, mpirank.h).
 * ready() is called exactly once per run_execute, on every path, once this
 * process's targets are laid out (@r: 0, or its failure with @e filled); it
 * waits for the peers and returns 0 to start I/O together, or -errno with
 * @e filled when some process failed.  poll() is called every loop tick
 * while jobs run: @stopping says this process is ending early (a signal or
 * a job error); it returns non-zero when a peer ended early, and the jobs
 * here are then stopped too (the result is marked partial).
 */
struct run_sync {
	int (*ready)(void *arg, int r, struct err *e);
	int (*poll)(void *arg, int stopping);
	void *arg;
};

struct run_req {
	struct job *jobs;		/* as parsed (numjobs not expanded) */
	size_t nr_jobs;
	const struct job_kv *globals;	/* "global options" as typed */
	size_t nr_globals;
	int readonly;
	enum clock_mode clock_mode;	/* clock.h */
	/*
	 * Where time comes from instead (clock_init_source, clock.h), or NULL:
	 * the tests run the real run.c and workers on a fake clock.  The source
	 * is read from every worker thread and the waiting thread at once, so it
	 * must be thread-safe.
	 */
	const struct clock_src *clock_src;
	uint64_t progress_us;		/* how often to call progress (0: never) */
	void (*progress)(void *arg, const struct run_progress *p);
	void *progress_arg;
	int handle_signals;		/* collect SIGINT/SIGTERM (the CLI sets it) */
	/*
	 * Each error continue_on_error lets pass, on the job's thread: I/O errors
	 * of jobs with error_dump=1, and every verify failure (ev->msg set).
	 */
	ioerr_dump_fn error_dump;
	void *error_dump_arg;
	const char *aux_path;		/* --aux-path: verify state and dump files (NULL: the cwd) */
	int bandwidth_log;		/* --bandwidth-log: the run's agg-*_bw.log (agglog.h) */
	const struct run_sync *sync;	/* NULL: this process runs alone */
	enum idleprof_mode idle_prof;	/* --idle-prof: profile the CPUs' idleness (measure/idleprof.h) */
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
