/*
 * numa: fio's numa_cpu_nodes and numa_mem_policy, without libnuma.
 *
 * numa_cpu_nodes=0-1,3 pins the job's thread to the CPUs of those nodes
 * (/sys/devices/system/node/nodeN/cpulist); numa_mem_policy=mode[:nodes]
 * (default, prefer, bind, interleave, local) becomes the thread's
 * set_mempolicy(2) and, with mbind(2), the policy of the job's I/O buffers,
 * which were allocated before the thread started (their pages move).  Nodes
 * are checked when the run starts, not when parsing: a job file written for
 * another machine still parses (--parse-only); running it names the node
 * that does not exist.  At most 64 nodes.
 */
#ifndef IOTRIAL_NUMA_H
#define IOTRIAL_NUMA_H

#include <sched.h>	/* cpu_set_t */
#include <stddef.h>
#include <stdint.h>
#include "model/numa_cfg.h"	/* struct numa_cfg, NUMA_MPOL_* */

struct job;
struct opt_def;
struct num_ctx;
struct err;

/* The nodes of this machine (bit per node), from /sys. 0 when unknown. */
uint64_t numa_nodes_present(void);

/* The CPUs of the nodes in @nodes.  0, or -ENOENT when a node is missing. */
int numa_node_cpus(uint64_t nodes, cpu_set_t *set);

/* Every node of @c exists here: 0, or -ENOENT with @e naming the option and node. */
int numa_check(const struct numa_cfg *c, const char *job, const char *origin, struct err *e);

/* Apply @c to the calling thread and to [@buf, @buf + @len).  0 or -errno. */
int numa_apply(const struct numa_cfg *c, void *buf, size_t len);

int numa_parse_cpu_nodes(struct job *j, const struct opt_def *o, const char *val,
			 const struct num_ctx *c, struct err *e);
int numa_show_cpu_nodes(const struct job *j, const struct opt_def *o, char *buf, size_t len);
int numa_parse_mem_policy(struct job *j, const struct opt_def *o, const char *val,
			  const struct num_ctx *c, struct err *e);
int numa_show_mem_policy(const struct job *j, const struct opt_def *o, char *buf, size_t len);

#endif
