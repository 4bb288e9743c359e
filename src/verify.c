/*
 * verify: headers, checksums and the read-back pass (see verify.h).
 */
#include "verify.h"

#include <errno.h>	/* EINVAL, EILSEQ, EIO */
#include <inttypes.h>	/* PRIx64 */
#include <nettle/md5.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <stdio.h>	/* snprintf */
#include <string.h>	/* memcpy, memcmp, strcmp */
#include <unistd.h>	/* pread */
#include <xxhash.h>	/* XXH32 */
#include <zlib.h>	/* crc32 */

#define VERIFY_MAGIC 0xaccau

static const struct { const char *name; enum verify_method m; } verify_names[] = {
	{ "md5", VERIFY_MD5 }, { "crc32c", VERIFY_CRC32C }, { "crc32c-intel", VERIFY_CRC32C },
	{ "crc32", VERIFY_CRC32 }, { "sha1", VERIFY_SHA1 }, { "sha256", VERIFY_SHA256 },
	{ "sha512", VERIFY_SHA512 }, { "xxhash", VERIFY_XXHASH }, { "pattern", VERIFY_PATTERN },
};

int verify_method_parse(const char *name, enum verify_method *m)
{
	size_t i;

	for (i = 0; i < sizeof(verify_names) / sizeof(verify_names[0]); i++) {
		if (!strcmp(verify_names[i].name, name)) {
			*m = verify_names[i].m;
			return 0;
		}
	}
	return -EINVAL;
}

const char *verify_method_name(enum verify_method m)
{
	size_t i;

	for (i = 0; i < sizeof(verify_names) / sizeof(verify_names[0]); i++)
		if (verify_names[i].m == m)
			return verify_names[i].name;
	return "none";
}

size_t verify_csum_size(enum verify_method m)
{
	switch (m) {
	case VERIFY_MD5: return MD5_DIGEST_SIZE;
	case VERIFY_SHA1: return SHA1_DIGEST_SIZE;
	case VERIFY_SHA256: return SHA256_DIGEST_SIZE;
	case VERIFY_SHA512: return SHA512_DIGEST_SIZE;
	case VERIFY_CRC32C:
	case VERIFY_CRC32:
	case VERIFY_XXHASH: return 4;
	default: return 0;
	}
}

/* Castagnoli, reflected polynomial 0x82f63b78, one table of 256. */
uint32_t verify_crc32c(uint32_t crc, const void *buf, size_t len)
{
	static uint32_t table[256];
	static int ready;	/* benign race: every thread computes the same table */
	const uint8_t *p = buf;
	uint32_t c;
	int i, k;

	if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
		for (i = 0; i < 256; i++) {
			c = (uint32_t)i;
			for (k = 0; k < 8; k++)
				c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
			table[i] = c;
		}
		__atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
	}
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* The checksum of an interval: header bytes 0..27, then the data after the sum. */
static void csum(enum verify_method m, const uint8_t *iv, uint32_t len, uint8_t *out)
{
	size_t cs = verify_csum_size(m), skip = VERIFY_HDR_SIZE + cs;
	const uint8_t *data = iv + skip;
	size_t dlen = len - skip;
	uint32_t v;

	switch (m) {
	case VERIFY_MD5: {
		struct md5_ctx c;

		md5_init(&c);
		md5_update(&c, 28, iv);
		md5_update(&c, dlen, data);
		md5_digest(&c, MD5_DIGEST_SIZE, out);
		return;
	}
	case VERIFY_SHA1: {
		struct sha1_ctx c;

		sha1_init(&c);
		sha1_update(&c, 28, iv);
		sha1_update(&c, dlen, data);
		sha1_digest(&c, SHA1_DIGEST_SIZE, out);
		return;
	}
	case VERIFY_SHA256: {
		struct sha256_ctx c;

		sha256_init(&c);
		sha256_update(&c, 28, iv);
		sha256_update(&c, dlen, data);
		sha256_digest(&c, SHA256_DIGEST_SIZE, out);
		return;
	}
	case VERIFY_SHA512: {
		struct sha512_ctx c;

		sha512_init(&c);
		sha512_update(&c, 28, iv);
		sha512_update(&c, dlen, data);
		sha512_digest(&c, SHA512_DIGEST_SIZE, out);
		return;
	}
	case VERIFY_CRC32C:
		v = verify_crc32c(verify_crc32c(0, iv, 28), data, dlen);
		break;
	case VERIFY_CRC32:
		v = (uint32_t)crc32(crc32(0L, iv, 28), data, (uInt)dlen);
		break;
	case VERIFY_XXHASH: {
		XXH32_state_t *st = XXH32_createState();	/* verify path, not per I/O in fio either */

		if (!st) {
			v = 0;
			break;
		}
		XXH32_reset(st, 1);
		XXH32_update(st, iv, 28);
		XXH32_update(st, data, dlen);
		v = XXH32_digest(st);
		XXH32_freeState(st);
		break;
	}
	default:
		return;
	}
	put32(out, v);
}

int verify_init(struct verify_ctx *v, enum verify_method method, uint32_t bs, uint32_t interval,
		const uint8_t *pattern, unsigned pattern_len, uint64_t seed, struct err *e)
{
	memset(v, 0, sizeof(*v));
	v->method = method;
	v->bs = bs;
	v->interval = interval ? interval : bs;
	v->seed = seed;
	if (pattern_len > VERIFY_PATTERN_MAX)
		pattern_len = VERIFY_PATTERN_MAX;
	if (pattern && pattern_len) {
		memcpy(v->pattern, pattern, pattern_len);
		v->pattern_len = pattern_len;
	}
	if (method == VERIFY_PATTERN && !v->pattern_len)
		return err_set(e, -EINVAL, EXIT_USAGE, "verify=pattern needs verify_pattern");
	if (!bs || v->interval > bs || bs % v->interval)
		return err_set(e, -EINVAL, EXIT_USAGE, "verify_interval %u does not divide bs %u",
			       v->interval, bs);
	if (method != VERIFY_PATTERN && v->interval < VERIFY_HDR_SIZE + verify_csum_size(method))
		return err_set(e, -EINVAL, EXIT_USAGE,
			       "verify_interval %u cannot hold a %zu-byte %s header", v->interval,
			       VERIFY_HDR_SIZE + verify_csum_size(method), verify_method_name(method));
	return 0;
}

static void fill_pattern(const struct verify_ctx *v, uint8_t *p, uint32_t len)
{
	uint32_t i, n;

	for (i = 0; i < len; i += n) {
		n = len - i < v->pattern_len ? len - i : v->pattern_len;
		memcpy(p + i, v->pattern, n);
	}
}

void verify_fill(struct verify_ctx *v, void *buf, uint32_t len, uint64_t offset)
{
	uint8_t *p = buf;
	uint32_t i;

	if (v->method == VERIFY_PATTERN) {
		fill_pattern(v, p, len);
		return;
	}
	for (i = 0; i + v->interval <= len; i += v->interval) {
		uint8_t *iv = p + i;

		if (v->pattern_len)
			fill_pattern(v, iv, v->interval);
		memset(iv, 0, VERIFY_HDR_SIZE);
		iv[0] = VERIFY_MAGIC & 0xff;
		iv[1] = VERIFY_MAGIC >> 8;
		iv[2] = (uint8_t)v->method;
		put32(iv + 4, v->interval);
		put64(iv + 8, offset + i);
		put64(iv + 16, v->seed);
		put32(iv + 24, verify_crc32c(0, iv, 24));
		csum(v->method, iv, v->interval, iv + VERIFY_HDR_SIZE);
	}
}

static void hex(const uint8_t *p, size_t n, char *out, size_t out_len)
{
	size_t i;

	for (i = 0; i < n && 2 * i + 2 < out_len; i++)
		snprintf(out + 2 * i, 3, "%02x", p[i]);
}

static int fail(struct verify_result *r, uint64_t off, const char *path, const char *what,
		const char *exp, const char *got)
{
	r->failures++;
	r->fail_offset = off;
	snprintf(r->fail_msg, sizeof(r->fail_msg), "%.40s at offset %llu in %.200s: expected %.130s, found %.130s",
		 what, (unsigned long long)off, path, exp, got);
	return -EILSEQ;
}

int verify_check(const struct verify_ctx *v, const void *buf, uint32_t len, uint64_t offset,
		 const char *path, struct verify_result *r)
{
	const uint8_t *p = buf;
	uint8_t want[64];
	char a[140], b[140];
	uint32_t i, k;

	for (i = 0; i + v->interval <= len; i += v->interval) {
		const uint8_t *iv = p + i;
		uint64_t off = offset + i;
		size_t cs = verify_csum_size(v->method);

		if (v->method == VERIFY_PATTERN) {
			for (k = 0; k < v->interval; k++) {
				if (iv[k] != v->pattern[k % v->pattern_len]) {
					snprintf(a, sizeof(a), "0x%02x", v->pattern[k % v->pattern_len]);
					snprintf(b, sizeof(b), "0x%02x", iv[k]);
					return fail(r, off + k, path, "pattern mismatch", a, b);
				}
			}
		} else {
			if (iv[0] != (VERIFY_MAGIC & 0xff) || iv[1] != VERIFY_MAGIC >> 8) {
				snprintf(b, sizeof(b), "0x%02x%02x", iv[1], iv[0]);
				return fail(r, off, path, "bad header magic", "0xacca", b);
			}
			if (get32(iv + 24) != verify_crc32c(0, iv, 24)) {
				snprintf(a, sizeof(a), "0x%08x", verify_crc32c(0, iv, 24));
				snprintf(b, sizeof(b), "0x%08x", get32(iv + 24));
				return fail(r, off, path, "header crc32c mismatch", a, b);
			}
			if (get64(iv + 8) != off || get32(iv + 4) != v->interval || iv[2] != v->method) {
				snprintf(a, sizeof(a), "offset %llu, length %u, %s", (unsigned long long)off,
					 v->interval, verify_method_name(v->method));
				snprintf(b, sizeof(b), "offset %llu, length %u, %s",
					 (unsigned long long)get64(iv + 8), get32(iv + 4),
					 verify_method_name((enum verify_method)iv[2]));
				return fail(r, off, path, "header for another block", a, b);
			}
			csum(v->method, iv, v->interval, want);
			if (memcmp(want, iv + VERIFY_HDR_SIZE, cs)) {
				char what[32];

				hex(want, cs, a, sizeof(a));
				hex(iv + VERIFY_HDR_SIZE, cs, b, sizeof(b));
				snprintf(what, sizeof(what), "%s mismatch", verify_method_name(v->method));
				return fail(r, off, path, what, a, b);
			}
		}
		r->blocks++;
		r->bytes += v->interval;
	}
	return 0;
}

int verify_pass(const struct verify_ctx *v, int fd, const char *path, uint64_t start,
		uint64_t end, void *buf, uint64_t buf_len, struct verify_result *r)
{
	uint64_t chunk = buf_len / v->bs * v->bs, off, n;
	ssize_t got;
	int ret;

	if (!chunk)
		return -EINVAL;
	for (off = start; off + v->bs <= end; off += n) {
		n = end - off < chunk ? (end - off) / v->bs * v->bs : chunk;
		got = pread(fd, buf, n, (off_t)off);
		if (got < 0) {
			r->failures++;
			r->fail_offset = off;
			snprintf(r->fail_msg, sizeof(r->fail_msg), "read at offset %llu in %.200s failed: %s",
				 (unsigned long long)off, path, strerror(errno));
			return -errno;
		}
		if ((uint64_t)got < n) {
			char a[32], b[32];

			snprintf(a, sizeof(a), "%llu bytes", (unsigned long long)n);
			snprintf(b, sizeof(b), "%lld", (long long)got);
			return fail(r, off + (uint64_t)got, path, "short read", a, b);
		}
		ret = verify_check(v, buf, (uint32_t)n, off, path, r);
		if (ret)
			return ret;
	}
	return 0;
}
