/*
 * resultread_time: what a saved result says about where each I/O's time
 * went (docs/breakdown.md), read beside resultread's summary of a job:
 * iotrial's own breakdown and device view of the job when the result has
 * them, and for fio's results the raw figures the breakdown is computed
 * from (the user/system CPU split, fio's completion-batch buckets, the
 * block size and target that tell one workload from another).
 */
#ifndef IOTRIAL_RESULTREAD_TIME_H
#define IOTRIAL_RESULTREAD_TIME_H

#include <jansson.h>	/* json_t */
#include "measure/breakdown.h"

/* A job's own device view (jobs[].iotrial.device), over its measured window. */
struct resultread_view {
	int has;
	char name[64];
	double window_s;
	double read_ios, write_ios;
	double read_lat_ns, write_lat_ns, read_qd, write_qd, util;
};

struct resultread_time {
	double usr_pct, sys_pct;	/* of job_runtime, NAN unknown */
	double complete_pct[7];		/* iodepth_complete: 0 4 8 16 32 64 >=64 */
	char bs[32];			/* the bs option as given, "" default */
	char target[160];		/* filename, else directory, as given */
	char key[256];			/* rw, bs, engine, direct, numjobs, target: one workload */
	struct breakdown bd;		/* iotrial's jobs[].iotrial.breakdown (valid 0: none) */
	struct breakdown bd_tail;	/* its "tail" */
	struct resultread_view view;
};

/*
 * Read @job's figures into @t; @opts are its options merged with the
 * global ones, @rw/@engine/@direct/@numjobs as resultread resolved them.
 * Missing figures stay NAN or empty: never an error.
 */
void resultread_time_job(const json_t *job, const json_t *opts, const char *rw, const char *engine,
			 int direct, unsigned numjobs, struct resultread_time *t);

/* Read an object written by breakdown_json() back into @b. */
void resultread_time_breakdown(const json_t *o, struct breakdown *b);

#endif
