/*
 * sweep: latency against offered load (see sweep.h, docs/sweep.md).
 */
#include "trial/sweep.h"

#include <errno.h>	/* EINVAL, ENOMEM */
#include <math.h>	/* sqrt, isfinite */
#include <stdarg.h>	/* va_list */
#include <stdlib.h>	/* calloc, free, strtod */
#include <string.h>	/* strchr, strcmp, memset */
#include <sys/stat.h>	/* mkdir */

#include "lib/abstat.h"	/* abstat_t_quantile */
#include "lib/ddir.h"
#include "lib/hist.h"
#include "lib/human.h"
#include "lib/vec.h"	/* vec_free_strings */
#include "model/job.h"
#include "model/num.h"
#include "parse/cmdline.h"
#include "result/resultread.h"	/* the first run's jobs as they ran: the workload */

#define SWEEP_RATE_MAX (1ull << 30)	/* IOPS per thread: beyond any engine, below rate.c's limit */
#define SWEEP_RAMP(c) ((c)->ramp_time ? (c)->ramp_time : "0")

/* --- input ---------------------------------------------------------------- */

int sweep_parse_slo(const char *s, double *pct, uint64_t *ns, struct err *e)
{
	const struct num_ctx nc = { .kb_base = 1000, .opt = "--slo", .where = "command line" };
	const char *colon = s ? strchr(s, ':') : NULL;
	char buf[64], *end;
	uint64_t us;
	double p;

	if (s && (s[0] == 'p' || s[0] == 'P') && !colon)
		return err_set(e, -EINVAL, EXIT_USAGE, "--slo=%s: no target time: want pNN:TIME, e.g. "
			       "--slo=p99:1ms", s);
	if (!s || (s[0] != 'p' && s[0] != 'P') || !colon)
		return err_set(e, -EINVAL, EXIT_USAGE, "--slo=%s: no percentile: want pNN:TIME, e.g. "
			       "--slo=p99:1ms", s ? s : "");
	if ((size_t)(colon - s - 1) >= sizeof(buf) || colon == s + 1)
		return err_set(e, -EINVAL, EXIT_USAGE, "--slo=%s: no percentile before ':' (want pNN:TIME)", s);
	memcpy(buf, s + 1, (size_t)(colon - s - 1));
	buf[colon - s - 1] = 0;
	p = strtod(buf, &end);
	if (*end || !isfinite(p) || p <= 0 || p >= 100)
		return err_set(e, -EINVAL, EXIT_USAGE, "--slo=%s: percentile '%s' is not a number "
			       "above 0 and below 100", s, buf);
	if (num_parse_time(colon + 1, &nc, 1000000, &us, e))
		return -EINVAL;
	if (!us)
		return err_set(e, -EINVAL, EXIT_USAGE, "--slo=%s: the target must be at least 1us", s);
	*pct = p;
	*ns = us * 1000;
	return 0;
}

int sweep_parse_range(const char *s, uint64_t *lo, uint64_t *hi, struct err *e)
{
	const struct num_ctx nc = { .kb_base = 1000, .opt = "--range", .where = "command line" };
	const char *dash = s ? strchr(s, '-') : NULL;
	char buf[64];

	if (!dash || dash == s || !dash[1] || (size_t)(dash - s) >= sizeof(buf))
		return err_set(e, -EINVAL, EXIT_USAGE, "--range=%s: want LO-HI in IOPS, e.g. --range=1000-20000",
			       s ? s : "");
	memcpy(buf, s, (size_t)(dash - s));
	buf[dash - s] = 0;
	if (num_parse_u64(buf, &nc, lo, e) || num_parse_u64(dash + 1, &nc, hi, e))
		return -EINVAL;
	if (!*lo || *lo >= *hi)
		return err_set(e, -EINVAL, EXIT_USAGE, "--range=%s: upside down or empty: LO must be above 0 "
			       "and below HI", s);
	return 0;
}

/* argv for the runner: "iotrial", @pre (NULL-ended), the job's arguments. */
static char **job_argv(const struct sweep_cfg *c, const char *const *pre, size_t *n)
{
	size_t np = 0, i;
	char **v;

	while (pre[np])
		np++;
	v = calloc(np + c->nargs + 4, sizeof(*v));
	if (!v)
		return NULL;
	*n = 0;
	v[(*n)++] = (char *)"iotrial";
	for (i = 0; i < np; i++)
		v[(*n)++] = (char *)pre[i];
	for (i = 0; i < c->nargs; i++)
		v[(*n)++] = c->args[i];
	return v;
}

/*
 * The job as the runner reads it: threads (numjobs summed) and each
 * direction's share of the I/Os (@share, percent), which must be the same
 * for every job: one rate_iops=R,W,T then offers each job its mix.
 */
static int job_shape(const struct sweep_cfg *c, unsigned *threads, unsigned share[DDIR_NR],
		     struct err *e)
{
	char bt[128], ramp[128], pt[128];
	const char *const pre[] = { "--time_based", bt, pt, ramp, NULL };
	struct cmdline cl;
	size_t n;
	char **v;
	int r;

	/* the runs' own options too: a bad --batch-time is refused here, before any run */
	snprintf(bt, sizeof(bt), "--runtime=%s", c->batch_time ? c->batch_time : "1s");
	snprintf(pt, sizeof(pt), "--runtime=%s", c->probe_time ? c->probe_time : "1s");
	snprintf(ramp, sizeof(ramp), "--ramp_time=%s", SWEEP_RAMP(c));
	v = job_argv(c, pre, &n);

	if (!v)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "sweep: out of memory");
	r = cmdline_parse((int)n, v, &cl, e);
	free(v);
	if (r) {
		cmdline_free(&cl);
		return r;
	}
	*threads = 0;
	for (size_t i = 0; i < cl.jobs_nr && !r; i++) {
		const struct job *j = &cl.jobs[i];
		unsigned s[DDIR_NR] = { 0 };
		int d;

		for (d = 0; d < DDIR_NR; d++)
			if (j->rate[d] || j->rate_iops[d])
				r = err_set(e, -EINVAL, EXIT_USAGE, "sweep: job '%s' sets its own rate "
					    "(rate or rate_iops): the sweep sets the offered load; remove it",
					    j->name);
		if ((j->rw & RW_READ) && (j->rw & RW_WRITE)) {
			s[DDIR_READ] = j->rwmixread;
			s[DDIR_WRITE] = 100 - j->rwmixread;
		} else {
			s[DDIR_READ] = j->rw & RW_READ ? 100 : 0;
			s[DDIR_WRITE] = j->rw & RW_WRITE ? 100 : 0;
			s[DDIR_TRIM] = j->rw & RW_TRIM && !(j->rw & (RW_READ | RW_WRITE)) ? 100 : 0;
		}
		if (!r && i && memcmp(s, share, sizeof(s)))
			r = err_set(e, -EINVAL, EXIT_USAGE, "sweep: job '%s' mixes directions unlike "
				    "job '%s': one offered load needs one mix (run one sweep per mix)",
				    j->name, cl.jobs[0].name);
		memcpy(share, s, sizeof(s));
		*threads += j->numjobs ? j->numjobs : 1;
	}
	cmdline_free(&cl);
	return r;
}

/* "--rate_iops=R,W,T" per thread for @offered total IOPS; the offer it makes in *@real. */
static int rate_arg(char *buf, size_t sz, double offered, unsigned threads,
		    const unsigned share[DDIR_NR], double *real)
{
	uint64_t v[DDIR_NR];
	int d;

	*real = 0;
	for (d = 0; d < DDIR_NR; d++) {
		double x = offered * share[d] / 100.0 / threads;

		v[d] = share[d] ? (uint64_t)(x + 0.5) : 0;
		if (share[d] && (v[d] < 1 || v[d] > SWEEP_RATE_MAX))
			return -ERANGE;
		*real += (double)v[d] * threads;
	}
	snprintf(buf, sz, "--rate_iops=%llu,%llu,%llu", (unsigned long long)v[0],
		 (unsigned long long)v[1], (unsigned long long)v[2]);
	return 0;
}

static int check_all(const struct sweep_cfg *c, unsigned *threads, unsigned share[DDIR_NR],
		     struct err *e)
{
	char buf[128];
	double real;
	int r;

	if (c->steps < 2 || c->steps > SWEEP_MAX_STEPS / 2)
		return err_set(e, -EINVAL, EXIT_USAGE, "--steps=%u: want 2 to %u", c->steps,
			       SWEEP_MAX_STEPS / 2);
	if (c->batches < 2 || c->batches > SWEEP_MAX_BATCHES)
		return err_set(e, -EINVAL, EXIT_USAGE, "--batches=%u: want 2 to %u (the interval "
			       "needs two)", c->batches, SWEEP_MAX_BATCHES);
	if (c->has_range && (!c->lo || c->lo >= c->hi))
		return err_set(e, -EINVAL, EXIT_USAGE, "--range=%llu-%llu: upside down or empty",
			       (unsigned long long)c->lo, (unsigned long long)c->hi);
	r = job_shape(c, threads, share, e);
	if (r)
		return r;
	if (!*threads)
		return err_set(e, -EINVAL, EXIT_USAGE, "sweep: no job to run");
	if (c->has_range && (rate_arg(buf, sizeof(buf), (double)c->lo, *threads, share, &real) ||
			     rate_arg(buf, sizeof(buf), (double)c->hi, *threads, share, &real)))
		return err_set(e, -EINVAL, EXIT_USAGE, "--range=%llu-%llu: no rate limiter can offer it: "
			       "each of the %u threads needs 1 to %llu IOPS of each direction it issues",
			       (unsigned long long)c->lo, (unsigned long long)c->hi, *threads,
			       (unsigned long long)SWEEP_RATE_MAX);
	return 0;
}

int sweep_check(const struct sweep_cfg *c, unsigned *threads, struct err *e)
{
	unsigned share[DDIR_NR] = { 0 };

	return check_all(c, threads, share, e);
}

/* --- one run -------------------------------------------------------------- */

/* What one run's json+ file says, all jobs and directions together. */
struct batch {
	double iops;
	double secs;			/* the longest direction's runtime */
	struct hist due, clat;
};

/* json+ "bins" {"midpoint": count} into @h. */
static void bins_add(struct hist *h, const json_t *bins)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)bins, k, v)
		if (json_is_integer(v) && json_integer_value(v) > 0)
			hist_add_n(h, strtoull(k, NULL, 10), (uint64_t)json_integer_value(v));
}

/*
 * What the sweep measured, from its first run's document @doc: its start,
 * the machine and its devices, and the jobs as they ran (sweep.h), so that
 * a sweep's document says what a run's says about where it ran.
 */
static int origin_read(struct sweep_result *r, const json_t *doc, const char *path, struct err *e)
{
	const json_t *jobs = json_object_get(doc, "jobs");
	const json_t *env = json_object_get(json_object_get(doc, "iotrial"), "environment");
	struct resultread *rr;
	size_t i;

	if (resultread_from_json(doc, path, &rr, e))
		return -EINVAL;
	r->start_ms = rr->timestamp_ms;
	r->env = json_is_object(env) ? json_deep_copy(env) : NULL;
	r->workload = json_array();
	for (i = 0; r->workload && i < rr->nr_jobs; i++) {
		const struct resultread_job *j = &rr->jobs[i];
		char bs[64];

		resultread_job_bs(doc, json_array_get(jobs, i), bs, sizeof(bs));
		if (json_array_append_new(r->workload, json_pack("{s:s, s:s, s:i, s:s, s:i, s:i, s:s, "
				"s:i}", "name", j->name, "rw", j->rw, "rwmixread", (int)j->rwmixread,
				"bs", bs, "iodepth", (int)j->iodepth, "direct", j->direct, "ioengine",
				j->ioengine, "numjobs", (int)j->numjobs)))
			break;
	}
	i = r->workload ? json_array_size(r->workload) : 0;
	resultread_free(rr);
	if (i != json_array_size(jobs) || (json_is_object(env) && !r->env))
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "sweep: out of memory");
	return 0;
}

void sweep_result_clear(struct sweep_result *r)
{
	json_decref(r->env);
	json_decref(r->workload);
	r->env = r->workload = NULL;
}

static int batch_read(struct sweep_result *r, const char *path, struct batch *b, struct err *e)
{
	json_error_t je;
	json_t *doc = json_load_file(path, 0, &je), *jobs;
	size_t i;

	memset(b, 0, sizeof(*b));
	jobs = doc ? json_object_get(doc, "jobs") : NULL;
	if (!json_is_array(jobs)) {
		json_decref(doc);
		return err_set(e, -EINVAL, EXIT_INTERNAL, "sweep: %s: no result (%s)", path,
			       doc ? "no jobs" : je.text);
	}
	if (!r->workload && origin_read(r, doc, path, e)) {
		json_decref(doc);
		return -EINVAL;
	}
	for (i = 0; i < json_array_size(jobs); i++) {
		const json_t *j = json_array_get(jobs, i);
		const json_t *due = json_object_get(json_object_get(j, "iotrial"), "lat_from_due_ns");

		for (int d = 0; d < DDIR_NR; d++) {
			const json_t *dr = json_object_get(j, ddir_name(d));
			double rt = json_number_value(json_object_get(dr, "runtime")) / 1000.0;

			b->iops += json_number_value(json_object_get(dr, "iops"));
			if (rt > b->secs)
				b->secs = rt;
			bins_add(&b->clat, json_object_get(json_object_get(dr, "clat_ns"), "bins"));
			bins_add(&b->due, json_object_get(json_object_get(due, ddir_name(d)), "bins"));
		}
	}
	json_decref(doc);
	return 0;
}

static void say(const struct sweep_cfg *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const struct sweep_cfg *c, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!c->say)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	c->say(c->say_arg, line);
}

/*
 * One run named @name in the sweep directory: @pre (NULL-ended) before the
 * job's arguments, json+ into NAME.json, its output into NAME.log.
 */
static int run_one(const struct sweep_cfg *c, struct sweep_result *r, const char *name,
		   const char *const *pre, struct batch *b, struct err *e)
{
	char out[4200], log[4200], fmt[] = "--output-format=json+", oarg[4300];
	size_t n;
	char **v = job_argv(c, pre, &n);
	int rc;

	if (!v)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "sweep: out of memory");
	snprintf(out, sizeof(out), "%s/%s.json", r->dir, name);
	snprintf(log, sizeof(log), "%s/%s.log", r->dir, name);
	snprintf(oarg, sizeof(oarg), "--output=%s", out);
	v[n++] = fmt;
	v[n++] = oarg;
	rc = c->spawn(c->spawn_arg, v + 1, n - 1, log);
	free(v);
	if (rc)
		return err_set(e, -EIO, rc > 0 && rc < 128 ? rc : EXIT_INTERNAL,
			       "sweep: run %s failed (exit %d): see %s", name, rc, log);
	return batch_read(r, out, b, e);
}

/* --- the steps ------------------------------------------------------------ */

static void lat_of(const struct hist *h, struct sweep_lat *l)
{
	static const double p[] = { 50.0, 90.0, 99.0, 99.9 };
	uint64_t q[4], n = 0;
	double sum = 0;

	memset(l, 0, sizeof(*l));
	for (unsigned i = 0; i < HIST_NR; i++) {
		if (!h->b[i])
			continue;
		n += h->b[i];
		sum += (double)h->b[i] * (double)hist_bucket_value(i);
		l->max = (double)hist_bucket_value(i);
	}
	l->n = n;
	if (!n)
		return;
	hist_percentiles(h, p, 4, q);
	l->p50 = (double)q[0];
	l->p90 = (double)q[1];
	l->p99 = (double)q[2];
	l->p999 = (double)q[3];
	l->mean = sum / (double)n;	/* from the buckets: within hist.h's error bound */
}

/* One step at @offered total IOPS: its batches, pooled; 0 or -errno. */
static int step_run(const struct sweep_cfg *c, struct sweep_result *r, double offered,
		    const unsigned share[DDIR_NR], struct sweep_step *st, struct err *e)
{
	struct batch *b = calloc(1, sizeof(*b));
	struct hist *due = calloc(1, sizeof(*due)), *clat = calloc(1, sizeof(*clat));
	char rate[128], bt[128], ramp[128], name[64];
	const char *pre[] = { "--time_based", bt, ramp, rate, NULL };
	double sum = 0, ss = 0, real;
	int rc = 0;

	memset(st, 0, sizeof(*st));
	if (!b || !due || !clat) {
		rc = err_set(e, -ENOMEM, EXIT_INTERNAL, "sweep: out of memory");
		goto out;
	}
	if (rate_arg(rate, sizeof(rate), offered, r->threads, share, &real)) {
		rc = err_set(e, -EINVAL, EXIT_USAGE, "sweep: %.0f IOPS over %u threads is not a rate "
			     "the limiter can offer", offered, r->threads);
		goto out;
	}
	snprintf(bt, sizeof(bt), "--runtime=%s", c->batch_time);
	snprintf(ramp, sizeof(ramp), "--ramp_time=%s", SWEEP_RAMP(c));
	st->offered = real;
	st->achieved_lo = INFINITY;
	for (unsigned k = 0; k < c->batches; k++) {
		snprintf(name, sizeof(name), "step-%02u-batch-%u", r->nsteps + 1, k + 1);
		rc = run_one(c, r, name, pre, b, e);
		if (rc)
			goto out;
		if (!hist_total(&b->due)) {
			rc = err_set(e, -EINVAL, EXIT_INTERNAL, "sweep: %s/%s.json has no lat_from_due: "
				     "the job was not rated", r->dir, name);
			goto out;
		}
		hist_merge(due, &b->due);
		hist_merge(clat, &b->clat);
		st->pct_batch[k] = (double)hist_percentile(&b->due, r->pct);
		sum += b->iops;
		if (b->iops < st->achieved_lo)
			st->achieved_lo = b->iops;
		if (b->iops > st->achieved_hi)
			st->achieved_hi = b->iops;
		r->batch_s = b->secs;
	}
	st->batches = c->batches;
	st->achieved = sum / c->batches;
	st->kept = st->achieved >= SWEEP_KEEP * st->offered;
	lat_of(due, &st->due);
	lat_of(clat, &st->clat);
	st->pct_ns = (double)hist_percentile(due, r->pct);
	sum = 0;
	for (unsigned k = 0; k < c->batches; k++)
		sum += st->pct_batch[k];
	st->pct_mean = sum / c->batches;
	for (unsigned k = 0; k < c->batches; k++)
		ss += (st->pct_batch[k] - st->pct_mean) * (st->pct_batch[k] - st->pct_mean);
	{
		double half = abstat_t_quantile(0.975, c->batches - 1) * sqrt(ss / (c->batches - 1)) /
			      sqrt((double)c->batches);

		st->pct_lo = st->pct_mean - half;
		st->pct_hi = st->pct_mean + half;
	}
	st->within = r->has_slo && st->kept && st->pct_ns <= (double)r->slo_ns;
	{
		char v[32];

		human_ns(v, sizeof(v), st->pct_ns, HUMAN_TABLE);
		say(c, "step %u: offered %.0f IOPS, achieved %.0f (%s), p%g from the due time %s",
		    r->nsteps + 1, st->offered, st->achieved, st->kept ? "kept" : "behind", r->pct, v);
	}
out:
	free(b);
	free(due);
	free(clat);
	return rc;
}

static int cmp_offered(const void *a, const void *b)
{
	const struct sweep_step *x = a, *y = b;

	return (x->offered > y->offered) - (x->offered < y->offered);
}

/* The knee and the SLO capacity from the steps, sorted by offered load. */
static void sweep_judge(struct sweep_result *r)
{
	unsigned i;
	int sure = 1;

	qsort(r->steps, r->nsteps, sizeof(r->steps[0]), cmp_offered);
	r->knee_step = r->slo_step = -1;
	r->knee_iops = r->slo_iops = r->slo_lo = r->slo_hi = 0;
	for (i = 0; i < r->nsteps; i++) {
		const struct sweep_step *s = &r->steps[i];

		if (!r->capacity_measured && s->achieved > r->capacity_iops)
			r->capacity_iops = s->achieved;
		if (s->kept) {
			r->knee_step = (int)i;
			r->knee_iops = s->offered;
		}
		if (!r->has_slo)
			continue;
		if (s->within) {
			r->slo_step = (int)i;
			r->slo_iops = s->offered;
		}
		/*
		 * Low end: within for sure here and at every lower step: every
		 * batch kept up (not only their mean: a device whose rate wanders
		 * from batch to batch, as a throttle's slices make it, keeps a
		 * step one batch and not the next) and the percentile's interval
		 * within the target.  High end: could be within: some batch kept
		 * up and the interval reaches the target.
		 */
		sure = sure && s->kept && s->achieved_lo >= SWEEP_KEEP * s->offered &&
		       s->pct_hi <= (double)r->slo_ns && s->pct_ns <= (double)r->slo_ns;
		if (sure)
			r->slo_lo = s->offered;
		if ((s->kept || s->achieved_hi >= SWEEP_KEEP * s->offered) &&
		    s->pct_lo <= (double)r->slo_ns)
			r->slo_hi = s->offered;
	}
	if (r->has_slo && r->slo_hi < r->slo_iops)
		r->slo_hi = r->slo_iops;
	if (r->has_slo && r->slo_lo > r->slo_iops)
		r->slo_lo = r->slo_iops;
	r->slo_next = 0;
	for (i = 0; r->has_slo && i < r->nsteps && !r->slo_next; i++)
		if (r->steps[i].offered > r->slo_hi)
			r->slo_next = r->steps[i].offered;
}

int sweep_run(const struct sweep_cfg *c, struct sweep_result *r, struct err *e)
{
	unsigned share[DDIR_NR] = { 0 }, i;
	double lo, hi, kept_at = 0, behind_at = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	r->has_slo = c->has_slo;
	r->slo_ns = c->slo_ns;
	r->pct = c->has_slo ? c->slo_pct : 99.0;
	r->batches = c->batches;
	r->start_ms = -1;
	snprintf(r->ramp, sizeof(r->ramp), "%s", SWEEP_RAMP(c));
	snprintf(r->dir, sizeof(r->dir), "%s", c->dir);
	rc = check_all(c, &r->threads, share, e);
	if (rc)
		return rc;
	if (mkdir(r->dir, 0777) && errno != EEXIST)
		return err_set(e, -errno, EXIT_OUTPUT, "sweep: cannot make %s: %s", r->dir, strerror(errno));
	if (c->has_range) {
		lo = (double)c->lo;
		hi = (double)c->hi;
	} else {
		/* the closed loop: the job as typed, no rate (the same ramp as the steps') */
		char pt[128], ramp[128];
		const char *pre[] = { "--time_based", pt, ramp, NULL };
		struct batch *b = calloc(1, sizeof(*b));

		if (!b)
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "sweep: out of memory");
		snprintf(pt, sizeof(pt), "--runtime=%s", c->probe_time);
		snprintf(ramp, sizeof(ramp), "--ramp_time=%s", SWEEP_RAMP(c));
		rc = run_one(c, r, "capacity", pre, b, e);
		r->capacity_iops = b->iops;
		free(b);
		if (rc)
			return rc;
		if (!(r->capacity_iops > 0))
			return err_set(e, -EINVAL, EXIT_INTERNAL, "sweep: the closed-loop run did no I/O "
				       "(see %s/capacity.log)", r->dir);
		r->capacity_measured = 1;
		say(c, "capacity (closed loop): %.0f IOPS", r->capacity_iops);
		lo = 0.2 * r->capacity_iops;
		hi = 1.2 * r->capacity_iops;
		if (lo < r->threads)
			lo = r->threads;
	}
	/* coarse steps, low to high, until one falls behind */
	for (i = 0; i < c->steps; i++) {
		double x = lo + (hi - lo) * i / (c->steps - 1);
		struct sweep_step *st = &r->steps[r->nsteps];

		rc = step_run(c, r, x, share, st, e);
		if (rc)
			return rc;
		r->nsteps++;
		if (!st->kept) {
			behind_at = st->offered;
			break;
		}
		kept_at = st->offered;
	}
	/* halve the gap between the last step kept and the first behind */
	for (i = 0; behind_at > 0 && kept_at > 0 && i < c->refine && r->nsteps < SWEEP_MAX_STEPS; i++) {
		struct sweep_step *st = &r->steps[r->nsteps];

		rc = step_run(c, r, (kept_at + behind_at) / 2, share, st, e);
		if (rc)
			return rc;
		r->nsteps++;
		if (st->kept)
			kept_at = st->offered;
		else
			behind_at = st->offered;
	}
	sweep_judge(r);
	return 0;
}

