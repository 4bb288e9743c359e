/*
 * test_result: group_reporting merge of two thread results, with every
 * expected value computed by hand; result_free of a run result.
 */
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "result/result.h"

static void fill_moments(struct moments *m, const uint64_t *v, size_t n)
{
	struct lat_acc a;
	size_t i;

	lat_acc_init(&a);
	for (i = 0; i < n; i++)
		lat_acc_add(&a, v[i]);
	lat_acc_moments(&a, m);
}

TEST(init_is_identity)
{
	static struct job_result acc, t;
	uint64_t v[] = { 100, 300 };

	result_job_init(&t);
	t.nr_threads = 1;
	snprintf(t.name, sizeof(t.name), "%s", "job1");
	t.groupid = 3;
	fill_moments(&t.dir[DDIR_READ].clat, v, 2);
	result_job_init(&acc);
	result_job_merge(&acc, &t);
	CHECK_STR(acc.name, "job1");
	CHECK_EQ_U(acc.groupid, 3);
	CHECK_EQ_U(acc.nr_threads, 1);
	/* the zeroed accumulator's min must not win */
	CHECK_EQ_U(acc.dir[DDIR_READ].clat.min, 100);
	CHECK_EQ_U(acc.dir[DDIR_READ].clat.max, 300);
	CHECK_NEAR(acc.dir[DDIR_READ].clat.mean, 200, 0);
	CHECK_EQ_U(acc.dir[DDIR_WRITE].clat.n, 0);
}

TEST(merge_two_threads)
{
	static struct job_result a, b;
	uint64_t va[] = { 100, 200, 300 }, vb[] = { 1000, 3000 }, vall[] = { 100, 200, 300, 1000, 3000 };
	struct moments all;
	int i;

	result_job_init(&a);
	result_job_init(&b);
	a.nr_threads = b.nr_threads = 1;
	a.elapsed_s = 10;
	b.elapsed_s = 11;
	a.job_runtime_ms = 10000;
	b.job_runtime_ms = 9000;
	a.usr_us = 5000000;	/* 5 s of 10 s */
	b.usr_us = 4500000;	/* 4.5 s of 9 s */
	a.sys_us = 1000000;
	b.sys_us = 900000;
	a.ctx = 7;
	b.ctx = 5;
	a.minf = 1;
	b.majf = 2;
	b.error = 5;
	snprintf(b.first_error, sizeof(b.first_error), "%s", "EIO at 4096");
	a.dir[DDIR_READ].io_bytes = 4096 * 3;
	a.dir[DDIR_READ].total_ios = 3;
	a.dir[DDIR_READ].runtime_ms = 10000;
	b.dir[DDIR_READ].io_bytes = 4096 * 2;
	b.dir[DDIR_READ].total_ios = 2;
	b.dir[DDIR_READ].short_ios = 1;
	b.dir[DDIR_READ].runtime_ms = 9000;
	fill_moments(&a.dir[DDIR_READ].clat, va, 3);
	fill_moments(&b.dir[DDIR_READ].clat, vb, 2);
	for (i = 0; i < 3; i++)
		hist_add(&a.dir[DDIR_READ].clat_hist, va[i]);
	for (i = 0; i < 2; i++)
		hist_add(&b.dir[DDIR_READ].clat_hist, vb[i]);
	sample_stat_add(&a.dir[DDIR_READ].bw_kib, 100);
	sample_stat_add(&b.dir[DDIR_READ].bw_kib, 300);
	a.dir[DDIR_READ].bw_agg_pct = 40;
	b.dir[DDIR_READ].bw_agg_pct = 60;
	a.depth_level[0] = 3;
	b.depth_level[0] = 2;
	b.depth_level[6] = 1;
	a.depth_submit[1] = 3;
	b.depth_complete[7] = 4;
	a.total_submit = 3;
	b.total_complete = 2;
	b.partial = 1;

	result_job_merge(&a, &b);
	CHECK_EQ_U(a.nr_threads, 2);
	CHECK_EQ_U(a.error, 5);
	CHECK_STR(a.first_error, "EIO at 4096");
	CHECK_EQ_U(a.elapsed_s, 11);
	CHECK_EQ_U(a.job_runtime_ms, 19000);	/* fio sums job_runtime */
	CHECK_NEAR(a.usr_cpu, 9.5e6 / 19e6 * 100, 1e-9);	/* 50% */
	CHECK_NEAR(a.sys_cpu, 1.9e6 / 19e6 * 100, 1e-9);	/* 10% */
	CHECK_EQ_U(a.ctx, 12);
	CHECK_EQ_U(a.majf, 2);
	CHECK_EQ_U(a.minf, 1);
	CHECK_EQ_U(a.dir[DDIR_READ].io_bytes, 4096 * 5);
	CHECK_EQ_U(a.dir[DDIR_READ].total_ios, 5);
	CHECK_EQ_U(a.dir[DDIR_READ].short_ios, 1);
	CHECK_EQ_U(a.dir[DDIR_READ].runtime_ms, 10000);	/* the longest */
	fill_moments(&all, vall, 5);
	CHECK_EQ_U(a.dir[DDIR_READ].clat.n, 5);
	CHECK_EQ_U(a.dir[DDIR_READ].clat.min, 100);
	CHECK_EQ_U(a.dir[DDIR_READ].clat.max, 3000);
	CHECK_NEAR(a.dir[DDIR_READ].clat.mean, 920, 1e-9);
	CHECK_NEAR(a.dir[DDIR_READ].clat.m2, all.m2, 1e-6);
	CHECK_EQ_U(hist_total(&a.dir[DDIR_READ].clat_hist), 5);
	CHECK_EQ_U(hist_percentile(&a.dir[DDIR_READ].clat_hist, 100), hist_bucket_value(hist_index(3000)));
	CHECK_EQ_U(a.dir[DDIR_READ].bw_kib.n, 2);
	CHECK_NEAR(a.dir[DDIR_READ].bw_kib.mean, 200, 1e-12);
	CHECK_NEAR(a.dir[DDIR_READ].bw_agg_pct, 100, 1e-12);
	CHECK_EQ_U(a.depth_level[0], 5);
	CHECK_EQ_U(a.depth_level[6], 1);
	CHECK_EQ_U(a.depth_submit[1], 3);
	CHECK_EQ_U(a.depth_complete[7], 4);
	CHECK_EQ_U(a.total_submit, 3);
	CHECK_EQ_U(a.total_complete, 2);
	CHECK_EQ_U(a.partial, 1);
	/* the first error wins */
	b.error = 28;
	result_job_merge(&a, &b);
	CHECK_EQ_U(a.error, 5);
	CHECK_EQ_U(a.nr_threads, 3);
}

/* Scheduler evidence (docs/json.md, the device view): waits and switches add up, the load is the
 * highest seen, and the wait is known only when every thread knew it. */
TEST(merge_sched_figures)
{
	struct job_result acc, t;

	result_job_init(&acc);
	CHECK_NEAR(acc.load1, -1, 0);
	result_job_init(&t);
	t.nr_threads = 1;
	t.rq_wait_ns = 3000;
	t.nivcsw = 4;
	t.has_sched = 1;
	t.load1 = 7.5;
	result_job_merge(&acc, &t);
	CHECK_EQ_U(acc.has_sched, 1);
	t.rq_wait_ns = 2000;
	t.nivcsw = 1;
	t.load1 = 9.25;
	result_job_merge(&acc, &t);
	CHECK_EQ_U(acc.rq_wait_ns, 5000);
	CHECK_EQ_U(acc.nivcsw, 5);
	CHECK_NEAR(acc.load1, 9.25, 0);
	CHECK_EQ_U(acc.has_sched, 1);
	t.has_sched = 0;
	t.load1 = 1;
	result_job_merge(&acc, &t);
	CHECK_EQ_U(acc.has_sched, 0);
	CHECK_NEAR(acc.load1, 9.25, 0);
	t.has_sched = 1;
	result_job_merge(&acc, &t);
	CHECK_EQ_U(acc.has_sched, 0);
}

TEST(bw_agg_like_fio)
{
	struct run_result r;

	memset(&r, 0, sizeof(r));
	r.jobs = calloc(3, sizeof(*r.jobs));
	r.nr_jobs = 3;
	result_job_init(&r.jobs[0]);
	result_job_init(&r.jobs[1]);
	result_job_init(&r.jobs[2]);
	/* group 0: 3 MiB in 1000 ms and 1 MiB in 500 ms: aggregate 4 MiB/s = 4096 KiB/s */
	r.jobs[0].dir[DDIR_READ].io_bytes = 3 << 20;
	r.jobs[0].dir[DDIR_READ].runtime_ms = 1000;
	sample_stat_add(&r.jobs[0].dir[DDIR_READ].bw_kib, 3072);
	r.jobs[1].dir[DDIR_READ].io_bytes = 1 << 20;
	r.jobs[1].dir[DDIR_READ].runtime_ms = 500;
	sample_stat_add(&r.jobs[1].dir[DDIR_READ].bw_kib, 2048);
	/* group 1 alone: its mean sample equals its bandwidth */
	r.jobs[2].groupid = 1;
	r.jobs[2].dir[DDIR_WRITE].io_bytes = 1 << 20;
	r.jobs[2].dir[DDIR_WRITE].runtime_ms = 1000;
	sample_stat_add(&r.jobs[2].dir[DDIR_WRITE].bw_kib, 1024);
	result_bw_agg(&r);
	CHECK_NEAR(r.jobs[0].dir[DDIR_READ].bw_agg_pct, 75, 1e-9);
	CHECK_NEAR(r.jobs[1].dir[DDIR_READ].bw_agg_pct, 50, 1e-9);
	CHECK_NEAR(r.jobs[2].dir[DDIR_WRITE].bw_agg_pct, 100, 1e-9);
	CHECK_NEAR(r.jobs[2].dir[DDIR_READ].bw_agg_pct, 0, 0);
	result_free(&r);
}

TEST(free_run_result)
{
	struct run_result r;

	memset(&r, 0, sizeof(r));
	r.jobs = calloc(3, sizeof(*r.jobs));
	r.nr_jobs = 3;
	r.du = calloc(2, sizeof(*r.du));
	r.nr_du = 2;
	result_free(&r);	/* ASan would report a leak or double free */
	CHECK(r.jobs == NULL);
	CHECK_EQ_U(r.nr_jobs, 0);
	CHECK(r.du == NULL);
	result_free(&r);	/* twice is harmless */
}

int main(void)
{
	RUN(init_is_identity);
	RUN(merge_two_threads);
	RUN(merge_sched_figures);
	RUN(bw_agg_like_fio);
	RUN(free_run_result);
	return CHECK_DONE();
}
