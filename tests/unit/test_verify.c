/* verify: crc32c against RFC 3720's vectors, stamping and checking every
 * method, and the messages a corruption gives. */
#include "check.h"
#include "verify.h"

#include <errno.h>
#include <stdio.h>	/* fopen */
#include <stdlib.h>	/* mkdtemp */
#include <string.h>
#include <unistd.h>	/* chdir, getcwd, unlink, rmdir */

/* The @len bytes of file @name into @buf; the byte count read. */
static size_t slurp(const char *name, uint8_t *buf, size_t len)
{
	FILE *f = fopen(name, "rb");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, len, f);
	fclose(f);
	return n;
}

TEST(crc32c_vectors)
{
	static uint8_t zeros[32], ones[32], inc[32];
	int i;

	for (i = 0; i < 32; i++) {
		ones[i] = 0xff;
		inc[i] = (uint8_t)i;
	}
	CHECK_EQ_U(verify_crc32c(0, "123456789", 9), 0xe3069283u);
	CHECK_EQ_U(verify_crc32c(0, zeros, 32), 0x8a9136aau);
	CHECK_EQ_U(verify_crc32c(0, ones, 32), 0x62a8ab43u);
	CHECK_EQ_U(verify_crc32c(0, inc, 32), 0x46dd794eu);
	/* incremental = one go */
	CHECK_EQ_U(verify_crc32c(verify_crc32c(0, "1234", 4), "56789", 5), 0xe3069283u);
}

TEST(every_method_round_trips_and_catches_a_flip)
{
	static uint8_t buf[8192];
	const char *names[] = { "md5", "crc32c", "crc32", "sha1", "sha256", "sha512", "xxhash",
				"crc32c-intel", "crc64" };
	struct verify_ctx v;
	struct verify_result r;
	struct err e;
	enum verify_method m;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		CHECK(verify_method_parse(names[i], &m) == 0);
		CHECK(verify_init(&v, m, 4096, 1024, NULL, 0, 7, &e) == 0);
		memset(buf, 0x5a, sizeof(buf));
		verify_fill(&v, buf, sizeof(buf), 1 << 20);
		memset(&r, 0, sizeof(r));
		CHECK(verify_check(&v, buf, sizeof(buf), 1 << 20, "f", &r) == 0);
		CHECK_EQ_U(r.blocks, 8);
		CHECK_EQ_U(r.bytes, 8192);
		buf[3 * 1024 + 500] ^= 1;	/* data of the fourth interval */
		memset(&r, 0, sizeof(r));
		CHECK(verify_check(&v, buf, sizeof(buf), 1 << 20, "f", &r) == -EILSEQ);
		CHECK_EQ_U(r.fail_offset, (1 << 20) + 3 * 1024);
		CHECK(strstr(r.fail_msg, "mismatch at offset 1051648 in f: expected ") != NULL);
		CHECK_EQ_U(r.blocks, 3);
	}
	CHECK(verify_method_parse("crc65", &m) == -EINVAL);
}

/* CRC-64/XZ's check value (the CRC of "123456789"). */
TEST(crc64_check_value)
{
	CHECK_EQ_U(verify_crc64(0, "123456789", 9), 0x995dc9bbdf1939faull);
	CHECK_EQ_U(verify_crc64(verify_crc64(0, "1234", 4), "56789", 5), 0x995dc9bbdf1939faull);
}

/* meta: the header alone, and verify_pattern's bytes after it when given. */
TEST(meta_checks_header_and_pattern)
{
	static uint8_t buf[4096];
	struct verify_ctx v;
	struct verify_result r;
	struct err e;

	CHECK(verify_init(&v, VERIFY_META, 4096, 512, (const uint8_t *)"\xaa\x55\x5a\xa5", 4, 3, &e) == 0);
	verify_fill(&v, buf, sizeof(buf), 8192);
	memset(&r, 0, sizeof(r));
	CHECK(verify_check(&v, buf, sizeof(buf), 8192, "f", &r) == 0);
	CHECK_EQ_U(r.blocks, 8);
	buf[2 * 512 + 100] ^= 1;	/* a pattern byte of the third interval */
	memset(&r, 0, sizeof(r));
	CHECK(verify_check(&v, buf, sizeof(buf), 8192, "f", &r) == -EILSEQ);
	CHECK_EQ_U(r.fail_offset, 8192 + 2 * 512 + 100);
	CHECK(strstr(r.fail_msg, "pattern mismatch") != NULL);
	buf[2 * 512 + 100] ^= 1;
	memset(&r, 0, sizeof(r));	/* read from the wrong place: the header says so */
	CHECK(verify_check(&v, buf, sizeof(buf), 4096, "f", &r) == -EILSEQ);
	CHECK(strstr(r.fail_msg, "header for another block") != NULL);
	CHECK_STR(verify_method_name(VERIFY_META), "meta");
}

TEST(headers_name_what_is_wrong)
{
	static uint8_t buf[4096];
	struct verify_ctx v;
	struct verify_result r;
	struct err e;

	CHECK(verify_init(&v, VERIFY_CRC32C, 4096, 0, NULL, 0, 1, &e) == 0);
	verify_fill(&v, buf, sizeof(buf), 8192);
	/* read back from another offset: the header names the one it belongs to */
	memset(&r, 0, sizeof(r));
	CHECK(verify_check(&v, buf, sizeof(buf), 0, "f", &r) == -EILSEQ);
	CHECK(strstr(r.fail_msg, "header for another block at offset 0 in f: expected offset 0, "
			       "length 4096, crc32c, found offset 8192") != NULL);
	/* zeros where the header was: the magic */
	memset(buf, 0, 64);
	memset(&r, 0, sizeof(r));
	CHECK(verify_check(&v, buf, sizeof(buf), 8192, "f", &r) == -EILSEQ);
	CHECK(strstr(r.fail_msg, "bad header magic at offset 8192 in f: expected 0xacca, found 0x0000") != NULL);
	/* pattern: byte-exact, names the first differing byte */
	CHECK(verify_init(&v, VERIFY_PATTERN, 4096, 0, (const uint8_t *)"ab", 2, 1, &e) == 0);
	verify_fill(&v, buf, sizeof(buf), 0);
	buf[101] = 'z';
	memset(&r, 0, sizeof(r));
	CHECK(verify_check(&v, buf, sizeof(buf), 4096, "f", &r) == -EILSEQ);
	CHECK(strstr(r.fail_msg, "pattern mismatch at offset 4197 in f: expected 0x62, found 0x7a") != NULL);
	/* intervals that cannot hold a header, or do not divide bs */
	CHECK(verify_init(&v, VERIFY_SHA512, 4096, 64, NULL, 0, 1, &e) == -EINVAL);
	CHECK(verify_init(&v, VERIFY_MD5, 4096, 3000, NULL, 0, 1, &e) == -EINVAL);
	CHECK(verify_init(&v, VERIFY_PATTERN, 4096, 0, NULL, 0, 1, &e) == -EINVAL);
}

/*
 * verify_dump: the data is rebuilt from (seed, offset), so the .expected file
 * is the interval exactly as written and differs from .received only where
 * the corruption is; a second fill gives the same bytes.
 */
TEST(dump_writes_received_and_expected)
{
	static uint8_t buf[8192], again[8192], rd[8192], ex[8192];
	char dir[] = "/tmp/iotrial-verify-XXXXXX", cwd[4096];
	struct verify_ctx v;
	struct verify_result r;
	struct err e;
	size_t i, diff = 0;

	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK(mkdtemp(dir) != NULL);
	CHECK(chdir(dir) == 0);
	CHECK(verify_init(&v, VERIFY_CRC32C, 4096, 0, NULL, 0, 99, &e) == 0);
	v.dump = 1;
	memset(buf, 0, sizeof(buf));
	verify_fill(&v, buf, sizeof(buf), 1 << 16);
	verify_fill(&v, again, sizeof(again), 1 << 16);
	CHECK(memcmp(buf, again, sizeof(buf)) == 0);
	CHECK(buf[4096 + 1000] != 0 || buf[4096 + 1001] != 0);	/* data filled, not left */
	CHECK(memcmp(buf + 64, buf + 4096 + 64, 4000) != 0);	/* per offset */
	memset(&r, 0, sizeof(r));
	CHECK(verify_check(&v, buf, sizeof(buf), 1 << 16, "/some/dir/vf", &r) == 0);
	buf[4096 + 100] ^= 0xff;
	CHECK(verify_check(&v, buf, sizeof(buf), 1 << 16, "/some/dir/vf", &r) == -EILSEQ);
	CHECK(strstr(r.fail_msg, "; received data dumped as vf.69632.received, expected data "
			       "dumped as vf.69632.expected") != NULL);
	CHECK_EQ_U(slurp("vf.69632.received", rd, sizeof(rd)), 4096);
	CHECK_EQ_U(slurp("vf.69632.expected", ex, sizeof(ex)), 4096);
	CHECK(memcmp(rd, buf + 4096, 4096) == 0);
	CHECK(memcmp(ex, again + 4096, 4096) == 0);
	for (i = 0; i < 4096; i++)
		diff += rd[i] != ex[i];
	CHECK_EQ_U(diff, 1);
	unlink("vf.69632.received");
	unlink("vf.69632.expected");
	/* off: nothing dumped */
	v.dump = 0;
	memset(&r, 0, sizeof(r));
	CHECK(verify_check(&v, buf, sizeof(buf), 1 << 16, "vf", &r) == -EILSEQ);
	CHECK(strstr(r.fail_msg, "dumped") == NULL);
	CHECK(access("vf.69632.received", F_OK) != 0);
	CHECK(chdir(cwd) == 0);
	CHECK(rmdir(dir) == 0);
}

int main(void)
{
	RUN(crc32c_vectors);
	RUN(every_method_round_trips_and_catches_a_flip);
	RUN(headers_name_what_is_wrong);
	RUN(crc64_check_value);
	RUN(meta_checks_header_and_pattern);
	RUN(dump_writes_received_and_expected);
	return CHECK_DONE();
}
