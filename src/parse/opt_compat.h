/*
 * opt_compat: parse/show callbacks of fio options iotrial takes for
 * compatibility with the command lines people use (docs/compat.md): verify=0,
 * gtod_reduce, cpumask, nice, zonemode=none.  Used only by opt_table.c.
 * What each one does in iotrial is in docs/usage.md ("fio options with notes").
 */
#ifndef IOTRIAL_OPT_COMPAT_H
#define IOTRIAL_OPT_COMPAT_H

#include <stddef.h>
#include "lib/err.h"
#include "model/job.h"
#include "model/num.h"
#include "parse/opt.h"

/* verify=METHOD (verify.h's methods) or 0/none. */
int opt_parse_verify(struct job *j, const struct opt_def *o, const char *val,
		     const struct num_ctx *c, struct err *e);
/* gtod_reduce=1 sets disable_lat, disable_clat, disable_slat and disable_bw, as fio. */
int opt_parse_gtod_reduce(struct job *j, const struct opt_def *o, const char *val,
			  const struct num_ctx *c, struct err *e);
/* cpumask=MASK: the CPUs of the set bits, stored as cpus_allowed. */
int opt_parse_cpumask(struct job *j, const struct opt_def *o, const char *val,
		      const struct num_ctx *c, struct err *e);
/* nice=N, -20..19. */
int opt_parse_nice(struct job *j, const struct opt_def *o, const char *val,
		   const struct num_ctx *c, struct err *e);
int opt_show_nice(const struct job *j, const struct opt_def *o, char *buf, size_t len);
/* zonemode=none (fio's default), strided or zbd. */
int opt_parse_zonemode(struct job *j, const struct opt_def *o, const char *val,
		       const struct num_ctx *c, struct err *e);
/* A double between 0 and 1 at the row's offset (zone_reset_threshold, _frequency). */
int opt_parse_ratio(struct job *j, const struct opt_def *o, const char *val,
		    const struct num_ctx *c, struct err *e);
int opt_show_ratio(const struct job *j, const struct opt_def *o, char *buf, size_t len);

/* buffer_pattern=0x..|"text" (checked by buffer_pattern_parse, kept as given). */
int opt_parse_buffer_pattern(struct job *j, const struct opt_def *o, const char *val,
			     const struct num_ctx *c, struct err *e);
int opt_show_buffer_pattern(const struct job *j, const struct opt_def *o, char *buf, size_t len);

/* verify_pattern=0x..|"text". */
int opt_parse_verify_pattern(struct job *j, const struct opt_def *o, const char *val,
			     const struct num_ctx *c, struct err *e);
int opt_show_verify_pattern(const struct job *j, const struct opt_def *o, char *buf, size_t len);
/* thinktime: spin within thinktime; not with rate limits.  Also notes rate_min_set. */
int opt_think_validate(struct job *j, struct err *e);
/* verify= only where every block is written once with one size (verify.h). */
int opt_verify_validate(const struct job *j, struct err *e);

/* random_distribution=zoned:A/S:...: the part after "zoned:" (one set for every direction). */
int opt_parse_zoned(struct job *j, const char *spec, const struct num_ctx *c, struct err *e);

/* The resolved values of verify (always "0"), gtod_reduce and zonemode. */
int opt_show_verify(const struct job *j, const struct opt_def *o, char *buf, size_t len);
int opt_show_gtod_reduce(const struct job *j, const struct opt_def *o, char *buf, size_t len);
int opt_show_zonemode(const struct job *j, const struct opt_def *o, char *buf, size_t len);

#endif
