/*
 * outfile: an output document written whole or not at all.
 *
 * A report is first written into a FILE * that is not the destination: a
 * temporary file in the target's directory (renamed over the target on
 * commit, so a reader sees the old file or the new one, never half of one),
 * or, for stdout and for targets that cannot be renamed over (/dev/null, a
 * FIFO, /dev/stdout), an in-memory buffer written in one go on commit.  An
 * interrupted or failed run therefore never leaves a truncated JSON file,
 * and stdout never carries part of a document.
 *
 * Usage: outfile_open(); write to o.f; outfile_commit() or outfile_abort().
 */
#ifndef IOTRIAL_OUTFILE_H
#define IOTRIAL_OUTFILE_H

#include <stddef.h>
#include <stdio.h>
#include "lib/err.h"

struct outfile {
	FILE *f;		/* write the document here */
	char *target;		/* destination path; NULL for stdout */
	char *tmp;		/* temporary file (rename mode), else NULL */
	char *buf;		/* open_memstream buffer (buffer mode) */
	size_t len;
};

/*
 * Prepare to write to @path (NULL or "-": stdout).  On success o->f is ready.
 * Returns 0, or -errno with @e filled (EXIT_OUTPUT) naming the path and the
 * reason (directory missing or not writable, target is a directory, ...).
 */
int outfile_open(struct outfile *o, const char *path, struct err *e);

/*
 * Finish: check that every write succeeded, make the data durable (fsync)
 * and put it in place (rename over the target, or write the buffer out and
 * check that write).  Returns 0, or -errno with @e filled (EXIT_OUTPUT); on
 * failure the target is left as it was (except a non-renamable target,
 * which may have been partly written).  @o is released either way.
 */
int outfile_commit(struct outfile *o, struct err *e);

/*
 * Can a document be written to @path (NULL or "-": stdout, always yes)?
 * Checked before a run so that a bad --output fails before any I/O rather
 * than after the whole run: the directory must exist and be writable (the
 * document goes to a temporary file there), an existing regular file must be
 * writable, a FIFO or device must be openable for writing (checked with
 * access(), nothing is opened), and the path must not be a directory.
 * Returns 0, or -errno with @e filled (EXIT_OUTPUT) naming the path.
 */
int outfile_check(const char *path, struct err *e);

/* Drop the document: remove the temporary file, free the buffer.  Idempotent. */
void outfile_abort(struct outfile *o);

#endif
