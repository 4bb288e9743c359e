/*
 * plausibility: the plausibility checks on a result (see plausibility.h for
 * the list, the thresholds and why each one matters).
 */
#include "analysis/plausibility.h"
#include "lib/ddir.h"
#include "analysis/bottleneck.h"
#include "io/engine_traits.h"
#include "lib/vec.h"	/* vec_grow */
#include "lib/human.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void plausibility_list_init(struct plausibility_list *l)
{
	memset(l, 0, sizeof(*l));
}

void plausibility_list_free(struct plausibility_list *l)
{
	free(l->v);
	plausibility_list_init(l);
}

int plausibility_add(struct plausibility_list *l, const char *id, enum plausibility_sev sev,
	      const char *fmt, ...)
{
	struct plausibility_item *it;
	va_list ap;

	if (vec_grow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v), 8))
		return -ENOMEM;
	it = &l->v[l->n++];
	snprintf(it->id, sizeof(it->id), "%s", id);
	it->sev = sev;
	it->brief[0] = '\0';
	va_start(ap, fmt);
	vsnprintf(it->msg, sizeof(it->msg), fmt, ap);
	va_end(ap);
	return 0;
}

int plausibility_brief(int added, struct plausibility_list *l, const char *fmt, ...)
{
	struct plausibility_item *it;
	va_list ap;

	if (added || !l->n)
		return added;
	it = &l->v[l->n - 1];
	va_start(ap, fmt);
	vsnprintf(it->brief, sizeof(it->brief), fmt, ap);
	va_end(ap);
	return 0;
}

const char *plausibility_sev_name(enum plausibility_sev s)
{
	return s == PLAUSIBILITY_WARN ? "warning" : "info";
}

json_t *plausibility_list_json(const struct plausibility_list *l)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < l->n; i++) {
		json_t *o = json_pack("{s:s, s:s, s:s}", "id", l->v[i].id,
				      "severity", plausibility_sev_name(l->v[i].sev),
				      "message", l->v[i].msg);

		/* the short form beside the figures it qualifies (the summary table) */
		if (o && l->v[i].brief[0] &&
		    json_object_set_new(o, "brief", json_string(l->v[i].brief))) {
			json_decref(o);
			o = NULL;
		}
		if (!o || json_array_append_new(a, o)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

struct little {
	double iops[RESULTREAD_NDIR], inflight[RESULTREAD_NDIR], total;
	unsigned long conf, kept, threads, defs;
	unsigned depth;			/* of the last definition, for the message */
	const struct resultread_job *first;
	const char *why;
	int rate_limited, deviceless;
};

static void little_gather(const struct resultread *r, unsigned gid, struct little *g)
{
	size_t i;
	int d;

	memset(g, 0, sizeof(*g));
	for (i = 0; i < r->nr_jobs; i++) {
		const struct resultread_job *j = &r->jobs[i];
		const char *why;
		unsigned t, kept;
		int first;

		if (j->groupid != gid)
			continue;
		g->first = g->first ? g->first : j;
		for (d = 0; d < RESULTREAD_NDIR; d++) {
			if (j->ios[d] == 0 || isnan(j->lat_mean_ns[d]))
				continue;
			g->iops[d] += j->iops[d];
			g->inflight[d] += j->iops[d] * j->lat_mean_ns[d] * 1e-9;
		}
		g->rate_limited |= j->rate_limited;
		g->deviceless |= (engine_traits(j->ioengine) & ENGINE_F_NODEVICE) != 0;
		t = bottleneck_threads_of(r, i, &first);
		if (!first)
			continue;
		kept = bottleneck_depth_kept(j, &why);
		if (why)
			g->why = why;
		g->defs++;
		g->threads += t;
		g->depth = j->iodepth;
		g->conf += (unsigned long)t * j->iodepth;
		g->kept += (unsigned long)t * kept;
	}
	for (d = 0; d < RESULTREAD_NDIR; d++)
		g->total += g->inflight[d];
}

/* "read 78000 x 410 us = 32.0, write 22000 x 1.40 ms = 30.8" */
static void little_terms(const struct little *g, char *buf, size_t sz)
{
	size_t off = 0;
	int d;

	buf[0] = 0;
	for (d = 0; d < RESULTREAD_NDIR && off < sz; d++) {
		char lat[32];

		if (g->iops[d] <= 0)
			continue;
		human_ns(lat, sizeof(lat), g->inflight[d] / g->iops[d] * 1e9, HUMAN_TABLE);
		off += (size_t)snprintf(buf + off, sz - off, "%s%s %.0f IOPS x %s = %.1f",
					off ? ", " : "", ddir_name(d), g->iops[d], lat, g->inflight[d]);
	}
}

static int little_group(const struct resultread *r, unsigned gid, struct plausibility_list *l)
{
	struct little g;
	char terms[200], conf[96];
	double ratio;

	little_gather(r, gid, &g);
	if (!g.defs || g.total <= 0 || !g.kept)
		return 0;
	little_terms(&g, terms, sizeof(terms));
	if (g.defs == 1 && r->nranks > 1)
		snprintf(conf, sizeof(conf), "ranks x numjobs x iodepth = %u x %lu x %u = %lu",
			 r->nranks, g.threads / r->nranks, g.depth, g.conf);
	else if (g.defs == 1)
		snprintf(conf, sizeof(conf), "numjobs x iodepth = %lu x %u = %lu",
			 g.threads, g.depth, g.conf);
	else
		snprintf(conf, sizeof(conf), "sum of numjobs x iodepth = %lu", g.conf);
	ratio = g.total / (double)g.kept;
	if (ratio > PLAUSIBILITY_LITTLE_HIGH && g.why)
		return plausibility_brief(plausibility_add(l, "littles_law", PLAUSIBILITY_WARN,
			"Little's law: IOPS x mean latency = %.1f I/Os in flight (%s) vs %s "
			"configured (%.0f%%); and ioengine=%s%s %s (one I/O per job), so at most "
			"%lu can be in flight: the figures are inconsistent with the job",
			g.total, terms, conf, 100 * g.total / (double)g.conf, g.first->ioengine,
			g.first->ioengine_given ? "" : " (fio's default)", g.why, g.kept), l,
			"%.1f I/Os in flight, at most %lu possible: inconsistent", g.total, g.kept);
	if (ratio > PLAUSIBILITY_LITTLE_HIGH)
		return plausibility_brief(plausibility_add(l, "littles_law", PLAUSIBILITY_WARN,
			"Little's law: IOPS x mean latency = %.1f I/Os in flight (%s) exceeds "
			"the %s configured (%.0f%%): the figures are inconsistent",
			g.total, terms, conf, 100 * ratio), l,
			"%.1f I/Os in flight > %lu configured: inconsistent", g.total, g.conf);
	if (ratio >= PLAUSIBILITY_LITTLE_LOW)
		return 0;
	return plausibility_brief(plausibility_add(l, "littles_law",
					g.rate_limited ? PLAUSIBILITY_INFO : PLAUSIBILITY_WARN,
		"Little's law: IOPS x mean latency = %.1f I/Os in flight (%s) vs %s "
		"configured (%.0f%%): %s", g.total, terms, conf, 100 * ratio,
		g.rate_limited ? "expected, a rate limit or think time holds the load back" :
		g.deviceless ? "no device is involved, the load generator is the limit" :
		"the device was not the bottleneck (load generator, CPU, or the engine "
		"could not keep the queue full)"), l,
			"%.1f I/Os in flight of %lu kept (%.0f%%)", g.total, g.kept, 100 * ratio);
}

static int check_little(const struct resultread *r, struct plausibility_list *l)
{
	size_t i, m;
	int ret;

	for (i = 0; i < r->nr_jobs; i++) {
		int seen = 0;

		for (m = 0; m < i; m++)
			seen |= r->jobs[m].groupid == r->jobs[i].groupid;
		if (seen)
			continue;
		ret = little_group(r, r->jobs[i].groupid, l);
		if (ret)
			return ret;
	}
	return 0;
}

static int is_mixed(const char *rw)
{
	return !strcmp(rw, "randrw") || !strcmp(rw, "rw") || !strcmp(rw, "readwrite");
}

static int check_mix(const struct resultread *r, struct plausibility_list *l)
{
	double reads = 0, writes = 0, want = 0, ios, share;
	const struct resultread_job *first = NULL;
	size_t i;

	for (i = 0; i < r->nr_jobs; i++) {
		const struct resultread_job *j = &r->jobs[i];

		if (!is_mixed(j->rw))
			continue;
		first = first ? first : j;
		reads += (double)j->ios[0];
		writes += (double)j->ios[1];
		want += (double)(j->ios[0] + j->ios[1]) * j->rwmixread;
	}
	ios = reads + writes;
	if (!first || ios == 0)
		return 0;
	share = 100 * reads / ios;
	want /= ios;
	if (fabs(share - want) <= PLAUSIBILITY_MIX_POINTS)
		return 0;
	if (!first->rwmix_given)
		return plausibility_brief(plausibility_add(l, "mix", PLAUSIBILITY_WARN,
			"read share %.1f%% of I/Os (read %.0f IOPS, write %.0f IOPS) but rw=%s "
			"without rwmixread issues 50%% reads: these figures do not come from "
			"this job as written", share, r->dir[0].iops, r->dir[1].iops, first->rw), l,
			"read share %.1f%%, not 50%%", share);
	return plausibility_brief(plausibility_add(l, "mix", PLAUSIBILITY_WARN,
		"read share %.1f%% of I/Os (read %.0f IOPS, write %.0f IOPS) but "
		"rwmixread=%.0f asks for %.0f%%: these figures do not come from this job "
		"as written", share, r->dir[0].iops, r->dir[1].iops, want, want), l,
			"read share %.1f%%, not %.0f%%", share, want);
}

static uint64_t env_memory(const struct resultread *r)
{
	const json_t *m = json_object_get(r->env, "memory_bytes");

	return json_is_integer(m) ? (uint64_t)json_integer_value(m) : 0;
}

static int check_cache(const struct resultread *r, struct plausibility_list *l)
{
	const struct resultread_job *j = &r->jobs[0];
	uint64_t ram = env_memory(r), ws;
	char lat[32], extra[160] = "";
	int ret = 0;

	if ((engine_traits(j->ioengine) & ENGINE_F_NODEVICE) != 0)
		return 0;
	ws = j->size * (j->has_filename ? 1 : j->numjobs);
	if (ram && ws && ws < ram)
		snprintf(extra, sizeof(extra), "; the working set (%.1f MiB) fits in RAM (%.1f MiB)",
			 (double)ws / 1048576, (double)ram / 1048576);
	/* passthrough commands never pass the page cache, whatever direct= says */
	if (!j->direct && !(engine_traits(j->ioengine) & ENGINE_F_PASSTHRU) &&
	    (r->dir[0].ios || r->dir[1].ios))
		ret = plausibility_brief(plausibility_add(l, "page_cache", PLAUSIBILITY_WARN,
			"direct=0 (buffered I/O, fio's default): reads may come from the page "
			"cache and writes land in it, not on the device%s; use direct=1", extra), l,
				"buffered (direct=0): the page cache can serve it%s",
			ram && ws && ws < ram ? ", the working set fits in RAM" : "");
	if (!ret && r->dir[0].ios && r->dir[0].lat_mean_ns < PLAUSIBILITY_CACHE_LAT_NS) {
		human_ns(lat, sizeof(lat), r->dir[0].lat_mean_ns, HUMAN_TABLE);
		ret = plausibility_brief(plausibility_add(l, "page_cache", PLAUSIBILITY_WARN,
			"mean read latency %s is below what a storage device delivers "
			"(about 5 us or more): the reads were likely served from memory", lat), l,
			"read latency %s: served from memory", lat);
	}
	return ret;
}

static int check_time(const struct resultread *r, struct plausibility_list *l)
{
	uint64_t ms = 0, samples = 0;
	double cv = NAN;
	int d, worst = -1, ret = 0;

	for (d = 0; d < RESULTREAD_NDIR; d++) {
		const struct resultread_dir *x = &r->dir[d];

		if (!x->ios)
			continue;
		if (x->runtime_ms > ms)
			ms = x->runtime_ms;
		if (x->samples && (!samples || x->samples < samples))
			samples = x->samples;
		if (!isnan(x->interval_cv) && (isnan(cv) || x->interval_cv > cv)) {
			cv = x->interval_cv;
			worst = d;
		}
	}
	if (ms && ms < PLAUSIBILITY_SHORT_MS)
		ret = plausibility_brief(plausibility_add(l, "short_run", PLAUSIBILITY_WARN,
			"measured for %.1f s (< %d s): too short to see the device's sustained "
			"behaviour (caches, garbage collection, throttling)",
			(double)ms / 1000, PLAUSIBILITY_SHORT_MS / 1000), l,
			"%.1f s run (< %d s)", (double)ms / 1000, PLAUSIBILITY_SHORT_MS / 1000);
	if (!ret && samples && samples < PLAUSIBILITY_FEW_SAMPLES)
		ret = plausibility_brief(plausibility_add(l, "few_samples", PLAUSIBILITY_WARN,
			"only %llu interval samples per job (< %d): variation over time and "
			"steady state cannot be judged", (unsigned long long)samples,
			PLAUSIBILITY_FEW_SAMPLES), l,
			"%llu interval samples (< %d)", (unsigned long long)samples,
			PLAUSIBILITY_FEW_SAMPLES);
	if (!ret && worst >= 0 && cv > PLAUSIBILITY_CV_LIMIT)
		ret = plausibility_brief(plausibility_add(l, "interval_cv", PLAUSIBILITY_WARN,
			"%s IOPS varied across intervals with CV %.1f%% (> %.0f%%): the mean "
			"hides a moving rate", ddir_name(worst), 100 * cv,
			100 * PLAUSIBILITY_CV_LIMIT), l,
			"%s IOPS CV %.1f%% across intervals", ddir_name(worst), 100 * cv);
	return ret;
}

/* The first job (in report order) that @bad picks, and how many more there are. */
static const struct resultread_job *first_job(const struct resultread *r,
					      int (*bad)(const struct resultread_job *),
					      size_t *more)
{
	const struct resultread_job *first = NULL;
	size_t i;

	*more = 0;
	for (i = 0; i < r->nr_jobs; i++) {
		if (!bad(&r->jobs[i]))
			continue;
		if (first)
			(*more)++;
		else
			first = &r->jobs[i];
	}
	return first;
}

/*
 * The jobs @bad picks, named as the text report names them: clone k of a
 * definition with several (the entries of one name in one group) is
 * "NAME.k", so "randrw.0..3 (all 4 clones)" when every clone is picked,
 * "randrw.1, randrw.3" when some are, "randrw" for a job of one entry.
 * Prefixed "job " or "jobs ".  Returns how many jobs were picked.
 */
static size_t jobs_phrase(const struct resultread *r, int (*bad)(const struct resultread_job *),
			  char *buf, size_t sz)
{
	size_t off, picked = 0, shown = 0;

	buf[0] = 0;
	for (size_t i = 0; i < r->nr_jobs; i++)
		picked += bad(&r->jobs[i]) != 0;
	off = (size_t)snprintf(buf, sz, "%s", picked > 1 ? "jobs " : "job ");
	for (size_t i = 0; i < r->nr_jobs && off < sz; i++) {
		const struct resultread_job *j = &r->jobs[i];
		size_t n = 0, idx = 0, nbad = 0;

		for (size_t k = 0; k < r->nr_jobs; k++)
			if (r->jobs[k].groupid == j->groupid && !strcmp(r->jobs[k].name, j->name)) {
				idx += k < i;
				n++;
				nbad += bad(&r->jobs[k]) != 0;
			}
		if (!bad(j) || (nbad == n && idx))	/* a whole definition once, at its first */
			continue;
		if (n == 1)
			off += (size_t)snprintf(buf + off, sz - off, "%s%s", shown ? ", " : "", j->name);
		else if (nbad == n)
			off += (size_t)snprintf(buf + off, sz - off, "%s%s.0..%zu (all %zu clones)",
						shown ? ", " : "", j->name, n - 1, n);
		else
			off += (size_t)snprintf(buf + off, sz - off, "%s%s.%zu", shown ? ", " : "",
						j->name, idx);
		shown++;
	}
	return picked;
}

static int job_failed(const struct resultread_job *j)
{
	return j->error != 0;
}

static int job_unsteady(const struct resultread_job *j)
{
	return j->steady == 0;
}

static int job_lost(const struct resultread_job *j)
{
	return j->steady == 1 && j->steady_held == 0;
}

/*
 * [steady_lost]: the steady window was found, then a later round left its
 * band.  The window's figures describe a level the job did not keep.
 */
static int check_lost(const struct resultread *r, struct plausibility_list *l)
{
	size_t more;
	const struct resultread_job *j = first_job(r, job_lost, &more);
	char who[200];

	if (!j)
		return 0;
	jobs_phrase(r, job_lost, who, sizeof(who));
	return plausibility_brief(plausibility_add(l, "steady_lost", PLAUSIBILITY_WARN,
		"%s reached steady state but lost it %s %.1f s (the level %s %.0f%%): "
		"the steady window's figures describe a level the job left; see its steady tail",
		who, more ? "(the first listed) at" : "at", (double)j->steady_lost_ms / 1000.0,
		j->steady_lost_pct < 0 ? "fell" : "rose", fabs(j->steady_lost_pct)), l,
			"steady state lost at %.1f s", (double)j->steady_lost_ms / 1000.0);
}

static int check_run(const struct resultread *r, struct plausibility_list *l)
{
	const json_t *flags = json_object_get(json_object_get(r->env, "cpu"), "flags");
	const char *f = json_is_string(flags) ? json_string_value(flags) : NULL;
	const struct resultread_job *j;
	char who[200];
	size_t more;
	int ret = 0;

	j = first_job(r, job_failed, &more);
	jobs_phrase(r, job_failed, who, sizeof(who));
	/* under continue_on_error "error" is the first error, which need not have ended the job */
	if (j && j->coe)
		ret = plausibility_brief(plausibility_add(l, "job_error", PLAUSIBILITY_WARN,
			"%s had %llu errors under continue_on_error (the first: error %d%s): "
			"the figures include I/Os that failed or read back bad data", who,
			(unsigned long long)j->total_err, j->error, more ? ", of the first job" : ""), l,
			"%llu I/O errors let pass (continue_on_error)", (unsigned long long)j->total_err);
	else if (j)
		ret = plausibility_brief(plausibility_add(l, "job_error", PLAUSIBILITY_WARN,
			"%s ended with error %d%s: the figures cover only "
			"part of the run", who, j->error, more ? " (the first)" : ""), l,
			"error %d: figures cover part of the run", j->error);
	j = first_job(r, job_unsteady, &more);
	jobs_phrase(r, job_unsteady, who, sizeof(who));
	if (!ret && j)
		ret = plausibility_brief(plausibility_add(l, "steady_state", PLAUSIBILITY_WARN,
			"%s did not reach steady state (%s): the figures "
			"average a still-changing workload", who,
			j->steady_what[0] ? j->steady_what : "criterion not recorded"), l,
			"not steady (%s)", j->steady_what[0] ? j->steady_what : "?");
	if (!ret && !r->dir[0].ios && !r->dir[1].ios && !r->dir[2].ios)
		ret = plausibility_brief(plausibility_add(l, "no_io", PLAUSIBILITY_WARN,
			"the run did no I/O at all: it failed or measured nothing, and compare "
			"counts it as a failed run"), l,
			"no I/O at all");
	if (!ret)
		ret = check_lost(r, l);
	if (!ret && r->partial)
		ret = plausibility_brief(plausibility_add(l, "partial", PLAUSIBILITY_WARN,
			"the run was cut short (signal or error): figures are partial"), l,
			"cut short: figures partial");
	if (!ret && !strcmp(r->clock_source, "tsc") && f &&
	    (!strstr(f, "constant_tsc") || !strstr(f, "nonstop_tsc")))
		ret = plausibility_brief(plausibility_add(l, "clock", PLAUSIBILITY_WARN,
			"latencies were timed with the TSC but the CPU lacks %s: "
			"the clock may drift across CPUs or power states",
			!strstr(f, "constant_tsc") ? "constant_tsc" : "nonstop_tsc"), l,
			"TSC without %s", !strstr(f, "constant_tsc") ? "constant_tsc" : "nonstop_tsc");
	return ret;
}

/*
 * iodepth > 1 with an engine that keeps one I/O per job (psync, fio's default,
 * or libaio without direct=1): the depth the job file asks for never reaches
 * the device.  The seed's job had exactly this: iodepth=32 on psync.
 */
static int check_depth(const struct resultread *r, struct plausibility_list *l)
{
	size_t i;

	for (i = 0; i < r->nr_jobs; i++) {
		const struct resultread_job *j = &r->jobs[i];
		const char *why;
		size_t k;

		if (j->iodepth <= 1 || bottleneck_depth_kept(j, &why) >= j->iodepth || !why)
			continue;
		for (k = 0; k < i; k++)		/* once per job name */
			if (!strcmp(r->jobs[k].name, j->name))
				break;
		if (k < i)
			continue;
		return plausibility_brief(plausibility_add(l, "depth_ignored", PLAUSIBILITY_WARN,
			"job '%s': iodepth=%u has no effect: ioengine=%s%s %s, so each job thread "
			"keeps 1 I/O in flight; use an asynchronous engine (io_uring, libaio with "
			"direct=1) for a queue depth", j->name, j->iodepth, j->ioengine,
			j->ioengine_given ? "" : " (fio's default)", why), l,
			"%s: iodepth=%u ignored (%s keeps 1 I/O in flight)", j->name, j->iodepth,
			j->ioengine);
	}
	return 0;
}

/*
 * [bottleneck] who limited each job (bottleneck.h), from the result's own
 * disk_util: the way to see from fio's output how much of the depth asked
 * for the device really had, and how much of each I/O's time was the tool's.
 * iotrial's results carry the verdict per job already (and print it under
 * the job), so only results without one are judged here.
 */
static int check_bottleneck(const struct resultread *r, struct plausibility_list *l)
{
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct resultread_job *j = &r->jobs[i];
		struct bottleneck_verdict v;
		int first;

		bottleneck_threads_of(r, i, &first);
		if (j->bottleneck[0] || !first || bottleneck_from_read(r, i, &v))
			continue;
		if (plausibility_brief(plausibility_add(l, "bottleneck",
			      strcmp(v.verdict, "tool") && strcmp(v.verdict, "page_cache") ?
			      PLAUSIBILITY_INFO : PLAUSIBILITY_WARN,
			      "job '%s': bottleneck %s: %s", j->name, v.verdict, v.evidence), l,
			"%s: bottleneck %s", j->name, v.verdict))
			return -ENOMEM;
	}
	return 0;
}

/*
 * The host's view of a run in a QEMU guest (docs/vm.md): the pitfalls its
 * counters showed (host page cache, no iothread, vCPUs and iothreads on
 * the same cores, a sparse image read), and a drive whose ops are not the
 * guest's I/Os (another drive, or other I/O on it, was measured).
 */
static int check_host(const struct resultread *r, struct plausibility_list *l)
{
	const struct resultread_host *h = &r->host;
	int ret = 0;

	if (!h->has)
		return 0;
	for (size_t i = 0; !ret && i < h->npitfalls; i++)
		ret = plausibility_add(l, h->pitfalls[i].id, PLAUSIBILITY_WARN, "%s",
				       h->pitfalls[i].text);
	if (!ret && h->guest_ios > 0 && !isnan(h->ops) &&
	    fabs(h->ops - h->guest_ios) > 0.01 * h->guest_ios)
		ret = plausibility_add(l, "host_ops", PLAUSIBILITY_WARN,
			"QEMU's drive %s did %.0f ops, the guest %.0f I/Os: the host's figures are not "
			"only this run's (another drive, other I/O, merged requests, a ramp or set-up)",
			h->drive, h->ops, h->guest_ios);
	if (!ret && h->virt_path_ns < 0)
		ret = plausibility_add(l, "host_virt_path", PLAUSIBILITY_WARN,
			"the guest saw its device take %.1f us less than the host's backend per op: "
			"the two counted different requests (merges, a shared drive)",
			-h->virt_path_ns / 1000);
	return ret;
}

int plausibility_check(const struct resultread *r, struct plausibility_list *out)
{
	int ret;

	if (r->sweep.is)	/* no jobs: its runs were checked as they ran */
		return 0;
	ret = check_run(r, out);
	if (!ret)
		ret = check_depth(r, out);
	if (!ret)
		ret = check_little(r, out);
	if (!ret)
		ret = check_mix(r, out);
	if (!ret)
		ret = check_cache(r, out);
	if (!ret)
		ret = check_time(r, out);
	if (!ret)
		ret = check_bottleneck(r, out);
	if (!ret)
		ret = check_host(r, out);
	return ret;
}
