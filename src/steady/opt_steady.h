/*
 * opt_steady: parse/show callbacks for the steady-state options and
 * unified_rw_reporting (see opt_steady.c).  Used only by opt_table.c.
 */
#ifndef IOTRIAL_OPT_STEADY_H
#define IOTRIAL_OPT_STEADY_H

#include <stddef.h>
#include "lib/err.h"
#include "model/job.h"
#include "model/num.h"
#include "model/opt_def.h"

/*
 * fio's --debug=parse line for steadystate=@val: the threshold it parsed
 * ("set steady state IOPS threshold to 10.000000", "... threshold to
 * 0.100000%"), or the parse error, in @buf.  Returns snprintf's count.
 */
int opt_debug_steadystate(const char *val, char *buf, size_t len);

int opt_parse_steadystate(struct job *j, const struct opt_def *o, const char *val,
		const struct num_ctx *c, struct err *e);
int opt_show_steadystate(const struct job *j, const struct opt_def *o, char *buf, size_t len);
int opt_parse_unified_rw(struct job *j, const struct opt_def *o, const char *val,
		const struct num_ctx *c, struct err *e);
int opt_show_unified_rw(const struct job *j, const struct opt_def *o, char *buf, size_t len);
int opt_parse_steady_report(struct job *j, const struct opt_def *o, const char *val,
		const struct num_ctx *c, struct err *e);
int opt_show_steady_report(const struct job *j, const struct opt_def *o, char *buf, size_t len);
int opt_parse_snia_pct(struct job *j, const struct opt_def *o, const char *val,
		const struct num_ctx *c, struct err *e);
int opt_show_snia_pct(const struct job *j, const struct opt_def *o, char *buf, size_t len);


#endif
