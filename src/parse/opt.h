/*
 * opt: the one option table.
 *
 * Every option iotrial knows is a row of the table: its name and aliases,
 * how its value is read, where it lands in struct job, its bounds and its
 * help.  The core's rows are opt_table.c's; each engine's are in its own
 * file, gathered from the engine registry (io/engine.h), and belong to the
 * engines that list them.  Job files, the command line, --showcmd, --cmdhelp and the JSON
 * "job options" all go through this table; nothing else knows option names.
 * Options fio has and iotrial does not implement are rows too (OPT_UNSUPPORTED),
 * so that they are refused by name ("unsupported option 'verify'") instead of
 * being mistaken for typos or, worse, ignored.
 *
 * Defaults are not in the table: they are whatever job_init() sets (an
 * engine's: its opts_default), read back through the same show functions
 * that print resolved values.
 */
#ifndef IOTRIAL_OPT_H
#define IOTRIAL_OPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>	/* FILE */
#include "lib/err.h"
#include "model/job.h"
#include "model/num.h"
#include "model/opt_def.h"	/* struct opt_def: a row */

/* A position in the table: zero-initialise it to start at the first row. */
struct opt_iter {
	unsigned part;
	size_t a, b;
};

/*
 * The row at @it, advancing it; NULL past the last.  The rows in order: the
 * core's first part, every engine's (the registry's order, a row several
 * engines list once), the core's second part (opt_table.c).
 */
const struct opt_def *opt_next(struct opt_iter *it);

/* The row for @name or one of its aliases (supported or not), or NULL. */
const struct opt_def *opt_find(const char *name);

/*
 * Set option @name to @val (NULL when it appeared bare) in @j, and record the
 * pair as typed with job_kv_add().  @where ("file:line" or "command line")
 * goes into messages.  Refuses unknown options ("unknown option 'xyz'"),
 * fio options iotrial lacks ("unsupported option 'verify'"), a missing value
 * ("option 'direct' requires a value") and bad values.  Returns 0 or -errno
 * with @e filled (exit code EXIT_USAGE); @j is unchanged on failure.
 */
int opt_set(struct job *j, const char *name, const char *val, const char *where,
	    struct err *e);

/*
 * 0 if engine @name is compiled in; otherwise -EINVAL with "unsupported
 * engine 'rbd'" (an engine fio has) or "unknown engine 'foo'" (@where added).
 */
int opt_engine_check(const char *name, const char *where, struct err *e);

/*
 * Cross-field checks and fix-ups once every option is set: ioengine known,
 * bs > 0, bsrange defaulting to bs, bssplit sums, iodepth 1..65536, batch and
 * low-water marks clamped to iodepth, rate vs rate_iops, offset < size,
 * percentiles, steady state (ss_dur > 0 without ss= means iops_slope:0.01%;
 * the stop and reporting rules of job_steady.h must build; snia_stop=1 with
 * fio's ss= is refused), write_*_log given bare takes the job name.  Messages name the job and where
 * it was defined.  Returns 0 or -errno with @e filled.
 */
int opt_job_validate(struct job *j, struct err *e);

/*
 * Every supported option (aliases and storage-sharing rows excluded) with
 * its resolved value: bytes and microseconds as plain numbers, per-direction
 * values as "r,w,t" (one number when all three agree), unset strings left
 * out.  The caller frees the array with opt_kv_free().  0 or -ENOMEM.
 */
int opt_job_resolved(const struct job *j, struct job_kv **kv, size_t *nr);

/*
 * Refuse an engine option (a row an engine lists, io/engine.h) that @j set
 * itself (its "job options") away from its default under an engine that
 * does not list it: "option 'fixedbufs' belongs to ioengine io_uring, not
 * psync".  A global section (empty name) is named 'global'.  0 or -EINVAL
 * with @e filled.  Called by opt_job_validate(), and on global sections by
 * their parsers.
 */
int opt_engine_owned_check(const struct job *j, struct err *e);

/*
 * Reset to their defaults the engine options @j inherited (not in its own
 * "job options") for an engine other than its own, as fio drops a [global]
 * engine's options when a job switches engine.  The engine area needs no
 * reset (it holds the options of the job's engine only: see opt.c);
 * this is for the engine options kept in struct job itself (hipri,
 * exit_on_io_done).  Called by opt_job_validate() after
 * opt_engine_owned_check().
 */
void opt_engine_drop_inherited(struct job *j);

/* Free what opt_job_resolved() returned. */
void opt_kv_free(struct job_kv *kv, size_t nr);

/*
 * @j as a command line that re-parses to the same job: "--name=x" then every
 * option whose resolved value differs from the default, times with an
 * explicit "us".  *line is malloc'd (the caller frees it).  0 or -ENOMEM.
 */
int opt_job_cmdline(const struct job *j, char **line);

/*
 * fio's --debug=parse trace of option @name=@val (@val NULL: bare), as set on
 * a job: "handle_option=NAME, ptr=VAL" (the canonical name), and the row's
 * debug line (steadystate: the threshold parsed), one line each ('\n'-separated, no final
 * newline) in @buf.  Returns snprintf's count.
 */
int opt_debug_parse(const char *name, const char *val, char *buf, size_t len);

/*
 * Print help: @name NULL lists every supported option with its help line;
 * otherwise the option's name, aliases, type, default, range and values.
 * Returns 0, or -ENOENT when @name is not an option (nothing printed).
 */
int opt_cmdhelp(FILE *f, const char *name);

#endif
