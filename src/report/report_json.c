/*
 * report_json: fio-compatible JSON output (see report_json.h).
 *
 * The document is built as a jansson tree and dumped once.  Builders return a
 * new object or NULL; jset() attaches a value and remembers any failure, so a
 * single out-of-memory check at the end covers the whole tree (jansson frees
 * a value it fails to attach).
 */
#include "report/report_json.h"
#include "lib/version.h"
#include "parse/opt.h"
#include "measure/series.h"
#include "steady/steady.h"
#include "lib/utf8.h"

#include <errno.h>
#include <math.h>	/* isfinite, llround */
#include <stdlib.h>	/* qsort */
#include <string.h>
#include <time.h>	/* ctime_r */
#include "result/mpimerge.h"	/* client_stats */
#include "report/report_calc.h"
#include "report/report_ranks.h"
#include "report/report_breakdown.h"
#include "steady/steady_out.h"

#ifndef IOTRIAL_VERSION
#define IOTRIAL_VERSION "0.0.0"
#endif

/* obj[key] = v (stolen); a NULL obj or v marks the build as failed. */
static void jset(json_t *o, const char *k, json_t *v, int *bad)
{
	if (json_object_set_new(o, k, v))
		*bad = 1;
}

/*
 * A JSON string of @s, which need not be valid UTF-8: job names, option
 * values, file names and error texts come from users and file systems in any
 * encoding, and jansson takes only UTF-8.  Invalid bytes become U+FFFD
 * (utf8.h) rather than losing the report.
 */
static json_t *jstr(const char *s)
{
	return s ? utf8_json(s) : NULL;
}

/* obj[key] = v where @key comes from the user (see jstr). */
static void jset_user(json_t *o, const char *k, json_t *v, int *bad)
{
	char *c;

	if (!json_object_set_new(o, k, json_incref(v))) {
		json_decref(v);
		return;
	}
	c = utf8_fix(k);
	jset(o, c ? c : "", v, bad);
	if (!c)
		*bad = 1;
	free(c);
}

static json_t *jint(uint64_t v)
{
	/* json_int_t is signed 64-bit; no counter reaches 2^63 */
	return json_integer((json_int_t)v);
}

/* jansson refuses NaN and infinities; a statistic of nothing is 0. */
static json_t *jreal(double v)
{
	return json_real(isfinite(v) ? v : 0.0);
}

/* Sampled min/max are whole numbers in fio (integer samples). */
static json_t *jround(double v)
{
	return json_integer(isfinite(v) ? (json_int_t)llround(v) : 0);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* "percentile": {"99.000000": ns, ...}; fio sorts the list, so do we. */
static json_t *json_percentiles(const struct hist *h, const struct job *job)
{
	double p[REPORT_PCT_MAX];
	uint64_t v[REPORT_PCT_MAX];
	const double *list;
	size_t n = report_percentile_list(job, &list);
	json_t *o = json_object();
	char key[64];
	int bad = 0;

	if (n > REPORT_PCT_MAX)
		n = REPORT_PCT_MAX;
	memcpy(p, list, n * sizeof(*p));
	qsort(p, n, sizeof(*p), cmp_double);
	hist_percentiles(h, p, n, v);
	for (size_t i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "%f", p[i]);
		jset(o, key, jint(v[i]), &bad);
	}
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* json+ "bins": {"<bucket midpoint>": count} for non-empty buckets. */
static json_t *json_bins(const struct hist *h)
{
	json_t *o = json_object();
	char key[32];
	int bad = 0;

	for (unsigned i = 0; i < HIST_NR; i++) {
		if (!h->b[i])
			continue;
		snprintf(key, sizeof(key), "%llu", (unsigned long long)hist_bucket_value(i));
		jset(o, key, jint(h->b[i]), &bad);
	}
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* {min, max, mean, stddev, N [, percentile [, bins]]}; @pct: percentiles asked for. */
static json_t *json_lat(const struct moments *m, const struct hist *h, int pct,
			const struct job *job, int plus)
{
	json_t *o = json_object();
	int bad = 0;

	jset(o, "min", jint(m->n ? m->min : 0), &bad);
	jset(o, "max", jint(m->n ? m->max : 0), &bad);
	jset(o, "mean", jreal(m->n ? m->mean : 0.0), &bad);
	jset(o, "stddev", jreal(moments_stddev(m)), &bad);
	jset(o, "N", jint(m->n), &bad);
	/* like fio: no percentiles (nor bins) for a latency with no samples */
	if (pct && m->n && hist_total(h)) {
		jset(o, "percentile", json_percentiles(h, job), &bad);
		if (plus)
			jset(o, "bins", json_bins(h), &bad);
	}
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static long json_prio_key(unsigned ioprio, const struct job *job)
{
	return job && (int)ioprio == cmdprio_job_ioprio(&job->cmdprio) ? -1 : (long)ioprio;
}

/* cmdprio: fio's "prios", one entry per priority used. */
static json_t *json_prios(const struct cmdprio_result *pr, unsigned d, const struct job *job,
			  int pct, int plus)
{
	unsigned idx[CMDPRIO_STATS_MAX], n = pr->nr[d], i, k;
	json_t *arr = json_array();
	int bad = !arr;

	/* the job's own priority first, then by value: fio 3.33's order, as observed */
	for (i = 0; i < n; i++) {	/* insertion sort of a handful */
		for (k = i; k > 0 && json_prio_key(pr->s[d][idx[k - 1]].ioprio, job) >
				     json_prio_key(pr->s[d][i].ioprio, job); k--)
			idx[k] = idx[k - 1];
		idx[k] = i;
	}
	for (i = 0; !bad && i < n; i++) {
		const struct cmdprio_stat *st = &pr->s[d][idx[i]];
		json_t *o = json_object();

		jset(o, "prioclass", jint(st->ioprio >> 13), &bad);
		jset(o, "prio", jint(st->ioprio & 0x1fff), &bad);
		/* with lat_percentiles=1 the figures are total latency (fio's key says so) */
		jset(o, job && job->lat_percentiles ? "lat_ns" : "clat_ns",
		     json_lat(&st->clat, &st->hist, pct, job, plus), &bad);
		if (!o || json_array_append_new(arr, o))
			bad = 1;
	}
	if (bad) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}

static json_t *json_dir(const struct dir_result *d, const struct job *job, int plus,
			const struct cmdprio_result *pr, unsigned dd)
{
	struct report_pct_on on;
	struct report_rates rt;
	json_t *o = json_object();
	int bad = 0;

	report_pct_on(job, &on);
	report_rates(d, &rt);
	jset(o, "io_bytes", jint(d->io_bytes), &bad);
	jset(o, "io_kbytes", jint(rt.io_kbytes), &bad);
	jset(o, "bw_bytes", jint(rt.bw_bytes), &bad);
	jset(o, "bw", jint(rt.bw_kib), &bad);
	jset(o, "iops", jreal(rt.iops), &bad);
	jset(o, "runtime", jint(d->runtime_ms), &bad);
	jset(o, "total_ios", jint(d->total_ios), &bad);
	jset(o, "short_ios", jint(d->short_ios), &bad);
	jset(o, "drop_ios", jint(d->drop_ios), &bad);
	jset(o, "slat_ns", json_lat(&d->slat, &d->slat_hist, on.slat, job, plus), &bad);
	jset(o, "clat_ns", json_lat(&d->clat, &d->clat_hist, on.clat, job, plus), &bad);
	jset(o, "lat_ns", json_lat(&d->lat, &d->lat_hist, on.lat, job, plus), &bad);
	/* fio 3.33: only for a direction whose I/Os had more than one priority */
	if (pr && pr->nr[dd] > 1)
		jset(o, "prios", json_prios(pr, dd, job, job && job->lat_percentiles ? on.lat : on.clat,
					    plus), &bad);
	jset(o, "bw_min", jround(d->bw_kib.n ? d->bw_kib.min : 0), &bad);
	jset(o, "bw_max", jround(d->bw_kib.n ? d->bw_kib.max : 0), &bad);
	jset(o, "bw_agg", jreal(d->bw_agg_pct), &bad);
	jset(o, "bw_mean", jreal(d->bw_kib.n ? d->bw_kib.mean : 0), &bad);
	jset(o, "bw_dev", jreal(sample_stat_stddev(&d->bw_kib)), &bad);
	jset(o, "bw_samples", jint(d->bw_kib.n), &bad);
	jset(o, "iops_min", jround(d->iops.n ? d->iops.min : 0), &bad);
	jset(o, "iops_max", jround(d->iops.n ? d->iops.max : 0), &bad);
	jset(o, "iops_mean", jreal(d->iops.n ? d->iops.mean : 0), &bad);
	jset(o, "iops_stddev", jreal(sample_stat_stddev(&d->iops)), &bad);
	jset(o, "iops_samples", jint(d->iops.n), &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *json_sync(const struct job_result *jr, int plus)
{
	struct report_pct_on on;
	json_t *o = json_object();
	int bad = 0;

	report_pct_on(jr->job, &on);
	jset(o, "total_ios", jint(jr->sync_ios), &bad);
	jset(o, "lat_ns", json_lat(&jr->sync_lat, &jr->sync_hist, on.sync, jr->job, plus), &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* {"label": percent, ...} for @n counters. */
static json_t *json_pct_map(const uint64_t *map, size_t n, const char *(*label)(unsigned))
{
	double pct[RESULT_DEPTH_NR + 1];
	json_t *o = json_object();
	int bad = 0;

	report_pct(map, n, pct);
	for (size_t i = 0; i < n; i++)
		jset(o, label((unsigned)i), jreal(pct[i]), &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static void json_depths(json_t *o, const struct job_result *jr, int *bad)
{
	uint64_t sub[REPORT_SUBMIT_NR], comp[REPORT_SUBMIT_NR];

	report_submit_fold(jr->depth_submit, sub);
	report_submit_fold(jr->depth_complete, comp);
	jset(o, "iodepth_level", json_pct_map(jr->depth_level, RESULT_DEPTH_NR,
					      report_depth_label), bad);
	jset(o, "iodepth_submit", json_pct_map(sub, REPORT_SUBMIT_NR, report_submit_label), bad);
	jset(o, "iodepth_complete", json_pct_map(comp, REPORT_SUBMIT_NR, report_submit_label), bad);
}

/* latency_ns / latency_us / latency_ms: share of I/Os per latency range. */
static void json_lat_dist(json_t *o, const struct job_result *jr, int *bad)
{
	struct report_lat_dist ld;
	json_t *ns = json_object(), *us = json_object(), *ms = json_object();
	char key[16];

	report_lat_dist(jr, &ld);
	for (unsigned i = 0; i < REPORT_LAT_NR; i++) {
		snprintf(key, sizeof(key), "%u", report_lat_label(i));
		jset(ns, key, jreal(ld.ns[i]), bad);
		jset(us, key, jreal(ld.us[i]), bad);
	}
	for (unsigned i = 0; i < REPORT_LAT_MS_NR - 1; i++) {
		snprintf(key, sizeof(key), "%u", report_lat_label(i));
		jset(ms, key, jreal(ld.ms[i]), bad);
	}
	jset(ms, ">=2000", jreal(ld.ms[REPORT_LAT_MS_NR - 1]), bad);
	jset(o, "latency_ns", ns, bad);
	jset(o, "latency_us", us, bad);
	jset(o, "latency_ms", ms, bad);
}

/* Options as typed, in order; a bare flag has the value "". */
static json_t *json_opts(const struct job_kv *kv, size_t n)
{
	json_t *o = json_object();
	int bad = 0;

	for (size_t i = 0; i < n; i++)
		jset_user(o, kv[i].key, jstr(kv[i].val ? kv[i].val : ""), &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/*
 * fio's "steadystate" object, written only when the job had fio's ss= rule;
 * fio places it last in the job object, right here.
 */
static void json_job_steadystate(json_t *o, const struct job_result *jr, int *bad)
{
	json_t *ss = NULL;

	if (!jr->steady || jr->steady->cfg.rule != STEADY_FIO)
		return;
	if (steady_fio_json(jr->steady, &ss) || json_object_set_new(o, "steadystate", ss))
		*bad = 1;
}

/* A device view (docs/json.md, the device view): the keys of disk_util[].iotrial and intervals[].device. */
static json_t *json_disk_view(const struct disk_view *v, int with_name)
{
	json_t *o = json_object();
	int bad = 0;

	if (with_name)
		jset(o, "name", jstr(v->name), &bad);
	jset(o, "read_iops", jreal(v->read_iops), &bad);
	jset(o, "write_iops", jreal(v->write_iops), &bad);
	jset(o, "read_lat_ns_mean", jreal(v->read_lat_ns_mean), &bad);
	jset(o, "write_lat_ns_mean", jreal(v->write_lat_ns_mean), &bad);
	jset(o, "read_queue_depth", jreal(v->read_queue_depth), &bad);
	jset(o, "write_queue_depth", jreal(v->write_queue_depth), &bad);
	jset(o, "queue_depth", jreal(v->queue_depth), &bad);
	jset(o, "util", jreal(v->util), &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/*
 * intervals[k].device: the first device's view of the interval.  The views
 * are the first thread's, one per its series interval (devwatch.h); merged
 * group series align intervals by index within ramp and measured phases
 * (series_merge), so the views are matched the same way, not by t_ms.
 */
static void json_intervals_device(json_t *ivs, const struct job_result *jr, int *bad)
{
	size_t k, nr_ramp = 0, seen[2] = { 0, 0 };
	json_t *e;

	/* ramp views come first, as ramp intervals do */
	while (nr_ramp < jr->nr_dev_iv && jr->dev_iv[nr_ramp].ramp)
		nr_ramp++;
	json_array_foreach(ivs, k, e) {
		int ramp = json_is_true(json_object_get(e, "ramp"));
		size_t m = ramp ? seen[1] : nr_ramp + seen[0];

		seen[ramp]++;
		if (ramp ? m < nr_ramp : m < jr->nr_dev_iv)
			if (jr->dev_iv[m].v.dur_ns)
				jset(e, "device", json_disk_view(&jr->dev_iv[m].v, 1), bad);
	}
}

/* jobs[i].iotrial.bottleneck (docs/json.md, the device view). */
static void json_bottleneck(json_t *iot, const struct job_result *jr, int *bad)
{
	const struct bottleneck_verdict *b = &jr->bottleneck;

	if (!b->verdict[0])
		return;
	jset(iot, "bottleneck", json_pack("{s:s, s:s}", "verdict", b->verdict, "evidence", b->evidence),
	     bad);
}

/*
 * jobs[i].iotrial.lat_from_due_ns (rated jobs): per direction with samples,
 * fio's latency object of the latency from each I/O's slot in the rate
 * schedule (result.h), with the job's percentiles (and bins with json+).
 */
static void json_lat_from_due(json_t *iot, const struct job_result *jr, int plus, int *bad)
{
	json_t *o = NULL;

	for (int d = 0; d < DDIR_NR; d++) {
		const struct dir_result *dr = &jr->dir[d];

		if (!dr->due.n)
			continue;
		if (!o && !(o = json_object())) {
			*bad = 1;
			return;
		}
		jset(o, ddir_name(d), json_lat(&dr->due, &dr->due_hist, 1, jr->job, plus), bad);
	}
	if (o)
		jset(iot, "lat_from_due_ns", o, bad);
}

static void json_job_iotrial_extra(json_t *iot, const struct job_result *jr, int plus, int *bad)
{
	struct job_kv *kv = NULL;
	size_t nr = 0, i;
	json_t *v = NULL;

	if (jr->job && !opt_job_resolved(jr->job, &kv, &nr)) {
		json_t *o = json_object();

		for (i = 0; o && i < nr; i++)
			jset_user(o, kv[i].key, kv[i].val ? jstr(kv[i].val) : json_null(), bad);
		opt_kv_free(kv, nr);
		if (!o || json_object_set_new(iot, "job", o))
			*bad = 1;
	}

	if (jr->series) {
		if (series_to_json(jr->series, plus ? SERIES_JSON_HIST : 0, &v) ||
		    json_object_set_new(iot, "intervals", v))
			*bad = 1;
		else
			json_intervals_device(v, jr, bad);
	}
	json_lat_from_due(iot, jr, plus, bad);
	json_bottleneck(iot, jr, bad);
	report_breakdown_job_json(iot, jr, bad);	/* breakdown.h */
	if (jr->steady) {
		v = NULL;
		if (steady_to_json(jr->steady, &v) || json_object_set_new(iot, "steady", v))
			*bad = 1;
	}
}

static json_t *json_job_iotrial(const struct job_result *jr, int plus)
{
	json_t *o = json_object();
	int bad = 0;

	jset(o, "nr_threads", jint(jr->nr_threads), &bad);
	jset(o, "partial", json_boolean(jr->partial), &bad);
	jset(o, "first_error", jstr(jr->first_error), &bad);
	/* zonemode=zbd: fio prints its zone resets in the text only */
	if (jr->job && jr->job->zonemode == JOB_ZONE_ZBD)
		jset(o, "zone_resets", jint(jr->zone_resets), &bad);
	if (jr->verify.method) {	/* verify=: the read-back pass, not counted as reads */
		json_t *v = json_object();

		jset(v, "method", jstr(verify_method_name((enum verify_method)jr->verify.method)), &bad);
		jset(v, "blocks", jint(jr->verify.blocks), &bad);
		jset(v, "bytes", jint(jr->verify.bytes), &bad);
		jset(v, "failures", jint(jr->verify.failures), &bad);
		jset(v, "first_failure", jr->verify.failures ? jstr(jr->verify.fail_msg) : json_null(), &bad);
		jset(v, "failure_offset", jr->verify.failures ? jint(jr->verify.fail_offset) : json_null(), &bad);
		/* false for time_based (fio starts no read-back phase either) or do_verify=0 */
		jset(v, "end_pass", json_boolean(!jr->verify.no_pass), &bad);
		jset(o, "verify", v, &bad);
	}
	json_job_iotrial_extra(o, jr, plus, &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* unified_rw_reporting: the directions summed, priorities merged. */
static json_t *json_mixed(const struct job_result *jr, int plus)
{
	struct dir_result *m = malloc(sizeof(*m));
	struct cmdprio_result *pr = jr->prio ? malloc(sizeof(*pr)) : NULL;
	json_t *o = NULL;

	if (m && (pr || !jr->prio)) {
		result_dir_mixed(jr, m);
		if (pr)
			cmdprio_result_mixed(jr->prio, pr);
		o = json_dir(m, jr->job, plus, pr, DDIR_READ);
	}
	free(m);
	free(pr);
	return o;
}

static json_t *json_job(const struct job_result *jr, int plus)
{
	const struct job *job = jr->job;
	json_t *o = json_object();
	int bad = 0;

	jset(o, "jobname", jstr(jr->name), &bad);
	jset(o, "groupid", jint(jr->groupid), &bad);
	jset(o, "error", json_integer(result_job_error(jr)), &bad);
	jset(o, "eta", jint(0), &bad);
	jset(o, "elapsed", jint(jr->elapsed_s), &bad);
	jset(o, "job options", json_opts(job ? job->opts : NULL, job ? job->opts_nr : 0), &bad);
	/* unified_rw_reporting: mixed writes only the sum ("mixed"), both adds it */
	if (!job || job->unified_rw_reporting != 1)
		for (unsigned d = 0; d < DDIR_NR; d++)
			jset(o, ddir_name(d), json_dir(&jr->dir[d], job, plus, jr->prio, d), &bad);
	if (job && job->unified_rw_reporting)
		jset(o, "mixed", json_mixed(jr, plus), &bad);
	jset(o, "sync", json_sync(jr, plus), &bad);
	jset(o, "job_runtime", jint(jr->job_runtime_ms), &bad);
	jset(o, "usr_cpu", jreal(jr->usr_cpu), &bad);
	jset(o, "sys_cpu", jreal(jr->sys_cpu), &bad);
	jset(o, "ctx", jint(jr->ctx), &bad);
	jset(o, "majf", jint(jr->majf), &bad);
	jset(o, "minf", jint(jr->minf), &bad);
	json_depths(o, jr, &bad);
	json_lat_dist(o, jr, &bad);
	if (jr->coe) {		/* fio writes these two only with continue_on_error */
		jset(o, "total_err", jint(jr->total_err), &bad);
		jset(o, "first_error", json_integer(jr->first_err), &bad);
	}
	/* latency_target.h, in fio's units: the target in ns, the window in us */
	jset(o, "latency_depth", jint(jr->lat_depth ? jr->lat_depth : job ? job->iodepth : 1), &bad);
	jset(o, "latency_target", jint(job ? job->lat_target.target_us * 1000 : 0), &bad);
	jset(o, "latency_percentile", jreal(job ? job->lat_target.percentile : 100.0), &bad);
	jset(o, "latency_window", jint(job ? job->lat_target.window_us : 0), &bad);
	json_job_steadystate(o, jr, &bad);
	jset(o, "iotrial", json_job_iotrial(jr, plus), &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/*
 * MPI mode: fio's client/server layout, one job object per rank and job with
 * the rank's "hostname" (and our "rank"), then an "All clients" entry per
 * merged job, whose "hostname" is the last rank's as in fio's output.  The
 * merged jobs also stay in "jobs", which iotrial's own readers use.
 */
static json_t *json_client_stats(const struct run_result *r, int plus)
{
	const struct result_ranks *set = r->ranks;
	json_t *arr = json_array(), *o;
	const char *last = set->nr ? set->ranks[set->nr - 1].info.host : "";
	int bad = !arr;

	for (size_t i = 0; !bad && i < set->nr; i++) {
		const struct result_rank *rk = &set->ranks[i];

		for (size_t k = 0; !bad && k < rk->nr_jobs; k++) {
			o = json_job(&rk->jobs[k], plus);
			if (!o || json_array_append_new(arr, o)) {
				bad = 1;
				break;
			}
			jset(o, "hostname", jstr(rk->info.host), &bad);
			jset(o, "rank", jint(rk->info.rank), &bad);
		}
	}
	for (size_t i = 0; !bad && i < r->nr_jobs; i++) {
		o = json_job(&r->jobs[i], plus);
		if (!o || json_array_append_new(arr, o)) {
			bad = 1;
			break;
		}
		jset(o, "jobname", jstr("All clients"), &bad);
		jset(o, "hostname", jstr(last), &bad);
	}
	if (bad) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}

static json_t *json_disk(const struct disk_util *du)
{
	json_t *o = json_object();
	int bad = 0;

	jset(o, "name", jstr(du->name), &bad);
	jset(o, "read_ios", jint(du->read_ios), &bad);
	jset(o, "write_ios", jint(du->write_ios), &bad);
	jset(o, "read_merges", jint(du->read_merges), &bad);
	jset(o, "write_merges", jint(du->write_merges), &bad);
	jset(o, "read_ticks", jint(du->read_ticks), &bad);
	jset(o, "write_ticks", jint(du->write_ticks), &bad);
	jset(o, "in_queue", jint(du->in_queue), &bad);
	jset(o, "util", jreal(du->util), &bad);
	if (du->view.dur_ns)
		jset(o, "iotrial", json_disk_view(&du->view, 0), &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *json_run_iotrial(const struct run_result *r)
{
	json_t *o = json_object();
	int bad = 0;

	jset(o, "version", json_string(version_number()), &bad);
	jset(o, "git_revision", version_git()[0] ? jstr(version_git()) : json_null(), &bad);
	jset(o, "clock_source", r->clock_source ? jstr(r->clock_source) : json_null(), &bad);
	jset(o, "clock_ghz", jreal(r->clock_ghz), &bad);
	jset(o, "partial", json_boolean(r->partial), &bad);
	jset(o, "signal", json_integer(r->signal), &bad);
	if (r->env)
		jset(o, "environment", json_incref((json_t *)r->env), &bad);
	if (r->warnings)
		jset(o, "warnings", json_incref((json_t *)r->warnings), &bad);
	if (!bad && report_ranks_json(o, r))
		bad = 1;
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* fio's "time": ctime() without its newline. */
static json_t *json_time(time_t t)
{
	char buf[64];
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y", &tm))
		buf[0] = '\0';
	return jstr(buf);
}

/* --idle-prof's figures under fio's keys: percentages, the unit in microseconds. */
static json_t *json_idle(const struct idleprof_result *ip)
{
	json_t *o = json_object();
	char key[32];
	int bad = 0;

	jset(o, "system", json_real(ip->system_pct), &bad);
	for (size_t i = 0; ip->mode == IDLEPROF_PERCPU && i < ip->nr_cpus; i++) {
		snprintf(key, sizeof(key), "cpu-%d", ip->cpus[i].cpu);
		jset(o, key, json_real(ip->cpus[i].pct), &bad);
	}
	jset(o, "unit_mean", json_real(ip->unit_mean_us), &bad);
	jset(o, "unit_stddev", json_real(ip->unit_stddev_us), &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *report_json_build(const struct run_result *r, int plus, struct err *e)
{
	json_t *o = json_object(), *jobs = json_array(), *du;
	int bad = 0;

	jset(o, "fio version", json_string("iotrial-" IOTRIAL_VERSION), &bad);
	jset(o, "timestamp", json_integer((json_int_t)r->timestamp), &bad);
	jset(o, "timestamp_ms", jint(r->timestamp_ms), &bad);
	jset(o, "time", json_time(r->timestamp), &bad);
	/* fio leaves out "global options" and "disk_util" when they are empty */
	if (r->nr_global_opts)
		jset(o, "global options", json_opts(r->global_opts, r->nr_global_opts), &bad);
	for (size_t i = 0; i < r->nr_jobs; i++)
		if (json_array_append_new(jobs, json_job(&r->jobs[i], plus)))
			bad = 1;
	jset(o, "jobs", jobs, &bad);
	if (r->ranks)
		jset(o, "client_stats", json_client_stats(r, plus), &bad);
	if (r->nr_du) {
		du = json_array();
		for (size_t i = 0; i < r->nr_du; i++)
			if (json_array_append_new(du, json_disk(&r->du[i])))
				bad = 1;
		jset(o, "disk_util", du, &bad);
	}
	if (r->idle.mode >= IDLEPROF_SYSTEM)	/* fio's place: after disk_util */
		jset(o, "cpu_idleness", json_idle(&r->idle), &bad);
	jset(o, "iotrial", json_run_iotrial(r), &bad);
	if (!bad && report_breakdown_run_json(o, r))	/* groups, device-view windows */
		bad = 1;
	if (bad) {
		json_decref(o);
		err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory building the JSON report");
		return NULL;
	}
	return o;
}

int report_json_write(FILE *f, const struct run_result *r, int plus, struct err *e)
{
	json_t *doc = report_json_build(r, plus, e);
	int rc;

	if (!doc)
		return -ENOMEM;
	/* 15 significant digits: short, and a re-read value prints identically */
	rc = json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	json_decref(doc);
	if (rc || fputc('\n', f) == EOF || ferror(f))
		return err_set(e, -EIO, EXIT_OUTPUT, "cannot write the JSON report: %s",
			       strerror(errno ? errno : EIO));
	return 0;
}
