/*
 * engine_cpuio: fio's cpuio engine, which burns CPU instead of doing I/O.
 * See engine_cpuio.c.  This header holds its option rows, expanded into the
 * option table by opt_table.c.
 */
#ifndef IOTRIAL_ENGINE_CPUIO_H
#define IOTRIAL_ENGINE_CPUIO_H

#include "model/opt_def.h"

extern const struct opt_choice engine_cpuio_modes[];

/* Rows for opt_table.c (F() is its field macro). */
#define ENGINE_CPUIO_OPTS \
	{ .name = "cpuload", .engines = "cpuio", .type = OPT_INT, F(eng.cpuload), .max = 100, \
	  .help = "cpuio: percent of one CPU to keep busy (required)" }, \
	{ .name = "cpuchunks", .engines = "cpuio", .type = OPT_INT, F(eng.cpuchunks), .min = 1, \
	  .help = "cpuio: microseconds of CPU burnt per cycle (one I/O)" }, \
	{ .name = "cpumode", .engines = "cpuio", .type = OPT_CHOICE, F(eng.cpumode), \
	  .choices = engine_cpuio_modes, \
	  .help = "cpuio: how the CPU is kept busy: noop (a spin loop) or qsort" }, \
	{ .name = "exit_on_io_done", .engines = "cpuio", .type = OPT_BOOL, \
	  F(eng.exit_on_io_done), \
	  .help = "cpuio: end when every non-cpuio job of the run is done" },

#endif
