/*
 * job_engine: defaults of the engine options in struct job_engine (the
 * callbacks for its fixed-size strings are opt_parse_strbuf/opt_show_strbuf:
 * job.h embeds this struct, so this file stays below the option table).
 */
#include "model/job_engine.h"

#include <string.h>	/* memset */

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
