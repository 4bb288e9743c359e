/*
 * opt_def: what one row of the option table is (its type, bounds, help and
 * callbacks), and the row callbacks for a fixed-size string.  The rows
 * themselves live with what they configure (the engines' in their files,
 * steady state's in steady/opt_steady.h, io/'s option groups); the table that
 * gathers them and everything that reads it are parse/opt.h, above them all.
 * This header is below every row's owner, so an engine or a measurement
 * module can describe its options without reaching the parser.
 */
#ifndef IOTRIAL_OPT_DEF_H
#define IOTRIAL_OPT_DEF_H

#include <stddef.h>
#include <stdint.h>
#include "lib/err.h"
#include "model/job.h"
#include "model/num.h"

enum opt_type {
	OPT_STR,		/* char * owned by the job */
	OPT_BOOL,		/* int 0/1; the value is required ("direct=1") */
	OPT_FLAG,		/* int; may appear bare ("time_based") or as =0/=1 */
	OPT_INT,		/* unsigned integer of width 4 or 8, units allowed */
	OPT_INT_DDIR,		/* three unsigned integers, read,write,trim */
	OPT_TIME,		/* a time of width 4 or 8, stored in unit_us units */
	OPT_CHOICE,		/* one keyword of @choices, stored as an int */
	OPT_FUNC,		/* @parse / @show callbacks */
	OPT_UNSUPPORTED,	/* fio has it, iotrial refuses it by name */
};

enum {
	OPT_F_NOSHOW = 1u << 0,	/* shares storage with another option: not listed */
	OPT_F_OPTVAL = 1u << 1,	/* OPT_STR that may appear bare (stored as "") */
	OPT_F_IOTRIAL = 1u << 2,	/* iotrial's own option, not fio's */
	/*
	 * It picks the job's engine (ioengine): the job's engine area then
	 * holds that engine's options (parse/opt.c).
	 */
	OPT_F_ENGINE = 1u << 3,
	/*
	 * Not on fio 3.33's command-line list under the engines iotrial runs:
	 * an option of a fio engine iotrial lacks (http's, xnvme's, ...) or
	 * of a later fio.  Refused by its full name, but no prefix that fio
	 * would read otherwise resolves to it (parse/cmdline.c).
	 */
	OPT_F_FOREIGN = 1u << 4,
};

struct opt_choice {
	const char *name;
	int val;
};

struct opt_def {
	const char *name;
	const char *alias[2];
	enum opt_type type;
	unsigned flags;
	size_t off;			/* offset of the field in struct job */
	size_t width;			/* sizeof the field (one element for _DDIR) */
	uint64_t min, max;		/* integer and time bounds, stored units; max 0 = none */
	uint64_t unit_us;		/* OPT_TIME: stored unit (1 = us, 1000 = ms) */
	uint64_t bare_us;		/* OPT_TIME: what a number without unit means */
	const struct opt_choice *choices;	/* OPT_CHOICE: NULL-name terminated */
	/* OPT_FUNC: parse @val (NULL when bare) into @j. 0 or -errno with @e filled. */
	int (*parse)(struct job *j, const struct opt_def *o, const char *val,
		     const struct num_ctx *c, struct err *e);
	/* OPT_FUNC: write the resolved value; returns 1 when unset (omitted), else 0. */
	int (*show)(const struct job *j, const struct opt_def *o, char *buf, size_t len);
	/*
	 * OPT_FUNC whose values are a closed set kept elsewhere (ioengine: the
	 * engine registry): the @i-th value, NULL past the end.  --cmdhelp
	 * lists them; a value not among them gets a "did you mean".
	 */
	const char *(*value_at)(size_t i);
	/*
	 * --debug=parse: a line more about @val (fio's for steadystate: the
	 * threshold it parsed), written to @buf; returns snprintf's count.
	 * NULL: none.  In the row, so opt.c names no option of its own.
	 */
	int (*debug)(const char *val, char *buf, size_t len);
	const char *help;		/* OPT_UNSUPPORTED: why, and what to use instead */
};

/* A row's storage: @field of struct job (off and width). */
#define OPT_FIELD(field) \
	.off = offsetof(struct job, field), .width = sizeof(((struct job *)0)->field)

/*
 * A fixed-size string field of struct job (the row's off/width: exec's
 * program and arguments, e4defrag's donorname, rbd's names, in the engine
 * area): parse refuses a
 * value that does not fit, naming the option (0 or -EINVAL with @e filled);
 * show prints it, or returns 1 (unset) when empty.
 */
int opt_parse_strbuf(struct job *j, const struct opt_def *o, const char *val,
		     const struct num_ctx *c, struct err *e);
int opt_show_strbuf(const struct job *j, const struct opt_def *o, char *buf, size_t len);

#endif
