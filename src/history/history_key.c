/*
 * history_key: what makes two stored runs comparable (docs/history.md,
 * "Comparability").  A run is keyed by the device it measured and by its
 * job signature: per job the options that change what is measured (rw, the
 * read mix when mixed, bs, iodepth, direct, ioengine, numjobs, and the rate
 * limits rate and rate_iops when set), resolved with fio's defaults as
 * resultread does.  Trends follow one key; compare and the
 * baselines refuse runs whose keys differ, saying exactly what differs.
 * Everything else (size, runtime, the rest of the environment)
 * is compare's to report as it does between any two files.
 */
#include <errno.h>
#include <math.h>	/* isfinite */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "history/history.h"

static void put(char *dst, size_t sz, const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_string(v))
		snprintf(dst, sz, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(dst, sz, "%lld", (long long)json_integer_value(v));
}

/* The device of the first target, from iotrial's environment. */
static void key_device(const json_t *env, struct history_key *k)
{
	const json_t *t = json_array_get(json_object_get(env, "targets"), 0);
	const json_t *d = json_object_get(t, "device"), *fs = json_object_get(t, "fs");
	char backing[160] = "", dm[64] = "", fstype[32] = "", mnt[128] = "";

	put(k->dev_name, sizeof(k->dev_name), d, "name");
	put(k->dev_model, sizeof(k->dev_model), d, "model");
	put(k->dev_serial, sizeof(k->dev_serial), d, "serial");
	put(k->dev_driver, sizeof(k->dev_driver), d, "driver");
	put(k->dev_scheduler, sizeof(k->dev_scheduler), d, "scheduler");
	put(k->dev_cache, sizeof(k->dev_cache), d, "write_cache");
	put(backing, sizeof(backing), d, "loop_backing_file");
	put(dm, sizeof(dm), d, "dm_name");
	put(fstype, sizeof(fstype), fs, "type");
	put(mnt, sizeof(mnt), fs, "mount_point");
	/* the most stable name the machine gives: a serial outlives a renumbering */
	if (k->dev_serial[0])
		snprintf(k->dev_id, sizeof(k->dev_id), "%s %s",
			 k->dev_model[0] ? k->dev_model : k->dev_driver, k->dev_serial);
	else if (backing[0])
		snprintf(k->dev_id, sizeof(k->dev_id), "loop:%s", backing);
	else if (dm[0])
		snprintf(k->dev_id, sizeof(k->dev_id), "dm:%s", dm);
	else if (k->dev_model[0])
		snprintf(k->dev_id, sizeof(k->dev_id), "%s %s", k->dev_model, k->dev_name);
	else if (k->dev_name[0])
		snprintf(k->dev_id, sizeof(k->dev_id), "%s", k->dev_name);
	else if (fstype[0])
		snprintf(k->dev_id, sizeof(k->dev_id), "fs:%s:%s", fstype, mnt);
}

/* fio spells some patterns two ways. */
static const char *rw_name(const char *rw)
{
	if (!strcmp(rw, "readwrite"))
		return "rw";
	if (!strcmp(rw, "randreadwrite"))
		return "randrw";
	return rw;
}

static int is_mixed(const char *rw)
{
	return !strcmp(rw, "rw") || !strcmp(rw, "randrw") || !strcmp(rw, "trimwrite") ||
	       !strncmp(rw, "rw:", 3) || !strncmp(rw, "randrw:", 7);
}

/*
 * The rate limits a job ran under, " rate=1m rate_iops=4000" as typed (""
 * when none): a rated run measures the limit, not the device, so it never
 * joins an unlimited run's series.  Appended only when set, so the
 * signatures of unlimited runs are what they were before rates counted.
 */
static void job_rates(const json_t *root, const json_t *job, char *out, size_t sz)
{
	static const char *const opts[] = { "rate", "rate_iops" };
	size_t off = 0;

	out[0] = 0;
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		char buf[64];
		const char *v = resultread_job_option(root, job, opts[i], buf, sizeof(buf));

		if (v && *v && strcmp(v, "0") && off < sz)
			off += (size_t)snprintf(out + off, sz - off, " %s=%.*s", opts[i],
						(int)strcspn(v, " "), v);
	}
}

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/*
 * Job @i's part of @k's signature, after what @off already holds: the
 * options that change what is measured; @tail ends it (the rates, a
 * sweep's SLO).  -1 when it does not fit (a huge job list: the hash covers
 * what fits).
 */
static int sig_add(struct history_key *k, size_t *off, size_t i, const char *rw, unsigned mixread,
		   const char *bs, unsigned iodepth, int direct, const char *engine,
		   unsigned numjobs, const char *tail)
{
	char mix[24] = "";
	int n;

	rw = rw_name(rw);
	if (is_mixed(rw))
		snprintf(mix, sizeof(mix), " rwmixread=%u", mixread);
	n = snprintf(k->sig_text + *off, sizeof(k->sig_text) - *off,
		     "%srw=%s%s bs=%s iodepth=%u direct=%d ioengine=%s numjobs=%u%s",
		     i ? " | " : "", rw, mix, bs, iodepth, direct, engine, numjobs, tail);
	if (n < 0 || (size_t)n >= sizeof(k->sig_text) - *off)
		return -1;
	*off += (size_t)n;
	return 0;
}

/*
 * A sweep's signature (docs/sweep.md): its jobs as its first run ran them
 * (the document's "workload"), each with what the sweep judged, " sweep=
 * p99<=1000000ns" (or " sweep=knee" without an SLO): a sweep steps the
 * rate itself, so rates are not in it, and a capacity under one SLO never
 * joins a series under another.
 */
static void key_sweep(const json_t *root, const struct resultread *r, struct history_key *k)
{
	const json_t *wl = json_object_get(root, "workload"), *j;
	char tail[64], bs[64];
	size_t i, off = 0;

	if (isfinite(r->sweep.slo_pct) && isfinite(r->sweep.slo_target_ns) && r->sweep.slo_pct > 0)
		snprintf(tail, sizeof(tail), " sweep=p%g<=%.0fns", r->sweep.slo_pct,
			 r->sweep.slo_target_ns);
	else
		snprintf(tail, sizeof(tail), " sweep=knee");
	json_array_foreach(wl, i, j) {
		const char *b = json_string_value(json_object_get(j, "bs"));
		const char *rw = json_string_value(json_object_get(j, "rw"));
		const char *engine = json_string_value(json_object_get(j, "ioengine"));

		snprintf(bs, sizeof(bs), "%s", b ? b : "?");
		if (sig_add(k, &off, i, rw ? rw : "?",
			    (unsigned)json_integer_value(json_object_get(j, "rwmixread")), bs,
			    (unsigned)json_integer_value(json_object_get(j, "iodepth")),
			    (int)json_integer_value(json_object_get(j, "direct")), engine ? engine : "?",
			    (unsigned)json_integer_value(json_object_get(j, "numjobs")), tail))
			break;
	}
	if (!off)	/* a sweep that does not say what it ran: one series of such */
		snprintf(k->sig_text, sizeof(k->sig_text), "sweep of an unknown job%s", tail);
	k->nr_jobs = (unsigned)json_array_size(wl);
}

int history_key_of(const json_t *root, const struct resultread *r, struct history_key *k)
{
	const json_t *jobs = json_object_get(root, "jobs");
	size_t i, off = 0;

	memset(k, 0, sizeof(*k));
	if (r->env) {
		key_device(r->env, k);
		put(k->host, sizeof(k->host), r->env, "host");
		put(k->kernel, sizeof(k->kernel), json_object_get(r->env, "kernel"), "release");
	}
	if (!k->host[0])	/* fio's client mode names the host of each job */
		put(k->host, sizeof(k->host),
		    json_array_get(json_object_get(root, "client_stats"), 0), "hostname");
	if (!k->dev_id[0] && r->nr_du) {	/* fio: the devices it watched */
		snprintf(k->dev_name, sizeof(k->dev_name), "%s", r->du[0].name);
		snprintf(k->dev_id, sizeof(k->dev_id), "%s", r->du[0].name);
	}
	if (!k->dev_id[0])
		snprintf(k->dev_id, sizeof(k->dev_id), "unknown");
	if (r->sweep.is) {
		key_sweep(root, r, k);
	} else {
		for (i = 0; i < r->nr_jobs; i++) {
			const struct resultread_job *j = &r->jobs[i];
			char bs[64], rates[160];

			resultread_job_bs(root, json_array_get(jobs, i), bs, sizeof(bs));
			job_rates(root, json_array_get(jobs, i), rates, sizeof(rates));
			if (sig_add(k, &off, i, j->rw, j->rwmixread, bs, j->iodepth, j->direct,
				    j->ioengine, j->numjobs, rates))
				break;
		}
		k->nr_jobs = (unsigned)r->nr_jobs;
	}
	snprintf(k->sig, sizeof(k->sig), "%016llx", (unsigned long long)fnv1a(k->sig_text));
	return 0;
}

/* Job @i's part of a signature text, in @out. */
static int sig_job(const char *text, unsigned i, char *out, size_t sz)
{
	const char *p = text, *end;

	while (i-- && p)
		p = (p = strstr(p, " | ")) ? p + 3 : NULL;
	if (!p)
		return -ENOENT;
	end = strstr(p, " | ");
	snprintf(out, sz, "%.*s", end ? (int)(end - p) : (int)strlen(p), p);
	return 0;
}

/* The value of "key=" in one job's signature, or "-". */
static void sig_value(const char *job, const char *key, char *out, size_t sz)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), "%s=", key);
	for (p = job; (p = strstr(p, pat)); p++)
		if (p == job || p[-1] == ' ') {
			p += strlen(pat);
			snprintf(out, sz, "%.*s", (int)strcspn(p, " "), p);
			return;
		}
	snprintf(out, sz, "-");
}

static void add(char *out, size_t sz, size_t *off, int *n, const char *fmt, const char *a,
		const char *b, const char *c)
{
	int w;

	if (*off >= sz)
		return;
	w = snprintf(out + *off, sz - *off, "%s", *n ? "; " : "");
	if (w > 0)
		*off += (size_t)w;
	if (*off < sz) {
		w = snprintf(out + *off, sz - *off, fmt, a, b, c);
		if (w > 0)
			*off += (size_t)w;
	}
	if (*off >= sz)
		*off = sz;
	(*n)++;
}

int history_key_diff(const struct history_key *a, const struct history_key *b, char *out,
		     size_t sz)
{
	static const char *const fields[] = { "rw", "rwmixread", "bs", "iodepth", "direct",
		"ioengine", "numjobs", "rate", "rate_iops", "sweep" };
	char ja[512], jb[512], va[64], vb[64], who[24], na[16], nb[16];
	size_t off = 0, f;
	unsigned i;
	int n = 0;

	out[0] = 0;
	/* a result that knows its device by name only (fio's disk_util) matches that name */
	if (strcmp(a->dev_id, b->dev_id) &&
	    !(a->dev_name[0] && !strcmp(a->dev_name, b->dev_name) &&
	      (!strcmp(a->dev_id, a->dev_name) || !strcmp(b->dev_id, b->dev_name))))
		add(out, sz, &off, &n, "device %s vs %s%s", a->dev_id, b->dev_id, "");
	if (a->nr_jobs != b->nr_jobs) {
		snprintf(na, sizeof(na), "%u", a->nr_jobs);
		snprintf(nb, sizeof(nb), "%u", b->nr_jobs);
		add(out, sz, &off, &n, "jobs %s vs %s%s", na, nb, "");
	}
	if (!strcmp(a->sig, b->sig) && !strcmp(a->sig_text, b->sig_text))
		return n;
	for (i = 0; !sig_job(a->sig_text, i, ja, sizeof(ja)) &&
		    !sig_job(b->sig_text, i, jb, sizeof(jb)); i++) {
		if (a->nr_jobs > 1)
			snprintf(who, sizeof(who), "job %u ", i + 1);
		else
			who[0] = 0;
		for (f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
			char what[64];

			sig_value(ja, fields[f], va, sizeof(va));
			sig_value(jb, fields[f], vb, sizeof(vb));
			if (strcmp(va, vb)) {
				snprintf(what, sizeof(what), "%s%s", who, fields[f]);
				add(out, sz, &off, &n, "%s %s vs %s", what, va, vb);
			}
		}
	}
	return n;
}

int history_comparable(const struct history_key *a, const char *const *na, size_t nra,
		       const struct history_key *b, const char *const *nb, size_t nrb,
		       struct err *e)
{
	char why[600];
	size_t i;

	if (!nra)
		return 0;
	for (i = 1; i < nra; i++)
		if (history_key_diff(&a[0], &a[i], why, sizeof(why)))
			return err_set(e, -EXDEV, EXIT_USAGE, "not comparable: the baseline's runs "
				       "differ: %s vs %s: %s", na[0], na[i], why);
	for (i = 0; i < nrb; i++)
		if (history_key_diff(i ? &b[0] : &a[0], &b[i], why, sizeof(why)))
			return err_set(e, -EXDEV, EXIT_USAGE, "not comparable: %s vs %s: %s",
				       i ? nb[0] : na[0], nb[i], why);
	return 0;
}
