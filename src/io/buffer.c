/*
 * buffer: write-buffer contents (see buffer.h for the model and options).
 * Random bytes come from xorshift64 (fast and good enough that zlib finds
 * nothing to compress in them), seeded per clone.
 */
#include "io/buffer.h"

#include <errno.h>	/* EINVAL */
#include <string.h>	/* memset, memcpy, strchr */
#include "lib/rand.h"	/* rand_mix */

static inline uint64_t xs_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

static void fill_random(uint64_t *s, uint8_t *p, uint64_t len)
{
	uint64_t i, v;

	for (i = 0; i + 8 <= len; i += 8) {
		v = xs_next(s);
		memcpy(p + i, &v, 8);
	}
	if (i < len) {
		v = xs_next(s);
		memcpy(p + i, &v, len - i);
	}
}

/* The pattern (or zeros) over @len bytes, in phase with the chunk start. */
static void fill_pattern(const struct buffer_gen *b, uint8_t *p, uint64_t len)
{
	uint64_t i, n;

	if (!b->pattern_len) {
		memset(p, 0, len);
		return;
	}
	for (i = 0; i < len; i += n) {
		n = len - i < b->pattern_len ? len - i : b->pattern_len;
		memcpy(p + i, b->pattern, n);
	}
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int buffer_pattern_parse(const char *val, uint8_t *out, unsigned *len, const char **why)
{
	const char *p = val, *q;
	unsigned n = 0;
	int hi, lo;

	while (*p) {
		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
			size_t digits = 0;

			p += 2;
			while (hexval(p[digits]) >= 0)
				digits++;
			if (!digits) {
				*why = "0x without hex digits";
				return -EINVAL;
			}
			/* an odd count reads as a leading 0 nibble, as 0x1 = 0x01 */
			if (digits % 2) {
				if (n >= BUFFER_PATTERN_MAX)
					goto too_long;
				out[n++] = (uint8_t)hexval(*p++);
				digits--;
			}
			for (; digits; digits -= 2, p += 2) {
				if (n >= BUFFER_PATTERN_MAX)
					goto too_long;
				hi = hexval(p[0]);
				lo = hexval(p[1]);
				out[n++] = (uint8_t)(hi << 4 | lo);
			}
		} else if (*p == '"') {
			q = strchr(p + 1, '"');
			if (!q) {
				*why = "unterminated \"string\"";
				return -EINVAL;
			}
			if (q - p - 1 + n > BUFFER_PATTERN_MAX)
				goto too_long;
			memcpy(out + n, p + 1, (size_t)(q - p - 1));
			n += (unsigned)(q - p - 1);
			p = q + 1;
		} else if (*p == '\'') {
			*why = "a pattern read from a file is not supported (use 0x bytes, \"text\" or "
			       "decimal)";
			return -EINVAL;
		} else if (*p == '-' || (*p >= '0' && *p <= '9')) {
			/*
			 * fio's decimal: a 32-bit signed number, written little
			 * endian in as few bytes as it needs (a negative one in
			 * four); its digits end where "0x" starts ("-120xff" is
			 * -12 then 0xff), as fio reads them
			 */
			int neg = *p == '-';
			uint64_t v = 0;
			uint32_t u;
			unsigned k, nb;

			if (neg)
				p++;
			if (*p < '0' || *p > '9') {
				*why = "'-' without digits";
				return -EINVAL;
			}
			while (*p >= '0' && *p <= '9' && !(p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
							   p > val && p[-1] >= '0' && p[-1] <= '9')) {
				v = v * 10 + (uint64_t)(*p++ - '0');
				if (v > 2147483648ull) {
					*why = "a decimal number outside 32-bit signed range";
					return -EINVAL;
				}
			}
			if (!neg && v > 2147483647ull) {
				*why = "a decimal number outside 32-bit signed range";
				return -EINVAL;
			}
			u = neg ? (uint32_t)(0u - (uint32_t)v) : (uint32_t)v;
			nb = neg ? 4 : u > 0xffffff ? 4 : u > 0xffff ? 3 : u > 0xff ? 2 : 1;
			if (n + nb > BUFFER_PATTERN_MAX)
				goto too_long;
			for (k = 0; k < nb; k++)
				out[n++] = (uint8_t)(u >> (8 * k));
		} else {
			*why = "not 0x hex bytes, a \"quoted string\" or a decimal number";
			return -EINVAL;
		}
	}
	if (!n) {
		*why = "empty pattern";
		return -EINVAL;
	}
	*len = n;
	return 0;
too_long:
	*why = "longer than 512 bytes";
	return -EINVAL;
}

int buffer_init(struct buffer_gen *b, const struct job *j, unsigned thread_index,
		struct err *e)
{
	const char *why = NULL;
	uint64_t seed;

	memset(b, 0, sizeof(*b));
	if (j->buffer_pattern && buffer_pattern_parse(j->buffer_pattern, b->pattern,
						      &b->pattern_len, &why))
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': buffer_pattern: %s", j->name, why);
	b->zero = j->zero_buffers;
	b->compress_pct = j->buffer_compress_percentage;
	b->chunk = j->buffer_compress_chunk;
	if (j->dedupe_percentage)
		b->dedupe_thresh = j->dedupe_percentage >= 100 ? UINT64_MAX :
				   (uint64_t)(((unsigned __int128)j->dedupe_percentage << 64) / 100);
	/* fio: compress (other than 100%) and dedupe imply refill_buffers */
	b->refill = j->refill_buffers || (b->compress_pct && b->compress_pct < 100) ||
		    j->dedupe_percentage;
	/* a pattern or zeros are written as they are, as fio writes them */
	b->scramble = j->scramble_buffers && !b->refill && !b->zero && !b->pattern_len &&
		      b->compress_pct != 100;
	seed = rand_mix(0x9e3779b97f4a7c15ull, thread_index);
	b->rs = seed | 1;
	b->ds = rand_mix(seed, 0xdedeull) | 1;
	if (j->dedupe_mode_ws && j->dedupe_percentage) {
		uint64_t bs = j->bs[DDIR_WRITE] ? j->bs[DDIR_WRITE] : 4096;

		b->ws_nr = j->size / 100 * j->dedupe_ws_pct / bs +
			   j->size % 100 * j->dedupe_ws_pct / 100 / bs;
		if (!b->ws_nr)
			b->ws_nr = 1;
		b->ws_base = rand_mix(seed, 0x5e7ull);
	}
	return 0;
}

/* Thread @t's working-set seed base, as buffer_init derives it. */
static uint64_t ws_base_of(unsigned t)
{
	return rand_mix(rand_mix(0x9e3779b97f4a7c15ull, t), 0x5e7ull);
}

void buffer_dedupe_global(struct buffer_gen *b, unsigned thread_index, unsigned nr_threads)
{
	if (!b->ws_nr || nr_threads < 1)
		return;
	b->ws_threads = nr_threads;
	b->ws_thread = thread_index;
}

/* The content seed of working-set slot @i (see buffer_gen.ws_threads). */
static uint64_t ws_seed(const struct buffer_gen *b, uint64_t i)
{
	uint64_t run;

	if (!b->ws_threads)
		return rand_mix(b->ws_base, i) | 1;
	run = b->ws_nr / b->ws_threads ? b->ws_nr / b->ws_threads : 1;
	return rand_mix(ws_base_of((unsigned)((b->ws_thread + i / run) % b->ws_threads)), i % run) | 1;
}

/* One buffer's worth of content from the content stream. */
static void fill_content(struct buffer_gen *b, uint8_t *p, uint64_t len)
{
	uint64_t chunk, i, n, rnd;

	if (b->zero && !b->compress_pct) {
		memset(p, 0, len);
		return;
	}
	if (b->pattern_len && !b->compress_pct) {
		fill_pattern(b, p, len);
		return;
	}
	if (!b->compress_pct) {
		fill_random(&b->rs, p, len);
		return;
	}
	chunk = b->chunk && b->chunk < len ? b->chunk : len;
	for (i = 0; i < len; i += n) {
		n = len - i < chunk ? len - i : chunk;
		rnd = n * (100 - b->compress_pct) / 100;
		fill_random(&b->rs, p + i, rnd);
		fill_pattern(b, p + i + rnd, n - rnd);
	}
}

void buffer_fill_initial(struct buffer_gen *b, void *buf, uint64_t len)
{
	fill_content(b, buf, len);
}

void buffer_fill_write(struct buffer_gen *b, void *buf, uint32_t len, uint64_t offset)
{
	uint8_t *p = buf;
	uint32_t i;

	if (b->refill && b->ws_nr) {
		uint64_t keep = b->rs;

		if ((b->ws_have || b->ws_threads) && xs_next(&b->ds) < b->dedupe_thresh) {
			/*
			 * a block of the working set, at random: its seed rebuilds it.
			 * Shared (dedupe_global), any slot: the other threads write
			 * theirs, as fio draws from the whole set.
			 */
			b->rs = ws_seed(b, xs_next(&b->ds) % (b->ws_threads ? b->ws_nr : b->ws_have));
			fill_content(b, p, len);
			b->rs = keep;
			return;
		}
		if (b->ws_have < b->ws_nr) {	/* unique, and one of the set */
			b->rs = rand_mix(b->ws_base, b->ws_have++) | 1;
			fill_content(b, p, len);
			b->rs = keep;
			return;
		}
		fill_content(b, p, len);	/* unique, past the set */
		return;
	}
	if (b->refill) {
		if (b->dedupe_thresh && b->have_unique && xs_next(&b->ds) < b->dedupe_thresh) {
			/* repeat the last unique write: same seed, same bytes */
			uint64_t keep = b->rs;

			b->rs = b->unique_seed;
			fill_content(b, p, len);
			b->rs = keep;
			return;
		}
		b->unique_seed = b->rs;
		b->have_unique = 1;
		fill_content(b, p, len);
		return;
	}
	/* scramble: the byte offset of each 512-byte sector at its start */
	for (i = 0; i + 8 <= len; i += 512) {
		uint64_t v = offset + i;

		memcpy(p + i, &v, 8);
	}
}
