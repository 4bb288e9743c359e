/*
 * idleprof: fio's idleness profile (--idle-prof): how much of the run each
 * CPU had nothing better to do.
 *
 * One thread per CPU the process may use, pinned to it, counts units of
 * work (one pass over a page-sized buffer).  First, at normal priority, it
 * times the unit: the fastest of IDLEPROF_CAL_RUNS timings of
 * IDLEPROF_CAL_SCALE units, per unit (the fastest, because a timing can only
 * be slowed down by others).  Then it drops to SCHED_IDLE, which runs only
 * when nothing else wants the CPU, and counts units from idleprof_begin() to
 * idleprof_end().  A CPU's idleness is the time its units took at the
 * calibrated speed over the time it counted: units x unit / wall, capped at
 * 100% (a unit can run a little faster than it was timed at: clock boost).
 * The system figure is the mean over the CPUs.  The threads add load only
 * where the CPU would have been idle, so the run is disturbed little (a
 * wake-up has to preempt them: fio's trade-off too).
 *
 * Not on any I/O path: the run starts the threads before its jobs and stops
 * them after (run.c).  The arithmetic is separate, so tests check it on a
 * fake clock.
 */
#ifndef IOTRIAL_IDLEPROF_H
#define IOTRIAL_IDLEPROF_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/clock.h"
#include "lib/err.h"

/* --idle-prof's values; NONE: no profile. */
enum idleprof_mode { IDLEPROF_NONE = 0, IDLEPROF_CALIBRATE, IDLEPROF_SYSTEM, IDLEPROF_PERCPU };

#define IDLEPROF_UNIT_BYTES 4096	/* one unit of work: a pass over this many bytes */
#define IDLEPROF_CAL_RUNS 10
#define IDLEPROF_CAL_SCALE 1000

/* One CPU's share of the run it was idle. */
struct idleprof_cpu_pct {
	int cpu;			/* the CPU's number */
	double pct;			/* 0..100 */
};

/* What a run reports (result.h holds one; mode NONE: not profiled). */
struct idleprof_result {
	enum idleprof_mode mode;
	double system_pct;		/* mean of the CPUs' */
	struct idleprof_cpu_pct *cpus;	/* malloc'd, nr_cpus entries (PERCPU and SYSTEM) */
	size_t nr_cpus;
	double unit_mean_us;		/* the unit of work's time, mean over the CPUs */
	double unit_stddev_us;		/* its sample standard deviation (0 for one CPU) */
};

struct idleprof;

/* One profiling thread's state (idleprof.c). */
struct idleprof_thread {
	struct idleprof *ip;
	pthread_t tid;
	int cpu;
	int created;
	int err;			/* -errno: pinning or SCHED_IDLE failed */
	double unit_ns;			/* calibrated time of one unit */
	uint64_t units;			/* counted while profiling */
	uint64_t t0_ns, t1_ns;		/* when it counted */
	unsigned char buf[IDLEPROF_UNIT_BYTES];
};

struct idleprof {
	enum idleprof_mode mode;
	const struct clock *clk;
	struct idleprof_thread *th;
	size_t nr;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t ready;			/* threads calibrated (or failed) */
	int go;				/* 0 wait, 1 count, -1 leave */
	atomic_int stop;
};

/*
 * Start one thread per CPU of the process's affinity mask and wait until
 * each has calibrated and gone idle-priority; timings by @clk.  Returns 0,
 * or -errno with @e filled (a thread that could not be pinned or set to
 * SCHED_IDLE: the profile would miss that CPU, so none is made, as in fio);
 * call idleprof_free() in both cases.
 */
int idleprof_start(struct idleprof *ip, enum idleprof_mode mode, const struct clock *clk,
		   struct err *e);

/* The run starts: the threads count from now. */
void idleprof_begin(struct idleprof *ip);

/*
 * The run ended: stop and join the threads, and fill @out (its cpus array is
 * malloc'd; the caller frees it, or result_free() does).  Without
 * idleprof_begin() (calibrate) only the unit's figures are set.  0 or -ENOMEM.
 */
int idleprof_end(struct idleprof *ip, struct idleprof_result *out);

/* Stop any thread still running and release @ip (safe after a failed start). */
void idleprof_free(struct idleprof *ip);

/* ---- the arithmetic (unit-tested) ---------------------------------------- */

/* One unit's time from @runs timings of @scale units each: the fastest / @scale; 0 if none. */
double idleprof_unit_ns(const uint64_t *run_ns, size_t runs, unsigned scale);

/* Mean and sample standard deviation of @n values (stddev 0 when @n < 2). */
void idleprof_unit_stats(const double *v, size_t n, double *mean, double *stddev);

/* @units x @unit_ns over @wall_ns, in percent, within [0, 100]; 0 when any is 0. */
double idleprof_share(uint64_t units, double unit_ns, uint64_t wall_ns);

#endif
