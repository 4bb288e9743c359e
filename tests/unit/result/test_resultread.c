/*
 * Tests for resultread: the seed fixtures (hand-checkable sums), real fio
 * 3.33 outputs (copied under tests/data/results), iotrial's extra objects,
 * and every kind of bad file.  Run from the repository root (make check).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "result/resultread.h"
#include "check.h"
#include "lib/vec.h"	/* vec_free_strings */

#define DATA "tests/data/results/"

static struct resultread *load(const char *path)
{
	struct resultread *r = NULL;
	struct err e;

	err_clear(&e);
	if (resultread_load(path, &r, &e))
		printf("  load %s: %s\n", path, e.msg);
	return r;
}

TEST(seed_totals)
{
	struct resultread *r = load(DATA "seed_virtio.json");
	double cpu;

	if (!r) {
		CHECK(r);
		return;
	}
	CHECK_EQ_U(r->nr_jobs, 4);
	CHECK(!r->is_iotrial);
	CHECK_STR(r->version, "fio-3.33");
	CHECK_NEAR(r->dir[0].iops, 78000, 1e-6);
	CHECK_NEAR(r->dir[1].iops, 22000, 1e-6);
	CHECK_NEAR(r->total_iops, 100000, 1e-6);
	CHECK_EQ_U(r->dir[0].ios, 4ull * 19500 * 600);
	CHECK_NEAR(r->dir[0].bw_bytes, 78000.0 * 4096, 1);
	CHECK_NEAR(r->dir[0].lat_mean_ns, 410000, 1e-6);
	CHECK_NEAR(r->dir[1].lat_mean_ns, 1400000, 1e-6);
	/* same p99 in every job: the weighted mean is that value */
	CHECK_NEAR(r->dir[0].lat_p99_ns, 1236992, 1e-6);
	CHECK(!r->dir[0].p99_from_bins);
	CHECK_EQ_U(r->dir[0].runtime_ms, 600000);
	CHECK_EQ_U(r->dir[2].ios, 0);
	CHECK(isnan(r->dir[2].lat_mean_ns));
	CHECK_NEAR(r->dir[0].interval_cv, 0.03, 1e-9);
	CHECK_EQ_U(r->dir[0].samples, 1200);
	/* 4 jobs x 26.6% x 600 s of CPU over 4 x 25000 x 600 I/Os */
	cpu = 4 * 0.266 * 600e9 / (4.0 * 25000 * 600);
	CHECK_NEAR(r->cpu_per_io_ns, cpu, 1e-6);
	CHECK_STR(r->jobs[0].rw, "randrw");
	CHECK_EQ_U(r->jobs[0].rwmixread, 50);
	CHECK(!r->jobs[0].rwmix_given);
	CHECK_EQ_U(r->jobs[3].iodepth, 32);
	CHECK_EQ_U(r->jobs[3].numjobs, 4);
	CHECK_STR(r->jobs[0].ioengine, "psync");	/* fio's default */
	CHECK(r->jobs[0].direct == 0);
	CHECK(!r->jobs[0].has_filename);
	CHECK_EQ_U(r->jobs[0].size, 10ull << 30);
	CHECK(r->jobs[0].steady == -1);
	CHECK_STR(json_string_value(json_object_get(r->options, "bs")), "4k");
	CHECK(r->env == NULL);
	resultread_free(r);
}

TEST(fio_sample_uring)
{
	struct resultread *r = load(DATA "uring_a/run-1.json");

	if (!r) {
		CHECK(r);
		return;
	}
	CHECK_NEAR(r->dir[0].iops, 49189.405297, 1e-6);
	CHECK_NEAR(r->dir[1].iops, 20990.504748, 1e-6);
	CHECK_EQ_U(r->jobs[0].rwmixread, 70);
	CHECK(r->jobs[0].rwmix_given);
	CHECK_EQ_U(r->jobs[0].iodepth, 16);
	CHECK_STR(r->jobs[0].ioengine, "io_uring");	/* from "global options" */
	CHECK(r->jobs[0].has_filename);
	CHECK_NEAR(r->dir[0].lat_p99_ns, 577536, 0);	/* clat 99th */
	CHECK_NEAR(r->dir[0].interval_cv, 2276.272684 / 50761.333333, 1e-9);
	CHECK_EQ_U(r->dir[0].samples, 3);
	/* (4.00 + 60.25)% x 2000 ms over 98428 + 42002 I/Os */
	CHECK_NEAR(r->cpu_per_io_ns, 0.6425 * 2000e6 / (98428 + 42002), 1e-6);
	resultread_free(r);
}

TEST(json_plus_bins)
{
	/* one job: p99 of the bins equals fio's own 99th percentile */
	struct resultread *r = load(DATA "jp_a/run-1.json");

	if (!r) {
		CHECK(r);
		return;
	}
	CHECK(r->dir[0].p99_from_bins);
	CHECK_NEAR(r->dir[0].lat_p99_ns, 162816, 0);
	resultread_free(r);
}

static const char two_jobs[] =
	"{\"fio version\": \"fio-3.33\", \"jobs\": ["
	"{\"jobname\": \"a\", \"job options\": {\"rw\": \"randread\"},"
	" \"read\": {\"iops\": 100, \"total_ios\": 300, \"io_bytes\": 1228800, \"bw_bytes\": 409600,"
	"  \"runtime\": 3000, \"lat_ns\": {\"mean\": 1000, \"N\": 300},"
	"  \"clat_ns\": {\"mean\": 900, \"N\": 300, \"percentile\": {\"99.000000\": 5000},"
	"   \"bins\": {\"1000\": 290, \"5000\": 9, \"9000\": 1}}},"
	" \"write\": {\"iops\": 0, \"total_ios\": 0}, \"job_runtime\": 3000,"
	" \"usr_cpu\": 10, \"sys_cpu\": 20},"
	"{\"jobname\": \"b\", \"job options\": {\"rw\": \"randread\"},"
	" \"read\": {\"iops\": 300, \"total_ios\": 900, \"io_bytes\": 3686400, \"bw_bytes\": 1228800,"
	"  \"runtime\": 2990, \"lat_ns\": {\"mean\": 2000, \"N\": 900},"
	"  \"clat_ns\": {\"mean\": 1900, \"N\": 900, \"percentile\": {\"99.000000\": 7000}}},"
	" \"write\": {\"iops\": 0, \"total_ios\": 0}, \"job_runtime\": 3000,"
	" \"usr_cpu\": 5, \"sys_cpu\": 5}]}";

TEST(two_jobs_weighting)
{
	struct resultread *r = NULL;
	struct err e;

	err_clear(&e);
	CHECK(resultread_parse(two_jobs, sizeof(two_jobs) - 1, "two.json", &r, &e) == 0);
	if (!r)
		return;
	CHECK_NEAR(r->dir[0].iops, 400, 0);
	/* (300 x 1000 + 900 x 2000) / 1200 */
	CHECK_NEAR(r->dir[0].lat_mean_ns, 1750, 1e-9);
	/* job b has no bins: I/O-weighted mean of p99s (300 x 5000 + 900 x 7000) / 1200 */
	CHECK(!r->dir[0].p99_from_bins);
	CHECK_NEAR(r->dir[0].lat_p99_ns, 6500, 1e-9);
	CHECK_EQ_U(r->dir[0].runtime_ms, 3000);
	/* CPU: (30% + 10%) x 3 s over 1200 I/Os */
	CHECK_NEAR(r->cpu_per_io_ns, (0.3 * 3e9 + 0.1 * 3e9) / 1200, 1e-6);
	CHECK_EQ_U(r->dir[1].ios, 0);
	CHECK(r->jobs[1].steady == -1);
	resultread_free(r);
}

TEST(from_json)
{
	json_t *root = json_loads(two_jobs, 0, NULL);
	struct resultread *r = NULL;
	struct err e;

	err_clear(&e);
	CHECK(resultread_from_json(root, "in-memory", &r, &e) == 0);
	CHECK(r && r->dir[0].iops == 400);
	CHECK(r && !strcmp(r->path, "in-memory"));
	resultread_free(r);
	json_decref(root);
	root = json_pack("{s:s}", "fio version", "fio-3.33");
	CHECK(resultread_from_json(root, "x", &r, &e) == -EINVAL);
	CHECK_STR(e.msg, "x: not a fio result: no \"jobs\" array");
	json_decref(root);
}

TEST(iotrial_schema)
{
	struct resultread *r = load(DATA "iotrial_b.json");
	const json_t *t;

	if (!r) {
		CHECK(r);
		return;
	}
	CHECK(r->is_iotrial);
	CHECK_STR(r->version, "iotrial-0.1.0");
	CHECK_STR(r->clock_source, "tsc");
	CHECK(!r->partial);
	CHECK(r->env != NULL);
	t = json_array_get(json_object_get(r->env, "targets"), 0);
	CHECK_STR(json_string_value(json_object_get(json_object_get(t, "device"), "driver")), "nvme");
	/* 10 intervals after the 2 ramp ones (python: 0.017835224356725916) */
	CHECK_EQ_U(r->dir[0].samples, 10);
	CHECK_NEAR(r->dir[0].interval_cv, 0.017835224356725916, 1e-9);
	CHECK(r->jobs[0].steady == 0);
	CHECK_STR(r->jobs[0].steady_what, "iops:20%");
	resultread_free(r);
}

TEST(fio_steadystate)
{
	const char *ref = getenv("FIOREF");
	char path[512];
	struct resultread *r;

	snprintf(path, sizeof(path), "%s/ss.json", ref && *ref ? ref : "build/fioref");
	if (access(path, R_OK))
		SKIP("%s not available (fio not installed?)", path);
	r = load(path);
	CHECK(r != NULL);
	if (!r)
		return;
	CHECK(r->jobs[0].steady == 1);
	CHECK_STR(r->jobs[0].steady_what, "iops:20.000000%");
	resultread_free(r);
}

TEST(leading_lines)
{
	struct resultread *r = load(DATA "prefixed.json");

	CHECK(r != NULL);
	if (r)
		CHECK_NEAR(r->dir[0].iops, 16551.224388, 1e-6);
	resultread_free(r);
}

static void expect_bad(const char *path, const char *what)
{
	struct resultread *r = NULL;
	struct err e;

	err_clear(&e);
	CHECK(resultread_load(path, &r, &e) < 0);
	CHECK(r == NULL);
	CHECK(e.exit_code == EXIT_USAGE);
	CHECK(strstr(e.msg, path) == e.msg);
	CHECK(strstr(e.msg, what) != NULL);
	CHECK(strchr(e.msg, '\n') == NULL);
	if (!strstr(e.msg, what))
		printf("  message: %s\n", e.msg);
}

TEST(bad_files)
{
	expect_bad(DATA "bad/empty.json", "empty file");
	expect_bad(DATA "bad/truncated.json", "invalid or truncated JSON at line");
	expect_bad(DATA "bad/malformed.json", "invalid or truncated JSON at line 1");
	expect_bad(DATA "bad/notfio.json", "not a fio result: no \"jobs\" array");
	expect_bad(DATA "bad/nojobs.json", "no jobs");
	expect_bad(DATA "bad/text.json", "not JSON");
	expect_bad(DATA "bad/does-not-exist.json", "cannot open");
}

TEST(bad_buffers)
{
	static const char no_read[] = "{\"fio version\": \"x\", \"jobs\": [{\"write\": {}}]}";
	static const char array[] = "[1, 2]\n";
	static const char no_version[] = "{\"jobs\": [{}]}";
	struct resultread *r = NULL;
	struct err e;

	err_clear(&e);
	CHECK(resultread_parse(no_read, sizeof(no_read) - 1, "x.json", &r, &e) == -EINVAL);
	CHECK_STR(e.msg, "x.json: job 0: no \"read\" object");
	err_clear(&e);
	CHECK(resultread_parse(array, sizeof(array) - 1, "a.json", &r, &e) == -EINVAL);
	CHECK_STR(e.msg, "a.json: not JSON (no line starts with '{')");
	err_clear(&e);
	CHECK(resultread_parse(no_version, sizeof(no_version) - 1, "v.json", &r, &e) == -EINVAL);
	CHECK_STR(e.msg, "v.json: not a fio result: no \"fio version\" or \"iotrial\" object");
}

/* @text must be refused (EXIT_USAGE, one line) with a message holding @what. */
static void expect_bad_text(const char *text, const char *what)
{
	struct resultread *r = NULL;
	struct err e;

	err_clear(&e);
	CHECK(resultread_parse(text, strlen(text), "t.json", &r, &e) < 0);
	CHECK(r == NULL);
	CHECK(e.exit_code == EXIT_USAGE);
	CHECK(strstr(e.msg, what) != NULL);
	CHECK(strchr(e.msg, '\n') == NULL);
	if (!strstr(e.msg, what))
		printf("  wanted '%s', got: %s\n", what, e.msg);
	resultread_free(r);
}

#define RR_JOB(extra, dir) "{\"fio version\":\"x\",\"jobs\":[{" extra "\"read\":{" dir \
	"\"iops\":1,\"total_ios\":1},\"write\":{\"iops\":0,\"total_ios\":0}}]}"

/* Doubles outside an integer field's range: refused naming the key, never UB. */
TEST(out_of_range)
{
	static const char ok[] = RR_JOB("\"error\":5,", "");
	struct resultread *r = NULL;
	struct err e;

	err_clear(&e);
	CHECK(resultread_parse(ok, sizeof(ok) - 1, "ok.json", &r, &e) == 0);
	if (r)
		CHECK_EQ_U(r->jobs[0].error, 5);
	resultread_free(r);
	expect_bad_text(RR_JOB("\"error\":7136848347,", ""), "\"error\" = 7136848347 is out of range");
	expect_bad_text(RR_JOB("\"error\":1e12,", ""), "\"error\" = 1000000000000 is out of range");
	/* disk_util's counters too (found by fuzz_resultread: a negative in_queue) */
	expect_bad_text("{\"fio version\":\"x\",\"jobs\":[{\"read\":{\"iops\":1,\"total_ios\":1},\"write\":{\"iops\":0,\"total_ios\":0}}],"
			"\"disk_util\":[{\"name\":\"vda\",\"in_queue\":-8.04e6}]}",
			"disk_util[0]: \"in_queue\" = -8040000 is out of range");
	expect_bad_text("{\"fio version\":\"x\",\"jobs\":[{\"read\":{\"iops\":1,\"total_ios\":1},\"write\":{\"iops\":0,\"total_ios\":0}}],"
			"\"disk_util\":[{\"name\":\"vda\",\"read_ios\":1e30}]}",
			"disk_util[0]: \"read_ios\" = 1e+30 is out of range");
	expect_bad_text(RR_JOB("\"groupid\":-1,", ""), "\"groupid\" = -1 is out of range");
	expect_bad_text(RR_JOB("\"job_runtime\":1e300,", ""), "\"job_runtime\" = 1e+300");
	expect_bad_text("{\"fio version\":\"x\",\"jobs\":[{\"read\":{\"iops\":1,\"total_ios\":-5},"
			"\"write\":{\"iops\":0,\"total_ios\":0}}]}", "\"read.total_ios\" = -5");
	expect_bad_text(RR_JOB("", "\"io_bytes\":2e19,"), "\"read.io_bytes\" = 2e+19");
	expect_bad_text(RR_JOB("", "\"runtime\":-1,"), "\"read.runtime\"");
	expect_bad_text(RR_JOB("", "\"iops_samples\":1e30,"), "\"read.iops_samples\"");
	expect_bad_text(RR_JOB("", "\"lat_ns\":{\"N\":-3},"), "\"lat_ns.N\" = -3");
	expect_bad_text(RR_JOB("", "\"clat_ns\":{\"N\":1e40},"), "\"clat_ns.N\"");
	expect_bad_text(RR_JOB("", "\"clat_ns\":{\"N\":1,\"bins\":{\"100\":-1}},"),
			"\"bins.100\" = -1");
	CHECK_EQ_U(resultread_size("1e30", 1024), 0);
	CHECK_EQ_U(resultread_size("100000000P", 1024), 0);
	CHECK_EQ_U(resultread_size("inf", 1024), 0);
}

/* A second document or garbage after the first is refused, fio's text after it is not. */
TEST(trailing_data)
{
	static const char text_after[] = RR_JOB("", "") "\n\nx: (groupid=0, jobs=1): err= 0\n";
	struct resultread *r = NULL;
	struct err e;

	err_clear(&e);
	CHECK(resultread_parse(text_after, sizeof(text_after) - 1, "n.json", &r, &e) == 0);
	resultread_free(r);
	expect_bad_text(RR_JOB("", "") "\n" RR_JOB("", "") "\n", "more than one JSON document");
	expect_bad_text(RR_JOB("", "") RR_JOB("", ""), "unexpected data after the JSON document");
	expect_bad_text(RR_JOB("", "") " garbage\n", "unexpected data after the JSON document");
}

TEST(sizes)
{
	CHECK_EQ_U(resultread_size("10G", 1024), 10ull << 30);
	CHECK_EQ_U(resultread_size("4k", 1024), 4096);
	CHECK_EQ_U(resultread_size("4k", 1000), 4000);
	CHECK_EQ_U(resultread_size("512", 1024), 512);
	/* the same rules as job options (num.c): fio 3.33's KiB quirk */
	CHECK_EQ_U(resultread_size("1KiB", 1024), 1000);
	CHECK_EQ_U(resultread_size("1KiB", 1000), 1024);
	/* fio reads "1.5m" as 1 byte; not a size we can trust */
	CHECK_EQ_U(resultread_size("1.5m", 1024), 0);
	CHECK_EQ_U(resultread_size("50%", 1024), 0);
	CHECK_EQ_U(resultread_size("abc", 1024), 0);
	CHECK_EQ_U(resultread_size(NULL, 1024), 0);
}

TEST(expand_dirs)
{
	char *args[] = { DATA "uring_a", DATA "seed_virtio.json" };
	char *missing[] = { DATA "nope" };
	char tmpl[] = "/tmp/iotrial-rr.XXXXXX";
	char *empty[1];
	char **paths = NULL;
	size_t n = 0;
	struct err e;

	err_clear(&e);
	CHECK(resultread_expand(args, 2, &paths, &n, &e) == 0);
	CHECK_EQ_U(n, 6);
	if (n == 6) {
		CHECK_STR(paths[0], DATA "uring_a/run-1.json");
		CHECK_STR(paths[4], DATA "uring_a/run-5.json");
		CHECK_STR(paths[5], DATA "seed_virtio.json");
	}
	vec_free_strings(paths, n);
	CHECK(resultread_expand(missing, 1, &paths, &n, &e) < 0);
	CHECK(strstr(e.msg, DATA "nope: ") == e.msg);
	err_clear(&e);
	empty[0] = mkdtemp(tmpl);
	CHECK(empty[0] != NULL);
	CHECK(resultread_expand(empty, 1, &paths, &n, &e) < 0);
	CHECK(strstr(e.msg, "directory has no *.json result files") != NULL);
	rmdir(tmpl);
}

/*
 * Options are read back as the job ran with them: iotrial records them as
 * typed ("iodepth": "$ncpus") and resolved (iotrial.job); check read the
 * typed text, fell back to 1 and called the docs' own example inconsistent.
 * fio writes its variables substituted, so its typed values are the values.
 */
static const char ran_job[] =
	"{\"fio version\": \"iotrial-0.1.0\", \"global options\": {\"numjobs\": \"$ncpus\"},"
	" \"jobs\": [{\"jobname\": \"j\", \"job options\": {\"iodepth\": \"$ncpus\","
	" \"bs\": \"$pagesize\", \"size\": \"(2*$mb_memory)M\", \"ioengine\": \"io_uring\","
	" \"direct\": \"(1)\"},"
	" \"read\": {\"iops\": 100, \"total_ios\": 100, \"runtime\": 1000,"
	"  \"lat_ns\": {\"mean\": 1000, \"N\": 100}}, \"write\": {\"iops\": 0, \"total_ios\": 0},"
	" \"iotrial\": {\"job\": {\"iodepth\": \"6\", \"numjobs\": \"6\", \"bs\": \"4096\","
	"  \"size\": \"2097152\", \"ioengine\": \"io_uring\", \"direct\": \"1\", \"rate\": \"0\","
	"  \"rwmixread\": \"50\", \"rw\": \"read\", \"kb_base\": \"1024\"}}}]}";

static const char fio_job[] =
	"{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"j\", \"job options\":"
	" {\"iodepth\": \"6\", \"bs\": \"4096\", \"rate_iops\": \"100\"},"
	" \"read\": {\"iops\": 100, \"total_ios\": 100, \"runtime\": 1000,"
	"  \"lat_ns\": {\"mean\": 1000, \"N\": 100}}, \"write\": {\"iops\": 0, \"total_ios\": 0}}]}";

TEST(options_as_run)
{
	struct resultread *r = NULL;
	json_t *root;
	char buf[64];
	struct err e;

	err_clear(&e);
	CHECK(resultread_parse(ran_job, sizeof(ran_job) - 1, "ran.json", &r, &e) == 0);
	if (!r)
		printf("  %s\n", e.msg);
	if (!r)
		return;
	CHECK_EQ_U(r->jobs[0].iodepth, 6);
	CHECK_EQ_U(r->jobs[0].numjobs, 6);
	CHECK_EQ_U(r->jobs[0].size, 2097152);
	CHECK_EQ_U(r->jobs[0].direct, 1);
	CHECK(!r->jobs[0].rate_limited);	/* "rate": "0" in the resolved job is unset */
	CHECK(r->jobs[0].ioengine_given && !r->jobs[0].rwmix_given);
	resultread_free(r);
	root = json_loads(ran_job, 0, NULL);
	CHECK_STR(resultread_job_option(root, json_array_get(json_object_get(root, "jobs"), 0),
					"bs", buf, sizeof(buf)), "4096");
	CHECK_STR(resultread_job_option(root, json_array_get(json_object_get(root, "jobs"), 0),
					"ioengine", buf, sizeof(buf)), "io_uring");
	json_decref(root);
	CHECK(resultread_parse(fio_job, sizeof(fio_job) - 1, "fio.json", &r, &e) == 0);
	if (!r)
		return;
	CHECK_EQ_U(r->jobs[0].iodepth, 6);
	CHECK(r->jobs[0].rate_limited);
	resultread_free(r);
}

int main(void)
{
	RUN(seed_totals);
	RUN(fio_sample_uring);
	RUN(json_plus_bins);
	RUN(two_jobs_weighting);
	RUN(from_json);
	RUN(iotrial_schema);
	RUN(fio_steadystate);
	RUN(leading_lines);
	RUN(bad_files);
	RUN(bad_buffers);
	RUN(out_of_range);
	RUN(trailing_data);
	RUN(sizes);
	RUN(expand_dirs);
	RUN(options_as_run);
	return CHECK_DONE();
}
