/*
 * verify_log: which blocks a verify job wrote, so that its read-back checks
 * those and only those, one read per block, as fio reads back the writes it
 * logged (fio keeps a list or tree of "io pieces").
 *
 * Two stores side by side:
 *  - a bitmap per file, one bit per block of the job's one block size from
 *    the file's region start, for writes of that size at a block boundary
 *    (the usual case: sequential or random writes of one bs; norandommap's
 *    rewrites of a block set the same bit, so each block is read back once,
 *    as fio's tree keeps the newest of overlapping pieces).  Memory: one bit
 *    per block of the region (32 MiB for 1 TiB of 4 KiB blocks);
 *  - a list of (offset, length, count) runs per file for the other writes
 *    (bsrange, bssplit, sizes shortened at the region's end), consecutive
 *    writes of one length merging into one run.  A sequential job keeps a
 *    few runs; a random job of varying sizes one per write (16 bytes).
 * Blocks are visited in offset order per file (the bitmap's, then the
 * runs', sorted once), the order fio reads a random job's writes back in.
 *
 * verify_state_save / verify_state_load: the log is written to and read
 * from a text file (docs/compat.md, "Verify state"): a job that ran before
 * tells a later read or verify_only job which blocks hold data to check.
 *
 * Not thread-safe: one log per worker thread.
 */
#ifndef IOTRIAL_VERIFY_LOG_H
#define IOTRIAL_VERIFY_LOG_H

#include <stdint.h>
#include <stddef.h>
#include "lib/err.h"

struct verify_log_run {
	uint64_t off;
	uint32_t len, n;		/* n blocks of len bytes from off */
};

struct verify_log_file {
	uint64_t start, size;		/* the region the bitmap covers */
	uint64_t *bits;			/* NULL without a fixed block size */
	uint64_t nbits;
	struct verify_log_run *runs;
	size_t runs_nr, runs_cap;
	int sorted;
};

struct verify_log {
	uint64_t bs;			/* the bitmap's block size; 0: runs only */
	unsigned nr_files;
	struct verify_log_file *files;
};

/* Where verify_log_next is: file, then bitmap bit or run, then block in the run. */
struct verify_log_iter {
	unsigned file;
	uint64_t bit;
	size_t run;
	uint32_t in_run;
};

/*
 * Set up @l for @nr_files files whose regions are [@start[i], @start[i] +
 * @size[i]); @bs: the job's one block size for the bitmap (0: runs only).
 * 0 or -ENOMEM (+ @e).
 */
int verify_log_init(struct verify_log *l, unsigned nr_files, const uint64_t *start,
		    const uint64_t *size, uint64_t bs, struct err *e);

/* Free what @l holds (a zeroed @l is fine). */
void verify_log_free(struct verify_log *l);

/* A write of @len bytes at @off of file @file completed.  0 or -ENOMEM. */
int verify_log_add(struct verify_log *l, unsigned file, uint64_t off, uint64_t len);

/* Whether every byte of [@off, @off + @len) of file @file was logged. */
int verify_log_has(const struct verify_log *l, unsigned file, uint64_t off, uint64_t len);

/* Start a walk over the blocks in offset order (sorts the runs). */
void verify_log_iter_init(struct verify_log *l, struct verify_log_iter *it);

/* The next block: 1 with @file, @off, @len set, 0 when done. */
int verify_log_next(const struct verify_log *l, struct verify_log_iter *it, unsigned *file,
		    uint64_t *off, uint64_t *len);

/*
 * verify_state_save: write @l to @path (a text file, replaced whole), naming
 * @job and clone @jobnum and each file's @paths.  0 or -errno (+ @e).
 */
int verify_log_save(const struct verify_log *l, const char *path, const char *job, unsigned jobnum,
		    char *const *paths, struct err *e);

/*
 * verify_state_load: read @path into @l (set up by verify_log_init for the
 * same files): the blocks the saved run wrote.  0, or -errno with @e naming
 * the file and line (a missing file, another job's state, bad syntax).
 */
int verify_log_load(struct verify_log *l, const char *path, struct err *e);

#endif
