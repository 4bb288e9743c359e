/*
 * Tests for the plausibility checks: the seed's own numbers, real fio 3.33
 * outputs, and small synthetic results that sit on either side of each
 * threshold.  Run from the repository root (make check).
 */
#include <stdarg.h>
#include <stdlib.h>
#include "check.h"		/* the test harness (tests/unit) */
#include "analysis/plausibility.h"	/* the module under test */
#include "lib/human.h"

#define DATA "tests/data/results/"

static int run_checks(const char *path, struct plausibility_list *l)
{
	struct resultread *r = NULL;
	struct err e;
	int ret;

	err_clear(&e);
	plausibility_list_init(l);
	if (resultread_load(path, &r, &e)) {
		printf("  %s\n", e.msg);
		return -1;
	}
	ret = plausibility_check(r, l);
	resultread_free(r);
	return ret;
}

static int run_text(const char *json, struct plausibility_list *l)
{
	struct resultread *r = NULL;
	struct err e;
	int ret;

	err_clear(&e);
	plausibility_list_init(l);
	if (resultread_parse(json, strlen(json), "synthetic.json", &r, &e)) {
		printf("  %s\n", e.msg);
		return -1;
	}
	ret = plausibility_check(r, l);
	resultread_free(r);
	return ret;
}

static const struct plausibility_item *find(const struct plausibility_list *l, const char *id)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].id, id))
			return &l->v[i];
	return NULL;
}

/* The message of warning @id contains every string in the NULL-terminated list. */
static int says(const struct plausibility_list *l, const char *id, ...)
{
	const struct plausibility_item *it = find(l, id);
	va_list ap;
	const char *s;
	int ok = it != NULL;

	va_start(ap, id);
	while ((s = va_arg(ap, const char *)))
		if (it && !strstr(it->msg, s)) {
			printf("  [%s] lacks \"%s\": %s\n", id, s, it->msg);
			ok = 0;
		}
	va_end(ap);
	if (!it)
		printf("  no [%s] warning\n", id);
	return ok;
}

TEST(seed_virtio)
{
	struct plausibility_list l;

	CHECK(run_checks(DATA "seed_virtio.json", &l) == 0);
	/* 78000 x 410 us = 31.98, 22000 x 1.4 ms = 30.8: 62.8 of 128 (49%) */
	CHECK(says(&l, "littles_law", "= 62.8 I/Os in flight", "read 78000 IOPS x 410 us = 32.0",
		   "write 22000 IOPS x 1.40 ms = 30.8", "4 x 32 = 128", "(49%)",
		   "psync (fio's default)", "at most 4", NULL));
	CHECK(says(&l, "mix", "read share 78.0%", "50% reads", NULL));
	CHECK(says(&l, "page_cache", "direct=0", NULL));
	CHECK(find(&l, "short_run") == NULL);
	CHECK(find(&l, "few_samples") == NULL);
	CHECK(find(&l, "interval_cv") == NULL);
	CHECK(find(&l, "littles_law")->sev == PLAUSIBILITY_WARN);
	plausibility_list_free(&l);
}

TEST(seed_passthrough)
{
	struct plausibility_list l;

	/* 92000 x 350 us = 32.2, 26000 x 1.2 ms = 31.2: 63.4; 92 / 118 = 78.0% */
	CHECK(run_checks(DATA "seed_passthrough.json", &l) == 0);
	CHECK(says(&l, "littles_law", "= 63.4 I/Os in flight", "128", NULL));
	CHECK(says(&l, "mix", "read share 78.0%", NULL));
	plausibility_list_free(&l);
}

TEST(real_fio_uring)
{
	struct plausibility_list l;

	/* io_uring QD16: 49189 x 270 us + 20991 x 119 us = 15.8 of 16: fine */
	CHECK(run_checks(DATA "uring_a/run-1.json", &l) == 0);
	CHECK(find(&l, "littles_law") == NULL);
	CHECK(find(&l, "mix") == NULL);		/* 70.1% vs rwmixread=70 */
	CHECK(says(&l, "page_cache", "direct=0", NULL));
	CHECK(says(&l, "short_run", "measured for 2.0 s", NULL));
	CHECK(says(&l, "few_samples", "only 3 interval samples", NULL));
	plausibility_list_free(&l);
}

TEST(iotrial_null_engine)
{
	struct plausibility_list l;

	/* null engine: IOPS x 181 ns = 0.71 of 8; no device, so no cache warning */
	CHECK(run_checks(DATA "iotrial_a.json", &l) == 0);
	CHECK(says(&l, "littles_law", "= 0.7 I/Os in flight", "1 x 8 = 8",
		   "no device is involved", NULL));
	CHECK(find(&l, "page_cache") == NULL);
	CHECK(find(&l, "steady_state") == NULL);
	CHECK(find(&l, "clock") == NULL);	/* tsc with constant and nonstop */
	plausibility_list_free(&l);
	CHECK(run_checks(DATA "iotrial_b.json", &l) == 0);
	CHECK(says(&l, "steady_state", "iops:20%", NULL));
	plausibility_list_free(&l);
}

/*
 * [steady_lost]: a window found and then left (iotrial.steady.held false)
 * warns with the time and the change; a held one does not.
 */
TEST(steady_lost)
{
	static const char fmt[] =
		"{\"iotrial\": {\"version\": \"0.1.0\"}, \"jobs\": [{\"jobname\": \"thr\", "
		"\"read\": {\"iops\": 400000, \"total_ios\": 4000000}, "
		"\"write\": {\"iops\": 0, \"total_ios\": 0}, "
		"\"iotrial\": {\"steady\": {\"criterion\": \"snia\", \"attained\": true, "
		"\"mean\": 1000000, \"held\": %s, \"lost_ms\": 3500, \"lost_mean\": 300000}}}]}";
	char text[1024];
	struct plausibility_list l;

	snprintf(text, sizeof(text), fmt, "false");
	CHECK(run_text(text, &l) == 0);
	CHECK(says(&l, "steady_lost", "job thr reached steady state but lost it at 3.5 s",
		   "(the level fell 70%)", NULL));
	CHECK(find(&l, "steady_state") == NULL);
	plausibility_list_free(&l);
	snprintf(text, sizeof(text), fmt, "true");
	CHECK(run_text(text, &l) == 0);
	CHECK(find(&l, "steady_lost") == NULL);
	plausibility_list_free(&l);
}

static char doc[4096];

/* One job, read and write; @opts is the inside of "job options". */
static const char *job(const char *opts, double riops, double rlat, double wiops,
		       double wlat, unsigned long runtime_ms, const char *extra)
{
	snprintf(doc, sizeof(doc),
		 "{\"fio version\": \"fio-3.33\", %s \"jobs\": [{\"jobname\": \"j\","
		 " \"job options\": {%s},"
		 " \"read\": {\"iops\": %g, \"total_ios\": %lu, \"runtime\": %lu,"
		 "  \"lat_ns\": {\"mean\": %g, \"N\": %lu}, \"iops_samples\": 40,"
		 "  \"iops_mean\": %g, \"iops_stddev\": %g},"
		 " \"write\": {\"iops\": %g, \"total_ios\": %lu, \"runtime\": %lu,"
		 "  \"lat_ns\": {\"mean\": %g, \"N\": %lu}}}]}",
		 extra, opts, riops, (unsigned long)(riops * runtime_ms / 1000), runtime_ms,
		 rlat, (unsigned long)(riops * runtime_ms / 1000), riops, riops * 0.02,
		 wiops, (unsigned long)(wiops * runtime_ms / 1000), runtime_ms,
		 wlat, (unsigned long)(wiops * runtime_ms / 1000));
	return doc;
}

TEST(little_thresholds)
{
	const char *o = "\"rw\": \"randread\", \"ioengine\": \"libaio\", \"direct\": \"1\","
			" \"iodepth\": \"32\"";
	struct plausibility_list l;

	/* 100000 x 310 us = 31 of 32 (97%): fine */
	CHECK(run_text(job(o, 100000, 310000, 0, 0, 60000, ""), &l) == 0);
	CHECK(find(&l, "littles_law") == NULL);
	plausibility_list_free(&l);
	/* 23 of 32 = 72%: shortfall */
	CHECK(run_text(job(o, 100000, 230000, 0, 0, 60000, ""), &l) == 0);
	CHECK(says(&l, "littles_law", "= 23.0 I/Os", "1 x 32 = 32", "(72%)",
		   "not the bottleneck", NULL));
	plausibility_list_free(&l);
	/* 25 of 32 = 78%: within */
	CHECK(run_text(job(o, 100000, 250000, 0, 0, 60000, ""), &l) == 0);
	CHECK(find(&l, "littles_law") == NULL);
	plausibility_list_free(&l);
	/* 37 of 32 = 116%: excess */
	CHECK(run_text(job(o, 100000, 370000, 0, 0, 60000, ""), &l) == 0);
	CHECK(says(&l, "littles_law", "= 37.0 I/Os", "exceeds", "(116%)", NULL));
	plausibility_list_free(&l);
}

TEST(little_rate_and_engines)
{
	struct plausibility_list l;

	/* rate-limited: the shortfall is expected, so only info */
	CHECK(run_text(job("\"rw\": \"randread\", \"ioengine\": \"io_uring\", \"direct\": \"1\","
			   " \"iodepth\": \"16\", \"rate_iops\": \"1000\"",
			   1000, 100000, 0, 0, 60000, ""), &l) == 0);
	CHECK(says(&l, "littles_law", "rate limit", NULL));
	CHECK(find(&l, "littles_law") && find(&l, "littles_law")->sev == PLAUSIBILITY_INFO);
	plausibility_list_free(&l);
	/* libaio buffered keeps one per job: 0.95 of 1 is fine */
	CHECK(run_text(job("\"rw\": \"randread\", \"ioengine\": \"libaio\", \"iodepth\": \"16\"",
			   10000, 95000, 0, 0, 60000, ""), &l) == 0);
	CHECK(find(&l, "littles_law") == NULL);
	plausibility_list_free(&l);
	/* group_reporting entry for numjobs=4 x iodepth 8 = 32; 16 in flight */
	CHECK(run_text(job("\"rw\": \"randread\", \"ioengine\": \"io_uring\", \"direct\": \"1\","
			   " \"iodepth\": \"8\", \"numjobs\": \"4\"",
			   100000, 160000, 0, 0, 60000, ""), &l) == 0);
	CHECK(says(&l, "littles_law", "4 x 8 = 32", "(50%)", NULL));
	plausibility_list_free(&l);
}

TEST(mix_rules)
{
	struct plausibility_list l;

	/* rwmixread=70 honoured within 5 points: 72.0% */
	CHECK(run_text(job("\"rw\": \"randrw\", \"rwmixread\": \"70\", \"direct\": \"1\"",
			   720, 1000, 280, 1000, 60000, ""), &l) == 0);
	CHECK(find(&l, "mix") == NULL);
	plausibility_list_free(&l);
	/* rwmixwrite=30 means 70% reads; 60% is off by 10 points */
	CHECK(run_text(job("\"rw\": \"rw\", \"rwmixwrite\": \"30\", \"direct\": \"1\"",
			   600, 1000, 400, 1000, 60000, ""), &l) == 0);
	CHECK(says(&l, "mix", "read share 60.0%", "rwmixread=70 asks for 70%", NULL));
	plausibility_list_free(&l);
	/* not a mixed job: no mix check */
	CHECK(run_text(job("\"rw\": \"randread\", \"direct\": \"1\"", 600, 1000, 0, 0, 60000, ""),
		       &l) == 0);
	CHECK(find(&l, "mix") == NULL);
	plausibility_list_free(&l);
}

TEST(cache_and_time)
{
	struct plausibility_list l;

	/* direct=1 but 3 us reads: memory, not a device; 5 s run */
	CHECK(run_text(job("\"rw\": \"randread\", \"direct\": \"1\"", 300000, 3000, 0, 0, 5000, ""),
		       &l) == 0);
	CHECK(says(&l, "page_cache", "mean read latency 3.0 us", NULL));
	CHECK(says(&l, "short_run", "measured for 5.0 s", NULL));
	CHECK(find(&l, "few_samples") == NULL);	/* 40 samples */
	plausibility_list_free(&l);
	/* buffered, working set 64 MiB against 4096 MiB of RAM */
	CHECK(run_text(job("\"rw\": \"randread\", \"size\": \"64m\", \"filename\": \"/f\"",
			   1000, 900000, 0, 0, 60000,
			   "\"iotrial\": {\"version\": \"0.1\", \"environment\":"
			   " {\"memory_bytes\": 4294967296}},"), &l) == 0);
	CHECK(says(&l, "page_cache", "direct=0", "(64.0 MiB) fits in RAM (4096.0 MiB)", NULL));
	plausibility_list_free(&l);
}

TEST(clock_and_partial)
{
	struct plausibility_list l;

	CHECK(run_text(job("\"rw\": \"randread\", \"direct\": \"1\"", 1000, 900000, 0, 0, 60000,
			   "\"iotrial\": {\"version\": \"0.1\", \"clock_source\": \"tsc\","
			   " \"partial\": true, \"environment\": {\"cpu\": {\"flags\":"
			   " \"fpu constant_tsc hypervisor\"}}},"), &l) == 0);
	CHECK(says(&l, "clock", "lacks nonstop_tsc", NULL));
	CHECK(says(&l, "partial", "cut short", NULL));
	plausibility_list_free(&l);
}

TEST(list_json)
{
	struct plausibility_list l;
	json_t *j;
	char *s;

	plausibility_list_init(&l);
	CHECK(plausibility_add(&l, "mix", PLAUSIBILITY_WARN, "read share %.1f%%", 78.0) == 0);
	CHECK(plausibility_add(&l, "littles_law", PLAUSIBILITY_INFO, "x") == 0);
	j = plausibility_list_json(&l);
	s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
	CHECK_STR(s, "[{\"id\":\"mix\",\"severity\":\"warning\",\"message\":\"read share 78.0%\"},"
		     "{\"id\":\"littles_law\",\"severity\":\"info\",\"message\":\"x\"}]");
	free(s);
	json_decref(j);
	plausibility_list_free(&l);
}

TEST(fmt_ns)
{
	char b[32];

	human_ns(b, sizeof(b), 410000, HUMAN_TABLE);
	CHECK_STR(b, "410 us");
	human_ns(b, sizeof(b), 1400000, HUMAN_TABLE);
	CHECK_STR(b, "1.40 ms");
	human_ns(b, sizeof(b), 180.87, HUMAN_TABLE);
	CHECK_STR(b, "181 ns");
	human_ns(b, sizeof(b), 3000, HUMAN_TABLE);
	CHECK_STR(b, "3.0 us");
	human_ns(b, sizeof(b), 2.5e9, HUMAN_TABLE);
	CHECK_STR(b, "2.50 s");
}

int main(void)
{
	RUN(steady_lost);
	RUN(seed_virtio);
	RUN(seed_passthrough);
	RUN(real_fio_uring);
	RUN(iotrial_null_engine);
	RUN(little_thresholds);
	RUN(little_rate_and_engines);
	RUN(mix_rules);
	RUN(cache_and_time);
	RUN(clock_and_partial);
	RUN(list_json);
	RUN(fmt_ns);
	return CHECK_DONE();
}
