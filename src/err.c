/*
 * err: formatting of error values (see err.h).
 */
#include "err.h"

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
