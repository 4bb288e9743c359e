/*
 * verify: headers, checksums and the read-back pass (see verify.h).
 */
#include "io/verify.h"

#include <errno.h>	/* EINVAL, EILSEQ, EIO */
#include <fcntl.h>	/* open */
#include <inttypes.h>	/* PRIx64 */
#include <nettle/md5.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* malloc, free */
#include <string.h>	/* memcpy, memcmp, strcmp */
#include <unistd.h>	/* write, close */
#define XXH_STATIC_LINKING_ONLY	/* XXH32_state_t on the stack */
#include <xxhash.h>	/* XXH32 */
#include <zlib.h>	/* crc32 */

#define VERIFY_MAGIC 0xaccau

static const struct { const char *name; enum verify_method m; } verify_names[] = {
	{ "md5", VERIFY_MD5 }, { "crc32c", VERIFY_CRC32C }, { "crc32c-intel", VERIFY_CRC32C },
	{ "crc32", VERIFY_CRC32 }, { "sha1", VERIFY_SHA1 }, { "sha256", VERIFY_SHA256 },
	{ "sha512", VERIFY_SHA512 }, { "xxhash", VERIFY_XXHASH }, { "pattern", VERIFY_PATTERN },
	{ "meta", VERIFY_META }, { "crc64", VERIFY_CRC64 },
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

/* Size of @m's checksum in bytes (0 for none and pattern). */
static size_t verify_csum_size(enum verify_method m)
{
	switch (m) {
	case VERIFY_MD5: return MD5_DIGEST_SIZE;
	case VERIFY_SHA1: return SHA1_DIGEST_SIZE;
	case VERIFY_SHA256: return SHA256_DIGEST_SIZE;
	case VERIFY_SHA512: return SHA512_DIGEST_SIZE;
	case VERIFY_CRC32C:
	case VERIFY_CRC32:
	case VERIFY_XXHASH: return 4;
	case VERIFY_CRC64: return 8;
	default: return 0;
	}
}

/*
 * Castagnoli, reflected polynomial 0x82f63b78, one table of 256 entries
 * (entry i is i run through the 8 shift/xor steps); constant, so threads share it.
 */
static const uint32_t crc32c_table[256] = {
	0x00000000u, 0xf26b8303u, 0xe13b70f7u, 0x1350f3f4u, 0xc79a971fu, 0x35f1141cu,
	0x26a1e7e8u, 0xd4ca64ebu, 0x8ad958cfu, 0x78b2dbccu, 0x6be22838u, 0x9989ab3bu,
	0x4d43cfd0u, 0xbf284cd3u, 0xac78bf27u, 0x5e133c24u, 0x105ec76fu, 0xe235446cu,
	0xf165b798u, 0x030e349bu, 0xd7c45070u, 0x25afd373u, 0x36ff2087u, 0xc494a384u,
	0x9a879fa0u, 0x68ec1ca3u, 0x7bbcef57u, 0x89d76c54u, 0x5d1d08bfu, 0xaf768bbcu,
	0xbc267848u, 0x4e4dfb4bu, 0x20bd8edeu, 0xd2d60dddu, 0xc186fe29u, 0x33ed7d2au,
	0xe72719c1u, 0x154c9ac2u, 0x061c6936u, 0xf477ea35u, 0xaa64d611u, 0x580f5512u,
	0x4b5fa6e6u, 0xb93425e5u, 0x6dfe410eu, 0x9f95c20du, 0x8cc531f9u, 0x7eaeb2fau,
	0x30e349b1u, 0xc288cab2u, 0xd1d83946u, 0x23b3ba45u, 0xf779deaeu, 0x05125dadu,
	0x1642ae59u, 0xe4292d5au, 0xba3a117eu, 0x4851927du, 0x5b016189u, 0xa96ae28au,
	0x7da08661u, 0x8fcb0562u, 0x9c9bf696u, 0x6ef07595u, 0x417b1dbcu, 0xb3109ebfu,
	0xa0406d4bu, 0x522bee48u, 0x86e18aa3u, 0x748a09a0u, 0x67dafa54u, 0x95b17957u,
	0xcba24573u, 0x39c9c670u, 0x2a993584u, 0xd8f2b687u, 0x0c38d26cu, 0xfe53516fu,
	0xed03a29bu, 0x1f682198u, 0x5125dad3u, 0xa34e59d0u, 0xb01eaa24u, 0x42752927u,
	0x96bf4dccu, 0x64d4cecfu, 0x77843d3bu, 0x85efbe38u, 0xdbfc821cu, 0x2997011fu,
	0x3ac7f2ebu, 0xc8ac71e8u, 0x1c661503u, 0xee0d9600u, 0xfd5d65f4u, 0x0f36e6f7u,
	0x61c69362u, 0x93ad1061u, 0x80fde395u, 0x72966096u, 0xa65c047du, 0x5437877eu,
	0x4767748au, 0xb50cf789u, 0xeb1fcbadu, 0x197448aeu, 0x0a24bb5au, 0xf84f3859u,
	0x2c855cb2u, 0xdeeedfb1u, 0xcdbe2c45u, 0x3fd5af46u, 0x7198540du, 0x83f3d70eu,
	0x90a324fau, 0x62c8a7f9u, 0xb602c312u, 0x44694011u, 0x5739b3e5u, 0xa55230e6u,
	0xfb410cc2u, 0x092a8fc1u, 0x1a7a7c35u, 0xe811ff36u, 0x3cdb9bddu, 0xceb018deu,
	0xdde0eb2au, 0x2f8b6829u, 0x82f63b78u, 0x709db87bu, 0x63cd4b8fu, 0x91a6c88cu,
	0x456cac67u, 0xb7072f64u, 0xa457dc90u, 0x563c5f93u, 0x082f63b7u, 0xfa44e0b4u,
	0xe9141340u, 0x1b7f9043u, 0xcfb5f4a8u, 0x3dde77abu, 0x2e8e845fu, 0xdce5075cu,
	0x92a8fc17u, 0x60c37f14u, 0x73938ce0u, 0x81f80fe3u, 0x55326b08u, 0xa759e80bu,
	0xb4091bffu, 0x466298fcu, 0x1871a4d8u, 0xea1a27dbu, 0xf94ad42fu, 0x0b21572cu,
	0xdfeb33c7u, 0x2d80b0c4u, 0x3ed04330u, 0xccbbc033u, 0xa24bb5a6u, 0x502036a5u,
	0x4370c551u, 0xb11b4652u, 0x65d122b9u, 0x97baa1bau, 0x84ea524eu, 0x7681d14du,
	0x2892ed69u, 0xdaf96e6au, 0xc9a99d9eu, 0x3bc21e9du, 0xef087a76u, 0x1d63f975u,
	0x0e330a81u, 0xfc588982u, 0xb21572c9u, 0x407ef1cau, 0x532e023eu, 0xa145813du,
	0x758fe5d6u, 0x87e466d5u, 0x94b49521u, 0x66df1622u, 0x38cc2a06u, 0xcaa7a905u,
	0xd9f75af1u, 0x2b9cd9f2u, 0xff56bd19u, 0x0d3d3e1au, 0x1e6dcdeeu, 0xec064eedu,
	0xc38d26c4u, 0x31e6a5c7u, 0x22b65633u, 0xd0ddd530u, 0x0417b1dbu, 0xf67c32d8u,
	0xe52cc12cu, 0x1747422fu, 0x49547e0bu, 0xbb3ffd08u, 0xa86f0efcu, 0x5a048dffu,
	0x8ecee914u, 0x7ca56a17u, 0x6ff599e3u, 0x9d9e1ae0u, 0xd3d3e1abu, 0x21b862a8u,
	0x32e8915cu, 0xc083125fu, 0x144976b4u, 0xe622f5b7u, 0xf5720643u, 0x07198540u,
	0x590ab964u, 0xab613a67u, 0xb831c993u, 0x4a5a4a90u, 0x9e902e7bu, 0x6cfbad78u,
	0x7fab5e8cu, 0x8dc0dd8fu, 0xe330a81au, 0x115b2b19u, 0x020bd8edu, 0xf0605beeu,
	0x24aa3f05u, 0xd6c1bc06u, 0xc5914ff2u, 0x37faccf1u, 0x69e9f0d5u, 0x9b8273d6u,
	0x88d28022u, 0x7ab90321u, 0xae7367cau, 0x5c18e4c9u, 0x4f48173du, 0xbd23943eu,
	0xf36e6f75u, 0x0105ec76u, 0x12551f82u, 0xe03e9c81u, 0x34f4f86au, 0xc69f7b69u,
	0xd5cf889du, 0x27a40b9eu, 0x79b737bau, 0x8bdcb4b9u, 0x988c474du, 0x6ae7c44eu,
	0xbe2da0a5u, 0x4c4623a6u, 0x5f16d052u, 0xad7d5351u,
};

uint32_t verify_crc32c(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	crc = ~crc;
	while (len--)
		crc = crc32c_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

uint64_t verify_crc64(uint64_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t i;
	int k;

	/* bitwise: crc64 is not the default method, and this keeps no table */
	crc = ~crc;
	for (i = 0; i < len; i++) {
		crc ^= p[i];
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xc96c5795d7870f42ull & -(crc & 1));
	}
	return ~crc;
}

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
		XXH32_state_t st;	/* on the stack: this runs per write */

		XXH32_reset(&st, 1);
		XXH32_update(&st, iv, 28);
		XXH32_update(&st, data, dlen);
		v = XXH32_digest(&st);
		break;
	}
	case VERIFY_CRC64:
		put64(out, verify_crc64(verify_crc64(0, iv, 28), data, dlen));
		return;
	default:
		return;
	}
	put32(out, v);
}

/* The interval length in @len bytes: verify_interval, else the job's one bs, else @len (one block). */
static uint32_t verify_iv_len(const struct verify_ctx *v, uint32_t len)
{
	uint32_t iv = v->interval ? v->interval : v->bs;	/* 0: the block, whatever its size */

	return iv && iv < len ? iv : len;
}

int verify_init(struct verify_ctx *v, enum verify_method method, uint32_t bs, uint32_t interval,
		const uint8_t *pattern, unsigned pattern_len, uint64_t seed, struct err *e)
{
	memset(v, 0, sizeof(*v));
	v->method = method;
	v->bs = bs;
	/* an interval past the block is the block, as fio clamps it */
	v->interval = bs && interval > bs ? 0 : interval;
	v->seed = seed;
	if (pattern_len > VERIFY_PATTERN_MAX)
		pattern_len = VERIFY_PATTERN_MAX;
	if (pattern && pattern_len) {
		memcpy(v->pattern, pattern, pattern_len);
		v->pattern_len = pattern_len;
	}
	if (method == VERIFY_PATTERN && !v->pattern_len)
		return err_set(e, -EINVAL, EXIT_USAGE, "verify=pattern needs verify_pattern");
	if (bs && v->interval && bs % v->interval)
		return err_set(e, -EINVAL, EXIT_USAGE, "verify_interval %u does not divide bs %u",
			       v->interval, bs);
	if (method != VERIFY_PATTERN && (v->interval || bs) &&
	    verify_iv_len(v, bs ? bs : UINT32_MAX) < VERIFY_HDR_SIZE + verify_csum_size(method))
		return err_set(e, -EINVAL, EXIT_USAGE,
			       "verify_interval %u cannot hold a %zu-byte %s header",
			       verify_iv_len(v, bs ? bs : UINT32_MAX),
			       VERIFY_HDR_SIZE + verify_csum_size(method), verify_method_name(method));
	return 0;
}

int verify_set_offset(struct verify_ctx *v, uint32_t off, uint32_t min_len, struct err *e)
{
	size_t hdr = VERIFY_HDR_SIZE + verify_csum_size(v->method);

	if (!off)
		return 0;
	if (v->method == VERIFY_PATTERN)	/* no header to move: the pattern fills the block (fio) */
		return 0;
	if ((uint64_t)off + hdr > verify_iv_len(v, min_len))
		return err_set(e, -EINVAL, EXIT_USAGE, "verify_offset %u: the %zu-byte header does not fit "
			       "before the end of a %u-byte interval", off, hdr, verify_iv_len(v, min_len));
	if (off < hdr)	/* the two ranges would overlap: fio refuses this too */
		return err_set(e, -EINVAL, EXIT_USAGE, "verify_offset %u is inside the %zu-byte header", off,
			       hdr);
	v->hdr_off = off;
	return 0;
}

/* verify_offset: exchange the header (and checksum) with the bytes at hdr_off. */
static void hdr_swap(const struct verify_ctx *v, uint8_t *iv)
{
	uint8_t tmp[VERIFY_HDR_SIZE + 64];
	size_t n = VERIFY_HDR_SIZE + verify_csum_size(v->method);

	memcpy(tmp, iv, n);
	memcpy(iv, iv + v->hdr_off, n);
	memcpy(iv + v->hdr_off, tmp, n);
}

static void fill_pattern(const struct verify_ctx *v, uint8_t *p, uint32_t len)
{
	uint32_t i, n;

	for (i = 0; i < len; i += n) {
		n = len - i < v->pattern_len ? len - i : v->pattern_len;
		memcpy(p + i, v->pattern, n);
	}
}

/* The offset a header at @off carries: its zone's start for zone appends (verify_ctx.hdr_zone). */
static inline uint64_t hdr_offset(const struct verify_ctx *v, uint64_t off)
{
	return v->hdr_zone ? off - off % v->hdr_zone : off;
}

/* verify_dump: data bytes that (seed, offset) rebuild, splitmix64's stream. */
static void fill_regen(const struct verify_ctx *v, uint8_t *p, uint32_t len, uint64_t offset)
{
	uint64_t s = v->seed ^ (offset * 0x9e3779b97f4a7c15ull), z;
	uint32_t i;

	for (i = 0; i < len; i += 8) {
		z = (s += 0x9e3779b97f4a7c15ull);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		memcpy(p + i, &z, len - i < 8 ? len - i : 8);
	}
}

/*
 * The header verify_fill writes at the interval at @off, with the data's @seed.
 * verify_check rebuilds it and compares all VERIFY_HDR_SIZE bytes, so no
 * header byte, reserved ones included, can be left out of the check.
 */
static void header_make(const struct verify_ctx *v, uint64_t off, uint32_t iv_len, uint64_t seed,
			uint8_t *h)
{
	memset(h, 0, VERIFY_HDR_SIZE);
	h[0] = VERIFY_MAGIC & 0xff;
	h[1] = VERIFY_MAGIC >> 8;
	h[2] = (uint8_t)v->method;
	put32(h + 4, iv_len);
	put64(h + 8, off);
	put64(h + 16, seed);
	put32(h + 24, verify_crc32c(0, h, 24));
}

void verify_fill(const struct verify_ctx *v, void *buf, uint32_t len, uint64_t offset)
{
	uint8_t *p = buf;
	uint32_t i, n = verify_iv_len(v, len);

	if (v->method == VERIFY_PATTERN) {
		fill_pattern(v, p, len);
		return;
	}
	for (i = 0; i + n <= len; i += n) {
		uint8_t *iv = p + i;

		if (v->pattern_len)
			fill_pattern(v, iv, n);
		else if (v->dump)
			fill_regen(v, iv, n, hdr_offset(v, offset + i));
		header_make(v, hdr_offset(v, offset + i), n, v->seed, iv);
		csum(v->method, iv, n, iv + VERIFY_HDR_SIZE);
		if (v->hdr_off)
			hdr_swap(v, iv);
	}
}

static void hex(const uint8_t *p, size_t n, char *out, size_t out_len)
{
	size_t i;

	for (i = 0; i < n && 2 * i + 2 < out_len; i++)
		snprintf(out + 2 * i, 3, "%02x", p[i]);
}

/* The text of one failure: what, where, what was expected and what was found. */
static void fail_text(char *msg, size_t n, uint64_t off, const char *path, const char *what,
		      const char *exp, const char *got)
{
	snprintf(msg, n, "%.40s at offset %llu in %.200s: expected %.130s, found %.130s",
		 what, (unsigned long long)off, path, exp, got);
}

/* Write @len bytes of @data to the new file @name.  0 or -errno. */
static int dump_file(const char *name, const void *data, uint32_t len)
{
	int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), ret = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, data, len);
	if (n != (ssize_t)len)
		ret = n < 0 ? -errno : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/*
 * verify_dump: write the interval @got read at @iv_off of @path, and what was
 * expected there, to "<basename of path>.<iv_off>.received" and ".expected"
 * in the current directory.  Appends what it did to @r->fail_msg.  0 or -errno.
 */
static int verify_dump_interval(const struct verify_ctx *v, const void *got, uint64_t iv_off,
				uint32_t iv_len, const char *path, struct verify_result *r)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char rname[300], ename[300];
	size_t used = strlen(r->fail_msg);
	uint8_t *want = malloc(iv_len);	/* once, on the failure path */
	int ret;

	if (!want)
		return -ENOMEM;
	/* the interval as it was written: verify_fill is a function of (seed, offset) */
	verify_fill(v, want, iv_len, iv_off);
	if (v->hdr_off)	/* compared as checked: the header back in its place */
		hdr_swap(v, want);
	snprintf(rname, sizeof(rname), "%.250s%s%.250s.%llu.received", v->dump_dir ? v->dump_dir : "",
		 v->dump_dir ? "/" : "", base, (unsigned long long)iv_off);
	snprintf(ename, sizeof(ename), "%.250s%s%.250s.%llu.expected", v->dump_dir ? v->dump_dir : "",
		 v->dump_dir ? "/" : "", base, (unsigned long long)iv_off);
	ret = dump_file(rname, got, iv_len);
	if (!ret)
		ret = dump_file(ename, want, iv_len);
	free(want);
	if (ret)
		snprintf(r->fail_msg + used, sizeof(r->fail_msg) - used, "; dump failed: %s",
			 strerror(-ret));
	else
		snprintf(r->fail_msg + used, sizeof(r->fail_msg) - used,
			 "; received data dumped as %s, expected data dumped as %s", rname, ename);
	return ret;
}

/*
 * A bad interval @iv at @iv_off, described by @msg (failure at byte offset
 * @off): dumped with verify_dump, counted, the first kept in @r, handed to
 * on_fail.  -EILSEQ, or 0 when keep_going lets the check go on.
 */
static int failed(const struct verify_ctx *v, const uint8_t *iv, uint64_t iv_off, uint32_t iv_len,
		  uint64_t off, const char *path, struct verify_result *r, const char *msg)
{
	struct verify_result one = { .method = v->method };

	snprintf(one.fail_msg, sizeof(one.fail_msg), "%s", msg);
	if (v->dump)
		verify_dump_interval(v, iv, iv_off, iv_len, path, &one);	/* its error is in the message */
	if (!r->failures++) {
		r->fail_offset = off;
		memcpy(r->fail_msg, one.fail_msg, sizeof(r->fail_msg));
	}
	if (v->on_fail)
		v->on_fail(v->on_fail_arg, off, one.fail_msg);
	return v->keep_going ? 0 : -EILSEQ;
}

/*
 * What is wrong with the header at @iv (interval offset @off), in @msg, or 0
 * when it is the header verify_fill wrote.  The checks that name a cause come
 * first; the last compares every byte with the rebuilt header.
 */
static int header_bad(const struct verify_ctx *v, const uint8_t *iv, uint64_t off, uint32_t iv_len,
		      const char *path, char *msg, size_t n)
{
	uint8_t want[VERIFY_HDR_SIZE];
	char a[140], b[140];
	unsigned k;
	uint64_t hoff = hdr_offset(v, off);

	if (iv[0] != (VERIFY_MAGIC & 0xff) || iv[1] != VERIFY_MAGIC >> 8) {
		snprintf(b, sizeof(b), "0x%02x%02x", iv[1], iv[0]);
		fail_text(msg, n, off, path, "bad header magic", "0xacca", b);
		return 1;
	}
	if (get32(iv + 24) != verify_crc32c(0, iv, 24)) {
		snprintf(a, sizeof(a), "0x%08x", verify_crc32c(0, iv, 24));
		snprintf(b, sizeof(b), "0x%08x", get32(iv + 24));
		fail_text(msg, n, off, path, "header crc32c mismatch", a, b);
		return 1;
	}
	if (get64(iv + 8) != hoff || get32(iv + 4) != iv_len || iv[2] != v->method) {
		snprintf(a, sizeof(a), "offset %llu, length %u, %s", (unsigned long long)hoff,
			 iv_len, verify_method_name(v->method));
		snprintf(b, sizeof(b), "offset %llu, length %u, %s",
			 (unsigned long long)get64(iv + 8), get32(iv + 4),
			 verify_method_name((enum verify_method)iv[2]));
		fail_text(msg, n, off, path, "header for another block", a, b);
		return 1;
	}
	/* the seed is the writer's: taken as found, it is covered by the header crc */
	header_make(v, hoff, iv_len, get64(iv + 16), want);
	for (k = 0; k < VERIFY_HDR_SIZE; k++)
		if (iv[k] != want[k]) {
			snprintf(a, sizeof(a), "0x%02x at header byte %u", want[k], k);
			snprintf(b, sizeof(b), "0x%02x", iv[k]);
			fail_text(msg, n, off, path, "header byte mismatch", a, b);
			return 1;
		}
	return 0;
}

int verify_check(const struct verify_ctx *v, void *buf, uint32_t len, uint64_t offset,
		 const char *path, struct verify_result *r)
{
	uint8_t *p = buf;
	uint8_t want[64];
	char a[140], b[140], msg[sizeof(r->fail_msg)];
	uint32_t i, k, n = verify_iv_len(v, len);
	int ret;

	for (i = 0; i + n <= len; i += n) {
		uint8_t *iv = p + i;
		uint64_t off = offset + i, bad = UINT64_MAX;
		size_t cs = verify_csum_size(v->method);

		if (v->hdr_off)	/* verify_offset: the header back in its place (undone below) */
			hdr_swap(v, iv);
		if (v->method == VERIFY_PATTERN || (v->method == VERIFY_META && v->pattern_len)) {
			/*
			 * pattern: every byte, the pattern running on from the block's
			 * start (verify_fill fills whole blocks; @buf starts one);
			 * meta: the header, then the pattern again after it (per interval)
			 */
			uint32_t at = v->method == VERIFY_META ? 0 : i;

			k = v->method == VERIFY_META ? VERIFY_HDR_SIZE : 0;
			if (k && header_bad(v, iv, off, n, path, msg, sizeof(msg)))
				bad = off;
			for (; bad == UINT64_MAX && k < n; k++)
				if (iv[k] != v->pattern[(at + k) % v->pattern_len]) {
					snprintf(a, sizeof(a), "0x%02x", v->pattern[(at + k) % v->pattern_len]);
					snprintf(b, sizeof(b), "0x%02x", iv[k]);
					fail_text(msg, sizeof(msg), off + k, path, "pattern mismatch", a, b);
					bad = off + k;
				}
		} else if (header_bad(v, iv, off, n, path, msg, sizeof(msg))) {
			bad = off;
		} else if (v->method != VERIFY_META) {	/* meta alone: the header only, as fio */
			csum(v->method, iv, n, want);
			if (memcmp(want, iv + VERIFY_HDR_SIZE, cs)) {
				char what[32];

				hex(want, cs, a, sizeof(a));
				hex(iv + VERIFY_HDR_SIZE, cs, b, sizeof(b));
				snprintf(what, sizeof(what), "%s mismatch", verify_method_name(v->method));
				fail_text(msg, sizeof(msg), off, path, what, a, b);
				bad = off;
			}
		}
		r->blocks++;		/* checked, good or bad */
		r->bytes += n;
		ret = bad != UINT64_MAX ? failed(v, iv, off, n, bad, path, r, msg) : 0;
		if (v->hdr_off)
			hdr_swap(v, iv);
		if (ret)
			return ret;
	}
	return 0;
}

int verify_block(const struct verify_ctx *v, int64_t got, void *buf, uint32_t len, uint64_t off,
		 const char *path, struct verify_result *r)
{
	if (got < 0) {
		r->failures++;
		r->fail_offset = off;
		snprintf(r->fail_msg, sizeof(r->fail_msg), "read at offset %llu in %.200s failed: %s",
			 (unsigned long long)off, path, strerror((int)-got));
		return (int)got;
	}
	if ((uint64_t)got < len) {	/* the file ends early: the rest cannot be checked */
		char a[32], b[32];

		snprintf(a, sizeof(a), "%u bytes", len);
		snprintf(b, sizeof(b), "%lld", (long long)got);
		if (!r->failures++) {
			r->fail_offset = off + (uint64_t)got;
			fail_text(r->fail_msg, sizeof(r->fail_msg), r->fail_offset, path, "short read", a, b);
		}
		return -EILSEQ;
	}
	return verify_check(v, buf, len, off, path, r);
}
