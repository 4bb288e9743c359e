/*
 * test_devwatch_store: bounded memory (docs/time-series.md, long runs).  The per-interval device views kept while a
 * job runs (devwatch_store, fed one final interval at a time) never number
 * more than series_max, and once the run ends (devwatch_coarsen against the
 * bounded series) they equal what coarsening the full list gives: the same
 * elements, counters exact, recombined figures within 1e-12 relative.
 */
#include "check.h"
#include "env/devwatch.h"
#include "measure/series.h"

#include <math.h>
#include <stdlib.h>

#define NEAR_REL(a, b) CHECK_NEAR(a, b, 1e-12 * (fabs((double)(b)) + 1))

static double rnd(unsigned *st)
{
	*st = *st * 1103515245u + 12345u;
	return (double)((*st >> 8) & 0xffff) / 65536.0;
}

static void view_of(unsigned *st, struct disk_view *v)
{
	memset(v, 0, sizeof(*v));
	strcpy(v->name, "vda");
	v->dur_ns = rnd(st) < 0.05 ? 0 : 10000000 + (uint64_t)(rnd(st) * 1e6);
	v->read_ios = (uint64_t)(rnd(st) * 50);
	v->write_ios = (uint64_t)(rnd(st) * 20);
	v->read_bytes = 4096 * v->read_ios;
	v->write_bytes = 4096 * v->write_ios;
	if (v->dur_ns) {
		v->read_iops = (double)v->read_ios * 1e9 / (double)v->dur_ns;
		v->write_iops = (double)v->write_ios * 1e9 / (double)v->dur_ns;
	}
	v->read_lat_ns_mean = v->read_ios ? 1e5 * rnd(st) : 0;
	v->write_lat_ns_mean = v->write_ios ? 1e5 * rnd(st) : 0;
	v->read_queue_depth = 4 * rnd(st);
	v->write_queue_depth = 2 * rnd(st);
	v->queue_depth = v->read_queue_depth + v->write_queue_depth;
	v->util = 100 * rnd(st);
	v->nr_requests = 64 + (unsigned)(rnd(st) * 64);
}

/* @n series intervals (@ramp of them ramp), the views of the first @nv, bounded to @max. */
static void run_case(size_t n, size_t ramp, size_t max, size_t nv, unsigned seed)
{
	struct series s;
	struct series_in in[DDIR_NR];
	struct disk_view_iv *full = calloc(nv, sizeof(*full)), *kept = NULL;
	size_t nr_full = nv, nr_kept = 0, cap = 0, peak = 0;
	uint32_t level = 0;
	unsigned st = seed;

	series_init(&s);
	for (size_t i = 0; i < n; i++) {
		memset(in, 0, sizeof(in));
		for (int d = 0; d < DDIR_NR; d++)
			in[d].lat_min = UINT64_MAX;
		in[0].ios = 1 + i;
		in[0].bytes = 4096 * (1 + i);
		in[0].lat_sum_ns = 1000 * (1 + i);
		in[0].lat_min = in[0].lat_max = 1000;
		CHECK_EQ_U(series_add(&s, (i + 1) * 10, 10000 + i, i < ramp, in), 0);
	}
	for (size_t i = 0; i < nv; i++) {
		full[i].t_ms = (i + 1) * 10;
		full[i].ramp = i < ramp;
		view_of(&st, &full[i].v);
		CHECK_EQ_U(devwatch_store(&kept, &nr_kept, &cap, max, &level, &full[i]), 0);
		if (nr_kept > peak)
			peak = nr_kept;
	}
	if (max)
		CHECK(peak <= (max < 2 ? 2 : max));	/* one per phase at least */
	else
		CHECK_EQ_U(nr_kept, nv);
	CHECK_EQ_U(series_bound(&s, max), 0);
	devwatch_coarsen(full, &nr_full, &s);
	devwatch_coarsen(kept, &nr_kept, &s);
	CHECK_EQ_U(nr_kept, nr_full);
	for (size_t k = 0; k < nr_kept && k < nr_full; k++) {
		const struct disk_view *a = &kept[k].v, *b = &full[k].v;

		CHECK_EQ_U(kept[k].t_ms, full[k].t_ms);
		CHECK_EQ_U(kept[k].ramp, full[k].ramp);
		CHECK_EQ_U(a->dur_ns, b->dur_ns);
		CHECK_EQ_U(a->read_ios, b->read_ios);
		CHECK_EQ_U(a->write_ios, b->write_ios);
		CHECK_EQ_U(a->read_bytes, b->read_bytes);
		CHECK_EQ_U(a->write_bytes, b->write_bytes);
		CHECK_EQ_U(a->nr_requests, b->nr_requests);
		NEAR_REL(a->read_iops, b->read_iops);
		NEAR_REL(a->write_iops, b->write_iops);
		NEAR_REL(a->read_lat_ns_mean, b->read_lat_ns_mean);
		NEAR_REL(a->write_lat_ns_mean, b->write_lat_ns_mean);
		NEAR_REL(a->read_queue_depth, b->read_queue_depth);
		NEAR_REL(a->write_queue_depth, b->write_queue_depth);
		NEAR_REL(a->queue_depth, b->queue_depth);
		NEAR_REL(a->util, b->util);
	}
	free(full);
	free(kept);
	series_free(&s);
}

TEST(bounded_views_equal_coarsened_full_list)
{
	run_case(30000, 0, 300, 30000, 1);	/* a 300 s run at 10 ms */
	run_case(1001, 37, 16, 1001, 2);	/* a ramp, odd ends */
	run_case(1001, 37, 16, 990, 3);		/* the group's first thread ended sooner */
	run_case(77, 5, 1, 77, 4);		/* one element per phase */
	run_case(500, 10, 0, 500, 5);		/* no bound */
	run_case(9, 2, 100, 9, 6);		/* never reached */
}

int main(void)
{
	RUN(bounded_views_equal_coarsened_full_list);
	return CHECK_DONE();
}
