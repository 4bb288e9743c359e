/*
 * num: fio's number syntax, parsed strictly.
 *
 * Sizes and every other integer: decimal or 0x hex, optional unit k/m/g/t/p,
 * any case, optionally followed by "b"; a lone "b" means bytes.  With
 * kb_base=1024 (fio's default) k means 1024 and m 1024^2; with kb_base=1000
 * they are powers of 1000.  fio 3.33's quirk is copied on purpose, so that a
 * job file does the same I/O as under fio: the full IEC spelling "KiB" (i
 * followed by b) means the *other* base (1000 under kb_base=1024, 1024 under
 * kb_base=1000), while "Ki" without b is the same as "K".
 *
 * Times: a number with us/usec, ms/msec, s, m, h or d (any case), fio's
 * documented units; a bare number is in the option's own unit (seconds for
 * most).  Results are in microseconds.  "sec" and "min" are refused: fio 3.33
 * reads "2sec" and "2min" as 2 microseconds.
 *
 * Hex ("0x1000") is a plain integer only: fio 3.33 ignores a unit after hex
 * digits ("0x10k" is 16) and reads a hex time as microseconds, so both are
 * refused rather than read differently.  docs/numbers.md has the full list.
 *
 * Arithmetic (as fio): a value that starts with "(" or uses $ncpus, $pagesize
 * or $mb_memory is an expression with + - * / % ^ and parentheses; a unit may
 * follow a number or a closing parenthesis: "(2*$mb_memory)M".  Inside an
 * expression that names a time unit anywhere, bare numbers are microseconds
 * (fio's rule); an expression with no unit at all is in the option's unit.
 * A fractional result is truncated toward zero.
 *
 * Unlike fio, anything else is an error, never a silent misread: trailing
 * garbage ("4kx", "1.5k", "4 k"), a sign, an empty value, an overflow of 64
 * bits, a reversed range, the hex and time cases above.  Errors return -EINVAL or -ERANGE and fill a
 * struct err naming the option, the value and where it came from.
 */
#ifndef IOTRIAL_NUM_H
#define IOTRIAL_NUM_H

#include <stdint.h>
#include "lib/err.h"
#include "model/job.h"	/* enum ddir, struct bssplit */

/* How a value is read and how a failure is reported. */
struct num_ctx {
	unsigned kb_base;	/* 1024 or 1000 */
	const char *opt;	/* option name for messages, may be NULL */
	const char *where;	/* "file:line" or "command line", may be NULL */
};

/* Values of $ncpus, $pagesize and $mb_memory on this machine. */
struct num_sys {
	uint64_t ncpus;
	uint64_t pagesize;
	uint64_t mb_memory;
};

/*
 * Fill @e with the one message format every bad value uses:
 * "invalid value 'V' for option 'O': <why> (where)".  Returns @code.
 */
int num_error(struct err *e, const struct num_ctx *c, int code, const char *val,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * A value fio accepts that iotrial does not implement, refused by name:
 * "unsupported value 'V' for option 'O': <why> (where)".  Returns -EINVAL.
 */
int num_unsupported(struct err *e, const struct num_ctx *c, const char *val, const char *why);

/* Read this machine's $ncpus, $pagesize and $mb_memory. */
void num_sys_get(struct num_sys *sys);

/* An integer with optional size unit (or an expression). 0, -EINVAL or -ERANGE. */
int num_parse_u64(const char *s, const struct num_ctx *c, uint64_t *out, struct err *e);

/*
 * A time; a bare number counts @bare_us microseconds (1000000 for seconds).
 * *out_us is in microseconds.  0, -EINVAL or -ERANGE.
 */
int num_parse_time(const char *s, const struct num_ctx *c, uint64_t bare_us,
		   uint64_t *out_us, struct err *e);

/* A finite decimal floating-point number (percentiles, distribution parameters). */
int num_parse_double(const char *s, const struct num_ctx *c, double *out, struct err *e);

/*
 * A range "lo-hi" or "lo:hi" of integers with units; a single value sets both.
 * lo > hi is an error (fio silently swaps them).  A bssplit-shaped value (a
 * '/' outside parentheses: "512/25:1k:25:2k") is read as fio reads it, the
 * size before the first separator and the size after it (512-1k).
 */
int num_parse_range(const char *s, const struct num_ctx *c, uint64_t *lo, uint64_t *hi,
		    struct err *e);

/*
 * Split a per-direction list "read,write,trim" in place (@buf is modified).
 * fio's rule: a field not followed by a comma applies to the directions after
 * it as well; an empty field leaves its direction unchanged (NULL in @field).
 * "8k" -> all three; "8k,32k" -> 8k,32k,32k; "8k,32k," -> trim unchanged;
 * ",8k" -> read unchanged, 8k for write and trim.  More than three fields is
 * -EINVAL (no message: the caller knows the option).
 */
int num_ddir_split(char *buf, char *field[DDIR_NR]);

/* Per-direction integers ("4k,64k"): sets only the directions named. */
int num_parse_u64_ddir(const char *s, const struct num_ctx *c, uint64_t out[DDIR_NR],
		       struct err *e);

/* Per-direction ranges ("1k-4k,2k-8k"): sets only the directions named. */
int num_parse_range_ddir(const char *s, const struct num_ctx *c, uint64_t lo[DDIR_NR],
			 uint64_t hi[DDIR_NR], struct err *e);

/*
 * bssplit "4k/10:64k/50:32k/40", per direction with commas.  A missing weight
 * ("1k/" or "1k") shares what the given weights leave of 100 evenly (the first
 * ones get the odd percent), so each direction's weights sum to exactly 100.
 * Given weights above 100, a sum other than 100 with no blank weight, more
 * than JOB_MAX_BSSPLIT entries or a zero block size are errors.
 */
int num_parse_bssplit(const char *s, const struct num_ctx *c,
		      struct bssplit out[DDIR_NR][JOB_MAX_BSSPLIT], unsigned nr[DDIR_NR],
		      struct err *e);

/*
 * A size or a percentage: "50%" sets *pct (0..100) and *bytes = 0; anything
 * else sets *bytes and *pct = 0.  "0%" is both zero, as fio reads it (offset
 * from the start; size of the whole file).
 */
int num_parse_size_pct(const char *s, const struct num_ctx *c, uint64_t *bytes,
		       uint32_t *pct, struct err *e);

#endif
