/*
 * engine_fileop: fio's file-operation engines (filecreate, filestat,
 * filedelete, dircreate, dirstat, dirdelete), whose "I/O" is an operation on
 * a whole file or directory.  See engine_fileop.c.  This header holds their
 * option rows, expanded into the option table by opt_table.c.
 */
#ifndef IOTRIAL_ENGINE_FILEOP_H
#define IOTRIAL_ENGINE_FILEOP_H

#include "model/opt_def.h"

#define ENGINE_FILEOP_NAMES "filecreate filestat filedelete dircreate dirstat dirdelete"

/* stat_type=: stat, lstat, statx */
extern const struct opt_choice engine_fileop_stat_types[];

/* Rows for opt_table.c (F() is its field macro). */
#define ENGINE_FILEOP_OPTS \
	{ .name = "stat_type", .engines = "filestat dirstat", .type = OPT_CHOICE, \
	  F(eng.stat_type), .choices = engine_fileop_stat_types, \
	  .help = "filestat/dirstat: the call that is timed: stat, lstat or statx" }, \
	{ .name = "openfiles", .type = OPT_INT, F(eng.openfiles), \
	  .help = "files in use at once (default nrfiles): round-robin over the first N, a " \
	  "file done makes room for the next; the file-operation engines close each file " \
	  "right after its operation" },

#endif
