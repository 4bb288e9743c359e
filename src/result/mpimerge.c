/*
 * mpimerge: packing, unpacking and merging the ranks' results (mpimerge.h).
 */
#include "result/mpimerge.h"

#include <errno.h>	/* ENOMEM, EINVAL */
#include <stdlib.h>	/* malloc, realloc, free */
#include <string.h>	/* memcpy, memset */

#include "steady/job_steady.h"
#include "measure/series.h"
#include "steady/steady.h"

#define MPIMERGE_MAGIC 0x31524e4b41525449ull	/* "ITRAKNR1" */

/* What leads every packed rank: sizes guard against a different build. */
struct mpimerge_head {
	uint64_t magic;
	uint32_t sz_job, sz_iv, sz_bucket, sz_info;
	uint64_t nr_jobs;
	uint64_t env_len;
	int32_t partial, signal;
	struct result_rank_info info;
};

/* A job_result's frame: which job it ran, and its series' sizes. */
struct mpimerge_jhead {
	int64_t job_idx;		/* index into the job list, -1 if none */
	uint64_t has_series, iv_nr, nr_ramp, b_nr;
};

struct mbuf {
	unsigned char *p;
	size_t len, cap;
	int bad;
};

static void mb_put(struct mbuf *b, const void *src, size_t n)
{
	if (b->bad || !n)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		void *np;

		while (cap < b->len + n)
			cap *= 2;
		np = realloc(b->p, cap);
		if (!np) {
			b->bad = 1;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, src, n);
	b->len += n;
}

/*
 * Zero-run encoding: records of (u32 zeros, u32 literal length, literal
 * bytes) until the input ends.  Histograms are mostly zero buckets, so this
 * takes a job_result from ~150 KB to a few KB without a compression library.
 */
static int zr_encode(const unsigned char *in, size_t n, struct mbuf *out)
{
	size_t i = 0;

	while (i < n) {
		uint32_t z = 0, l = 0;
		size_t lit;

		while (i < n && in[i] == 0 && z < UINT32_MAX) {
			z++;
			i++;
		}
		lit = i;
		/* a literal ends at a run of 8 zeros (shorter runs are cheaper inline) */
		while (i < n && l < UINT32_MAX) {
			if (in[i] == 0 && i + 8 <= n && !memcmp(in + i, "\0\0\0\0\0\0\0\0", 8))
				break;
			l++;
			i++;
		}
		mb_put(out, &z, sizeof(z));
		mb_put(out, &l, sizeof(l));
		mb_put(out, in + lit, l);
	}
	return out->bad ? -ENOMEM : 0;
}

static int zr_decode(const unsigned char *in, size_t n, struct mbuf *out)
{
	static const unsigned char zeros[4096];
	size_t i = 0;

	while (i < n) {
		uint32_t z, l;

		if (n - i < 8)
			return -EINVAL;
		memcpy(&z, in + i, 4);
		memcpy(&l, in + i + 4, 4);
		i += 8;
		if (l > n - i)
			return -EINVAL;
		while (z) {
			uint32_t k = z > sizeof(zeros) ? (uint32_t)sizeof(zeros) : z;

			mb_put(out, zeros, k);
			z -= k;
		}
		mb_put(out, in + i, l);
		i += l;
		if (out->bad)
			return -ENOMEM;
	}
	return 0;
}

/*
 * The environment keys that tell hosts apart, for iotrial.ranks[].env (the
 * full environment of rank 0 stays in iotrial.environment; the targets are
 * left out here, they are the same devices or files on every host).
 */
static json_t *env_summary(const json_t *env)
{
	static const char *const keys[] = { "iotrial_version", "kernel", "memory_bytes", "hypervisor" };
	json_t *o = json_object(), *cpu;
	size_t i;

	if (!o || !env)
		return o;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		json_t *v = json_object_get(env, keys[i]);

		if (v)
			json_object_set(o, keys[i], v);
	}
	cpu = json_object_get(env, "cpu");
	if (json_is_object(cpu)) {
		json_t *c = json_object();

		if (c && json_object_get(cpu, "model"))
			json_object_set(c, "model", json_object_get(cpu, "model"));
		if (c && json_object_get(cpu, "count"))
			json_object_set(c, "count", json_object_get(cpu, "count"));
		json_object_set_new(o, "cpu", c);
	}
	return o;
}

int mpimerge_pack(const struct run_result *res, const struct job *jobs, size_t nr_jobs,
		  const struct result_rank_info *info, void **buf, size_t *len)
{
	struct mbuf raw = { 0 }, enc = { 0 };
	struct mpimerge_head h;
	json_t *sum = env_summary(res->env);
	char *env = sum ? json_dumps(sum, JSON_COMPACT) : NULL;
	size_t i;
	int r;

	json_decref(sum);
	memset(&h, 0, sizeof(h));
	h.magic = MPIMERGE_MAGIC;
	h.sz_job = sizeof(struct job_result);
	h.sz_iv = sizeof(struct series_iv);
	h.sz_bucket = sizeof(*((struct series *)0)->b);
	h.sz_info = sizeof(struct result_rank_info);
	h.nr_jobs = res->nr_jobs;
	h.env_len = env ? strlen(env) : 0;
	h.partial = res->partial;
	h.signal = res->signal;
	h.info = *info;
	mb_put(&raw, &h, sizeof(h));
	mb_put(&raw, env, (size_t)h.env_len);
	free(env);
	for (i = 0; i < res->nr_jobs; i++) {
		struct job_result jr = res->jobs[i];
		const struct series *s = jr.series;
		struct mpimerge_jhead jh;

		memset(&jh, 0, sizeof(jh));
		jh.job_idx = jr.job && jr.job >= jobs && jr.job < jobs + nr_jobs ? jr.job - jobs : -1;
		if (s) {
			jh.has_series = 1;
			jh.iv_nr = s->nr;
			jh.nr_ramp = s->nr_ramp;
			jh.b_nr = s->b_nr;
		}
		jr.job = NULL;
		jr.series = NULL;
		jr.steady = NULL;
		jr.prio = NULL;		/* per-priority stats do not cross ranks */
		jr.dev = NULL;		/* nor the device view: rank 0's is kept (merge) */
		jr.nr_dev = 0;
		jr.dev_iv = NULL;
		jr.nr_dev_iv = 0;
		mb_put(&raw, &jh, sizeof(jh));
		mb_put(&raw, &jr, sizeof(jr));
		if (s) {
			mb_put(&raw, s->iv, s->nr * sizeof(*s->iv));
			mb_put(&raw, s->b, s->b_nr * sizeof(*s->b));
		}
	}
	r = raw.bad ? -ENOMEM : zr_encode(raw.p, raw.len, &enc);
	free(raw.p);
	if (r) {
		free(enc.p);
		return r;
	}
	*buf = enc.p;
	*len = enc.len;
	return 0;
}

/* Take @n bytes at *@off of @raw into @dst; -EINVAL past the end. */
static int take(const struct mbuf *raw, size_t *off, void *dst, size_t n)
{
	if (n > raw->len - *off)
		return -EINVAL;
	memcpy(dst, raw->p + *off, n);
	*off += n;
	return 0;
}

static int unpack_series(const struct mbuf *raw, size_t *off, const struct mpimerge_jhead *jh,
			 struct series **out)
{
	struct series *s;

	if (jh->iv_nr > raw->len / sizeof(struct series_iv) || jh->b_nr > raw->len ||
	    jh->nr_ramp > jh->iv_nr)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	series_init(s);
	s->iv = malloc(jh->iv_nr ? jh->iv_nr * sizeof(*s->iv) : 1);
	s->b = malloc(jh->b_nr ? jh->b_nr * sizeof(*s->b) : 1);
	if (!s->iv || !s->b) {
		series_free(s);
		free(s);
		return -ENOMEM;
	}
	s->nr = s->cap = jh->iv_nr;
	s->b_nr = s->b_cap = jh->b_nr;
	s->nr_ramp = jh->nr_ramp;
	if (take(raw, off, s->iv, s->nr * sizeof(*s->iv)) || take(raw, off, s->b, s->b_nr * sizeof(*s->b))) {
		series_free(s);
		free(s);
		return -EINVAL;
	}
	*out = s;
	return 0;
}

int mpimerge_unpack(const void *buf, size_t len, const struct job *jobs, size_t nr_jobs,
		    struct result_rank *out, struct err *e)
{
	struct mbuf raw = { 0 };
	struct mpimerge_head h;
	size_t off = 0, i;
	char *env = NULL;
	int r;

	memset(out, 0, sizeof(*out));
	r = zr_decode(buf, len, &raw);
	if (!r)
		r = take(&raw, &off, &h, sizeof(h));
	if (!r && (h.magic != MPIMERGE_MAGIC || h.sz_job != sizeof(struct job_result) ||
		   h.sz_iv != sizeof(struct series_iv) || h.sz_bucket != sizeof(*((struct series *)0)->b) ||
		   h.sz_info != sizeof(struct result_rank_info) || h.env_len > raw.len ||
		   h.nr_jobs > raw.len / sizeof(struct job_result) + 1))
		r = -EINVAL;
	if (r)
		goto fail;
	h.info.host[sizeof(h.info.host) - 1] = '\0';
	out->info = h.info;
	out->partial = h.partial;
	out->signal = h.signal;
	env = calloc(1, (size_t)h.env_len + 1);
	if (!env || take(&raw, &off, env, (size_t)h.env_len)) {
		r = env ? -EINVAL : -ENOMEM;
		goto fail;
	}
	out->env = json_loads(env, 0, NULL);
	out->jobs = calloc(h.nr_jobs ? h.nr_jobs : 1, sizeof(*out->jobs));
	if (!out->jobs) {
		r = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < h.nr_jobs; i++) {
		struct mpimerge_jhead jh;
		struct job_result *jr = &out->jobs[i];

		if (take(&raw, &off, &jh, sizeof(jh)) || take(&raw, &off, jr, sizeof(*jr)) ||
		    jh.job_idx < -1 || jh.job_idx >= (int64_t)nr_jobs) {
			r = -EINVAL;
			goto fail;
		}
		out->nr_jobs = i + 1;
		jr->name[sizeof(jr->name) - 1] = '\0';
		jr->first_error[sizeof(jr->first_error) - 1] = '\0';
		jr->job = jh.job_idx >= 0 ? &jobs[jh.job_idx] : NULL;
		jr->series = NULL;
		jr->steady = NULL;
		jr->prio = NULL;
		jr->dev = NULL;
		jr->nr_dev = 0;
		jr->dev_iv = NULL;
		jr->nr_dev_iv = 0;
		if (jh.has_series && (r = unpack_series(&raw, &off, &jh, &jr->series)))
			goto fail;
	}
	if (off != raw.len)
		r = -EINVAL;
	if (r)
		goto fail;
	free(env);
	free(raw.p);
	return 0;
fail:
	free(env);
	free(raw.p);
	result_rank_clear(out);
	if (r == -ENOMEM)
		return err_set(e, r, EXIT_INTERNAL, "out of memory unpacking a rank's result");
	return err_set(e, r, EXIT_INTERNAL,
		       "a rank's result is not a packed result of this build or names another job list");
}

/* The k-th entry of job @job (by pointer) in @r, or NULL. */
static const struct job_result *rank_entry(const struct result_rank *r, const struct job *job,
					   size_t k)
{
	size_t i;

	for (i = 0; i < r->nr_jobs; i++)
		if (r->jobs[i].job == job && k-- == 0)
			return &r->jobs[i];
	return NULL;
}

/*
 * bw/iops figures of a merged entry: one sample per measured interval of
 * the merged series (the ranks' summed rate over that interval).
 */
static void merged_samples(struct job_result *jr)
{
	const struct series *s = jr->series;
	int d;

	if (!s || s->nr <= s->nr_ramp)
		return;
	for (d = 0; d < DDIR_NR; d++) {
		size_t i;

		if (!jr->dir[d].total_ios)
			continue;
		sample_stat_init(&jr->dir[d].bw_kib);
		sample_stat_init(&jr->dir[d].iops);
		for (i = s->nr_ramp; i < s->nr; i++) {
			sample_stat_add(&jr->dir[d].bw_kib, series_bw(s, i, d) / 1024.0);
			sample_stat_add(&jr->dir[d].iops, series_iops(s, i, d));
		}
	}
}

/* Steady state on the merged series, by the job's reporting rule. */
static int merged_steady(struct job_result *jr)
{
	struct steady_cfg cfg;
	int r;

	if (!jr->series || !jr->job)
		return 0;
	r = job_steady_cfg(jr->job, 0, &cfg, NULL);
	if (r || cfg.rule == STEADY_OFF)
		return r;
	/* a coarsened series (series_max): rounds of whole elements, as long as
	 * asked when the elements divide them, else one element (stated in round_ms) */
	{
		uint32_t l = series_level(jr->series);

		if (l > 1 && cfg.round_intervals % l == 0) {
			cfg.round_intervals /= l;
		} else if (l > 1) {
			cfg.round_us = cfg.round_us / cfg.round_intervals * l;
			cfg.round_intervals = 1;
		}
	}
	jr->steady = malloc(sizeof(*jr->steady));
	if (!jr->steady)
		return -ENOMEM;
	steady_init(jr->steady);
	return steady_find(&cfg, jr->series, jr->steady);
}

/* Merge entry k of @job over every rank into @acc. */
static int merge_entry(const struct result_ranks *set, const struct job *job, size_t k,
		       struct job_result *acc)
{
	size_t i;
	uint32_t level = 1;
	int r;

	result_job_init(acc);
	acc->series = calloc(1, sizeof(*acc->series));
	if (!acc->series)
		return -ENOMEM;
	series_init(acc->series);
	/* each rank bounded its own series (series_max): merge at the coarsest level */
	for (i = 0; i < set->nr; i++) {
		const struct job_result *src = rank_entry(&set->ranks[i], job, k);

		if (src && src->series && series_level(src->series) > level)
			level = series_level(src->series);
	}
	for (i = 0; i < set->nr; i++) {
		const struct job_result *src = rank_entry(&set->ranks[i], job, k);
		struct series tmp;

		if (!src)
			continue;	/* that rank never started it (interrupted) */
		result_job_merge(acc, src);
		if (!src->series)
			continue;
		if (series_level(src->series) >= level) {
			r = series_merge(acc->series, src->series);
		} else {
			series_init(&tmp);
			r = series_merge(&tmp, src->series);	/* a copy, coarsened */
			if (!r)
				r = series_coarsen_to(&tmp, level);
			if (!r)
				r = series_merge(acc->series, &tmp);
			series_free(&tmp);
		}
		if (r)
			return r;
	}
	/* the merged series obeys series_max too */
	if ((r = series_bound(acc->series, (size_t)job->series_max)))
		return r;
	acc->job = job;
	merged_samples(acc);
	return merged_steady(acc);
}

int mpimerge_merge(struct run_result *res, struct result_ranks *set, struct err *e)
{
	struct job_result *jobs, *own = res->jobs;
	size_t n = 0, cap = 0, i, j, nown = res->nr_jobs;
	uint64_t lo = UINT64_MAX, hi = 0;
	int r = 0;

	/* rank 0's own entries go; their device view stays (below), as its
	 * disk_util and environment do: the devices are each host's own */
	res->jobs = NULL;
	res->nr_jobs = 0;
	res->ranks = set;
	for (i = 0; i < set->nr; i++)
		cap += set->ranks[i].nr_jobs;
	jobs = calloc(cap ? cap : 1, sizeof(*jobs));
	if (!jobs) {
		res->jobs = own;	/* freed with @res */
		res->nr_jobs = nown;
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory merging the ranks");
	}
	res->jobs = jobs;
	/* the entries in the order of the first rank that has them */
	for (i = 0; i < set->nr && !r; i++) {
		const struct result_rank *rk = &set->ranks[i];

		for (j = 0; j < rk->nr_jobs && !r; j++) {
			const struct job *job = rk->jobs[j].job;
			size_t k = 0, m, seen = 0;

			for (m = 0; m < j; m++)
				if (rk->jobs[m].job == job)
					k++;	/* entry j is the k-th of its job here */
			for (m = 0; m < n; m++)
				if (jobs[m].job == job)
					seen++;
			if (seen > k)
				continue;	/* merged already, from an earlier rank */
			r = merge_entry(set, job, k, &jobs[n]);
			n++;
			res->nr_jobs = n;
		}
	}
	for (i = 0; i < n && i < nown; i++) {
		if (own[i].job != jobs[i].job)
			continue;
		jobs[i].dev = own[i].dev;
		jobs[i].nr_dev = own[i].nr_dev;
		jobs[i].dev_iv = own[i].dev_iv;
		jobs[i].nr_dev_iv = own[i].nr_dev_iv;
		own[i].dev = NULL;
		own[i].dev_iv = NULL;
		own[i].nr_dev = own[i].nr_dev_iv = 0;
	}
	for (i = 0; i < nown; i++)
		result_job_clear(&own[i]);
	free(own);
	if (r)
		return err_set(e, r, EXIT_INTERNAL, "merging the ranks' results failed: %s", strerror(-r));
	result_bw_agg(res);
	for (i = 0; i < set->nr; i++) {
		const struct result_rank *rk = &set->ranks[i];

		if (rk->partial)
			res->partial = 1;
		if (!res->signal && rk->signal)
			res->signal = rk->signal;
		if (rk->info.start_ns < lo)
			lo = rk->info.start_ns;
		if (rk->info.start_ns > hi)
			hi = rk->info.start_ns;
	}
	set->skew_ns = hi >= lo ? hi - lo : 0;
	return 0;
}
