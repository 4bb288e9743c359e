/*
 * worker_types: struct worker, the state of one job thread (worker.h says
 * who owns what and how run.c talks to it), and its parts.  In a header of
 * its own so that the worker's pieces (worker_int.h, worker_fill.h,
 * worker_verify.h) see the struct without including worker.h: worker.c
 * calls them, so they sit below it, and the modules form no include loop.
 */
#ifndef IOTRIAL_WORKER_TYPES_H
#define IOTRIAL_WORKER_TYPES_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/resource.h>	/* struct rusage */

#include "lib/clock.h"
#include "env/devwatch.h"
#include "measure/sample_group.h"
#include "io/engine.h"
#include "log/fiolog.h"
#include "lib/err.h"
#include "lib/hist.h"
#include "io/buffer.h"
#include "io/verify.h"
#include "io/verify_log.h"
#include "log/iolog.h"
#include "io/iogen.h"
#include "model/job.h"
#include "io/rate.h"
#include "result/result.h"
#include "measure/series.h"
#include "steady/series_sink.h"
#include "lib/stat.h"
#include "steady/steady.h"
#include "io/flow.h"
#include "io/latency_target.h"
#include "io/ioerr.h"	/* ioerr_dump_fn */
#include "io/zbd.h"

/* Why a worker was told to stop (the value of worker.stop). */
enum { WORKER_RUN = 0, WORKER_STOP_SIGNAL = 1, WORKER_STOP_STEADY = 2,
       WORKER_STOP_EXITALL = 3 };	/* another job had exitall / exitall_on_error */

/* Per-direction accumulators, written only by the worker thread. */
struct worker_dir {
	uint64_t ios, bytes, short_ios;
	uint64_t err_ios;		/* failed, let pass by continue_on_error */
	struct lat_acc slat, clat, lat;
	struct hist clat_hist, lat_hist, slat_hist;
	uint64_t iv_lat_min, iv_lat_max;	/* this interval's exact extremes */
	/* rated jobs: completion minus the rate schedule's slot (result.h) */
	struct lat_acc due;
	struct hist due_hist;
};

struct worker_stats {
	struct worker_dir dir[DDIR_NR];
	struct lat_acc sync_lat;
	struct hist sync_hist;
	uint64_t depth_level[RESULT_DEPTH_NR];
	uint64_t depth_submit[RESULT_DEPTH_NR + 1];
	uint64_t depth_complete[RESULT_DEPTH_NR + 1];
	uint64_t total_submit, total_complete;
};

/* What the worker remembers of the previous sample/interval boundary. */
struct worker_mark {
	uint64_t ticks;
	uint64_t ios[DDIR_NR], bytes[DDIR_NR];
	int64_t lat_sum[DDIR_NR];		/* shifted sums (see stat.h) */
	uint64_t lat_n[DDIR_NR];
};

struct worker {
	/* set up by run.c before the thread starts; read-only afterwards */
	const struct job *job;
	unsigned jobnum;		/* clone index within numjobs */
	unsigned thread_index;		/* index across the whole run (seeds) */
	unsigned nr_threads;		/* threads in the whole run (dedupe_global) */
	unsigned groupid;
	const struct clock *clk;
	const struct engine_ops *ops;
	/* the engine's traits (ENGINE_F_*, engine_traits.h), looked up with ops */
	unsigned traits;
	struct engine_ctx ctx;
	int ctx_ready;			/* engine initialised: exit() it */
	struct engine_file *files;
	unsigned nr_files;

	atomic_int stop;		/* set by the run loop: WORKER_STOP_* */
	atomic_int done;		/* set by the worker when it has ended */
	atomic_int begun;		/* startdelay (and flow_join) is over: I/O begins */
	atomic_int measuring;		/* ramp is over */
	/*
	 * For the ETA line only: every I/O this thread completed, ramp
	 * included, so the counts never go down (the statistics restart at the
	 * end of the ramp; reset_ios/reset_bytes keep what came before).
	 */
	atomic_uint_fast64_t live_ios[DDIR_NR];
	atomic_uint_fast64_t live_bytes[DDIR_NR];
	uint64_t reset_ios[DDIR_NR], reset_bytes[DDIR_NR];	/* the thread's own */
	int live_often;			/* live_bytes at every completion, not twice a
					 * second (--bandwidth-log samples them: agglog.h) */

	pthread_t tid;
	int started;

	/*
	 * zonemode=zbd (zbd.h): the job's view of its targets' zones (run.c
	 * fills zbd_files[i] per file, the devices are the run's zbd_set) and
	 * its state; NULL for every other job.  zq_*: worker_fill's batch,
	 * for the quiesce callback (worker.c).
	 */
	struct zbd_file *zbd_files;
	struct zbd_set *zbd_set;
	struct zbd_job *zbd;
	uint64_t zbd_loops;		/* gen.loops_left at the current pass's start */
	struct io_u **zq_queued;
	unsigned *zq_nq;
	uint64_t *zq_now;

	/* per-thread state (hot) */
	struct iogen gen;
	struct buffer_gen bufgen;	/* write-buffer contents (buffer.h) */
	struct verify_ctx verify;	/* verify=: headers on writes, the read-back pass */
	struct verify_result vres;
	/* flow=: the flow this thread shares with others (run.c owns it), NULL: none */
	struct flow *flow;
	uint64_t flow_mine;		/* I/Os this thread counted into it */
	/* cmdprio: each I/O's priority, drawn here, and per-priority clat (NULL: off) */
	struct cmdprio_acc *cprio;
	struct rand_state cprio_rs;
	/*
	 * verify_backlog: written blocks not checked yet, oldest first, a ring
	 * of vbl_size (worker_verify.c).  Its oldest vbl_due are read-backs
	 * the backlog asked for, issued through the engine ahead of new I/O
	 * (worker_next_io), then vbl_nr pending ones; vbl_cap of those start
	 * a check.  vbl_win: read-backs are being issued since vbl_t0 (the
	 * window's time is read's runtime).
	 */
	uint64_t *vbl_off;
	uint32_t *vbl_len;
	uint16_t *vbl_file;
	unsigned vbl_cap, vbl_size, vbl_head, vbl_nr, vbl_due;
	uint64_t vbl_since;		/* checks still due from the last batch */
	int vbl_win;
	uint64_t vbl_t0;
	void *vbl_buf;
	struct verify_log vlog;		/* the blocks written: the end pass reads them back */
	struct verify_log vstate;	/* verify_state_load: the blocks a saved run wrote */
	int vlog_on, vstate_on;
	int vtrack;			/* completed writes go to worker_verify_written */
	uint64_t vpass_ios;		/* reads of the end pass (read's runtime gets its time) */
	uint64_t verify_ns;		/* the end pass's time */
	uint64_t vbl_ns;		/* verify_backlog's read-backs since the measurement
					 * started: read's runtime, not write's (as fio) */
	const char *aux_path;		/* --aux-path: state and dump files go there (NULL: here) */
	struct rate rate;
	int due_on;			/* rated: lat_from_due is kept, completions one by one */
	struct worker_stats st;
	struct io_u **free_list;
	unsigned nr_free;
	struct io_u **events;
	unsigned inflight;
	/*
	 * serialize_overlap: the byte range of each queued or in-flight io_u,
	 * by its pool index (hi == lo: none).  NULL when the option is off.
	 */
	struct worker_span { uint64_t lo, hi; uint16_t file; } *span;
	uint64_t overlap_waits;		/* I/Os held back for an overlap (tests read it) */
	/*
	 * The per-I/O path's shortcuts, set by worker_loop (worker_plan):
	 * plain when no option acts on a new I/O between the generator and
	 * the engine (fsync=N, flow, number_ios, read_iolog, cmdprio, rate,
	 * thinktime, verify_backlog, serialize_overlap, write_iolog), so one
	 * test replaces a dozen; reap_each when completions must be accounted
	 * one by one (fio's logs, verify, cmdprio, a rate; worker_ramp_end
	 * updates it).
	 */
	int plain;
	int reap_each;
	/*
	 * Every completion since the statistics (re)started had clat == lat
	 * (a sync engine, or I/Os completed inline): clat and clat_hist are
	 * then not kept and lat, lat_hist stand for them (worker_result); the
	 * first completion whose clat differs copies lat into clat and ends
	 * this (worker.c, worker_clat_split).  Saves a histogram and a moment
	 * update per I/O where fio's clat is its lat; the result is the same.
	 */
	int clat_is_lat;
	/*
	 * disable_slat, disable_clat: as in fio, that latency is not kept and
	 * is reported with no samples (N 0, no percentiles).  clat_off keeps
	 * clat_is_lat set for good, so clat costs nothing per I/O.
	 */
	int slat_off, clat_off;
	int commit_wait;		/* use ops->commit_wait (worker_prepare decides) */
	unsigned commit_max;		/* I/Os per commit: iodepth_batch_submit, 0 = depth */
	unsigned reap_max;		/* I/Os per reap (worker_prepare: fio's rule) */
	uint64_t writes_since_sync;

	/* time, in clock ticks */
	uint64_t t_begin;		/* I/O started (ramp included) */
	uint64_t t_measure;		/* ramp over, statistics start */
	uint64_t t_rate_base;		/* the rate schedule's zero */
	/* thinktime: after every thinktime_blocks I/Os, drain, spin, then sleep */
	uint64_t think_ticks, think_spin_ticks;
	uint32_t think_issued;		/* I/Os issued since the last think */
	uint64_t nr_ios_issued;		/* for number_ios */
	int filled;			/* fill_device: the file system is full, the job ends */
	int verify_reads;		/* verify= on a read job: each read is checked */
	/*
	 * latency_target (latency_target.h): the search runs in worker_event;
	 * the hot path only counts completions above lt_ns (UINT64_MAX when
	 * off, so none is) and keeps io_reserve io_us unused (0 when off).
	 */
	struct lat_target lt;
	int lt_on;			/* latency_target set; lt_started once ramp_time ended */
	int lt_started;
	unsigned io_reserve;		/* free io_us held back: the depth is ctx.depth - this */
	uint64_t lt_ns;
	uint64_t lt_over;		/* completions above lt_ns in this window */
	uint64_t lt_worst;		/* the longest of them (ns), for the message */
	uint64_t lt_win_end;		/* ticks: this window's end (UINT64_MAX: none) */
	uint64_t lt_win_ios;		/* completions before this window */
	/* wait_for: start once wait_on[wait_first .. +wait_nr) are done */
	struct worker *wait_on;
	size_t wait_first;
	unsigned wait_nr;
	uint64_t t_end;			/* when to stop (UINT64_MAX = io_size decides) */
	uint64_t t_next_event;		/* the earliest of the marks below */
	uint64_t t_next_sample;		/* 500 ms bw/iops samples */
	uint64_t t_next_interval;	/* series interval */
	uint64_t t_ramp_end;
	uint64_t ticks_sample, ticks_interval;
	uint64_t t_last;		/* last I/O completion or loop end */
	struct worker_mark mark_sample, mark_interval;
	struct worker_mark mark_rate_min;	/* rate_min/rate_iops_min: the cycle's start */
	struct hist *prev_lat_hist;	/* [DDIR_NR] cumulative at the last interval */
	struct hist *iv_hist;		/* scratch for the interval delta */

	/* bw/iops samples (fio's 500 ms statistics) */
	struct sample_stat bw_kib[DDIR_NR], iops[DDIR_NR];
	/* the same samples in order for a group_reporting group (samp_keep, set
	 * by run.c), which takes them period by period as they complete
	 * (sample_group.h; pushed and taken under the lock below) */
	struct sample_seq samp[DDIR_NR];
	int samp_keep;

	/* the time series, appended per interval under lock */
	pthread_mutex_t lock;
	struct series series;
	uint64_t interval_nr;
	/*
	 * Bounded memory (docs/time-series.md, long runs): memory bounded in run length.  The series above keeps only
	 * recent intervals: the worker drops (series_trim, under the lock) those
	 * before series_hold (set by run.c: what status lines and the
	 * group_reporting collector have not read yet; 0 keeps everything), the
	 * stop rule's last rounds and what the sink has not taken.  A job
	 * without group_reporting feeds its sink here: the result's bounded
	 * series and steady analysis (series_sink.h); a group's sink is run.c's.
	 */
	atomic_size_t series_hold;
	struct series_sink sink;
	int sink_on;

	struct fiolog log;		/* fio's log files (inert unless asked for) */
	struct iolog_writer iolw;	/* write_iolog: the I/Os issued */
	struct iolog_replay replay;	/* read_iolog: the I/Os to issue */
	int iolw_on, replay_on;
	int log_on;			/* logging and past the ramp */
	struct steady_cfg ss_cfg;	/* stop rule (fio ss=, or SNIA with snia_stop) */
	struct steady ss;
	int ss_on;

	struct rusage ru_start, ru_end;
	uint64_t rq_wait_start, rq_wait_end;	/* ns runnable, not running (schedstat.h) */
	int rq_wait_ok;			/* both readings succeeded */
	double load1;			/* 1-minute load average at the end */
	int os_tid;			/* the thread's id (gettid): fio's pid= of a thread */
	time_t end_time;		/* wall clock when it ended: the text report's date */
	uint64_t measure_ns, elapsed_ns;
	int error;			/* positive errno of the first failure */
	int target_error;		/* it was laying out its target (exit 3, not 1) */
	char first_error[256];
	uint64_t total_err;		/* errors continue_on_error let pass (ioerr.h) */
	int first_nonfatal;		/* errno of the first of them, 0 if none */
	ioerr_dump_fn error_dump;	/* error_dump=1: told of each of them (run.c sets it) */
	void *error_dump_arg;
	int interrupted;

	struct devwatch dw;		/* what the devices under the files saw (docs/json.md, the device view) */
};

#endif
