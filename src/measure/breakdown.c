/*
 * breakdown: where the time of each I/O goes (see breakdown.h for the model,
 * docs/breakdown.md for its limits).  Pure arithmetic on figures the run or
 * a result file already has: no I/O, no allocation.
 */
#include "measure/breakdown.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const part_names[BD_NR] = { "device", "io_path", "tool_user", "tool_sys",
					       "cpu_wait", "idle" };
static const char *const part_labels[BD_NR] = { "device", "I/O path", "tool (user)",
						"tool (system)", "CPU wait", "idle" };

const char *breakdown_part_name(enum breakdown_part p)
{
	return p < BD_NR ? part_names[p] : "?";
}

const char *breakdown_part_label(enum breakdown_part p)
{
	return p < BD_NR ? part_labels[p] : "?";
}

static void item(struct breakdown_item *it, double ns, const char *from, const char *exact)
{
	it->ns = ns;
	it->share = NAN;
	snprintf(it->from, sizeof(it->from), "%s", from);
	snprintf(it->exact, sizeof(it->exact), "%s", exact);
}

/*
 * The device's time per job I/O.  With O_DIRECT every job I/O becomes a
 * request or part of one, and waits for all of it: a merged request of 32
 * I/Os holds each of them for its whole time, so the time per request is
 * each I/O's.  With the page cache between (buffered), most I/Os never wait
 * for the device: a cache hit waits for none, a readahead request is waited
 * for by at most the one I/O that missed.  The device's busy time over the
 * job's I/Os (ticks / job I/Os) is then its share of each; the rest of the
 * latency is the kernel's (the copy from the cache on the thread, in
 * tool_sys; merging and readahead off it, in io_path).  A pre-read 64 MiB
 * file read at random in 4k: the device did 10k of 843k I/Os, and the time
 * per request gave it 99.98% of each I/O's cycle.
 */
static void device_part(const struct breakdown_in *in, struct breakdown *o)
{
	struct breakdown_item *it = &o->part[BD_DEVICE];
	double r = in->ios > 0 ? in->dev_ios / in->ios : NAN, ns = in->dev_lat_ns;
	char ex[200];
	const char *from = in->dev_whole_run ?
		"fio's disk_util: read/write ticks / requests of the device" :
		"the device's read/write ticks / requests over the job's window";

	if (in->deviceless) {
		item(it, 0, "none: the engine touches no device", "exact");
		return;
	}
	if (!in->has_dev && in->passthru) {
		item(it, NAN, "passthrough: no block layer counts its commands",
		     "unknown: the controller's log counts commands, not time; inside io_path");
		return;
	}
	if (!in->has_dev) {
		item(it, NAN, "no block device under the target",
		     "unknown: the device's time is inside io_path");
		return;
	}
	if (in->dev_ios == 0) {
		item(it, 0, in->dev_whole_run ? "fio's disk_util: no request in the job's directions" :
			    "the device's counters: no request in the job's directions over the window",
		     "exact: the page cache (or a sparse file's holes) served every I/O");
		return;
	}
	if (isnan(ns)) {
		item(it, NAN, "the device's counters: no time recorded",
		     "unknown: the device's time is inside io_path");
		return;
	}
	if (!isnan(r) && r > 1.03) {
		snprintf(ex, sizeof(ex), "shared: the device did %.0f%% of the job's I/Os, "
			 "this is the mean over all of them", 100 * r);
	} else if (!isnan(r) && r < 0.97 && in->direct) {
		snprintf(ex, sizeof(ex), "merged requests: the device did %.0f%% of the job's I/Os, "
			 "and each I/O waited for the whole request that held it", 100 * r);
	} else if (!isnan(r) && r < 0.97) {
		snprintf(ex, sizeof(ex), "the device did %.1f%% of the job's I/Os (%.1f us per request): "
			 "its busy time over the job's I/Os; the rest, cache hits and readahead, is the "
			 "kernel's", 100 * r, ns / 1000);
		ns *= r;
		/* readahead and write-back run beside the job: requests in flight
		 * together count their time twice, the busy time once */
		if (in->dev_busy_ns > 0 && in->dev_busy_ns * in->slots / in->ios < ns) {
			size_t len = strlen(ex);

			ns = in->dev_busy_ns * in->slots / in->ios;
			snprintf(ex + len, sizeof(ex) - len, "; requests overlapped: the busy time");
		}
		from = in->dev_whole_run ?
		       "fio's disk_util: read/write ticks / the job's I/Os (buffered)" :
		       "the device's read/write ticks over the job's window / the job's I/Os (buffered)";
	} else {
		snprintf(ex, sizeof(ex), "the job's own requests; ticks are whole ms: +-%.0f ns per I/O",
			 in->dev_ios > 0 ? 2e6 / in->dev_ios : 0);
	}
	if (!isnan(in->lat_ns) && ns > in->lat_ns) {
		size_t len = strlen(ex);

		snprintf(ex + len, sizeof(ex) - len, "; capped at the job's latency (device %.0f us)",
			 ns / 1000);
		ns = in->lat_ns;
	}
	if (in->dev_whole_run) {
		size_t len = strlen(ex);

		snprintf(ex + len, sizeof(ex) - len, "; over the whole run (set-up, every group)");
	}
	item(it, ns, from, ex);
}

/* @v per I/O of the thread, counted @mult times on each I/O's cycle. */
static void thread_part(struct breakdown_item *it, double total_ns, double ios, double mult,
			const char *from, const char *exact, int exact_b)
{
	char ex[200];

	if (isnan(total_ns)) {
		item(it, NAN, from, "not recorded: inside io_path");
		return;
	}
	if (mult > 1.0001)
		snprintf(ex, sizeof(ex), "%s; x %.2f for the completions reaped together (%s): "
			 "an estimate", exact, mult, exact_b ? "counted" : "from fio's buckets");
	else
		snprintf(ex, sizeof(ex), "%s", exact);
	item(it, total_ns / ios * mult, from, ex);
}

/*
 * At depth a wait for a CPU stalls more than the batch reaped after it:
 * every I/O that completes while the thread waits sits until it runs, and
 * no new one is submitted.  The batch estimate (b completions waited) is
 * the least it cost; the most is every slot of the thread waiting the whole
 * time (depth per thread x the wait per I/O, the wait's share of the run
 * applied to the cycle).  Which it was depends on how long each wait was
 * against the device's latency, which the counters do not say; so of the
 * time outside the device and the tool, up to that most is counted as CPU
 * wait rather than left in io_path.  Measured on a loaded 2-CPU machine
 * (docs/breakdown.md): at QD32 the same job at real-time priority did 2x
 * the IOPS, and the io_path it lost was what this moves.
 */
static void cpu_wait_bound(const struct breakdown_in *in, struct breakdown *o)
{
	struct breakdown_item *w = &o->part[BD_CPU_WAIT];
	double per_thread = in->slots / (in->threads > 0 ? in->threads : 1);
	double lo = w->ns, hi, outside = o->cycle_ns;
	char ex[200];

	if (isnan(lo) || per_thread <= o->batch * 1.0001)
		return;
	hi = in->wait_ns / in->ios * per_thread;
	for (int p = 0; p < BD_NR; p++)
		if (p != BD_IO_PATH && p != BD_CPU_WAIT && !isnan(o->part[p].ns))
			outside -= o->part[p].ns;
	if (!(outside > lo))
		return;
	w->ns = outside < hi ? outside : hi;
	snprintf(ex, sizeof(ex), "ns as the kernel counts them; between %.1f us (the batch reaped after "
		 "a wait) and %.1f us (every I/O in flight waited): the time outside the device and the "
		 "tool up to the latter", lo / 1000, hi / 1000);
	snprintf(w->exact, sizeof(w->exact), "%s", ex);
}

/*
 * The time a slot holds no I/O: its cycle less the I/O's latency.  The tool's
 * code between a completion and the next submission, and a wait for a CPU
 * there, are their own parts; what is left of that time is idle -- a rate
 * limit's or thinktime's sleep -- and must not be called I/O path (a rate-
 * limited null job's 200 us cycle is not 200 us of kernel).  So io_path,
 * the remainder, is at most the latency less the device.  Unknown without
 * a latency.
 */
static void idle_part(const struct breakdown_in *in, struct breakdown *o)
{
	double outside = o->cycle_ns - in->lat_ns, inside_parts = 0;

	if (isnan(in->lat_ns)) {
		item(&o->part[BD_IDLE], NAN, "no latency recorded",
		     "unknown: inside io_path");
		return;
	}
	for (int p = BD_TOOL_USER; p <= BD_CPU_WAIT; p++)
		if (!isnan(o->part[p].ns))
			inside_parts += o->part[p].ns;
	outside -= inside_parts;
	item(&o->part[BD_IDLE], outside > 0 ? outside : 0,
	     "the cycle less the latency, less the tool and CPU-wait parts",
	     "no I/O in flight: a rate limit's or thinktime's sleep, a slow submitter; "
	     "low by the tool's time spent inside the latency");
}

void breakdown_compute(const struct breakdown_in *in, struct breakdown *o)
{
	double b = in->batch, known = 0, rest;
	const char *cpu_from = in->cpu_rounded ? "usr_cpu x job_runtime / I/Os (fio)" :
				"the threads' user time (getrusage) / I/Os";
	const char *sys_from = in->cpu_rounded ? "sys_cpu x job_runtime / I/Os (fio)" :
				"the threads' system time (getrusage) / I/Os";
	const char *split = "the kernel samples the user/system split at its tick and scales it to "
			    "the exact runtime: under 1% of a CPU is noise";

	memset(o, 0, sizeof(*o));
	if (!(in->ios > 0) || !(in->wall_s > 0) || !(in->slots > 0))
		return;
	o->valid = 1;
	o->cycle_ns = in->slots * in->wall_s * 1e9 / in->ios;
	o->lat_ns = in->lat_ns;
	if (isnan(b) || b < 1)
		b = 1;
	if (b > in->slots / (in->threads > 0 ? in->threads : 1))
		b = in->slots / (in->threads > 0 ? in->threads : 1);
	o->batch = b;
	device_part(in, o);
	thread_part(&o->part[BD_TOOL_USER], in->usr_ns, in->ios, (b + 1) / 2, cpu_from, split,
		    in->batch_exact);
	thread_part(&o->part[BD_TOOL_SYS], in->sys_ns, in->ios, (b + 1) / 2, sys_from, split,
		    in->batch_exact);
	thread_part(&o->part[BD_CPU_WAIT], in->wait_ns, in->ios, b,
		    "the threads' run-queue wait (schedstat) / I/Os", "ns, as the kernel counts it",
		    in->batch_exact);
	cpu_wait_bound(in, o);
	idle_part(in, o);
	for (int p = 0; p < BD_NR; p++)
		if (p != BD_IO_PATH && !isnan(o->part[p].ns))
			known += o->part[p].ns;
	rest = o->cycle_ns - known;
	if (rest < 0) {
		o->overlap_ns = -rest;
		rest = 0;
	}
	{
		char ex[200];
		int no_wait = isnan(o->part[BD_CPU_WAIT].ns), no_dev = isnan(o->part[BD_DEVICE].ns);
		int no_idle = isnan(o->part[BD_IDLE].ns);

		snprintf(ex, sizeof(ex), "the remainder: carries the other parts' errors%s%s%s%s",
			 no_wait ? "; includes any wait for a CPU (not recorded)" : "",
			 no_dev ? "; includes the device" : "",
			 no_idle ? "; includes idle time (latency unknown)" : "",
			 o->overlap_ns > 0 ? "; 0: the parts overlap (see overlap_ns)" : "");
		item(&o->part[BD_IO_PATH], rest,
		     no_idle ? "the cycle less the device, tool and CPU-wait parts" :
			       "the cycle less the device, tool, CPU-wait and idle parts", ex);
	}
	for (int p = 0; p < BD_NR; p++)
		if (!isnan(o->part[p].ns))
			o->part[p].share = o->part[p].ns / o->cycle_ns;
}

double breakdown_batch_from_buckets(const double pct[7], double depth)
{
	static const double lo[7] = { 1, 1, 5, 9, 17, 33, 64 }, hi[7] = { 1, 4, 8, 16, 32, 64, 64 };
	double s = 0, n = 0;

	for (int k = 0; k < 7; k++) {
		double a = lo[k], z = hi[k];

		if (!(pct[k] > 0))
			continue;
		if (depth >= 1 && z > depth)
			z = depth;
		if (a > z)
			a = z;
		s += pct[k] * (a + z) / 2;
		n += pct[k];
	}
	return n > 0 ? s / n : NAN;
}

void breakdown_mean(const struct breakdown *v, const double *w, size_t n, struct breakdown *out)
{
	double wt = 0, lat_w = 0, part_w[BD_NR] = { 0 };
	const struct breakdown *first = NULL;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		if (!v[i].valid || !(w[i] > 0))
			continue;
		if (!first) {
			first = &v[i];
			*out = v[i];
			out->cycle_ns = out->lat_ns = out->batch = out->overlap_ns = 0;
			for (int p = 0; p < BD_NR; p++)
				out->part[p].ns = 0;
		}
		wt += w[i];
		out->cycle_ns += v[i].cycle_ns * w[i];
		out->batch += v[i].batch * w[i];
		out->overlap_ns += v[i].overlap_ns * w[i];
		if (!isnan(v[i].lat_ns)) {
			out->lat_ns += v[i].lat_ns * w[i];
			lat_w += w[i];
		}
		for (int p = 0; p < BD_NR; p++)
			if (!isnan(v[i].part[p].ns)) {
				out->part[p].ns += v[i].part[p].ns * w[i];
				part_w[p] += w[i];
			}
	}
	if (!first)
		return;
	out->cycle_ns /= wt;
	out->batch /= wt;
	out->overlap_ns /= wt;
	out->lat_ns = lat_w > 0 ? out->lat_ns / lat_w : NAN;
	for (int p = 0; p < BD_NR; p++) {
		/* a part known for some entries only is not a mean of the whole */
		out->part[p].ns = part_w[p] >= wt * 0.999 ? out->part[p].ns / part_w[p] : NAN;
		out->part[p].share = isnan(out->part[p].ns) ? NAN : out->part[p].ns / out->cycle_ns;
	}
}

enum breakdown_part breakdown_largest(const struct breakdown *b)
{
	enum breakdown_part best = BD_NR;

	if (!b->valid)
		return BD_NR;
	for (int p = 0; p < BD_NR; p++)
		if (!isnan(b->part[p].ns) && (best == BD_NR || b->part[p].ns > b->part[best].ns))
			best = (enum breakdown_part)p;
	return best;
}
