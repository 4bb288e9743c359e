/*
 * result: initialising, merging and freeing the result model (result.h).
 *
 * Merging is group_reporting: the group is reported as one entity whose
 * counts are sums, whose histograms are summed (so its percentiles are the
 * pooled percentiles, not an average of per-thread ones), and whose moments
 * are merged exactly.  Times follow fio 3.33, checked by running it: the
 * per-direction runtime is the longest thread's, job_runtime is the sum of
 * the threads' runtimes, and usr/sys CPU % are total CPU time over that sum
 * (the average CPU use per thread).
 *
 * Contract: a thread's result has nr_threads = 1 (0 is taken as 1); an
 * accumulator for a group starts from result_job_init() (nr_threads = 0) and
 * takes its job, name and groupid from the first merged result.
 */
#include "result/result.h"

#include <jansson.h>	/* json_decref of the environment */
#include "measure/series.h"
#include "steady/steady.h"

#include <stdlib.h>	/* free, calloc */
#include <string.h>	/* memset, memcpy */

static void dir_result_init(struct dir_result *d)
{
	memset(d, 0, sizeof(*d));
	moments_init(&d->slat);
	moments_init(&d->clat);
	moments_init(&d->lat);
	moments_init(&d->due);
	sample_stat_init(&d->bw_kib);
	sample_stat_init(&d->iops);
}

void result_job_init(struct job_result *r)
{
	int d;

	memset(r, 0, sizeof(*r));
	r->load1 = -1;	/* unknown until a thread reports it */
	for (d = 0; d < DDIR_NR; d++)
		dir_result_init(&r->dir[d]);
	moments_init(&r->sync_lat);
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static void dir_result_merge(struct dir_result *dst, const struct dir_result *src)
{
	dst->io_bytes += src->io_bytes;
	dst->total_ios += src->total_ios;
	dst->short_ios += src->short_ios;
	dst->drop_ios += src->drop_ios;
	dst->runtime_ms = max_u64(dst->runtime_ms, src->runtime_ms);
	moments_merge(&dst->slat, &src->slat);
	moments_merge(&dst->clat, &src->clat);
	moments_merge(&dst->lat, &src->lat);
	hist_merge(&dst->slat_hist, &src->slat_hist);
	hist_merge(&dst->clat_hist, &src->clat_hist);
	hist_merge(&dst->lat_hist, &src->lat_hist);
	moments_merge(&dst->due, &src->due);
	hist_merge(&dst->due_hist, &src->due_hist);
	/*
	 * Pooled bw/iops samples.  fio instead sums the group's threads per
	 * sample period (its group bw_mean is the group's bandwidth); only the
	 * per-interval series can reproduce that, so the runner may overwrite
	 * these from the summed series.
	 */
	sample_stat_merge(&dst->bw_kib, &src->bw_kib);
	sample_stat_merge(&dst->iops, &src->iops);
	/* shares of the same group's bandwidth add up */
	dst->bw_agg_pct += src->bw_agg_pct;
}

void result_dir_mixed(const struct job_result *jr, struct dir_result *out)
{
	dir_result_init(out);
	for (int d = 0; d < DDIR_NR; d++)
		dir_result_merge(out, &jr->dir[d]);
	out->bw_agg_pct = 0;	/* a share of the group's per-direction bandwidth: none here */
}

void result_job_merge(struct job_result *dst, const struct job_result *src)
{
	double rt_us;
	int d, i;

	if (!dst->nr_threads) {
		memcpy(dst->rand_seeds, src->rand_seeds, sizeof(dst->rand_seeds));
		dst->job = src->job;
		memcpy(dst->name, src->name, sizeof(dst->name));
		dst->groupid = src->groupid;
	}
	dst->nr_threads += src->nr_threads ? src->nr_threads : 1;
	if (src->prio) {
		if (!dst->prio && (dst->prio = calloc(1, sizeof(*dst->prio))))
			memset(dst->prio->nr, 0, sizeof(dst->prio->nr));
		if (dst->prio)
			cmdprio_result_merge(dst->prio, src->prio);
	}
	dst->coe |= src->coe;
	if (src->lat_depth)	/* fio reports the last thread's */
		dst->lat_depth = src->lat_depth;
	dst->total_err += src->total_err;
	if (!dst->first_err)
		dst->first_err = src->first_err;
	dst->target_error |= src->target_error;
	dst->laid_threads += src->laid_threads;
	dst->laid_files += src->laid_files;
	dst->laid_bytes += src->laid_bytes;
	if (!dst->error && src->error) {
		dst->error = src->error;
		memcpy(dst->first_error, src->first_error, sizeof(dst->first_error));
	}
	dst->elapsed_s = max_u64(dst->elapsed_s, src->elapsed_s);
	if (!dst->pid)
		dst->pid = src->pid;
	if (src->end_time > dst->end_time)
		dst->end_time = src->end_time;
	if (src->verify.method)
		dst->verify.method = src->verify.method;
	dst->verify.blocks += src->verify.blocks;
	dst->verify.bytes += src->verify.bytes;
	if (!dst->verify.failures && src->verify.failures) {
		dst->verify.fail_offset = src->verify.fail_offset;
		memcpy(dst->verify.fail_msg, src->verify.fail_msg, sizeof(dst->verify.fail_msg));
	}
	dst->verify.failures += src->verify.failures;
	dst->verify.no_pass |= src->verify.no_pass;
	dst->job_runtime_ms += src->job_runtime_ms;
	dst->usr_us += src->usr_us;
	dst->sys_us += src->sys_us;
	dst->rq_wait_ns += src->rq_wait_ns;
	/* known only when known for every thread merged */
	dst->has_sched = dst->nr_threads == (src->nr_threads ? src->nr_threads : 1) ?
			 src->has_sched : dst->has_sched && src->has_sched;
	dst->nivcsw += src->nivcsw;
	if (src->load1 > dst->load1)
		dst->load1 = src->load1;
	rt_us = (double)dst->job_runtime_ms * 1000.0;
	dst->usr_cpu = rt_us > 0 ? (double)dst->usr_us * 100.0 / rt_us : 0;
	dst->sys_cpu = rt_us > 0 ? (double)dst->sys_us * 100.0 / rt_us : 0;
	dst->ctx += src->ctx;
	dst->majf += src->majf;
	dst->minf += src->minf;
	for (d = 0; d < DDIR_NR; d++)
		dir_result_merge(&dst->dir[d], &src->dir[d]);
	moments_merge(&dst->sync_lat, &src->sync_lat);
	hist_merge(&dst->sync_hist, &src->sync_hist);
	dst->sync_ios += src->sync_ios;
	for (i = 0; i < RESULT_DEPTH_NR; i++)
		dst->depth_level[i] += src->depth_level[i];
	for (i = 0; i < RESULT_DEPTH_NR + 1; i++) {
		dst->depth_submit[i] += src->depth_submit[i];
		dst->depth_complete[i] += src->depth_complete[i];
	}
	dst->total_submit += src->total_submit;
	dst->total_complete += src->total_complete;
	dst->zone_resets += src->zone_resets;
	dst->partial |= src->partial;
	/* series and steady are not merged here: the runner owns their merge */
}

void result_bw_agg(struct run_result *r)
{
	size_t i, k;
	int d;

	for (i = 0; i < r->nr_jobs; i++) {
		for (d = 0; d < DDIR_NR; d++) {
			uint64_t bytes = 0, rt = 0;
			double agg_kib;

			for (k = 0; k < r->nr_jobs; k++) {
				if (r->jobs[k].groupid != r->jobs[i].groupid)
					continue;
				bytes += r->jobs[k].dir[d].io_bytes;
				rt = max_u64(rt, r->jobs[k].dir[d].runtime_ms);
			}
			agg_kib = rt ? (double)bytes * 1000.0 / (double)rt / 1024.0 : 0;
			r->jobs[i].dir[d].bw_agg_pct = agg_kib > 0 ?
				r->jobs[i].dir[d].bw_kib.mean * 100.0 / agg_kib : 0;
			/* fio's per= and bw_agg never exceed 100 (a sampled mean can) */
			if (r->jobs[i].dir[d].bw_agg_pct > 100.0)
				r->jobs[i].dir[d].bw_agg_pct = 100.0;
		}
	}
}

int result_job_did_io(const struct job_result *jr)
{
	if (jr->verify.blocks)
		return 1;
	for (unsigned d = 0; d < DDIR_NR; d++)
		if (jr->dir[d].total_ios || jr->dir[d].io_bytes)
			return 1;
	return 0;
}

int result_next_group(const struct run_result *r, int first, unsigned after, unsigned *gid)
{
	int found = 0;

	for (size_t i = 0; i < r->nr_jobs; i++) {
		unsigned g = r->jobs[i].groupid;

		if ((first || g > after) && (!found || g < *gid)) {
			*gid = g;
			found = 1;
		}
	}
	return found;
}

size_t result_job_clones(const struct run_result *r, size_t i, size_t *index)
{
	const struct job_result *j = &r->jobs[i];
	size_t n = 0;

	*index = 0;
	for (size_t k = 0; k < r->nr_jobs; k++) {
		if (r->jobs[k].groupid != j->groupid || strcmp(r->jobs[k].name, j->name))
			continue;
		if (k < i)
			(*index)++;
		n++;
	}
	return n;
}

/*
 * Release what one entry owns: its series, steady outcome, per-priority
 * figures and device views.  The run's environment and warnings are
 * released by result_free.
 */
void result_job_clear(struct job_result *r)
{
	if (r->series) {
		series_free(r->series);
		free(r->series);
		r->series = NULL;
	}
	if (r->steady) {
		steady_free(r->steady);
		free(r->steady);
		r->steady = NULL;
	}
	free(r->prio);
	r->prio = NULL;
	free(r->dev);
	free(r->dev_iv);
	r->dev = NULL;
	r->dev_iv = NULL;
	r->nr_dev = r->nr_dev_iv = 0;
}

void result_free(struct run_result *r)
{
	size_t i;

	for (i = 0; i < r->nr_jobs; i++)
		result_job_clear(&r->jobs[i]);
	if (r->env)
		json_decref(r->env);
	r->env = NULL;
	if (r->warnings)
		json_decref(r->warnings);
	r->warnings = NULL;
	result_ranks_free(r->ranks);
	r->ranks = NULL;
	for (i = 0; i < r->nr_groups; i++)
		free(r->groups[i].dev);
	free(r->groups);
	r->groups = NULL;
	r->nr_groups = 0;
	free(r->jobs);
	free(r->du);
	free(r->idle.cpus);
	r->idle.cpus = NULL;
	r->idle.nr_cpus = 0;
	r->jobs = NULL;
	r->nr_jobs = 0;
	r->du = NULL;
	r->nr_du = 0;
}

void result_rank_clear(struct result_rank *r)
{
	size_t i;

	for (i = 0; i < r->nr_jobs; i++)
		result_job_clear(&r->jobs[i]);
	free(r->jobs);
	if (r->env)
		json_decref(r->env);
	memset(r, 0, sizeof(*r));
}

void result_ranks_free(struct result_ranks *set)
{
	size_t i;

	if (!set)
		return;
	for (i = 0; i < set->nr; i++)
		result_rank_clear(&set->ranks[i]);
	free(set->ranks);
	free(set);
}
