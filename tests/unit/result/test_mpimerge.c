/*
 * test_mpimerge: packing a rank's result and merging ranks (no MPI needed).
 * Ranks are built from known latencies, so every merged figure is checked
 * against what one process seeing all the I/Os would report.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "model/job.h"
#include "result/mpimerge.h"
#include "measure/series.h"

/* Latencies of rank @r: 100 * (r + 1) I/Os of 1000 + 37 * i ns. */
static uint64_t lat_of(unsigned r, unsigned i)
{
	return 1000 + 37ull * i + 5000ull * r;
}

static unsigned nios(unsigned r)
{
	return 100 * (r + 1);
}

/*
 * A rank's result: @nent entries of job 0 (clones), each with the rank's
 * read latencies and a series of 3 one-second intervals.
 */
static void make_rank(struct run_result *res, struct job *jobs, unsigned r, size_t nent)
{
	memset(res, 0, sizeof(*res));
	res->jobs = calloc(nent, sizeof(*res->jobs));
	res->nr_jobs = nent;
	for (size_t k = 0; k < nent; k++) {
		struct job_result *jr = &res->jobs[k];
		struct dir_result *d = &jr->dir[DDIR_READ];
		struct lat_acc a;
		static struct hist iv_h;
		unsigned n = nios(r), done = 0;

		result_job_init(jr);
		jr->job = &jobs[0];
		jr->nr_threads = 1;
		snprintf(jr->name, sizeof(jr->name), "t");
		lat_acc_init(&a);
		for (unsigned i = 0; i < n; i++) {
			lat_acc_add(&a, lat_of(r, i));
			hist_add(&d->lat_hist, lat_of(r, i));
		}
		lat_acc_moments(&a, &d->lat);
		d->total_ios = n;
		d->io_bytes = (uint64_t)n * 4096;
		d->runtime_ms = 3000;
		jr->job_runtime_ms = 3000;
		jr->series = calloc(1, sizeof(*jr->series));
		series_init(jr->series);
		for (unsigned t = 0; t < 3; t++) {
			struct series_in in[DDIR_NR];
			unsigned m = t < 2 ? n / 3 : n - done;

			memset(in, 0, sizeof(in));
			memset(&iv_h, 0, sizeof(iv_h));
			in[DDIR_READ].ios = m;
			in[DDIR_READ].bytes = (uint64_t)m * 4096;
			in[DDIR_READ].lat_min = UINT64_MAX;
			for (unsigned i = done; i < done + m; i++) {
				in[DDIR_READ].lat_sum_ns += lat_of(r, i);
				if (lat_of(r, i) < in[DDIR_READ].lat_min)
					in[DDIR_READ].lat_min = lat_of(r, i);
				if (lat_of(r, i) > in[DDIR_READ].lat_max)
					in[DDIR_READ].lat_max = lat_of(r, i);
				hist_add(&iv_h, lat_of(r, i));
			}
			in[DDIR_READ].lat_hist = &iv_h;
			in[DDIR_WRITE].lat_min = in[DDIR_TRIM].lat_min = UINT64_MAX;
			series_add(jr->series, (t + 1) * 1000, 1000000, 0, in);
			done += m;
		}
	}
}

static void info_of(struct result_rank_info *info, unsigned r)
{
	memset(info, 0, sizeof(*info));
	info->rank = r;
	snprintf(info->host, sizeof(info->host), "host%u", r);
	info->start_ns = 1000000000ull + r * 250000ull;	/* 0.25 ms apart */
	info->end_ns = info->start_ns + 3000000000ull;
}

/* Pack rank @r's result and unpack it into @out. */
static int roundtrip(struct job *jobs, unsigned r, size_t nent, struct result_rank *out)
{
	struct run_result res;
	struct result_rank_info info;
	struct err e;
	void *buf = NULL;
	size_t len = 0;
	int rc;

	make_rank(&res, jobs, r, nent);
	info_of(&info, r);
	res.partial = r == 2;
	rc = mpimerge_pack(&res, jobs, 1, &info, &buf, &len);
	result_free(&res);
	if (rc)
		return rc;
	err_clear(&e);
	rc = mpimerge_unpack(buf, len, jobs, 1, out, &e);
	free(buf);
	return rc;
}

TEST(pack_roundtrip_is_exact)
{
	struct job jobs[1];
	struct run_result res;
	struct result_rank rk;
	struct result_rank_info info;
	struct err e;
	void *buf = NULL;
	size_t len = 0;

	job_init(&jobs[0]);
	make_rank(&res, jobs, 1, 2);
	info_of(&info, 1);
	CHECK(mpimerge_pack(&res, jobs, 1, &info, &buf, &len) == 0);
	/* mostly empty histograms: far smaller than two raw job_results */
	CHECK(len < sizeof(struct job_result) / 4);
	err_clear(&e);
	CHECK(mpimerge_unpack(buf, len, jobs, 1, &rk, &e) == 0);
	CHECK_EQ_U(rk.nr_jobs, 2);
	CHECK_EQ_U(rk.info.rank, 1);
	CHECK_STR(rk.info.host, "host1");
	CHECK_EQ_U(rk.info.start_ns, info.start_ns);
	for (size_t k = 0; k < rk.nr_jobs && k < 2; k++) {
		const struct job_result *a = &res.jobs[k], *b = &rk.jobs[k];

		CHECK(b->job == &jobs[0]);
		CHECK_EQ_U(b->dir[DDIR_READ].total_ios, a->dir[DDIR_READ].total_ios);
		CHECK(!memcmp(&b->dir[DDIR_READ].lat_hist, &a->dir[DDIR_READ].lat_hist, sizeof(struct hist)));
		CHECK(!memcmp(&b->dir[DDIR_READ].lat, &a->dir[DDIR_READ].lat, sizeof(struct moments)));
		CHECK(b->series && b->series->nr == a->series->nr);
		if (b->series && b->series->nr == a->series->nr) {
			CHECK(!memcmp(b->series->iv, a->series->iv, a->series->nr * sizeof(*a->series->iv)));
			CHECK_EQ_U(b->series->b_nr, a->series->b_nr);
		}
	}
	result_rank_clear(&rk);
	/* a cut or foreign buffer is refused with a message, never misread */
	err_clear(&e);
	CHECK(mpimerge_unpack(buf, len / 2, jobs, 1, &rk, &e) == -EINVAL);
	CHECK(strstr(e.msg, "not a packed result") != NULL);
	err_clear(&e);
	CHECK(mpimerge_unpack("garbage!", 8, jobs, 1, &rk, &e) == -EINVAL);
	/* a job index rank 0 does not have */
	err_clear(&e);
	CHECK(mpimerge_unpack(buf, len, jobs, 0, &rk, &e) == -EINVAL);
	free(buf);
	result_free(&res);
	job_free(&jobs[0]);
}

TEST(merge_equals_one_process_seeing_all)
{
	struct job jobs[1];
	struct run_result res;
	struct result_ranks *set = calloc(1, sizeof(*set));
	struct hist *all = calloc(1, sizeof(*all));
	struct lat_acc a;
	struct moments want;
	struct err e;
	uint64_t ios = 0;
	unsigned r;

	job_init(&jobs[0]);
	set->ranks = calloc(3, sizeof(*set->ranks));
	for (r = 0; r < 3; r++) {
		CHECK(roundtrip(jobs, r, 1, &set->ranks[r]) == 0);
		set->nr = r + 1;
	}
	lat_acc_init(&a);
	for (r = 0; r < 3; r++)
		for (unsigned i = 0; i < nios(r); i++) {
			lat_acc_add(&a, lat_of(r, i));
			hist_add(all, lat_of(r, i));
			ios++;
		}
	lat_acc_moments(&a, &want);
	make_rank(&res, jobs, 0, 1);	/* rank 0's own result: replaced */
	err_clear(&e);
	CHECK(mpimerge_merge(&res, set, &e) == 0);
	CHECK(res.ranks == set);
	CHECK_EQ_U(res.nr_jobs, 1);
	if (res.nr_jobs == 1) {
		const struct job_result *m = &res.jobs[0];
		const struct dir_result *d = &m->dir[DDIR_READ];

		CHECK_EQ_U(d->total_ios, ios);
		CHECK_EQ_U(d->io_bytes, ios * 4096);
		CHECK_EQ_U(m->nr_threads, 3);
		CHECK(!memcmp(&d->lat_hist, all, sizeof(*all)));
		CHECK_EQ_U(d->lat.n, want.n);
		CHECK_EQ_U(d->lat.min, want.min);
		CHECK_EQ_U(d->lat.max, want.max);
		CHECK_NEAR(d->lat.mean, want.mean, want.mean * 1e-12);
		CHECK_NEAR(d->lat.m2, want.m2, want.m2 * 1e-9);
		/* series: interval by interval, the ranks' sums */
		CHECK(m->series && m->series->nr == 3);
		CHECK_EQ_U(series_total_ios(m->series, DDIR_READ), ios);
		if (m->series && m->series->nr == 3)
			CHECK_EQ_U(m->series->iv[0].d[DDIR_READ].ios, 100 / 3 + 200 / 3 + 300 / 3);
		/* bw/iops samples: per merged interval, not one rank's */
		CHECK_EQ_U(d->iops.n, 3);
		CHECK_NEAR(d->iops.mean, (double)ios / 3, 1e-9);
		CHECK(m->steady != NULL);	/* evaluated on the merged series */
	}
	CHECK(res.partial);	/* rank 2 was partial */
	CHECK_EQ_U(set->skew_ns, 500000);
	result_free(&res);
	free(all);
	job_free(&jobs[0]);
}

TEST(merge_matches_clones_and_missing_entries)
{
	struct job jobs[1];
	struct run_result res;
	struct result_ranks *set = calloc(1, sizeof(*set));
	struct err e;

	job_init(&jobs[0]);
	set->ranks = calloc(2, sizeof(*set->ranks));
	/* rank 0 ran two clones, rank 1 only one (interrupted before the second) */
	CHECK(roundtrip(jobs, 0, 2, &set->ranks[0]) == 0);
	CHECK(roundtrip(jobs, 1, 1, &set->ranks[1]) == 0);
	set->nr = 2;
	memset(&res, 0, sizeof(res));
	err_clear(&e);
	CHECK(mpimerge_merge(&res, set, &e) == 0);
	CHECK_EQ_U(res.nr_jobs, 2);
	if (res.nr_jobs == 2) {
		CHECK_EQ_U(res.jobs[0].dir[DDIR_READ].total_ios, nios(0) + nios(1));
		CHECK_EQ_U(res.jobs[1].dir[DDIR_READ].total_ios, nios(0));
		CHECK_EQ_U(res.jobs[0].nr_threads, 2);
		CHECK_EQ_U(res.jobs[1].nr_threads, 1);
	}
	result_free(&res);
	job_free(&jobs[0]);
}

int main(void)
{
	RUN(pack_roundtrip_is_exact);
	RUN(merge_equals_one_process_seeing_all);
	RUN(merge_matches_clones_and_missing_entries);
	return check_any_failed;
}
