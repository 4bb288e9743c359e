/*
 * Tests for run (run.h): the real orchestration and workers on the null
 * engine and a fake clock given through run_req.clock_src, with jobs parsed
 * from a command line as the CLI parses them.  The clock here is shared by
 * the worker threads and the waiting thread, so it is atomic: every read
 * moves it 1 us on, every sleep by what was asked.  The tests check counts
 * (I/Os, threads, groups, intervals delivered), never wall time.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "parse/cmdline.h"
#include "run/run.h"
#include "measure/series.h"

struct aclock {
	_Atomic uint64_t now;
	struct clock_src src;
};

static uint64_t aclock_now(void *ctx)
{
	return atomic_fetch_add(&((struct aclock *)ctx)->now, 1000);
}

static void aclock_sleep(void *ctx, uint64_t ns)
{
	atomic_fetch_add(&((struct aclock *)ctx)->now, ns);
}

static void aclock_init(struct aclock *c)
{
	atomic_store(&c->now, 5000000000000ull);
	c->src.now_ns = aclock_now;
	c->src.sleep_ns = aclock_sleep;
	c->src.ctx = c;
}

/* What the progress callback saw. */
struct seen {
	unsigned calls, finals;
	size_t next_iv[4];		/* per groupid: the next interval expected */
	size_t iv_total[4];		/* intervals delivered per groupid */
	int gap;			/* an entry's intervals did not follow on */
	int order;			/* group 1 reported before group 0's final call */
	int final0;			/* group 0's final call came */
	uint64_t ios, bytes;		/* the ETA line's counts at the last call */
	int went_down;			/* ... and they went down (a negative rate) */
	int ramp_seen;
};

static void on_progress(void *arg, const struct run_progress *p)
{
	struct seen *s = arg;
	size_t i;

	s->calls++;
	if (p->ios[DDIR_READ] + p->ios[DDIR_WRITE] < s->ios ||
	    p->bytes[DDIR_READ] + p->bytes[DDIR_WRITE] < s->bytes)
		s->went_down = 1;
	s->ios = p->ios[DDIR_READ] + p->ios[DDIR_WRITE];
	s->bytes = p->bytes[DDIR_READ] + p->bytes[DDIR_WRITE];
	s->ramp_seen |= p->ramping;
	for (i = 0; p->jobs && i < p->nr_jobs; i++) {
		const struct run_progress_job *e = &p->jobs[i];
		unsigned g = e->groupid < 4 ? e->groupid : 3;

		if (g == 1 && !s->final0)
			s->order = 1;
		if (!e->nr_iv)
			continue;
		if (e->first_iv != s->next_iv[g])
			s->gap = 1;
		s->next_iv[g] = e->first_iv + e->nr_iv;
		s->iv_total[g] += e->nr_iv;
	}
	if (p->final) {
		s->finals++;
		if (p->jobs && p->nr_jobs && p->jobs[0].groupid == 0)
			s->final0 = 1;
	}
}

/*
 * Parse @argv (NULL-terminated) into *@clp and run it on the fake clock; 0 or
 * the run's error.  Free *@clp after result_free().
 */
static int run_argv(char **argv, struct cmdline *clp, struct run_result *res, struct seen *seen,
		    uint64_t status_us)
{
	struct cmdline cl;
	struct run_req req;
	struct aclock clk;
	struct err e;
	int argc = 0, r;

	while (argv[argc])
		argc++;
	err_clear(&e);
	memset(&cl, 0, sizeof(cl));
	memset(res, 0, sizeof(*res));
	*clp = cl;
	r = cmdline_parse(argc, argv, &cl, &e);
	if (r) {
		printf("  cmdline_parse: %s\n", e.msg);
		return r;
	}
	aclock_init(&clk);
	memset(&req, 0, sizeof(req));
	req.jobs = cl.jobs;
	req.nr_jobs = cl.jobs_nr;
	req.clock_src = &clk.src;
	if (seen) {
		req.progress = on_progress;
		req.progress_arg = seen;
		req.progress_us = status_us;
	}
	r = run_execute(&req, res, &e);
	if (r)
		printf("  run_execute: %s\n", e.msg);
	*clp = cl;	/* the result points at its jobs: freed after the checks */
	return r;
}

/* numjobs=3 with group_reporting: one entry, three threads, the I/Os of all three. */
TEST(group_merge)
{
	char *argv[] = { "iotrial", "--ioengine=null", "--name=g", "--rw=read", "--bs=4k",
			 "--size=1m", "--numjobs=3", "--group_reporting", NULL };
	struct run_result res;
	struct cmdline cl;

	CHECK_EQ_U(run_argv(argv, &cl, &res, NULL, 0), 0);
	CHECK_EQ_U(res.nr_jobs, 1);
	if (res.nr_jobs == 1) {
		CHECK_EQ_U(res.jobs[0].nr_threads, 3);
		CHECK_EQ_U(res.jobs[0].dir[DDIR_READ].total_ios, 3 * 256);
		CHECK_EQ_U(res.jobs[0].dir[DDIR_READ].io_bytes, 3ull << 20);
	}
	result_free(&res);
	cmdline_free(&cl);
}

/* Without group_reporting each clone is its own entry with its own I/Os. */
TEST(clones_apart)
{
	char *argv[] = { "iotrial", "--ioengine=null", "--name=c", "--rw=write", "--bs=8k",
			 "--size=512k", "--numjobs=2", NULL };
	struct run_result res;
	struct cmdline cl;

	CHECK_EQ_U(run_argv(argv, &cl, &res, NULL, 0), 0);
	CHECK_EQ_U(res.nr_jobs, 2);
	for (size_t i = 0; i < res.nr_jobs && i < 2; i++) {
		CHECK_EQ_U(res.jobs[i].nr_threads, 1);
		CHECK_EQ_U(res.jobs[i].dir[DDIR_WRITE].total_ios, 64);
	}
	result_free(&res);
	cmdline_free(&cl);
}

/*
 * stonewall: the second job is its own group and starts after the first has
 * ended; the status lines report group 0 to its final call before any entry
 * of group 1, every interval once and in order (the status cadence).
 */
TEST(stonewall_and_status)
{
	char *argv[] = { "iotrial", "--ioengine=null", "--time_based", "--runtime=3",
			 "--name=a", "--rw=randread", "--name=b", "--stonewall", "--rw=write", NULL };
	struct run_result res;
	struct cmdline cl;
	struct seen s;

	memset(&s, 0, sizeof(s));
	CHECK_EQ_U(run_argv(argv, &cl, &res, &s, 1000000), 0);
	CHECK_EQ_U(res.nr_jobs, 2);
	if (res.nr_jobs == 2) {
		CHECK_EQ_U(res.jobs[0].groupid, 0);
		CHECK_EQ_U(res.jobs[1].groupid, 1);
		CHECK(res.jobs[0].dir[DDIR_READ].total_ios > 0);
		CHECK(res.jobs[1].dir[DDIR_WRITE].total_ios > 0);
		/* every interval each job's series holds reached the status lines, once */
		CHECK(res.jobs[0].series != NULL && res.jobs[1].series != NULL);
		if (res.jobs[0].series && res.jobs[1].series) {
			CHECK_EQ_U(s.iv_total[0], res.jobs[0].series->base + res.jobs[0].series->nr);
			CHECK_EQ_U(s.iv_total[1], res.jobs[1].series->base + res.jobs[1].series->nr);
		}
	}
	CHECK(s.iv_total[0] >= 3);	/* 3 s of 1 s intervals */
	CHECK(!s.gap);
	CHECK(!s.order);
	CHECK_EQ_U(s.finals, 2);		/* one per stonewall group */
	result_free(&res);
	cmdline_free(&cl);
}

/*
 * The ETA line's counts over a ramp (the statistics restart at its end) and
 * a group change (another group's threads): they only go up, so the rate
 * the CLI takes from two of them is never negative (it printed
 * 15196579TiB/s).  The counts are I/Os, whatever the clock does.
 */
TEST(eta_counts_only_go_up)
{
	/*
	 * A 10 s ramp: the status loop looks every 25 ms of real time, and the
	 * null job (1 us of fake clock a read) spent a 1 s ramp in less than
	 * that once the hot path got faster.
	 */
	char *argv[] = { "iotrial", "--ioengine=null", "--time_based", "--runtime=1",
			 "--ramp_time=10", "--name=a", "--rw=randread", "--name=b", "--stonewall",
			 "--rw=write", NULL };
	struct run_result res;
	struct cmdline cl;
	struct seen s;
	int tries;

	/*
	 * Even so a busy machine can keep the status thread off the CPU for
	 * the whole ramp.  A missed ramp is a scheduling accident, run again (at
	 * most 3 times); a ramp never flagged, or counts that go down, is a bug.
	 */
	for (tries = 0; tries < 3; tries++) {
		memset(&s, 0, sizeof(s));
		CHECK_EQ_U(run_argv(argv, &cl, &res, &s, 100000), 0);
		CHECK(!s.went_down);
		if (s.ramp_seen)
			break;
		result_free(&res);
		cmdline_free(&cl);
	}
	CHECK(s.calls > 4);
	CHECK(s.ramp_seen);
	if (!s.ramp_seen)
		return;		/* freed in the loop */
	/* the last counts hold both groups' I/Os, their ramps too */
	if (res.nr_jobs == 2)
		CHECK(s.ios > res.jobs[0].dir[DDIR_READ].total_ios + res.jobs[1].dir[DDIR_WRITE].total_ios);
	result_free(&res);
	cmdline_free(&cl);
}

int main(void)
{
	RUN(group_merge);
	RUN(clones_apart);
	RUN(stonewall_and_status);
	RUN(eta_counts_only_go_up);
	return CHECK_DONE();
}
