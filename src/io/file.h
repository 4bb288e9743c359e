/*
 * file: a job's target files, from names to open descriptors.
 *
 * file_setup() turns a job's target options into open files ready for I/O:
 *   names     filename= as a ':'-separated list ("\:" is a literal colon;
 *             nrfiles is then ignored), or fio's generated names
 *             "<jobname>.<jobnum>.<filenum>" (jobnum = the clone number
 *             within the job, 0-based; filenum 0-based), placed in directory=
 *             (itself a ':' list: generated names spread clones over it, given
 *             names use the first).  An absolute filename is used as is (fio
 *             would prefix the directory; a device path is never meant so).
 *   region    each file's I/O region [offset, offset + size): offset= (bytes
 *             or %, aligned down to the smallest block size) plus
 *             offset_increment * jobnum; size from filesize= (a range picks a
 *             size per file, deterministically), else size= / number of files,
 *             else size=N% of the file, else the whole file from offset.
 *   layout    a regular file shorter than offset + size is created (when
 *             allow_file_create=1) or extended, with space preallocated; when
 *             the job reads, the new part is filled with non-repeating data by
 *             large sequential writes, so reads hit real blocks (as fio does;
 *             unlike fio, existing data is kept, never unlinked and redone).
 *   open      O_RDONLY for reading jobs, O_RDWR when writing or trimming, plus
 *             O_DIRECT (direct=1) and O_SYNC/O_DSYNC (sync=).  Block devices
 *             are sized with BLKGETSIZE64 and, for writes or trims, cleared by
 *             safety_check() first.  invalidate=1 drops the cached pages of
 *             the region.  A trim job checks that the target can trim.
 * Failures name the file and the reason: EXIT_TARGET when the target cannot
 * be opened, created or sized, EXIT_UNSAFE when safety refuses it.
 *
 * Ownership: file_setup allocates the array and each path; file_teardown
 * closes and frees them all.  Nothing here is on the hot path except
 * file_trim().
 */
#ifndef IOTRIAL_FILE_H
#define IOTRIAL_FILE_H

#include <stdint.h>
#include "io/engine.h"
#include "lib/err.h"
#include "model/job.h"

/*
 * Resolve, create/lay out, open and size clone @jobnum's files of @j.
 * @readonly: --readonly (refuses write/trim jobs and any file creation or
 * extension).  On success *files holds *nr open files.  Returns 0 or -errno
 * with @e filled; nothing stays open on failure.
 */
int file_setup(const struct job *j, unsigned jobnum, int readonly,
	       struct engine_file **files, unsigned *nr, struct err *e);

/*
 * For engines that make their targets themselves (ENGINE_F_OWNFILES): the
 * names and regions file_setup() would use, as if no file existed yet
 * (@real 0), or as if each existed with @real bytes (a target outside the
 * file system whose size the engine knows: an rbd image; a region past
 * @real is kept, and its I/O fails there, as fio's), and nothing created,
 * opened or looked at; every fd is -1.  Same ownership and errors as
 * file_setup() ("set size= or filesize=" when no size).
 */
int file_plan_only(const struct job *j, unsigned jobnum, uint64_t real,
		   struct engine_file **files, unsigned *nr, struct err *e);

/*
 * Close the files (fsync first when fsync_on_close=1 and the job writes),
 * unlink regular files when unlink=1, and free the array.  Accepts NULL.
 */
/*
 * filesize=: the size of file @idx of clone @jobnum, in filesize's range
 * (fixed for a given job, clone and file).  0 when filesize= is not set.
 */
uint64_t file_pick_size(const struct job *j, unsigned jobnum, unsigned idx);

void file_teardown(const struct job *j, struct engine_file *files, unsigned nr);

/*
 * The paths clone @jobnum of @j would use, without touching the disk (for
 * tests and --showcmd).  *names is an allocated array of allocated strings;
 * free it with file_names_free().  Returns 0 or -errno with @e filled.
 */
int file_names(const struct job *j, unsigned jobnum, char ***names, unsigned *nr, struct err *e);
/* vec_free_strings() under file.h's name (the API its callers and tests use). */
void file_names_free(char **names, unsigned nr);

/*
 * Discard [@offset, @offset + @len) of @f, synchronously: BLKDISCARD on a
 * block device, a punched hole (size kept) in a regular file.  Returns @len
 * or -errno (-EOPNOTSUPP where the target cannot trim).  Hot path: no
 * allocation.
 */
int64_t file_trim(const struct engine_file *f, uint64_t offset, uint64_t len);

#endif
