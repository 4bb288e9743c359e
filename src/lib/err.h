/*
 * err: an error value that carries a message.
 *
 * Library functions return 0 or -errno and, when they fail for a reason a user
 * must see (a bad option, a job file line, a device that is unsafe to write),
 * they also fill a struct err.  The message names the culprit: file:line,
 * option and value.  Only main() prints it ("iotrial: error: <msg>").
 */
#ifndef IOTRIAL_ERR_H
#define IOTRIAL_ERR_H

#include <stddef.h>

#define ERR_MSG_MAX 512

struct err {
	int code;		/* negative errno of the first failure, 0 if none */
	int exit_code;		/* iotrial exit code main() should use (EXIT_*) */
	char msg[ERR_MSG_MAX];
};

/*
 * Exit codes.  Kept here so that the core can say which class of failure
 * happened without calling exit(); err_exit_codes() is the one list of what
 * each means, printed by --help (tests/e2e/docs_exit_codes.sh checks the man
 * page's EXIT STATUS against it).
 */
enum {
	EXIT_OK = 0,
	EXIT_JOB_ERROR = 1,	/* a job hit an I/O error (results still written) */
	EXIT_USAGE = 2,		/* bad option, value, job file or result file */
	EXIT_TARGET = 3,	/* a target could not be opened, created or sized */
	EXIT_UNSAFE = 4,	/* refused: writing would risk a user's data */
	EXIT_INTERRUPTED = 5,	/* stopped by a signal; partial results written */
	EXIT_REGRESSION = 6,	/* compare: a regression beyond the threshold */
	EXIT_OUTPUT = 7,	/* results could not be written */
	EXIT_VERIFY = 8,	/* verify=: data read back differs from what was written */
	EXIT_INTERNAL = 70,	/* a bug or an unexpected system failure */
};

/* One exit code and what it means, as --help prints it. */
struct err_exit_code {
	int code;
	const char *meaning;
};

/* Every exit code, in order (@*n of them). */
const struct err_exit_code *err_exit_codes(size_t *n);

/*
 * Fill @e (if not NULL) with a printf-style message and @code; returns @code so
 * callers can write "return err_set(e, -EINVAL, EXIT_USAGE, ...)".  A second
 * call does not overwrite the first failure: the root cause wins.
 */
int err_set(struct err *e, int code, int exit_code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Copy @s into @dst (@n bytes, n >= 6) with CR, LF and other control bytes
 * escaped (\n, \r, \xNN), so a user's value cannot break a one-line message.
 * err_set() applies it to every message.
 */
void err_escape(char *dst, size_t n, const char *s);

/* Clear @e so it can be reused. */
void err_clear(struct err *e);

#endif
