/*
 * bottleneck: who limited a job (see bottleneck.h for the rules).
 */
#include "bottleneck.h"
#include "engine.h"	/* engine_traits */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void verdict_set(struct bottleneck_verdict *o, const char *v)
{
	snprintf(o->verdict, sizeof(o->verdict), "%s", v);
}

/* Append to @buf (of @sz) what fits; a full buffer just stops growing. */
__attribute__((format(printf, 3, 4)))
static void add(char *buf, size_t sz, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len + 1 >= sz)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, sz - len, fmt, ap);
	va_end(ap);
}

/* The evidence line: every figure known, in a fixed order. */
static void evidence(const struct bottleneck_in *in, struct bottleneck_verdict *o, const char *why)
{
	char *p = o->evidence;
	size_t sz = sizeof(o->evidence);

	p[0] = '\0';
	add(p, sz, "%s; thread CPU %.0f%% of one CPU", why, in->cpu_pct);
	if (in->has_dev) {
		add(p, sz, "; device depth %.1f of %.0f requested (%.2f)", in->dev_depth, in->req_depth,
		    in->req_depth > 0 ? in->dev_depth / in->req_depth : 0);
		if (in->dev_nr_requests > 0)
			add(p, sz, ", queue holds %.0f", in->dev_nr_requests);
		add(p, sz, "; device util %.0f%%", in->dev_util);
		if (in->job_amount > 0)
			add(p, sz, "; device did %.0f%% of the job's %s",
			    100.0 * in->dev_amount / in->job_amount,
			    in->dev_amount_is_ios ? "I/Os" : "bytes");
		if (!isnan(in->job_clat_ns) && !isnan(in->dev_lat_ns))
			add(p, sz, "; clat %.0f us, device %.0f us: %.0f us per I/O outside the device",
			    in->job_clat_ns / 1000, in->dev_lat_ns / 1000,
			    (in->job_clat_ns - in->dev_lat_ns) / 1000);
	} else {
		add(p, sz, "; no block device under the target");
	}
	if (in->rate_limited && !isnan(in->rate_share))
		add(p, sz, "; rate %.0f%% of the limit", 100.0 * in->rate_share);
	if (in->has_sched) {
		add(p, sz, "; waited for a CPU %.0f%% of the run (%.1f us per I/O), %.0f involuntary switches",
		    100.0 * in->wait_share, in->wait_ns_per_io / 1000, in->nivcsw);
		if (in->load1 >= 0)
			add(p, sz, ", load average %.1f", in->load1);
	}
}

void bottleneck_judge(const struct bottleneck_in *in, struct bottleneck_verdict *o)
{
	int cpu_bound = in->cpu_pct >= BOTTLENECK_CPU_PCT;
	double ratio = in->req_depth > 0 ? in->dev_depth / in->req_depth : 0;
	int queue_full = in->dev_nr_requests > 0 && in->dev_depth >= 0.9 * in->dev_nr_requests;
	const char *why;

	memset(o, 0, sizeof(*o));
	o->cpu_pct = in->cpu_pct;
	o->req_depth = in->req_depth;
	o->dev_depth = in->has_dev ? in->dev_depth : -1;
	o->dev_io_share = in->has_dev && in->job_amount > 0 ? in->dev_amount / in->job_amount : -1;
	o->tool_minus_dev_ns = in->has_dev ? in->job_clat_ns - in->dev_lat_ns : NAN;
	if (in->rate_limited && !cpu_bound &&
	    (isnan(in->rate_share) || in->rate_share >= BOTTLENECK_RATE)) {
		verdict_set(o, "rate_limit");
		why = "a rate limit is set and was reached";
	} else if (in->deviceless) {
		/* nothing but the tool (and the CPU it was given) does the work */
		verdict_set(o, "tool");
		why = "the engine touches no device: only the tool is measured";
	} else if (in->has_dev && in->job_amount > 0 &&
		   in->dev_amount < BOTTLENECK_CACHE * in->job_amount) {
		verdict_set(o, "page_cache");
		why = "the device did far less than the job: the page cache (or a sparse file's holes) served it";
	} else if (cpu_bound) {
		verdict_set(o, "tool");
		why = "the job's thread was CPU-bound";
	} else if (!in->has_dev) {
		verdict_set(o, "unknown");
		why = "nothing to compare the job with";
	} else if (!in->direct) {
		verdict_set(o, in->dev_util >= BOTTLENECK_CPU_PCT ? "device" : "unknown");
		why = in->dev_util >= BOTTLENECK_CPU_PCT ? "buffered I/O on a busy device" :
							   "buffered I/O on a device not kept busy";
	} else if (ratio < BOTTLENECK_DEPTH && !queue_full && in->has_sched &&
		   in->wait_share >= BOTTLENECK_WAIT * (1 - ratio)) {
		/* runnable, not running: completions waited for the thread */
		verdict_set(o, "cpu_contention");
		why = "the device saw less than the requested depth while the thread waited for a CPU";
	} else if (ratio < BOTTLENECK_DEPTH && !queue_full) {
		verdict_set(o, "tool");
		why = "the device saw less than the requested depth";
	} else {
		verdict_set(o, "device");
		why = queue_full ? "the device's queue was full" : "the device had the requested depth";
	}
	evidence(in, o, why);
}

/* Depth one job thread can really keep, and why when it is not iodepth. */
unsigned bottleneck_depth_kept(const struct resultread_job *j, const char **why)
{
	*why = NULL;
	if (engine_traits(j->ioengine) & ENGINE_F_SYNC) {
		*why = "is synchronous";
		return 1;
	}
	if (!strcmp(j->ioengine, "libaio") && !j->direct) {
		*why = "without direct=1 submits synchronously";
		return 1;
	}
	return j->iodepth;
}

/* Threads of the definition that job @i belongs to, counted once per name. */
unsigned bottleneck_threads_of(const struct resultread *r, size_t i, int *first)
{
	const struct resultread_job *j = &r->jobs[i];
	unsigned k = 0;
	size_t m;

	*first = 1;
	for (m = 0; m < r->nr_jobs; m++) {
		if (r->jobs[m].groupid != j->groupid || strcmp(r->jobs[m].name, j->name))
			continue;
		if (m < i)
			*first = 0;
		k++;
	}
	/* one entry per thread, or one group_reporting entry for numjobs threads;
	 * under MPI each entry is merged over every rank (docs/mpi.md) */
	return (k > j->numjobs ? k : j->numjobs) * (r->nranks ? r->nranks : 1);
}

/* Per-thread depth the job asks for: synchronous engines keep one. */
static double job_depth(const struct job_result *jr)
{
	const struct job *j = jr->job;
	double per = j && j->iodepth ? j->iodepth : 1;

	if ((j && (engine_traits(j->ioengine) & ENGINE_F_SYNC)) ||
	    (j && j->ioengine && !strcmp(j->ioengine, "libaio") && !j->direct))
		per = 1;
	return per * (jr->nr_threads ? jr->nr_threads : 1);
}

static double mean_clat(const struct dir_result *d)
{
	double s = 0, n = 0;

	for (int k = 0; k < DDIR_NR; k++) {
		s += d[k].clat.mean * (double)d[k].clat.n;
		n += (double)d[k].clat.n;
	}
	return n > 0 ? s / n : NAN;
}

static uint64_t job_bytes(const struct job_result *jr)
{
	uint64_t b = 0;

	for (int k = 0; k < DDIR_NR; k++)
		b += jr->dir[k].io_bytes;
	return b;
}

static double rate_share(const struct job_result *jr)
{
	const struct job *j = jr->job;
	double n = jr->nr_threads ? jr->nr_threads : 1, best = NAN;
	/* job_runtime adds up the threads': the wall time is its mean */
	double secs = (double)jr->job_runtime_ms / 1000.0 / n;

	if (!j || secs <= 0)
		return NAN;
	for (int k = 0; k < DDIR_NR; k++) {
		double s = NAN;

		if (j->rate_iops[k])
			s = (double)jr->dir[k].total_ios / secs / ((double)j->rate_iops[k] * n);
		else if (j->rate[k])
			s = (double)jr->dir[k].io_bytes / secs / ((double)j->rate[k] * n);
		if (!isnan(s) && (isnan(best) || s > best))
			best = s;
	}
	return best;
}

static int rate_set(const struct job *j)
{
	for (int k = 0; j && k < DDIR_NR; k++)
		if (j->rate[k] || j->rate_iops[k])
			return 1;
	return 0;
}

void bottleneck_run(struct run_result *r)
{
	for (size_t i = 0; i < r->nr_jobs; i++) {
		struct job_result *jr = &r->jobs[i];
		const struct disk_view *v = jr->nr_dev ? &jr->dev[0] : NULL;
		const struct engine_ops *ops = jr->job && jr->job->ioengine ?
					       engine_find(jr->job->ioengine) : NULL;
		struct bottleneck_in in;
		double rt_us = (double)jr->job_runtime_ms * 1000.0;

		memset(&in, 0, sizeof(in));
		/* job_runtime adds up the threads' (as fio's): this is per thread */
		in.cpu_pct = rt_us > 0 ? 100.0 * (double)(jr->usr_us + jr->sys_us) / rt_us : 0;
		in.req_depth = job_depth(jr);
		in.job_amount = (double)job_bytes(jr);
		in.job_clat_ns = mean_clat(jr->dir);
		in.dev_lat_ns = NAN;
		in.rate_limited = rate_set(jr->job);
		in.rate_share = rate_share(jr);
		in.direct = jr->job ? jr->job->direct : 0;
		in.deviceless = ops && (ops->flags & ENGINE_F_NODEVICE);
		if (rt_us > 0 && jr->has_sched) {
			uint64_t ios = 0;

			for (int k = 0; k < DDIR_NR; k++)
				ios += jr->dir[k].total_ios;
			in.has_sched = 1;
			in.wait_share = (double)jr->rq_wait_ns / 1000.0 / rt_us;
			in.wait_ns_per_io = ios ? (double)jr->rq_wait_ns / (double)ios : 0;
			in.nivcsw = (double)jr->nivcsw;
			in.load1 = jr->load1;
		}
		if (v && v->dur_ns) {
			uint64_t ios = v->read_ios + v->write_ios;

			in.has_dev = 1;
			in.dev_depth = v->read_queue_depth + v->write_queue_depth;
			in.dev_util = v->util;
			in.dev_nr_requests = (double)v->nr_requests;
			in.dev_amount = (double)(v->read_bytes + v->write_bytes);
			if (ios)
				in.dev_lat_ns = (v->read_lat_ns_mean * (double)v->read_ios +
						 v->write_lat_ns_mean * (double)v->write_ios) / (double)ios;
			/* the other jobs of the group on the same device ran beside it */
			for (size_t k = 0; k < r->nr_jobs; k++) {
				const struct job_result *o = &r->jobs[k];

				if (k == i || o->groupid != jr->groupid || !o->nr_dev ||
				    strcmp(o->dev[0].name, v->name))
					continue;
				in.req_depth += job_depth(o);
				in.job_amount += (double)job_bytes(o);
			}
		}
		bottleneck_judge(&in, &jr->bottleneck);
	}
	/* the run-level disk_util: the view of the first job on each device */
	for (size_t d = 0; d < r->nr_du; d++)
		for (size_t i = 0; i < r->nr_jobs && !r->du[d].view.dur_ns; i++)
			for (size_t k = 0; k < r->jobs[i].nr_dev; k++)
				if (!strcmp(r->jobs[i].dev[k].name, r->du[d].name)) {
					r->du[d].view = r->jobs[i].dev[k];
					break;
				}
}

/*
 * The run's length: the longest direction runtime (a job's job_runtime adds
 * up its threads' under group_reporting, a direction's runtime does not).
 */
static double wall_ms(const struct resultread *r)
{
	double m = 0;

	for (int k = 0; k < RESULTREAD_NDIR; k++)
		if ((double)r->dir[k].runtime_ms > m)
			m = (double)r->dir[k].runtime_ms;
	return m;
}

/* The busiest device stands for the target (fio lists the partition's parent too). */
static const struct resultread_disk *busiest(const struct resultread *r)
{
	const struct resultread_disk *dk = NULL;

	for (size_t k = 0; k < r->nr_du; k++)
		if (!dk || r->du[k].read_ios + r->du[k].write_ios > dk->read_ios + dk->write_ios)
			dk = &r->du[k];
	return dk;
}

int bottleneck_from_read(const struct resultread *r, size_t i, struct bottleneck_verdict *out)
{
	const struct resultread_job *j = &r->jobs[i];
	const struct resultread_disk *dk = NULL;
	struct bottleneck_in in;
	double rt_ms, clat_s = 0, clat_n = 0, ios = 0;

	memset(out, 0, sizeof(*out));
	for (int k = 0; k < RESULTREAD_NDIR; k++) {
		ios += (double)j->ios[k];
		if (j->ios[k] && !isnan(j->clat_mean_ns[k])) {
			clat_s += j->clat_mean_ns[k] * (double)j->ios[k];
			clat_n += (double)j->ios[k];
		}
	}
	if (ios <= 0)
		return -ENOENT;
	memset(&in, 0, sizeof(in));
	in.job_clat_ns = clat_n > 0 ? clat_s / clat_n : NAN;
	in.dev_lat_ns = NAN;
	in.rate_limited = j->rate_limited;
	in.rate_share = NAN;
	in.direct = j->direct;
	in.deviceless = (engine_traits(j->ioengine) & ENGINE_F_NODEVICE) != 0;
	/* the group's jobs ran together on the same devices */
	for (size_t k = 0; k < r->nr_jobs; k++) {
		const struct resultread_job *o = &r->jobs[k];
		const char *why = NULL;
		unsigned t;
		int first;

		if (o->groupid != j->groupid)
			continue;
		t = bottleneck_threads_of(r, k, &first);
		if (first)
			in.req_depth += (double)t * bottleneck_depth_kept(o, &why);
		for (int d = 0; d < RESULTREAD_NDIR; d++)
			in.job_amount += (double)o->ios[d];
	}
	/* usr_cpu/sys_cpu are over job_runtime, which adds up the threads: per thread */
	in.cpu_pct = isnan(j->cpu_pct) ? 0 : j->cpu_pct;
	rt_ms = wall_ms(r);
	dk = busiest(r);
	if (dk && rt_ms > 0) {
		double dios = (double)(dk->read_ios + dk->write_ios);

		in.has_dev = 1;
		in.dev_amount_is_ios = 1;
		in.dev_amount = dios;
		if (dk->has_view) {
			in.dev_depth = dk->read_qd + dk->write_qd;
			in.dev_util = dk->view_util;
		} else {
			in.dev_depth = (double)(dk->read_ticks + dk->write_ticks) / rt_ms;
			in.dev_util = dk->util;
		}
		if (dios > 0)
			in.dev_lat_ns = (double)(dk->read_ticks + dk->write_ticks) * 1e6 / dios;
	}
	bottleneck_judge(&in, out);
	return 0;
}

int bottleneck_device_figures(const struct resultread *r, double *lat_ns, double *queue_depth)
{
	const struct resultread_disk *dk = busiest(r);
	double rt_ms = wall_ms(r), ios;

	*lat_ns = *queue_depth = NAN;
	if (!dk || !(ios = (double)(dk->read_ios + dk->write_ios)) || rt_ms <= 0)
		return -ENOENT;
	if (dk->has_view) {
		*lat_ns = (dk->read_lat_ns * (double)dk->read_ios + dk->write_lat_ns * (double)dk->write_ios) / ios;
		*queue_depth = dk->read_qd + dk->write_qd;
	} else {
		*lat_ns = (double)(dk->read_ticks + dk->write_ticks) * 1e6 / ios;
		*queue_depth = (double)(dk->read_ticks + dk->write_ticks) / rt_ms;
	}
	return 0;
}

int bottleneck_of_result(const struct resultread *r, char *buf, size_t sz)
{
	struct bottleneck_verdict v;

	for (size_t i = 0; i < r->nr_jobs; i++) {
		if (r->jobs[i].bottleneck[0]) {
			snprintf(buf, sz, "%s", r->jobs[i].bottleneck);
			return 0;
		}
		if (!bottleneck_from_read(r, i, &v)) {
			snprintf(buf, sz, "%s", v.verdict);
			return 0;
		}
	}
	return -ENOENT;
}
