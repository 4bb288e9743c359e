/*
 * verify: fio's data verification (verify=, do_verify, verify_interval,
 * verify_pattern, verify_fatal) for write jobs; a job that only reads checks
 * each block as it reads it (worker_verify_read), with verify_check().
 *
 * Each verify_interval bytes of a written block (the block by default)
 * start with a header like fio's, little-endian:
 *   0  magic 0xacca (2)   2  method (1)   3  zero (1)
 *   4  interval length (4)                8  byte offset in the file (8)
 *  16  seed of the data (8)              24  crc32c of bytes 0..23 (4)
 *  28  zero (4)                          32  checksum of the method (4..64)
 * and the checksum covers bytes 0..27 and the data after the checksum.  The
 * check rebuilds the header verify_fill wrote (with the seed found, which the
 * header crc covers) and compares all 32 bytes, reserved ones included, so
 * every byte of an interval is compared or covered by a checksum (verify=meta
 * leaves the data unchecked, as fio's does).  With verify=pattern there is no
 * header: the block is verify_pattern repeated and is compared byte for byte.
 * tests/e2e/opt_verify_scan.sh corrupts every 4-byte word of a block, per method.
 *
 * After the job's writes (do_verify=1), the worker's end pass
 * (worker_verify.c) reads back the blocks it wrote, one read per block with
 * pread or the engine's own read (rbd), checks each with verify_block() and
 * stops at the first bad interval, naming its offset, what was expected and
 * what was found.
 *
 * Supported where every block of the region is written (fixed bs, write or
 * randwrite with the random map, io_size not below size), and on mixed jobs
 * (rw, randrw; one block size), where as in fio 3.33 only the read-back of
 * the job's own writes is checked, not its other reads: the end pass reads
 * the blocks written (worker_verify.c logs them: verify_log.h).  time_based: no end
 * pass, as fio ("the write phase uses all of runtime").  opt_validate
 * refuses the rest by name.  Checksums: md5, sha1, sha256,
 * sha512 (Nettle), crc32 (zlib), crc32c (ours, tested against RFC 3720's
 * vectors), xxhash (libxxhash's XXH32, as fio's), crc64 (ours: CRC-64/XZ,
 * tested against its check value).  meta checks the header alone (offset,
 * length, its crc32c) and, with verify_pattern, the pattern after it.
 *
 * verify_backlog=N (worker_verify.c): when N completed writes are pending,
 * the oldest verify_backlog_batch (default N) of them are read back through
 * the job's engine at its depth and checked as they complete, while the job
 * goes on, and the end pass checks what is still pending: each written
 * block once, as fio 3.33 does; these reads are the job's reads, as fio
 * counts them.
 */
#ifndef IOTRIAL_VERIFY_H
#define IOTRIAL_VERIFY_H

#include <stddef.h>
#include <stdint.h>
#include "lib/err.h"

enum verify_method {
	VERIFY_NONE = 0, VERIFY_MD5, VERIFY_CRC32C, VERIFY_CRC32, VERIFY_SHA1, VERIFY_SHA256,
	VERIFY_SHA512, VERIFY_XXHASH, VERIFY_PATTERN,
	VERIFY_META,		/* the header only (plus verify_pattern's bytes when given) */
	VERIFY_CRC64,		/* CRC-64/ECMA-182, reflected (xz's) */
	VERIFY_METHOD_NR,
};

#define VERIFY_HDR_SIZE 32
#define VERIFY_PATTERN_MAX 512

/* What the verify pass found (summed over clones by result merging). */
struct verify_result {
	int method;			/* enum verify_method; VERIFY_NONE = off */
	uint64_t blocks;		/* intervals checked */
	uint64_t bytes;
	uint64_t failures;		/* bad intervals: at most 1 unless keep_going */
	uint64_t fail_offset;		/* byte offset of the first failure */
	char fail_msg[560];		/* "crc32c mismatch at offset X in F: expected E, found G" */
	int no_pass;			/* no end pass: do_verify=0, or time_based (fio: the writes use the runtime) */
};

struct verify_ctx {
	enum verify_method method;
	uint32_t interval;		/* bytes per header; 0: the block (verify_iv_len) */
	uint32_t bs;			/* the job's one block size; 0: sizes vary (bsrange, bssplit) */
	uint32_t hdr_off;		/* verify_offset: where the header is moved to (0: not moved) */
	const char *dump_dir;		/* verify_dump's directory (--aux-path); NULL: the current one */
	uint8_t pattern[VERIFY_PATTERN_MAX];
	unsigned pattern_len;		/* 0: the data is what buffer.c put there */
	uint64_t seed;
	/*
	 * verify_dump: a bad interval is written to NAME.OFFSET.received and
	 * NAME.OFFSET.expected in the current directory (fio's names).  So that
	 * the expected bytes can be rebuilt, verify_fill then also fills each
	 * interval's data from (seed, offset), as fio fills from its header's seed.
	 */
	int dump;
	/*
	 * continue_on_error=verify (without verify_fatal): a bad interval is
	 * counted, handed to @on_fail (when set) and the check goes on, as fio
	 * goes on; otherwise the first bad interval ends the check.  @on_fail
	 * gets the failure's byte offset and its message; it runs on the job's
	 * thread.
	 */
	int keep_going;
	void (*on_fail)(void *arg, uint64_t offset, const char *msg);
	void *on_fail_arg;
	/*
	 * Zone appends (engine_ctx.append_zone): the device picks where in its
	 * zone each write lands, after verify_fill stamped it, and appends in
	 * flight together may land in any order.  So a header carries its zone's
	 * start (the offset rounded down to a multiple of hdr_zone), which the
	 * check expects wherever in the zone the block is read back; the data
	 * stays covered by the checksum.  0: the header carries the exact offset.
	 */
	uint64_t hdr_zone;
};

/* The method named @name (fio's names, crc32c-intel included), 0 or -EINVAL. */
int verify_method_parse(const char *name, enum verify_method *m);

/* fio's name of @m. */
const char *verify_method_name(enum verify_method m);

/* CRC-64/XZ of @len bytes, continuing from @crc (start with 0). */
uint64_t verify_crc64(uint64_t crc, const void *buf, size_t len);

/* crc32c (Castagnoli) of @len bytes, continuing from @crc (start with 0). */
uint32_t verify_crc32c(uint32_t crc, const void *buf, size_t len);

/*
 * Set up @v: @method, @bs (0: blocks of several sizes), @interval (0, or
 * above @bs: each block is one interval, as fio clamps it), @pattern (may be
 * NULL).  -EINVAL with @e filled when the interval does not divide bs or
 * cannot hold a header.
 */
int verify_init(struct verify_ctx *v, enum verify_method method, uint32_t bs, uint32_t interval,
		const uint8_t *pattern, unsigned pattern_len, uint64_t seed, struct err *e);

/*
 * verify_offset: the header (with its checksum) is written @off bytes into
 * each interval, the data that was there at the start (as fio swaps them).
 * @min_len: the smallest block.  -EINVAL (+ @e) when it does not fit or
 * overlaps the header's own place; 0 and nothing to move with verify=pattern (fio).
 */
int verify_set_offset(struct verify_ctx *v, uint32_t off, uint32_t min_len, struct err *e);

/*
 * Stamp the @len bytes at @buf, about to be written at @offset: headers and
 * checksums (with @v->dump, the data too: see verify_ctx).
 */
void verify_fill(const struct verify_ctx *v, void *buf, uint32_t len, uint64_t offset);

/*
 * Check the @len bytes at @buf read from @offset of @path.  0, or -EILSEQ
 * with @r's failure fields set (the message names the offset, expected and
 * found; with @v->dump the bad interval is dumped too).  Counts every interval
 * checked, good or bad, into @r->blocks and @r->bytes.  With @v->keep_going a
 * bad interval is counted and reported and the check goes on (returns 0).
 */
int verify_check(const struct verify_ctx *v, void *buf, uint32_t len, uint64_t offset,
		 const char *path, struct verify_result *r);

/*
 * One block read back: @got bytes (or -errno) of the @len asked for at @off,
 * in @buf.  A failed or short read is a failure (counted in @r); otherwise
 * verify_check.  0, -EILSEQ or the read's -errno.
 */
int verify_block(const struct verify_ctx *v, int64_t got, void *buf, uint32_t len, uint64_t off,
		 const char *path, struct verify_result *r);

#endif
