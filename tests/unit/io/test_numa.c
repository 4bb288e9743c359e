/*
 * test_numa: numa_cpu_nodes and numa_mem_policy (numa.h) on this machine's
 * node 0: the thread's CPUs become node 0's, its memory policy bind:0, and a
 * node that does not exist is named.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "lib/err.h"
#include "io/numa.h"

TEST(node0_cpus_and_bind)
{
	struct numa_cfg c = { .cpu_nodes = 1, .mem_mode = NUMA_MPOL_BIND, .mem_nodes = 1 };
	cpu_set_t want, got, saved;
	unsigned long mask = 0;
	int mode = -1;
	void *buf;

	if (!(numa_nodes_present() & 1))
		SKIP("no NUMA node 0 in /sys/devices/system/node");
	CHECK(numa_node_cpus(1, &want) == 0);
	CHECK(CPU_COUNT(&want) > 0);
	CHECK(sched_getaffinity(0, sizeof(saved), &saved) == 0);
	CHECK(posix_memalign(&buf, 4096, 1 << 16) == 0);
	memset(buf, 1, 1 << 16);
	CHECK(numa_apply(&c, buf, 1 << 16) == 0);
	CHECK(sched_getaffinity(0, sizeof(got), &got) == 0);
	CHECK(CPU_EQUAL(&got, &want));
	CHECK(syscall(SYS_get_mempolicy, &mode, &mask, 64, NULL, 0) == 0);
	CHECK_EQ_U(mode, NUMA_MPOL_BIND);
	CHECK_EQ_U(mask, 1);
	/* back to normal for the rest of the program */
	c = (struct numa_cfg){ .mem_mode = NUMA_MPOL_DEFAULT };
	CHECK(numa_apply(&c, NULL, 0) == 0);
	sched_setaffinity(0, sizeof(saved), &saved);
	free(buf);
}

TEST(missing_node_named)
{
	uint64_t have = numa_nodes_present();
	struct numa_cfg c = { .mem_mode = NUMA_MPOL_NONE };
	struct err e;
	int n = 0;

	while (n < 63 && (have & (1ull << n)))
		n++;
	c.cpu_nodes = 1ull << n;
	err_clear(&e);
	CHECK(numa_check(&c, "j", "f.fio:3", &e) == -ENOENT);
	CHECK(strstr(e.msg, "numa_cpu_nodes: NUMA node") != NULL);
	CHECK(strstr(e.msg, "f.fio:3") != NULL);
}

int main(void)
{
	RUN(node0_cpus_and_bind);
	RUN(missing_node_named);
	return CHECK_DONE();
}
