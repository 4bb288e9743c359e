/*
 * latency_target_cfg: latency_target, latency_window, latency_percentile
 * and latency_run as a job stores them (struct job's lat_target,
 * latency_target.h searches with them).  Apart from latency_target.h so
 * that job.h can hold them while latency_target.c's option callbacks
 * include job.h: the modules then form no include loop.
 */
#ifndef IOTRIAL_LATENCY_TARGET_CFG_H
#define IOTRIAL_LATENCY_TARGET_CFG_H

#include <stdint.h>

/* The options, in struct job (opt_table.c has the rows). */
struct lat_target_cfg {
	uint64_t target_us;		/* latency_target; 0 = off */
	uint64_t window_us;		/* latency_window */
	double percentile;		/* latency_percentile, 0..100 (default 100) */
	int run;			/* latency_run: keep adjusting, never settle */
};

#endif
