/*
 * engine_e4defrag: fio's e4defrag engine, whose writes move the file's
 * extents with EXT4_IOC_MOVE_EXT.  See engine_e4defrag.c.  This header holds
 * its option rows, expanded into the option table by opt_table.c.
 */
#ifndef IOTRIAL_ENGINE_E4DEFRAG_H
#define IOTRIAL_ENGINE_E4DEFRAG_H

#include "model/opt_def.h"
#include "model/job_engine.h"

/* Rows for opt_table.c (F() is its field macro). */
#define ENGINE_E4DEFRAG_OPTS \
	{ .name = "donorname", .engines = "e4defrag", .type = OPT_FUNC, F(eng.donorname), \
	  .parse = opt_parse_strbuf, .show = opt_show_strbuf, \
	  .help = "e4defrag: the donor file (in directory=) whose blocks are swapped in" }, \
	{ .name = "inplace", .engines = "e4defrag", .type = OPT_INT, F(eng.inplace), .max = 1, \
	  .help = "e4defrag: 0 preallocates the donor once, 1 allocates and frees it per I/O" },

#endif
