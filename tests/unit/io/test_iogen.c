/*
 * test_iogen: the I/O sequences of the generator, with the expected
 * offsets, counts and end points worked out by hand (and, for the end
 * points, checked against fio 3.33 runs on the null engine: size=10k bs=4k
 * does 2 I/Os; size=16k io_size=10k does 3; bsrange with the random map
 * issues exactly the region; trimwrite trims and writes size bytes each).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "io/iogen.h"
#include "job_fixture.h"

#define K 1024ull
#define MAXIO 400000

static struct io_u ios[MAXIO];

/* Run @j to its end (or @max I/Os): returns the count, -errno on init failure. */
static long run(const struct job *j, unsigned thread, const uint64_t *sizes, unsigned nr, long max)
{
	struct iogen g;
	struct err e;
	long n = 0;
	int r;

	err_clear(&e);
	r = iogen_init(&g, j, thread, sizes, nr, &e);
	if (r)
		return r;
	while (n < max && !iogen_next(&g, &ios[n]))
		n++;
	iogen_free(&g);
	return n;
}

static long run1(const struct job *j, uint64_t fsize, long max)
{
	return run(j, 0, &fsize, 1, max);
}

static uint64_t total_bytes(long n)
{
	uint64_t b = 0;
	long i;

	for (i = 0; i < n; i++)
		b += ios[i].len;
	return b;
}

TEST(sequential_region_and_end)
{
	struct job j;
	long n, i;
	int bad = 0;

	fixture_job(&j, RW_READ, 4 * K, 64 * K);
	n = run1(&j, 1 << 20, MAXIO);
	CHECK_EQ_U(n, 16);
	for (i = 0; i < n; i++)
		bad += ios[i].offset != (uint64_t)i * 4 * K || ios[i].len != 4 * K ||
		       ios[i].ddir != DDIR_READ || ios[i].file != 0;
	CHECK_EQ_U(bad, 0);
	/* size=10k bs=4k: the region rounds down to 8k, 2 I/Os (as fio) */
	fixture_job(&j, RW_READ, 4 * K, 10 * K);
	CHECK_EQ_U(run1(&j, 1 << 20, MAXIO), 2);
	/* size=16k io_size=10k: issue while < 10k was issued: 3 I/Os (as fio) */
	fixture_job(&j, RW_WRITE, 4 * K, 16 * K);
	j.io_size = 10 * K;
	CHECK_EQ_U(run1(&j, 1 << 20, MAXIO), 3);
	CHECK_EQ_U(ios[2].offset, 8 * K);
	CHECK_EQ_U(ios[2].ddir, DDIR_WRITE);
	/* size = 0: the whole file */
	fixture_job(&j, RW_READ, 4 * K, 0);
	CHECK_EQ_U(run1(&j, 40 * K, MAXIO), 10);
}

TEST(sequential_wrap_loops_time_based)
{
	struct job j;
	long n, i;
	int bad = 0;

	/* io_size 40k over a 16k region: 0 4 8 12 0 4 8 12 0 4 */
	fixture_job(&j, RW_READ, 4 * K, 16 * K);
	j.io_size = 40 * K;
	n = run1(&j, 1 << 20, MAXIO);
	CHECK_EQ_U(n, 10);
	for (i = 0; i < n; i++)
		bad += ios[i].offset != (uint64_t)(i % 4) * 4 * K;
	CHECK_EQ_U(bad, 0);
	/* loops=3: each loop restarts at the region start */
	fixture_job(&j, RW_READ, 4 * K, 16 * K);
	j.loops = 3;
	n = run1(&j, 1 << 20, MAXIO);
	CHECK_EQ_U(n, 12);
	for (i = 0, bad = 0; i < n; i++)
		bad += ios[i].offset != (uint64_t)(i % 4) * 4 * K;
	CHECK_EQ_U(bad, 0);
	/* a loop that ends mid-region is continued by the next (as fio) */
	fixture_job(&j, RW_READ, 4 * K, 16 * K);
	j.io_size = 12 * K;
	j.loops = 3;
	n = run1(&j, 1 << 20, MAXIO);
	CHECK_EQ_U(n, 9);	/* fio: 0 4 8 12 0 4 8 12 0 (k) */
	for (i = 0, bad = 0; i < n; i++)
		bad += ios[i].offset != (uint64_t)(i % 4) * 4 * K;
	CHECK_EQ_U(bad, 0);
	/* time_based never ends, it wraps */
	fixture_job(&j, RW_READ, 4 * K, 16 * K);
	j.time_based = 1;
	n = run1(&j, 1 << 20, 1000);
	CHECK_EQ_U(n, 1000);
	CHECK_EQ_U(ios[999].offset, 12 * K);
	/* offset= shifts the region; the file must hold it */
	fixture_job(&j, RW_READ, 4 * K, 16 * K);
	j.offset = 8 * K;
	n = run1(&j, 1 << 20, MAXIO);
	CHECK_EQ_U(n, 4);
	CHECK_EQ_U(ios[0].offset, 8 * K);
	CHECK_EQ_U(ios[3].offset, 20 * K);
	/* the rw=read:4k hole: skip 4k after each I/O */
	fixture_job(&j, RW_READ, 4 * K, 32 * K);
	j.rw_seq_nr = 4 * K;
	n = run1(&j, 1 << 20, MAXIO);
	CHECK_EQ_U(ios[1].offset, 8 * K);
	CHECK_EQ_U(ios[2].offset, 16 * K);
	CHECK_EQ_U(ios[4].offset, 0);	/* 32k would not fit: wrapped */
}

TEST(offset_increment_and_percent)
{
	struct job j;
	uint64_t sz = 1 << 20;

	fixture_job(&j, RW_READ, 4 * K, 64 * K);
	j.offset_increment = 64 * K;
	CHECK_EQ_U(run(&j, 2, &sz, 1, MAXIO), 16);
	CHECK_EQ_U(ios[0].offset, 128 * K);
	CHECK_EQ_U(ios[15].offset, 188 * K);
	/* offset=10% of 1 MiB = 104857.6, aligned up to 4k = 106496 */
	fixture_job(&j, RW_READ, 4 * K, 0);
	j.offset_pct = 10;
	j.size_pct = 50;
	CHECK_EQ_U(run1(&j, sz, MAXIO), 128);	/* 524288 / 4096 */
	CHECK_EQ_U(ios[0].offset, 106496);
}

TEST(files_round_robin)
{
	struct job j;
	uint64_t sizes[3] = { 1 << 20, 1 << 20, 1 << 20 };
	long n, i;
	int bad = 0;

	fixture_job(&j, RW_WRITE, 4 * K, 48 * K);	/* 16k per file */
	n = run(&j, 0, sizes, 3, MAXIO);
	CHECK_EQ_U(n, 12);
	for (i = 0; i < n; i++)
		bad += ios[i].file != i % 3 || ios[i].offset != (uint64_t)(i / 3) * 4 * K;
	CHECK_EQ_U(bad, 0);
}

TEST(random_map_covers_each_block_once_per_pass)
{
	static unsigned char seen[256];
	struct job j;
	long n, i, p;
	int bad = 0, seq = 0;

	fixture_job(&j, RW_READ | RW_RAND, 4 * K, 1 << 20);	/* 256 blocks */
	j.loops = 3;
	n = run1(&j, 1 << 20, MAXIO);
	CHECK_EQ_U(n, 768);
	for (p = 0; p < 3; p++) {
		memset(seen, 0, sizeof(seen));
		for (i = p * 256; i < (p + 1) * 256; i++) {
			bad += ios[i].offset % (4 * K) != 0 || ios[i].len != 4 * K;
			bad += seen[ios[i].offset / (4 * K)]++ != 0;
		}
		CHECK(memchr(seen, 0, sizeof(seen)) == NULL);
	}
	CHECK_EQ_U(bad, 0);
	for (i = 1; i < 256; i++)
		seq += ios[i].offset == ios[i - 1].offset + 4 * K;
	CHECK(seq < 40);	/* random, not sequential */
	/* loops after a complete pass repeat it (as fio) */
	for (i = 0; i < 256; i++)
		bad += ios[i].offset != ios[i + 256].offset || ios[i].offset != ios[i + 512].offset;
	CHECK_EQ_U(bad, 0);
	/* io_size = half the region, loops=2: the second loop finishes the pass (as fio) */
	fixture_job(&j, RW_READ | RW_RAND, 4 * K, 64 * K);
	j.io_size = 32 * K;
	j.loops = 2;
	n = run1(&j, 1 << 20, MAXIO);
	CHECK_EQ_U(n, 16);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < n; i++)
		bad += seen[ios[i].offset / (4 * K)]++ != 0;
	CHECK_EQ_U(bad, 0);
	/* norandommap loops continue the random stream (as fio) */
	j.norandommap = 1;
	j.io_size = 0;
	n = run1(&j, 1 << 20, MAXIO);
	CHECK_EQ_U(n, 32);
	for (i = 0, seq = 0; i < 16; i++)
		seq += ios[i].offset == ios[i + 16].offset;
	CHECK(seq < 8);
	/* time_based: the map starts a new pass when full */
	fixture_job(&j, RW_READ | RW_RAND, 4 * K, 1 << 20);
	j.time_based = 1;
	n = run1(&j, 1 << 20, 512);
	memset(seen, 0, sizeof(seen));
	for (i = 256, bad = 0; i < 512; i++)
		bad += seen[ios[i].offset / (4 * K)]++ != 0;
	CHECK_EQ_U(bad, 0);
}

/*
 * fio 3.33 with randrepeat=1 replays each loop's directions and offsets under
 * libaio and io_uring even with norandommap (fsx.fio); the worker sets
 * loop_restart for such engines.  randrepeat=0 never replays.
 */
TEST(loop_restart_replays_directions)
{
	struct iogen g;
	struct job j;
	struct err e;
	long n = 0, i, same = 0;

	fixture_job(&j, RW_READ | RW_WRITE | RW_RAND, 4 * K, 256 * K);	/* 64 I/Os a loop */
	j.norandommap = 1;
	j.loops = 3;
	err_clear(&e);
	CHECK(iogen_init(&g, &j, 0, (uint64_t[]){ 256 * K }, 1, &e) == 0);
	g.loop_restart = 1;
	while (n < MAXIO && !iogen_next(&g, &ios[n]))
		n++;
	iogen_free(&g);
	CHECK_EQ_U(n, 192);
	for (i = 0; i < 64; i++)
		same += ios[i].ddir == ios[i + 64].ddir && ios[i].offset == ios[i + 64].offset &&
			ios[i].ddir == ios[i + 128].ddir && ios[i].offset == ios[i + 128].offset;
	CHECK_EQ_U(same, 64);
	/* without it (sync engines), the streams draw on: the loops differ */
	n = run1(&j, 256 * K, MAXIO);
	CHECK_EQ_U(n, 192);
	for (i = 0, same = 0; i < 64; i++)
		same += ios[i].ddir == ios[i + 64].ddir && ios[i].offset == ios[i + 64].offset;
	CHECK(same < 32);
	/* randrepeat=0 with the random map: a complete pass is not replayed */
	j.norandommap = 0;
	j.randrepeat = 0;
	n = run1(&j, 256 * K, MAXIO);
	CHECK_EQ_U(n, 192);
	for (i = 0, same = 0; i < 64; i++)
		same += ios[i].ddir == ios[i + 64].ddir && ios[i].offset == ios[i + 64].offset;
	CHECK(same < 32);
}

/*
 * The inline random-map path (IOGEN_FAST_MAP) issues exactly what the general
 * path does: same offsets in the same order, across passes (the map resets)
 * and with a block count that leaves a partial last word (1000 = 15*64 + 40).
 */
TEST(random_map_fast_path_matches_general_path)
{
	struct iogen fast, slow;
	struct io_u a, b;
	struct job j;
	struct err e;
	uint64_t size = 1000 * 4 * K, start = 12 * K, lens[1] = { 1000 * 4 * K };
	long i;
	int bad = 0;

	fixture_job(&j, RW_READ | RW_RAND, 4 * K, 0);
	j.time_based = 1;
	err_clear(&e);
	CHECK(iogen_init_regions(&fast, &j, 0, lens, &start, 1, &e) == 0);
	CHECK(iogen_init_regions(&slow, &j, 0, lens, &start, 1, &e) == 0);
	CHECK_EQ_U(fast.fast, IOGEN_FAST_MAP);
	slow.fast = IOGEN_SLOW;
	for (i = 0; i < 3500; i++) {
		CHECK(iogen_next(&fast, &a) == 0);
		CHECK(iogen_next(&slow, &b) == 0);
		bad += a.offset != b.offset || a.len != b.len || a.ddir != b.ddir || a.file != b.file;
		bad += a.offset < start || a.offset + a.len > start + size;
	}
	CHECK_EQ_U(bad, 0);
	CHECK_EQ_U(fast.files[0].map.used, slow.files[0].map.used);
	CHECK_EQ_U(fast.files[0].map.used, 3500 - 3000);
	iogen_free(&fast);
	iogen_free(&slow);
	/* bs larger than the alignment keeps the general path */
	fixture_job(&j, RW_READ | RW_RAND, 8 * K, 0);
	j.blockalign[DDIR_READ] = 4 * K;
	CHECK(iogen_init_regions(&fast, &j, 0, lens, &start, 1, &e) == 0);
	CHECK(fast.fast != IOGEN_FAST_MAP);
	iogen_free(&fast);
}

TEST(random_map_with_bsrange_issues_the_region)
{
	static unsigned char seen[16];
	struct job j;
	long n, i;
	uint64_t b;
	int bad = 0;

	fixture_job(&j, RW_READ | RW_RAND, 4 * K, 64 * K);
	j.bs_min[DDIR_READ] = 4 * K;
	j.bs_max[DDIR_READ] = 16 * K;
	n = run1(&j, 1 << 20, MAXIO);
	CHECK_EQ_U(total_bytes(n), 64 * K);	/* as fio: exactly the region */
	for (i = 0; i < n; i++)
		for (b = ios[i].offset; b < ios[i].offset + ios[i].len; b += 4 * K)
			bad += seen[b / (4 * K)]++ != 0;
	CHECK_EQ_U(bad, 0);
	CHECK(memchr(seen, 0, sizeof(seen)) == NULL);
}

TEST(repeatable_seeds_and_distinct_threads)
{
	static struct io_u a[1000];
	struct job j;
	uint64_t sz = 1ull << 30;
	int same = 1, diff = 0, i;

	fixture_job(&j, RW_READ | RW_WRITE | RW_RAND, 4 * K, 0);
	j.norandommap = 1;
	j.time_based = 1;
	run(&j, 0, &sz, 1, 1000);
	memcpy(a, ios, sizeof(a));
	run(&j, 0, &sz, 1, 1000);
	for (i = 0; i < 1000; i++)
		same &= a[i].offset == ios[i].offset && a[i].ddir == ios[i].ddir;
	CHECK(same);
	run(&j, 1, &sz, 1, 1000);
	for (i = 0; i < 1000; i++)
		diff += a[i].offset != ios[i].offset;
	CHECK(diff > 990);
	j.randseed = 12345;
	j.randseed_set = 1;
	run(&j, 0, &sz, 1, 1000);
	for (i = 0, diff = 0; i < 1000; i++)
		diff += a[i].offset != ios[i].offset;
	CHECK(diff > 990);
	j.randseed_set = 0;
	j.randrepeat = 0;
	run(&j, 0, &sz, 1, 1000);
	memcpy(a, ios, sizeof(a));
	run(&j, 0, &sz, 1, 1000);
	for (i = 0, diff = 0; i < 1000; i++)
		diff += a[i].offset != ios[i].offset;
	CHECK(diff > 990);
}

TEST(rwmix_ratio)
{
	struct job j;
	long n, i, reads = 0;
	int seq_bad = 0;
	uint64_t next[DDIR_NR] = { 0, 0, 0 };

	fixture_job(&j, RW_READ | RW_WRITE | RW_RAND, 4 * K, 1 << 30);
	j.rwmixread = 70;
	j.time_based = 1;
	n = run1(&j, 1 << 30, 100000);
	for (i = 0; i < n; i++)
		reads += ios[i].ddir == DDIR_READ;
	/* sd of the share: sqrt(0.21 / 1e5) = 0.00145 */
	CHECK_NEAR((double)reads / n, 0.70, 0.006);
	/* rw (sequential mix): each direction advances on its own */
	fixture_job(&j, RW_READ | RW_WRITE, 4 * K, 1 << 30);
	j.rwmixread = 30;
	j.time_based = 1;
	n = run1(&j, 1 << 30, 100000);
	for (i = 0, reads = 0; i < n; i++) {
		reads += ios[i].ddir == DDIR_READ;
		seq_bad += ios[i].offset != next[ios[i].ddir];
		next[ios[i].ddir] = ios[i].offset + 4 * K;
	}
	CHECK_NEAR((double)reads / n, 0.30, 0.006);
	CHECK_EQ_U(seq_bad, 0);
	j.rwmixread = 100;
	n = run1(&j, 1 << 30, 1000);
	for (i = 0, reads = 0; i < n; i++)
		reads += ios[i].ddir == DDIR_READ;
	CHECK_EQ_U(reads, 1000);
}

TEST(bssplit_proportions_and_bsrange_alignment)
{
	struct job j;
	long n, i, c4 = 0, c32 = 0, c64 = 0, other = 0, mis = 0;

	fixture_job(&j, RW_READ | RW_RAND, 4 * K, 1 << 30);
	j.norandommap = 1;
	j.time_based = 1;
	j.bssplit_nr[DDIR_READ] = 3;
	j.bssplit[DDIR_READ][0] = (struct bssplit){ 4 * K, 10 };
	j.bssplit[DDIR_READ][1] = (struct bssplit){ 64 * K, 50 };
	j.bssplit[DDIR_READ][2] = (struct bssplit){ 32 * K, 40 };
	n = run1(&j, 1 << 30, 100000);
	for (i = 0; i < n; i++) {
		c4 += ios[i].len == 4 * K;
		c32 += ios[i].len == 32 * K;
		c64 += ios[i].len == 64 * K;
		mis += ios[i].offset % (4 * K) != 0 || ios[i].offset + ios[i].len > (1 << 30);
	}
	other = n - c4 - c32 - c64;
	CHECK_NEAR((double)c4 / n, 0.10, 0.006);
	CHECK_NEAR((double)c32 / n, 0.40, 0.008);
	CHECK_NEAR((double)c64 / n, 0.50, 0.008);
	CHECK_EQ_U(other, 0);
	CHECK_EQ_U(mis, 0);
	/* bsrange 4k-16k: multiples of 4k, uniform over 4 sizes, aligned to 4k */
	fixture_job(&j, RW_WRITE | RW_RAND, 4 * K, 1 << 30);
	j.norandommap = 1;
	j.time_based = 1;
	j.bs_min[DDIR_WRITE] = 4 * K;
	j.bs_max[DDIR_WRITE] = 16 * K;
	n = run1(&j, 1 << 30, 40000);
	for (i = 0, mis = 0, c4 = 0; i < n; i++) {
		mis += ios[i].len % (4 * K) != 0 || ios[i].len > 16 * K || ios[i].offset % (4 * K) != 0;
		c4 += ios[i].len == 4 * K;
	}
	CHECK_EQ_U(mis, 0);
	CHECK_NEAR((double)c4 / n, 0.25, 0.01);
	/* blockalign=16k with bs=4k: offsets on 16k boundaries */
	fixture_job(&j, RW_READ | RW_RAND, 4 * K, 1 << 20);
	j.blockalign[DDIR_READ] = 16 * K;
	j.time_based = 1;
	n = run1(&j, 1 << 20, 10000);
	for (i = 0, mis = 0, c4 = 0; i < n; i++) {
		mis += ios[i].offset % (16 * K) != 0;
		c4 += ios[i].offset == (1 << 20) - 16 * K;	/* the last aligned slot is used */
	}
	CHECK_EQ_U(mis, 0);
	CHECK(c4 > 0);
	/* sequential bssplit ends exactly at the region end (as fio) */
	fixture_job(&j, RW_READ, 4 * K, 64 * K);
	j.bssplit_nr[DDIR_READ] = 2;
	j.bssplit[DDIR_READ][0] = (struct bssplit){ 4 * K, 50 };
	j.bssplit[DDIR_READ][1] = (struct bssplit){ 16 * K, 50 };
	n = run1(&j, 1 << 20, MAXIO);
	CHECK_EQ_U(total_bytes(n), 64 * K);
	for (i = 1, mis = 0; i < n; i++)
		mis += ios[i].offset != ios[i - 1].offset + ios[i - 1].len;
	CHECK_EQ_U(mis, 0);
}

TEST(trimwrite_pairs)
{
	struct job j;
	long n, i;
	int bad = 0;

	fixture_job(&j, RW_TRIMWRITE, 4 * K, 16 * K);
	n = run1(&j, 1 << 20, MAXIO);
	CHECK_EQ_U(n, 8);	/* 16k trimmed and 16k written (as fio) */
	for (i = 0; i < n; i++)
		bad += ios[i].ddir != (i % 2 ? DDIR_WRITE : DDIR_TRIM) ||
		       ios[i].offset != (uint64_t)(i / 2) * 4 * K || ios[i].len != 4 * K;
	CHECK_EQ_U(bad, 0);
	fixture_job(&j, RW_TRIMWRITE | RW_RAND, 4 * K, 64 * K);
	n = run1(&j, 1 << 20, MAXIO);
	CHECK_EQ_U(n, 32);
	for (i = 0, bad = 0; i < n; i += 2)
		bad += ios[i].ddir != DDIR_TRIM || ios[i + 1].ddir != DDIR_WRITE ||
		       ios[i + 1].offset != ios[i].offset || ios[i + 1].len != ios[i].len;
	CHECK_EQ_U(bad, 0);
}

TEST(percentage_random_and_seq_runs)
{
	struct job j;
	long n, i, seq = 0;

	fixture_job(&j, RW_READ | RW_RAND, 4 * K, 1 << 30);
	j.time_based = 1;
	j.percentage_random[DDIR_READ] = 0;
	n = run1(&j, 1 << 30, 1000);
	for (i = 1; i < n; i++)
		seq += ios[i].offset == ios[i - 1].offset + 4 * K;
	CHECK_EQ_U(seq, 999);
	j.percentage_random[DDIR_READ] = 25;
	n = run1(&j, 1 << 30, 100000);
	for (i = 1, seq = 0; i < n; i++)
		seq += ios[i].offset == ios[i - 1].offset + 4 * K;
	CHECK_NEAR((double)seq / n, 0.75, 0.01);
	/* randread:8: runs of 8 sequential I/Os from each random start */
	j.percentage_random[DDIR_READ] = 100;
	j.rw_seq_nr = 8;
	n = run1(&j, 1 << 30, 8000);
	for (i = 1, seq = 0; i < n; i++)
		seq += (ios[i].offset == ios[i - 1].offset + 4 * K) != (i % 8 != 0);
	CHECK(seq < 5);	/* only chance adjacency of the random starts */
}

/* Counts per block over @n I/Os, sorted descending. */
static int cmp_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

TEST(distribution_shapes)
{
	static uint32_t cnt[1000];
	struct job j;
	long n, i, top = 0;
	double zeta = 0;
	int k;

	/* zipf:1.2 over 1000 blocks: the hottest block gets 1/zeta(1000, 1.2) */
	fixture_job(&j, RW_READ | RW_RAND, 4 * K, 4000 * K);
	j.time_based = 1;
	j.random_distribution = RAND_DIST_ZIPF;
	j.rand_param = 1.2;
	n = run1(&j, 4000 * K, 200000);
	memset(cnt, 0, sizeof(cnt));
	for (i = 0; i < n; i++)
		cnt[ios[i].offset / (4 * K)]++;
	qsort(cnt, 1000, sizeof(cnt[0]), cmp_desc);
	for (k = 1; k <= 1000; k++)
		zeta += pow(k, -1.2);
	for (k = 1; k <= 3; k++) {
		double p = pow(k, -1.2) / zeta;

		CHECK_NEAR(cnt[k - 1] / (double)n, p, 4 * sqrt(p * (1 - p) / n));
	}
	/* the hot blocks are scattered, not all at the start */
	memset(cnt, 0, sizeof(cnt));
	for (i = 0; i < n; i++)
		cnt[ios[i].offset / (4 * K)]++;
	CHECK(cnt[0] < n / 10 || cnt[1] < n / 10);
	/* pareto:0.2: the hottest 20% of blocks take 80% */
	j.random_distribution = RAND_DIST_PARETO;
	j.rand_param = 0.2;
	n = run1(&j, 4000 * K, 100000);
	memset(cnt, 0, sizeof(cnt));
	for (i = 0; i < n; i++)
		cnt[ios[i].offset / (4 * K)]++;
	qsort(cnt, 1000, sizeof(cnt[0]), cmp_desc);
	for (k = 0, top = 0; k < 200; k++)
		top += cnt[k];
	CHECK_NEAR((double)top / n, 0.80, 0.01);
	/* normal:10: 68% within one sigma (100 blocks) of the middle */
	j.random_distribution = RAND_DIST_NORMAL;
	j.rand_param = 10;
	n = run1(&j, 4000 * K, 100000);
	for (i = 0, top = 0; i < n; i++)
		top += ios[i].offset >= 400 * 4 * K && ios[i].offset < 600 * 4 * K;
	CHECK_NEAR((double)top / n, 0.6827, 0.01);
}

TEST(invalid_combinations)
{
	struct job j;
	struct iogen g;
	struct err e;
	uint64_t sz = 4 * K;

	fixture_job(&j, RW_READ, 8 * K, 0);
	err_clear(&e);
	CHECK(iogen_init(&g, &j, 0, &sz, 1, &e) == -EINVAL);
	CHECK(strstr(e.msg, "'t'") && strstr(e.msg, "bs=8192") && strstr(e.msg, "4096"));
	CHECK_EQ_U(e.exit_code, EXIT_USAGE);
	fixture_job(&j, RW_READ, 4 * K, 0);
	sz = 0;
	err_clear(&e);
	CHECK(iogen_init(&g, &j, 0, &sz, 1, &e) == -EINVAL);
	sz = 64 * K;
	j.offset = 64 * K;
	err_clear(&e);
	CHECK(iogen_init(&g, &j, 0, &sz, 1, &e) == -EINVAL);
	CHECK(strstr(e.msg, "offset=65536") != NULL);
	fixture_job(&j, RW_READ | RW_RAND, 4 * K, 0);
	j.random_distribution = RAND_DIST_ZIPF;
	j.rand_param = 0;
	err_clear(&e);
	CHECK(iogen_init(&g, &j, 0, &sz, 1, &e) == -EINVAL);
	CHECK(strstr(e.msg, "zipf") != NULL);
	fixture_job(&j, 0, 4 * K, 0);
	err_clear(&e);
	CHECK(iogen_init(&g, &j, 0, &sz, 1, &e) == -EINVAL);
}

/* random_generator=lfsr: every block exactly once per pass, with no random map. */
TEST(lfsr_every_block_once_per_pass)
{
	static unsigned char seen[1000];
	struct iogen g;
	struct job j;
	struct err e;
	long i, pass;
	int ok = 1, differs = 0;
	uint64_t first = 0;

	fixture_job(&j, RW_READ | RW_RAND, 4 * K, 1000 * 4 * K);	/* 1000 blocks: not a power of 2 */
	j.random_generator = 1;
	j.time_based = 1;
	err_clear(&e);
	CHECK(iogen_init(&g, &j, 0, (uint64_t[]){ 1000 * 4 * K }, 1, &e) == 0);
	CHECK(!g.use_map && g.fullperiod);
	for (pass = 0; pass < 3; pass++) {
		memset(seen, 0, sizeof(seen));
		for (i = 0; i < 1000; i++) {
			CHECK(!iogen_next(&g, &ios[0]));
			if (ios[0].offset % (4 * K) || ios[0].offset / (4 * K) >= 1000 ||
			    seen[ios[0].offset / (4 * K)]++)
				ok = 0;
			if (!pass && !i)
				first = ios[0].offset;
			if (!pass && i == 1 && ios[0].offset != first + 4 * K)
				differs = 1;	/* not sequential */
		}
	}
	iogen_free(&g);
	CHECK(ok);
	CHECK(differs);
}

int main(void)
{
	RUN(lfsr_every_block_once_per_pass);
	RUN(sequential_region_and_end);
	RUN(sequential_wrap_loops_time_based);
	RUN(loop_restart_replays_directions);
	RUN(offset_increment_and_percent);
	RUN(files_round_robin);
	RUN(random_map_covers_each_block_once_per_pass);
	RUN(random_map_fast_path_matches_general_path);
	RUN(random_map_with_bsrange_issues_the_region);
	RUN(repeatable_seeds_and_distinct_threads);
	RUN(rwmix_ratio);
	RUN(bssplit_proportions_and_bsrange_alignment);
	RUN(trimwrite_pairs);
	RUN(percentage_random_and_seq_runs);
	RUN(distribution_shapes);
	RUN(invalid_combinations);
	return CHECK_DONE();
}
