/* verify: crc32c against RFC 3720's vectors, stamping and checking every
 * method, and the messages a corruption gives. */
#include "check.h"
#include "io/verify.h"

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
		CHECK_EQ_U(r.blocks, 4);	/* checked: three good, the bad one */
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
/*
 * Zone appends: the device picks the block's place in its zone after it was
 * stamped, so the header carries the zone's start and the check takes the
 * block anywhere in that zone, never in another; the data is still checked.
 */
TEST(zone_append_headers_carry_the_zone)
{
	static uint8_t buf[8192];
	struct verify_ctx v;
	struct verify_result r;
	struct err e;

	CHECK(verify_init(&v, VERIFY_CRC32C, 8192, 4096, NULL, 0, 1, &e) == 0);
	/* without hdr_zone a block read back 16 KiB from where it was planned is wrong */
	verify_fill(&v, buf, sizeof(buf), (1u << 20) + 8192);
	memset(&r, 0, sizeof(r));
	CHECK(verify_check(&v, buf, sizeof(buf), (1u << 20) + 24576, "f", &r) == -EILSEQ);
	v.hdr_zone = 1u << 20;
	verify_fill(&v, buf, sizeof(buf), (1u << 20) + 8192);
	memset(&r, 0, sizeof(r));
	CHECK(verify_check(&v, buf, sizeof(buf), (1u << 20) + 24576, "f", &r) == 0);
	CHECK_EQ_U(r.blocks, 2);		/* both intervals */
	/* the next zone: its header names another zone */
	memset(&r, 0, sizeof(r));
	CHECK(verify_check(&v, buf, sizeof(buf), 2u << 20, "f", &r) == -EILSEQ);
	CHECK(strstr(r.fail_msg, "expected offset 2097152, length 4096, crc32c, found offset "
			       "1048576") != NULL);
	/* a data byte flipped is still found */
	buf[5000] ^= 1;
	memset(&r, 0, sizeof(r));
	CHECK(verify_check(&v, buf, sizeof(buf), (1u << 20) + 24576, "f", &r) == -EILSEQ);
	CHECK(strstr(r.fail_msg, "crc32c mismatch") != NULL);
}

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

/* One method of the scan: its name, verify_pattern (or NULL), whether data bytes are checked. */
struct scan_case {
	const char *method;
	const char *pattern;
	int data_checked;
};

/*
 * Every byte of a 4 KiB block, flipped alone (all bits, then the lowest),
 * for every method and two interval sizes: each flip must fail in the
 * interval that holds it, except verify=meta's data bytes without a pattern,
 * which meta does not check (fio's meta does not either).  A header byte that
 * no check covers (bytes 28-31 were such) fails here.
 */
TEST(every_byte_of_every_method_is_checked)
{
	static const struct scan_case cases[] = {
		{ "md5", NULL, 1 }, { "crc32c", NULL, 1 }, { "crc32", NULL, 1 },
		{ "sha1", NULL, 1 }, { "sha256", NULL, 1 }, { "sha512", NULL, 1 },
		{ "xxhash", NULL, 1 }, { "crc64", NULL, 1 }, { "meta", NULL, 0 },
		{ "meta", "abc", 1 }, { "pattern", "\x5a\xa5\x01", 1 },
	};
	static const uint8_t masks[] = { 0xff, 0x01 };
	static uint8_t good[4096], buf[4096];
	static const uint32_t intervals[] = { 4096, 512 };
	const uint64_t base = 1ull << 30;
	struct verify_ctx v;
	struct verify_result r;
	struct err e;
	enum verify_method m;
	size_t c, n, k;
	uint32_t p;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
		for (n = 0; n < 2; n++) {
			const struct scan_case *sc = &cases[c];
			uint32_t iv = intervals[n], missed = 0, wrong = 0;

			CHECK(verify_method_parse(sc->method, &m) == 0);
			CHECK(verify_init(&v, m, 4096, iv, (const uint8_t *)sc->pattern,
					  sc->pattern ? (unsigned)strlen(sc->pattern) : 0, 99, &e) == 0);
			for (p = 0; p < sizeof(good); p++)
				good[p] = (uint8_t)(p * 7 + 3);
			verify_fill(&v, good, sizeof(good), base);
			memset(&r, 0, sizeof(r));
			CHECK(verify_check(&v, good, sizeof(good), base, "f", &r) == 0);
			for (p = 0; p < sizeof(good); p++)
				for (k = 0; k < sizeof(masks); k++) {
					int ret, want = sc->data_checked || p % iv < VERIFY_HDR_SIZE;

					memcpy(buf, good, sizeof(buf));
					buf[p] ^= masks[k];
					memset(&r, 0, sizeof(r));
					ret = verify_check(&v, buf, sizeof(buf), base, "f", &r);
					if (want && ret != -EILSEQ)
						missed++;
					else if (!want && ret)
						wrong++;
					/* named in its own interval: the interval, or the byte for a pattern */
					else if (want && (r.fail_offset < base + p / iv * iv ||
							  r.fail_offset > base + p))
						wrong++;
				}
			if (missed || wrong)
				printf("  %s interval %u: %u flips missed, %u misreported\n", sc->method, iv,
				       missed, wrong);
			CHECK_EQ_U(missed, 0);
			CHECK_EQ_U(wrong, 0);
		}
}

struct fails_seen {
	uint64_t off[8];
	unsigned n;
};

static void note_fail(void *arg, uint64_t offset, const char *msg)
{
	struct fails_seen *f = arg;

	(void)msg;
	if (f->n < 8)
		f->off[f->n] = offset;
	f->n++;
}

/* continue_on_error=verify: every bad interval counted and reported, the first kept. */
TEST(keep_going_reports_every_bad_interval)
{
	static uint8_t buf[8192];
	struct fails_seen seen = { { 0 }, 0 };
	struct verify_ctx v;
	struct verify_result r;
	struct err e;

	CHECK(verify_init(&v, VERIFY_MD5, 8192, 1024, NULL, 0, 5, &e) == 0);
	memset(buf, 0x33, sizeof(buf));
	verify_fill(&v, buf, sizeof(buf), 0);
	buf[1024 + 29] ^= 0x10;		/* the reserved header word of interval 1 */
	buf[5 * 1024 + 900] ^= 0x10;	/* data of interval 5 */
	v.keep_going = 1;
	v.on_fail = note_fail;
	v.on_fail_arg = &seen;
	memset(&r, 0, sizeof(r));
	CHECK(verify_check(&v, buf, sizeof(buf), 0, "f", &r) == 0);
	CHECK_EQ_U(r.failures, 2);
	CHECK_EQ_U(r.blocks, 8);
	CHECK_EQ_U(r.fail_offset, 1024);
	CHECK(strstr(r.fail_msg, "header byte mismatch at offset 1024 in f: expected 0x00 at header "
			 "byte 29, found 0x10") != NULL);
	CHECK_EQ_U(seen.n, 2);
	CHECK_EQ_U(seen.off[0], 1024);
	CHECK_EQ_U(seen.off[1], 5 * 1024);
	/* without keep_going the first ends the check */
	v.keep_going = 0;
	memset(&r, 0, sizeof(r));
	CHECK(verify_check(&v, buf, sizeof(buf), 0, "f", &r) == -EILSEQ);
	CHECK_EQ_U(r.failures, 1);
	CHECK_EQ_U(r.blocks, 2);
}

int main(void)
{
	RUN(crc32c_vectors);
	RUN(every_method_round_trips_and_catches_a_flip);
	RUN(headers_name_what_is_wrong);
	RUN(crc64_check_value);
	RUN(meta_checks_header_and_pattern);
	RUN(zone_append_headers_carry_the_zone);
	RUN(dump_writes_received_and_expected);
	RUN(every_byte_of_every_method_is_checked);
	RUN(keep_going_reports_every_bad_interval);
	return CHECK_DONE();
}
