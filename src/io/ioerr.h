/*
 * ioerr: which I/O errors a job goes on after (fio's continue_on_error and
 * ignore_error).
 *
 * fio's rule, followed here: an error is non-fatal when its class (read,
 * write, verify; a trim or sync counts as a write) is one continue_on_error
 * names AND its errno is in that class's ignore_error list, which defaults
 * to EIO and EILSEQ.  A non-fatal error is counted (total_err), the first
 * one's errno is kept (first_error, and fio's "error" field), and the job
 * goes on; any other error ends the job as before.  The worker asks
 * ioerr_nonfatal() only when an I/O failed, so the hot path is untouched.
 *
 * Not an option table of its own: the rows are in opt_table.c, the parse and
 * show callbacks here (they only touch job->ioerr).
 */
#ifndef IOTRIAL_IOERR_H
#define IOTRIAL_IOERR_H

#include <stddef.h>
#include <stdint.h>
#include "model/ioerr_cfg.h"	/* struct ioerr_cfg, IOERR_* */

/*
 * error_dump: one error continue_on_error let pass, as the job's thread
 * hands it to the caller of run_execute (run.h), which prints it.  The
 * strings are valid during the call only.
 */
struct ioerr_event {
	const char *job;		/* the job's name */
	const char *file;		/* the file's path, "" when none */
	int err;			/* positive errno */
	unsigned ddir;			/* enum ddir, syncs included */
	uint64_t offset;
	uint64_t len;
	const char *msg;		/* a verify failure's text (err EILSEQ), or NULL */
};

/* Called on the job's own thread, once per such error: it must be thread-safe. */
typedef void (*ioerr_dump_fn)(void *arg, const struct ioerr_event *ev);

struct job;
struct opt_def;
struct num_ctx;
struct err;

/* True when errno @err (positive) of class @cls lets the job go on. */
int ioerr_nonfatal(const struct ioerr_cfg *c, int cls, int err);

/* The class of an I/O of direction @ddir (enum ddir, syncs included). */
int ioerr_class(unsigned ddir);

/* continue_on_error=none|read|write|io|verify|all|0|1 */
int ioerr_parse_coe(struct job *j, const struct opt_def *o, const char *val,
		    const struct num_ctx *c, struct err *e);
int ioerr_show_coe(const struct job *j, const struct opt_def *o, char *buf, size_t len);

/* ignore_error=READ_LIST,WRITE_LIST,VERIFY_LIST, each ':'-separated names or numbers. */
int ioerr_parse_ignore(struct job *j, const struct opt_def *o, const char *val,
		       const struct num_ctx *c, struct err *e);
int ioerr_show_ignore(const struct job *j, const struct opt_def *o, char *buf, size_t len);

#endif
