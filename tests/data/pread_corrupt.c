/*
 * A pread() that flips the byte at $CORRUPT_OFF of the file $CORRUPT_FILE
 * (its path as /proc/self/fd shows it) in what it returns, for LD_PRELOAD in
 * the verify tests: the file stays intact, the read comes back corrupted,
 * in iotrial and in fio alike (both read with pread under psync).
 * With $CORRUPT_SCAN=BS instead of $CORRUPT_OFF, every block k (BS bytes) of
 * every file whose path starts with $CORRUPT_FILE comes back with its 4-byte
 * word k (modulo BS/4) flipped: one read pass corrupts every word position
 * once (tests/e2e/opt_verify_scan.sh).
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
	const char *f = getenv("CORRUPT_FILE"), *o = getenv("CORRUPT_OFF"), *scan = getenv("CORRUPT_SCAN");
	char p[64], path[4096];
	ssize_t got, l;
	long long at;

	if (!real)
		real = (ssize_t (*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
	got = real(fd, buf, n, off);
	if (got <= 0 || !f || (!o && !scan))
		return got;
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	l = readlink(p, path, sizeof(path) - 1);
	if (l <= 0)
		return got;
	path[l] = 0;
	if (scan ? strncmp(path, f, strlen(f)) : strcmp(path, f))
		return got;
	if (scan) {
		long long bs = atoll(scan), b, i;

		for (b = off / bs; bs >= 4 && b * bs < off + got; b++)
			for (i = 0; i < 4; i++) {
				at = b * bs + (b % (bs / 4)) * 4 + i;
				if (at >= off && at < off + got)
					((unsigned char *)buf)[at - off] ^= 0xff;
			}
		return got;
	}
	at = atoll(o);
	if (at >= off && at < off + got)
		((unsigned char *)buf)[at - off] ^= 0xff;
	return got;
}
ssize_t pread64(int fd, void *buf, size_t n, off_t off) { return pread(fd, buf, n, off); }
