/*
 * test_worker: the figures users compare, checked exactly.  The real worker
 * (worker_prepare / worker_main / worker_result, as run.c drives it, but on
 * the calling thread) runs the real null engine on a fake clock
 * (fake_clock.h) whose reads do not move time.  Time moves only where a
 * device would spend it: a thin wrapper around the null engine advances the
 * clock by a known device latency when I/O completes (inline at depth 1, at
 * getevents above) and by a known submission time per commit, and the
 * worker's sleeps (rate limiting) advance it by what they ask.  So every
 * latency, interval end and rate deadline is known to the nanosecond, and the
 * checks are equalities:
 *   - totals equal the sums of the per-interval series, batched reaps
 *     included, and batched accounting (runs of I/Os sharing their times)
 *     gives the same moments and histogram as accounting each I/O alone;
 *   - nothing is accounted before the end of ramp_time, and the counters and
 *     the rate schedule restart there;
 *   - interval k ends exactly k x interval after the measurement start, with
 *     its exact duration and I/O count;
 *   - rate_iops=R over T seconds issues R x T I/Os;
 *   - latency moments and histogram counts are those of the known latencies.
 */
#include <errno.h>
#include <stddef.h>	/* offsetof */
#include <stdlib.h>
#include <string.h>	/* memcmp */
#include "check.h"
#include "worker_fixture.h"
#include "steady/job_steady.h"
#include "job_fixture.h"
#include "lib/stat.h"
#include "worker/worker.h"
#include "steady/steady_tail.h"

#define START_NS 7000000000000ull	/* the fake clock's origin: not 0 */
#define US 1000ull
#define MS 1000000ull

/* A worker on its fake clock (worker_fixture.h) and the device model it applies. */
struct tw {
	struct wfix f;			/* first: the fixture's callbacks cast back */
	const uint64_t *dev_ns;		/* completion latencies, used in turn */
	unsigned dev_nr, dev_next;
	uint64_t submit_ns;		/* time one commit takes */
	unsigned inline_first;		/* tw_queue_inline_first: I/Os still to complete inline */
	/* reference: each I/O's latency accounted alone, from its own times */
	struct lat_acc ref[DDIR_NR];
	struct hist ref_hist[DDIR_NR];
};

static uint64_t tw_dev(struct tw *t)
{
	uint64_t ns = t->dev_ns[t->dev_next];

	t->dev_next = (t->dev_next + 1) % t->dev_nr;
	return ns;
}

/* One I/O completed at the fake clock's now: the reference accounting. */
static void tw_ref(struct tw *t, const struct io_u *io)
{
	uint64_t lat;

	if (!atomic_load(&t->f.w.measuring) || io->ddir >= DDIR_NR)
		return;		/* ramp (not accounted), or a sync */
	lat = t->f.fc.now - io->t_start;
	lat_acc_add(&t->ref[io->ddir], lat);
	hist_add(&t->ref_hist[io->ddir], lat);
}

/* The device: the next latency passes per completion (a batch, or one at depth 1). */
static void tw_device(struct wfix *f, struct io_u **done, int n, unsigned inflight,
		      int inline_done)
{
	struct tw *t = (struct tw *)f;

	(void)inflight;
	(void)inline_done;
	fake_clock_advance(&f->fc, tw_dev(t));
	for (int i = 0; i < n; i++)
		tw_ref(t, done[i]);
}

static void tw_commit(struct wfix *f)
{
	fake_clock_advance(&f->fc, ((struct tw *)f)->submit_ns);
}

/* A read job of 4 KiB blocks at @depth on the null engine over @size bytes. */
static struct tw *tw_new(unsigned depth, uint64_t size, const uint64_t *dev_ns, unsigned dev_nr)
{
	struct tw *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	if (wfix_init(&t->f, RW_READ, 4096, size, START_NS)) {
		free(t);
		return NULL;
	}
	t->f.j.iodepth = depth;
	t->f.device = tw_device;
	t->f.commit = tw_commit;
	t->dev_ns = dev_ns;
	t->dev_nr = dev_nr;
	for (int d = 0; d < DDIR_NR; d++)
		lat_acc_init(&t->ref[d]);
	return t;
}

/* Run the worker to its end on this thread, as run.c's thread would. */
static int tw_run(struct tw *t)
{
	return wfix_run(&t->f);
}

static void tw_free(struct tw *t)
{
	if (!t)
		return;
	wfix_release(&t->f);
	free(t);
}

/* The series' measured intervals add up to the totals, in every direction. */
static void check_series_sums(const struct tw *t)
{
	const struct series *s = &t->f.w.series;
	int d;

	for (d = 0; d < DDIR_NR; d++) {
		const struct worker_dir *wd = &t->f.w.st.dir[d];
		const struct dir_result *dr = &t->f.r.dir[d];
		uint64_t ios = 0, bytes = 0, lat_sum = 0, hn = 0, exact_sum;
		static struct hist h;
		size_t i;

		for (i = s->nr_ramp; i < s->nr; i++) {
			ios += s->iv[i].d[d].ios;
			bytes += s->iv[i].d[d].bytes;
			lat_sum += s->iv[i].d[d].lat_sum_ns;
			memset(&h, 0, sizeof(h));
			series_hist_add(s, s->base + i, (enum ddir)d, &h);
			hn += hist_total(&h);
		}
		CHECK_EQ_U(ios, dr->total_ios);
		CHECK_EQ_U(bytes, dr->io_bytes);
		CHECK_EQ_U(hn, dr->total_ios);
		/* the accumulator's exact integer sum of latencies */
		exact_sum = (uint64_t)((int64_t)(wd->lat.n * wd->lat.shift) + wd->lat.sum);
		CHECK_EQ_U(lat_sum, exact_sum);
		CHECK_EQ_U(hist_total(&dr->lat_hist), dr->total_ios);
		CHECK_EQ_U(dr->lat.n, dr->total_ios);
	}
}

/* The worker's moments and histograms equal the per-I/O reference exactly. */
static void check_against_reference(const struct tw *t)
{
	int d;

	for (d = 0; d < DDIR_NR; d++) {
		const struct dir_result *dr = &t->f.r.dir[d];
		struct moments m;
		unsigned b;
		int same = 1;

		lat_acc_moments(&t->ref[d], &m);
		CHECK_EQ_U(dr->lat.n, m.n);
		if (!m.n)
			continue;
		CHECK_EQ_U(dr->lat.min, m.min);
		CHECK_EQ_U(dr->lat.max, m.max);
		CHECK_NEAR(dr->lat.mean, m.mean, 1e-9 * m.mean);
		CHECK_NEAR(dr->lat.m2, m.m2, 1e-9 * (m.m2 + 1));
		for (b = 0; b < HIST_NR; b++)
			if (dr->lat_hist.b[b] != t->ref_hist[d].b[b])
				same = 0;
		CHECK(same);
	}
}

/*
 * Depth 1 (completed inline), 100 us per I/O, 1000 I/Os, 10 ms intervals:
 * exactly 10 intervals of 100 I/Os and 10000 us ending at 10, 20 .. 100 ms,
 * every latency 100 us.
 */
TEST(depth1_intervals_exact)
{
	static const uint64_t dev[] = { 100 * US };
	struct tw *t = tw_new(1, 4096 * 1000, dev, 1);
	const struct series *s;
	size_t i;

	CHECK(t != NULL);
	if (!t)
		return;
	t->f.j.interval_us = 10000;
	CHECK_EQ_U(tw_run(t), 0);
	s = &t->f.w.series;
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].total_ios, 1000);
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].io_bytes, 4096 * 1000);
	CHECK_EQ_U(t->f.w.measure_ns, 100 * MS);
	CHECK_EQ_U(t->f.r.job_runtime_ms, 100);
	CHECK_EQ_U(s->nr_ramp, 0);
	CHECK_EQ_U(s->nr, 10);
	for (i = 0; i < s->nr; i++) {
		CHECK_EQ_U(s->iv[i].t_ms, 10 * (i + 1));
		CHECK_EQ_U(s->iv[i].dur_us, 10000);
		CHECK_EQ_U(s->iv[i].ramp, 0);
		CHECK_EQ_U(s->iv[i].d[DDIR_READ].ios, 100);
		CHECK_EQ_U(s->iv[i].d[DDIR_READ].bytes, 100 * 4096);
		CHECK_EQ_U(s->iv[i].d[DDIR_READ].lat_sum_ns, 100 * 100 * US);
		CHECK_EQ_U(s->iv[i].d[DDIR_READ].lat_min, 100 * US);
		CHECK_EQ_U(s->iv[i].d[DDIR_READ].lat_max, 100 * US);
	}
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].lat.min, 100 * US);
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].lat.max, 100 * US);
	CHECK_NEAR(t->f.r.dir[DDIR_READ].lat.mean, 100 * US, 0);
	CHECK_NEAR(t->f.r.dir[DDIR_READ].lat.m2, 0, 0);
	/* inline completion: clat is lat, and no submission latency exists */
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].clat.n, 1000);
	CHECK_NEAR(t->f.r.dir[DDIR_READ].clat.mean, 100 * US, 0);
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].slat.n, 0);
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].lat_hist.b[hist_index(100 * US)], 1000);
	CHECK_EQ_U(t->f.r.dir[DDIR_WRITE].total_ios, 0);
	check_series_sums(t);
	check_against_reference(t);
	tw_free(t);
}

/*
 * Known, varied latencies (10 us, 20 us, 30 us, 1 ms in turn): the mean, the
 * sum of squared deviations, min, max and each histogram bucket's count are
 * those of the list, computed here without the worker's arithmetic.
 */
/*
 * A job shorter than 1 ms: 10 I/Os of 10 us.  Its read direction is
 * reported as 1 ms (never 0, as fio), and the job's runtime is no shorter
 * than its direction's (it was 0 beside read's 1).
 */
TEST(sub_ms_job_runtime_covers_its_directions)
{
	static const uint64_t dev[] = { 10 * US };
	struct tw *t = tw_new(1, 4096 * 10, dev, 1);

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK_EQ_U(tw_run(t), 0);
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].total_ios, 10);
	CHECK_EQ_U(t->f.w.measure_ns, 100 * US);
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].runtime_ms, 1);
	CHECK_EQ_U(t->f.r.job_runtime_ms, 1);
	tw_free(t);
}

TEST(latency_moments_exact)
{
	static const uint64_t dev[] = { 10 * US, 20 * US, 30 * US, 1000 * US };
	const unsigned n = 4000;
	struct tw *t = tw_new(1, 4096ull * n, dev, 4);
	const struct dir_result *d;
	double mean = 0, m2 = 0;
	unsigned i;

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK_EQ_U(tw_run(t), 0);
	d = &t->f.r.dir[DDIR_READ];
	for (i = 0; i < 4; i++)
		mean += (double)dev[i] / 4;
	for (i = 0; i < 4; i++)
		m2 += ((double)dev[i] - mean) * ((double)dev[i] - mean) * (n / 4);
	CHECK_EQ_U(d->total_ios, n);
	CHECK_EQ_U(d->lat.n, n);
	CHECK_EQ_U(d->lat.min, 10 * US);
	CHECK_EQ_U(d->lat.max, 1000 * US);
	CHECK_NEAR(d->lat.mean, mean, 1e-9 * mean);
	CHECK_NEAR(d->lat.m2, m2, 1e-9 * m2);
	CHECK_NEAR(d->clat.mean, mean, 1e-9 * mean);
	/* completed inline, clat is lat: all of it (lat stands for it, clat_is_lat) */
	CHECK_EQ_U(d->clat.n, n);
	CHECK_EQ_U(d->clat.min, 10 * US);
	CHECK_EQ_U(d->clat.max, 1000 * US);
	CHECK_NEAR(d->clat.m2, m2, 1e-9 * m2);
	CHECK(memcmp(&d->clat_hist, &d->lat_hist, sizeof(d->lat_hist)) == 0);
	for (i = 0; i < 4; i++)
		CHECK_EQ_U(d->lat_hist.b[hist_index(dev[i])], n / 4);
	CHECK_EQ_U(hist_total(&d->lat_hist), n);
	/* the run lasted the sum of the latencies, to the ns */
	CHECK_EQ_U(t->f.w.measure_ns, (10 + 20 + 30 + 1000) * US * (n / 4));
	check_series_sums(t);
	check_against_reference(t);
	tw_free(t);
}

/* The wrapped null engine, but the first inline_first I/Os complete inline. */
static int tw_queue_inline_first(struct engine_ctx *ctx, struct io_u *io)
{
	struct tw *t = (struct tw *)wfix_of(ctx);

	if (!t->inline_first)
		return wfix_queue(ctx, io);
	t->inline_first--;
	io->res = (int64_t)io->len;
	tw_device(&t->f, &io, 1, 0, 1);
	return ENGINE_Q_COMPLETED;
}

/*
 * clat is not kept while every completion's clat is its lat (clat_is_lat):
 * 100 I/Os complete inline (clat = lat = 50 us), then whole batches of 8 go
 * through commit (10 us) and the device (50 us): lat 60 us, clat 50 us.  At
 * the first of those, clat takes over lat's 100 values and is kept apart
 * from then on, so clat has all 8100 at 50 us and lat 100 at 50, 8000 at 60.
 */
TEST(clat_kept_as_lat_until_it_differs)
{
	static const uint64_t dev[] = { 50 * US };
	struct tw *t = tw_new(8, 4096ull * 8100, dev, 1);
	const struct dir_result *d;

	CHECK(t != NULL);
	if (!t)
		return;
	t->submit_ns = 10 * US;
	t->inline_first = 100;
	t->f.ops.queue = tw_queue_inline_first;
	t->f.j.iodepth_batch_submit = 0;
	t->f.j.iodepth_batch_complete_max = 8;
	CHECK_EQ_U(tw_run(t), 0);
	d = &t->f.r.dir[DDIR_READ];
	CHECK_EQ_U(d->total_ios, 8100);
	CHECK_EQ_U(d->lat.n, 8100);
	CHECK_EQ_U(d->lat.min, 50 * US);
	CHECK_EQ_U(d->lat.max, 60 * US);
	CHECK_EQ_U(d->lat_hist.b[hist_index(50 * US)], 100);
	CHECK_EQ_U(d->lat_hist.b[hist_index(60 * US)], 8000);
	CHECK_EQ_U(d->clat.n, 8100);
	CHECK_EQ_U(d->clat.min, 50 * US);
	CHECK_EQ_U(d->clat.max, 50 * US);
	CHECK_NEAR(d->clat.mean, 50.0 * US, 1e-9);
	CHECK_EQ_U(d->clat_hist.b[hist_index(50 * US)], 8100);
	CHECK_EQ_U(hist_total(&d->clat_hist), 8100);
	check_against_reference(t);
	tw_free(t);
}

/*
 * Depth 8 with whole batches: a commit takes 10 us, the device 50 us, so
 * every I/O has slat 10 us, clat 50 us, lat 60 us and a batch lasts 60 us;
 * 6 ms intervals hold 100 batches, 800 I/Os.  These figures follow from the
 * worker's submission scheme (one commit per refill of the whole depth): if
 * that changes, re-derive them; check_series_sums() and
 * check_against_reference() hold whatever the scheme.
 */
TEST(batched_accounting_exact)
{
	static const uint64_t dev[] = { 50 * US };
	struct tw *t = tw_new(8, 4096ull * 8000, dev, 1);
	const struct dir_result *d;
	const struct series *s;
	size_t i;

	CHECK(t != NULL);
	if (!t)
		return;
	t->submit_ns = 10 * US;
	t->f.j.interval_us = 6000;
	/* fio's whole-batch settings: commit iodepth at once, reap up to iodepth */
	t->f.j.iodepth_batch_submit = 0;
	t->f.j.iodepth_batch_complete_max = 8;
	CHECK_EQ_U(tw_run(t), 0);
	d = &t->f.r.dir[DDIR_READ];
	s = &t->f.w.series;
	CHECK_EQ_U(d->total_ios, 8000);
	CHECK_EQ_U(d->io_bytes, 8000 * 4096);
	CHECK_EQ_U(t->f.w.measure_ns, 1000 * 60 * US);
	CHECK_EQ_U(d->lat.n, 8000);
	CHECK_EQ_U(d->lat.min, 60 * US);
	CHECK_EQ_U(d->lat.max, 60 * US);
	CHECK_EQ_U(d->clat.min, 50 * US);
	CHECK_EQ_U(d->clat.max, 50 * US);
	CHECK_EQ_U(d->clat.n, 8000);
	CHECK_EQ_U(d->slat.n, 8000);
	CHECK_EQ_U(d->slat.min, 10 * US);
	CHECK_EQ_U(d->slat.max, 10 * US);
	CHECK_EQ_U(d->lat_hist.b[hist_index(60 * US)], 8000);
	CHECK_EQ_U(d->clat_hist.b[hist_index(50 * US)], 8000);
	/* every reap returned a whole batch of 8 (fio's 5-8 bucket) */
	CHECK_EQ_U(t->f.r.total_complete, 1000);
	CHECK_EQ_U(t->f.r.depth_complete[2], 1000);
	CHECK_EQ_U(s->nr, 10);
	for (i = 0; i < s->nr; i++) {
		CHECK_EQ_U(s->iv[i].t_ms, 6 * (i + 1));
		CHECK_EQ_U(s->iv[i].dur_us, 6000);
		CHECK_EQ_U(s->iv[i].d[DDIR_READ].ios, 800);
		CHECK_EQ_U(s->iv[i].d[DDIR_READ].lat_sum_ns, 800 * 60 * US);
	}
	check_series_sums(t);
	check_against_reference(t);
	tw_free(t);
}

/*
 * fio's defaults (iodepth_batch_submit=1, iodepth_batch_complete_max =
 * iodepth_batch_complete_min = 1): after the first fill every reap takes one
 * completion and its replacement is committed alone before the next reap, so
 * the I/Os never march in convoys (docs/performance.md, "Convoys").  Depth 4,
 * a device of 40 us and commits of 5 us: the first fill is 4 commits of one,
 * then each cycle is one reap (the device time passes) and one commit.
 */
TEST(fio_default_one_in_one_out)
{
	static const uint64_t dev[] = { 40 * US };
	struct tw *t = tw_new(4, 4096ull * 1000, dev, 1);
	const struct dir_result *d;

	CHECK(t != NULL);
	if (!t)
		return;
	t->submit_ns = 5 * US;
	CHECK_EQ_U(tw_run(t), 0);
	d = &t->f.r.dir[DDIR_READ];
	CHECK_EQ_U(d->total_ios, 1000);
	/* one I/O per commit and per reap: 1000 of each, all in fio's 1-4 bucket */
	CHECK_EQ_U(t->f.r.total_submit, 1000);
	CHECK_EQ_U(t->f.r.total_complete, 1000);
	CHECK_EQ_U(t->f.r.depth_submit[1], 1000);
	CHECK_EQ_U(t->f.r.depth_complete[1], 1000);
	/* in flight after each commit: 1 and 2 while the queue first fills, then
	 * 3 or 4 (fio's 3-4 bucket) for every other commit */
	CHECK_EQ_U(t->f.r.depth_level[0], 1);
	CHECK_EQ_U(t->f.r.depth_level[1], 1);
	CHECK_EQ_U(t->f.r.depth_level[2], 1000 - 2);
	/* each slat is exactly one commit: no I/O waits for a batch */
	CHECK_EQ_U(d->slat.n, 1000);
	CHECK_EQ_U(d->slat.min, 5 * US);
	CHECK_EQ_U(d->slat.max, 5 * US);
	check_series_sums(t);
	check_against_reference(t);
	tw_free(t);
}

/*
 * Partial reaps (iodepth_batch_complete_max=3 of 8) return I/Os of different
 * batches together, so the reap splits them into runs: the result must
 * equal accounting each I/O alone, and the series must add up to it.
 */
TEST(batched_partial_reaps_match_per_io)
{
	static const uint64_t dev[] = { 7 * US, 50 * US, 13 * US };
	struct tw *t = tw_new(8, 4096ull * 9001, dev, 3);
	const struct dir_result *d;

	CHECK(t != NULL);
	if (!t)
		return;
	t->submit_ns = 3 * US;
	t->f.j.iodepth_batch_complete_max = 3;
	t->f.j.interval_us = 5000;
	CHECK_EQ_U(tw_run(t), 0);
	d = &t->f.r.dir[DDIR_READ];
	CHECK_EQ_U(d->total_ios, 9001);
	CHECK_EQ_U(d->io_bytes, 9001ull * 4096);
	CHECK(t->f.w.series.nr > 5);
	/* several distinct latencies: runs really were split */
	CHECK(d->lat.min < d->lat.max);
	check_series_sums(t);
	check_against_reference(t);
	tw_free(t);
}

/*
 * randrw (50/50) at depth 16 with partial reaps: reads and writes reaped
 * together are split by direction, each direction's figures equal its I/Os
 * accounted alone, and reads + writes are every I/O issued.
 */
TEST(mixed_directions_match_per_io)
{
	static const uint64_t dev[] = { 20 * US, 90 * US, 35 * US, 5 * US, 60 * US };
	struct tw *t = tw_new(16, 4096ull * 4096, dev, 5);
	const struct dir_result *rd, *wr;

	CHECK(t != NULL);
	if (!t)
		return;
	t->f.j.rw = RW_READ | RW_WRITE | RW_RAND;
	t->f.j.io_size = 4096ull * 20000;	/* loops over the 16 MiB region */
	t->f.j.iodepth_batch_complete_max = 5;
	t->submit_ns = 2 * US;
	t->f.j.interval_us = 3000;
	CHECK_EQ_U(tw_run(t), 0);
	rd = &t->f.r.dir[DDIR_READ];
	wr = &t->f.r.dir[DDIR_WRITE];
	CHECK_EQ_U(rd->total_ios + wr->total_ios, 20000);
	CHECK_EQ_U(rd->io_bytes + wr->io_bytes, 4096ull * 20000);
	/* rwmixread=50: both directions well represented */
	CHECK(rd->total_ios > 9000 && wr->total_ios > 9000);
	CHECK(t->f.w.series.nr > 10);
	check_series_sums(t);
	check_against_reference(t);
	tw_free(t);
}

/*
 * ramp_time=50 ms, runtime=100 ms, 20 ms intervals, 100 us per I/O.  The ramp
 * gives intervals at 20, 40 and a cut at 50 ms (flagged ramp, 200/200/100
 * I/Os); the counters restart at 50 ms, so the result holds exactly the 1000
 * I/Os completed after it, in intervals ending at 70 .. 150 ms.
 */
TEST(ramp_reset_exact)
{
	static const uint64_t dev[] = { 100 * US };
	static const uint64_t ramp_ios[] = { 200, 200, 100 }, ramp_ms[] = { 20, 40, 50 };
	struct tw *t = tw_new(1, 1 << 20, dev, 1);
	const struct series *s;
	size_t i;

	CHECK(t != NULL);
	if (!t)
		return;
	t->f.j.time_based = 1;
	t->f.j.ramp_time_us = 50000;
	t->f.j.runtime_us = 100000;
	t->f.j.interval_us = 20000;
	CHECK_EQ_U(tw_run(t), 0);
	s = &t->f.w.series;
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].total_ios, 1000);
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].lat.n, 1000);
	CHECK_EQ_U(t->f.w.measure_ns, 100 * MS);
	CHECK_EQ_U(t->f.w.elapsed_ns, 150 * MS);
	CHECK_EQ_U(t->f.w.t_measure - t->f.w.t_begin, 50 * MS);
	CHECK_EQ_U(s->nr_ramp, 3);
	CHECK_EQ_U(s->nr, 8);
	for (i = 0; i < s->nr_ramp && i < 3; i++) {
		CHECK_EQ_U(s->iv[i].ramp, 1);
		CHECK_EQ_U(s->iv[i].t_ms, ramp_ms[i]);
		CHECK_EQ_U(s->iv[i].d[DDIR_READ].ios, ramp_ios[i]);
	}
	for (i = 3; i < s->nr; i++) {
		CHECK_EQ_U(s->iv[i].ramp, 0);
		/* interval k ends k x 20 ms after the measurement start */
		CHECK_EQ_U(s->iv[i].t_ms, 50 + 20 * (i - 2));
		CHECK_EQ_U(s->iv[i].dur_us, 20000);
		CHECK_EQ_U(s->iv[i].d[DDIR_READ].ios, 200);
	}
	/* bw/iops samples: 500 ms never came, so none (fio takes none either) */
	check_series_sums(t);
	check_against_reference(t);
	tw_free(t);
}

/*
 * rate_iops=1000 for 2 s at depth 1 (10 us per I/O): exactly 2000 I/Os, the
 * waits spent sleeping on the clock, and 500 ms samples of exactly 1000 IOPS.
 */
TEST(rate_iops_exact)
{
	static const uint64_t dev[] = { 10 * US };
	struct tw *t = tw_new(1, 1 << 20, dev, 1);
	const struct dir_result *d;

	CHECK(t != NULL);
	if (!t)
		return;
	t->f.j.time_based = 1;
	t->f.j.runtime_us = 2000000;
	t->f.j.rate_iops[DDIR_READ] = 1000;
	CHECK_EQ_U(tw_run(t), 0);
	d = &t->f.r.dir[DDIR_READ];
	CHECK_EQ_U(d->total_ios, 2000);
	CHECK_EQ_U(t->f.w.measure_ns, 2000 * MS);
	/* the device took 2000 x 10 us; the rest of the 2 s was slept */
	CHECK_EQ_U(t->f.fc.slept_ns, 2000 * MS - 2000 * 10 * US);
	CHECK_EQ_U(d->iops.n, 4);
	CHECK_NEAR(d->iops.min, 1000, 0);
	CHECK_NEAR(d->iops.max, 1000, 0);
	CHECK_NEAR(d->bw_kib.mean, 4000, 0);
	CHECK_EQ_U(d->lat.max, 10 * US);	/* sleeping is not latency */
	check_series_sums(t);
	tw_free(t);
}

/*
 * The rate schedule restarts at the end of the ramp: rate_iops=1000 with a
 * 100.5 ms ramp still gives exactly 1000 I/Os in the measured second (without
 * the restart the schedule would carry the ramp's 101 I/Os over and leave a
 * 101 ms hole).
 */
TEST(rate_restarts_after_ramp)
{
	static const uint64_t dev[] = { 10 * US };
	struct tw *t = tw_new(1, 1 << 20, dev, 1);

	CHECK(t != NULL);
	if (!t)
		return;
	t->f.j.time_based = 1;
	t->f.j.ramp_time_us = 100500;
	t->f.j.runtime_us = 1000000;
	t->f.j.rate_iops[DDIR_READ] = 1000;
	CHECK_EQ_U(tw_run(t), 0);
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].total_ios, 1000);
	CHECK_EQ_U(t->f.w.measure_ns, 1000 * MS);
	check_series_sums(t);
	tw_free(t);
}

/*
 * Rates whose period is not a whole number of ns (3/s: 333333333.33 ns) give
 * exactly R x T too: the I/O due at T, the very end, is not issued, because
 * the fixed-point period is rounded up (rate.c), never making a deadline
 * early.
 */
TEST(rate_iops_fractional_period)
{
	static const uint64_t dev[] = { 10 * US };
	static const uint64_t rates[] = { 3, 7, 999, 1000, 65537 };
	unsigned i;

	for (i = 0; i < 5; i++) {
		struct tw *t = tw_new(1, 1 << 20, dev, 1);
		uint64_t n, want = rates[i] * 3;

		CHECK(t != NULL);
		if (!t)
			return;
		t->f.j.time_based = 1;
		t->f.j.runtime_us = 3000000;
		t->f.j.rate_iops[DDIR_READ] = rates[i];
		CHECK_EQ_U(tw_run(t), 0);
		n = t->f.r.dir[DDIR_READ].total_ios;
		if (n != want)
			printf("  rate_iops=%llu over 3 s: %llu I/Os\n",
			       (unsigned long long)rates[i], (unsigned long long)n);
		CHECK_EQ_U(n, want);
		tw_free(t);
	}
}

/*
 * rate= in bytes per second, 4 KiB blocks over 2 s: I/O k is due at
 * k x 4096 / rate, so the count is the number of k with k x 4096 < 2 x rate
 * (1 MiB/s: 512; 1,000,000 B/s: 489, the last due at 1.998848 s).
 */
TEST(rate_bytes_exact)
{
	static const uint64_t dev[] = { 10 * US };
	static const uint64_t rates[] = { 1048576, 1000000 }, want[] = { 512, 489 };
	unsigned i;

	for (i = 0; i < 2; i++) {
		struct tw *t = tw_new(1, 1 << 20, dev, 1);

		CHECK(t != NULL);
		if (!t)
			return;
		t->f.j.time_based = 1;
		t->f.j.runtime_us = 2000000;
		t->f.j.rate[DDIR_READ] = rates[i];
		CHECK_EQ_U(tw_run(t), 0);
		CHECK_EQ_U(t->f.r.dir[DDIR_READ].total_ios, want[i]);
		CHECK_EQ_U(t->f.r.dir[DDIR_READ].io_bytes, want[i] * 4096);
		CHECK_EQ_U(t->f.w.measure_ns, 2000 * MS);
		tw_free(t);
	}
}

/*
 * A slow rate (4 IOPS) with 100 ms intervals: a rate wait must not sleep
 * through interval boundaries, so the intervals still end every 100 ms, each
 * holding the I/Os due in it (1 in each 250 ms; 0 in the others).
 */
TEST(rate_wait_keeps_interval_boundaries)
{
	static const uint64_t dev[] = { 10 * US };
	struct tw *t = tw_new(1, 1 << 20, dev, 1);
	const struct series *s;
	uint64_t ios = 0;
	size_t i;

	CHECK(t != NULL);
	if (!t)
		return;
	t->f.j.time_based = 1;
	t->f.j.runtime_us = 1000000;
	t->f.j.interval_us = 100000;
	t->f.j.rate_iops[DDIR_READ] = 4;
	CHECK_EQ_U(tw_run(t), 0);
	s = &t->f.w.series;
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].total_ios, 4);
	CHECK_EQ_U(s->nr, 10);
	for (i = 0; i < s->nr; i++) {
		CHECK_EQ_U(s->iv[i].t_ms, 100 * (i + 1));
		CHECK_EQ_U(s->iv[i].dur_us, 100000);
		/* I/Os complete at 0, 250, 500, 750 ms (+10 us) */
		CHECK_EQ_U(s->iv[i].d[DDIR_READ].ios, i == 0 || i == 2 || i == 5 || i == 7);
		ios += s->iv[i].d[DDIR_READ].ios;
	}
	CHECK_EQ_U(ios, 4);
	tw_free(t);
}

/* rate_iops=1 with runtime=1.5 s: the run ends at 1.5 s, not at the 2 s slot. */
TEST(rate_wait_ends_on_time)
{
	static const uint64_t dev[] = { 10 * US };
	struct tw *t = tw_new(1, 1 << 20, dev, 1);

	CHECK(t != NULL);
	if (!t)
		return;
	t->f.j.time_based = 1;
	t->f.j.runtime_us = 1500000;
	t->f.j.rate_iops[DDIR_READ] = 1;
	CHECK_EQ_U(tw_run(t), 0);
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].total_ios, 2);
	CHECK_EQ_U(t->f.w.measure_ns, 1500 * MS);
	CHECK_EQ_U(t->f.r.job_runtime_ms, 1500);
	tw_free(t);
}

/*
 * lat_from_due on time: rate_iops=1000 at depth 1, 10 us per I/O.  Each I/O
 * starts at its slot (the fake clock wakes exactly then), so its latency from
 * the slot is its latency: 2000 samples of exactly 10 us.
 */
TEST(lat_from_due_on_time)
{
	static const uint64_t dev[] = { 10 * US };
	struct tw *t = tw_new(1, 1 << 20, dev, 1);
	const struct dir_result *d;

	CHECK(t != NULL);
	if (!t)
		return;
	t->f.j.time_based = 1;
	t->f.j.runtime_us = 2000000;
	t->f.j.rate_iops[DDIR_READ] = 1000;
	CHECK_EQ_U(tw_run(t), 0);
	d = &t->f.r.dir[DDIR_READ];
	CHECK_EQ_U(d->due.n, 2000);
	CHECK_EQ_U(d->due.min, 10 * US);
	CHECK_EQ_U(d->due.max, 10 * US);
	CHECK_EQ_U(hist_total(&d->due_hist), 2000);
	CHECK_EQ_U(d->due.n, d->lat.n);
	tw_free(t);
}

/*
 * lat_from_due behind schedule: rate_iops=1000 (a slot each 1 ms) at depth 1
 * on a device taking 2.5 ms.  I/O k is due at k ms but starts when I/O k-1
 * completes, at 2.5k ms, so from its slot it takes 2.5 + 1.5k ms, while its
 * lat (from its start) stays 2.5 ms: the coordinated omission, exactly.
 */
TEST(lat_from_due_counts_the_backlog)
{
	static const uint64_t dev[] = { 2500 * US };
	struct tw *t = tw_new(1, 1 << 20, dev, 1);
	const struct dir_result *d;
	uint64_t n;

	CHECK(t != NULL);
	if (!t)
		return;
	t->f.j.time_based = 1;
	t->f.j.runtime_us = 1000000;
	t->f.j.rate_iops[DDIR_READ] = 1000;
	CHECK_EQ_U(tw_run(t), 0);
	d = &t->f.r.dir[DDIR_READ];
	n = d->total_ios;
	CHECK_EQ_U(n, 400);	/* 1 s / 2.5 ms */
	CHECK_EQ_U(d->due.n, n);
	CHECK_EQ_U(d->lat.max, 2500 * US);
	CHECK_EQ_U(d->due.min, 2500 * US);
	CHECK_EQ_U(d->due.max, 2500 * US + 1500 * US * (n - 1));
	/* mean of 2.5 + 1.5k ms over k = 0 .. n-1 */
	CHECK_NEAR(d->due.mean, 2500.0 * US + 1500.0 * US * (double)(n - 1) / 2.0, 1e-3);
	tw_free(t);
}

/*
 * Depth 4, reaped in batches: a rated job accounts each I/O alone (its own
 * slot), so lat_from_due has every I/O, and no I/O is due after it started.
 */
TEST(lat_from_due_batched_reaps)
{
	static const uint64_t dev[] = { 30 * US, 700 * US, 50 * US };
	struct tw *t = tw_new(4, 1 << 20, dev, 3);
	const struct dir_result *d;

	CHECK(t != NULL);
	if (!t)
		return;
	t->f.j.time_based = 1;
	t->f.j.runtime_us = 1000000;
	t->f.j.rate_iops[DDIR_READ] = 5000;
	CHECK_EQ_U(tw_run(t), 0);
	d = &t->f.r.dir[DDIR_READ];
	CHECK(d->total_ios > 1000);
	CHECK_EQ_U(d->due.n, d->total_ios);
	CHECK_EQ_U(hist_total(&d->due_hist), d->total_ios);
	CHECK(d->due.min >= d->lat.min);
	CHECK(d->due.mean >= d->lat.mean);
	tw_free(t);
}

/* A job without a rate keeps no lat_from_due. */
TEST(lat_from_due_unrated_none)
{
	static const uint64_t dev[] = { 10 * US };
	struct tw *t = tw_new(4, 1 << 20, dev, 1);

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK_EQ_U(tw_run(t), 0);
	CHECK(t->f.r.dir[DDIR_READ].total_ios > 0);
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].due.n, 0);
	CHECK_EQ_U(hist_total(&t->f.r.dir[DDIR_READ].due_hist), 0);
	tw_free(t);
}

/* startdelay waits on the clock too: the fake time passes, no real time. */
TEST(startdelay_sleeps_on_the_clock)
{
	static const uint64_t dev[] = { 100 * US };
	struct tw *t = tw_new(1, 4096 * 10, dev, 1);

	CHECK(t != NULL);
	if (!t)
		return;
	t->f.j.startdelay_us = 5000000;	/* 5 s of fake time */
	CHECK_EQ_U(tw_run(t), 0);
	CHECK_EQ_U(t->f.fc.slept_ns, 5000 * MS);
	/* the job began after the delay; its own figures do not include it */
	CHECK(t->f.w.t_begin >= START_NS + 5000 * MS);
	CHECK_EQ_U(t->f.w.elapsed_ns, 10 * 100 * US);
	CHECK_EQ_U(t->f.r.dir[DDIR_READ].total_ios, 10);
	tw_free(t);
}

/* One fake-time run of @secs s at 10 ms intervals; @hold: the worker's series_hold. */
static struct tw *long_run(uint64_t secs, size_t hold)
{
	static const uint64_t dev[] = { 10 * US };
	struct tw *t = tw_new(1, 1 << 20, dev, 1);

	if (!t)
		return NULL;
	t->f.j.time_based = 1;
	t->f.j.ramp_time_us = 500000;
	t->f.j.runtime_us = secs * 1000000;
	t->f.j.interval_us = 10000;
	t->f.j.series_max = 64;
	t->f.j.rate_iops[DDIR_READ] = 1000;
	/* job.c's defaults: the SNIA reporting rule */
	t->f.j.steady_report = SS_REPORT_AUTO;
	t->f.j.snia_window = 5;
	t->f.j.snia_range_pct = 20;
	t->f.j.snia_slope_pct = 10;
	t->f.j.snia_metric = SNIA_METRIC_IOPS;
	atomic_store(&t->f.w.series_hold, hold);	/* run.c: nobody else reads it */
	if (tw_run(t)) {
		tw_free(t);
		return NULL;
	}
	return t;
}

/*
 * Bounded memory on the real worker (docs/time-series.md, long runs): 300 s of fake time at 10 ms intervals (30,050
 * of them).  The thread's series holds a few dozen intervals, the stored one
 * at most series_max; the stored series is series_bound of the full one
 * (a run that kept everything, the same on the fake clock), its measured
 * intervals add up to total_ios, and the steady verdict, window and MSER are
 * the batch code's on the full series.
 */
TEST(long_run_series_bounded)
{
	struct tw *a = long_run(300, SIZE_MAX), *b = long_run(300, 0);
	struct series *s = NULL, full;
	struct steady *st = NULL, ref;
	struct steady_cfg c;
	uint64_t ios = 0;

	CHECK(a != NULL && b != NULL);
	if (!a || !b)
		goto out;
	CHECK(a->f.w.sink_on);
	printf("  held %zu intervals (from #%zu), stored %zu; the full series has %zu\n",
	       a->f.w.series.nr, a->f.w.series.base, a->f.w.sink.stored.nr, b->f.w.series.nr);
	CHECK(a->f.w.series.nr <= 64 + 8);
	CHECK(a->f.w.sink.stored.nr <= 64);
	CHECK_EQ_U(b->f.w.series.base, 0);
	CHECK(b->f.w.series.nr > 30000);
	CHECK_EQ_U(series_sink_drain(&a->f.w.sink, &a->f.w.series), 0);
	CHECK_EQ_U(series_sink_finish(&a->f.w.sink, &s, &st), 0);
	CHECK(s && st);
	if (!s || !st)
		goto out;
	for (size_t i = s->nr_ramp; i < s->nr; i++)
		ios += s->iv[i].d[DDIR_READ].ios;
	CHECK_EQ_U(ios, a->f.r.dir[DDIR_READ].total_ios);
	CHECK_EQ_U(a->f.r.dir[DDIR_READ].total_ios, b->f.r.dir[DDIR_READ].total_ios);
	series_init(&full);
	CHECK_EQ_U(series_merge(&full, &b->f.w.series), 0);	/* a copy */
	CHECK_EQ_U(series_bound(&full, 64), 0);
	CHECK_EQ_U(s->nr, full.nr);
	CHECK_EQ_U(s->nr_ramp, full.nr_ramp);
	for (size_t i = 0; i < s->nr && i < full.nr; i++) {
		CHECK_EQ_U(s->iv[i].t_ms, full.iv[i].t_ms);
		CHECK_EQ_U(s->iv[i].dur_us, full.iv[i].dur_us);
		CHECK_EQ_U(s->iv[i].n, full.iv[i].n);
		CHECK_EQ_U(s->iv[i].d[DDIR_READ].ios, full.iv[i].d[DDIR_READ].ios);
		CHECK_EQ_U(s->iv[i].d[DDIR_READ].lat_sum_ns, full.iv[i].d[DDIR_READ].lat_sum_ns);
		CHECK_EQ_U(s->iv[i].d[DDIR_READ].p99, full.iv[i].d[DDIR_READ].p99);
	}
	series_free(&full);
	CHECK_EQ_U(job_steady_cfg(&a->f.j, 0, &c, NULL), 0);
	steady_init(&ref);
	CHECK_EQ_U(steady_analyse(&c, &b->f.w.series, &ref), 0);
	CHECK_EQ_U(st->attained, ref.attained);
	CHECK_EQ_U(st->first, ref.first);
	CHECK_EQ_U(st->start_ms, ref.start_ms);
	CHECK(memcmp(&st->mean, &ref.mean, sizeof(double)) == 0);
	CHECK_EQ_U(st->held, ref.held);
	CHECK_EQ_U(st->mser_ok, ref.mser_ok);
	CHECK(memcmp(&st->mser, &ref.mser, sizeof(ref.mser)) == 0);
	CHECK_EQ_U(st->mser_ms, ref.mser_ms);
	steady_free(&ref);
out:
	steady_free(st);
	free(st);
	series_free(s);
	free(s);
	tw_free(a);
	tw_free(b);
}

int main(void)
{
	RUN(long_run_series_bounded);
	RUN(depth1_intervals_exact);
	RUN(latency_moments_exact);
	RUN(sub_ms_job_runtime_covers_its_directions);
	RUN(batched_accounting_exact);
	RUN(clat_kept_as_lat_until_it_differs);
	RUN(fio_default_one_in_one_out);
	RUN(batched_partial_reaps_match_per_io);
	RUN(mixed_directions_match_per_io);
	RUN(ramp_reset_exact);
	RUN(rate_iops_exact);
	RUN(rate_restarts_after_ramp);
	RUN(rate_iops_fractional_period);
	RUN(rate_bytes_exact);
	RUN(rate_wait_keeps_interval_boundaries);
	RUN(rate_wait_ends_on_time);
	RUN(startdelay_sleeps_on_the_clock);
	RUN(lat_from_due_on_time);
	RUN(lat_from_due_counts_the_backlog);
	RUN(lat_from_due_batched_reaps);
	RUN(lat_from_due_unrated_none);
	return CHECK_DONE();
}
