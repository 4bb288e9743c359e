/*
 * test_breakdown: the per-I/O time model (breakdown.h) on fixed inputs: the
 * cycle from counts, each part and its share, the batch factors at depth, the
 * remainder and the overlap, the device capped at the latency, the texts
 * that say how exact a part is, fio's buckets, and the I/O-weighted mean.
 */
#include "check.h"
#include "measure/breakdown.h"

#include <math.h>
#include <string.h>

/* QD1, 10000 I/Os in 1 s: a 100 us cycle. */
static struct breakdown_in qd1(void)
{
	struct breakdown_in in;

	memset(&in, 0, sizeof(in));
	in.ios = 10000;
	in.slots = 1;
	in.threads = 1;
	in.wall_s = 1;
	in.lat_ns = 98000;
	in.has_dev = 1;
	in.dev_lat_ns = 70000;
	in.dev_ios = 10000;
	in.usr_ns = 1e7;	/* 1 us per I/O */
	in.sys_ns = 1e8;	/* 10 us */
	in.wait_ns = 5e7;	/* 5 us */
	in.batch = 1;
	in.batch_exact = 1;
	return in;
}

TEST(qd1_parts_add_up_to_the_cycle)
{
	struct breakdown_in in = qd1();
	struct breakdown b;
	double sum = 0;

	breakdown_compute(&in, &b);
	CHECK(b.valid);
	CHECK_NEAR(b.cycle_ns, 100000, 1e-6);
	CHECK_NEAR(b.part[BD_DEVICE].ns, 70000, 1e-6);
	CHECK_NEAR(b.part[BD_TOOL_USER].ns, 1000, 1e-6);
	CHECK_NEAR(b.part[BD_TOOL_SYS].ns, 10000, 1e-6);
	CHECK_NEAR(b.part[BD_CPU_WAIT].ns, 5000, 1e-6);
	CHECK_NEAR(b.part[BD_IO_PATH].ns, 14000, 1e-6);
	for (int p = 0; p < BD_NR; p++)
		sum += b.part[p].share;
	CHECK_NEAR(sum, 1, 1e-12);
	CHECK_NEAR(b.overlap_ns, 0, 0);
	CHECK(strstr(b.part[BD_DEVICE].exact, "the job's own requests") != NULL);
	CHECK(strstr(b.part[BD_TOOL_USER].exact, "estimate") == NULL);
	CHECK_STR(breakdown_part_name(BD_IO_PATH), "io_path");
	CHECK(breakdown_largest(&b) == BD_DEVICE);
}

/* QD32, one thread, 4 completions per reap: tool x 2.5, wait x 4, marked estimates. */
TEST(depth_counts_the_batch)
{
	struct breakdown_in in = qd1();
	struct breakdown b;

	in.slots = 32;
	in.ios = 100000;	/* 320 us cycle */
	in.batch = 4;
	breakdown_compute(&in, &b);
	CHECK_NEAR(b.cycle_ns, 320000, 1e-6);
	CHECK_NEAR(b.part[BD_TOOL_USER].ns, 100 * 2.5, 1e-6);
	CHECK_NEAR(b.part[BD_TOOL_SYS].ns, 1000 * 2.5, 1e-6);
	/* the wait: at least the batch's (4 x 500 ns), at most every slot's (32 x 500 ns),
	 * as much of the time outside the device and the tool as that allows */
	CHECK(b.part[BD_CPU_WAIT].ns >= 500 * 4 - 1e-6 && b.part[BD_CPU_WAIT].ns <= 500 * 32 + 1e-6);
	CHECK(strstr(b.part[BD_CPU_WAIT].exact, "between 2.0 us") && strstr(b.part[BD_CPU_WAIT].exact, "and 16.0 us"));
	/* a batch larger than the depth per thread is cut to it */
	in.batch = 64;
	breakdown_compute(&in, &b);
	CHECK_NEAR(b.batch, 32, 0);
}

TEST(overlap_and_cap)
{
	struct breakdown_in in = qd1();
	struct breakdown b;

	in.wait_ns = 3e8;	/* 30 us: 70 + 1 + 10 + 30 > 100 */
	breakdown_compute(&in, &b);
	CHECK_NEAR(b.part[BD_IO_PATH].ns, 0, 0);
	CHECK_NEAR(b.overlap_ns, 11000, 1e-6);
	CHECK(strstr(b.part[BD_IO_PATH].exact, "overlap") != NULL);
	/* a device slower than the job's own latency (others' requests): capped */
	in = qd1();
	in.dev_lat_ns = 150000;
	in.dev_ios = 13000;
	breakdown_compute(&in, &b);
	CHECK_NEAR(b.part[BD_DEVICE].ns, 98000, 1e-6);
	CHECK(strstr(b.part[BD_DEVICE].exact, "shared: the device did 130%") != NULL);
	CHECK(strstr(b.part[BD_DEVICE].exact, "capped at the job's latency (device 150 us)") != NULL);
	/* merged requests under O_DIRECT: each I/O waits for its whole request */
	in.dev_lat_ns = 70000;
	in.dev_ios = 5000;
	in.direct = 1;
	breakdown_compute(&in, &b);
	CHECK_NEAR(b.part[BD_DEVICE].ns, 70000, 1e-6);
	CHECK(strstr(b.part[BD_DEVICE].exact, "merged") != NULL);
}

/*
 * With the page cache between, the device's busy time over the job's I/Os:
 * 1000 requests of 70 us for 10000 I/Os is 7 us of each, and the kernel's
 * copy (tool_sys, on the thread) holds the rest; before, the device was the
 * time per request, 70 us of a 100 us cycle.
 */
TEST(buffered_device_is_busy_time_per_io)
{
	struct breakdown_in in = qd1();
	struct breakdown b;

	in.dev_ios = 1000;
	in.direct = 0;
	breakdown_compute(&in, &b);
	CHECK_NEAR(b.part[BD_DEVICE].ns, 7000, 1e-6);
	CHECK(strstr(b.part[BD_DEVICE].exact, "did 10.0% of the job's I/Os (70.0 us per request)") != NULL);
	CHECK(strstr(b.part[BD_DEVICE].from, "/ the job's I/Os") != NULL);
	CHECK_NEAR(b.part[BD_IO_PATH].ns, 77000, 1e-6);	/* 100 - 7 - 1 - 10 - 5 */
	/* no request at all: 0, still a device */
	in.dev_ios = 0;
	in.dev_lat_ns = NAN;
	breakdown_compute(&in, &b);
	CHECK_NEAR(b.part[BD_DEVICE].ns, 0, 0);
	CHECK(strstr(b.part[BD_DEVICE].exact, "page cache") != NULL);
	/* the same figures under O_DIRECT: the time per request (holes aside) */
	in = qd1();
	in.direct = 1;
	breakdown_compute(&in, &b);
	CHECK_NEAR(b.part[BD_DEVICE].ns, 70000, 1e-6);
}

/* fio: no run-queue wait, no device under tmpfs; the null engine has none at all. */
TEST(unknown_parts)
{
	struct breakdown_in in = qd1();
	struct breakdown b;

	in.wait_ns = NAN;
	breakdown_compute(&in, &b);
	CHECK(isnan(b.part[BD_CPU_WAIT].ns) && isnan(b.part[BD_CPU_WAIT].share));
	CHECK_NEAR(b.part[BD_IO_PATH].ns, 19000, 1e-6);
	CHECK(strstr(b.part[BD_IO_PATH].exact, "includes any wait for a CPU") != NULL);
	in.has_dev = 0;
	breakdown_compute(&in, &b);
	CHECK(isnan(b.part[BD_DEVICE].ns));
	CHECK_NEAR(b.part[BD_IO_PATH].ns, 89000, 1e-6);
	in.deviceless = 1;
	breakdown_compute(&in, &b);
	CHECK_NEAR(b.part[BD_DEVICE].ns, 0, 0);
	in.ios = 0;
	breakdown_compute(&in, &b);
	CHECK(!b.valid);
	CHECK(breakdown_largest(&b) == BD_NR);
}

/*
 * A rate limit or thinktime: 1000 I/Os a second at QD1 is a 1000 us cycle of
 * which only the 98 us latency has an I/O in flight.  The rest less the tool
 * and CPU-wait parts is idle, not I/O path: the path is the latency less the
 * device (28 us), as at full speed.
 */
TEST(idle_is_not_io_path)
{
	struct breakdown_in in = qd1();
	struct breakdown b;
	double sum = 0;

	in.ios = 1000;
	in.usr_ns = 1e6;	/* the same 1, 10 and 5 us per I/O */
	in.sys_ns = 1e7;
	in.wait_ns = 5e6;
	breakdown_compute(&in, &b);
	CHECK_NEAR(b.cycle_ns, 1e6, 1e-6);
	CHECK_NEAR(b.part[BD_IO_PATH].ns, 28000, 1e-6);
	CHECK_NEAR(b.part[BD_IDLE].ns, 1e6 - 98000 - 16000, 1e-6);
	CHECK_NEAR(b.overlap_ns, 0, 0);
	for (int p = 0; p < BD_NR; p++)
		sum += b.part[p].share;
	CHECK_NEAR(sum, 1, 1e-12);
	CHECK(breakdown_largest(&b) == BD_IDLE);
	CHECK_STR(breakdown_part_name(BD_IDLE), "idle");
	CHECK(strstr(b.part[BD_IO_PATH].from, "idle") != NULL);
	/* at full speed the gap is the tool's: nothing idle */
	in = qd1();
	breakdown_compute(&in, &b);
	CHECK_NEAR(b.part[BD_IDLE].ns, 0, 0);
	/* no latency: idle unknown, and io_path says it holds it */
	in.ios = 1000;
	in.lat_ns = NAN;
	breakdown_compute(&in, &b);
	CHECK(isnan(b.part[BD_IDLE].ns));
	CHECK(strstr(b.part[BD_IO_PATH].exact, "idle time") != NULL);
}

TEST(fio_buckets)
{
	double p[7] = { 0, 100, 0, 0, 0, 0, 0 };

	CHECK_NEAR(breakdown_batch_from_buckets(p, 1), 1, 0);
	CHECK_NEAR(breakdown_batch_from_buckets(p, 2), 1.5, 1e-12);
	CHECK_NEAR(breakdown_batch_from_buckets(p, 32), 2.5, 1e-12);
	p[1] = 50;
	p[4] = 50;	/* half 1-4, half 17-32 */
	CHECK_NEAR(breakdown_batch_from_buckets(p, 32), (2.5 + 24.5) / 2, 1e-12);
	memset(p, 0, sizeof(p));
	CHECK(isnan(breakdown_batch_from_buckets(p, 32)));
}

TEST(mean_is_io_weighted)
{
	struct breakdown_in in = qd1();
	struct breakdown v[2], m;
	double w[2] = { 1, 3 };

	breakdown_compute(&in, &v[0]);
	in.dev_lat_ns = 30000;	/* io_path 54 us */
	breakdown_compute(&in, &v[1]);
	breakdown_mean(v, w, 2, &m);
	CHECK(m.valid);
	CHECK_NEAR(m.part[BD_DEVICE].ns, (70000 + 3 * 30000) / 4.0, 1e-6);
	CHECK_NEAR(m.part[BD_IO_PATH].ns, (14000 + 3 * 54000) / 4.0, 1e-6);
	CHECK_NEAR(m.part[BD_DEVICE].share, m.part[BD_DEVICE].ns / 100000, 1e-12);
	/* a part unknown for one entry is unknown for the mean */
	in.wait_ns = NAN;
	breakdown_compute(&in, &v[1]);
	breakdown_mean(v, w, 2, &m);
	CHECK(isnan(m.part[BD_CPU_WAIT].ns));
}

int main(void)
{
	RUN(qd1_parts_add_up_to_the_cycle);
	RUN(depth_counts_the_batch);
	RUN(overlap_and_cap);
	RUN(buffered_device_is_busy_time_per_io);
	RUN(unknown_parts);
	RUN(idle_is_not_io_path);
	RUN(fio_buckets);
	RUN(mean_is_io_weighted);
	return CHECK_DONE();
}
