/*
 * resultread: load fio / iotrial JSON result files and summarise them (see
 * resultread.h for what is summed, averaged and merged, and how).  This file
 * reads a run's document: its jobs, their directions, latency, steady tails,
 * and the document's JSON itself; a job's options, the host's view, fio's
 * disk_util and a sweep's document are each read in their own file
 * (resultread_int.h says which).
 */
#include "result/resultread.h"
#include "result/resultread_int.h"
#include "lib/ddir.h"
#include "lib/vec.h"	/* vec_grow */

#include <errno.h>
#include <limits.h>	/* INT_MAX, UINT_MAX */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A count read from @o's @key into *@out: absent or not a number gives 0; a
 * number must be finite and lie in [@lo, @hi], else the file is refused
 * naming the key (a double outside an integer type's range is undefined
 * behaviour when cast, and a negative count is a misread).  @where is the
 * object's place ("read", "lat_ns"), NULL at the job's top level.
 */
static int jrange(struct load_ctx *c, const json_t *o, const char *key, const char *where,
		  double lo, double hi, double *out, size_t job)
{
	const json_t *v = json_object_get(o, key);
	double x;

	*out = 0;
	if (!json_is_number(v))
		return 0;
	x = json_number_value(v);
	if (isfinite(x) && x >= lo && x <= hi) {
		*out = x;
		return 0;
	}
	return err_set(c->e, -ERANGE, EXIT_USAGE, "%s: job %zu: \"%s%s%s\" = %.15g is out of range "
		       "(%.15g to %.15g)", c->name, job, where ? where : "", where ? "." : "", key,
		       x, lo, hi);
}

static int ju64(struct load_ctx *c, const json_t *o, const char *key, const char *where,
		uint64_t *out, size_t job)
{
	double x;
	int ret = jrange(c, o, key, where, 0, RR_U64_LIMIT, &x, job);

	*out = (uint64_t)x;
	return ret;
}

/*
 * An iotrial per-job key: in the job's "iotrial" object, where the runner
 * writes it, or on the job itself (results written before the move).
 */
static const json_t *iot_get(const json_t *job, const char *key)
{
	const json_t *v = json_object_get(json_object_get(job, "iotrial"), key);

	return v ? v : json_object_get(job, key);
}

/* The 99th percentile from a "percentile" object; NAN when absent. */
static double find_p99(const json_t *pct)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)pct, key, v) {
		if (fabs(strtod(key, NULL) - 99.0) < 1e-9 && json_is_number(v))
			return json_number_value(v);
	}
	return NAN;
}

static int add_bins(struct load_ctx *c, struct dir_acc *a, const json_t *bins, size_t job)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)bins, key, v) {
		uint64_t n;
		int ret;

		if (!json_is_number(v))
			continue;
		ret = ju64(c, bins, key, "bins", &n, job);
		if (ret)
			return ret;
		if (vec_grow((void **)&a->bins, &a->cap, a->nbins + 1, sizeof(*a->bins), 256))
			return -ENOMEM;
		a->bins[a->nbins].v = strtod(key, NULL);
		a->bins[a->nbins].n = n;
		a->nbins++;
	}
	return 0;
}

/* Latency mean, p99 and bins of one job's direction into the accumulator. */
static int acc_latency(struct load_ctx *c, struct dir_acc *a, const json_t *d, uint64_t ios,
		       double *mean, size_t job)
{
	const json_t *lat = json_object_get(d, "lat_ns");
	const json_t *clat = json_object_get(d, "clat_ns");
	const json_t *src;
	uint64_t n;
	double p99;
	int ret;

	ret = ju64(c, lat, "N", "lat_ns", &n, job);
	if (!ret && n == 0) {	/* lat disabled: completion latency is next best */
		lat = clat;
		ret = ju64(c, lat, "N", "clat_ns", &n, job);
	}
	if (ret)
		return ret;
	*mean = NAN;
	if (n > 0) {
		*mean = jnum(lat, "mean", NAN);
		a->lat_sum += *mean * (double)n;
		a->lat_n += n;
	}
	src = json_object_get(json_object_get(d, "lat_ns"), "percentile") ?
	      json_object_get(d, "lat_ns") : clat;
	p99 = find_p99(json_object_get(src, "percentile"));
	if (isnan(p99)) {
		a->p99_missing = 1;
	} else {
		a->p99_sum += p99 * (double)ios;
		a->p99_n += ios;
	}
	if (!json_is_object(json_object_get(src, "bins")))
		a->bins_missing = 1;
	else
		return add_bins(c, a, json_object_get(src, "bins"), job);
	return 0;
}

/* CV and count of iotrial's per-interval IOPS for one direction, outside the ramp. */
static void interval_stats(const json_t *intervals, const char *dname,
			   double *cv, uint64_t *count)
{
	double sum = 0, sq = 0, mean;
	uint64_t n = 0;
	size_t i;
	json_t *iv;

	json_array_foreach((json_t *)intervals, i, iv) {
		double x;

		if (json_is_true(json_object_get(iv, "ramp")))
			continue;
		x = jnum(json_object_get(iv, dname), "iops", NAN);
		if (isnan(x))
			continue;
		sum += x;
		sq += x * x;
		n++;
	}
	*count = n;
	*cv = NAN;
	if (n < 2)
		return;
	mean = sum / (double)n;
	if (mean > 0)
		*cv = sqrt(fmax(0, (sq - sum * mean) / (double)(n - 1))) / mean;
}

static void merge_samples(struct resultread_dir *d, double cv, uint64_t n)
{
	if (!isnan(cv) && (isnan(d->interval_cv) || cv > d->interval_cv))
		d->interval_cv = cv;
	if (n && (d->samples == 0 || n < d->samples))
		d->samples = n;
}

static int read_dir(struct load_ctx *c, struct resultread *r, struct resultread_job *j,
		    const json_t *job, int k, size_t idx)
{
	const json_t *d = json_object_get(job, ddir_name(k));
	struct resultread_dir *rd = &r->dir[k];
	uint64_t ios, rt, bytes;
	double cv, iops_mean;
	int ret;

	/*
	 * unified_rw_reporting=mixed: only the directions' sum was written; it
	 * reads as the first direction, the others as idle (so two such results
	 * compare sum with sum).
	 */
	if (!d && json_object_get(job, "mixed") && !json_object_get(job, ddir_name(0))) {
		if (k)
			return 0;
		d = json_object_get(job, "mixed");
	}
	if (!d) {
		if (k == 2)	/* trim is optional in older outputs */
			return 0;
		return bad(c, "no \"%s\" object", ddir_name(k), idx);
	}
	if (!json_is_object(d) || !json_is_number(json_object_get(d, "iops")) ||
	    !json_is_number(json_object_get(d, "total_ios")))
		return bad(c, "\"%s\" lacks numeric iops/total_ios", ddir_name(k), idx);
	ret = ju64(c, d, "total_ios", ddir_name(k), &ios, idx);
	if (!ret)
		ret = ju64(c, d, "io_bytes", ddir_name(k), &bytes, idx);
	if (!ret)
		ret = ju64(c, d, "runtime", ddir_name(k), &rt, idx);
	if (ret)
		return ret;
	j->ios[k] = ios;
	j->iops[k] = jnum(d, "iops", 0);
	j->lat_mean_ns[k] = NAN;
	j->clat_mean_ns[k] = ios ? jnum(json_object_get(d, "clat_ns"), "mean", NAN) : NAN;
	j->io_bytes += (uint64_t)jnum(d, "io_bytes", 0);
	c->all_ios += ios;
	if (ios == 0)
		return 0;
	rd->ios += ios;
	rd->bytes += bytes;
	rd->iops += j->iops[k];
	rd->bw_bytes += jnum(d, "bw_bytes", jnum(d, "bw", 0) * 1024);
	if (rt > rd->runtime_ms)
		rd->runtime_ms = rt;
	ret = acc_latency(c, &c->acc[k], d, ios, &j->lat_mean_ns[k], idx);
	if (ret == -ENOMEM)
		return err_set(c->e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	if (ret)
		return ret;
	if (json_is_array(iot_get(job, "intervals"))) {
		uint64_t n;

		interval_stats(iot_get(job, "intervals"), ddir_name(k), &cv, &n);
		merge_samples(rd, cv, n);
	} else {
		uint64_t n;

		ret = ju64(c, d, "iops_samples", ddir_name(k), &n, idx);
		if (ret)
			return ret;
		iops_mean = jnum(d, "iops_mean", 0);
		cv = n >= 2 && iops_mean > 0 ? jnum(d, "iops_stddev", NAN) / iops_mean : NAN;
		merge_samples(rd, cv, n);
	}
	return 0;
}

/* iotrial's held/lost verdict after the steady window. */
static void read_held(const json_t *ss, struct resultread_job *j)
{
	const json_t *h = json_object_get(ss, "held");
	double mean = jnum(ss, "mean", 0);

	j->steady_held = json_is_boolean(h) ? json_is_true(h) : -1;
	j->steady_lost_ms = (uint64_t)jnum(ss, "lost_ms", 0);
	j->steady_lost_pct = mean > 0 ? (jnum(ss, "lost_mean", mean) - mean) / mean * 100.0 : 0.0;
}

/*
 * The job's steady tail (iotrial steady.tail) added into r->tail[], the way
 * read_dir adds the whole-run figures into r->dir[]: counts and rates add,
 * latencies are I/O-weighted means (p99: of the jobs' own p99s, exact for one
 * job).  A job without a tail clears r->has_tail.
 */
static void read_tail(const json_t *job, struct resultread *r, size_t idx)
{
	const json_t *tail = json_object_get(iot_get(job, "steady"), "tail");
	uint64_t start, len;

	if (!json_is_object(tail)) {
		r->has_tail = 0;
		return;
	}
	if (idx == 0)
		r->has_tail = 1;
	r->nr_tails++;
	start = (uint64_t)jnum(tail, "start_ms", 0);
	len = (uint64_t)jnum(tail, "end_ms", 0) - start;
	if (start > r->tail_start_ms)
		r->tail_start_ms = start;
	if (!r->tail_len_ms || len < r->tail_len_ms)
		r->tail_len_ms = len;
	for (int k = 0; k < RESULTREAD_NDIR; k++) {
		const json_t *d = json_object_get(tail, ddir_name(k));
		const json_t *lat = json_object_get(d, "lat_ns");
		struct resultread_dir *rd = &r->tail[k];
		uint64_t ios = (uint64_t)jnum(d, "ios", 0);
		double w;

		if (!ios)
			continue;
		w = (double)ios / (double)(rd->ios + ios);
		rd->lat_mean_ns = isnan(rd->lat_mean_ns) ? jnum(lat, "mean", NAN) :
				  rd->lat_mean_ns + (jnum(lat, "mean", NAN) - rd->lat_mean_ns) * w;
		rd->lat_p99_ns = isnan(rd->lat_p99_ns) ? jnum(lat, "p99", NAN) :
				 rd->lat_p99_ns + (jnum(lat, "p99", NAN) - rd->lat_p99_ns) * w;
		rd->ios += ios;
		rd->bytes += (uint64_t)jnum(d, "bytes", 0);
		rd->iops += jnum(d, "iops", 0);
		rd->bw_bytes += jnum(d, "bw_bytes", 0);
		if (len > rd->runtime_ms)
			rd->runtime_ms = len;
	}
}

static void read_steady(const json_t *job, struct resultread_job *j)
{
	const json_t *ss = iot_get(job, "steady");	/* iotrial */
	const json_t *a;
	char buf[64];
	const char *what;

	j->steady = -1;
	if (!json_is_object(ss))
		ss = json_object_get(job, "steadystate");	/* fio */
	if (!json_is_object(ss))
		return;
	a = json_object_get(ss, "attained");
	j->steady = json_is_true(a) || (json_is_number(a) && json_number_value(a) != 0);
	what = resultread_opts_text(ss, "criterion", buf, sizeof(buf));
	if (json_object_get(ss, "ss"))
		what = resultread_opts_text(ss, "ss", buf, sizeof(buf));
	copy_str(j->steady_what, sizeof(j->steady_what), what);
	read_held(ss, j);
}

static int read_job(struct load_ctx *c, struct resultread *r, const json_t *root,
		    const json_t *job, size_t idx)
{
	struct resultread_job *j = &r->jobs[idx];
	json_t *opts;
	double x;
	int k, ret;

	if (!json_is_object(job))
		return bad(c, "%s", "not an object", idx);
	copy_str(j->name, sizeof(j->name), json_string_value(json_object_get(job, "jobname")));
	ret = jrange(c, job, "groupid", NULL, 0, UINT_MAX, &x, idx);
	if (ret)
		return ret;
	j->groupid = (unsigned)x;
	ret = jrange(c, job, "error", NULL, INT_MIN, INT_MAX, &x, idx);
	if (ret)
		return ret;
	j->error = (int)x;
	j->coe = json_object_get(job, "total_err") != NULL;
	ret = ju64(c, job, "total_err", NULL, &j->total_err, idx);
	if (ret)
		return ret;
	opts = resultread_opts_merge(json_object_get(root, "global options"),
			     json_object_get(job, "job options"));
	if (!opts)
		return err_set(c->e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	resultread_opts_resolve(opts, json_is_object(json_object_get(json_object_get(job, "iotrial"), "job")) ?
			json_object_get(json_object_get(job, "iotrial"), "job") : NULL, j);
	resultread_time_job(job, opts, j->rw, j->ioengine, j->direct, j->numjobs, &j->time);
	if (idx == 0)
		r->options = opts;
	else
		json_decref(opts);
	for (k = 0; k < RESULTREAD_NDIR; k++) {
		ret = read_dir(c, r, j, job, k, idx);
		if (ret)
			return ret;
	}
	ret = ju64(c, job, "job_runtime", NULL, &j->job_runtime_ms, idx);
	if (ret)
		return ret;
	j->cpu_pct = jnum(job, "usr_cpu", NAN) + jnum(job, "sys_cpu", NAN);
	if (!isnan(j->cpu_pct) && j->job_runtime_ms > 0) {
		c->cpu_ns += j->cpu_pct / 100 * (double)j->job_runtime_ms * 1e6;
		c->cpu_known = 1;
	}
	read_steady(job, j);
	copy_str(j->bottleneck, sizeof(j->bottleneck), json_string_value(json_object_get(
		json_object_get(json_object_get(job, "iotrial"), "bottleneck"), "verdict")));
	read_tail(job, r, idx);
	return 0;
}

static int cmp_bin(const void *pa, const void *pb)
{
	double x = ((const struct rr_bin *)pa)->v, y = ((const struct rr_bin *)pb)->v;

	return (x > y) - (x < y);
}

/* The first bin value whose cumulative count reaches 99% of all. */
static double bins_p99(struct dir_acc *a)
{
	uint64_t total = 0, cum = 0;
	size_t i;

	for (i = 0; i < a->nbins; i++)
		total += a->bins[i].n;
	if (!total)
		return NAN;
	qsort(a->bins, a->nbins, sizeof(*a->bins), cmp_bin);
	for (i = 0; i < a->nbins; i++) {
		cum += a->bins[i].n;
		if ((double)cum >= 0.99 * (double)total)
			return a->bins[i].v;
	}
	return a->bins[a->nbins - 1].v;
}

static void finish(struct load_ctx *c, struct resultread *r)
{
	int k;

	r->total_iops = 0;
	for (k = 0; k < RESULTREAD_NDIR; k++) {
		struct resultread_dir *d = &r->dir[k];
		struct dir_acc *a = &c->acc[k];

		r->total_iops += d->iops;
		if (a->lat_n)
			d->lat_mean_ns = a->lat_sum / (double)a->lat_n;
		if (d->ios && !a->bins_missing && a->nbins) {
			d->lat_p99_ns = bins_p99(a);
			d->p99_from_bins = 1;
		} else if (d->ios && !a->p99_missing && a->p99_n) {
			d->lat_p99_ns = a->p99_sum / (double)a->p99_n;
		}
	}
	if (c->cpu_known && c->all_ios)
		r->cpu_per_io_ns = c->cpu_ns / (double)c->all_ios;
	/* the whole run kept apart, so that resultwindow can switch back and forth */
	memcpy(r->whole, r->dir, sizeof(r->whole));
	r->whole_total_iops = r->total_iops;
	r->tail_total_iops = 0;
	for (k = 0; k < RESULTREAD_NDIR; k++) {
		/* the run's interval noise and sample count describe the tail too */
		r->tail[k].interval_cv = r->dir[k].interval_cv;
		r->tail[k].samples = r->dir[k].samples;
		r->tail_total_iops += r->tail[k].iops;
	}
}

static void read_iotrial(struct resultread *r, const json_t *it)
{
	char buf[64];
	const json_t *p = json_object_get(it, "partial");
	const char *v = resultread_opts_text(it, "version", buf, sizeof(buf));

	r->is_iotrial = 1;
	snprintf(r->version, sizeof(r->version), "iotrial-%.48s", v ? v : "?");
	copy_str(r->clock_source, sizeof(r->clock_source),
		 resultread_opts_text(it, "clock_source", buf, sizeof(buf)));
	r->partial = json_is_true(p) || (json_is_number(p) && json_number_value(p) != 0);
	if (json_is_object(json_object_get(it, "environment")))
		r->env = json_incref(json_object_get(it, "environment"));
	/* an MPI run: every job entry stands for its threads on every rank */
	p = json_object_get(json_object_get(it, "mpi"), "ranks");
	if (json_is_integer(p) && json_integer_value(p) > 1 && json_integer_value(p) <= UINT32_MAX)
		r->nranks = (unsigned)json_integer_value(p);
}

static int build(struct load_ctx *c, struct resultread *r, const json_t *root)
{
	const json_t *jobs = json_object_get(root, "jobs");
	const json_t *it = json_object_get(root, "iotrial");
	size_t i;
	int k, ret;

	if (!json_is_object(root))
		return bad(c, "%s", "not a fio result: the JSON is not an object", (size_t)-1);
	if (!jobs && json_is_array(json_object_get(root, "steps")))
		return resultread_sweep_read(c, r, root);
	if (!json_is_array(jobs))
		return bad(c, "%s", "not a fio result: no \"jobs\" array", (size_t)-1);
	if (!json_is_string(json_object_get(root, "fio version")) && !json_is_object(it))
		return bad(c, "%s", "not a fio result: no \"fio version\" or \"iotrial\" object",
			   (size_t)-1);
	if (json_array_size(jobs) == 0)
		return bad(c, "%s", "no jobs in the result", (size_t)-1);
	r->nranks = 1;
	resultread_host_read(r, json_object_get(it, "host"));
	if (json_is_object(it))
		read_iotrial(r, it);
	else
		copy_str(r->version, sizeof(r->version),
			 json_string_value(json_object_get(root, "fio version")));
	r->nr_jobs = json_array_size(jobs);
	r->jobs = calloc(r->nr_jobs, sizeof(*r->jobs));
	if (!r->jobs)
		return err_set(c->e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	for (k = 0; k < RESULTREAD_NDIR; k++) {
		r->dir[k].lat_mean_ns = NAN;
		r->dir[k].lat_p99_ns = NAN;
		r->dir[k].interval_cv = NAN;
	}
	r->cpu_per_io_ns = NAN;
	for (k = 0; k < RESULTREAD_NDIR; k++) {
		r->tail[k].lat_mean_ns = NAN;
		r->tail[k].lat_p99_ns = NAN;
	}
	for (i = 0; i < r->nr_jobs; i++) {
		ret = read_job(c, r, root, json_array_get(jobs, i), i);
		if (ret)
			return ret;
	}
	finish(c, r);
	resultread_disk_names(r, json_object_get(root, "disk_util"));
	ret = resultread_disk_read(c, r, json_object_get(root, "disk_util"));
	if (ret == -ENOMEM)
		return err_set(c->e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	if (ret)
		return ret;	/* an out-of-range counter, named in c->e */
	/* so that compare can put the runs of both sides in order */
	r->timestamp_ms = resultread_timestamp_of(root);
	return 0;
}

/* Where the JSON starts: the first line whose first non-blank is '{'. */
static const char *json_start(const char *text, size_t len, int *skipped)
{
	size_t i = 0;

	*skipped = 0;
	while (i < len) {
		size_t j = i;

		while (j < len && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r'))
			j++;
		if (j < len && text[j] == '{')
			return text + j;
		while (j < len && text[j] != '\n')
			j++;
		i = j + 1;
		(*skipped)++;
	}
	return NULL;
}

static int only_blank(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			return 0;
	return 1;
}

int resultread_from_json(const json_t *root, const char *name, struct resultread **out,
			 struct err *e)
{
	struct load_ctx c = { .name = name, .e = e };
	struct resultread *r;
	int ret, k;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	r->path = strdup(name);
	ret = r->path ? build(&c, r, root) : err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	for (k = 0; k < RESULTREAD_NDIR; k++)
		free(c.acc[k].bins);
	if (ret) {
		resultread_free(r);
		return ret;
	}
	*out = r;
	return 0;
}

/*
 * What follows the JSON document.  fio's --output-format=json,normal puts its
 * text report on the lines after it: accepted.  Anything else on the line of
 * the closing brace is garbage, and a second document (a line starting with
 * '{': fio's --status-interval writes one per interval) would otherwise be
 * silently ignored: both are refused.
 */
static int check_rest(const char *rest, size_t len, const char *name, struct err *e)
{
	size_t i = 0;

	while (i < len && (rest[i] == ' ' || rest[i] == '\t' || rest[i] == '\r'))
		i++;
	if (i < len && rest[i] != '\n')
		return err_set(e, -EINVAL, EXIT_USAGE,
			       "%s: unexpected data after the JSON document's closing brace", name);
	while (i < len) {
		size_t j = i + 1;

		while (j < len && (rest[j] == ' ' || rest[j] == '\t' || rest[j] == '\r'))
			j++;
		if (j < len && (rest[j] == '{' || rest[j] == '['))
			return err_set(e, -EINVAL, EXIT_USAGE,
				       "%s: holds more than one JSON document (fio --status-interval "
				       "output?): keep only the final one", name);
		while (j < len && rest[j] != '\n')
			j++;
		i = j;
	}
	return 0;
}

int resultread_parse(const char *text, size_t len, const char *name,
		     struct resultread **out, struct err *e)
{
	json_error_t jerr;
	const char *start;
	json_t *root;
	int skipped, ret;

	*out = NULL;
	if (only_blank(text, len))
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: empty file", name);
	start = json_start(text, len, &skipped);
	if (!start)
		return err_set(e, -EINVAL, EXIT_USAGE,
			       "%s: not JSON (no line starts with '{')", name);
	root = json_loadb(start, len - (size_t)(start - text), JSON_DISABLE_EOF_CHECK, &jerr);
	if (!root)
		return err_set(e, -EINVAL, EXIT_USAGE,
			       "%s: invalid or truncated JSON at line %d: %s",
			       name, jerr.line + skipped, jerr.text);
	ret = check_rest(start + jerr.position, len - (size_t)(start - text) - jerr.position,
			 name, e);
	if (!ret)
		ret = resultread_from_json(root, name, out, e);
	json_decref(root);
	return ret;
}

void resultread_free(struct resultread *r)
{
	if (!r)
		return;
	free(r->path);
	free(r->jobs);
	free(r->du);
	json_decref(r->options);
	json_decref(r->env);
	json_decref(r->doc);
	free(r);
}
