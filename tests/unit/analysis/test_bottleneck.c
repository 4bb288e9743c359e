/*
 * test_bottleneck: the verdict rules (bottleneck.h) on fixed inputs: each
 * verdict, the order between them, and the evidence carrying the figures
 * that decided it; and the same verdict drawn from a fio-shaped result.
 */
#include "check.h"
#include "analysis/bottleneck.h"
#include "trial/compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/*
 * A direct job on a device, with its breakdown from per-I/O figures (us):
 * cycle @cyc, device @dev, tool user @usr and system @sys, CPU wait @wait;
 * the I/O path is the rest.  One thread.
 */
static struct bottleneck_in mk(double depth, double cyc, double dev, double usr, double sys,
			       double wait)
{
	struct bottleneck_in in;
	struct breakdown_in b;

	memset(&in, 0, sizeof(in));
	memset(&b, 0, sizeof(b));
	b.ios = 1e6;
	b.slots = depth;
	b.threads = 1;
	b.wall_s = cyc * 1e-6 * b.ios / depth;
	b.lat_ns = cyc * 1000;
	b.has_dev = 1;
	b.dev_lat_ns = dev * 1000;
	b.dev_ios = b.ios;
	b.usr_ns = usr * 1000 * b.ios;
	b.sys_ns = sys * 1000 * b.ios;
	b.wait_ns = wait * 1000 * b.ios;
	b.batch = 1;
	breakdown_compute(&b, &in.bd);
	in.cpu_pct = 100 * (usr + sys) / (cyc / depth);
	in.req_depth = depth;
	in.has_dev = 1;
	in.dev_depth = depth * dev / cyc;
	in.dev_util = 80;
	in.dev_nr_requests = 256;
	in.job_amount = in.dev_amount = 1e9;
	in.dev_ios_ratio = 1;
	in.rate_share = NAN;
	in.direct = 1;
	in.has_sched = 1;
	in.wait_share = wait * depth / cyc;
	in.load1 = -1;
	return in;
}

TEST(device_when_depth_kept)
{
	struct bottleneck_in in = mk(32, 300, 290, 0.1, 2, 0);
	struct bottleneck_verdict v;

	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "device");
	CHECK(strstr(v.evidence, "device depth 30.9 of 32 requested (0.97)") != NULL);
	CHECK(strstr(v.evidence, "each I/O's cycle 300.0 us (latency 300.0 us): device 290.0 us (97%)") != NULL);
	CHECK_NEAR(v.tool_minus_dev_ns, 10000, 1e-6);
}

/*
 * The QD1 on the virtio disk: clat 110 us, the device 81 us, the
 * thread 0.4% user: never tool, the device's latency is most of each I/O.
 */
TEST(qd1_disk_is_never_tool)
{
	struct bottleneck_in in = mk(1, 110, 81, 0.8, 14, 8);
	struct bottleneck_verdict v;

	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "device");
	CHECK(strstr(v.evidence, "latency-bound") != NULL);
	/* even when the device is a smaller share than the rest: io_path, still not tool */
	in = mk(1, 110, 30, 0.8, 14, 8);
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "io_path");
	CHECK(strstr(v.evidence, "57.2 us of each I/O (52%) passed in the I/O path") != NULL);
	/* too close to tell: say so */
	in = mk(1, 110, 45, 0.8, 14, 8);
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "unknown");
	CHECK(strstr(v.evidence, "cannot tell") != NULL);
}

/*
 * The QD32: 38k IOPS, device 17.9 of 32, util 61%, the thread waited
 * 35% of the run.  The batch estimate of the wait is 9.2 us per I/O, but every
 * I/O completing during a wait stalls with it: on a loaded machine the same
 * job at real-time priority did 2x the IOPS (docs/breakdown.md).  So
 * cpu_contention, and the breakdown moves up to 32 x 9.2 us of the time
 * outside the device from io_path to the CPU wait.
 */
TEST(qd32_contention_and_saturation)
{
	struct bottleneck_in in = mk(32, 840, 450, 0.3, 5.3, 9.2);
	struct bottleneck_verdict v;

	in.wait_share = 0.35;
	in.dev_util = 61;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "cpu_contention");
	CHECK(strstr(v.evidence, "waited for a CPU 35% of the run") != NULL);
	CHECK_NEAR(in.bd.part[BD_CPU_WAIT].ns, 32 * 9200, 1);
	CHECK_NEAR(in.bd.part[BD_IO_PATH].ns, 840000 - 450000 - 5600 - 32 * 9200, 1);
	/* hardly any wait: the time outside the device is the path's */
	in = mk(32, 840, 250, 0.3, 5.3, 0.3);
	in.wait_share = 0.01;
	in.dev_util = 61;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "io_path");
	in = mk(32, 840, 450, 0.3, 5.3, 9.2);
	in.wait_share = 0.35;
	in.dev_util = 61;
	/* busy device: waiting for a CPU cannot add IOPS */
	in.dev_util = 99;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "device");
	CHECK(strstr(v.evidence, "busy 99% of the window") != NULL);
	/* the same at real-time priority: no wait, util 99%, device 70% of the cycle */
	in = mk(32, 414, 288, 0.4, 6, 0);
	in.dev_util = 99;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "device");
	/* a shallower run of the same job did as many IOPS and the device took the time */
	in = mk(32, 840, 450, 0.3, 5.3, 9.2);
	in.wait_share = 0.35;
	in.dev_util = 61;
	in.cross.saturated = 1;
	snprintf(in.cross.text, sizeof(in.cross.text), "depth 8 -> 32 added +2%% IOPS");
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "device");
	CHECK(strstr(v.evidence, "depth 8 -> 32 added +2% IOPS") != NULL);
	/* as many IOPS but the time added outside the device, no wait: the path in front */
	in.cross.saturated = -1;
	in.wait_share = 0.01;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "io_path");
	CHECK(strstr(v.evidence, "the path in front of it is saturated") != NULL);
}

TEST(tool_when_cpu_bound_or_most_of_the_cycle)
{
	struct bottleneck_in in = mk(8, 100, 20, 10, 2, 0);
	struct bottleneck_verdict v;

	/* 12 us of CPU per I/O against 12.5 us per I/O of the thread: CPU-bound */
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "tool");
	CHECK(strstr(v.evidence, "CPU-bound") != NULL);
	/* QD1: the tool's own CPU 60% of each I/O, thread at 60% */
	in = mk(1, 100, 30, 50, 10, 0);
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "tool");
	CHECK(strstr(v.evidence, "tool's own CPU time is 60% of each I/O") != NULL);
	/* 40%: not the tool */
	in = mk(1, 100, 55, 30, 10, 0);
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "device");
}

TEST(rate_limit_first_when_reached)
{
	struct bottleneck_in in = mk(32, 300, 20, 1, 2, 0);
	struct bottleneck_verdict v;

	in.rate_limited = 1;
	in.rate_share = 0.99;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "rate_limit");
	CHECK(strstr(v.evidence, "rate 99% of the limit") != NULL);
	/* a limit not reached did not limit */
	in.rate_share = 0.5;
	bottleneck_judge(&in, &v);
	CHECK(strcmp(v.verdict, "rate_limit") != 0);
}

TEST(page_cache_when_device_did_little)
{
	struct bottleneck_in in = mk(1, 5, 1, 1, 3, 0);
	struct bottleneck_verdict v;

	in.direct = 0;
	in.cpu_pct = 100;	/* copying from the cache keeps the thread busy */
	in.dev_amount = 0.1e9;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "page_cache");
	CHECK(strstr(v.evidence, "device did 10% of the job's bytes") != NULL);
	CHECK_NEAR(v.dev_io_share, 0.1, 1e-12);
}

TEST(no_device_shared_device_null_engine)
{
	struct bottleneck_in in = mk(8, 100, 60, 1, 5, 1);
	struct bottleneck_verdict v;

	in.has_dev = 0;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "unknown");
	CHECK(strstr(v.evidence, "no block device") != NULL);
	CHECK(v.dev_depth == -1);
	in.deviceless = 1;	/* null engine, whatever its CPU share */
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "tool");
	in.wait_share = 0.4;	/* its CPU is what it measures, waits or not */
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "tool");
	in.cross.alone_faster = 1;	/* ... unless the same job alone did more */
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "cpu_contention");
	/* a device doing three times the job's I/Os: its figures are mostly others' */
	in = mk(8, 100, 60, 1, 5, 1);
	in.dev_ios_ratio = 3;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "unknown");
	CHECK(strstr(v.evidence, "3.0 times the job's I/Os") != NULL);
}

/* fio's results have no run-queue wait: the same job alone in another group says it. */
TEST(alone_faster_is_contention)
{
	struct bottleneck_in in = mk(4, 200, 60, 1, 8, 0);
	struct bottleneck_verdict v;

	in.has_sched = 0;
	in.bd.part[BD_CPU_WAIT].ns = NAN;
	bottleneck_judge(&in, &v);
	CHECK(strcmp(v.verdict, "cpu_contention") != 0);
	in.cross.alone_faster = 1;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "cpu_contention");
	CHECK(strstr(v.evidence, "the same job did more beside no CPU-burning jobs") != NULL);
}

/* The peers: depth 8 -> 32 adding no IOPS, and the same job alone. */
TEST(peer_evidence)
{
	struct bottleneck_peer p[4];
	struct bottleneck_cross c;

	memset(p, 0, sizeof(p));
	for (int i = 0; i < 4; i++) {
		p[i].groupid = (unsigned)i;
		p[i].key = "randread|4k";
		p[i].has_io = 1;
	}
	p[0].depth = 8, p[0].iops = 50000, p[0].cycle_ns = 160000, p[0].dev_lat_ns = 150000;
	p[1].depth = 32, p[1].iops = 51000, p[1].cycle_ns = 627000, p[1].dev_lat_ns = 600000;
	bottleneck_peer_judge(p, 2, 1, NAN, &c);
	CHECK(c.saturated == 1);
	CHECK(strstr(c.text, "depth 8 -> 32 (group 0 -> 1) added +2% IOPS") != NULL);
	/* the added time outside the device */
	p[1].dev_lat_ns = 160000;
	bottleneck_peer_judge(p, 2, 1, NAN, &c);
	CHECK(c.saturated == -1);
	/* fio: only the whole run's device share */
	p[0].dev_lat_ns = p[1].dev_lat_ns = NAN;
	bottleneck_peer_judge(p, 2, 1, 0.8, &c);
	CHECK(c.saturated == 1 && strstr(c.text, "80% of their latency in the device"));
	/* deeper that adds IOPS says nothing; the shallower job has no shallower peer */
	p[1].iops = 80000;
	bottleneck_peer_judge(p, 2, 1, 0.8, &c);
	CHECK(c.saturated == 0 && !c.text[0]);
	bottleneck_peer_judge(p, 2, 0, 0.8, &c);
	CHECK(c.saturated == 0);
	/* group 3: the QD8 job beside CPU burners (group 3, no I/O, 180% of a CPU) */
	p[2].depth = 8, p[2].iops = 20000, p[2].groupid = 3;
	p[3].has_io = 0, p[3].burner = 1, p[3].groupid = 3, p[3].cpu_threads_pct = 180, p[3].key = "cpuio";
	bottleneck_peer_judge(p, 4, 2, NAN, &c);
	CHECK(c.alone_faster == 1);
	CHECK(strstr(c.text, "the same job alone (group 0) did 50000 IOPS, here 20000 (40%)") != NULL);
	/* within the margin: nothing */
	p[2].iops = 45000;
	bottleneck_peer_judge(p, 4, 2, NAN, &c);
	CHECK(c.alone_faster == 0);
}

/* fio's JSON shape: disk_util ticks over job_runtime, clat from the job. */
TEST(from_fio_result)
{
	static const char doc[] =
		"{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"t\", \"groupid\": 0,"
		" \"error\": 0, \"job options\": {\"rw\": \"randread\", \"iodepth\": \"32\","
		" \"ioengine\": \"io_uring\", \"direct\": \"1\"},"
		" \"read\": {\"io_bytes\": 409600000, \"total_ios\": 100000, \"iops\": 50000,"
		"   \"runtime\": 2000, \"clat_ns\": {\"N\": 100000, \"mean\": 440000},"
		"   \"lat_ns\": {\"N\": 100000, \"mean\": 445000}},"
		" \"write\": {\"io_bytes\": 0, \"total_ios\": 0, \"iops\": 0},"
		" \"job_runtime\": 2000, \"usr_cpu\": 10, \"sys_cpu\": 20}],"
		" \"disk_util\": [{\"name\": \"vda\", \"read_ios\": 100000, \"write_ios\": 0,"
		"  \"read_ticks\": 43200, \"write_ticks\": 0, \"in_queue\": 43300, \"util\": 99}]}";
	struct resultread *r = NULL;
	struct bottleneck_verdict v;
	struct err e = { 0 };
	double lat, qd;
	char buf[16], win[200];

	CHECK(resultread_parse(doc, sizeof(doc) - 1, "fio.json", &r, &e) == 0);
	if (!r)
		return;
	CHECK(bottleneck_from_read(r, 0, &v) == 0);
	/* cycle 32 / 50k = 640 us: device 432 (67.5%), util 99%: the device */
	CHECK_STR(v.verdict, "device");
	CHECK_NEAR(v.dev_depth, 21.6, 1e-9);
	CHECK_NEAR(v.req_depth, 32, 0);
	CHECK_NEAR(v.tool_minus_dev_ns, 445000 - 432000, 1e-6);
	CHECK(strstr(v.evidence, "device depth 21.6 of 32 requested") != NULL);
	CHECK(strstr(v.evidence, "each I/O's cycle 640.0 us (latency 445.0 us): device 432.0 us (68%)") != NULL);
	/* fio has no run-queue wait: said so, not guessed */
	CHECK(strstr(v.evidence, "CPU wait unknown") != NULL);
	CHECK(bottleneck_device_figures(r, &lat, &qd, win, sizeof(win)) == 0);
	CHECK_NEAR(lat, 432000, 1e-6);
	CHECK_NEAR(qd, 21.6, 1e-9);
	CHECK(strstr(win, "fio's disk_util: the whole run") != NULL);
	CHECK(bottleneck_of_result(r, buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "device");
	{
		struct breakdown b;

		bottleneck_read_breakdown(r, 0, &b);
		CHECK(b.valid);
		/* usr_cpu 10% of 2 s over 100000 I/Os: 2 us; sys 4 us; no buckets: batch 1 */
		CHECK_NEAR(b.part[BD_TOOL_USER].ns, 2000, 1e-6);
		CHECK_NEAR(b.part[BD_TOOL_SYS].ns, 4000, 1e-6);
		/* fio kept fewer than 32 in flight (50k IOPS x 445 us = 22): of the
		 * 640 us cycle, 195 us had no I/O in the slot; less the tool's 6 us,
		 * that is idle, and the path is the latency less the device */
		CHECK_NEAR(b.part[BD_IO_PATH].ns, 445000 - 432000, 1e-6);
		CHECK_NEAR(b.part[BD_IDLE].ns, 640000 - 445000 - 6000, 1e-6);
		CHECK(strstr(b.part[BD_DEVICE].exact, "whole run") != NULL);
	}
	resultread_free(r);
}

/* A fio-shaped result at QD32 whose device had @ticks ms of reads in 2 s. */
static struct resultread *fio_like(double iops, unsigned ticks, int rate)
{
	char doc[1400];
	struct resultread *r = NULL;
	struct err e = { 0 };

	snprintf(doc, sizeof(doc),
		 "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"t\", \"groupid\": 0,"
		 " \"error\": 0, \"job options\": {\"rw\": \"randread\", \"iodepth\": \"32\","
		 " \"ioengine\": \"io_uring\", \"direct\": \"1\"%s},"
		 " \"read\": {\"io_bytes\": %.0f, \"total_ios\": %.0f, \"iops\": %f, \"runtime\": 2000,"
		 "   \"clat_ns\": {\"N\": %.0f, \"mean\": 440000}, \"lat_ns\": {\"N\": %.0f, \"mean\": 445000}},"
		 " \"write\": {\"io_bytes\": 0, \"total_ios\": 0, \"iops\": 0},"
		 " \"job_runtime\": 2000, \"usr_cpu\": 10, \"sys_cpu\": 20}],"
		 " \"disk_util\": [{\"name\": \"vda\", \"read_ios\": %.0f, \"write_ios\": 0,"
		 "  \"read_ticks\": %u, \"write_ticks\": 0, \"in_queue\": %u, \"util\": 99}]}",
		 rate ? ", \"rate_iops\": \"100000\"" : "", iops * 8192, iops * 2, iops, iops * 2,
		 iops * 2, iops * 2, ticks, ticks);
	CHECK(resultread_parse(doc, strlen(doc), "fio.json", &r, &e) == 0);
	return r;
}

/* compare shows the device's figures beside the tool's and warns on different verdicts. */
TEST(compare_device_rows_and_warning)
{
	struct resultread *a[2], *b[2];
	struct compare_opts o;
	struct compare_report rep;
	const struct compare_metric *m = NULL;
	const char *warned = NULL;
	size_t i;
	json_t *w;

	a[0] = fio_like(50000, 10000, 0);	/* 5 of 32, 100 us of a 445 us latency: io_path */
	a[1] = fio_like(51000, 10200, 0);
	b[0] = fio_like(50000, 63000, 0);	/* 31.5 of 32: device */
	b[1] = fio_like(50500, 63400, 0);
	if (!a[0] || !a[1] || !b[0] || !b[1])
		return;
	compare_opts_init(&o);
	o.fail_regression_pct = 1;	/* the device's rows never count as one */
	CHECK(compare_run(a, 2, b, 2, &o, &rep, NULL) == 0);
	for (i = 0; i < rep.nm; i++)
		if (!strcmp(rep.m[i].name, "device.queue_depth"))
			m = &rep.m[i];
	CHECK(m != NULL);
	if (m) {
		CHECK_NEAR(m->a.mean, (5.0 + 5.1) / 2, 1e-9);
		CHECK_NEAR(m->b.mean, (31.5 + 31.7) / 2, 1e-9);
		CHECK(!m->regression);
	}
	json_array_foreach(rep.warnings, i, w)
		if (!strcmp(json_string_value(json_object_get(w, "id")), "bottleneck_differs"))
			warned = json_string_value(json_object_get(w, "message"));
	CHECK(warned && strstr(warned, "A was limited by io_path, B by device"));
	compare_report_free(&rep);
	/* the same verdict on both sides: no warning */
	CHECK(compare_run(a, 2, a, 2, &o, &rep, NULL) == 0);
	json_array_foreach(rep.warnings, i, w)
		CHECK(strcmp(json_string_value(json_object_get(w, "id")), "bottleneck_differs") != 0);
	compare_report_free(&rep);
	for (i = 0; i < 2; i++) {
		resultread_free(a[i]);
		resultread_free(b[i]);
	}
}

/*
 * NVMe passthrough: no block-layer figures, so never device or page_cache;
 * the evidence gives the controller's commands as a share of the job's
 * reads and writes, says when the view is missing, and never divides by a
 * zero count (a trim-only job).
 */
TEST(passthrough_controller_view)
{
	struct bottleneck_in in = mk(4, 300, 200, 5, 10, 0);
	struct bottleneck_verdict v;

	in.has_dev = 0;
	in.passthru = 1;
	in.ctrl_cmds = 256;
	in.job_rw_ios = 256;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "unknown");
	CHECK(strstr(v.evidence, "NVMe passthrough: no block layer counts its commands") != NULL);
	CHECK(strstr(v.evidence, "the controller counted 256 read and write commands, 100% of the "
		      "job's") != NULL);
	CHECK(v.dev_depth < 0 && v.dev_io_share < 0);
	in.ctrl_cmds = NAN;
	bottleneck_judge(&in, &v);
	CHECK(strstr(v.evidence, "the device view is unavailable") != NULL);
	in.ctrl_cmds = 0;
	in.job_rw_ios = 0;	/* trims only */
	bottleneck_judge(&in, &v);
	CHECK(strstr(v.evidence, "no read or write to compare") != NULL);
	CHECK(!strstr(v.evidence, "nan") && !strstr(v.evidence, "inf"));
	/* a CPU-bound thread is still the tool */
	in.cpu_pct = 99;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "tool");
}

int main(void)
{
	RUN(device_when_depth_kept);
	RUN(qd1_disk_is_never_tool);
	RUN(qd32_contention_and_saturation);
	RUN(tool_when_cpu_bound_or_most_of_the_cycle);
	RUN(rate_limit_first_when_reached);
	RUN(page_cache_when_device_did_little);
	RUN(no_device_shared_device_null_engine);
	RUN(alone_faster_is_contention);
	RUN(peer_evidence);
	RUN(from_fio_result);
	RUN(compare_device_rows_and_warning);
	RUN(passthrough_controller_view);
	return CHECK_DONE();
}
