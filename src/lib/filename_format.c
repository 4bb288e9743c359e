/*
 * filename_format: expanding fio's file name keywords (see filename_format.h).
 */
#include "lib/filename_format.h"

#include <errno.h>	/* ENAMETOOLONG, EEXIST */
#include <stdio.h>	/* snprintf */
#include <string.h>	/* strncmp, strlen */
#include <sys/stat.h>	/* mkdir */

int filename_format_expand(const char *fmt, const char *jobname, unsigned jobnum,
			   unsigned filenum, char *buf, size_t len)
{
	size_t pos = 0;
	int n;

	if (!len)
		return -ENAMETOOLONG;
	while (*fmt) {
		if (!strncmp(fmt, "$jobname", 8)) {
			n = snprintf(buf + pos, len - pos, "%s", jobname);
			fmt += 8;
		} else if (!strncmp(fmt, "$jobnum", 7)) {
			n = snprintf(buf + pos, len - pos, "%u", jobnum);
			fmt += 7;
		} else if (!strncmp(fmt, "$filenum", 8)) {
			n = snprintf(buf + pos, len - pos, "%u", filenum);
			fmt += 8;
		} else if (!strncmp(fmt, "$clientuid", 10)) {
			n = 0;		/* no client/server mode: empty, as in a plain fio run */
			fmt += 10;
		} else {
			n = snprintf(buf + pos, len - pos, "%c", *fmt);
			fmt++;
		}
		if (n < 0 || (size_t)n >= len - pos)
			return -ENAMETOOLONG;
		pos += (size_t)n;
	}
	buf[pos] = '\0';
	return 0;
}

int filename_format_mkdirs(const char *path)
{
	char buf[4096];
	size_t i, n = strlen(path);

	if (n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, n + 1);
	for (i = 1; i < n; i++) {
		if (buf[i] != '/')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		buf[i] = '/';
	}
	return 0;
}
