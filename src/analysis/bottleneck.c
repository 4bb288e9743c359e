/*
 * bottleneck: who limited a job (see bottleneck.h for the rules).
 */
#include "analysis/bottleneck.h"
#include "io/engine_traits.h"

#include <errno.h>
#include <stdint.h>	/* SIZE_MAX */
#include <stdlib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

/* A part's share of the cycle, 0 when unknown. */
static double share(const struct breakdown *b, enum breakdown_part p)
{
	return b->valid && !isnan(b->part[p].share) ? b->part[p].share : 0;
}

/* "device 100 us (77%), I/O path 10 us (8%), ..." */
static void breakdown_line(char *p, size_t sz, const struct breakdown *b)
{
	add(p, sz, "; each I/O's cycle %.1f us", b->cycle_ns / 1000);
	if (!isnan(b->lat_ns))
		add(p, sz, " (latency %.1f us)", b->lat_ns / 1000);
	add(p, sz, ":");
	for (int k = 0; k < BD_NR; k++) {
		const struct breakdown_item *it = &b->part[k];

		if (isnan(it->ns))
			add(p, sz, "%s %s unknown", k ? "," : "", breakdown_part_label((enum breakdown_part)k));
		else
			add(p, sz, "%s %s %.1f us (%.0f%%)", k ? "," : "",
			    breakdown_part_label((enum breakdown_part)k), it->ns / 1000, 100 * it->share);
	}
	if (b->batch > 1.0001)
		add(p, sz, ", %.1f completions per reap", b->batch);
}

/* The evidence line: every figure known, in a fixed order. */
static void evidence(const struct bottleneck_in *in, struct bottleneck_verdict *o, const char *why)
{
	char *p = o->evidence;
	size_t sz = sizeof(o->evidence);

	p[0] = '\0';
	add(p, sz, "%s; thread CPU %.0f%% of one CPU", why, in->cpu_pct);
	if (in->bd.valid && !in->bd_beside)
		breakdown_line(p, sz, &in->bd);
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
	} else if (in->passthru && !isnan(in->ctrl_cmds) && in->job_rw_ios > 0) {
		add(p, sz, "; no block layer (NVMe passthrough): the controller counted %.0f read and "
		    "write commands, %.0f%% of the job's", in->ctrl_cmds,
		    100.0 * in->ctrl_cmds / in->job_rw_ios);
	} else if (in->passthru) {
		add(p, sz, "; no block layer (NVMe passthrough): %s", isnan(in->ctrl_cmds) ?
		    "the device view is unavailable (no controller counters: its log could not be "
		    "read, or the result is fio's, which has none)" :
		    "the controller's view has no read or write to compare");
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
	if (in->cross.text[0])
		add(p, sz, "; %s", in->cross.text);
}

/*
 * The device or the path in front of it, by their shares of the time an I/O
 * was in flight: the cycle less its idle part (a paced job's sleep would
 * otherwise shrink both shares towards the margin and hide which is larger).
 */
static const char *device_or_path(const struct bottleneck_in *in, struct bottleneck_verdict *o,
				  char *why, size_t wsz)
{
	double d = share(&in->bd, BD_DEVICE), p = share(&in->bd, BD_IO_PATH);
	double busy = 1 - share(&in->bd, BD_IDLE);

	if (busy > 0.01 && busy < 1) {
		d /= busy;
		p /= busy;
	}

	if (in->cross.saturated < 0) {
		/* deeper added nothing and the added time is not the device's: a
		 * limit in front of it (a throttle, a queue in the host) */
		snprintf(why, wsz, "a deeper run added no IOPS and its added time passed outside the device: "
			 "the path in front of it is saturated (%.1f us of each I/O, %.0f%%)",
			 in->bd.part[BD_IO_PATH].ns / 1000, 100 * p);
		return "io_path";
	}
	if (in->dev_util >= BOTTLENECK_BUSY && d >= p) {
		snprintf(why, wsz, "the device was busy %.0f%% of the window and is %.0f%% of each I/O",
			 in->dev_util, 100 * d);
		return "device";
	}
	if (d >= p + BOTTLENECK_MARGIN) {
		snprintf(why, wsz, "the device's own time is %.0f%% of each I/O (latency-bound)", 100 * d);
		return "device";
	}
	if (p >= d + BOTTLENECK_MARGIN) {
		snprintf(why, wsz, "%.1f us of each I/O (%.0f%%) passed in the I/O path outside the device "
			 "and outside the tool's threads", in->bd.part[BD_IO_PATH].ns / 1000, 100 * p);
		return "io_path";
	}
	(void)o;
	snprintf(why, wsz, "the device (%.0f%%) and the I/O path outside it (%.0f%%) take similar shares "
		 "of each I/O: the evidence cannot tell which limits", 100 * d, 100 * p);
	return "unknown";
}

void bottleneck_judge(const struct bottleneck_in *in, struct bottleneck_verdict *o)
{
	int cpu_bound = in->cpu_pct >= BOTTLENECK_CPU_PCT;
	double ratio = in->req_depth > 0 ? in->dev_depth / in->req_depth : 0;
	int queue_full = in->dev_nr_requests > 0 && in->dev_depth >= 0.9 * in->dev_nr_requests;
	/*
	 * The wait's share of the run, not of the cycle's batch estimate: at
	 * depth every I/O completing while the thread waits stalls with it, and
	 * on a loaded machine the same QD32 job at real-time priority did 2x the
	 * IOPS (docs/breakdown.md).
	 */
	int waited = in->has_sched && in->wait_share >= BOTTLENECK_WAIT;
	double tool = share(&in->bd, BD_TOOL_USER) + share(&in->bd, BD_TOOL_SYS);
	char buf[200];
	const char *why = buf, *v;

	memset(o, 0, sizeof(*o));
	o->cpu_pct = in->cpu_pct;
	o->req_depth = in->req_depth;
	o->dev_depth = in->has_dev ? in->dev_depth : -1;
	o->dev_io_share = in->has_dev && in->job_amount > 0 ? in->dev_amount / in->job_amount : -1;
	o->tool_minus_dev_ns = in->bd.valid && !isnan(in->bd.part[BD_DEVICE].ns) && !isnan(in->bd.lat_ns) ?
			       in->bd.lat_ns - in->bd.part[BD_DEVICE].ns : NAN;
	if (in->rate_limited && !cpu_bound &&
	    (isnan(in->rate_share) || in->rate_share >= BOTTLENECK_RATE)) {
		v = "rate_limit";
		if (!isnan(in->rate_share)) {
			why = "a rate limit is set and was reached";
		} else if (in->bd.valid && !isnan(in->bd.part[BD_IDLE].ns)) {
			snprintf(buf, sizeof(buf), "a rate limit, think time or latency target paces the job: "
				 "no I/O in flight %.0f%% of each cycle", 100 * share(&in->bd, BD_IDLE));
		} else {
			why = "a rate limit, think time or latency target paces the job";
		}
	} else if (in->has_dev && in->job_amount > 0 &&
		   in->dev_amount < BOTTLENECK_CACHE * in->job_amount) {
		v = "page_cache";
		why = "the device did far less than the job: the page cache (or a sparse file's holes) served it";
	} else if (in->deviceless) {
		/* nothing but the tool (and the CPU it was given) does the work */
		v = in->cross.alone_faster ? "cpu_contention" : "tool";
		why = in->cross.alone_faster ?
		      "the engine touches no device and the same job alone did more" :
		      "the engine touches no device: only the tool (and the CPU it was given) is measured";
	} else if (cpu_bound) {
		v = "tool";
		why = "the job's thread was CPU-bound";
	} else if (!in->has_dev) {
		v = waited ? "cpu_contention" : "unknown";
		why = waited ? "no device to look at, and the thread waited for a CPU" :
		      in->passthru ? "NVMe passthrough: no block layer counts its commands and the "
				     "controller's log has no time: nothing tells the device from the path" :
			       "no block device under the target: nothing to compare the job with";
	} else if (!isnan(in->dev_ios_ratio) && in->dev_ios_ratio > BOTTLENECK_SHARED) {
		v = "unknown";
		snprintf(buf, sizeof(buf), "the device did %.1f times the job's I/Os: mostly other I/O, "
			 "its figures are not the job's", in->dev_ios_ratio);
	} else if (!in->direct) {
		v = in->dev_util >= BOTTLENECK_BUSY ? "device" : "unknown";
		why = in->dev_util >= BOTTLENECK_BUSY ? "buffered I/O on a busy device" :
							"buffered I/O on a device not kept busy";
	} else if (ratio >= BOTTLENECK_DEPTH || queue_full) {
		v = "device";
		why = queue_full ? "the device's queue was full" : "the device held the requested depth";
	} else if (in->cross.saturated > 0) {
		v = "device";
		why = "a deeper run added no IOPS and its added time was spent in the device: saturated";
	} else if ((waited && in->dev_util < BOTTLENECK_NOT_IDLE) || in->cross.alone_faster) {
		/* runnable, not running: completions waited for the thread */
		v = "cpu_contention";
		why = in->cross.alone_faster && !waited ?
		      "the same job did more beside no CPU-burning jobs" :
		      "the thread waited for a CPU while the device was not kept busy";
	} else if (tool >= BOTTLENECK_TOOL) {
		v = "tool";
		snprintf(buf, sizeof(buf), "the tool's own CPU time is %.0f%% of each I/O", 100 * tool);
	} else if (!in->bd.valid) {
		v = "unknown";
		why = "no breakdown of the job's I/Os";
	} else {
		v = device_or_path(in, o, buf, sizeof(buf));
	}
	snprintf(o->verdict, sizeof(o->verdict), "%s", v);
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

/*
 * Job @j's device: the disk_util entry named after its filename= when it
 * is one (stacked devices -- a loop over a loop, a dm over a disk -- each
 * count the same I/Os), else the busiest.
 */
static const struct resultread_disk *disk_of(const struct resultread *r, const struct resultread_job *j)
{
	for (size_t k = 0; j->target_dev[0] && k < r->nr_du; k++)
		if (!strcmp(r->du[k].name, j->target_dev))
			return &r->du[k];
	return busiest(r);
}

/* Entries (threads or group_reporting merges) of job @i's definition. */
static double entries_of(const struct resultread *r, size_t i)
{
	double k = 0;

	for (size_t m = 0; m < r->nr_jobs; m++)
		if (r->jobs[m].groupid == r->jobs[i].groupid && !strcmp(r->jobs[m].name, r->jobs[i].name))
			k++;
	return k > 0 ? k : 1;
}

/* Threads behind entry @i: one, or numjobs for a group_reporting merge. */
static double threads_of_entry(const struct resultread *r, size_t i)
{
	int first;
	double t = (double)bottleneck_threads_of(r, i, &first) / entries_of(r, i);

	return t >= 1 ? t : 1;
}

static double job_ios_all(const struct resultread_job *j)
{
	double n = 0;

	for (int k = 0; k < RESULTREAD_NDIR; k++)
		n += (double)j->ios[k];
	return n;
}

static double job_lat(const struct resultread_job *j)
{
	double s = 0, n = 0;

	for (int k = 0; k < RESULTREAD_NDIR; k++) {
		double l = !isnan(j->lat_mean_ns[k]) ? j->lat_mean_ns[k] : j->clat_mean_ns[k];

		if (j->ios[k] && !isnan(l)) {
			s += l * (double)j->ios[k];
			n += (double)j->ios[k];
		}
	}
	return n > 0 ? s / n : NAN;
}

/*
 * The device per request in job @j's directions, from disk_util @dk (whole
 * run) or its measured-time view; *@ios its requests in those directions.
 */
static double disk_lat(const struct resultread_disk *dk, const struct resultread_job *j, double *ios)
{
	double rd = j->ios[DDIR_READ] ? (double)dk->read_ios : 0;
	double wr = j->ios[DDIR_WRITE] ? (double)dk->write_ios : 0;
	double rl, wl, s = 0, w = 0;

	*ios = rd + wr;
	rl = dk->has_view ? dk->read_lat_ns : dk->read_ios ? (double)dk->read_ticks * 1e6 / (double)dk->read_ios : 0;
	wl = dk->has_view ? dk->write_lat_ns : dk->write_ios ? (double)dk->write_ticks * 1e6 / (double)dk->write_ios : 0;
	if (rd > 0) {
		s += (double)j->ios[DDIR_READ] * rl;
		w += (double)j->ios[DDIR_READ];
	}
	if (wr > 0) {
		s += (double)j->ios[DDIR_WRITE] * wl;
		w += (double)j->ios[DDIR_WRITE];
	}
	return w > 0 ? s / w : NAN;
}

/* I/Os of every job of the result in the directions job @j did (all reach the device). */
static double result_ios_in_dirs(const struct resultread *r, const struct resultread_job *j)
{
	double n = 0;

	for (size_t k = 0; k < r->nr_jobs; k++)
		for (int d = DDIR_READ; d <= DDIR_WRITE; d++)
			if (j->ios[d])
				n += (double)r->jobs[k].ios[d];
	return n;
}

void bottleneck_read_breakdown(const struct resultread *r, size_t i, struct breakdown *out)
{
	const struct resultread_job *j = &r->jobs[i];
	const struct resultread_disk *dk = disk_of(r, j);
	struct breakdown_in in;
	const char *why = NULL;
	double threads = threads_of_entry(r, i), per = bottleneck_depth_kept(j, &why);

	if (j->time.bd.valid) {
		*out = j->time.bd;
		return;
	}
	memset(&in, 0, sizeof(in));
	in.ios = job_ios_all(j);
	in.slots = per * threads;
	in.threads = threads;
	in.wall_s = (double)j->job_runtime_ms / 1000.0 / threads;
	in.lat_ns = job_lat(j);
	in.dev_lat_ns = in.dev_ios = NAN;
	in.usr_ns = j->time.usr_pct / 100 * (double)j->job_runtime_ms * 1e6;
	in.sys_ns = j->time.sys_pct / 100 * (double)j->job_runtime_ms * 1e6;
	in.cpu_rounded = 1;
	in.wait_ns = NAN;
	in.batch = breakdown_batch_from_buckets(j->time.complete_pct, per);
	in.deviceless = (engine_traits(j->ioengine) & ENGINE_F_NODEVICE) != 0;
	in.passthru = (engine_traits(j->ioengine) & ENGINE_F_PASSTHRU) != 0;
	in.direct = j->direct;
	in.dev_busy_ns = NAN;	/* fio's util covers the whole run, every group */
	if (dk && !in.deviceless && !in.passthru) {
		double all = result_ios_in_dirs(r, j);

		in.dev_lat_ns = disk_lat(dk, j, &in.dev_ios);
		in.has_dev = !isnan(in.dev_lat_ns) || in.dev_ios == 0;
		in.dev_whole_run = !dk->has_view;
		/* the result's other jobs reached the same counters */
		if (all > 0)
			in.dev_ios *= in.ios / all;
	}
	breakdown_compute(&in, out);
}

int bottleneck_result_breakdown(const struct resultread *r, int tail, struct breakdown *out)
{
	struct breakdown *v = calloc(r->nr_jobs ? r->nr_jobs : 1, sizeof(*v));
	double *w = calloc(r->nr_jobs ? r->nr_jobs : 1, sizeof(*w));

	memset(out, 0, sizeof(*out));
	if (!v || !w) {
		free(v);
		free(w);
		return -ENOMEM;
	}
	for (size_t i = 0; i < r->nr_jobs; i++) {
		if (tail && r->jobs[i].time.bd_tail.valid)
			v[i] = r->jobs[i].time.bd_tail;
		else
			bottleneck_read_breakdown(r, i, &v[i]);
		w[i] = job_ios_all(&r->jobs[i]);
	}
	breakdown_mean(v, w, r->nr_jobs, out);
	free(v);
	free(w);
	return out->valid ? 0 : -ENOENT;
}

/* The result's jobs as bottleneck_peer_judge compares them; @pv has nr_jobs entries. */
static void read_peers(const struct resultread *r, struct bottleneck_peer *pv)
{
	for (size_t k = 0; k < r->nr_jobs; k++) {
		const struct resultread_job *o = &r->jobs[k];
		const char *why = NULL;
		double t = threads_of_entry(r, k);
		struct breakdown b;

		bottleneck_read_breakdown(r, k, &b);
		pv[k].groupid = o->groupid;
		pv[k].key = o->time.key;
		pv[k].depth = t * bottleneck_depth_kept(o, &why);
		pv[k].burner = (engine_traits(o->ioengine) & ENGINE_F_NODEVICE) != 0;
		pv[k].has_io = job_ios_all(o) > 0 && !pv[k].burner;
		pv[k].iops = 0;
		for (int d = 0; d < RESULTREAD_NDIR; d++)
			pv[k].iops += o->iops[d];
		pv[k].cycle_ns = b.valid ? b.cycle_ns : NAN;
		pv[k].dev_lat_ns = o->time.view.has ?
				   (o->time.view.read_lat_ns * o->time.view.read_ios +
				    o->time.view.write_lat_ns * o->time.view.write_ios) /
				   (o->time.view.read_ios + o->time.view.write_ios) : NAN;
		pv[k].cpu_threads_pct = isnan(o->cpu_pct) ? NAN : o->cpu_pct * t;
	}
}

/* fio: the device's ticks over the jobs' summed latency, over the whole run. */
static double whole_dev_share(const struct resultread *r)
{
	const struct resultread_disk *dk = busiest(r);
	double lat = 0;

	if (!dk || dk->has_view)
		return NAN;
	for (size_t k = 0; k < r->nr_jobs; k++) {
		double l = job_lat(&r->jobs[k]);

		if (!isnan(l))
			lat += l * job_ios_all(&r->jobs[k]);
	}
	return lat > 0 ? (double)(dk->read_ticks + dk->write_ticks) * 1e6 / lat : NAN;
}

int bottleneck_from_read(const struct resultread *r, size_t i, struct bottleneck_verdict *out)
{
	const struct resultread_job *j = &r->jobs[i];
	const struct resultread_disk *dk = NULL;
	struct bottleneck_peer *pv;
	struct bottleneck_in in;
	double rt_ms, ios = job_ios_all(j);

	memset(out, 0, sizeof(*out));
	if (ios <= 0)
		return -ENOENT;
	memset(&in, 0, sizeof(in));
	bottleneck_read_breakdown(r, i, &in.bd);
	in.rate_limited = j->rate_limited;
	in.rate_share = NAN;
	in.direct = j->direct;
	in.deviceless = (engine_traits(j->ioengine) & ENGINE_F_NODEVICE) != 0;
	/* a block device fio lists for a passthrough job never saw its commands */
	in.passthru = (engine_traits(j->ioengine) & ENGINE_F_PASSTHRU) != 0;
	in.ctrl_cmds = NAN;
	in.dev_ios_ratio = NAN;
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
	dk = disk_of(r, j);
	if (j->time.view.has) {
		/* iotrial's own view of the job's window */
		const struct resultread_view *v = &j->time.view;

		in.has_dev = 1;
		in.dev_amount_is_ios = 1;
		in.dev_amount = (j->ios[DDIR_READ] ? v->read_ios : 0) + (j->ios[DDIR_WRITE] ? v->write_ios : 0);
		in.dev_depth = (j->ios[DDIR_READ] ? v->read_qd : 0) + (j->ios[DDIR_WRITE] ? v->write_qd : 0);
		in.dev_util = v->util;
	} else if (dk && rt_ms > 0 && !in.deviceless && !in.passthru) {
		double dios = (double)((j->ios[DDIR_READ] ? dk->read_ios : 0) +
				       (j->ios[DDIR_WRITE] ? dk->write_ios : 0));
		double ticks = (double)((j->ios[DDIR_READ] ? dk->read_ticks : 0) +
					(j->ios[DDIR_WRITE] ? dk->write_ticks : 0));
		double all = result_ios_in_dirs(r, j);

		in.has_dev = 1;
		in.dev_amount_is_ios = 1;
		/* fio's counters cover every group: the group's share of them */
		in.dev_amount = all > 0 ? dios * in.job_amount / all : dios;
		if (dk->has_view) {
			in.dev_depth = (j->ios[DDIR_READ] ? dk->read_qd : 0) + (j->ios[DDIR_WRITE] ? dk->write_qd : 0);
			in.dev_util = dk->view_util;
		} else {
			in.dev_depth = ticks / rt_ms;
			in.dev_util = dk->util;
		}
		in.dev_ios_ratio = all > 0 ? dios / all : NAN;
	}
	pv = calloc(r->nr_jobs, sizeof(*pv));
	if (pv) {
		read_peers(r, pv);
		bottleneck_peer_judge(pv, r->nr_jobs, i, whole_dev_share(r), &in.cross);
		free(pv);
	}
	bottleneck_judge(&in, out);
	return 0;
}

int bottleneck_device_figures(const struct resultread *r, double *lat_ns, double *queue_depth,
			      char *window, size_t wsz)
{
	const struct resultread_disk *dk = busiest(r);
	double rt_ms = wall_ms(r), ios, lat = 0, nios = 0, qd = 0, secs = 0;
	size_t groups = 0, first = SIZE_MAX;
	char tmp[8];

	if (!window) {
		window = tmp;
		wsz = sizeof(tmp);
	}
	*lat_ns = *queue_depth = NAN;
	window[0] = '\0';
	/* iotrial: each stonewall group's own window (its job measured longest) */
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct resultread_view *v = &r->jobs[i].time.view, *best = v;
		size_t seen = 0;

		if (!v->has)
			continue;
		for (size_t k = 0; k < i; k++)
			seen |= r->jobs[k].groupid == r->jobs[i].groupid && r->jobs[k].time.view.has;
		if (seen)
			continue;
		for (size_t k = i + 1; k < r->nr_jobs; k++)
			if (r->jobs[k].groupid == r->jobs[i].groupid && r->jobs[k].time.view.has &&
			    r->jobs[k].time.view.window_s > best->window_s)
				best = &r->jobs[k].time.view;
		lat += best->read_lat_ns * best->read_ios + best->write_lat_ns * best->write_ios;
		nios += best->read_ios + best->write_ios;
		qd += (best->read_qd + best->write_qd) * best->window_s;
		secs += best->window_s;
		if (!groups++)
			first = i;
	}
	if (groups && nios > 0 && secs > 0) {
		*lat_ns = lat / nios;
		*queue_depth = qd / secs;
		if (groups == 1)
			snprintf(window, wsz, "%s over group %u's window (job '%s', %.2f s)",
				 r->jobs[first].time.view.name, r->jobs[first].groupid, r->jobs[first].name, secs);
		else
			snprintf(window, wsz, "%s over %zu groups' windows, each its own (%.2f s in all, "
				 "depth time-weighted)", r->jobs[first].time.view.name, groups, secs);
		return 0;
	}
	if (!dk || !(ios = (double)(dk->read_ios + dk->write_ios)) || rt_ms <= 0)
		return -ENOENT;
	if (dk->has_view) {
		*lat_ns = (dk->read_lat_ns * (double)dk->read_ios + dk->write_lat_ns * (double)dk->write_ios) / ios;
		*queue_depth = dk->read_qd + dk->write_qd;
		snprintf(window, wsz, "%s over the first job's measured window", dk->name);
	} else {
		*lat_ns = (double)(dk->read_ticks + dk->write_ticks) * 1e6 / ios;
		*queue_depth = (double)(dk->read_ticks + dk->write_ticks) / rt_ms;
		snprintf(window, wsz, "%s from fio's disk_util: the whole run (set-up and every group)",
			 dk->name);
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
