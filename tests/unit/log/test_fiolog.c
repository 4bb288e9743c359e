/*
 * test_fiolog: fio log files -- names, exact line text per mode (per I/O,
 * averaged, max, both, log_offset, hist), shared per_job_logs=0 files, a
 * line-by-line shape comparison with logs fio 3.33 itself wrote (fixtures,
 * and fio run live when installed), and fio's own readers on our files
 * (fio2gnuplot, fio_generate_plots, fiologparser_hist.py) when present.
 */
#include "check.h"
#include "log/fiolog.h"

#include <errno.h>
#include <regex.h>	/* line shapes */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = 0;
	fclose(f);
	return buf;
}

/* @path's content equals @want exactly. */
static int file_is(const char *path, const char *want)
{
	char *got = slurp(path);
	int ok = got && !strcmp(got, want);

	if (!ok)
		printf("  %s:\n--- got ---\n%s--- want ---\n%s", path, got ? got : "(missing)\n", want);
	free(got);
	return ok;
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static void path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

/* A job with logs under dir/<prefix>. */
static void log_job(struct job *j, const char *name, const char *prefix)
{
	static char pfx[128];

	memset(j, 0, sizeof(*j));
	snprintf(j->name, sizeof(j->name), "%s", name);
	snprintf(pfx, sizeof(pfx), "%s/%s", dir, prefix);
	j->write_bw_log = pfx;
	j->write_iops_log = pfx;
	j->write_lat_log = pfx;
	j->per_job_logs = 1;
}

TEST(names)
{
	struct job j;
	struct fiolog l;
	struct err e;
	char p[256], bare[128];
	const char *kinds[] = { "bw", "iops", "slat", "clat", "lat", "clat_hist" };

	log_job(&j, "nm", "a");
	j.write_hist_log = j.write_bw_log;
	err_clear(&e);
	CHECK_EQ_U(fiolog_open(&l, &j, 3, &e), 0);
	for (int k = 0; k < 6; k++) {
		char n[64];

		snprintf(n, sizeof(n), "a_%s.3.log", kinds[k]);
		path(p, sizeof(p), n);
		CHECK(exists(p));	/* created at open, before any I/O */
	}
	CHECK(fiolog_active(&l));
	CHECK(l.hist == NULL);	/* no log_hist_msec: file empty, nothing collected */
	CHECK_EQ_U(fiolog_close(&l, 1000, &e), 0);
	path(p, sizeof(p), "a_clat_hist.3.log");
	CHECK(file_is(p, ""));
	fiolog_free(&l);

	/* per_job_logs=0: no job number; disable_slat/lat: no such file */
	log_job(&j, "nm", "b");
	j.per_job_logs = 0;
	j.disable_slat = 1;
	j.disable_lat = 1;
	CHECK_EQ_U(fiolog_open(&l, &j, 1, &e), 0);
	path(p, sizeof(p), "b_clat.log");
	CHECK(exists(p));
	path(p, sizeof(p), "b_slat.log");
	CHECK(!exists(p));
	path(p, sizeof(p), "b_lat.log");
	CHECK(!exists(p));
	fiolog_free(&l);

	/* a bare write_bw_log= means the job name, in the current directory */
	memset(&j, 0, sizeof(j));
	snprintf(bare, sizeof(bare), "%s/jobname", dir);
	snprintf(j.name, sizeof(j.name), "%s", bare);
	j.write_iops_log = "";
	j.per_job_logs = 1;
	CHECK_EQ_U(fiolog_open(&l, &j, 2, &e), 0);
	path(p, sizeof(p), "jobname_iops.2.log");
	CHECK(exists(p));
	CHECK(fiolog_active(&l));
	fiolog_free(&l);

	/* no logs: inert */
	memset(&j, 0, sizeof(j));
	CHECK_EQ_U(fiolog_open(&l, &j, 1, &e), 0);
	CHECK(!fiolog_active(&l));
	fiolog_io(&l, 5, DDIR_READ, 4096, 0, FIOLOG_NONE, 10, 20);
	CHECK_EQ_U(fiolog_close(&l, 10, &e), 0);
	fiolog_free(&l);

	/* an unwritable place fails at open, naming the file */
	log_job(&j, "nm", "no/such/dir/x");
	err_clear(&e);
	CHECK_EQ_U(fiolog_open(&l, &j, 1, &e), (uint64_t)-ENOENT);
	CHECK_EQ_U(e.exit_code, EXIT_OUTPUT);
	CHECK(strstr(e.msg, "no/such/dir/x_bw.1.log") != NULL);
}

/* log_avg_msec=0: one line per I/O, fio's values and columns. */
TEST(per_io_lines)
{
	struct job j;
	struct fiolog l;
	struct err e;
	char p[256];

	log_job(&j, "pio", "p");
	err_clear(&e);
	CHECK_EQ_U(fiolog_open(&l, &j, 1, &e), 0);
	fiolog_io(&l, 0, DDIR_READ, 4096, 8192, FIOLOG_NONE, 37391, 38072);
	fiolog_io(&l, 1, DDIR_WRITE, 8192, 0, FIOLOG_NONE, 260, 310);
	fiolog_io(&l, 1, DDIR_READ, 4096, 4096, FIOLOG_NONE, 40, 80);
	CHECK_EQ_U(fiolog_close(&l, 2, &e), 0);
	fiolog_free(&l);
	/* bw = bs x 10^6 / clat_ns: 4096e6 / 37391 = 109545 (fio's own line) */
	path(p, sizeof(p), "p_bw.1.log");
	CHECK(file_is(p, "0, 109545, 0, 4096, 0\n1, 31507692, 1, 8192, 0\n1, 102400000, 0, 4096, 0\n"));
	path(p, sizeof(p), "p_iops.1.log");
	CHECK(file_is(p, "0, 1, 0, 4096, 0\n1, 1, 1, 8192, 0\n1, 1, 0, 4096, 0\n"));
	path(p, sizeof(p), "p_clat.1.log");
	CHECK(file_is(p, "0, 37391, 0, 4096, 0\n1, 260, 1, 8192, 0\n1, 40, 0, 4096, 0\n"));
	path(p, sizeof(p), "p_lat.1.log");
	CHECK(file_is(p, "0, 38072, 0, 4096, 0\n1, 310, 1, 8192, 0\n1, 80, 0, 4096, 0\n"));
	path(p, sizeof(p), "p_slat.1.log");
	CHECK(file_is(p, ""));	/* synchronous engine: exists, empty */

	/* log_offset=1 adds the offset before the priority; slat is stamped at submit */
	log_job(&j, "pio", "q");
	j.log_offset = 1;
	CHECK_EQ_U(fiolog_open(&l, &j, 1, &e), 0);
	fiolog_io(&l, 10, DDIR_READ, 4096, 249856, 5000, 2500000, 2505000);
	fiolog_io(&l, 11, DDIR_TRIM, 65536, 3104768, 700, 1000, 1700);
	CHECK_EQ_U(fiolog_close(&l, 12, &e), 0);
	fiolog_free(&l);
	path(p, sizeof(p), "q_clat.1.log");
	CHECK(file_is(p, "10, 2500000, 0, 4096, 249856, 0\n11, 1000, 2, 65536, 3104768, 0\n"));
	path(p, sizeof(p), "q_slat.1.log");
	CHECK(file_is(p, "8, 5000, 0, 4096, 249856, 0\n11, 700, 2, 65536, 3104768, 0\n"));
}

/* The I/Os of the averaged-window tests (log_avg_msec=500), ended at 2300 ms. */
static void avg_ios(struct fiolog *l)
{
	fiolog_io(l, 10, DDIR_READ, 4096, 0, FIOLOG_NONE, 1000, 1100);
	fiolog_io(l, 20, DDIR_READ, 4096, 0, FIOLOG_NONE, 3000, 3100);
	fiolog_io(l, 30, DDIR_WRITE, 8192, 0, FIOLOG_NONE, 500, 600);
	fiolog_io(l, 499, DDIR_READ, 4096, 0, FIOLOG_NONE, 2000, 2100);
	/* 500..1500: nothing; */
	fiolog_io(l, 1700, DDIR_READ, 4096, 0, FIOLOG_NONE, 4000, 4100);
	fiolog_io(l, 2100, DDIR_READ, 4096, 0, FIOLOG_NONE, 5000, 5100);
}

/*
 * Window [0,500): reads 3 x 4 KiB -> 24 KiB/s, 6 IOPS, clat mean 2000 max
 * 3000; the write 16 KiB/s, 2 IOPS, 500.  [500,1500): no I/O, no line.
 * [1500,2000): one read.  [2000,2300) is partial: only the latency logs keep
 * it, stamped 2300.
 */
TEST(averaged_windows)
{
	struct job j;
	struct fiolog l;
	struct err e;
	char p[256];

	log_job(&j, "avg", "v");
	j.log_avg_msec = 500;
	err_clear(&e);
	CHECK_EQ_U(fiolog_open(&l, &j, 1, &e), 0);
	avg_ios(&l);
	CHECK_EQ_U(fiolog_close(&l, 2300, &e), 0);
	fiolog_free(&l);
	path(p, sizeof(p), "v_bw.1.log");
	CHECK(file_is(p, "500, 24, 0, 0, 0\n500, 16, 1, 0, 0\n2000, 8, 0, 0, 0\n"));
	path(p, sizeof(p), "v_iops.1.log");
	CHECK(file_is(p, "500, 6, 0, 0, 0\n500, 2, 1, 0, 0\n2000, 2, 0, 0, 0\n"));
	path(p, sizeof(p), "v_clat.1.log");
	CHECK(file_is(p, "500, 2000, 0, 0, 0\n500, 500, 1, 0, 0\n2000, 4000, 0, 0, 0\n"
		      "2300, 5000, 0, 0, 0\n"));
	path(p, sizeof(p), "v_lat.1.log");
	CHECK(file_is(p, "500, 2100, 0, 0, 0\n500, 600, 1, 0, 0\n2000, 4100, 0, 0, 0\n"
		      "2300, 5100, 0, 0, 0\n"));

	/* log_window_value=max */
	log_job(&j, "avg", "m");
	j.log_avg_msec = 500;
	j.log_max_value = 1;
	CHECK_EQ_U(fiolog_open(&l, &j, 1, &e), 0);
	avg_ios(&l);
	CHECK_EQ_U(fiolog_close(&l, 2300, &e), 0);
	fiolog_free(&l);
	path(p, sizeof(p), "m_clat.1.log");
	CHECK(file_is(p, "500, 3000, 0, 0, 0\n500, 500, 1, 0, 0\n2000, 4000, 0, 0, 0\n"
		      "2300, 5000, 0, 0, 0\n"));
	path(p, sizeof(p), "m_bw.1.log");
	CHECK(file_is(p, "500, 24, 0, 0, 0\n500, 16, 1, 0, 0\n2000, 8, 0, 0, 0\n"));

	/* log_window_value=both, with log_offset: avg, max, ..., offset 0 */
	log_job(&j, "avg", "b");
	j.log_avg_msec = 500;
	j.log_max_value = 2;
	j.log_offset = 1;
	CHECK_EQ_U(fiolog_open(&l, &j, 1, &e), 0);
	avg_ios(&l);
	CHECK_EQ_U(fiolog_close(&l, 2300, &e), 0);
	fiolog_free(&l);
	path(p, sizeof(p), "b_clat.1.log");
	CHECK(file_is(p, "500, 2000, 3000, 0, 0, 0, 0\n500, 500, 500, 1, 0, 0, 0\n"
		      "2000, 4000, 4000, 0, 0, 0, 0\n2300, 5000, 5000, 0, 0, 0, 0\n"));
	path(p, sizeof(p), "b_iops.1.log");
	CHECK(file_is(p, "500, 6, 6, 0, 0, 0, 0\n500, 2, 2, 1, 0, 0, 0\n2000, 2, 2, 0, 0, 0, 0\n"));
}

/*
 * A job that ends exactly on a window boundary (2000 ms, windows of 500):
 * fio never samples the window ending then, so bw/iops have no 2000 line
 * even though an I/O completed in that millisecond; the latency logs keep
 * it (fio writes them at exit).  Same for a hist row ending at the end.
 */
TEST(window_ending_at_the_end)
{
	struct job j;
	struct fiolog l;
	struct err e;
	char p[256];

	log_job(&j, "end", "z");
	j.log_avg_msec = 500;
	j.write_hist_log = "";
	snprintf(j.name, sizeof(j.name), "%s/zh", dir);
	j.log_hist_msec = 1000;
	err_clear(&e);
	CHECK_EQ_U(fiolog_open(&l, &j, 1, &e), 0);
	fiolog_io(&l, 100, DDIR_READ, 4096, 0, FIOLOG_NONE, 1000, 1100);
	fiolog_io(&l, 1900, DDIR_READ, 4096, 0, FIOLOG_NONE, 3000, 3100);
	fiolog_io(&l, 2000, DDIR_READ, 4096, 0, FIOLOG_NONE, 5000, 5100);	/* rolls [1500,2000) */
	CHECK_EQ_U(fiolog_close(&l, 2000, &e), 0);
	fiolog_free(&l);
	path(p, sizeof(p), "z_bw.1.log");
	CHECK(file_is(p, "500, 8, 0, 0, 0\n"));
	path(p, sizeof(p), "z_iops.1.log");
	CHECK(file_is(p, "500, 2, 0, 0, 0\n"));
	path(p, sizeof(p), "z_clat.1.log");
	CHECK(file_is(p, "500, 1000, 0, 0, 0\n2000, 3000, 0, 0, 0\n"));
	/* hist: the [0,1000) row stays, the [1000,2000) one ends at the end */
	path(p, sizeof(p), "zh_clat_hist.1.log");
	{
		char *t = slurp(p);

		CHECK(t != NULL && strncmp(t, "1000, 0, 4096, ", 15) == 0 &&
		      strchr(t, '\n') == t + strlen(t) - 1);
		free(t);
	}
}

/* Fields of one line of a hist log, or -1. */
static int hist_line(const char *line, uint64_t *f, int max)
{
	int n = 0;
	const char *s = line;
	char *end;

	while (n < max) {
		f[n++] = strtoull(s, &end, 10);
		if (end == s)
			return -1;
		if (*end == '\n' || !*end)
			return n;
		if (end[0] != ',' || end[1] != ' ')
			return -1;
		s = end + 2;
	}
	return -1;
}

/* log_hist_msec=100: per direction per window, 1856 bucket counts. */
TEST(hist_rows)
{
	struct job j;
	struct fiolog l;
	struct err e;
	char p[256], *txt, *line, *save = NULL;
	static uint64_t f[HIST_NR + 8];
	int row = 0;

	log_job(&j, "h", "h");
	j.write_bw_log = j.write_iops_log = j.write_lat_log = NULL;
	j.write_hist_log = "";
	snprintf(j.name, sizeof(j.name), "%s/hj", dir);
	j.log_hist_msec = 100;
	err_clear(&e);
	CHECK_EQ_U(fiolog_open(&l, &j, 1, &e), 0);
	CHECK(fiolog_active(&l));
	fiolog_io(&l, 5, DDIR_READ, 4096, 0, FIOLOG_NONE, 1000, 1100);
	fiolog_io(&l, 50, DDIR_READ, 4096, 0, FIOLOG_NONE, 1003, 1100);
	fiolog_io(&l, 60, DDIR_WRITE, 8192, 0, FIOLOG_NONE, 200000, 200100);
	fiolog_io(&l, 150, DDIR_READ, 16384, 0, FIOLOG_NONE, 70, 100);
	fiolog_io(&l, 250, DDIR_READ, 4096, 0, FIOLOG_NONE, 5000, 5100);	/* partial: dropped */
	CHECK_EQ_U(fiolog_close(&l, 260, &e), 0);
	fiolog_free(&l);
	path(p, sizeof(p), "hj_clat_hist.1.log");
	txt = slurp(p);
	CHECK(txt != NULL);
	for (line = txt ? strtok_r(txt, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
		int n = hist_line(line, f, HIST_NR + 8);
		uint64_t sum = 0;

		CHECK_EQ_U(n, 3 + HIST_NR);
		for (int b = 3; b < n; b++)
			sum += f[b];
		if (row == 0) {
			CHECK_EQ_U(f[0], 100);
			CHECK_EQ_U(f[1], 0);
			CHECK_EQ_U(f[2], 4096);
			CHECK_EQ_U(f[3 + hist_index(1000)], 2);	/* 1000 and 1003 share a bucket */
			CHECK_EQ_U(sum, 2);
		} else if (row == 1) {
			CHECK_EQ_U(f[0], 100);
			CHECK_EQ_U(f[1], 1);
			CHECK_EQ_U(f[2], 8192);
			CHECK_EQ_U(f[3 + hist_index(200000)], 1);
			CHECK_EQ_U(sum, 1);
		} else if (row == 2) {
			CHECK_EQ_U(f[0], 200);
			CHECK_EQ_U(f[2], 16384);
			CHECK_EQ_U(f[3 + 70], 1);
			CHECK_EQ_U(sum, 1);
		}
		row++;
	}
	CHECK_EQ_U(row, 3);
	free(txt);
}

/* per_job_logs=0: jobs sharing a prefix append to one file. */
TEST(shared_append)
{
	struct job j;
	struct fiolog a, b;
	struct err e;
	char p[256];

	log_job(&j, "sh", "s");
	j.write_bw_log = j.write_lat_log = NULL;
	j.per_job_logs = 0;
	err_clear(&e);
	CHECK_EQ_U(fiolog_open(&a, &j, 1, &e), 0);
	CHECK_EQ_U(fiolog_open(&b, &j, 2, &e), 0);
	fiolog_io(&a, 1, DDIR_READ, 4096, 0, FIOLOG_NONE, 10, 20);
	fiolog_io(&b, 2, DDIR_WRITE, 4096, 0, FIOLOG_NONE, 10, 20);
	fiolog_io(&a, 3, DDIR_READ, 4096, 0, FIOLOG_NONE, 10, 20);
	CHECK_EQ_U(fiolog_close(&a, 5, &e), 0);
	CHECK_EQ_U(fiolog_close(&b, 5, &e), 0);
	fiolog_free(&a);
	fiolog_free(&b);
	path(p, sizeof(p), "s_iops.log");
	CHECK(file_is(p, "1, 1, 0, 4096, 0\n3, 1, 0, 4096, 0\n2, 1, 1, 4096, 0\n"));
}

/* Every line of @file matches @re; returns the line count, or -1. */
static long lines_matching(const char *file, const char *re)
{
	regex_t rx;
	char *txt = slurp(file), *line, *save = NULL;
	long n = 0;

	if (!txt || regcomp(&rx, re, REG_EXTENDED | REG_NOSUB)) {
		free(txt);
		return -1;
	}
	for (line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (regexec(&rx, line, 0, NULL, 0)) {
			printf("  %s: line does not match %s: %s\n", file, re, line);
			n = -1;
			break;
		}
		n++;
	}
	regfree(&rx);
	free(txt);
	return n;
}

#define RE_LINE "^[0-9]+, [0-9]+, [012], [0-9]+, 0$"
#define RE_AVG "^[0-9]+, [0-9]+, [012], 0, 0$"
#define RE_OFFSET "^[0-9]+, [0-9]+, [012], [0-9]+, [0-9]+, 0$"

/* fio 3.33's own sample logs (tests/data/series/fio-3.33) have our shapes. */
TEST(fio_samples_shape)
{
	static uint64_t f[HIST_NR + 8];
	const char *d = "tests/data/series/fio-3.33";
	char p[256], *txt;

	snprintf(p, sizeof(p), "%s/bb_bw.1.log", d);
	if (!exists(p))
		SKIP("fixtures %s not found (run from the tree root)", d);
	CHECK_EQ_U(lines_matching(p, RE_AVG), 4);
	snprintf(p, sizeof(p), "%s/ii_iops.1.log", d);
	CHECK_EQ_U(lines_matching(p, RE_AVG), 4);
	snprintf(p, sizeof(p), "%s/ll_clat.1.log", d);
	CHECK_EQ_U(lines_matching(p, RE_AVG), 4);
	snprintf(p, sizeof(p), "%s/hh_clat_hist.1.log", d);
	txt = slurp(p);
	CHECK(txt && hist_line(txt, f, HIST_NR + 8) == 3 + HIST_NR);
	free(txt);
	/* and ours, from the averaged test above */
	path(p, sizeof(p), "v_bw.1.log");
	CHECK_EQ_U(lines_matching(p, RE_AVG), 3);
	path(p, sizeof(p), "p_clat.1.log");
	CHECK_EQ_U(lines_matching(p, RE_LINE), 3);
	path(p, sizeof(p), "q_clat.1.log");
	CHECK_EQ_U(lines_matching(p, RE_OFFSET), 2);
}

static int have(const char *cmd)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "command -v %s >/dev/null 2>&1", cmd);
	return system(buf) == 0;
}

static long count_lines(const char *file)
{
	char *txt = slurp(file);
	long n = 0;

	if (!txt)
		return -1;
	for (char *c = txt; *c; c++)
		n += *c == '\n';
	free(txt);
	return n;
}

/*
 * The same job shape, by fio and by us: per-I/O logs with log_offset on the
 * null engine, 64 I/Os of randrw.  Same file names, line counts and shapes.
 */
TEST(live_fio_per_io)
{
	char cmd[768], p[256], q[256];
	const char *kinds[] = { "bw", "iops", "slat", "clat", "lat" };
	struct job j;
	struct fiolog l;
	struct err e;

	if (!have("fio"))
		SKIP("fio not installed");
	snprintf(cmd, sizeof(cmd), "fio --name=cmp --ioengine=null --size=256k --rw=randrw "
		 "--write_bw_log=%s/fio --write_iops_log=%s/fio --write_lat_log=%s/fio "
		 "--log_offset=1 --output=/dev/null >/dev/null 2>&1", dir, dir, dir);
	CHECK_EQ_U(system(cmd), 0);
	log_job(&j, "cmp", "ours");
	j.log_offset = 1;
	err_clear(&e);
	CHECK_EQ_U(fiolog_open(&l, &j, 1, &e), 0);
	for (unsigned i = 0; i < 64; i++)
		fiolog_io(&l, i / 20, i % 3 ? DDIR_READ : DDIR_WRITE, 4096, (uint64_t)(i * 7 % 64) * 4096,
			  FIOLOG_NONE, 100 + i, 150 + i);
	CHECK_EQ_U(fiolog_close(&l, 4, &e), 0);
	fiolog_free(&l);
	for (int k = 0; k < 5; k++) {
		snprintf(p, sizeof(p), "%s/fio_%s.1.log", dir, kinds[k]);
		snprintf(q, sizeof(q), "%s/ours_%s.1.log", dir, kinds[k]);
		CHECK(exists(p) && exists(q));
		CHECK_EQ_U(count_lines(q), count_lines(p));
		if (count_lines(p) > 0) {
			CHECK_EQ_U(lines_matching(p, RE_OFFSET), 64);
			CHECK_EQ_U(lines_matching(q, RE_OFFSET), 64);
		}
	}
}

/* Timestamps (field 1) of a log's lines into @t; returns how many. */
static int stamps(const char *file, uint64_t *t, int max)
{
	char *txt = slurp(file), *line, *save = NULL;
	int n = 0;

	if (!txt)
		return -1;
	for (line = strtok_r(txt, "\n", &save); line && n < max; line = strtok_r(NULL, "\n", &save))
		t[n++] = strtoull(line, NULL, 10);
	free(txt);
	return n;
}

/*
 * Averaged logs of a 200 IOPS read job over 1.2 s, by fio and by us: the
 * same window stamps for bw/iops (500, 1000; the partial window dropped),
 * the latency logs adding the partial window at the end.  fio stamps a
 * window when its helper thread or an I/O notices it ended (500 or 501...);
 * we stamp the nominal end: equal within scheduling noise.
 */
TEST(live_fio_averaged)
{
	char cmd[768], p[256], q[256];
	uint64_t tf[16], to[16];
	int nf, no;
	struct job j;
	struct fiolog l;
	struct err e;

	if (!have("fio"))
		SKIP("fio not installed");
	snprintf(cmd, sizeof(cmd), "fio --name=avg --ioengine=null --size=4m --rw=read "
		 "--time_based --runtime=1200ms --rate_iops=200 --log_avg_msec=500 "
		 "--write_bw_log=%s/fa --write_iops_log=%s/fa --write_lat_log=%s/fa "
		 "--output=/dev/null >/dev/null 2>&1", dir, dir, dir);
	CHECK_EQ_U(system(cmd), 0);
	log_job(&j, "avg", "oa");
	j.log_avg_msec = 500;
	err_clear(&e);
	CHECK_EQ_U(fiolog_open(&l, &j, 1, &e), 0);
	for (uint64_t t = 0; t < 1200; t += 5)
		fiolog_io(&l, t, DDIR_READ, 4096, 0, FIOLOG_NONE, 300, 400);
	CHECK_EQ_U(fiolog_close(&l, 1200, &e), 0);
	fiolog_free(&l);
	snprintf(p, sizeof(p), "%s/fa_iops.1.log", dir);
	snprintf(q, sizeof(q), "%s/oa_iops.1.log", dir);
	nf = stamps(p, tf, 16);
	no = stamps(q, to, 16);
	CHECK_EQ_U(nf, 2);
	CHECK_EQ_U(no, nf);
	/* fio's helper thread stamps a window when it gets to it: never before
	 * its end (5 ms for the two clocks' start), and 0-45 ms after it under
	 * tests/load.sh; any stamp short of the next window's end is the same
	 * window, which is what is compared */
	for (int i = 0; i < nf && i < no; i++)
		CHECK(tf[i] + 5 >= to[i] && tf[i] < to[i] + 500);
	CHECK_EQ_U(lines_matching(p, RE_AVG), 2);
	CHECK_EQ_U(lines_matching(q, RE_AVG), 2);
	snprintf(p, sizeof(p), "%s/fa_clat.1.log", dir);
	snprintf(q, sizeof(q), "%s/oa_clat.1.log", dir);
	nf = stamps(p, tf, 16);
	no = stamps(q, to, 16);
	CHECK_EQ_U(nf, 3);
	CHECK_EQ_U(no, nf);
	for (int i = 0; i < nf && i < no; i++)	/* the end as fio saw it: the same rule */
		CHECK(tf[i] + 5 >= to[i] && tf[i] < to[i] + 500);
	CHECK_EQ_U(lines_matching(q, RE_AVG), 3);
}

/* A few seconds of averaged and hist logs, for fio's readers. */
static void tool_logs(const char *sub)
{
	struct job j;
	struct fiolog l;
	struct err e;
	char pfx[256];

	snprintf(pfx, sizeof(pfx), "%s/%s/t", dir, sub);
	memset(&j, 0, sizeof(j));
	snprintf(j.name, sizeof(j.name), "tools");
	j.write_bw_log = j.write_iops_log = j.write_lat_log = j.write_hist_log = pfx;
	j.per_job_logs = 1;
	j.log_avg_msec = 500;
	j.log_hist_msec = 1000;
	err_clear(&e);
	CHECK_EQ_U(fiolog_open(&l, &j, 1, &e), 0);
	/* 4 s at 100 IOPS, reads 1 ms, writes 2 ms, every 4th a write */
	for (uint64_t i = 0; i < 400; i++)
		fiolog_io(&l, i * 10 + 3, i % 4 ? DDIR_READ : DDIR_WRITE, 4096, 0, FIOLOG_NONE,
			  i % 4 ? 1000000 : 2000000, i % 4 ? 1000100 : 2000100);
	/* the job ran on a little past 4 s, so the 4000 ms windows are kept */
	CHECK_EQ_U(fiolog_close(&l, 4050, &e), 0);
	fiolog_free(&l);
}

/* Our logs for fio's readers, written once into dir/tools. */
static void tools_dir(void)
{
	static int done;
	char cmd[256];

	if (done++)
		return;
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/tools", dir);
	CHECK_EQ_U(system(cmd), 0);
	tool_logs("tools");
}

/* fio2gnuplot's math over our bw log: 16 window values averaging 200 KiB/s. */
TEST(fio2gnuplot_reads_ours)
{
	char cmd[1024], p[256], *out;

	if (!have("fio2gnuplot") || system("/usr/bin/python3 -c 'import six' 2>/dev/null"))
		SKIP("fio2gnuplot or /usr/bin/python3 with six (python3-six) not installed");
	tools_dir();
	snprintf(cmd, sizeof(cmd), "cd %s/tools && /usr/bin/python3 \"$(command -v fio2gnuplot)\" "
		 "-p 't_bw.1.log' > f2g.out 2>&1", dir);
	CHECK_EQ_U(system(cmd), 0);
	path(p, sizeof(p), "tools/t_bw.1.global");
	out = slurp(p);
	CHECK(out && strstr(out, "values_count=16\n") && strstr(out, "avg=200.00\n"));
	free(out);
}

/* fio_generate_plots: gnuplot renders our logs as it renders fio's. */
TEST(generate_plots_reads_ours)
{
	char cmd[1024], p[256], *out;

	if (!have("fio_generate_plots") || !have("gnuplot"))
		SKIP("fio_generate_plots or gnuplot (gnuplot-nox) not installed");
	tools_dir();
	snprintf(cmd, sizeof(cmd), "cd %s/tools && fio_generate_plots t > gp.out 2>&1", dir);
	CHECK_EQ_U(system(cmd), 0);
	path(p, sizeof(p), "tools/gp.out");
	out = slurp(p);
	/* the slat log is empty (sync engine): the one file with no points */
	CHECK(out && strstr(out, "Skipping data file with no valid points"));
	CHECK(out && !strstr(out, "rror"));
	free(out);
	path(p, sizeof(p), "tools/t-bw.svg");
	out = slurp(p);
	CHECK(out && strstr(out, "<path") && strstr(out, "Queue depth t.1"));
	free(out);
}

/* fiologparser_hist.py: per-second sample counts equal ours. */
TEST(fiologparser_hist_reads_ours)
{
	char cmd[1024], p[256], *out;

	if (!exists("/usr/share/doc/fio/fiologparser_hist.py.gz") ||
	    system("/usr/bin/python3 -c 'import numpy, pandas' 2>/dev/null"))
		SKIP("fiologparser_hist.py needs /usr/bin/python3 with numpy and pandas "
		     "(python3-numpy, python3-pandas)");
	tools_dir();
	snprintf(cmd, sizeof(cmd), "cd %s/tools && zcat /usr/share/doc/fio/fiologparser_hist.py.gz"
		 " > flh.py && /usr/bin/python3 flh.py -i 1000 t_clat_hist.1.log > flh.out 2>&1", dir);
	CHECK_EQ_U(system(cmd), 0);
	path(p, sizeof(p), "tools/flh.out");
	out = slurp(p);
	/* 100 completions each second: 3/4 reads at 1 ms, 1/4 writes at 2 ms */
	CHECK(out && strstr(out, "end-time, samples, min, avg, median"));
	CHECK(out && strstr(out, "\n1000, 100, ") && strstr(out, "\n4000, 100, "));
	if (out && !strstr(out, "\n1000, 100, "))
		printf("  fiologparser_hist.py said:\n%s", out);
	free(out);
}

int main(void)
{
	char cmd[128];

	snprintf(dir, sizeof(dir), "/tmp/iotrial-fiolog-XXXXXX");
	if (!mkdtemp(dir)) {
		printf("FAIL setup: mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	RUN(names);
	RUN(per_io_lines);
	RUN(averaged_windows);
	RUN(window_ending_at_the_end);
	RUN(hist_rows);
	RUN(shared_append);
	RUN(fio_samples_shape);
	RUN(live_fio_per_io);
	RUN(live_fio_averaged);
	RUN(fio2gnuplot_reads_ours);
	RUN(generate_plots_reads_ours);
	RUN(fiologparser_hist_reads_ours);
	if (!getenv("KEEP"))
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	else
		snprintf(cmd, sizeof(cmd), "echo kept %s", dir);
	if (system(cmd))
		return 1;
	return CHECK_DONE();
}
