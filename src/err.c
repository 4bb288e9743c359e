/*
 * err: formatting of error values (see err.h).
 */
#include "err.h"

#include <stdarg.h>	/* va_list */
#include <stdio.h>	/* vsnprintf */
#include <string.h>	/* memset */

int err_set(struct err *e, int code, int exit_code, const char *fmt, ...)
{
	va_list ap;

	if (!e || e->code)
		return code;
	e->code = code;
	e->exit_code = exit_code;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return code;
}

void err_clear(struct err *e)
{
	memset(e, 0, sizeof(*e));
}
