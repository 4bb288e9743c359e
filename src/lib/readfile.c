/*
 * readfile: a whole file into memory, up to a limit (readfile.h).
 */
#include "lib/readfile.h"

#include <errno.h>	/* EIO, EFBIG, ENOMEM */
#include <stdio.h>	/* fopen, fread */
#include <stdlib.h>	/* realloc, free */

int readfile_all(const char *path, size_t max, char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t n = 0, cap = 0, got;
	char *b = NULL, *nb;
	int ret = 0;

	*buf = NULL;
	*len = 0;
	if (!f)
		return -errno;
	do {
		if (n > max) {
			ret = -EFBIG;
			break;
		}
		if (cap - n < 65536) {
			size_t ncap = cap < 65536 ? 65536 : 2 * cap;

			nb = realloc(b, ncap + 1);
			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			b = nb;
			cap = ncap;
		}
		got = fread(b + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	if (!ret && ferror(f))
		ret = -EIO;
	fclose(f);
	if (ret) {
		free(b);
		return ret;
	}
	if (!b && !(b = malloc(1)))
		return -ENOMEM;
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}
