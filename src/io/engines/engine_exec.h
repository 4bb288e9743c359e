/*
 * engine_exec: fio's exec engine, which runs a program for the job's
 * runtime.  See engine_exec.c.  This header holds its option rows, expanded
 * into the option table by opt_table.c.
 */
#ifndef IOTRIAL_ENGINE_EXEC_H
#define IOTRIAL_ENGINE_EXEC_H

#include "model/opt_def.h"
#include "model/job_engine.h"

/* Rows for opt_table.c (F() and SEC are its macros). */
#define ENGINE_EXEC_OPTS \
	{ .name = "program", .engines = "exec", .type = OPT_FUNC, F(eng.program), \
	  .parse = opt_parse_strbuf, .show = opt_show_strbuf, \
	  .help = "exec: the program to run (looked up in PATH)" }, \
	{ .name = "arguments", .engines = "exec", .type = OPT_FUNC, F(eng.arguments), \
	  .parse = opt_parse_strbuf, .show = opt_show_strbuf, \
	  .help = "exec: its arguments, split at spaces; %r is the runtime in seconds, %n the job name" }, \
	{ .name = "grace_time", .engines = "exec", .type = OPT_TIME, F(eng.grace_time_us), \
	  .unit_us = 1, .bare_us = SEC, \
	  .help = "exec: time between SIGTERM and SIGKILL at the end of the job" }, \
	{ .name = "std_redirect", .engines = "exec", .type = OPT_BOOL, F(eng.std_redirect), \
	  .help = "exec: stdout and stderr go to <job>.stdout and <job>.stderr (default 1)" },

#endif
