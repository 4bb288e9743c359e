/*
 * test_agglog: fio's aggregate bandwidth log lines (agglog.h) from given
 * times and byte counts: the names, the 5 columns, the KiB/s of each window,
 * no line before 500 ms or while a job ramps, and the final partial window.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>	/* mkdtemp, rmdir, unlink */
#include "check.h"
#include "log/agglog.h"

#define MS 1000000ull

static char *slurp(const char *dir, const char *name)
{
	static char buf[4096];
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

TEST(lines_as_fio)
{
	char dir[] = "/tmp/test_agglog.XXXXXX";
	struct agglog a;
	struct err e;
	uint64_t t0 = 5000 * MS;
	uint64_t b[DDIR_NR] = { 0, 0, 0 };
	static const char *const names[] = { "agg-read_bw.log", "agg-write_bw.log", "agg-trim_bw.log" };

	if (!mkdtemp(dir))
		SKIP("mkdtemp failed");
	err_clear(&e);
	CHECK(!agglog_open(&a, dir, &e));
	b[0] = 100 << 20;
	agglog_sample(&a, t0 + 100 * MS, t0, b, 0, 0);		/* < 500 ms: no line */
	b[0] = 500 << 20;
	b[1] = 250 << 20;
	agglog_sample(&a, t0 + 500 * MS, t0, b, 0, 0);		/* 500 MiB in 0.5 s */
	b[0] = 600 << 20;
	agglog_sample(&a, t0 + 700 * MS, t0, b, 1, 0);		/* a ramp: no line, restart */
	b[0] = 700 << 20;
	agglog_sample(&a, t0 + 1200 * MS, t0, b, 0, 0);		/* 100 MiB in 0.5 s */
	b[0] = 710 << 20;
	agglog_sample(&a, t0 + 1300 * MS, t0, b, 0, 1);		/* the end: 10 MiB in 0.1 s */
	CHECK(!agglog_close(&a, &e));
	CHECK_STR(slurp(dir, names[0]), "500, 1024000, 0, 0, 0\n1200, 204800, 0, 0, 0\n"
					 "1300, 102400, 0, 0, 0\n");
	CHECK_STR(slurp(dir, names[1]), "500, 512000, 1, 0, 0\n1200, 0, 1, 0, 0\n1300, 0, 1, 0, 0\n");
	CHECK_STR(slurp(dir, names[2]), "500, 0, 2, 0, 0\n1200, 0, 2, 0, 0\n1300, 0, 2, 0, 0\n");
	for (int d = 0; d < DDIR_NR; d++) {
		char p[512];

		snprintf(p, sizeof(p), "%s/%s", dir, names[d]);
		unlink(p);
	}
	rmdir(dir);
}

int main(void)
{
	RUN(lines_as_fio);
	return CHECK_DONE();
}
