/*
 * test_worker_offload: io_submit_mode=offload against inline, on the real worker and
 * a fake clock, with a device model in which every I/O takes a fixed 5 ms
 * from its commit, whatever else is in flight (a deep, slow device).  At
 * rate_iops=1000 (an I/O due every 1 ms) and iodepth=32:
 *   - offload issues every I/O exactly on its slot (gaps of 1 ms): the wait
 *     for completions ends when the next slot comes;
 *   - inline waits for a completion before a slot that is due later, so it
 *     issues in bursts (gaps of 0 and 5 ms): the coordinated omission fio's
 *     offload mode exists to avoid.
 * Both complete the same number of I/Os (the schedule is absolute).
 */
#include <stdlib.h>

#include "check.h"
#include "fake_clock.h"
#include "job_fixture.h"
#include "worker/worker.h"

#define START_NS 7000000000000ull
#define MS 1000000ull
#define DEV_NS (5 * MS)
#define MAX_IOS 4096

struct slow {
	struct worker w;
	struct job j;
	struct fake_clock fc;
	struct engine_ops ops;
	struct io_u *queued[64];
	unsigned nr_queued;
	struct io_u *fly[64];		/* in flight, in commit order */
	uint64_t done_at[64];
	unsigned nr_fly;
	uint64_t issued[MAX_IOS];	/* fake time of every commit of an I/O */
	unsigned nr_issued;
};

static struct slow *slow_of(struct engine_ctx *ctx)
{
	return (struct slow *)((char *)ctx - offsetof(struct slow, w.ctx));
}

static int slow_init(struct engine_ctx *ctx, struct err *e)
{
	(void)ctx;
	(void)e;
	return 0;
}

static int slow_queue(struct engine_ctx *ctx, struct io_u *io)
{
	struct slow *s = slow_of(ctx);

	io->res = io->len;
	s->queued[s->nr_queued++] = io;
	return ENGINE_Q_QUEUED;
}

static int slow_commit(struct engine_ctx *ctx)
{
	struct slow *s = slow_of(ctx);
	unsigned i, n = s->nr_queued;

	for (i = 0; i < n; i++) {
		s->fly[s->nr_fly] = s->queued[i];
		s->done_at[s->nr_fly++] = s->fc.now + DEV_NS;
		if (s->nr_issued < MAX_IOS)
			s->issued[s->nr_issued++] = s->fc.now;
	}
	s->nr_queued = 0;
	return (int)n;
}

/* Take the I/Os done by now (in commit order, so the oldest first). */
static int slow_take(struct slow *s, unsigned max, struct io_u **out)
{
	unsigned n = 0, i;

	while (n < max && n < s->nr_fly && s->done_at[n] <= s->fc.now)
		n++;
	for (i = 0; i < n; i++)
		out[i] = s->fly[i];
	for (i = n; i < s->nr_fly; i++) {
		s->fly[i - n] = s->fly[i];
		s->done_at[i - n] = s->done_at[i];
	}
	s->nr_fly -= n;
	return (int)n;
}

static int slow_timed(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out,
		      uint64_t timeout_ns)
{
	struct slow *s = slow_of(ctx);
	uint64_t until = timeout_ns == UINT64_MAX ? UINT64_MAX : s->fc.now + timeout_ns;

	/* the min-th completion comes at done_at[min - 1]: wait for it, or time out */
	if (min && s->nr_fly >= min && s->done_at[min - 1] > s->fc.now)
		s->fc.now = s->done_at[min - 1] < until ? s->done_at[min - 1] : until;
	return slow_take(s, max, out);
}

static int slow_getevents(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out)
{
	return slow_timed(ctx, min, max, out, UINT64_MAX);
}

static void slow_exit(struct engine_ctx *ctx)
{
	(void)ctx;
}

/* A 1-second randread job at rate_iops=1000, iodepth 32, in @offload mode. */
static struct slow *slow_run(int offload)
{
	struct slow *s = calloc(1, sizeof(*s));
	struct err e;

	if (!s)
		return NULL;
	fixture_job(&s->j, RW_READ | RW_RAND, 4096, 64ull << 20);
	s->j.iodepth = 32;
	s->j.rate_iops[DDIR_READ] = 1000;
	s->j.runtime_us = 1000000;
	s->j.time_based = 1;
	s->j.norandommap = 1;
	s->j.submit_offload = offload;
	s->ops = (struct engine_ops){ .name = "slow", .init = slow_init,
		.queue = slow_queue, .commit = slow_commit, .getevents = slow_getevents,
		.exit = slow_exit, .getevents_timed = slow_timed };
	if (fake_clock_init(&s->fc, START_NS, 0)) {
		free(s);
		return NULL;
	}
	err_clear(&e);
	s->w.job = &s->j;
	s->w.clk = &s->fc.clk;
	s->w.ops = &s->ops;
	s->w.traits = ENGINE_F_NOFILES;
	if (worker_prepare(&s->w, &e)) {
		printf("  worker_prepare: %s\n", e.msg);
		worker_release(&s->w);
		free(s);
		return NULL;
	}
	worker_main(&s->w);
	return s;
}

static void slow_free(struct slow *s)
{
	if (!s)
		return;
	worker_release(&s->w);
	free(s);
}

/* The smallest and largest gap between consecutive issues, past the first 10. */
static void gaps(const struct slow *s, uint64_t *lo, uint64_t *hi)
{
	unsigned i;

	*lo = UINT64_MAX;
	*hi = 0;
	for (i = 11; i < s->nr_issued; i++) {
		uint64_t g = s->issued[i] - s->issued[i - 1];

		if (g < *lo)
			*lo = g;
		if (g > *hi)
			*hi = g;
	}
}

TEST(offload_keeps_the_schedule)
{
	struct slow *s = slow_run(1);
	uint64_t lo, hi;

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ_U(s->w.error, 0);
	/* one I/O per 1 ms slot over the second, the last one at most */
	CHECK(s->nr_issued >= 999 && s->nr_issued <= 1001);
	gaps(s, &lo, &hi);
	CHECK_NEAR((double)lo, (double)MS, 1000.0);
	CHECK_NEAR((double)hi, (double)MS, 1000.0);
	CHECK(s->w.st.dir[DDIR_READ].ios + 40 >= s->nr_issued);
	slow_free(s);
}

TEST(inline_issues_in_bursts)
{
	struct slow *s = slow_run(0);
	uint64_t lo, hi;

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ_U(s->w.error, 0);
	/* the absolute schedule catches up: the same count ... */
	CHECK(s->nr_issued >= 990 && s->nr_issued <= 1001);
	/* ... but in bursts after each completion */
	gaps(s, &lo, &hi);
	CHECK(lo < MS / 10);
	CHECK(hi >= 4 * MS);
	slow_free(s);
}

int main(void)
{
	RUN(offload_keeps_the_schedule);
	RUN(inline_issues_in_bursts);
	return CHECK_DONE();
}
