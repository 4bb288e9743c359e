/*
 * report_ranks: per-rank text table and JSON (report_ranks.h).
 */
#include "report/report_ranks.h"
#include "lib/human.h"

#include <errno.h>	/* ENOMEM */
#include <stdint.h>
#include <stdlib.h>	/* malloc */
#include <string.h>	/* memset */

#include "lib/hist.h"
#include "result/mpimerge.h"
#include "lib/stat.h"

/* All directions of @jr pooled: I/Os, bytes, longest runtime, latency. */
struct rank_sum {
	uint64_t ios, bytes, runtime_ms;
	struct moments lat;
	struct hist h;
};

static void rank_sum(const struct job_result *jr, struct rank_sum *s)
{
	int d;

	memset(s, 0, sizeof(*s));
	moments_init(&s->lat);
	for (d = 0; d < DDIR_NR; d++) {
		const struct dir_result *dr = &jr->dir[d];

		s->ios += dr->total_ios;
		s->bytes += dr->io_bytes;
		if (dr->runtime_ms > s->runtime_ms)
			s->runtime_ms = dr->runtime_ms;
		moments_merge(&s->lat, &dr->lat);
		hist_merge(&s->h, &dr->lat_hist);
	}
}

void report_ranks_text(FILE *f, const struct run_result *r)
{
	const struct result_ranks *set = r->ranks;
	struct rank_sum *s;
	uint64_t lo = UINT64_MAX;
	size_t i, k;

	if (!set)
		return;
	s = malloc(sizeof(*s));	/* 14.8 KB of histogram: not on the stack */
	if (!s)
		return;
	for (i = 0; i < set->nr; i++)
		if (set->ranks[i].info.start_ns < lo)
			lo = set->ranks[i].info.start_ns;
	fprintf(f, "\nPer host (%zu ranks; start skew %.3f ms, latest minus earliest I/O start;"
		" merged on rank 0 in %.3f ms):\n", set->nr, (double)set->skew_ns / 1e6,
		set->merge_s * 1e3);
	fprintf(f, "  %4s  %-20s %-16s %12s %12s %12s %10s %10s %10s  %s\n", "rank", "host", "job", "ios",
		"IOPS", "MiB/s", "lat mean", "lat p99", "start", "state");
	for (i = 0; i < set->nr; i++) {
		const struct result_rank *rk = &set->ranks[i];

		for (k = 0; k < rk->nr_jobs; k++) {
			const struct job_result *jr = &rk->jobs[k];
			double secs, mean;
			char m[32], p[32];

			rank_sum(jr, s);
			secs = (double)s->runtime_ms / 1e3;
			mean = s->lat.n ? s->lat.mean : 0;
			human_ns(m, sizeof(m), mean, HUMAN_TIGHT);
			human_ns(p, sizeof(p), s->lat.n ? (double)hist_percentile(&s->h, 99.0) : 0, HUMAN_TIGHT);
			fprintf(f, "  %4u  %-20.20s %-16.16s %12llu %12.1f %12.2f %10s %10s %+9.3fms  %s\n",
				rk->info.rank, rk->info.host, jr->name, (unsigned long long)s->ios,
				secs > 0 ? (double)s->ios / secs : 0,
				secs > 0 ? (double)s->bytes / secs / 1048576.0 : 0, m, p,
				(double)(rk->info.start_ns - lo) / 1e6,
				jr->error ? "error" : jr->partial || rk->partial ? "partial" : "ok");
		}
	}
	free(s);
}

int report_ranks_json(json_t *iot, const struct run_result *r)
{
	const struct result_ranks *set = r->ranks;
	json_t *arr, *mpi;
	uint64_t lo = UINT64_MAX;
	size_t i;
	int bad = 0;

	if (!set)
		return 0;
	for (i = 0; i < set->nr; i++)
		if (set->ranks[i].info.start_ns < lo)
			lo = set->ranks[i].info.start_ns;
	arr = json_array();
	if (!arr)
		return -ENOMEM;
	for (i = 0; i < set->nr; i++) {
		const struct result_rank *rk = &set->ranks[i];
		json_t *o = json_pack("{s:I, s:s, s:I, s:I, s:I, s:b, s:i}", "rank", (json_int_t)rk->info.rank,
				      "host", rk->info.host, "start_ns", (json_int_t)rk->info.start_ns,
				      "end_ns", (json_int_t)rk->info.end_ns,
				      "start_offset_ns", (json_int_t)(rk->info.start_ns - lo),
				      "partial", rk->partial, "signal", rk->signal);

		if (o && rk->env)
			json_object_set(o, "env", rk->env);
		if (!o || json_array_append_new(arr, o))
			bad = 1;
	}
	mpi = json_pack("{s:I, s:I, s:f}", "ranks", (json_int_t)set->nr, "start_skew_ns",
			(json_int_t)set->skew_ns, "merge_s", set->merge_s);
	if (json_object_set_new(iot, "ranks", arr) || !mpi || json_object_set_new(iot, "mpi", mpi) || bad)
		return -ENOMEM;	/* what was set is released with @iot */
	return 0;
}
