/* buffer: pattern parsing and the contents each option gives. */
#include "check.h"
#include "buffer.h"
#include "job.h"

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
	CHECK(buffer_pattern_parse("12", out, &n, &why) == -EINVAL);
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

int main(void)
{
	RUN(pattern_parse);
	RUN(contents);
	return CHECK_DONE();
}
