/*
 * numa_cfg: numa_cpu_nodes and numa_mem_policy as a job stores them
 * (struct job's numa, numa.h applies them).  Apart from numa.h so that
 * job.h can hold them while numa.c's option callbacks include job.h:
 * the modules then form no include loop.
 */
#ifndef IOTRIAL_NUMA_CFG_H
#define IOTRIAL_NUMA_CFG_H

#include <stdint.h>

enum { NUMA_MPOL_NONE = -1, NUMA_MPOL_DEFAULT = 0, NUMA_MPOL_PREFER = 1, NUMA_MPOL_BIND = 2,
       NUMA_MPOL_INTERLEAVE = 3, NUMA_MPOL_LOCAL = 4 };	/* the kernel's MPOL_* values */

struct numa_cfg {
	uint64_t cpu_nodes;		/* bit per node; 0: not pinned */
	int mem_mode;			/* NUMA_MPOL_*; NONE: not set */
	uint64_t mem_nodes;		/* bit per node ("all": every node present) */
	int mem_all;
};

#endif
