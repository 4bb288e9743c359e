/*
 * test_bottleneck: the verdict rules (bottleneck.h) on fixed inputs: each
 * verdict, the order between them, and the evidence carrying the figures
 * that decided it; and the same verdict drawn from a fio-shaped result.
 */
#include "check.h"
#include "bottleneck.h"
#include "trial/compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A direct job at QD32 on a device that kept 31 of 32, thread at 30%. */
static struct bottleneck_in base(void)
{
	struct bottleneck_in in;

	memset(&in, 0, sizeof(in));
	in.cpu_pct = 30;
	in.req_depth = 32;
	in.has_dev = 1;
	in.dev_depth = 31;
	in.dev_util = 100;
	in.dev_nr_requests = 256;
	in.job_amount = in.dev_amount = 1e9;
	in.job_clat_ns = 300000;
	in.dev_lat_ns = 290000;
	in.rate_share = NAN;
	in.direct = 1;
	return in;
}

TEST(device_when_depth_kept)
{
	struct bottleneck_in in = base();
	struct bottleneck_verdict v;

	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "device");
	CHECK(strstr(v.evidence, "device depth 31.0 of 32 requested (0.97)") != NULL);
	CHECK(strstr(v.evidence, "10 us per I/O outside the device") != NULL);
	CHECK_NEAR(v.tool_minus_dev_ns, 10000, 1e-9);
}

/* The fio measurement: 21.6 of 32 at the device, 150 us outside it. */
TEST(tool_when_depth_short)
{
	struct bottleneck_in in = base();
	struct bottleneck_verdict v;

	in.dev_depth = 21.6;
	in.job_clat_ns = 440000;
	in.dev_lat_ns = 290000;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "tool");
	CHECK(strstr(v.evidence, "device depth 21.6 of 32 requested (0.68)") != NULL);
	CHECK(strstr(v.evidence, "150 us per I/O outside the device") != NULL);
	/* ... unless the device's queue was full: then the device is the limit */
	in.dev_nr_requests = 24;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "device");
}

TEST(tool_when_cpu_bound)
{
	struct bottleneck_in in = base();
	struct bottleneck_verdict v;

	in.cpu_pct = 95;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "tool");
	CHECK(strstr(v.evidence, "thread CPU 95% of one CPU") != NULL);
	in.cpu_pct = 89;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "device");
}

TEST(rate_limit_first_when_reached)
{
	struct bottleneck_in in = base();
	struct bottleneck_verdict v;

	in.rate_limited = 1;
	in.rate_share = 0.99;
	in.dev_depth = 0.2;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "rate_limit");
	CHECK(strstr(v.evidence, "rate 99% of the limit") != NULL);
	/* a limit not reached did not limit: the depth rule decides */
	in.rate_share = 0.5;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "tool");
}

TEST(page_cache_when_device_did_little)
{
	struct bottleneck_in in = base();
	struct bottleneck_verdict v;

	in.direct = 0;
	in.cpu_pct = 100;	/* copying from the cache keeps the thread busy */
	in.dev_amount = 0.1e9;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "page_cache");
	CHECK(strstr(v.evidence, "device did 10% of the job's bytes") != NULL);
	CHECK_NEAR(v.dev_io_share, 0.1, 1e-12);
}

TEST(no_device)
{
	struct bottleneck_in in = base();
	struct bottleneck_verdict v;

	in.has_dev = 0;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "unknown");
	CHECK(strstr(v.evidence, "no block device") != NULL);
	CHECK(v.dev_depth == -1);
	in.deviceless = 1;	/* null engine, whatever its CPU share */
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "tool");
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
	char buf[16];

	CHECK(resultread_parse(doc, sizeof(doc) - 1, "fio.json", &r, &e) == 0);
	if (!r)
		return;
	CHECK(bottleneck_from_read(r, 0, &v) == 0);
	CHECK_STR(v.verdict, "tool");
	CHECK_NEAR(v.dev_depth, 21.6, 1e-9);
	CHECK_NEAR(v.req_depth, 32, 0);
	CHECK_NEAR(v.tool_minus_dev_ns, 440000 - 432000, 1e-6);
	CHECK(strstr(v.evidence, "device depth 21.6 of 32 requested") != NULL);
	CHECK(bottleneck_device_figures(r, &lat, &qd) == 0);
	CHECK_NEAR(lat, 432000, 1e-6);
	CHECK_NEAR(qd, 21.6, 1e-9);
	CHECK(bottleneck_of_result(r, buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "tool");
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

	a[0] = fio_like(50000, 43200, 0);	/* 21.6 of 32: tool */
	a[1] = fio_like(51000, 44000, 0);
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
		CHECK_NEAR(m->a.mean, (21.6 + 22.0) / 2, 1e-9);
		CHECK_NEAR(m->b.mean, (31.5 + 31.7) / 2, 1e-9);
		CHECK(!m->regression);
	}
	json_array_foreach(rep.warnings, i, w)
		if (!strcmp(json_string_value(json_object_get(w, "id")), "bottleneck_differs"))
			warned = json_string_value(json_object_get(w, "message"));
	CHECK(warned && strstr(warned, "A was limited by tool, B by device"));
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
 * A shared machine (docs/json.md, the device view): 4.3 of 8 at the device (0.54, 46% missed)
 * with a thread at 35% CPU.  Waiting for a CPU 30% of the run (>= 23%, half
 * the missed share) makes it cpu_contention; 10% leaves it the tool's.
 */
TEST(cpu_contention_when_thread_waited)
{
	struct bottleneck_in in = base();
	struct bottleneck_verdict v;

	in.cpu_pct = 35;
	in.req_depth = 8;
	in.dev_depth = 4.3;
	in.has_sched = 1;
	in.wait_share = 0.30;
	in.wait_ns_per_io = 29000;
	in.nivcsw = 412;
	in.load1 = 11.5;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "cpu_contention");
	CHECK(strstr(v.evidence, "waited for a CPU 30% of the run (29.0 us per I/O), 412 involuntary switches, load average 11.5") != NULL);
	in.wait_share = 0.10;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "tool");
	CHECK(strstr(v.evidence, "waited for a CPU 10% of the run") != NULL);
	/* the rule's edge: exactly half the missed share (0.23) */
	in.wait_share = 0.5 * (1 - 4.3 / 8) + 1e-9;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "cpu_contention");
	/* a CPU-bound thread is the tool's limit whatever it waited */
	in.cpu_pct = 95;
	in.wait_share = 0.5;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "tool");
	/* the depth kept: device, even with waits */
	in.cpu_pct = 35;
	in.dev_depth = 7.8;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "device");
	/* unknown scheduler figures: never cpu_contention, and none printed */
	in.dev_depth = 4.3;
	in.has_sched = 0;
	bottleneck_judge(&in, &v);
	CHECK_STR(v.verdict, "tool");
	CHECK(strstr(v.evidence, "waited for a CPU") == NULL);
}

int main(void)
{
	RUN(device_when_depth_kept);
	RUN(tool_when_depth_short);
	RUN(tool_when_cpu_bound);
	RUN(rate_limit_first_when_reached);
	RUN(page_cache_when_device_did_little);
	RUN(no_device);
	RUN(from_fio_result);
	RUN(compare_device_rows_and_warning);
	RUN(cpu_contention_when_thread_waited);
	return CHECK_DONE();
}

