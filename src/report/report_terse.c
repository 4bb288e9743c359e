/*
 * report_terse: fio's terse lines (see report_terse.h), formatted from the
 * JSON document so that every value is the one the JSON carries.
 */
#include "report/report_terse.h"
#include "parse/cmdline.h"	/* CMDLINE_TERSE_MIN, _MAX */

#include <errno.h>	/* EINVAL, EIO, ENOMEM */
#include <jansson.h>
#include <stdlib.h>	/* strtod, qsort */
#include <string.h>	/* strcmp */
#include "report/report_json.h"
#include "lib/ddir.h"	/* ddir_name */

#define TERSE_PCT_FIELDS 20

/* fio's default percentile list, for a direction that reports none */
static const double terse_default_pct[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

static double num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static unsigned long long unum(const json_t *o, const char *key)
{
	double v = json_number_value(json_object_get(o, key));

	return v > 0 ? (unsigned long long)v : 0;
}

/* min;max;mean;stdev of a latency object, ns to usec */
static void terse_lat(FILE *f, const json_t *l)
{
	fprintf(f, ";%llu;%llu;%f;%f", unum(l, "min") / 1000, unum(l, "max") / 1000,
		num(l, "mean") / 1000.0, num(l, "stddev") / 1000.0);
}

struct pct { double p; unsigned long long ns; };

static int pct_cmp(const void *a, const void *b)
{
	double x = ((const struct pct *)a)->p, y = ((const struct pct *)b)->p;

	return (x > y) - (x < y);
}

/* 20 fields "P%=usec": the percentiles reported, else the list with zeros */
static void terse_pcts(FILE *f, const json_t *dir)
{
	const json_t *lat = json_object_get(dir, "lat_ns");
	const json_t *pc = json_object_get(lat, "percentile");
	struct pct p[TERSE_PCT_FIELDS];
	const char *key;
	json_t *v;
	size_t n = 0, i;

	if (!pc)	/* lat_percentiles=1 gives lat's; otherwise clat's */
		pc = json_object_get(json_object_get(dir, "clat_ns"), "percentile");
	json_object_foreach((json_t *)pc, key, v) {
		if (n == TERSE_PCT_FIELDS)
			break;
		p[n].p = strtod(key, NULL);
		p[n].ns = (unsigned long long)json_integer_value(v);
		n++;
	}
	if (!n) {
		for (; n < sizeof(terse_default_pct) / sizeof(terse_default_pct[0]); n++) {
			p[n].p = terse_default_pct[n];
			p[n].ns = 0;
		}
	}
	qsort(p, n, sizeof(p[0]), pct_cmp);
	for (i = 0; i < n; i++)
		fprintf(f, ";%f%%=%llu", p[i].p, p[i].ns / 1000);
	for (; i < TERSE_PCT_FIELDS; i++)
		fprintf(f, ";0%%=0");
}

static void terse_dir(FILE *f, const json_t *d, int version)
{
	fprintf(f, ";%llu;%llu;%llu;%llu", unum(d, "io_kbytes"), unum(d, "bw"), unum(d, "iops"),
		unum(d, "runtime"));
	terse_lat(f, json_object_get(d, "slat_ns"));
	terse_lat(f, json_object_get(d, "clat_ns"));
	terse_pcts(f, d);
	terse_lat(f, json_object_get(d, "lat_ns"));
	fprintf(f, ";%llu;%llu;%f%%;%f;%f", unum(d, "bw_min"), unum(d, "bw_max"), num(d, "bw_agg"),
		num(d, "bw_mean"), num(d, "bw_dev"));
	if (version >= 5)
		fprintf(f, ";%llu;%llu;%llu;%f;%f;%llu", unum(d, "bw_samples"), unum(d, "iops_min"),
			unum(d, "iops_max"), num(d, "iops_mean"), num(d, "iops_stddev"),
			unum(d, "iops_samples"));
}

static void terse_levels(FILE *f, const json_t *o, const char *const *keys, const char *fmt)
{
	for (; *keys; keys++) {
		fputc(';', f);
		fprintf(f, fmt, num(o, *keys));
	}
}

static const char *const depth_keys[] = { "1", "2", "4", "8", "16", "32", ">=64", NULL };
static const char *const us_keys[] = { "2", "4", "10", "20", "50", "100", "250", "500", "750",
				       "1000", NULL };
static const char *const ms_keys[] = { "2", "4", "10", "20", "50", "100", "250", "500", "750",
				       "1000", "2000", ">=2000", NULL };

static void terse_job(FILE *f, const json_t *doc, const json_t *job, int version)
{
	const json_t *du = json_object_get(doc, "disk_util"), *d;
	const char *desc = json_string_value(json_object_get(json_object_get(job, "job options"),
							      "description"));
	size_t i;

	if (version == 2)
		fprintf(f, "2");
	else
		fprintf(f, "%d;%s", version, json_string_value(json_object_get(doc, "fio version")));
	fprintf(f, ";%s;%llu;%llu", json_string_value(json_object_get(job, "jobname")),
		unum(job, "groupid"), unum(job, "error"));
	if (!json_object_get(job, ddir_name(DDIR_READ)) && json_object_get(job, "mixed")) {
		/* unified_rw_reporting=mixed: fio writes the one summed block */
		terse_dir(f, json_object_get(job, "mixed"), version);
	} else {
		terse_dir(f, json_object_get(job, ddir_name(DDIR_READ)), version);
		terse_dir(f, json_object_get(job, ddir_name(DDIR_WRITE)), version);
		if (version != 3)
			terse_dir(f, json_object_get(job, ddir_name(DDIR_TRIM)), version);
	}
	fprintf(f, ";%f%%;%f%%;%llu;%llu;%llu", num(job, "usr_cpu"), num(job, "sys_cpu"),
		unum(job, "ctx"), unum(job, "majf"), unum(job, "minf"));
	terse_levels(f, json_object_get(job, "iodepth_level"), depth_keys, "%3.1f%%");
	terse_levels(f, json_object_get(job, "latency_us"), us_keys, "%3.2f%%");
	terse_levels(f, json_object_get(job, "latency_ms"), ms_keys, "%3.2f%%");
	if (version >= 3)
		json_array_foreach((json_t *)du, i, d)
			fprintf(f, ";%s;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%",
				json_string_value(json_object_get(d, "name")), unum(d, "read_ios"),
				unum(d, "write_ios"), unum(d, "read_merges"), unum(d, "write_merges"),
				unum(d, "read_ticks"), unum(d, "write_ticks"), unum(d, "in_queue"),
				num(d, "util"));
	if (desc)
		fprintf(f, version == 2 ? "\n;%s" : ";%s", desc);
	fputc('\n', f);
}

int report_terse_write(FILE *f, const struct run_result *r, int version, struct err *e)
{
	json_t *doc, *jobs, *job;
	size_t i;

	if (version < CMDLINE_TERSE_MIN || version > CMDLINE_TERSE_MAX)
		return err_set(e, -EINVAL, EXIT_USAGE, "terse version %d: fio writes 2 to 5", version);
	doc = report_json_build(r, 0, e);
	if (!doc)
		return -ENOMEM;
	jobs = json_object_get(doc, "jobs");
	json_array_foreach(jobs, i, job)
		terse_job(f, doc, job, version);
	json_decref(doc);
	if (ferror(f))
		return err_set(e, -EIO, EXIT_OUTPUT, "cannot write the terse output");
	return 0;
}
