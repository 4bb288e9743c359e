/*
 * test_zbd: zonemode=zbd's rules (zbd.h, zbd_dev.h) on fake zone tables, no
 * device: region alignment, the limits refused, writes at the write pointer
 * (also for random offsets), zone capacity below zone size, reads below the
 * write pointer, resets of full zones and by zone_reset_threshold/frequency,
 * the open set shared by two jobs and job_max_open_zones, verify's resets,
 * trims as zone resets, what verify_only reads (start to write pointer).
 * The expected values are worked out by hand from fio's rules.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "io/zbd.h"
#include "job_fixture.h"

#define K 1024ull
#define M (1024 * K)

/* A host-managed device of @nr zones of 1 MiB, @cap bytes writable each, all empty. */
static void fake_dev(struct zbd_dev *d, uint32_t nr, uint64_t cap, uint32_t max_open)
{
	struct blkzoned_zone *z = calloc(nr, sizeof(*z));
	struct err e;
	uint32_t i;

	memset(d, 0, sizeof(*d));
	pthread_mutex_init(&d->mu, NULL);
	d->fd = -1;
	d->path = "fake";
	d->model = BLKZONED_HOST_MANAGED;
	d->dev_max_open = max_open;
	for (i = 0; i < nr; i++) {
		z[i].start = z[i].wp = i * M;
		z[i].len = M;
		z[i].cap = cap;
		z[i].cond = BLKZONED_COND_EMPTY;
		z[i].seq = 1;
	}
	err_clear(&e);
	if (zbd_dev_table(d, z, nr, nr * M, &e))
		printf("  fake_dev: %s\n", e.msg);
	free(z);
}

static void fake_free(struct zbd_dev *d)
{
	free(d->z);
	free(d->open);
	pthread_mutex_destroy(&d->mu);
}

struct fake_job {
	struct job j;
	struct zbd_file zf;
	struct zbd_job jb;
};

/* Job @fj (its options set) on [@off, @off + @len) of @d; 0 or -errno. */
static int fake_attach_j(struct fake_job *fj, struct zbd_set *s, struct zbd_dev *d,
			 uint64_t off, uint64_t len, struct err *e)
{
	uint64_t min_bs[DDIR_NR] = { fj->j.bs[0], fj->j.bs[1], fj->j.bs[2] };

	int r;

	err_clear(e);
	r = zbd_dev_join(d, &fj->j, &off, &len, &fj->zf, e);
	zbd_job_init(&fj->jb, s, &fj->j, min_bs, &fj->zf, 1);
	return r;
}

/* Job @fj writing (or reading) @rw on [@off, @off + @len) of @d; 0 or -errno. */
static int fake_attach(struct fake_job *fj, struct zbd_set *s, struct zbd_dev *d, unsigned rw,
		       uint64_t bs, uint64_t off, uint64_t len, struct err *e)
{
	fixture_job(&fj->j, rw, bs, len);
	fj->j.direct = 1;
	fj->j.zonemode = JOB_ZONE_ZBD;
	return fake_attach_j(fj, s, d, off, len, e);
}

/* One I/O: adjust, then complete at once (a synchronous engine). */
static int io1(struct fake_job *fj, uint8_t ddir, uint64_t off, uint32_t len, struct io_u *io)
{
	int r;

	memset(io, 0, sizeof(*io));
	io->ddir = ddir;
	io->offset = off;
	io->len = len;
	r = zbd_adjust(&fj->jb, io);
	if (r == ZBD_OK)
		zbd_done(&fj->jb, io);
	return r;
}

TEST(zbd_table_rejects_unequal_zones)
{
	struct blkzoned_zone z[2] = {
		{ .start = 0, .len = M, .cap = M, .seq = 1 },
		{ .start = 2 * M, .len = M, .cap = M, .seq = 1 },
	};
	struct zbd_dev d;
	struct err e;

	memset(&d, 0, sizeof(d));
	d.path = "fake";
	err_clear(&e);
	CHECK(zbd_dev_table(&d, z, 2, 3 * M, &e) == -EINVAL);
	CHECK(strstr(e.msg, "unequal") != NULL);
	free(d.z);
	free(d.open);
}

TEST(zbd_table_full_zone_wp_at_capacity)
{
	struct blkzoned_zone z[2] = {
		{ .start = 0, .len = M, .cap = 512 * K, .wp = 0, .cond = BLKZONED_COND_FULL, .seq = 1 },
		{ .start = M, .len = M, .cap = 512 * K, .wp = M + 8 * K, .cond = BLKZONED_COND_CLOSED,
		  .seq = 1 },
	};
	struct zbd_dev d;
	struct err e;

	memset(&d, 0, sizeof(d));
	d.path = "fake";
	err_clear(&e);
	CHECK(zbd_dev_table(&d, z, 2, 2 * M, &e) == 0);
	CHECK_EQ_U(d.z[0].wp, 512 * K);
	CHECK_EQ_U(d.z[1].wp, M + 8 * K);
	CHECK_EQ_U(d.z[2].start, 2 * M);	/* the sentinel */
	free(d.z);
	free(d.open);
}

TEST(zbd_region_rounded_to_zones)
{
	struct zbd_dev d;
	struct zbd_set s;
	struct fake_job w, r;
	struct err e;

	zbd_dev_set_init(&s);
	fake_dev(&d, 8, M, 0);
	/* a write job: the start rounds up, the end down, to zone boundaries */
	CHECK(fake_attach(&w, &s, &d, RW_WRITE, 4 * K, 100 * K, 3 * M, &e) == 0);
	CHECK_EQ_U(w.zf.off, M);
	CHECK_EQ_U(w.zf.io_size, 2 * M);
	CHECK_EQ_U(w.zf.zmin, 1);
	CHECK_EQ_U(w.zf.zmax, 3);
	/* a read job: only the end rounds down */
	CHECK(fake_attach(&r, &s, &d, RW_READ, 4 * K, 100 * K, 3 * M, &e) == 0);
	CHECK_EQ_U(r.zf.off, 100 * K);
	CHECK_EQ_U(r.zf.io_size, 3 * M - 100 * K);
	/* less than a zone to write: refused */
	CHECK(fake_attach(&w, &s, &d, RW_WRITE, 4 * K, 100 * K, M, &e) == -EINVAL);
	/* fio's t/zbd cases 35, 36, 38 grep fio's phrase */
	CHECK(strstr(e.msg, "io_size must be at least one zone") != NULL);
	fake_free(&d);
	zbd_dev_set_free(&s);
}

TEST(zbd_limits_refused)
{
	struct zbd_dev d;
	struct zbd_set s;
	struct fake_job a;
	struct err e;
	uint64_t off = 0, len = 4 * M;

	zbd_dev_set_init(&s);
	fake_dev(&d, 8, M, 4);
	fixture_job(&a.j, RW_WRITE, 4 * K, 4 * M);
	a.j.zonemode = JOB_ZONE_ZBD;
	a.j.direct = 1;
	a.j.max_open_zones = 5;
	err_clear(&e);
	CHECK(zbd_dev_join(&d, &a.j, &off, &len, &a.zf, &e) == -EINVAL);
	CHECK(strstr(e.msg, "max_open_zones=5 is larger than the device's limit 4") != NULL);
	a.j.ignore_zone_limits = 1;
	err_clear(&e);
	CHECK(zbd_dev_join(&d, &a.j, &off, &len, &a.zf, &e) == 0);
	CHECK_EQ_U(d.max_open, 5);
	/* a second job with another limit */
	a.j.max_open_zones = 3;
	err_clear(&e);
	CHECK(zbd_dev_join(&d, &a.j, &off, &len, &a.zf, &e) == -EINVAL);
	CHECK(strstr(e.msg, "differs") != NULL);
	/* buffered writes to a host-managed device */
	a.j.max_open_zones = 0;
	a.j.direct = 0;
	err_clear(&e);
	CHECK(zbd_dev_join(&d, &a.j, &off, &len, &a.zf, &e) == -EINVAL);
	CHECK(strstr(e.msg, "Using direct I/O is mandatory for writing to ZBD drives") != NULL);
	/* zonesize that is not the device's */
	a.j.direct = 1;
	a.j.zonesize = 2 * M;
	err_clear(&e);
	CHECK(zbd_dev_join(&d, &a.j, &off, &len, &a.zf, &e) == -EINVAL);
	CHECK(strstr(e.msg, "job parameter zonesize=") && strstr(e.msg, "does not match disk zone size"));
	fake_free(&d);
	zbd_dev_set_free(&s);
}

TEST(zbd_job_max_open_needs_a_global_limit)
{
	struct zbd_dev d;
	struct zbd_set s;
	struct fake_job a;
	struct err e;
	uint64_t off = 0, len = 4 * M;

	zbd_dev_set_init(&s);
	fake_dev(&d, 8, M, 0);
	d.model = BLKZONED_NONE;	/* emulated: no device limit */
	fixture_job(&a.j, RW_WRITE, 4 * K, 4 * M);
	a.j.zonemode = JOB_ZONE_ZBD;
	a.j.job_max_open_zones = 2;
	err_clear(&e);
	CHECK(zbd_dev_join(&d, &a.j, &off, &len, &a.zf, &e) == -EINVAL);
	CHECK(strstr(e.msg, "job_max_open_zones") != NULL);
	fake_free(&d);
	zbd_dev_set_free(&s);
}

TEST(zbd_sequential_writes_follow_wp_and_skip_capacity_gap)
{
	struct zbd_dev d;
	struct zbd_set s;
	struct fake_job a;
	struct io_u io;
	struct err e;
	uint64_t pos = 0, n = 0, bytes = 0;
	int r = ZBD_OK;

	zbd_dev_set_init(&s);
	fake_dev(&d, 4, 768 * K, 8);
	/* one pass: the region's end, reached through zone 3's tail, ends the job (fio) */
	CHECK(fake_attach(&a, &s, &d, RW_WRITE, 64 * K, 0, 4 * M, &e) == 0);
	while (bytes < 4 * M && (r = io1(&a, DDIR_WRITE, pos, 64 * K, &io)) == ZBD_OK) {
		if (n == 12)	/* the 13th write: zone 0 is full, on to zone 1 */
			CHECK_EQ_U(io.offset, M);
		pos = io.offset + io.len;
		bytes += io.len;
		n++;
	}
	CHECK(r == ZBD_EOF);
	CHECK_EQ_U(n, 48);	/* 12 writes fill a zone */
	CHECK_EQ_U(a.jb.resets, 0);
	fake_free(&d);

	/* io_size above the region: it wraps, resets full zones and writes on */
	fake_dev(&d, 4, 768 * K, 8);
	fixture_job(&a.j, RW_WRITE, 64 * K, 4 * M);
	a.j.zonemode = JOB_ZONE_ZBD;
	a.j.direct = 1;
	a.j.io_size = 8 * M;
	CHECK(fake_attach_j(&a, &s, &d, 0, 4 * M, &e) == 0);
	pos = n = bytes = 0;
	while (bytes < 4 * M) {
		if (pos + 64 * K > 4 * M)
			pos = 0;
		CHECK(io1(&a, DDIR_WRITE, pos, 64 * K, &io) == ZBD_OK);
		pos = io.offset + io.len;
		bytes += io.len;
		n++;
	}
	/* 48 fill all four zones; 16 more reset zone 0 (12) and zone 1 (4) */
	CHECK_EQ_U(n, 64);
	CHECK_EQ_U(a.jb.resets, 2);
	CHECK_EQ_U(zbd_wp(&a.zf, 0), 768 * K);
	CHECK_EQ_U(zbd_wp(&a.zf, M), M + 256 * K);
	CHECK_EQ_U(zbd_wp(&a.zf, 3 * M), 3 * M + 768 * K);
	CHECK_EQ_U(d.nr_open, 1);	/* zone 1, refilling */
	fake_free(&d);
	zbd_dev_set_free(&s);
}

TEST(zbd_random_writes_land_at_wp_within_open_limit)
{
	struct zbd_dev d;
	struct zbd_set s;
	struct fake_job a;
	struct io_u io;
	struct err e;
	uint64_t x = 88172645463325252ull, wp_before[17];
	unsigned i, z, k;

	zbd_dev_set_init(&s);
	fake_dev(&d, 16, M, 4);
	CHECK(fake_attach(&a, &s, &d, RW_WRITE | RW_RAND, 4 * K, 0, 16 * M, &e) == 0);
	CHECK_EQ_U(d.max_open, 4);	/* the device's limit */
	for (i = 0; i < 2000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		for (k = 0; k < 16; k++)
			wp_before[k] = d.z[k].wp;
		CHECK(io1(&a, DDIR_WRITE, (x % 4096) * 4 * K, 4 * K, &io) == ZBD_OK);
		z = (unsigned)(io.offset / M);
		/* at its zone's wp (a reset zone starts over) */
		CHECK(io.offset == wp_before[z] || io.offset == z * M);
		CHECK(d.nr_open <= 4);
	}
	/*
	 * what the wps hold is what was written, less the full zones that
	 * were reset (every reset here is of a full zone); at most 4 zones
	 * are partly written (the open set)
	 */
	{
		uint64_t sum = 0;
		unsigned partial = 0;

		for (k = 0; k < 16; k++) {
			sum += d.z[k].wp - d.z[k].start;
			partial += d.z[k].wp != d.z[k].start && d.z[k].wp != d.z[k].start + M;
		}
		CHECK_EQ_U(sum + a.jb.resets * M, 2000 * 4 * K);
		CHECK(partial <= 4);
	}
	fake_free(&d);
	zbd_dev_set_free(&s);
}

TEST(zbd_reads_stay_below_wp)
{
	struct zbd_dev d;
	struct zbd_set s;
	struct fake_job w, r;
	struct io_u io;
	struct err e;
	unsigned i;

	zbd_dev_set_init(&s);
	fake_dev(&d, 4, M, 0);
	CHECK(fake_attach(&w, &s, &d, RW_WRITE, 64 * K, 0, 4 * M, &e) == 0);
	/* zone 1 gets 128k */
	CHECK(io1(&w, DDIR_WRITE, M, 64 * K, &io) == ZBD_OK);
	CHECK(io1(&w, DDIR_WRITE, M + 64 * K, 64 * K, &io) == ZBD_OK);
	CHECK(fake_attach(&r, &s, &d, RW_READ, 64 * K, 0, 4 * M, &e) == 0);
	/* a sequential read in empty zone 0 goes to zone 1's data */
	CHECK(io1(&r, DDIR_READ, 0, 64 * K, &io) == ZBD_OK);
	CHECK_EQ_U(io.offset, M);
	/* past the wp: the next zone with data; there is none */
	CHECK(io1(&r, DDIR_READ, M + 128 * K, 64 * K, &io) == ZBD_EOF);
	/* random reads land in [start, wp) */
	r.jb.random = 1;
	for (i = 0; i < 64; i++) {
		CHECK(io1(&r, DDIR_READ, (uint64_t)i * 64 * K, 64 * K, &io) == ZBD_OK);
		CHECK(io.offset >= M && io.offset + io.len <= M + 128 * K);
	}
	/* a 256k read is cut at the wp */
	r.jb.min_bs[DDIR_READ] = 64 * K;
	CHECK(io1(&r, DDIR_READ, M, 256 * K, &io) == ZBD_OK);
	CHECK_EQ_U(io.len, 128 * K);
	/* read_beyond_wp: as generated */
	r.j.read_beyond_wp = 1;
	CHECK(io1(&r, DDIR_READ, 2 * M, 64 * K, &io) == ZBD_OK);
	CHECK_EQ_U(io.offset, 2 * M);
	fake_free(&d);
	zbd_dev_set_free(&s);
}

TEST(zbd_reset_threshold_and_frequency)
{
	struct zbd_dev d;
	struct zbd_set s;
	struct fake_job a;
	struct io_u io;
	struct err e;
	unsigned i;

	zbd_dev_set_init(&s);
	fake_dev(&d, 4, M, 0);
	fixture_job(&a.j, RW_WRITE, 64 * K, 4 * M);
	a.j.zonemode = JOB_ZONE_ZBD;
	a.j.direct = 1;
	a.j.zone_reset_threshold = 0.25;
	a.j.zone_reset_frequency = 0.5;
	CHECK(fake_attach_j(&a, &s, &d, 0, 4 * M, &e) == 0);
	/*
	 * 16 writes fill zone 0 (1 MiB = the threshold, 25% of 4 MiB); the
	 * 16th reaches it, so from the 17th every 2nd write resets its zone
	 * (zone 1, which holds one block by then)
	 */
	for (i = 0; i < 16; i++)
		CHECK(io1(&a, DDIR_WRITE, (uint64_t)i * 64 * K, 64 * K, &io) == ZBD_OK);
	CHECK_EQ_U(a.jb.resets, 0);
	CHECK_EQ_U(d.valid, M);
	CHECK(io1(&a, DDIR_WRITE, M, 64 * K, &io) == ZBD_OK);	/* count 1 of 2 */
	CHECK_EQ_U(a.jb.resets, 0);
	CHECK(io1(&a, DDIR_WRITE, M + 64 * K, 64 * K, &io) == ZBD_OK);	/* 2 of 2: reset */
	CHECK_EQ_U(a.jb.resets, 1);
	CHECK_EQ_U(io.offset, M);	/* written at the reset zone's start */
	CHECK_EQ_U(d.valid, M + 64 * K);
	fake_free(&d);
	zbd_dev_set_free(&s);
}

TEST(zbd_open_set_shared_and_job_limit)
{
	struct zbd_dev d;
	struct zbd_set s;
	struct fake_job a, b;
	struct io_u io;
	struct err e;

	zbd_dev_set_init(&s);
	fake_dev(&d, 8, M, 3);
	CHECK(fake_attach(&a, &s, &d, RW_WRITE | RW_RAND, 64 * K, 0, 8 * M, &e) == 0);
	a.j.job_max_open_zones = 2;
	CHECK(fake_attach(&b, &s, &d, RW_WRITE | RW_RAND, 64 * K, 0, 8 * M, &e) == 0);
	/* job a opens zones 0 and 5; a third is refused by its own limit */
	CHECK(io1(&a, DDIR_WRITE, 0, 64 * K, &io) == ZBD_OK);
	CHECK(io1(&a, DDIR_WRITE, 5 * M, 64 * K, &io) == ZBD_OK);
	CHECK_EQ_U(a.jb.nr_open, 2);
	CHECK(io1(&a, DDIR_WRITE, 7 * M, 64 * K, &io) == ZBD_OK);
	CHECK(io.offset / M == 0 || io.offset / M == 5);	/* an open zone instead */
	/* job b takes the device's third slot; then the set is full for both */
	CHECK(io1(&b, DDIR_WRITE, 3 * M, 64 * K, &io) == ZBD_OK);
	CHECK_EQ_U(io.offset, 3 * M);
	CHECK_EQ_U(d.nr_open, 3);
	CHECK(io1(&b, DDIR_WRITE, 6 * M, 64 * K, &io) == ZBD_OK);
	CHECK(io.offset / M == 0 || io.offset / M == 3 || io.offset / M == 5);
	CHECK_EQ_U(d.nr_open, 3);
	fake_free(&d);
	zbd_dev_set_free(&s);
}

TEST(zbd_verify_resets_first_and_never_full_zones)
{
	struct zbd_dev d;
	struct zbd_set s;
	struct fake_job a;
	struct io_u io;
	struct err e;
	unsigned i;
	int r = ZBD_OK;

	zbd_dev_set_init(&s);
	fake_dev(&d, 2, M, 0);
	d.z[0].wp = 256 * K;	/* data from before */
	d.z[1].wp = 2 * M;	/* full */
	CHECK(fake_attach(&a, &s, &d, RW_WRITE, 256 * K, 0, 2 * M, &e) == 0);
	a.j.verify_method = 1;
	/* the first write resets both zones */
	CHECK(io1(&a, DDIR_WRITE, 0, 256 * K, &io) == ZBD_OK);
	CHECK_EQ_U(a.jb.resets, 2);
	CHECK_EQ_U(io.offset, 0);
	/* 8 writes fill both; the 9th finds no zone it may reset: the job ends */
	for (i = 1; i < 9 && r == ZBD_OK; i++)
		r = io1(&a, DDIR_WRITE, (uint64_t)(i % 8) * 256 * K, 256 * K, &io);
	CHECK_EQ_U(i, 9);
	CHECK(r == ZBD_EOF);
	CHECK_EQ_U(a.jb.resets, 2);
	fake_free(&d);
	zbd_dev_set_free(&s);
}

TEST(zbd_emulated_zones_need_zonesize)
{
	struct zbd_dev d;
	struct err e;

	memset(&d, 0, sizeof(d));
	d.path = "f";
	err_clear(&e);
	CHECK(zbd_dev_emulate(&d, 10 * M, 4 * M, 3 * M, &e) == 0);
	CHECK_EQ_U(d.nr, 3);	/* the last zone is short, as fio's */
	CHECK_EQ_U(d.z[2].cap, 3 * M);
	CHECK_EQ_U(d.z[3].start, 12 * M);
	free(d.z);
	free(d.open);
}

TEST(zbd_trims_reset_their_zones)
{
	struct zbd_dev d;
	struct zbd_set s;
	struct fake_job w, t;
	struct io_u io;
	struct err e;

	zbd_dev_set_init(&s);
	fake_dev(&d, 4, M, 2);
	CHECK(fake_attach(&w, &s, &d, RW_WRITE, 64 * K, 0, 4 * M, &e) == 0);
	/* zones 1 and 3 get data; zone 1 stays open */
	CHECK(io1(&w, DDIR_WRITE, M, 64 * K, &io) == ZBD_OK);
	CHECK(io1(&w, DDIR_WRITE, 3 * M, 64 * K, &io) == ZBD_OK);
	CHECK(d.z[1].open && d.nr_open == 2);
	/* the trim block size is the zone size, without a range (fio's checks) */
	CHECK(fake_attach(&t, &s, &d, RW_TRIM, 64 * K, 0, 4 * M, &e) == -EINVAL);
	CHECK(strstr(e.msg, "trim block size 65536 is not the zone size 1048576") != NULL);
	fixture_job(&t.j, RW_TRIM, M, 4 * M);
	t.j.zonemode = JOB_ZONE_ZBD;
	t.j.direct = 1;
	t.j.bs_min[DDIR_TRIM] = 512 * K;
	CHECK(fake_attach_j(&t, &s, &d, 0, 4 * M, &e) == -EINVAL);
	CHECK(strstr(e.msg, "bsrange and bssplit are not allowed for trims") != NULL);
	CHECK(fake_attach(&t, &s, &d, RW_TRIM, M, 0, 4 * M, &e) == 0);
	/* a sequential trim of an empty zone: done by the zones, nothing reset */
	CHECK(io1(&t, DDIR_TRIM, 0, M, &io) == ZBD_OK);
	CHECK(zbd_trim_done(&t.jb, &io));
	CHECK_EQ_U(t.jb.resets, 0);
	/* of a zone with data: its reset, counted; the zone leaves the open set */
	CHECK(io1(&t, DDIR_TRIM, M, M, &io) == ZBD_OK);
	CHECK_EQ_U(io.offset, M);
	CHECK_EQ_U(d.z[1].wp, M);
	CHECK_EQ_U(t.jb.resets, 1);
	CHECK(!d.z[1].open && d.nr_open == 1);
	/* a random trim of an empty zone goes to the nearest one with data */
	t.jb.random = 1;
	CHECK(io1(&t, DDIR_TRIM, 2 * M, M, &io) == ZBD_OK);
	CHECK_EQ_U(io.offset, 3 * M);
	CHECK_EQ_U(d.z[3].wp, 3 * M);
	CHECK_EQ_U(t.jb.resets, 2);
	/* none left: the job is done */
	CHECK(io1(&t, DDIR_TRIM, 0, M, &io) == ZBD_EOF);
	/* a trim off a zone's start is refused (fio: "Trim offset not at zone start") */
	t.jb.random = 0;
	CHECK(io1(&t, DDIR_TRIM, 2 * M + 4 * K, M, &io) == -EINVAL);
	/* a read or a write is never the zones' to complete */
	memset(&io, 0, sizeof(io));
	io.ddir = DDIR_WRITE;
	CHECK(!zbd_trim_done(&t.jb, &io));
	fake_free(&d);
	zbd_dev_set_free(&s);
}

TEST(zbd_zone_data_is_start_to_wp)
{
	struct zbd_dev d;
	struct zbd_set s;
	struct fake_job w;
	struct io_u io;
	struct err e;
	uint64_t a, b;

	zbd_dev_set_init(&s);
	fake_dev(&d, 4, 768 * K, 0);
	CHECK(fake_attach(&w, &s, &d, RW_WRITE, 64 * K, M, 3 * M, &e) == 0);
	CHECK(io1(&w, DDIR_WRITE, 2 * M, 64 * K, &io) == ZBD_OK);
	CHECK(io1(&w, DDIR_WRITE, 2 * M, 64 * K, &io) == ZBD_OK);
	/* the region's zones 1..3: empty, 128k, empty; then past it */
	CHECK(zbd_zone_data(&w.zf, 0, &a, &b) == 1);
	CHECK(a == M && b == M);
	CHECK(zbd_zone_data(&w.zf, 1, &a, &b) == 1);
	CHECK(a == 2 * M && b == 2 * M + 128 * K);
	CHECK(zbd_zone_data(&w.zf, 2, &a, &b) == 1);
	CHECK(zbd_zone_data(&w.zf, 3, &a, &b) == -1);
	/* an offline zone holds nothing to read */
	d.z[2].cond = BLKZONED_COND_OFFLINE;
	CHECK(zbd_zone_data(&w.zf, 1, &a, &b) == 1);
	CHECK(a == 2 * M && b == 2 * M);
	/* a conventional zone: the job's own offsets say */
	d.z[3].seq = 0;
	CHECK(zbd_zone_data(&w.zf, 2, &a, &b) == 0);
	CHECK(zbd_conventional(&w.zf, 3 * M + 4 * K));
	CHECK(!zbd_conventional(&w.zf, 2 * M));
	fake_free(&d);
	zbd_dev_set_free(&s);
}

int main(void)
{
	RUN(zbd_table_rejects_unequal_zones);
	RUN(zbd_table_full_zone_wp_at_capacity);
	RUN(zbd_region_rounded_to_zones);
	RUN(zbd_limits_refused);
	RUN(zbd_job_max_open_needs_a_global_limit);
	RUN(zbd_sequential_writes_follow_wp_and_skip_capacity_gap);
	RUN(zbd_random_writes_land_at_wp_within_open_limit);
	RUN(zbd_reads_stay_below_wp);
	RUN(zbd_reset_threshold_and_frequency);
	RUN(zbd_open_set_shared_and_job_limit);
	RUN(zbd_verify_resets_first_and_never_full_zones);
	RUN(zbd_emulated_zones_need_zonesize);
	RUN(zbd_trims_reset_their_zones);
	RUN(zbd_zone_data_is_start_to_wp);
	return check_any_failed;
}
