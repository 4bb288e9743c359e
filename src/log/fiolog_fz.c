/*
 * fiolog_fz: fio's compressed logs (log_store_compressed, --inflate-log);
 * the format is in fiolog_fz.h.
 */
#include "log/fiolog_fz.h"

#include <errno.h>	/* ENOMEM, EIO, EINVAL */
#include <stdlib.h>	/* malloc, free */
#include <string.h>	/* memcpy, strerror */
#include <zlib.h>
#include "lib/readfile.h"	/* readfile_all */

#define FZ_MAX_FILE (1ull << 32)	/* --inflate-log reads at most 4 GiB */

static void put_le(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* One record as fio's sample; returns its size (32 or 40). */
static size_t fz_pack(const struct fiolog_fz_fmt *fmt, const struct fiolog_rec *r,
		      unsigned char *p)
{
	/* a window's value is its mean, or with log_window_value=max its max */
	uint64_t val = fmt->windowed && fmt->window_max ? r->aux : r->val;
	uint32_t ddir = r->ddir | (fmt->offset ? FIOLOG_FZ_OFFSET : 0) |
			(fmt->prio ? FIOLOG_FZ_PRIO : 0);

	memset(p, 0, fmt->offset ? 40 : 32);	/* the sample's own size: the last one ends the buffer */
	put_le(p, r->t_ms, 8);
	put_le(p + 8, val, 8);
	put_le(p + 16, ddir, 4);
	put_le(p + 20, r->prio, 2);
	put_le(p + 24, r->bs, 8);
	if (!fmt->offset)
		return 32;
	put_le(p + 32, fmt->windowed ? 0 : r->aux, 8);
	return 40;
}

/* Deflate @len bytes at @in as one zlib stream onto @f.  0 or -errno. */
static int fz_stream(FILE *f, const unsigned char *in, size_t len)
{
	uLongf out_len = compressBound((uLong)len);
	unsigned char *out = malloc(out_len);
	int r = 0;

	if (!out)
		return -ENOMEM;
	if (compress2(out, &out_len, in, (uLong)len, Z_DEFAULT_COMPRESSION) != Z_OK)
		r = -ENOMEM;
	else if (fwrite(out, 1, out_len, f) != out_len)
		r = -EIO;
	free(out);
	return r;
}

int fiolog_fz_write(const struct fiolog_rec *r, size_t n, const struct fiolog_fz_fmt *fmt,
		    FILE *f, uint64_t chunk, const char *path, struct err *e)
{
	size_t per = fmt->offset ? 40 : 32, each, i = 0;
	unsigned char *buf;
	int ret = 0;

	/* samples per stream: a chunk's worth, at least one; bounded buffers */
	each = chunk ? (size_t)(chunk / per) : n;
	if (!each)
		each = 1;
	if (each > (64u << 20) / per)
		each = (64u << 20) / per;
	buf = malloc((each ? each : 1) * per);
	if (!buf)
		return err_set(e, -ENOMEM, EXIT_OUTPUT, "%s: out of memory compressing the log", path);
	do {	/* an empty log is one empty stream, as fio writes it */
		size_t m = n - i < each ? n - i : each, len = 0;

		for (size_t q = 0; q < m; q++)
			len += fz_pack(fmt, &r[i + q], buf + len);
		ret = fz_stream(f, buf, len);
		i += m;
	} while (!ret && i < n);
	free(buf);
	if (ret)
		return err_set(e, ret, EXIT_OUTPUT, "%s: write failed: %s", path, strerror(-ret));
	return 0;
}

/* Print the samples of @len inflated bytes as fio's text lines. */
static void fz_print(const unsigned char *p, size_t len, FILE *out)
{
	size_t per;

	if (len < 32)
		return;
	per = get_le(p + 16, 4) & FIOLOG_FZ_OFFSET ? 40 : 32;
	for (; len >= per; p += per, len -= per) {
		uint32_t ddir = (uint32_t)get_le(p + 16, 4);
		unsigned prio = (unsigned)get_le(p + 20, 2);

		fprintf(out, "%llu, %llu, %u, %llu", (unsigned long long)get_le(p, 8),
			(unsigned long long)get_le(p + 8, 8),
			ddir & ~(FIOLOG_FZ_OFFSET | FIOLOG_FZ_PRIO),
			(unsigned long long)get_le(p + 24, 8));
		if (per == 40)
			fprintf(out, ", %llu", (unsigned long long)get_le(p + 32, 8));
		if (ddir & FIOLOG_FZ_PRIO)
			fprintf(out, ", 0x%04x\n", prio);
		else
			fprintf(out, ", %d\n", (prio >> 13) == 1);
	}
}

int fiolog_fz_inflate(const char *path, FILE *out, struct err *e)
{
	char *data = NULL;
	size_t len = 0, cap = 0, got = 0;
	unsigned char *raw = NULL;
	z_stream z;
	int r = readfile_all(path, FZ_MAX_FILE, &data, &len), zr;

	if (r)
		return err_set(e, r, r == -EFBIG ? EXIT_USAGE : EXIT_TARGET, "--inflate-log %s: %s",
			       path, r == -EFBIG ? "larger than 4 GiB" : strerror(-r));
	if (!len) {
		free(data);
		return err_set(e, -EINVAL, EXIT_USAGE, "--inflate-log %s: empty, not a compressed log",
			       path);
	}
	memset(&z, 0, sizeof(z));
	z.next_in = (unsigned char *)data;
	z.avail_in = (uInt)len;
	if (inflateInit(&z) != Z_OK) {
		free(data);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "--inflate-log: out of memory");
	}
	for (;;) {	/* stream after stream, into one buffer */
		if (got == cap) {
			size_t ncap = cap ? 2 * cap : 1u << 16;
			unsigned char *n = realloc(raw, ncap);

			if (!n) {
				r = err_set(e, -ENOMEM, EXIT_INTERNAL, "--inflate-log: out of memory");
				break;
			}
			raw = n;
			cap = ncap;
		}
		z.next_out = raw + got;
		z.avail_out = (uInt)(cap - got);
		zr = inflate(&z, Z_NO_FLUSH);
		got = cap - z.avail_out;
		if (zr == Z_STREAM_END) {
			if (!z.avail_in)
				break;
			inflateReset(&z);	/* the next chunk's stream */
			continue;
		}
		if (zr == Z_OK || (zr == Z_BUF_ERROR && !z.avail_out))
			continue;
		r = err_set(e, -EINVAL, EXIT_USAGE, "--inflate-log %s: not a compressed log (%s)",
			    path, zr == Z_BUF_ERROR ? "truncated" : z.msg ? z.msg : "bad data");
		break;
	}
	inflateEnd(&z);
	free(data);
	if (!r)
		fz_print(raw, got, out);
	free(raw);
	return r;
}
