/*
 * buffer: what write buffers contain, as fio's buffer options describe.
 *
 * fio's default, and iotrial's: buffers are filled once with pseudo-random
 * bytes, and each write "scrambles" them slightly (scramble_buffers=1) so
 * that no two written blocks are identical and naive deduplication finds
 * nothing.  Options:
 *   zero_buffers               zeros (no scramble)
 *   buffer_pattern=0x..|"str"  the pattern repeated (no scramble)
 *   refill_buffers             fresh random bytes for every write
 *   scramble_buffers=0         the initial fill is written unchanged
 *   buffer_compress_percentage=N, buffer_compress_chunk=C
 *                              each chunk of C bytes (512; 0 = the block) is
 *                              (100-N)% random bytes, then the pattern (zeros
 *                              or buffer_pattern): compresses to about N% less;
 *                              refills every write
 *   dedupe_percentage=N        N% of writes repeat the previous unique write
 *                              byte for byte (fio's dedupe_mode=repeat), or
 *                              with dedupe_mode=working_set one of the first
 *                              dedupe_working_set_percentage% of size's
 *                              blocks written, at random
 *                              (dedupe_global: sets shared by
 *                              all threads); refills every write
 * The per-write work (buffer_fill_write) is what fio does per write with the
 * same options: a refill costs one pass over the block, a scramble one 8-byte
 * store per 512 bytes.  No allocation, lock or formatting.
 */
#ifndef IOTRIAL_BUFFER_H
#define IOTRIAL_BUFFER_H

#include <stdint.h>
#include "lib/err.h"
#include "model/job.h"

#define BUFFER_PATTERN_MAX 512

struct buffer_gen {
	int zero;			/* zero_buffers */
	int refill;			/* refill every write (given, or implied) */
	int scramble;			/* scramble every write */
	unsigned compress_pct;		/* 0 = not set */
	uint32_t chunk;			/* compress chunk, 0 = the block */
	uint64_t dedupe_thresh;		/* draw below this: repeat (0 = never) */
	uint8_t pattern[BUFFER_PATTERN_MAX];
	unsigned pattern_len;		/* 0 = none (zeros where a pattern goes) */
	uint64_t rs;			/* content stream */
	uint64_t ds;			/* dedupe decision stream */
	uint64_t unique_seed;		/* content seed of the last unique write */
	int have_unique;
	/*
	 * dedupe_mode=working_set: the first ws_nr unique writes form the working
	 * set; unique write k of them has content seed rand_mix(ws_base, k), so
	 * a dedupe write picks k at random and rebuilds its bytes (no copy kept).
	 */
	uint64_t ws_nr;			/* 0: repeat mode */
	uint64_t ws_have;		/* unique writes of the set done so far */
	uint64_t ws_base;
	/*
	 * dedupe_global: the set's ws_nr slots are ws_nr / ws_threads long runs
	 * (at least 1), run c from thread (ws_thread + c) % ws_threads: slot i is
	 * that thread's unique write i % run, so jobs copy each other's blocks,
	 * as fio 3.33 rotates its seeds.  0: the set is this thread's own.
	 */
	unsigned ws_threads, ws_thread;
};

/*
 * Parse buffer_pattern's value: 0x hex bytes and "quoted strings", in any
 * order and number (fio's forms without file or decimal parts).  Fills
 * @out/@len.  0, or -EINVAL with why in @why (static text).
 */
int buffer_pattern_parse(const char *val, uint8_t *out, unsigned *len, const char **why);

/* Set @b up from @j's options for clone @thread_index.  0 or -errno (+ @e). */
int buffer_init(struct buffer_gen *b, const struct job *j, unsigned thread_index,
		struct err *e);

/*
 * dedupe_global: share the working set among the @nr_threads threads of the
 * run, this one being @thread_index (nothing without dedupe_mode=working_set,
 * as in fio).
 */
void buffer_dedupe_global(struct buffer_gen *b, unsigned thread_index, unsigned nr_threads);

/* The contents of the buffers at start: @len bytes at @buf. */
void buffer_fill_initial(struct buffer_gen *b, void *buf, uint64_t len);

/* True when a write's buffer needs buffer_fill_write() before it goes out. */
static inline int buffer_per_write(const struct buffer_gen *b)
{
	return b->refill | b->scramble;
}

/* Prepare the @len bytes at @buf for a write at @offset. */
void buffer_fill_write(struct buffer_gen *b, void *buf, uint32_t len, uint64_t offset);

#endif
