/*
 * opt_parse: the parse/show callbacks that opt_table.c's rows name (see
 * opt.h's struct opt_def for their contract: parse returns 0 or -errno with
 * @e filled through num_error; show prints the value as --showcmd does).
 * Used only by opt_table.c.
 */
#ifndef IOTRIAL_OPT_PARSE_H
#define IOTRIAL_OPT_PARSE_H

#include <stddef.h>
#include "lib/err.h"
#include "model/job.h"
#include "model/num.h"
#include "parse/opt.h"

int opt_parse_name(struct job *j, const struct opt_def *o, const char *val,
		   const struct num_ctx *c, struct err *e);
int opt_show_name(const struct job *j, const struct opt_def *o, char *buf, size_t len);
int opt_parse_size(struct job *j, const struct opt_def *o, const char *val,
		   const struct num_ctx *c, struct err *e);
int opt_show_size(const struct job *j, const struct opt_def *o, char *buf, size_t len);
int opt_parse_offset(struct job *j, const struct opt_def *o, const char *val,
		     const struct num_ctx *c, struct err *e);
int opt_show_offset(const struct job *j, const struct opt_def *o, char *buf, size_t len);
/*
 * A byte count that also takes fio's zone units, "Nz" (io_size,
 * offset_increment, zoneskip: the row's field is a uint64_t, its slot in
 * zone_units.h's list).
 */
int opt_parse_zbytes(struct job *j, const struct opt_def *o, const char *val,
		     const struct num_ctx *c, struct err *e);
int opt_show_zbytes(const struct job *j, const struct opt_def *o, char *buf, size_t len);
int opt_parse_filesize(struct job *j, const struct opt_def *o, const char *val,
		       const struct num_ctx *c, struct err *e);
int opt_show_filesize(const struct job *j, const struct opt_def *o, char *buf, size_t len);
int opt_parse_rw(struct job *j, const struct opt_def *o, const char *val,
		 const struct num_ctx *c, struct err *e);
int opt_show_rw(const struct job *j, const struct opt_def *o, char *buf, size_t len);
int opt_parse_rwmixwrite(struct job *j, const struct opt_def *o, const char *val,
			 const struct num_ctx *c, struct err *e);
int opt_parse_bsrange(struct job *j, const struct opt_def *o, const char *val,
		      const struct num_ctx *c, struct err *e);
int opt_show_bsrange(const struct job *j, const struct opt_def *o, char *buf, size_t len);
int opt_parse_bssplit(struct job *j, const struct opt_def *o, const char *val,
		      const struct num_ctx *c, struct err *e);
int opt_show_bssplit(const struct job *j, const struct opt_def *o, char *buf, size_t len);
int opt_parse_allrandrepeat(struct job *j, const struct opt_def *o, const char *val,
			    const struct num_ctx *c, struct err *e);
int opt_show_allrandrepeat(const struct job *j, const struct opt_def *o, char *buf, size_t len);
int opt_parse_randseed(struct job *j, const struct opt_def *o, const char *val,
		       const struct num_ctx *c, struct err *e);
int opt_show_randseed(const struct job *j, const struct opt_def *o, char *buf, size_t len);
int opt_parse_random_distribution(struct job *j, const struct opt_def *o, const char *val,
				  const struct num_ctx *c, struct err *e);
int opt_show_random_distribution(const struct job *j, const struct opt_def *o, char *buf,
				 size_t len);
int opt_engine_check(const char *name, const char *where, struct err *e);
int opt_parse_ioengine(struct job *j, const struct opt_def *o, const char *val,
		       const struct num_ctx *c, struct err *e);
int opt_show_ioengine(const struct job *j, const struct opt_def *o, char *buf, size_t len);
int opt_parse_buffered(struct job *j, const struct opt_def *o, const char *val,
		       const struct num_ctx *c, struct err *e);
int opt_parse_cpus_allowed(struct job *j, const struct opt_def *o, const char *val,
			   const struct num_ctx *c, struct err *e);
int opt_show_cpus_allowed(const struct job *j, const struct opt_def *o, char *buf, size_t len);
int opt_parse_percentile_list(struct job *j, const struct opt_def *o, const char *val,
			      const struct num_ctx *c, struct err *e);
int opt_show_percentile_list(const struct job *j, const struct opt_def *o, char *buf,
			     size_t len);

#endif
