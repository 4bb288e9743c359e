/*
 * err: formatting of error values (see err.h).
 */
#include "lib/err.h"

#include <stdarg.h>	/* va_list */
#include <stdio.h>	/* vsnprintf */
#include <string.h>	/* memset */

/*
 * Copy @s into @dst escaping control characters: a message is one line, but
 * values in it come from users (a ${VAR} holding a newline, a file name with
 * a carriage return or a terminal escape).  \n and \r are written as such,
 * other control bytes as \xNN; a tab stays.
 */
void err_escape(char *dst, size_t n, const char *s)
{
	size_t o = 0;

	for (; *s && o + 5 < n; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n' || c == '\r') {
			dst[o++] = '\\';
			dst[o++] = c == '\n' ? 'n' : 'r';
		} else if ((c < 0x20 && c != '\t') || c == 0x7f) {
			o += (size_t)snprintf(dst + o, n - o, "\\x%02x", c);
		} else {
			dst[o++] = (char)c;
		}
	}
	dst[o] = '\0';
}

int err_set(struct err *e, int code, int exit_code, const char *fmt, ...)
{
	char raw[ERR_MSG_MAX];
	va_list ap;

	if (!e || e->code)
		return code;
	e->code = code;
	e->exit_code = exit_code;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	err_escape(e->msg, sizeof(e->msg), raw);
	return code;
}

void err_clear(struct err *e)
{
	memset(e, 0, sizeof(*e));
}

static const struct err_exit_code exit_codes[] = {
	{ EXIT_OK, "success" },
	{ EXIT_JOB_ERROR, "a job hit an I/O error (results are still written)" },
	{ EXIT_USAGE, "bad option, value, job file or result file" },
	{ EXIT_TARGET, "a target could not be opened, created or sized" },
	{ EXIT_UNSAFE, "refused: writing would risk data (mounted, signature, --readonly)" },
	{ EXIT_INTERRUPTED, "interrupted by a signal (partial results are written)" },
	{ EXIT_REGRESSION, "compare: a regression beyond the threshold" },
	{ EXIT_OUTPUT, "results could not be written" },
	{ EXIT_VERIFY, "data verification failed (verify=): the data read back is not what was written" },
	{ EXIT_INTERNAL, "internal error" },
};

const struct err_exit_code *err_exit_codes(size_t *n)
{
	*n = sizeof(exit_codes) / sizeof(exit_codes[0]);
	return exit_codes;
}
