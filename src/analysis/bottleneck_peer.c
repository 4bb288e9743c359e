/*
 * bottleneck_peer: what the other jobs of one result say about a job's
 * limit (bottleneck.h).  A job file that runs the same workload at two
 * depths measures "latency against depth" directly: when the deeper run
 * adds no IOPS and its added time is spent in the device, the device is
 * saturated, however much the tool or the CPUs waited.  A job file that
 * runs the same workload alone and beside CPU-burning jobs (fio's cpuio)
 * measures contention directly, also where the result has no run-queue
 * wait (fio's JSON).
 */
#include "analysis/bottleneck.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* CPU used, in % of one CPU, by the jobs of group @g that touch no device. */
static double burners(const struct bottleneck_peer *v, size_t n, unsigned g)
{
	double s = 0;

	for (size_t k = 0; k < n; k++)
		if (v[k].groupid == g && v[k].burner && !isnan(v[k].cpu_threads_pct))
			s += v[k].cpu_threads_pct;
	return s;
}

static int same_workload(const struct bottleneck_peer *a, const struct bottleneck_peer *b)
{
	return a->has_io && b->has_io && a->groupid != b->groupid && a->key && b->key &&
	       !strcmp(a->key, b->key);
}

static void deeper(const struct bottleneck_peer *v, size_t n, size_t i, double whole,
		   struct bottleneck_cross *o)
{
	const struct bottleneck_peer *me = &v[i], *best = NULL;
	double gain, dev_add, cyc_add;

	/* the shallowest run of the same workload, at most half this depth */
	for (size_t k = 0; k < n; k++)
		if (k != i && same_workload(me, &v[k]) && 2 * v[k].depth <= me->depth &&
		    v[k].iops > 0 && (!best || v[k].depth < best->depth))
			best = &v[k];
	if (!best)
		return;
	gain = me->iops / best->iops - 1;
	if (gain >= BOTTLENECK_DEEPER_GAIN)
		return;
	cyc_add = me->cycle_ns - best->cycle_ns;
	if (!isnan(me->dev_lat_ns) && !isnan(best->dev_lat_ns)) {
		dev_add = me->dev_lat_ns - best->dev_lat_ns;
		o->saturated = cyc_add > 0 && dev_add >= 0.5 * cyc_add ? 1 : -1;
		snprintf(o->text, sizeof(o->text),
			 "depth %.0f -> %.0f (group %u -> %u) added %+.0f%% IOPS (%.0f -> %.0f); each I/O's "
			 "cycle grew %.0f us, its device time %.0f us (%.0f -> %.0f us)",
			 best->depth, me->depth, best->groupid, me->groupid, 100 * gain, best->iops,
			 me->iops, cyc_add / 1000, dev_add / 1000, best->dev_lat_ns / 1000,
			 me->dev_lat_ns / 1000);
	} else if (!isnan(whole)) {
		o->saturated = whole >= 0.5 ? 1 : -1;
		snprintf(o->text, sizeof(o->text),
			 "depth %.0f -> %.0f (group %u -> %u) added %+.0f%% IOPS (%.0f -> %.0f), each I/O's "
			 "cycle grew %.0f us; over the whole run the I/Os spent %.0f%% of their latency in "
			 "the device", best->depth, me->depth, best->groupid, me->groupid, 100 * gain,
			 best->iops, me->iops, cyc_add / 1000, 100 * whole);
	}
}

static void alone(const struct bottleneck_peer *v, size_t n, size_t i, struct bottleneck_cross *o)
{
	const struct bottleneck_peer *me = &v[i], *best = NULL;
	double beside = burners(v, n, me->groupid);
	size_t len;

	if (beside < BOTTLENECK_BURNER)
		return;
	for (size_t k = 0; k < n; k++)
		if (k != i && same_workload(me, &v[k]) && v[k].depth == me->depth &&
		    burners(v, n, v[k].groupid) < BOTTLENECK_BURNER && (!best || v[k].iops > best->iops))
			best = &v[k];
	if (!best || !(best->iops >= BOTTLENECK_ALONE * me->iops))
		return;
	o->alone_faster = 1;
	len = strlen(o->text);
	snprintf(o->text + len, sizeof(o->text) - len,
		 "%sthe same job alone (group %u) did %.0f IOPS, here %.0f (%.0f%%) beside I/O-less jobs "
		 "using %.0f%% of a CPU", len ? "; " : "", best->groupid, best->iops, me->iops,
		 100 * me->iops / best->iops, beside);
}

void bottleneck_peer_judge(const struct bottleneck_peer *v, size_t n, size_t i,
			   double whole_dev_share, struct bottleneck_cross *out)
{
	memset(out, 0, sizeof(*out));
	if (i >= n || !v[i].has_io || !v[i].key)
		return;
	deeper(v, n, i, whole_dev_share, out);
	alone(v, n, i, out);
}
