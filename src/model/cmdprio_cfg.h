/*
 * cmdprio_cfg: the per-I/O priority options (cmdprio*, prio, prioclass,
 * log_prio) as a job stores them (struct job's cmdprio, cmdprio.h picks
 * priorities with them).  Apart from cmdprio.h so that job.h can hold them
 * while cmdprio.c's option callbacks include job.h: the modules then form
 * no include loop.
 */
#ifndef IOTRIAL_CMDPRIO_CFG_H
#define IOTRIAL_CMDPRIO_CFG_H

#include <stdint.h>

#define CMDPRIO_SPLIT_MAX 16
#define CMDPRIO_NONE (-1)

struct cmdprio_split {
	uint64_t bs;
	uint32_t perc;
	int ioprio;		/* CMDPRIO_NONE: cmdprio_class/cmdprio */
	/*
	 * The fifth field, a priority hint (CDL descriptor), CMDPRIO_NONE when
	 * absent.  Kept for showing only: fio 3.33 ignores it, and so the
	 * ioprio value carries no hint bits here either.
	 */
	int hint;
};

/* The options, in struct job (directions: read, write; trim uses write's). */
struct cmdprio_cfg {
	uint32_t pct[2];
	int cls[2], lvl[2];		/* CMDPRIO_NONE: default (1, 0) */
	struct cmdprio_split split[2][CMDPRIO_SPLIT_MAX];
	unsigned split_nr[2];
	int prio, prioclass;		/* the job's own; CMDPRIO_NONE: unset */
	int log_prio;			/* logs carry the ioprio value, not a flag */
};

#endif
