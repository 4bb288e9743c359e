/*
 * test_report_json: the JSON writer against hand-computed values, against the
 * key sets and types of real fio 3.33 documents, and against fio's own json+
 * reader (fio_jsonplus_clat2csv).
 */
#include "check.h"
#include "report_fixture.h"
#include "report/report_json.h"
#include "measure/series.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>

/* The document for @r, parsed back; NULL (and a failed check) on error. */
static json_t *roundtrip(const struct run_result *r, int plus)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct err e = { 0 };
	json_error_t je;
	json_t *doc;
	int rc;

	if (!f)
		return NULL;
	rc = report_json_write(f, r, plus, &e);
	fclose(f);
	CHECK(rc == 0);
	CHECK(len > 0 && buf[len - 1] == '\n');
	doc = json_loadb(buf, len, 0, &je);
	if (!doc)
		printf("  parse error: %s at line %d\n", je.text, je.line);
	free(buf);
	return doc;
}

/* fio's outputs made by tests/fioref.sh for `make check` */
static const char *fioref_dir(void)
{
	const char *s = getenv("FIOREF");

	return s && *s ? s : "build/fioref";
}

static json_t *load_sample(const char *name)
{
	char path[4096];

	if (!strncmp(name, "tests/", 6))	/* ours, in the tree */
		return json_load_file(name, 0, NULL);
	snprintf(path, sizeof(path), "%s/%s", fioref_dir(), name);
	return json_load_file(path, 0, NULL);
}

static int same_type(const json_t *a, const json_t *b)
{
	if (json_is_boolean(a) && json_is_boolean(b))
		return 1;
	return json_typeof(a) == json_typeof(b);
}

/* Objects whose keys are data (not schema): compare value types only. */
static int is_data_object(const char *key)
{
	return !strcmp(key, "percentile") || !strcmp(key, "bins") ||
	       !strcmp(key, "job options") || !strcmp(key, "global options");
}

/*
 * Every key of @ref is in @ours, with the same JSON type, recursively, and the
 * keys both have come in the same order.  Keys in @skip are not required.
 * Prints each problem with its path; returns their number.
 */
static int cover(const json_t *ref, const json_t *ours, const char *path,
		 const char *const *skip)
{
	char sub[512];
	const char *k;
	json_t *v;
	int bad = 0;

	if (!same_type(ref, ours)) {
		printf("  %s: type %d, fio has %d\n", path, json_typeof(ours), json_typeof(ref));
		return 1;
	}
	if (json_is_array(ref)) {
		if (json_array_size(ref) && !json_array_size(ours)) {
			printf("  %s: empty array, fio's is not\n", path);
			return 1;
		}
		for (size_t i = 0; json_array_size(ref) && i < json_array_size(ours); i++) {
			snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
			bad += cover(json_array_get(ref, 0), json_array_get(ours, i), sub, skip);
		}
		return bad;
	}
	if (!json_is_object(ref))
		return 0;
	if (is_data_object(strrchr(path, '.') ? strrchr(path, '.') + 1 : path)) {
		json_t *r0 = json_object_iter_value(json_object_iter((json_t *)ref));

		json_object_foreach((json_t *)ours, k, v)
			if (r0 && !same_type(r0, v)) {
				printf("  %s.%s: value type differs from fio's\n", path, k);
				bad++;
			}
		return bad;
	}
	{
		/* order: walk ours, the keys fio also has must come in fio's order */
		void *it = json_object_iter((json_t *)ref);

		json_object_foreach((json_t *)ours, k, v) {
			if (!json_object_get(ref, k))
				continue;
			while (it && strcmp(json_object_iter_key(it), k))
				it = json_object_iter_next((json_t *)ref, it);
			if (!it) {
				printf("  %s.%s: out of fio's key order\n", path, k);
				bad++;
				break;
			}
		}
	}
	json_object_foreach((json_t *)ref, k, v) {
		int skipped = 0;

		for (const char *const *s = skip; s && *s; s++)
			skipped |= !strcmp(*s, k);
		if (skipped)
			continue;
		snprintf(sub, sizeof(sub), "%s.%s", path, k);
		if (!json_object_get(ours, k)) {
			printf("  %s: missing (fio has it)\n", sub);
			bad++;
			continue;
		}
		bad += cover(v, json_object_get(ours, k), sub, skip);
	}
	return bad;
}

/*
 * fio sample @name vs our document: top level without jobs, then job 0 vs
 * alpha.  @slat: turn alpha's slat percentiles on as well.
 */
static void check_cover_slat(const char *name, int plus, const char *const *skip, int slat)
{
	struct fixture *fx = fixture_new();
	json_t *ref = load_sample(name), *ours, *ref_top, *ours_top;

	fx->job[0].slat_percentiles = slat;
	if (slat) {	/* and give alpha's reads submission latencies */
		fixture_moments(&fx->jr[0].dir[DDIR_READ].slat, 1000, 2000, 9000, 3000.0, 500.0);
		fixture_hist(&fx->jr[0].dir[DDIR_READ].slat_hist, 3000, 1000);
	}
	ours = roundtrip(&fx->r, plus);
	CHECK(ours != NULL);
	if (!ref || !ours)
		goto out;
	ref_top = json_deep_copy(ref);
	ours_top = json_deep_copy(ours);
	json_object_del(ref_top, "jobs");
	json_object_del(ours_top, "jobs");
	CHECK(cover(ref_top, ours_top, name, skip) == 0);
	CHECK(cover(json_array_get(json_object_get(ref, "jobs"), 0),
		    json_array_get(json_object_get(ours, "jobs"), 0), "jobs[0]", skip) == 0);
	json_decref(ref_top);
	json_decref(ours_top);
out:
	json_decref(ref);
	json_decref(ours);
	free(fx);
}

static void check_cover(const char *name, int plus, const char *const *skip)
{
	check_cover_slat(name, plus, skip, 0);
}

TEST(covers_fio_jsonplus_every_percentile_object)
{
	json_t *ref = load_sample("tests/data/fio-jsonplus-allpct.json");

	if (!ref)
		SKIP("tests/data/fio-jsonplus-allpct.json not found (run from the tree root)");
	/* it has slat/clat/lat percentiles and bins, and sync ones */
	CHECK(json_object_get(ref, "jobs") != NULL);
	CHECK(json_object_get(json_object_get(json_object_get(json_array_get(
		json_object_get(ref, "jobs"), 0), "sync"), "lat_ns"), "bins") != NULL);
	json_decref(ref);
	check_cover_slat("tests/data/fio-jsonplus-allpct.json", 1, NULL, 1);
}

TEST(covers_fio_uring)
{
	json_t *ref = load_sample("uring.json");

	if (!ref)
		SKIP("no fio reference outputs under %s (fio not installed?)", fioref_dir());
	json_decref(ref);
	check_cover("uring.json", 0, NULL);
	check_cover("psync.json", 0, NULL);
	check_cover("null.json", 0, NULL);
}

TEST(covers_fio_jsonplus)
{
	json_t *ref = load_sample("jp.json");

	if (!ref)
		SKIP("no fio reference outputs under %s (fio not installed?)", fioref_dir());
	json_decref(ref);
	check_cover("jp.json", 1, NULL);
}

TEST(covers_fio_steadystate_but_the_hook)
{
	static const char *const skip[] = { "steadystate", NULL };
	json_t *ref = load_sample("ss.json");

	if (!ref)
		SKIP("no fio reference outputs under %s (fio not installed?)", fioref_dir());
	json_decref(ref);
	check_cover("ss.json", 0, skip);
}

static json_t *path_get(json_t *o, const char *const *keys)
{
	for (; o && *keys; keys++)
		o = json_object_get(o, *keys);
	return o;
}

#define GET(o, ...) path_get((o), (const char *const[]){ __VA_ARGS__, NULL })
#define INT(o, ...) json_integer_value(GET(o, __VA_ARGS__))
#define REAL(o, ...) json_real_value(GET(o, __VA_ARGS__))

TEST(top_level)
{
	struct fixture *fx = fixture_new();
	json_t *d = roundtrip(&fx->r, 0);
	const char *k;
	json_t *v;
	const char *order[] = { "fio version", "timestamp", "timestamp_ms", "time",
				"global options", "jobs", "disk_util", "iotrial" };
	size_t i = 0;

	CHECK(d != NULL);
	json_object_foreach(d, k, v) {
		CHECK(i < 8 && !strcmp(k, order[i]));
		i++;
	}
	CHECK_EQ_U(i, 8);
	CHECK_STR(json_string_value(GET(d, "fio version")), "iotrial-" IOTRIAL_VERSION);
	CHECK_EQ_U(INT(d, "timestamp"), 1796060977);
	CHECK_EQ_U(INT(d, "timestamp_ms"), 1796060977583ull);
	CHECK(strlen(json_string_value(GET(d, "time"))) == 24);	/* ctime() width */
	CHECK_STR(json_string_value(GET(d, "global options", "ioengine")), "io_uring");
	CHECK_EQ_U(json_array_size(GET(d, "jobs")), 2);
	CHECK_EQ_U(json_array_size(GET(d, "disk_util")), 2);
	CHECK(json_is_true(GET(d, "iotrial", "partial")));
	CHECK_EQ_U(INT(d, "iotrial", "signal"), SIGINT);
	CHECK_STR(json_string_value(GET(d, "iotrial", "clock_source")), "tsc");
	CHECK_NEAR(REAL(d, "iotrial", "clock_ghz"), 2.5, 0);
	CHECK(GET(d, "iotrial", "environment") == NULL);
	json_decref(d);
	free(fx);
}

TEST(empty_parts_left_out_like_fio)
{
	struct fixture *fx = fixture_new();
	json_t *d;

	fx->r.nr_du = 0;
	fx->r.nr_global_opts = 0;
	d = roundtrip(&fx->r, 0);
	CHECK(d != NULL);
	CHECK(GET(d, "global options") == NULL);
	CHECK(GET(d, "disk_util") == NULL);
	CHECK(GET(d, "jobs") != NULL);
	json_decref(d);
	free(fx);
}

TEST(environment_is_shared_not_stolen)
{
	struct fixture *fx = fixture_new();
	json_t *env = json_pack("{s:s, s:i}", "kernel", "6.1.0", "cpus", 2);
	json_t *d;

	fx->r.env = env;
	d = roundtrip(&fx->r, 0);
	CHECK_STR(json_string_value(GET(d, "iotrial", "environment", "kernel")), "6.1.0");
	CHECK_EQ_U(INT(d, "iotrial", "environment", "cpus"), 2);
	CHECK_EQ_U(env->refcount, 1);	/* the writer dropped its reference */
	json_decref(d);
	json_decref(env);
	free(fx);
}

static json_t *job_at(json_t *d, size_t i)
{
	return json_array_get(json_object_get(d, "jobs"), i);
}

TEST(direction_values)
{
	struct fixture *fx = fixture_new();
	json_t *d = roundtrip(&fx->r, 0), *a = job_at(d, 0);

	CHECK_STR(json_string_value(GET(a, "jobname")), "alpha");
	CHECK_STR(json_string_value(GET(a, "job options", "rw")), "randrw");
	CHECK_STR(json_string_value(GET(a, "job options", "time_based")), "");
	/* read: 1000 x 4 KiB in 2000 ms */
	CHECK_EQ_U(INT(a, "read", "io_bytes"), 4096000);
	CHECK_EQ_U(INT(a, "read", "io_kbytes"), 4000);
	CHECK_EQ_U(INT(a, "read", "bw_bytes"), 2048000);
	CHECK_EQ_U(INT(a, "read", "bw"), 2000);
	CHECK(json_is_real(GET(a, "read", "iops")));
	CHECK_NEAR(REAL(a, "read", "iops"), 500.0, 1e-9);
	CHECK_EQ_U(INT(a, "read", "runtime"), 2000);
	CHECK_EQ_U(INT(a, "read", "total_ios"), 1000);
	/* write: 500 x 8 KiB in 1000 ms */
	CHECK_EQ_U(INT(a, "write", "bw"), 4000);
	CHECK_EQ_U(INT(a, "write", "bw_bytes"), 4096000);
	CHECK_NEAR(REAL(a, "write", "iops"), 500.0, 1e-9);
	CHECK_EQ_U(INT(a, "write", "short_ios"), 2);
	/* latency moments */
	CHECK_EQ_U(INT(a, "read", "clat_ns", "min"), 90000);
	CHECK_EQ_U(INT(a, "read", "clat_ns", "max"), 21000000);
	CHECK_NEAR(REAL(a, "read", "clat_ns", "mean"), 490000.5, 1e-6);
	CHECK_NEAR(REAL(a, "read", "clat_ns", "stddev"), 1800000.25, 1e-6);
	CHECK_EQ_U(INT(a, "read", "clat_ns", "N"), 1000);
	CHECK(json_is_real(GET(a, "read", "slat_ns", "mean")));
	CHECK_EQ_U(INT(a, "read", "slat_ns", "N"), 0);
	/* sampled bw/iops: min/max rounded to integers like fio's samples */
	CHECK_EQ_U(INT(a, "read", "bw_min"), 1900);
	CHECK_EQ_U(INT(a, "read", "bw_max"), 2101);
	CHECK_NEAR(REAL(a, "read", "bw_mean"), 2000.0, 1e-9);
	CHECK_NEAR(REAL(a, "read", "bw_dev"), 100.0, 1e-9);
	CHECK_EQ_U(INT(a, "read", "bw_samples"), 4);
	CHECK_NEAR(REAL(a, "read", "bw_agg"), 100.0, 0);
	CHECK_EQ_U(INT(a, "read", "iops_min"), 475);
	CHECK_NEAR(REAL(a, "read", "iops_stddev"), 25.0, 1e-9);
	/* trim: all zero, but every key present with fio's types */
	CHECK_EQ_U(INT(a, "trim", "total_ios"), 0);
	CHECK_NEAR(REAL(a, "trim", "iops"), 0.0, 0);
	CHECK(json_is_real(GET(a, "trim", "iops")));
	/* per job */
	CHECK_EQ_U(INT(a, "job_runtime"), 2000);
	CHECK_NEAR(REAL(a, "sys_cpu"), 60.25, 0);
	CHECK_EQ_U(INT(a, "ctx"), 14143);
	CHECK_EQ_U(INT(a, "latency_depth"), 16);
	CHECK_NEAR(REAL(a, "latency_percentile"), 100.0, 0);
	CHECK_EQ_U(INT(a, "iotrial", "nr_threads"), 1);
	CHECK(json_is_false(GET(a, "iotrial", "partial")));
	json_decref(d);
	free(fx);
}

/* The value hist.h says a bucket holding @v stands for. */
static uint64_t mid(uint64_t v)
{
	return hist_bucket_value(hist_index(v));
}

TEST(percentiles)
{
	struct fixture *fx = fixture_new();
	json_t *d = roundtrip(&fx->r, 0), *a = job_at(d, 0), *b = job_at(d, 1);
	json_t *p = GET(a, "read", "clat_ns", "percentile");
	const char *k;
	json_t *v;
	size_t n = 0;

	/* hand-computed midpoints: 100000 lies in [99328, 100352) */
	CHECK_EQ_U(mid(100000), 99840);
	CHECK_EQ_U(mid(1000000), 1003520);
	CHECK_EQ_U(mid(20000000), 20054016);
	/* default list, keys "%f", in order */
	CHECK_EQ_U(json_object_size(p), 17);
	json_object_foreach(p, k, v) {
		if (n == 0)
			CHECK_STR(k, "1.000000");
		if (n == 16)
			CHECK_STR(k, "99.990000");
		n++;
	}
	CHECK_EQ_U(INT(p, "50.000000"), 99840);		/* 900 of 1000 at 100 us */
	CHECK_EQ_U(INT(p, "90.000000"), 99840);		/* cumulative 900 >= 900 */
	CHECK_EQ_U(INT(p, "95.000000"), 1003520);
	CHECK_EQ_U(INT(p, "99.000000"), 1003520);	/* cumulative 990 >= 990 */
	CHECK_EQ_U(INT(p, "99.500000"), 20054016);
	/* lat percentiles on for alpha, slat off */
	CHECK_EQ_U(INT(a, "read", "lat_ns", "percentile", "50.000000"), mid(101000));
	CHECK(GET(a, "write", "slat_ns", "percentile") == NULL);
	/* no samples, no percentiles (like fio) */
	CHECK(GET(a, "trim", "clat_ns", "percentile") == NULL);
	/* sync latency gets percentiles when clat or lat ones are on */
	CHECK_EQ_U(INT(a, "sync", "total_ios"), 10);
	CHECK_EQ_U(INT(a, "sync", "lat_ns", "percentile", "50.000000"), mid(2000000));
	/* beta's list "99:50" comes out sorted, and only those two */
	p = GET(b, "read", "clat_ns", "percentile");
	CHECK_EQ_U(json_object_size(p), 2);
	CHECK_STR(json_object_iter_key(json_object_iter(p)), "50.000000");
	CHECK_EQ_U(INT(p, "99.000000"), mid(150000));
	CHECK(GET(b, "read", "lat_ns", "percentile") == NULL);
	CHECK(GET(b, "sync", "lat_ns", "percentile") == NULL);	/* no syncs */
	/* no bins without json+ */
	CHECK(GET(a, "read", "clat_ns", "bins") == NULL);
	json_decref(d);
	free(fx);
}

TEST(jsonplus_bins)
{
	struct fixture *fx = fixture_new();
	json_t *d = roundtrip(&fx->r, 1), *a = job_at(d, 0);
	json_t *bins = GET(a, "read", "clat_ns", "bins");
	char key[32];

	CHECK_EQ_U(json_object_size(bins), 3);
	CHECK_EQ_U(INT(bins, "99840"), 900);
	CHECK_EQ_U(INT(bins, "1003520"), 90);
	CHECK_EQ_U(INT(bins, "20054016"), 10);
	/* values below 128 ns are exact */
	CHECK_EQ_U(INT(a, "write", "clat_ns", "bins", "50"), 250);
	snprintf(key, sizeof(key), "%llu", (unsigned long long)mid(5000));
	CHECK_EQ_U(INT(a, "write", "clat_ns", "bins", key), 250);
	/* bins go with percentiles: lat and sync yes, slat (off) no */
	CHECK(GET(a, "read", "lat_ns", "bins") != NULL);
	CHECK(GET(a, "write", "slat_ns", "bins") == NULL);
	CHECK_EQ_U(json_object_size(GET(a, "sync", "lat_ns", "bins")), 1);
	CHECK(GET(a, "trim", "clat_ns", "bins") == NULL);
	json_decref(d);
	free(fx);
}

TEST(latency_and_depth_distribution)
{
	struct fixture *fx = fixture_new();
	json_t *d = roundtrip(&fx->r, 0), *a = job_at(d, 0);
	const char *k;
	json_t *v;
	double sum = 0;

	/* 1500 completions: 250 x 50 ns, 250 x 5 us, 900 x 100 us, 90 x 1 ms, 10 x 20 ms */
	CHECK_NEAR(REAL(a, "latency_ns", "100"), 100.0 * 250 / 1500, 1e-9);
	CHECK_NEAR(REAL(a, "latency_us", "10"), 100.0 * 250 / 1500, 1e-9);
	/* 100 us exactly sits in a bucket whose midpoint (99840) is below 100 us */
	CHECK_NEAR(REAL(a, "latency_us", "100"), 100.0 * 900 / 1500, 1e-9);
	CHECK_NEAR(REAL(a, "latency_ms", "2"), 100.0 * 90 / 1500, 1e-9);
	CHECK_NEAR(REAL(a, "latency_ms", "50"), 100.0 * 10 / 1500, 1e-9);
	CHECK_NEAR(REAL(a, "latency_ms", ">=2000"), 0.0, 0);
	CHECK_EQ_U(json_object_size(GET(a, "latency_ms")), 12);
	json_object_foreach(GET(a, "latency_ns"), k, v) sum += json_real_value(v);
	json_object_foreach(GET(a, "latency_us"), k, v) sum += json_real_value(v);
	json_object_foreach(GET(a, "latency_ms"), k, v) sum += json_real_value(v);
	CHECK_NEAR(sum, 100.0, 1e-9);
	/* depth 1: 10 of 1500, depth 16: 1490 of 1500 */
	CHECK_NEAR(REAL(a, "iodepth_level", "1"), 100.0 * 10 / 1500, 1e-9);
	CHECK_NEAR(REAL(a, "iodepth_level", "16"), 100.0 * 1490 / 1500, 1e-9);
	CHECK_NEAR(REAL(a, "iodepth_level", ">=64"), 0.0, 0);
	CHECK_NEAR(REAL(a, "iodepth_submit", "4"), 100.0, 1e-9);
	CHECK_NEAR(REAL(a, "iodepth_complete", "8"), 100.0 * 100 / 1500, 1e-9);
	json_decref(d);
	free(fx);
}

TEST(spare_submit_slot_folds_into_last)
{
	struct fixture *fx = fixture_new();
	json_t *d;

	memset(fx->jr[0].depth_submit, 0, sizeof(fx->jr[0].depth_submit));
	fx->jr[0].depth_submit[6] = 1;
	fx->jr[0].depth_submit[7] = 3;
	d = roundtrip(&fx->r, 0);
	CHECK_NEAR(REAL(job_at(d, 0), "iodepth_submit", ">=64"), 100.0, 1e-9);
	CHECK_EQ_U(json_object_size(GET(job_at(d, 0), "iodepth_submit")), 7);
	json_decref(d);
	free(fx);
}

TEST(partial_job_and_error)
{
	struct fixture *fx = fixture_new();
	json_t *d = roundtrip(&fx->r, 0), *b = job_at(d, 1);

	CHECK_EQ_U(INT(b, "error"), 5);
	CHECK_EQ_U(INT(b, "groupid"), 1);
	CHECK(json_is_true(GET(b, "iotrial", "partial")));
	CHECK_EQ_U(INT(b, "iotrial", "nr_threads"), 2);
	CHECK(strstr(json_string_value(GET(b, "iotrial", "first_error")), "Input/output") != NULL);
	CHECK_STR(json_string_value(json_object_get(json_array_get(GET(d, "disk_util"), 0), "name")), "vda");
	CHECK_NEAR(json_real_value(json_object_get(json_array_get(GET(d, "disk_util"), 0), "util")), 77.1, 1e-9);
	json_decref(d);
	free(fx);
}

/* The per-interval series goes under jobs[].iotrial.intervals; json+ adds
 * each interval's histogram bins, as it does for the job's latencies. */
TEST(intervals_and_their_bins)
{
	struct fixture *fx = fixture_new();
	struct series s;
	struct hist *h = calloc(1, sizeof(*h));
	struct series_in in[DDIR_NR] = { { 0 } };
	json_t *d, *iv;
	char key[32];

	CHECK(h != NULL);
	series_init(&s);
	h->b[hist_index(1000)] = 7;
	in[DDIR_READ] = (struct series_in){ .ios = 7, .bytes = 7 * 4096, .lat_sum_ns = 7000,
					    .lat_min = 1000, .lat_max = 1000, .lat_hist = h };
	in[DDIR_WRITE].lat_min = in[DDIR_TRIM].lat_min = UINT64_MAX;
	CHECK(series_add(&s, 1000, 1000000, 0, in) == 0);
	fx->jr[0].series = &s;

	d = roundtrip(&fx->r, 0);
	iv = json_array_get(GET(job_at(d, 0), "iotrial", "intervals"), 0);
	CHECK_EQ_U(json_array_size(GET(job_at(d, 0), "iotrial", "intervals")), 1);
	CHECK_EQ_U(INT(iv, "t_ms"), 1000);
	CHECK_EQ_U(INT(iv, "read", "ios"), 7);
	CHECK(GET(iv, "read", "lat_ns", "bins") == NULL);
	CHECK(GET(job_at(d, 1), "iotrial", "intervals") == NULL);	/* no series: no key */
	json_decref(d);

	d = roundtrip(&fx->r, 1);
	iv = json_array_get(GET(job_at(d, 0), "iotrial", "intervals"), 0);
	snprintf(key, sizeof(key), "%llu", (unsigned long long)mid(1000));
	CHECK_EQ_U(json_object_size(GET(iv, "read", "lat_ns", "bins")), 1);
	CHECK_EQ_U(INT(iv, "read", "lat_ns", "bins", key), 7);
	json_decref(d);

	fx->jr[0].series = NULL;
	series_free(&s);
	free(h);
	free(fx);
}

TEST(non_utf8_text_does_not_break_the_document)
{
	struct fixture *fx = fixture_new();
	json_t *d;

	strcpy(fx->jr[0].name, "caf\xe9");		/* Latin-1, as a user may type */
	fx->kv_a[1].key = "r\xffw";
	fx->kv_a[1].val = "rand\xe9";
	strcpy(fx->jr[1].first_error, "bad \xc3(");
	d = roundtrip(&fx->r, 0);
	CHECK(d != NULL);
	/* each invalid byte becomes U+FFFD (utf8.h) */
	CHECK_STR(json_string_value(GET(job_at(d, 0), "jobname")), "caf\xef\xbf\xbd");
	CHECK_STR(json_string_value(GET(job_at(d, 0), "job options", "r\xef\xbf\xbdw")),
		  "rand\xef\xbf\xbd");
	CHECK_STR(json_string_value(GET(job_at(d, 1), "iotrial", "first_error")),
		  "bad \xef\xbf\xbd(");
	json_decref(d);
	free(fx);
}

TEST(write_error_is_reported)
{
	struct fixture *fx = fixture_new();
	struct err e = { 0 };
	FILE *f = fopen("/dev/full", "w");

	if (!f)
		SKIP("no /dev/full");
	setvbuf(f, NULL, _IONBF, 0);
	CHECK(report_json_write(f, &fx->r, 0, &e) < 0);
	CHECK_EQ_U(e.exit_code, EXIT_OUTPUT);
	CHECK(strstr(e.msg, "JSON") != NULL);
	fclose(f);
	free(fx);
}

/* Column @col (0 = nsec) of the CSV row whose nsec is @nsec, or -1. */
static long long csv_cell(const char *path, unsigned long long nsec, int col)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	long long out = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *s = line, *tok;
		int c = 0;

		if (strtoull(line, NULL, 10) != nsec || line[0] < '0' || line[0] > '9')
			continue;
		while ((tok = strsep(&s, ",")) && c < col)
			c++;
		if (tok && c == col && strspn(tok, " ") < strlen(tok))
			out = strtoll(tok, NULL, 10);
		break;
	}
	fclose(f);
	return out;
}

TEST(fio_jsonplus_clat2csv_reads_ours)
{
	static const char tool[] = "/usr/bin/fio_jsonplus_clat2csv";
	struct fixture *fx = fixture_new();
	char dir[] = "/tmp/iotrial-jp-XXXXXX", src[256], dst[256], csv[256], cmd[1024];
	struct err e = { 0 };
	FILE *f;

	if (access(tool, X_OK) || system("python3 -c 'import six' 2>/dev/null"))
		SKIP("%s (or python3 with six) is not installed", tool);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(src, sizeof(src), "%s/out.json", dir);
	snprintf(dst, sizeof(dst), "%s/lat.csv", dir);
	snprintf(csv, sizeof(csv), "%s/lat_job0.csv", dir);
	f = fopen(src, "w");
	CHECK(f && report_json_write(f, &fx->r, 1, &e) == 0);
	if (f)
		fclose(f);
	snprintf(cmd, sizeof(cmd), "%s %s %s >/dev/null 2>&1", tool, src, dst);
	CHECK(system(cmd) == 0);
	/* columns: nsec, then (count, cumulative, percentile) for read slat, read clat, ... */
	CHECK_EQ_U(csv_cell(csv, 99840, 4), 900);	/* read clat count */
	CHECK_EQ_U(csv_cell(csv, 99840, 5), 900);	/* cumulative */
	CHECK_EQ_U(csv_cell(csv, 1003520, 4), 90);
	CHECK_EQ_U(csv_cell(csv, 1003520, 5), 990);
	CHECK_EQ_U(csv_cell(csv, 20054016, 5), 1000);
	CHECK_EQ_U(csv_cell(csv, 50, 13), 250);		/* write clat count */
	/* and fio's own validator agrees bin for bin */
	snprintf(cmd, sizeof(cmd), "%s %s %s --validate 2>&1 | grep -c validated", tool, src, dst);
	f = popen(cmd, "r");
	CHECK(f != NULL);
	if (f) {
		int n = -1;

		CHECK(fscanf(f, "%d", &n) == 1);
		CHECK_EQ_U(n, 2);	/* both jobs' CSV files */
		pclose(f);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	free(fx);
}

int main(void)
{
	RUN(covers_fio_uring);
	RUN(covers_fio_jsonplus_every_percentile_object);
	RUN(covers_fio_jsonplus);
	RUN(covers_fio_steadystate_but_the_hook);
	RUN(top_level);
	RUN(empty_parts_left_out_like_fio);
	RUN(environment_is_shared_not_stolen);
	RUN(direction_values);
	RUN(percentiles);
	RUN(jsonplus_bins);
	RUN(latency_and_depth_distribution);
	RUN(spare_submit_slot_folds_into_last);
	RUN(partial_job_and_error);
	RUN(intervals_and_their_bins);
	RUN(non_utf8_text_does_not_break_the_document);
	RUN(write_error_is_reported);
	RUN(fio_jsonplus_clat2csv_reads_ours);
	return CHECK_DONE();
}
