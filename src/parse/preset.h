/*
 * preset: named standard test sets (cdm, seed, seed-async, oltp, snia-iops),
 * each a fio job file compiled into the binary so that it travels with it.
 *
 * A preset is only text: it is read by the same job-file reader as any file
 * (jobfile_parse_buf), so `iotrial preset show NAME` prints a file that
 * parses back to exactly the jobs `--preset=NAME` runs.
 *
 * Precedence (lowest first): fio's defaults; the command-line options given
 * with --preset (they are also the defaults of the preset's jobs); the
 * preset's [global] sections; the preset job's own lines; then the same
 * command-line options again, appended to every job section of the preset
 * by preset_render().  So an option typed on the command line always wins
 * over the preset's (`--size=8M` shortens every test), and a rendered preset
 * saved as a file gives the same jobs without the command line.
 *
 * A preset also says how its results are summarised (report_summary.h):
 * one row per test (read and write side by side) or the IOPS matrix.
 */
#ifndef IOTRIAL_PRESET_H
#define IOTRIAL_PRESET_H

#include <stddef.h>
#include "lib/err.h"
#include "model/job.h"

enum preset_summary {
	PRESET_SUMMARY_TESTS,	/* a row per test; "X_read"/"X_write" jobs share row X */
	PRESET_SUMMARY_MATRIX,	/* jobs "<prefix><row>_<col>": a table of total IOPS */
};

struct preset {
	const char *name;
	const char *what;		/* one line for `preset list` */
	enum preset_summary summary;
	const char *matrix_prefix;	/* PRESET_SUMMARY_MATRIX: the matrix jobs' prefix */
	const char *text;		/* the job file */
};

/* Every preset, in list order; *nr gets the count. */
const struct preset *preset_all(size_t *nr);

/* The preset called @name, or NULL. */
const struct preset *preset_find(const char *name);

/*
 * preset_find() with an error for an unknown name: -ENOENT and EXIT_USAGE,
 * "unknown preset 'x' (presets: cdm, seed, ...)".
 */
int preset_lookup(const char *name, const struct preset **out, struct err *e);

/*
 * The preset's job file with @nr overrides (options as typed on the command
 * line, key and value; a NULL value is a bare flag) appended to the end of
 * every job section, under a comment that says where they came from.
 * *text is malloc'd (the caller frees it).  A value a job file cannot carry
 * (a newline, ';' or '#', which start a comment there, or "${", which the
 * reader expands) is refused: -EINVAL, EXIT_USAGE, naming the option.
 * Returns 0, -EINVAL or -ENOMEM (EXIT_INTERNAL).
 */
int preset_render(const struct preset *p, const struct job_kv *over, size_t nr, char **text,
		  struct err *e);

#endif
