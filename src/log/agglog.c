/*
 * agglog: fio's aggregate bandwidth logs (--bandwidth-log); the format and
 * the sampling rule are in agglog.h.
 */
#include "log/agglog.h"

#include <errno.h>	/* EIO */
#include <string.h>	/* strerror */
#include "io/safety.h"	/* safety_check_output */

static void agglog_path(char *buf, size_t n, const char *dir, int d)
{
	snprintf(buf, n, "%s%sagg-%s_bw.log", dir ? dir : "", dir ? "/" : "",
		 ddir_name((enum ddir)d));
}

int agglog_check(const char *dir, int allow_device, struct err *e)
{
	char path[4096];
	int d, r = 0;

	for (d = 0; d < DDIR_NR && !r; d++) {
		agglog_path(path, sizeof(path), dir, d);
		r = safety_check_output(path, "--bandwidth-log", allow_device, e);
	}
	return r;
}

int agglog_open(struct agglog *a, const char *dir, struct err *e)
{
	char path[4096];
	int d;

	memset(a, 0, sizeof(*a));
	for (d = 0; d < DDIR_NR; d++) {
		agglog_path(path, sizeof(path), dir, d);
		a->f[d] = fopen(path, "w");
		if (!a->f[d]) {
			int r = -errno;

			agglog_close(a, NULL);
			return err_set(e, r, EXIT_OUTPUT, "%s: cannot write log file: %s", path,
				       strerror(-r));
		}
	}
	return 0;
}

void agglog_sample(struct agglog *a, uint64_t now_ns, uint64_t t0_ns,
		   const uint64_t bytes[DDIR_NR], int ramping, int final)
{
	uint64_t ms;
	int d;

	if (!a->f[0])
		return;
	if (ramping) {
		/* no line; the next window starts from here (the ramp's last tick) */
		a->t_last_ns = now_ns;
		for (d = 0; d < DDIR_NR; d++)
			a->bytes_last[d] = bytes[d];
		a->primed = 1;
		return;
	}
	if (!a->primed) {
		/* the first window starts at the run's start, with nothing done */
		a->t_last_ns = now_ns < t0_ns ? now_ns : t0_ns;
		memset(a->bytes_last, 0, sizeof(a->bytes_last));
		a->primed = 1;
	}
	if (now_ns < a->t_last_ns + (final ? 1000000 : AGGLOG_PERIOD_NS))
		return;
	ms = (now_ns - a->t_last_ns) / 1000000;
	for (d = 0; d < DDIR_NR; d++) {
		uint64_t db = bytes[d] >= a->bytes_last[d] ? bytes[d] - a->bytes_last[d] : 0;

		fprintf(a->f[d], "%llu, %llu, %d, 0, 0\n",
			(unsigned long long)((now_ns - t0_ns) / 1000000),
			(unsigned long long)(db * 1000 / 1024 / ms), d);
		a->bytes_last[d] = bytes[d];
	}
	a->t_last_ns = now_ns;
}

int agglog_close(struct agglog *a, struct err *e)
{
	int d, r = 0;

	for (d = 0; d < DDIR_NR; d++) {
		if (!a->f[d])
			continue;
		int bad = ferror(a->f[d]);

		errno = 0;
		if (fclose(a->f[d]))
			bad = 1;
		if (bad && !r && e) {
			char path[64];

			r = -(errno ? errno : EIO);
			agglog_path(path, sizeof(path), NULL, d);
			err_set(e, r, EXIT_OUTPUT, "%s: write failed: %s", path, strerror(-r));
		}
		a->f[d] = NULL;
	}
	return r;
}
