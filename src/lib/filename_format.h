/*
 * filename_format: fio's names for generated files ($jobname, $jobnum,
 * $filenum, $clientuid), and the directories such a name asks for.
 *
 * The default is fio's "$jobname.$jobnum.$filenum".  $clientuid is the
 * client's address in fio's client/server mode, which iotrial has not: it
 * becomes "", as in a plain fio run.  A name with '/' has its directories
 * created (relative to directory=, as fio) when the job's files are set up.
 */
#ifndef IOTRIAL_FILENAME_FORMAT_H
#define IOTRIAL_FILENAME_FORMAT_H

#include <stddef.h>

/* @fmt expanded into @buf.  0, or -ENAMETOOLONG when it does not fit. */
int filename_format_expand(const char *fmt, const char *jobname, unsigned jobnum,
			   unsigned filenum, char *buf, size_t len);

/* Create the directories above @path (not @path itself).  0 or -errno. */
int filename_format_mkdirs(const char *path);

#endif
