/*
 * Unit tests of the HTML reports (report_html*.c) on synthetic results:
 * the fields other analyses add (steady.mser/tail/held/lost_ms, per-interval
 * and whole-run device figures, bottleneck) are drawn when present; long
 * series are downsampled and say so; a 10-minute 4-job run stays small; a
 * fio result without a series says what is missing; bad input is refused;
 * the compare report reads both CI spellings and per-run values.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "report/report_html.h"
#include "trial/compare.h"	/* the metrics' units and the methods' words */

static json_t *dir_obj(double iops, double lat)
{
	return json_pack("{s:I, s:f, s:f, s:{s:f, s:I, s:I, s:I, s:I, s:I}}", "ios",
			 (json_int_t)iops, "iops", iops, "bw_bytes", iops * 4096, "lat_ns", "mean",
			 lat, "min", (json_int_t)(lat / 2), "max", (json_int_t)(lat * 20),
			 "p50", (json_int_t)lat, "p99", (json_int_t)(lat * 4), "p99.9",
			 (json_int_t)(lat * 9));
}

/* A job's summary direction with fio's fields and json+ bins. */
static json_t *job_dir(double iops, double lat)
{
	json_t *bins = json_object(), *pct;
	char k[32];
	int i;

	for (i = 0; i < 40; i++) {
		snprintf(k, sizeof(k), "%d", (int)(lat * (0.5 + i * 0.1)));
		json_object_set_new(bins, k, json_integer(1000 - 20 * i));
	}
	pct = json_pack("{s:I, s:I, s:I, s:I}", "50.000000", (json_int_t)lat, "99.000000",
			(json_int_t)(lat * 3), "99.900000", (json_int_t)(lat * 4), "99.990000",
			(json_int_t)(lat * 4.4));
	return json_pack("{s:I, s:f, s:f, s:I, s:I, s:{s:f, s:I, s:I, s:o, s:o}}", "total_ios",
			 (json_int_t)(iops * 600), "iops", iops, "bw_bytes", iops * 4096,
			 "runtime", (json_int_t)600000, "io_bytes", (json_int_t)(iops * 600 * 4096),
			 "clat_ns", "mean", lat, "min", (json_int_t)(lat / 2), "max",
			 (json_int_t)(lat * 20), "percentile", pct, "bins", bins);
}

/* A result of @njobs jobs with @n one-second intervals (the first 2 ramp) each. */
static json_t *result(size_t njobs, size_t n, int extras)
{
	json_t *jobs = json_array(), *root;
	size_t j, i;

	for (j = 0; j < njobs; j++) {
		json_t *iv = json_array(), *it, *job;

		for (i = 0; i < n; i++) {
			it = json_pack("{s:I, s:I, s:o, s:o, s:o}", "t_ms", (json_int_t)(i + 1) * 1000,
				       "dur_us", (json_int_t)1000000, "read", dir_obj(1000 + i % 7, 5e4),
				       "write", dir_obj(900 + i % 5, 7e4), "trim", dir_obj(0, 0));
			if (i < 2)
				json_object_set_new(it, "ramp", json_true());
			if (extras)
				json_object_set_new(it, "device", json_pack("{s:f, s:f, s:f, s:f, s:f, "
						    "s:f, s:f, s:f}", "read_iops", 1000.0, "write_iops",
						    900.0, "read_lat_ns_mean", 4e4, "write_lat_ns_mean",
						    6e4, "read_queue_depth", 3.5, "write_queue_depth", 2.5,
						    "queue_depth", 6.0, "util", 97.0));
			json_array_append_new(iv, it);
		}
		job = json_pack("{s:s, s:i, s:i, s:{s:s, s:s}, s:o, s:o, s:o, s:I, s:f, s:f, s:I, "
				"s:{s:i, s:b, s:o, s:{s:s, s:s, s:b, s:I, s:I, s:f}}}",
				"jobname", "synthetic", "groupid", 0, "error", 0, "job options",
				"rw", "randrw", "bs", "4k", "read", job_dir(1000, 5e4), "write",
				job_dir(900, 7e4), "trim", json_pack("{s:I, s:f}", "total_ios", (json_int_t)0, "iops", 0.0),
				"job_runtime", (json_int_t)600000, "usr_cpu", 3.0, "sys_cpu", 9.0, "ctx",
				(json_int_t)1234, "iotrial", "nr_threads", 1, "partial", 0, "intervals",
				iv, "steady", "criterion", "snia", "spec", "snia iops: test rule",
				"attained", 1, "start_ms", (json_int_t)5000, "end_ms",
				(json_int_t)10000, "mean", 1900.0);
		if (extras) {
			json_t *st = json_object_get(json_object_get(job, "iotrial"), "steady");

			json_object_set_new(st, "held", json_false());
			json_object_set_new(st, "lost_ms", json_integer(20000));
			json_object_set_new(st, "mser", json_pack("{s:I, s:f, s:f, s:[f, f], s:i}",
					    "truncate_ms", (json_int_t)3000, "mean", 1901.5, "sd", 3.25,
					    "ci95", 1899.0, 1904.0, "batches", 20));
			json_object_set_new(st, "tail", json_pack("{s:s}", "shape", "tail-marker-xyz"));
			json_object_set_new(json_object_get(job, "iotrial"), "bottleneck",
					    json_pack("{s:s, s:[s]}", "verdict", "device-bound-verdict",
						      "evidence", "util 97% with queue 6"));
		}
		json_array_append_new(jobs, job);
	}
	root = json_pack("{s:s, s:I, s:s, s:o, s:{s:s, s:b, s:i, s:[{s:s, s:s, s:s}]}}",
			 "fio version", "iotrial-0.1.0", "timestamp_ms", (json_int_t)1700000000000,
			 "time", "Tue Dec  1 05:00:00 2026", "jobs", jobs, "iotrial", "clock_source",
			 "tsc", "partial", 0, "signal", 0, "warnings", "id", "short_run", "severity",
			 "warning", "message", "warning <text> & more");
	if (extras)
		json_object_set_new(root, "disk_util", json_pack("[{s:s, s:I, s:I, s:f, s:{s:f, "
				    "s:f}}]", "name", "vdz", "read_ios", (json_int_t)5, "write_ios",
				    (json_int_t)6, "util", 97.0, "iotrial", "queue_depth", 6.0,
				    "read_lat_ns_mean", 4e4));
	return root;
}

/* Write @root to a temporary file; returns its malloc'd path. */
static char *save(const json_t *root)
{
	char *path = strdup("/tmp/test_report_html.XXXXXX");
	int fd = mkstemp(path);

	if (fd < 0 || json_dumpfd(root, fd, JSON_COMPACT)) {
		free(path);
		return NULL;
	}
	close(fd);
	return path;
}

/* The run report of @root through a file and report_html_load. */
static char *render(json_t *root, size_t *len)
{
	char *path = save(root), *buf = NULL;
	const char *name = "synthetic.json";
	struct err e = { 0 };
	json_t *loaded = NULL;
	FILE *f;

	if (!path)
		return NULL;
	if (report_html_load(path, &loaded, &e)) {
		printf("  load: %s\n", e.msg);
		goto out;
	}
	f = open_memstream(&buf, len);
	if (!f || report_html_run(f, &loaded, &name, 1))
		printf("  render failed\n");
	if (f)
		fclose(f);
out:
	json_decref(loaded);
	unlink(path);
	free(path);
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

TEST(run_extras_drawn)
{
	json_t *root = result(1, 30, 1);
	size_t len = 0;
	char *html = render(root, &len);

	CHECK(html != NULL);
	if (!html)
		return;
	CHECK(strstr(html, "IOPS over time") && strstr(html, "Bandwidth over time"));
	CHECK(strstr(html, "Latency by percentile") && strstr(html, "Latency histogram"));
	CHECK(strstr(html, "Device queue depth over time"));
	CHECK(strstr(html, "Device latency over time"));
	CHECK(strstr(html, "MSER warm-up"));		/* the truncation, shaded */
	CHECK(strstr(html, "first 3.0 s are warm-up"));
	CHECK(strstr(html, "steady window (snia)"));
	CHECK(strstr(html, "steady state lost"));	/* lost_ms marked */
	CHECK(strstr(html, "not held"));
	CHECK(strstr(html, "tail-marker-xyz"));
	CHECK(strstr(html, "device-bound-verdict"));
	CHECK(strstr(html, "util 97% with queue 6"));
	CHECK(strstr(html, "vdz.iotrial.queue_depth"));	/* disk_util[i].iotrial */
	CHECK(strstr(html, "warning &lt;text&gt; &amp; more"));	/* escaped */
	CHECK(strstr(html, ">ramp<"));
	CHECK(!strstr(html, "<script"));
	CHECK(!strstr(html, "http://") || count(html, "http://") == count(html, "http://www.w3.org/2000/svg"));
	CHECK(!strstr(html, "nan") && !strstr(html, "inf\""));
	free(html);
	json_decref(root);
}

/* A 10-minute run of 4 jobs: downsampled, stated, and well under 1 MB. */
TEST(long_run_small)
{
	json_t *root = result(4, 600, 1);
	size_t len = 0, pts;
	char *html = render(root, &len), *p, *end;

	CHECK(html != NULL);
	if (!html)
		return;
	printf("  10-min 4-job synthetic report: %zu bytes\n", len);
	CHECK(len < 600 * 1024);
	CHECK(strstr(html, "600 intervals drawn as 300 points") != NULL);
	p = strstr(html, "points=\"");	/* the first line: at most the cap, two vertices (a step) each */
	CHECK(p != NULL);
	if (p) {
		end = strchr(p + 8, '"');
		for (pts = 0; p && p < end; p = strchr(p + 1, ','))
			pts++;
		CHECK(pts - 1 <= 2 * REPORT_HTML_MAX_POINTS);
	}
	free(html);
	json_decref(root);
}

TEST(fio_without_series)
{
	json_t *root = result(1, 0, 0);
	size_t len = 0;
	char *html;

	json_object_del(root, "iotrial");
	json_object_set_new(root, "fio version", json_string("fio-3.33"));
	json_object_del(json_array_get(json_object_get(root, "jobs"), 0), "iotrial");
	html = render(root, &len);
	CHECK(html != NULL);
	if (!html)
		return;
	CHECK(strstr(html, "No time series") != NULL);
	CHECK(strstr(html, "IOPS over time") == NULL);
	CHECK(strstr(html, "Latency by percentile") != NULL);	/* what it has */
	CHECK(strstr(html, "Latency histogram") != NULL);
	CHECK(strstr(html, "Not recorded") != NULL);		/* environment */
	free(html);
	json_decref(root);
}

static int load_fails(const char *text, const char *want)
{
	char path[] = "/tmp/test_report_html_bad.XXXXXX";
	int fd = mkstemp(path), ret;
	struct err e = { 0 };
	json_t *root = NULL;

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		return 0;
	close(fd);
	ret = report_html_load(path, &root, &e);
	unlink(path);
	json_decref(root);
	if (!ret || e.exit_code != EXIT_USAGE || !strstr(e.msg, path) || !strstr(e.msg, want) ||
	    strchr(e.msg, '\n')) {
		printf("  '%s': ret %d, exit %d, msg %s\n", text, ret, e.exit_code, e.msg);
		return 0;
	}
	return 1;
}

TEST(bad_input)
{
	CHECK(load_fails("", "no JSON object"));
	CHECK(load_fails("hello\n", "no JSON object"));
	CHECK(load_fails("{\"jobs\": [", "not valid JSON"));
	CHECK(load_fails("{}", "jobs"));
	CHECK(load_fails("{\"fio version\": \"fio-3.33\", \"jobs\": []}", "no jobs"));
	CHECK(load_fails("{\"a\": {}, \"b\": {}, \"metrics\": []}", "compare report"));
}

/* The compare JSON's new spelling: "ci" + "ci_level", per-run values in the metric. */
TEST(compare_ci_spellings)
{
	json_t *cmp = json_pack("{s:{s:I, s:[s]}, s:{s:I, s:[s]}, s:[{s:s, s:{s:f, s:f, s:I}, "
				"s:{s:f, s:f, s:I}, s:f, s:[f, f], s:f, s:s, s:s, s:b, s:[{s:s, "
				"s:f}, {s:s, s:f}, {s:s, s:f}, {s:s, s:f}]}], s:[], s:[], s:{s:f}}",
				"a", "n", (json_int_t)2, "files", "a1.json", "b", "n", (json_int_t)2,
				"files", "b1.json", "metrics", "name", "total.iops", "a", "mean",
				100.0, "sd", 1.0, "n", (json_int_t)2, "b", "mean", 120.0, "sd", 1.0,
				"n", (json_int_t)2, "diff_pct", 20.0, "ci", 11.5, 28.5, "ci_level",
				0.9, "verdict", "B is 20.0% faster", "verdict_kind", "better",
				"lower_is_better", 0, "runs", "side", "a", "value", 99.0, "side", "b",
				"value", 119.0, "side", "a", "value", 101.0, "side", "b", "value",
				121.0, "env_diff", "warnings", "settings", "noise_pct", 2.0);
	struct report_html_run runs[2] = { { "a1.json", NULL, NULL, 'A' },
		{ "b1.json", NULL, NULL, 'B' } };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(cmp != NULL && f != NULL);
	if (!cmp || !f)
		return;
	runs[0].root = result(1, 3, 0);
	runs[1].root = result(1, 3, 0);
	CHECK(report_html_compare(f, cmp, runs, 2, NULL, "a note") == 0);
	fclose(f);
	CHECK(strstr(buf, "total.iops, B vs A: B is 20.0% faster (+20.0%, 90% CI +11.5%..+28.5%)"));
	CHECK(strstr(buf, "verdict good"));
	CHECK(strstr(buf, "+11.50..+28.50%"));		/* the forest plot's whisker */
	CHECK(strstr(buf, "noise threshold"));
	CHECK(strstr(buf, "run 3 (A): 101"));		/* per-run values from the JSON */
	CHECK(strstr(buf, "run 4 (B): 121"));
	CHECK(strstr(buf, "a note"));
	CHECK(strstr(buf, "read latency by percentile, A and B"));
	CHECK(!strstr(buf, "nan"));
	free(buf);
	json_decref(runs[0].root);
	json_decref(runs[1].root);
	json_decref(cmp);
}

/*
 * Every label of the compare page comes from the figure it describes: the
 * interval's and p's method from each metric's "ci_method" (a page used to
 * say "Fieller ... Welch" under a "p (Welch)" column whatever the method),
 * a per-run chart's axis from the metric's unit (device.queue_depth's said
 * IOPS).  Each method in turn: its words are there, the others' are not.
 */
TEST(compare_labels_from_figures)
{
	static const char *const methods[] = { "fieller", "run_order", "rank" };
	static const char *const names[] = { "device.queue_depth", "read.lat_p99_ns" };
	size_t mi, k, ni;

	for (mi = 0; mi < 3; mi++) {
		for (ni = 0; ni < 2; ni++) {
			const char *name = names[ni];
			json_t *cmp = json_pack("{s:{s:I, s:[s]}, s:{s:I, s:[s]}, s:[{s:s, s:s, s:s, "
						"s:{s:f, s:f, s:I}, s:{s:f, s:f, s:I}, s:f, s:[f, f], s:f, "
						"s:s, s:f, s:s, s:s, s:b, s:[{s:s, s:f}, {s:s, s:f}, {s:s, "
						"s:f}, {s:s, s:f}]}], s:[], s:[], s:{s:f}}",
						"a", "n", (json_int_t)2, "files", "a1.json", "b", "n",
						(json_int_t)2, "files", "b1.json", "metrics", "name", name,
						"unit", compare_metric_unit(name), "label",
						compare_metric_label(name), "a", "mean", 3.0, "sd",
						0.1, "n", (json_int_t)2, "b", "mean", 3.6, "sd", 0.1, "n",
						(json_int_t)2, "diff_pct", 20.0, "ci", 11.5, 28.5,
						"ci_level", 0.95, "ci_method", methods[mi], "p_value", 0.01,
						"verdict", "B is 11.5..28.5% worse", "verdict_kind", "worse",
						"lower_is_better", 0, "runs", "side", "a", "value", 3.1,
						"side", "b", "value", 3.7, "side", "a", "value", 2.9,
						"side", "b", "value", 3.5, "env_diff", "warnings", "settings",
						"noise_pct", 2.0);
			struct report_html_run runs[2] = { { "a1.json", NULL, NULL, 'A' },
				{ "b1.json", NULL, NULL, 'B' } };
			const struct compare_method_desc *own = compare_method_find(methods[mi]);
			char *buf = NULL, want[160];
			size_t len = 0;
			FILE *f = open_memstream(&buf, &len);

			CHECK(cmp && f && own);
			if (!cmp || !f || !own)
				return;
			runs[0].root = result(1, 3, 0);
			runs[1].root = result(1, 3, 0);
			CHECK(report_html_compare(f, cmp, runs, 2, NULL, NULL) == 0);
			fclose(f);
			CHECK(strstr(buf, own->interval) && strstr(buf, own->test));
			CHECK(strstr(buf, own->label) && strstr(buf, own->test_label));
			for (k = 0; k < 3; k++) {
				const struct compare_method_desc *o = compare_method_find(methods[k]);

				if (k == mi)
					continue;
				CHECK(!strstr(buf, o->interval) && !strstr(buf, o->test));
				if (strstr(buf, o->interval))
					printf("  %s page names %s\n", methods[mi], methods[k]);
			}
			CHECK(!strstr(buf, "(Welch)"));
			/* the per-run chart's y axis: the metric's label and unit */
			snprintf(want, sizeof(want), "%s (%s)</text>", compare_metric_label(name),
				 ni == 0 ? "I/Os in flight" : "time");
			CHECK(strstr(buf, want) != NULL);
			CHECK(!strstr(buf, ">IOPS</text>"));
			free(buf);
			json_decref(runs[0].root);
			json_decref(runs[1].root);
			json_decref(cmp);
		}
	}
}

/*
 * The forest plot's axis is not the widest whisker's: one interval of
 * -84..+4844% (time.cpu_wait_ns on a busy machine) is clipped at 4 times
 * the middle row's reach (here the median of 28.5, 15, 9 and 4844: 21.75,
 * so +87%), with an arrow and its true end, and the others stay readable.
 */
TEST(compare_forest_clips)
{
	static const struct { const char *name; double d, lo, hi; int lower; } mk[] = {
		{ "total.iops", 20, 11.5, 28.5, 0 }, { "read.lat_mean_ns", -10, -15, -5, 1 },
		{ "write.iops", 5, 1, 9, 0 }, { "time.cpu_wait_ns", 300, -84, 4844, 1 } };
	json_t *ms = json_array(), *cmp;
	struct report_html_run runs[2] = { { "a1.json", NULL, NULL, 'A' },
		{ "b1.json", NULL, NULL, 'B' } };
	char *buf = NULL, *p;
	size_t len = 0, i, nclip = 0;
	FILE *f;

	for (i = 0; i < 4; i++)
		json_array_append_new(ms, json_pack("{s:s, s:{s:f, s:f, s:I}, s:{s:f, s:f, s:I}, "
			"s:f, s:[f, f], s:f, s:s, s:s, s:b, s:[]}", "name", mk[i].name, "a", "mean",
			100.0, "sd", 1.0, "n", (json_int_t)5, "b", "mean", 100.0 + mk[i].d, "sd", 1.0,
			"n", (json_int_t)5, "diff_pct", mk[i].d, "ci", mk[i].lo, mk[i].hi, "ci_level",
			0.95, "verdict", "inconclusive", "verdict_kind", "inconclusive",
			"lower_is_better", mk[i].lower, "runs"));
	cmp = json_pack("{s:{s:I, s:[s]}, s:{s:I, s:[s]}, s:o, s:[], s:[], s:{s:f}}", "a", "n",
			(json_int_t)5, "files", "a1.json", "b", "n", (json_int_t)5, "files",
			"b1.json", "metrics", ms, "env_diff", "warnings", "settings", "noise_pct", 2.0);
	f = open_memstream(&buf, &len);
	CHECK(cmp != NULL && f != NULL);
	if (!cmp || !f)
		return;
	runs[0].root = result(1, 3, 0);
	runs[1].root = result(1, 3, 0);
	CHECK(report_html_compare(f, cmp, runs, 2, NULL, NULL) == 0);
	fclose(f);
	for (p = buf; (p = strstr(p, "class=\"clipped\"")); p++)
		nclip++;
	CHECK(nclip == 1);				/* cpu_wait's high end only */
	CHECK(strstr(buf, ">+4844%</text>") != NULL);	/* its true end, by the arrow */
	CHECK(strstr(buf, "Clipped at +87%") != NULL);
	CHECK(strstr(buf, "+11.50..+28.50%") != NULL);	/* the tooltips keep the true figures */
	CHECK(strstr(buf, "-84.00..+4844.00%") != NULL);
	CHECK(!strstr(buf, "nan"));
	free(buf);
	json_decref(runs[0].root);
	json_decref(runs[1].root);
	json_decref(cmp);
}

int main(void)
{
	RUN(run_extras_drawn);
	RUN(long_run_small);
	RUN(fio_without_series);
	RUN(bad_input);
	RUN(compare_ci_spellings);
	RUN(compare_labels_from_figures);
	RUN(compare_forest_clips);
	return check_any_failed;
}
