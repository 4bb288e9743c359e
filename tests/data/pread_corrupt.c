/*
 * A pread() that flips the byte at $CORRUPT_OFF of the file $CORRUPT_FILE
 * (its path as /proc/self/fd shows it) in what it returns, for LD_PRELOAD in
 * the verify tests: the file stays intact, the read comes back corrupted,
 * in iotrial and in fio alike (both read with pread under psync).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	static ssize_t (*real)(int, void *, size_t, off_t);
	const char *f = getenv("CORRUPT_FILE"), *o = getenv("CORRUPT_OFF");
	char p[64], path[4096];
	ssize_t got, l;
	long long at;

	if (!real)
		real = (ssize_t (*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
	got = real(fd, buf, n, off);
	if (got <= 0 || !f || !o)
		return got;
	at = atoll(o);
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	l = readlink(p, path, sizeof(path) - 1);
	if (l <= 0)
		return got;
	path[l] = 0;
	if (!strcmp(path, f) && at >= off && at < off + got)
		((unsigned char *)buf)[at - off] ^= 0xff;
	return got;
}
ssize_t pread64(int fd, void *buf, size_t n, off_t off) { return pread(fd, buf, n, off); }
