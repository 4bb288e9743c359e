/*
 * engine_cmdprio: the option rows of per-I/O priorities (cmdprio_percentage,
 * cmdprio_class, cmdprio, cmdprio_bssplit), engine options of io_uring and
 * libaio (fio's engines/cmdprio.h; null accepts them too, for tests), kept
 * here with the engines.  The mechanism is cmdprio.c in the core: the worker
 * applies it and results carry its statistics, so its parse callbacks fill
 * struct job's cmdprio there.
 */
#ifndef IOTRIAL_ENGINE_CMDPRIO_H
#define IOTRIAL_ENGINE_CMDPRIO_H

#include "io/cmdprio.h"
#include "model/opt_def.h"

/* Rows for opt_table.c. */
#define ENGINE_CMDPRIO_OPTS \
	{ .name = "cmdprio_percentage", .engines = "io_uring libaio null", .type = OPT_FUNC, \
	  .parse = cmdprio_parse_pct, .show = cmdprio_show_pct, \
	  .help = "percent of I/Os (read,write) issued with cmdprio_class/cmdprio" }, \
	{ .name = "cmdprio_class", .engines = "io_uring libaio null", .type = OPT_FUNC, \
	  .parse = cmdprio_parse_class, .show = cmdprio_show_class, \
	  .help = "priority class of those I/Os, 1..3 (read,write; default 1, RT)" }, \
	{ .name = "cmdprio", .engines = "io_uring libaio null", .type = OPT_FUNC, \
	  .parse = cmdprio_parse_level, .show = cmdprio_show_level, \
	  .help = "priority level of those I/Os, 0..7 (read,write; default 0)" }, \
	{ .name = "cmdprio_bssplit", .engines = "io_uring libaio null", .type = OPT_FUNC, \
	  .parse = cmdprio_parse_bssplit, .show = cmdprio_show_bssplit, \
	  .help = "per block size: bs/percent[/class/level[/hint]]:..., read,write " \
		  "(the hint is accepted and not sent, as fio 3.33)" },

#endif
