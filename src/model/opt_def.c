/*
 * opt_def: the row callbacks shared by every owner of option rows (see
 * opt_def.h).
 */
#include <errno.h>
#include <stdio.h>	/* snprintf */
#include <string.h>
#include "model/opt_def.h"

int opt_parse_strbuf(struct job *j, const struct opt_def *o, const char *val,
		     const struct num_ctx *c, struct err *e)
{
	char *dst = (char *)j + o->off;
	size_t n = val ? strlen(val) : 0;

	if (!val || !n)
		return num_error(e, c, -EINVAL, val ? val : "", "a value is required");
	if (n >= o->width)
		return num_error(e, c, -EINVAL, val, "longer than %zu characters", o->width - 1);
	memcpy(dst, val, n + 1);
	return 0;
}

int opt_show_strbuf(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	const char *src = (const char *)j + o->off;

	if (!src[0])
		return 1;
	snprintf(buf, len, "%s", src);
	return 0;
}
