/*
 * test_worker_serialize_overlap: serialize_overlap=1 (fio's t0013) never has two
 * overlapping I/Os of a job queued or in flight at once.  The real worker
 * runs the null engine (worker_fixture.h) with completions reaped one at a
 * time, so I/Os stay in flight; a wrapper around queue() records each
 * I/O's byte range until getevents returns it and counts every new I/O that
 * overlaps one of them.  Random writes of 512 B-8 KiB over 32 KiB at depth
 * 16 overlap hundreds of times without the option, never with it.
 */
#include <stdlib.h>
#include "check.h"
#include "worker_fixture.h"

struct so {
	struct wfix f;		/* first: the fixture's callbacks cast back */
	uint64_t lo[64], hi[64];	/* in flight, by pool index (hi == lo: none) */
	uint64_t overlaps, max_inflight, inflight;
};

static int so_queue(struct engine_ctx *ctx, struct io_u *io)
{
	struct so *s = (struct so *)wfix_of(ctx);
	uint64_t lo = io->offset, hi = io->offset + io->len;
	int r;

	for (unsigned i = 0; i < 64; i++)
		if (s->hi[i] != s->lo[i] && lo < s->hi[i] && s->lo[i] < hi)
			s->overlaps++;
	r = wfix_queue(ctx, io);
	if (r == ENGINE_Q_QUEUED) {
		s->lo[io->index] = lo;
		s->hi[io->index] = hi;
		if (++s->inflight > s->max_inflight)
			s->max_inflight = s->inflight;
	}
	return r;
}

static int so_getevents(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out)
{
	struct so *s = (struct so *)wfix_of(ctx);
	int n = wfix_getevents(ctx, min, max, out);

	for (int i = 0; i < n; i++) {
		s->hi[out[i]->index] = s->lo[out[i]->index];
		s->inflight--;
	}
	return n;
}

/* Random writes of 512 B-8 KiB over 32 KiB, 2000 of them, at depth 16. */
static struct so *so_run(int serialize)
{
	struct so *s = calloc(1, sizeof(*s));

	if (!s || wfix_init(&s->f, RW_WRITE | RW_RAND, 4096, 32768, 1000000000ull)) {
		free(s);
		return NULL;
	}
	for (int d = 0; d < DDIR_NR; d++) {
		s->f.j.bs_min[d] = 512;
		s->f.j.bs_max[d] = 8192;
	}
	s->f.j.norandommap = 1;
	s->f.j.number_ios = 2000;
	s->f.j.io_size = 1ull << 30;
	s->f.j.iodepth = 16;
	s->f.j.iodepth_batch_complete_max = 1;	/* reap one: the rest stay in flight */
	s->f.j.serialize_overlap = serialize;
	s->f.ops.queue = so_queue;
	s->f.ops.getevents = so_getevents;
	CHECK_EQ_U(wfix_run(&s->f), 0);
	return s;
}

TEST(overlapping_ios_wait)
{
	struct so *s = so_run(1);

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ_U(s->f.r.dir[DDIR_WRITE].total_ios, 2000);
	CHECK_EQ_U(s->overlaps, 0);
	CHECK(s->f.w.overlap_waits > 0);	/* the path was taken, and often */
	CHECK(s->max_inflight > 1);		/* disjoint I/Os still go together */
	wfix_release(&s->f);
	free(s);
}

/* The control: the same job without the option does overlap in flight. */
TEST(without_option_ios_overlap)
{
	struct so *s = so_run(0);

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ_U(s->f.r.dir[DDIR_WRITE].total_ios, 2000);
	CHECK(s->overlaps > 100);
	CHECK_EQ_U(s->f.w.overlap_waits, 0);
	wfix_release(&s->f);
	free(s);
}

int main(void)
{
	RUN(overlapping_ios_wait);
	RUN(without_option_ios_overlap);
	return CHECK_DONE();
}
