/*
 * jobfile: fio's INI job files.
 *
 * "[name]" starts a job; "[global]" sets defaults for the jobs below it in
 * the same file (several are allowed, each adds to the last).  Jobs start
 * from the caller's defaults (the command-line globals), then the file's
 * [global] options above them, then their own.  ";" and "#" start a comment
 * anywhere on a line (as fio: "filename=a#b" is "a").  "${VAR}" is replaced by
 * the environment variable (empty when unset); ${RANK} and ${NRANKS} are
 * built in (the MPI rank and rank count, 0 and 1 outside MPI); $ncpus, $pagesize and
 * $mb_memory are left for the number parser.  "include FILE" inside a
 * section reads FILE's options (no sections) into it; FILE is relative to the
 * including file's directory; loops are refused.  A section name given twice
 * makes two jobs.  Options appear bare (flags) or as key=value.
 *
 * Errors name file:line: an unterminated "[", an option or include outside a
 * section, a missing or unreadable file, a file with no job, NUL or other
 * binary bytes, invalid UTF-8, a line longer than JOBFILE_LINE_MAX, and every
 * option error from opt_set().  Jobs are not validated here (the caller runs
 * opt_job_validate once all sources are read).
 */
#ifndef IOTRIAL_JOBFILE_H
#define IOTRIAL_JOBFILE_H

#include <stddef.h>
#include "lib/err.h"
#include "model/job.h"

#define JOBFILE_LINE_MAX 8192
#define JOBFILE_INCLUDE_DEPTH 16
#define JOBFILE_SIZE_MAX (16u << 20)
/*
 * Jobs (sections kept) over all job files and the command line: each costs
 * about 9 KiB parsed, and a 12 MB file of empty sections would otherwise ask
 * for ~29 GB.  fio's own default limit (--max-jobs) is the same.
 */
#define JOBFILE_JOBS_MAX 4096

/* What parsing appends to; the caller owns it (jobfile_out_free). */
struct jobfile_out {
	struct job *jobs;		/* in file order */
	size_t jobs_nr;
	size_t jobs_cap;		/* allocated (doubling: see vec.h) */
	struct job_kv *globals;		/* [global] options as typed, in order */
	size_t globals_nr, globals_cap;
	char **skipped;			/* job sections --section left out: "did you mean" */
	size_t skipped_nr, skipped_cap;
};

/*
 * Parse job file @path, appending its jobs to @out.  Each job starts as a
 * copy of @defaults.  When @sections_nr > 0, only jobs whose name is one of
 * @sections are kept ([global] sections always apply).  Returns 0 or -errno
 * with @e filled (EXIT_USAGE); on failure @out keeps what was appended before.
 */
int jobfile_parse(const char *path, const struct job *defaults, char *const *sections,
		  size_t sections_nr, struct jobfile_out *out, struct err *e);

/* The same for text already in memory; @name stands for the file in messages
 * and includes are relative to its directory. */
int jobfile_parse_buf(const char *buf, size_t len, const char *name,
		      const struct job *defaults, char *const *sections, size_t sections_nr,
		      struct jobfile_out *out, struct err *e);

/* Free everything @out holds and zero it. */
void jobfile_out_free(struct jobfile_out *out);

#endif
