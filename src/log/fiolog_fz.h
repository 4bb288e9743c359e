/*
 * fiolog_fz: fio's compressed log files (log_store_compressed=1, read back
 * with --inflate-log), in fio 3.33's on-disk format, so that fio inflates
 * iotrial's files and iotrial fio's.
 *
 * Format (read from files fio 3.33 wrote): "<log>.fz" is one or more zlib
 * streams back to back (fio compresses log_compression bytes at a time; an
 * empty log is one empty stream).  Inflated, the data is fio's in-memory
 * samples, little-endian, one after the other:
 *     u64 time (ms), u64 value, u32 ddir | flags, u16 ioprio, u16 pad, u64 bs
 * (32 bytes) and, when the offset flag is set, u64 offset (40 bytes).
 * Flags: 0x80000000 the samples carry an offset (log_offset=1), 0x40000000
 * the priority is printed as its value (log_prio=1; otherwise as 1 for the
 * real-time class, else 0).  --inflate-log prints each sample as the text
 * log line fio would have written (fiolog.h's format).
 *
 * Only the "msec, value, ..." logs: fio 3.33 stores its histogram log's
 * samples as pointers and writes an empty .fz (refused in opt_validate.c).
 */
#ifndef IOTRIAL_FIOLOG_FZ_H
#define IOTRIAL_FIOLOG_FZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "lib/err.h"
#include "log/fiolog_rec.h"

#define FIOLOG_FZ_OFFSET 0x80000000u
#define FIOLOG_FZ_PRIO 0x40000000u

/* How a log's records become fio's samples (the job's log options). */
struct fiolog_fz_fmt {
	int offset;		/* log_offset=1: 40-byte samples with the offset */
	int prio;		/* log_prio=1: the priority printed as its value */
	int windowed;		/* log_avg_msec > 0: values are windows, no offsets */
	int window_max;		/* log_window_value=max: a window's max, not its mean */
};

/*
 * Write the @n records @r to @f as fio's compressed log, formatted as @fmt
 * says: one zlib stream per @chunk bytes of samples (0: one stream), at
 * least one sample per stream.  0, or -errno (-ENOMEM, -EIO) with @e filled
 * naming @path.
 */
int fiolog_fz_write(const struct fiolog_rec *r, size_t n, const struct fiolog_fz_fmt *fmt,
		    FILE *f, uint64_t chunk, const char *path, struct err *e);

/*
 * --inflate-log: read the compressed log @path and print its samples to
 * @out as fio's text lines.  0, or -errno with @e filled (EXIT_USAGE for a
 * file that is not a compressed log, naming it).
 */
int fiolog_fz_inflate(const char *path, FILE *out, struct err *e);

#endif
