/*
 * job_fixture: a struct job with fio's defaults for the fields the core
 * reads, without linking the option parser (job_init lives in opt.c).
 */
#ifndef IOTRIAL_JOB_FIXTURE_H
#define IOTRIAL_JOB_FIXTURE_H

#include <string.h>
#include "model/job.h"

static inline void fixture_job(struct job *j, unsigned rw, uint64_t bs, uint64_t size)
{
	int d;

	memset(j, 0, sizeof(*j));
	strcpy(j->name, "t");
	strcpy(j->origin, "test");
	j->rw = rw;
	for (d = 0; d < DDIR_NR; d++) {
		j->bs[d] = j->bs_min[d] = j->bs_max[d] = bs;
		j->percentage_random[d] = 100;
	}
	j->size = size;
	j->rwmixread = 50;
	j->randrepeat = 1;
	j->loops = 1;
	j->iodepth = 1;
	j->iodepth_batch_submit = 1;	/* fio: commit each I/O */
	j->iodepth_batch_complete_min = 1;
	j->numjobs = 1;
	j->nrfiles = 1;
}

#endif
