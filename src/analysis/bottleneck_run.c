/*
 * bottleneck_run: the breakdown and the verdict of every job of a finished
 * run (bottleneck.h), from the run's own figures: the thread's CPU split and
 * run-queue wait, completions per reap as counted, and each job's device view
 * over its own window.  Also the breakdown over each steady tail (device from
 * the per-interval views inside the tail, the thread figures at the whole
 * run's rate) and per stonewall group (breakdown and device views, so that a
 * job file or preset of several tests has a view per test).
 */
#include "analysis/bottleneck.h"
#include "io/engine_traits.h"
#include "steady/steady.h"	/* struct steady_tail */
#include "measure/series.h"		/* struct series_window */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* I/Os one thread of the job keeps in flight: synchronous engines keep one. */
static double depth_per_thread(const struct job *j)
{
	if (!j)
		return 1;
	if ((engine_traits(j->ioengine) & ENGINE_F_SYNC) ||
	    (j->ioengine && !strcmp(j->ioengine, "libaio") && !j->direct))
		return 1;
	return j->iodepth ? j->iodepth : 1;
}

static double job_depth(const struct job_result *jr)
{
	return depth_per_thread(jr->job) * (jr->nr_threads ? jr->nr_threads : 1);
}

/* Mean total latency (slat + clat) over every direction. */
static double mean_lat(const struct dir_result *d)
{
	double s = 0, n = 0;

	for (int k = 0; k < DDIR_NR; k++) {
		s += d[k].lat.mean * (double)d[k].lat.n;
		n += (double)d[k].lat.n;
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

static uint64_t job_ios(const struct job_result *jr)
{
	uint64_t n = 0;

	for (int k = 0; k < DDIR_NR; k++)
		n += jr->dir[k].total_ios;
	return n;
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

/*
 * The job paces itself: a rate, a think time or a latency target holds its
 * load back (as resultread counts them in a result file, so a run and its
 * JSON read back through `check` get the same verdict).
 */
static int rate_set(const struct job *j)
{
	if (j && (j->thinktime_us || j->lat_target.target_us))
		return 1;
	for (int k = 0; j && k < DDIR_NR; k++)
		if (j->rate[k] || j->rate_iops[k])
			return 1;
	return 0;
}

/*
 * The device's time per request in the directions the job did (read and
 * write ticks / I/Os, weighted by the job's own mix), and its requests in
 * those directions: @rd/@wr the device's I/Os, @rl/@wl their mean latency.
 */
static void dev_in_dirs(const uint64_t job[DDIR_NR], double rd, double wr, double rl, double wl,
			double *lat, double *ios)
{
	double wsum = 0, s = 0;

	*ios = (job[DDIR_READ] ? rd : 0) + (job[DDIR_WRITE] ? wr : 0);
	if (job[DDIR_READ] && rd > 0) {
		s += (double)job[DDIR_READ] * rl;
		wsum += (double)job[DDIR_READ];
	}
	if (job[DDIR_WRITE] && wr > 0) {
		s += (double)job[DDIR_WRITE] * wl;
		wsum += (double)job[DDIR_WRITE];
	}
	*lat = wsum > 0 ? s / wsum : NAN;
}

static void job_dir_ios(const struct job_result *jr, uint64_t out[DDIR_NR])
{
	for (int k = 0; k < DDIR_NR; k++)
		out[k] = jr->dir[k].total_ios;
}

/* The I/Os of group @g's jobs on device @name (they all reach its counters). */
static double group_ios_on(const struct run_result *r, unsigned g, const char *name)
{
	double n = 0;

	for (size_t k = 0; k < r->nr_jobs; k++) {
		const struct job_result *o = &r->jobs[k];

		if (o->groupid == g && o->nr_dev && !strcmp(o->dev[0].name, name))
			n += (double)(o->dir[DDIR_READ].total_ios + o->dir[DDIR_WRITE].total_ios);
	}
	return n;
}

static void job_bd_in(const struct run_result *r, const struct job_result *jr, struct breakdown_in *in)
{
	const struct disk_view *v = jr->nr_dev && jr->dev[0].dur_ns ? &jr->dev[0] : NULL;
	double threads = jr->nr_threads ? jr->nr_threads : 1;
	uint64_t dirs[DDIR_NR];

	memset(in, 0, sizeof(*in));
	in->ios = (double)job_ios(jr);
	in->slots = job_depth(jr);
	in->threads = threads;
	in->wall_s = (double)jr->job_runtime_ms / 1000.0 / threads;
	in->lat_ns = mean_lat(jr->dir);
	in->dev_lat_ns = in->dev_ios = in->dev_busy_ns = NAN;
	in->usr_ns = (double)jr->usr_us * 1000;
	in->sys_ns = (double)jr->sys_us * 1000;
	in->wait_ns = jr->has_sched ? (double)jr->rq_wait_ns : NAN;
	in->batch = jr->total_complete ? in->ios / (double)jr->total_complete : NAN;
	in->batch_exact = 1;
	in->deviceless = jr->job && (engine_traits(jr->job->ioengine) & ENGINE_F_NODEVICE);
	in->passthru = jr->job && (engine_traits(jr->job->ioengine) & ENGINE_F_PASSTHRU);
	in->direct = jr->job ? jr->job->direct : 0;
	if (v) {
		double own = (double)(jr->dir[DDIR_READ].total_ios + jr->dir[DDIR_WRITE].total_ios);
		double grp = group_ios_on(r, jr->groupid, v->name);

		job_dir_ios(jr, dirs);
		in->has_dev = 1;
		dev_in_dirs(dirs, (double)v->read_ios, (double)v->write_ios, v->read_lat_ns_mean,
			    v->write_lat_ns_mean, &in->dev_lat_ns, &in->dev_ios);
		in->dev_busy_ns = v->util / 100 * (double)v->dur_ns;
		/* the group's other jobs on the device are not "other I/O" */
		if (grp > 0) {
			in->dev_ios *= own / grp;
			in->dev_busy_ns *= own / grp;
		}
	}
}

/* Append @s to @buf (of @sz), cut to fit. */
static void append(char *buf, size_t sz, const char *s)
{
	size_t len = strlen(buf), n = strlen(s);

	if (len + 1 >= sz)
		return;
	if (n > sz - len - 1)
		n = sz - len - 1;
	memcpy(buf + len, s, n);
	buf[len + n] = '\0';
}

/* The steady tail's breakdown: its own I/Os, latency and device views. */
static void tail_bd(const struct job_result *jr, const struct breakdown_in *whole, struct breakdown *out)
{
	const struct steady_tail *t = jr->steady ? jr->steady->tail : NULL;
	struct breakdown_in in = *whole;
	double ios = 0, lat = 0, wall_us = 0, rd = 0, wr = 0, rl = 0, wl = 0, busy = 0;
	int views = 0;
	uint64_t dirs[DDIR_NR] = { 0 };

	memset(out, 0, sizeof(*out));
	if (!t)
		return;
	for (int k = 0; k < DDIR_NR; k++) {
		const struct series_window *w = t->dir[k];

		if (!w || !w->ios)
			continue;
		dirs[k] = w->ios;
		ios += (double)w->ios;
		lat += w->lat_mean * (double)w->ios;
		if ((double)w->dur_us > wall_us)
			wall_us = (double)w->dur_us;
	}
	if (!(ios > 0) || !(whole->ios > 0))
		return;
	in.ios = ios;
	in.lat_ns = lat / ios;
	in.wall_s = wall_us / 1e6;	/* the series merges threads: real time, all threads' I/Os */
	in.usr_ns = whole->usr_ns * ios / whole->ios;
	in.sys_ns = whole->sys_ns * ios / whole->ios;
	in.wait_ns = whole->wait_ns * ios / whole->ios;
	in.dev_lat_ns = in.dev_ios = in.dev_busy_ns = NAN;
	for (size_t k = 0; k < jr->nr_dev_iv; k++) {
		const struct disk_view_iv *iv = &jr->dev_iv[k];

		if (iv->ramp || !iv->v.dur_ns || iv->t_ms <= t->start_ms || iv->t_ms > t->end_ms)
			continue;
		views++;
		busy += iv->v.util / 100 * (double)iv->v.dur_ns;
		rd += (double)iv->v.read_ios;
		wr += (double)iv->v.write_ios;
		rl += iv->v.read_lat_ns_mean * (double)iv->v.read_ios;
		wl += iv->v.write_lat_ns_mean * (double)iv->v.write_ios;
	}
	if (in.has_dev && rd + wr > 0) {
		dev_in_dirs(dirs, rd, wr, rd > 0 ? rl / rd : 0, wr > 0 ? wl / wr : 0, &in.dev_lat_ns,
			    &in.dev_ios);
		in.dev_busy_ns = busy;
	} else if (in.has_dev && views) {
		in.dev_ios = 0;	/* the tail's views saw no request: the cache served it */
	} else {
		in.has_dev = 0;
	}
	breakdown_compute(&in, out);
	for (int p = BD_TOOL_USER; p <= BD_CPU_WAIT; p++)
		if (!isnan(out->part[p].ns))
			append(out->part[p].exact, sizeof(out->part[p].exact),
			       "; the whole run's rate per I/O (the tail has no CPU figures of its own)");
}

/* One workload's key: jobs with equal keys differ only in depth or company. */
static void job_key(const struct job_result *jr, char *buf, size_t sz)
{
	const struct job *j = jr->job;

	if (!j) {
		snprintf(buf, sz, "?%.200s", jr->name);
		return;
	}
	snprintf(buf, sz, "%u:%u|%llu/%llu|%s|%d|%u|%s", j->rw, j->rwmixread,
		 (unsigned long long)j->bs[DDIR_READ], (unsigned long long)j->bs[DDIR_WRITE],
		 j->ioengine ? j->ioengine : JOB_IOENGINE_DEFAULT, j->direct,
		 jr->nr_threads ? jr->nr_threads : 1,
		 j->filename ? j->filename : jr->nr_dev ? jr->dev[0].name : "");
}

static void peers_fill(const struct run_result *r, struct bottleneck_peer *pv, char (*keys)[256])
{
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct job_result *jr = &r->jobs[i];
		double threads = jr->nr_threads ? jr->nr_threads : 1;
		double wall_us = (double)jr->job_runtime_ms * 1000.0 / threads;
		struct breakdown_in in;

		job_bd_in(r, jr, &in);
		job_key(jr, keys[i], sizeof(keys[i]));
		pv[i].groupid = jr->groupid;
		pv[i].key = keys[i];
		pv[i].depth = in.slots;
		pv[i].burner = in.deviceless;
		pv[i].has_io = in.ios > 0 && !in.deviceless;
		pv[i].iops = in.wall_s > 0 ? in.ios / in.wall_s : 0;
		pv[i].cycle_ns = jr->bd.valid ? jr->bd.cycle_ns : NAN;
		pv[i].dev_lat_ns = in.dev_lat_ns;
		pv[i].cpu_threads_pct = wall_us > 0 ? 100.0 * (double)(jr->usr_us + jr->sys_us) / wall_us : NAN;
	}
}

static void judge_job(struct run_result *r, size_t i, const struct bottleneck_peer *pv)
{
	struct job_result *jr = &r->jobs[i];
	const struct disk_view *v = jr->nr_dev ? &jr->dev[0] : NULL;
	struct bottleneck_in in;
	struct breakdown_in bin;
	double rt_us = (double)jr->job_runtime_ms * 1000.0;

	memset(&in, 0, sizeof(in));
	job_bd_in(r, jr, &bin);
	in.bd = jr->bd;
	in.bd_beside = 1;	/* the text's "time per I/O" line and the JSON's breakdown say it */
	/* job_runtime adds up the threads' (as fio's): this is per thread */
	in.cpu_pct = rt_us > 0 ? 100.0 * (double)(jr->usr_us + jr->sys_us) / rt_us : 0;
	in.req_depth = job_depth(jr);
	in.job_amount = (double)job_bytes(jr);
	in.rate_limited = rate_set(jr->job);
	in.rate_share = rate_share(jr);
	in.direct = jr->job ? jr->job->direct : 0;
	in.deviceless = bin.deviceless;
	in.passthru = bin.passthru;
	in.ctrl_cmds = jr->ctrl.valid ? (double)(jr->ctrl.read_cmds + jr->ctrl.write_cmds) : NAN;
	in.job_rw_ios = (double)(jr->dir[DDIR_READ].total_ios + jr->dir[DDIR_WRITE].total_ios);
	in.dev_ios_ratio = bin.has_dev && bin.ios > 0 ? bin.dev_ios / bin.ios : NAN;
	if (rt_us > 0 && jr->has_sched) {
		uint64_t ios = job_ios(jr);

		in.has_sched = 1;
		in.wait_share = (double)jr->rq_wait_ns / 1000.0 / rt_us;
		in.wait_ns_per_io = ios ? (double)jr->rq_wait_ns / (double)ios : 0;
		in.nivcsw = (double)jr->nivcsw;
		in.load1 = jr->load1;
	}
	if (v && v->dur_ns) {
		uint64_t dirs[DDIR_NR];

		job_dir_ios(jr, dirs);
		in.has_dev = 1;
		in.dev_depth = (dirs[DDIR_READ] ? v->read_queue_depth : 0) +
			       (dirs[DDIR_WRITE] ? v->write_queue_depth : 0);
		if (!dirs[DDIR_READ] && !dirs[DDIR_WRITE])
			in.dev_depth = v->read_queue_depth + v->write_queue_depth;
		in.dev_util = v->util;
		in.dev_nr_requests = (double)v->nr_requests;
		/* bytes in the job's directions: other processes' writes are not the job's reads */
		in.dev_amount = (double)((dirs[DDIR_READ] || !dirs[DDIR_WRITE] ? v->read_bytes : 0) +
					 (dirs[DDIR_WRITE] || !dirs[DDIR_READ] ? v->write_bytes : 0));
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
	if (pv)
		bottleneck_peer_judge(pv, r->nr_jobs, i, NAN, &in.cross);
	bottleneck_judge(&in, &jr->bottleneck);
}

/* Names of group @g's jobs, ", "-separated, cut to fit. */
static void group_names(const struct run_result *r, unsigned g, char *buf, size_t sz)
{
	buf[0] = '\0';
	for (size_t i = 0; i < r->nr_jobs; i++) {
		size_t len = strlen(buf);
		int dup = 0;

		if (r->jobs[i].groupid != g)
			continue;
		for (size_t k = 0; k < i && !dup; k++)
			dup = r->jobs[k].groupid == g && !strcmp(r->jobs[k].name, r->jobs[i].name);
		if (!dup) {
			if (len)
				append(buf, sz, ", ");
			append(buf, sz, r->jobs[i].name);
		}
	}
}

static int group_fill(const struct run_result *r, struct result_group *g)
{
	struct breakdown *bv = calloc(r->nr_jobs ? r->nr_jobs : 1, sizeof(*bv));
	double *w = calloc(r->nr_jobs ? r->nr_jobs : 1, sizeof(*w));
	size_t n = 0;

	if (!bv || !w) {
		free(bv);
		free(w);
		return -ENOMEM;
	}
	group_names(r, g->groupid, g->jobs, sizeof(g->jobs));
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct job_result *jr = &r->jobs[i];

		if (jr->groupid != g->groupid)
			continue;
		bv[n] = jr->bd;
		w[n++] = (double)job_ios(jr);
		/* per device, the view of the group's job measured longest on it */
		for (size_t d = 0; d < jr->nr_dev; d++) {
			size_t k;

			for (k = 0; k < g->nr_dev && strcmp(g->dev[k].name, jr->dev[d].name); k++)
				;
			if (k == g->nr_dev) {
				struct disk_view *nd = realloc(g->dev, (g->nr_dev + 1) * sizeof(*nd));

				if (!nd) {
					free(bv);
					free(w);
					return -ENOMEM;
				}
				g->dev = nd;
				g->dev[g->nr_dev++] = jr->dev[d];
			} else if (jr->dev[d].dur_ns > g->dev[k].dur_ns) {
				g->dev[k] = jr->dev[d];
			}
		}
	}
	breakdown_mean(bv, w, n, &g->bd);
	free(bv);
	free(w);
	return 0;
}

static int groups_build(struct run_result *r)
{
	for (size_t i = 0; i < r->nr_jobs; i++) {
		unsigned g = r->jobs[i].groupid;
		struct result_group *ng;
		size_t k;
		int ret;

		for (k = 0; k < r->nr_groups && r->groups[k].groupid != g; k++)
			;
		if (k < r->nr_groups)
			continue;
		ng = realloc(r->groups, (r->nr_groups + 1) * sizeof(*ng));
		if (!ng)
			return -ENOMEM;
		r->groups = ng;
		memset(&ng[r->nr_groups], 0, sizeof(*ng));
		ng[r->nr_groups].groupid = g;
		ret = group_fill(r, &ng[r->nr_groups]);
		r->nr_groups++;
		if (ret)
			return ret;
	}
	return 0;
}

int bottleneck_run(struct run_result *r)
{
	struct bottleneck_peer *pv = calloc(r->nr_jobs ? r->nr_jobs : 1, sizeof(*pv));
	char (*keys)[256] = calloc(r->nr_jobs ? r->nr_jobs : 1, sizeof(*keys));
	int ret;

	for (size_t i = 0; i < r->nr_jobs; i++) {
		struct breakdown_in in;

		job_bd_in(r, &r->jobs[i], &in);
		breakdown_compute(&in, &r->jobs[i].bd);
		tail_bd(&r->jobs[i], &in, &r->jobs[i].bd_tail);
	}
	if (pv && keys)
		peers_fill(r, pv, keys);
	for (size_t i = 0; i < r->nr_jobs; i++)
		judge_job(r, i, pv && keys ? pv : NULL);
	free(pv);
	free(keys);
	/* the run-level disk_util: the view of the first job on each device */
	for (size_t d = 0; d < r->nr_du; d++)
		for (size_t i = 0; i < r->nr_jobs && !r->du[d].view.dur_ns; i++)
			for (size_t k = 0; k < r->jobs[i].nr_dev; k++)
				if (!strcmp(r->jobs[i].dev[k].name, r->du[d].name)) {
					r->du[d].view = r->jobs[i].dev[k];
					break;
				}
	if (r->groups)	/* called again: build afresh */
		for (size_t g = 0; g < r->nr_groups; g++)
			free(r->groups[g].dev);
	free(r->groups);
	r->groups = NULL;
	r->nr_groups = 0;
	ret = groups_build(r);
	return ret ? ret : (pv && keys ? 0 : -ENOMEM);
}
