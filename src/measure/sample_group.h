/*
 * sample_group: a group_reporting group's bw/iops figures (fio's 500 ms
 * statistics), streamed while its threads run (docs/time-series.md, long runs) instead of kept
 * whole and added at the end.
 *
 * fio adds the threads' samples period by period (sample k of every thread
 * is the same 500 ms after each one's start) and takes min/max/mean/stddev
 * over those sums.  Each thread pushes its samples into a sample_seq; the
 * collector takes, under the threads' locks, every period that is complete
 * in all of them (a thread that has ended has all its samples; a running
 * one, those it has pushed), adds it to the group's sample_stat and drops
 * it from the threads.  Only the periods some running thread has not
 * reached yet are kept: memory bounded by how far the threads drift apart,
 * not by the run's length.  The sums are taken in thread order as before,
 * so the figures are bit-identical to the whole-array computation.
 */
#ifndef IOTRIAL_SAMPLE_GROUP_H
#define IOTRIAL_SAMPLE_GROUP_H

#include <stddef.h>
#include <stdint.h>
#include "lib/ddir.h"
#include "lib/stat.h"

/* One thread's samples of one direction not yet taken by its group. */
struct sample_seq {
	double *bw, *iops;		/* KiB/s and IOPS, nr of them */
	size_t nr, cap;
	uint64_t base;			/* the period number of bw[0] */
};

/* Append a sample (every 500 ms, never per I/O: may allocate).  0 or -ENOMEM. */
int sample_seq_push(struct sample_seq *q, double bw, double iops);

void sample_seq_free(struct sample_seq *q);

struct sample_group {
	struct sample_stat bw_kib[DDIR_NR], iops[DDIR_NR];
	uint64_t out[DDIR_NR];		/* periods added so far */
};

void sample_group_init(struct sample_group *g);

/*
 * Add every period complete in all @n threads (@q[t] the thread's DDIR_NR
 * sequences, @done[t] whether it has ended, @dirs[t] the directions it
 * samples every period: its rw bits) and drop it from them.  A running
 * thread holds back only the directions it samples every period, so that a
 * reader does not keep a writer's samples for the whole run; a sample it
 * gives of another direction (I/O the job did not ask for) after the group
 * has taken that period is dropped.
 */
void sample_group_pull(struct sample_group *g, struct sample_seq *const *q, const int *done,
		       const unsigned *dirs, size_t n);

#endif
