/*
 * numa: CPU and memory placement by NUMA node (see numa.h).
 */
#include "io/numa.h"

#include <dirent.h>	/* opendir */
#include <errno.h>	/* ENOENT, EINVAL */
#include <stdio.h>	/* fopen, snprintf */
#include <stdlib.h>	/* strtoul */
#include <string.h>	/* strcmp, strncmp */
#include <sys/syscall.h>	/* SYS_set_mempolicy, SYS_mbind */
#include <unistd.h>	/* syscall */
#include "model/job.h"
#include "model/num.h"
#include "model/opt_def.h"

#define NODE_DIR "/sys/devices/system/node"

uint64_t numa_nodes_present(void)
{
	DIR *d = opendir(NODE_DIR);
	struct dirent *de;
	uint64_t m = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char *end;
		unsigned long n;

		if (strncmp(de->d_name, "node", 4) || !de->d_name[4])
			continue;
		n = strtoul(de->d_name + 4, &end, 10);
		if (!*end && n < 64)
			m |= 1ull << n;
	}
	closedir(d);
	return m;
}

/* "0-3,8" into @set (CPUs) or a bit mask (nodes, @mask). 0 or -EINVAL. */
static int numa_list(const char *s, cpu_set_t *set, uint64_t *mask)
{
	const char *p = s;

	while (*p && *p != '\n') {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a, i;

		if (end == p)
			return -EINVAL;
		p = end;
		if (*p == '-') {
			b = strtoul(p + 1, &end, 10);
			if (end == p + 1)
				return -EINVAL;
			p = end;
		}
		if (a > b || (mask && b >= 64) || (set && b >= CPU_SETSIZE))
			return -EINVAL;
		for (i = a; i <= b; i++) {
			if (set)
				CPU_SET((int)i, set);
			if (mask)
				*mask |= 1ull << i;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -EINVAL;
	}
	return 0;
}

int numa_node_cpus(uint64_t nodes, cpu_set_t *set)
{
	char path[96], line[4096];
	unsigned n;

	CPU_ZERO(set);
	for (n = 0; n < 64; n++) {
		FILE *f;
		int ok;

		if (!(nodes & (1ull << n)))
			continue;
		snprintf(path, sizeof(path), NODE_DIR "/node%u/cpulist", n);
		f = fopen(path, "r");
		if (!f)
			return -ENOENT;
		ok = fgets(line, sizeof(line), f) != NULL;
		fclose(f);
		if (!ok || numa_list(line, set, NULL))
			return -EINVAL;
	}
	return 0;
}

int numa_check(const struct numa_cfg *c, const char *job, const char *origin, struct err *e)
{
	uint64_t have = numa_nodes_present(), want[2] = { c->cpu_nodes, c->mem_nodes };
	const char *opt[2] = { "numa_cpu_nodes", "numa_mem_policy" };
	int k;

	for (k = 0; k < 2; k++) {
		uint64_t missing = want[k] & ~have;

		if (missing)
			return err_set(e, -ENOENT, EXIT_USAGE,
				       "job '%s' (%s): %s: NUMA node %d does not exist on this machine "
				       "(nodes here: %s/node*)", job, origin, opt[k],
				       __builtin_ctzll(missing), NODE_DIR);
	}
	return 0;
}

int numa_apply(const struct numa_cfg *c, void *buf, size_t len)
{
	uint64_t nodes;

	if (c->cpu_nodes) {
		cpu_set_t set;
		int r = numa_node_cpus(c->cpu_nodes, &set);

		if (r)
			return r;
		if (sched_setaffinity(0, sizeof(set), &set))	/* 0: this thread */
			return -errno;
	}
	if (c->mem_mode == NUMA_MPOL_NONE)
		return 0;
	nodes = c->mem_all ? numa_nodes_present() : c->mem_nodes;
	if (syscall(SYS_set_mempolicy, c->mem_mode, nodes ? &nodes : NULL, nodes ? 65 : 0))
		return -errno;
	/* the buffers exist already: give them the policy too, moving their pages */
	if (buf && len && c->mem_mode != NUMA_MPOL_LOCAL &&
	    syscall(SYS_mbind, buf, len, c->mem_mode, nodes ? &nodes : NULL, nodes ? 65 : 0,
		    c->mem_mode == NUMA_MPOL_DEFAULT ? 0 : 2 /* MPOL_MF_MOVE */))
		return -errno;
	return 0;
}

int numa_parse_cpu_nodes(struct job *j, const struct opt_def *o, const char *val,
			 const struct num_ctx *c, struct err *e)
{
	uint64_t m = 0;

	(void)o;
	if (numa_list(val, NULL, &m) || !m)
		return num_error(e, c, -EINVAL, val, "not a node list (0-1,3; nodes 0..63)");
	j->numa.cpu_nodes = m;
	return 0;
}

static void numa_show_list(uint64_t m, char *buf, size_t len)
{
	size_t pos = 0;
	int i, first = 1;

	buf[0] = '\0';
	for (i = 0; i < 64 && pos < len; i++) {
		int s = i, n;

		if (!(m & (1ull << i)))
			continue;
		while (i + 1 < 64 && (m & (1ull << (i + 1))))
			i++;
		n = s == i ? snprintf(buf + pos, len - pos, "%s%d", first ? "" : ",", s)
			   : snprintf(buf + pos, len - pos, "%s%d-%d", first ? "" : ",", s, i);
		if (n > 0)
			pos += (size_t)n;
		first = 0;
	}
}

int numa_show_cpu_nodes(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	(void)o;
	if (!j->numa.cpu_nodes)
		return 1;
	numa_show_list(j->numa.cpu_nodes, buf, len);
	return 0;
}

static const char *const numa_modes[] = { "default", "prefer", "bind", "interleave", "local" };

int numa_parse_mem_policy(struct job *j, const struct opt_def *o, const char *val,
			  const struct num_ctx *c, struct err *e)
{
	const char *colon = strchr(val, ':');
	size_t n = colon ? (size_t)(colon - val) : strlen(val);
	uint64_t m = 0;
	int mode, all = 0;

	(void)o;
	for (mode = 0; mode < 5; mode++)
		if (strlen(numa_modes[mode]) == n && !strncmp(val, numa_modes[mode], n))
			break;
	if (mode == 5)
		return num_error(e, c, -EINVAL, val, "not one of default, prefer, bind, interleave, "
				 "local (mode[:nodes])");
	if (mode == NUMA_MPOL_DEFAULT || mode == NUMA_MPOL_LOCAL) {
		if (colon)
			return num_error(e, c, -EINVAL, val, "%s takes no node list", numa_modes[mode]);
	} else {
		if (!colon || !colon[1])
			return num_error(e, c, -EINVAL, val, "%s needs nodes (%s:0-1)", numa_modes[mode],
					 numa_modes[mode]);
		if (!strcmp(colon + 1, "all"))
			all = 1;
		else if (numa_list(colon + 1, NULL, &m) || !m)
			return num_error(e, c, -EINVAL, val, "not a node list (0-1,3; nodes 0..63)");
		if (mode == NUMA_MPOL_PREFER && (all || (m & (m - 1))))
			return num_error(e, c, -EINVAL, val, "prefer takes one node");
	}
	j->numa.mem_mode = mode;
	j->numa.mem_nodes = m;
	j->numa.mem_all = all;
	return 0;
}

int numa_show_mem_policy(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	size_t n;

	(void)o;
	if (j->numa.mem_mode == NUMA_MPOL_NONE)
		return 1;
	n = (size_t)snprintf(buf, len, "%s", numa_modes[j->numa.mem_mode]);
	if (n >= len || j->numa.mem_mode == NUMA_MPOL_DEFAULT || j->numa.mem_mode == NUMA_MPOL_LOCAL)
		return 0;
	if (j->numa.mem_all) {
		snprintf(buf + n, len - n, ":all");
		return 0;
	}
	buf[n++] = ':';
	numa_show_list(j->numa.mem_nodes, buf + n, len - n);
	return 0;
}
