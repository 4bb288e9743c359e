/* Unit tests for report_summary: the rows (X_read/X_write share a row, a
 * mixed job fills both sides, a second clone starts a new row), the figures
 * (bw_bytes / 1e6, iops, lat mean in us, over each direction's own runtime)
 * and the matrix (rows and columns in order of appearance, other jobs left
 * out, "-" for a missing cell), byte for byte on hand-made results. */
#include <stdlib.h>
#include "check.h"
#include "report/report_summary.h"

/* A job with @ios I/Os of @bs bytes over @ms in direction @d, latency mean @lat_ns. */
static void put(struct job_result *j, const char *name, int d, uint64_t ios, uint64_t bs,
		uint64_t ms, double lat_ns)
{
	snprintf(j->name, sizeof(j->name), "%s", name);
	j->dir[d].total_ios = ios;
	j->dir[d].io_bytes = ios * bs;
	j->dir[d].runtime_ms = ms;
	j->dir[d].lat.n = ios;
	j->dir[d].lat.mean = lat_ns;
}

/* The summary of @jobs as text (malloc'd). */
static char *summary(struct job_result *jobs, size_t n, const struct preset *p)
{
	struct run_result r;
	struct err e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	memset(&r, 0, sizeof(r));
	r.jobs = jobs;
	r.nr_jobs = n;
	err_clear(&e);
	CHECK(f && report_summary_write(f, &r, p, &e) == 0);
	if (f)
		fclose(f);
	return buf;
}

TEST(tests_rows_and_figures)
{
	struct job_result j[5];
	char *out;

	memset(j, 0, sizeof(j));
	put(&j[0], "T_read", DDIR_READ, 1000, 4096, 2000, 1500);
	put(&j[1], "T_write", DDIR_WRITE, 500, 2048, 1000, 2500);
	put(&j[2], "mixed", DDIR_READ, 10, 4096, 1000, 1000);
	put(&j[2], "mixed", DDIR_WRITE, 20, 4096, 1000, 3000);
	put(&j[3], "c", DDIR_READ, 3, 1000000, 1000, 7);
	put(&j[4], "c", DDIR_READ, 6, 1000000, 3000, 9);
	out = summary(j, 5, preset_find("cdm"));
	CHECK_STR(out,
		  "\nSummary of preset cdm: each test over its own runtime (MB = 10^6 bytes, latency = mean total latency)\n"
		  "test     read MB/s   write MB/s    read IOPS   write IOPS  read lat us write lat us\n"
		  "T             2.05         1.02       500.00       500.00         1.50         2.50\n"
		  "mixed         0.04         0.08        10.00        20.00         1.00         3.00\n"
		  "c             3.00            -         3.00            -         0.01            -\n"
		  "c             2.00            -         2.00            -         0.01            -\n");
	free(out);
}

TEST(a_direction_without_io_is_a_dash)
{
	struct job_result j[2];
	char *out;

	memset(j, 0, sizeof(j));
	put(&j[0], "only_read", DDIR_READ, 0, 4096, 0, 0);	/* did nothing: no figure, no row */
	put(&j[1], "only_write", DDIR_WRITE, 4, 4096, 1000, 2000);
	out = summary(j, 2, preset_find("oltp"));
	CHECK(out && strstr(out, "\nonly            -         0.02            -         4.00            -         2.00\n"));
	free(out);
	out = summary(j, 0, preset_find("oltp"));
	CHECK(out && strstr(out, "(no job did any I/O)\n"));
	free(out);
}

TEST(matrix_rows_columns_and_gaps)
{
	struct job_result j[4];
	char *out;

	memset(j, 0, sizeof(j));
	put(&j[0], "precond_seq", DDIR_WRITE, 99, 4096, 1000, 1);
	put(&j[1], "iops_4k_r50w50", DDIR_READ, 100, 4096, 1000, 1);
	put(&j[1], "iops_4k_r50w50", DDIR_WRITE, 51, 4096, 1000, 1);
	put(&j[2], "iops_8k_r50w50", DDIR_READ, 30, 8192, 2000, 1);
	put(&j[3], "iops_4k_r100w0", DDIR_READ, 1234, 4096, 1000, 1);
	out = summary(j, 4, preset_find("snia-iops"));
	CHECK_STR(out,
		  "\nSummary of preset snia-iops: read+write IOPS of each job over its own runtime, block size (rows) x read/write mix (columns)\n"
		  "bs        r50w50    r100w0\n"
		  "4k           151      1234\n"
		  "8k            15         -\n");
	free(out);
}

int main(void)
{
	RUN(tests_rows_and_figures);
	RUN(a_direction_without_io_is_a_dash);
	RUN(matrix_rows_columns_and_gaps);
	return CHECK_DONE();
}
