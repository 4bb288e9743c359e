/*
 * job_engine: defaults of the engine options in struct job_engine and the
 * callbacks for its fixed-size strings (program, arguments, donorname).
 */
#include "job_engine.h"

#include <errno.h>	/* EINVAL */
#include <stdio.h>	/* snprintf */
#include <string.h>	/* memset, strlen, memcpy */
#include "opt.h"

void job_engine_init(struct job_engine *je)
{
	memset(je, 0, sizeof(*je));
	je->stat_type = JOB_STAT_STAT;
	je->cpuchunks = 50000;
	je->cpumode = JOB_CPUMODE_NOOP;
	je->grace_time_us = 1000000;
	je->std_redirect = 1;
	je->fallocate = JOB_FALLOC_NATIVE;
}

int job_engine_parse_str(struct job *j, const struct opt_def *o, const char *val,
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

int job_engine_show_str(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	const char *src = (const char *)j + o->off;

	if (!src[0])
		return 1;
	snprintf(buf, len, "%s", src);
	return 0;
}
