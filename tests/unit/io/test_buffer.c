/* buffer: pattern parsing and the contents each option gives. */
#include "check.h"
#include "io/buffer.h"
#include "model/job.h"

#include <errno.h>
#include <string.h>

TEST(pattern_parse)
{
	uint8_t out[BUFFER_PATTERN_MAX];
	unsigned n = 0;
	const char *why;

	CHECK(buffer_pattern_parse("0xdeadbeef", out, &n, &why) == 0);
	CHECK_EQ_U(n, 4);
	CHECK(out[0] == 0xde && out[3] == 0xef);
	CHECK(buffer_pattern_parse("0x1", out, &n, &why) == 0);
	CHECK_EQ_U(n, 1);
	CHECK(out[0] == 1);
	CHECK(buffer_pattern_parse("0xab\"cd\"0x01", out, &n, &why) == 0);
	CHECK_EQ_U(n, 4);
	CHECK(out[0] == 0xab && out[1] == 'c' && out[2] == 'd' && out[3] == 1);
	CHECK(buffer_pattern_parse("'file'", out, &n, &why) == -EINVAL);
	CHECK(strstr(why, "file") != NULL);
	CHECK(buffer_pattern_parse("\"open", out, &n, &why) == -EINVAL);
	CHECK(buffer_pattern_parse("0x", out, &n, &why) == -EINVAL);
	/* fio's decimal items: 32-bit, little endian, as few bytes as needed */
	CHECK(buffer_pattern_parse("12", out, &n, &why) == 0);
	CHECK(n == 1 && out[0] == 12);
	CHECK(buffer_pattern_parse("-12", out, &n, &why) == 0);
	CHECK(n == 4 && out[0] == 0xf4 && out[3] == 0xff);
	CHECK(buffer_pattern_parse("1,2", out, &n, &why) == -EINVAL);
	CHECK(buffer_pattern_parse("2147483648", out, &n, &why) == -EINVAL);
	CHECK(buffer_pattern_parse("\"\"", out, &n, &why) == -EINVAL);
}

/* Count the zero bytes of @p. */
static unsigned zeros(const uint8_t *p, unsigned len)
{
	unsigned i, z = 0;

	for (i = 0; i < len; i++)
		z += !p[i];
	return z;
}

TEST(contents)
{
	static uint8_t a[4096], b[4096];
	struct buffer_gen g;
	struct job j;
	struct err e;
	unsigned i, same = 0;

	job_init(&j);
	/* default: random, then scrambled per write with the sector offsets */
	CHECK(buffer_init(&g, &j, 0, &e) == 0);
	CHECK(buffer_per_write(&g));
	buffer_fill_initial(&g, a, sizeof(a));
	CHECK(zeros(a, sizeof(a)) < 64);
	memcpy(b, a, sizeof(b));
	buffer_fill_write(&g, b, sizeof(b), 1 << 20);
	CHECK(memcmp(a, b, sizeof(a)) != 0);
	CHECK(memcmp(a + 8, b + 8, 504) == 0);	/* only 8 bytes a sector change */
	/* compress 75% with chunk 512: each chunk 128 random bytes, 384 zeros */
	j.buffer_compress_percentage = 75;
	CHECK(buffer_init(&g, &j, 0, &e) == 0);
	CHECK(g.refill);
	buffer_fill_write(&g, a, sizeof(a), 0);
	CHECK(zeros(a, sizeof(a)) >= 8 * 384 && zeros(a, sizeof(a)) < 8 * 384 + 16);
	CHECK_EQ_U(zeros(a + 128, 384), 384);
	/* dedupe 100%: after the first unique write, every write repeats it */
	j.buffer_compress_percentage = 0;
	j.dedupe_percentage = 100;
	CHECK(buffer_init(&g, &j, 0, &e) == 0);
	buffer_fill_write(&g, a, sizeof(a), 0);
	for (i = 0; i < 10; i++) {
		buffer_fill_write(&g, b, sizeof(b), 4096);
		same += !memcmp(a, b, sizeof(a));
	}
	CHECK_EQ_U(same, 10);
	/* refill alone: every write new */
	j.dedupe_percentage = 0;
	j.refill_buffers = 1;
	CHECK(buffer_init(&g, &j, 0, &e) == 0);
	buffer_fill_write(&g, a, sizeof(a), 0);
	buffer_fill_write(&g, b, sizeof(b), 0);
	CHECK(memcmp(a, b, sizeof(a)) != 0);
	/* zero_buffers: zeros, no scramble */
	j.refill_buffers = 0;
	j.zero_buffers = 1;
	CHECK(buffer_init(&g, &j, 0, &e) == 0);
	CHECK(!buffer_per_write(&g));
	buffer_fill_initial(&g, a, sizeof(a));
	CHECK_EQ_U(zeros(a, sizeof(a)), sizeof(a));
	job_free(&j);
}

/* The 64-bit digest of a 4k block (FNV-1a), to compare blocks cheaply. */
static uint64_t digest(const uint8_t *p)
{
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned i;

	for (i = 0; i < 4096; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/* Distinct values among the @n first of @h. */
static unsigned distinct(const uint64_t *h, unsigned n)
{
	unsigned i, k, d = 0;

	for (i = 0; i < n; i++) {
		for (k = 0; k < i && h[k] != h[i]; k++)
			;
		d += k == i;
	}
	return d;
}

/*
 * dedupe_global: two threads with 512-block sets (runs of 256) write 2048
 * blocks, half copies.  Alone, a thread's copies are of its own first 512
 * unique writes and nothing is common to the two; shared, half of its slots
 * are the other's blocks, so many blocks are common and each thread has
 * more distinct blocks (fio 3.33, 16 MiB each at 50%/50%: 2037 distinct
 * alone, 2664 shared, 1264 common).
 */
TEST(dedupe_global_shares_the_set)
{
	static uint8_t buf[4096];
	static uint64_t h[2][2048];
	struct buffer_gen g;
	struct job j;
	struct err e;
	unsigned t, i, k, shared[2], dist[2], mode;

	for (mode = 0; mode < 2; mode++) {
		job_init(&j);
		j.size = 4096ull * 1024;	/* 1024 blocks: a 50% set is 512 */
		j.bs[DDIR_WRITE] = 4096;
		j.dedupe_percentage = 50;
		j.dedupe_mode_ws = 1;
		j.dedupe_ws_pct = 50;
		for (t = 0; t < 2; t++) {
			CHECK(buffer_init(&g, &j, t, &e) == 0);
			if (mode)
				buffer_dedupe_global(&g, t, 2);
			for (i = 0; i < 2048; i++) {
				buffer_fill_write(&g, buf, 4096, (uint64_t)i * 4096);
				h[t][i] = digest(buf);
			}
		}
		shared[mode] = 0;
		for (i = 0; i < 2048; i++) {
			for (k = 0; k < 2048 && h[0][i] != h[1][k]; k++)
				;
			shared[mode] += k < 2048;
		}
		dist[mode] = distinct(h[0], 2048);
		job_free(&j);
	}
	CHECK_EQ_U(shared[0], 0);
	/* of thread 0's 2048 writes, its copies of 1's run (~512) and its own run 0 */
	CHECK(shared[1] > 900 && shared[1] < 1400);
	CHECK(dist[0] > 950 && dist[0] < 1050);	/* ~1024 unique; copies are of them */
	/* + the other's blocks copied: 512 draws over 256 slots, 256 (1 - e^-2) = 221 */
	CHECK(dist[1] > dist[0] + 170 && dist[1] < dist[0] + 270);
}

int main(void)
{
	RUN(pattern_parse);
	RUN(contents);
	RUN(dedupe_global_shares_the_set);
	return CHECK_DONE();
}
