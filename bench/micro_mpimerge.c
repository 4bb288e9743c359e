/*
 * micro_mpimerge: rank 0's share of an MPI run's merge, without MPI.
 *
 * Builds one realistic rank result (one job, reads and writes, latencies
 * spread over a few hundred histogram buckets, a series of IV one-second
 * intervals), packs it, then unpacks and merges N copies as rank 0 does after
 * the gather.  Prints the packed size (what each rank sends) and the
 * unpack + merge time for each N.  The transport (MPI_Gatherv of N packed
 * results to rank 0) is not in these figures: docs/mpi.md estimates it from
 * the packed size.  Not part of make check; build by hand:
 *   make && cc -O2 -std=c11 -D_GNU_SOURCE -Isrc -o build/micro_mpimerge \
 *      bench/micro_mpimerge.c build/libiotrial.a -ljansson -lm -lpthread \
 *      $(pkg-config --libs ompi-c) && build/micro_mpimerge [IV]
 */
#include <stdio.h>	/* printf */
#include <stdlib.h>	/* atoi, calloc */
#include <string.h>	/* memset */
#include <time.h>	/* clock_gettime */
#include "model/job.h"
#include "result/mpimerge.h"
#include "measure/series.h"

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* ~50-400 us, skewed: a few hundred distinct buckets, like a real device */
static uint64_t lat(uint64_t *s)
{
	uint64_t a = 50000 + rnd(s) % 100000, b = rnd(s) % 8 == 0 ? rnd(s) % 300000 : 0;

	return a + b;
}

static void make_rank(struct run_result *res, struct job *job, unsigned iv, uint64_t seed)
{
	struct job_result *jr;
	static struct hist h[DDIR_NR];
	uint64_t s = seed;

	memset(res, 0, sizeof(*res));
	res->jobs = calloc(1, sizeof(*res->jobs));
	res->nr_jobs = 1;
	jr = &res->jobs[0];
	result_job_init(jr);
	jr->job = job;
	jr->nr_threads = 1;
	snprintf(jr->name, sizeof(jr->name), "bench");
	jr->series = calloc(1, sizeof(*jr->series));
	series_init(jr->series);
	for (unsigned t = 0; t < iv; t++) {
		struct series_in in[DDIR_NR];

		memset(in, 0, sizeof(in));
		memset(h, 0, sizeof(h));
		for (int d = 0; d < 2; d++) {
			struct lat_acc a;
			struct moments m;

			lat_acc_init(&a);
			in[d].lat_min = UINT64_MAX;
			for (unsigned i = 0; i < 2000; i++) {	/* 2000 IOPS per direction */
				uint64_t v = lat(&s);

				lat_acc_add(&a, v);
				hist_add(&h[d], v);
				hist_add(&jr->dir[d].lat_hist, v);
				in[d].lat_sum_ns += v;
				in[d].lat_min = v < in[d].lat_min ? v : in[d].lat_min;
				in[d].lat_max = v > in[d].lat_max ? v : in[d].lat_max;
			}
			lat_acc_moments(&a, &m);
			moments_merge(&jr->dir[d].lat, &m);
			in[d].ios = 2000;
			in[d].bytes = 2000 * 4096;
			in[d].lat_hist = &h[d];
			jr->dir[d].total_ios += 2000;
			jr->dir[d].io_bytes += 2000 * 4096;
		}
		in[DDIR_TRIM].lat_min = UINT64_MAX;
		series_add(jr->series, (t + 1) * 1000ull, 1000000, 0, in);
	}
	for (int d = 0; d < 2; d++)
		jr->dir[d].runtime_ms = iv * 1000ull;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const unsigned ns[] = { 4, 100, 1000 };
	unsigned iv = argc > 1 ? (unsigned)atoi(argv[1]) : 60;
	struct job job;
	struct run_result res;
	struct result_rank_info info;
	void *buf;
	size_t len;

	job_init(&job);
	job.steady_report = SS_REPORT_NONE;	/* the merge itself, not steady_find */
	make_rank(&res, &job, iv, 88172645463325252ull);
	memset(&info, 0, sizeof(info));
	if (mpimerge_pack(&res, &job, 1, &info, &buf, &len))
		return 1;
	result_free(&res);
	printf("one rank: %u intervals, packed %zu bytes (%.1f KB per interval)\n", iv, len,
	       (double)len / 1024 / iv);
	for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
		struct result_ranks *set = calloc(1, sizeof(*set));
		struct err e;
		double t0 = now_s(), t1, t2;

		set->ranks = calloc(ns[k], sizeof(*set->ranks));
		for (unsigned r = 0; r < ns[k]; r++) {
			err_clear(&e);
			if (mpimerge_unpack(buf, len, &job, 1, &set->ranks[r], &e))
				return 1;
			set->nr = r + 1;
		}
		t1 = now_s();
		memset(&res, 0, sizeof(res));
		if (mpimerge_merge(&res, set, &e))
			return 1;
		t2 = now_s();
		printf("%5u ranks: unpack %.3f s, merge %.3f s, total %.3f s; gathered %.1f MB\n", ns[k],
		       t1 - t0, t2 - t1, t2 - t0, (double)len * ns[k] / 1e6);
		result_free(&res);
	}
	free(buf);
	job_free(&job);
	return 0;
}
