/*
 * readfile: a whole file into memory, up to a limit.  The one reader of job
 * files and result files (jobfile.c, resultread.c, compare_suite.c): a
 * document larger than the limit is refused before it is all in memory, and
 * the buffer grows by doubling (a constant step copies O(n^2) bytes).
 */
#ifndef IOTRIAL_READFILE_H
#define IOTRIAL_READFILE_H

#include <stddef.h>

/*
 * Read @path whole into *@buf (malloc'd, NUL-terminated; free() it), its
 * length in *@len.  Returns 0; -errno when it cannot be opened (the open's
 * errno); -EIO when a read fails; -EFBIG when it holds more than @max bytes;
 * -ENOMEM.  On failure *@buf is NULL.
 */
int readfile_all(const char *path, size_t max, char **buf, size_t *len);

#endif
