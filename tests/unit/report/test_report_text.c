/*
 * test_report_text: the text report of the synthetic fixture, line by line
 * where the numbers are hand-computed (report_fixture.h), plus units at scale,
 * the partial-run markers and write errors.
 */
#include "check.h"
#include "report_fixture.h"
#include "report/report_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The report for @r as a string (caller frees). */
static char *render(const struct run_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct err e = { 0 };

	if (!f)
		return NULL;
	CHECK(report_text_write(f, r, &e) == 0);
	fclose(f);
	return buf;
}

/* True if @text has the whole line @line. */
static int has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; p && (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return 1;
	return 0;
}

#define CHECK_LINE(t, l) do { \
	if (!has_line((t), (l))) { \
		printf("  missing line: \"%s\"\n", (l)); \
		check_case_failed = 1; \
	} \
} while (0)

TEST(job_lines)
{
	struct fixture *fx = fixture_new();
	char *t = render(&fx->r);

	CHECK(t != NULL);
	/* fio's header lines first; iotrial's partial marker comes after fio's part */
	CHECK(strncmp(t, "alpha: (g=0): rw=", 17) == 0);
	CHECK(strstr(t, "\niotrial-") != NULL && strstr(t, "\nStarting ") != NULL);
	CHECK_LINE(t, "alpha: (groupid=0, jobs=1): err= 0: pid=0: Mon Nov 30 17:49:37 2026");
	/* 1000 x 4 KiB in 2 s: 500 IOPS, 2048000 B/s = 2000 KiB/s */
	CHECK_LINE(t, "  read: IOPS=500, BW=2000KiB/s (2048kB/s)(4000KiB/2000msec)");
	/* fio: usec as whole numbers for min and max */
	CHECK_LINE(t, "    clat (usec): min=90, max=21000, avg=490.00, stdev=1800.00");
	CHECK_LINE(t, "    clat percentiles (usec):");
	CHECK_LINE(t, "     | 70.00th=[  100], 80.00th=[  100], 90.00th=[  100], 95.00th=[ 1004],");
	/* rounded up into the unit, as fio */
	CHECK_LINE(t, "     | 99.00th=[ 1004], 99.50th=[20055], 99.90th=[20055], 99.95th=[20055],");
	CHECK_LINE(t, "     | 99.99th=[20055]");
	/* whole KiB/s, cut as fio cuts them */
	CHECK_LINE(t, "   bw (  KiB/s): min= 1900, max= 2100, per=100.00%, avg=2000.00, stdev=100.00, samples=4");
	CHECK_LINE(t, "   iops        : min=  475, max=  525, avg=500.00, stdev=25.00, samples=4");
	/* write: sub-10 us means stay in nsec */
	CHECK_LINE(t, "  write: IOPS=500, BW=4000KiB/s (4096kB/s)(4000KiB/1000msec); 0 zone resets");
	CHECK_LINE(t, "    slat (nsec): min=700, max=9000, avg=1500.00, stdev=300.00");
	CHECK_LINE(t, "    clat (nsec): min=50, max=5000, avg=2525.00, stdev=2477.50");
	CHECK(strstr(t, "slat percentiles") == NULL);	/* off for alpha */
	CHECK(strstr(t, "  trim:") == NULL);		/* no trims issued */
	/* 1500 completions over the latency ranges */
	CHECK_LINE(t, "  lat (nsec)   : 100=16.67%");
	CHECK_LINE(t, "  lat (usec)   : 10=16.67%, 100=60.00%");
	CHECK_LINE(t, "  lat (msec)   : 2=6.00%, 50=0.67%");
	CHECK_LINE(t, "    sync (usec): min=1900, max=2100, avg=2000.00, stdev=50.00");
	CHECK_LINE(t, "  cpu          : usr=4.00%, sys=60.25%, ctx=14143, majf=0, minf=14");
	CHECK_LINE(t, "  IO depths    : 1=0.7%, 2=0.0%, 4=0.0%, 8=0.0%, 16=99.3%, 32=0.0%, >=64=0.0%");
	CHECK_LINE(t, "     complete  : 0=0.0%, 4=93.3%, 8=6.7%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%");
	CHECK_LINE(t, "     issued rwts: total=1000,500,0,10 short=0,2,0,0 dropped=0,0,0,0");
	CHECK_LINE(t, "     latency   : target=0, window=0, percentile=100.00%, depth=16");
	free(t);
	free(fx);
}

TEST(second_job_error_and_custom_percentiles)
{
	struct fixture *fx = fixture_new();
	char *t = render(&fx->r);

	CHECK_LINE(t, "beta: (groupid=1, jobs=2): err= 5 (read at offset 4096 of /dev/vdz: "
		   "Input/output error): pid=0: Mon Nov 30 17:49:37 2026");
	/* after fio's part: the partial job and its error */
	CHECK_LINE(t, "beta (group 1, threads merged by group_reporting) [PARTIAL: stopped early]:");
	CHECK_LINE(t, "  error: 5 (read at offset 4096 of /dev/vdz: Input/output error)");
	/* "99:50" printed sorted, with the list's own decimals (none), as fio;
	 * 150 us lands in the bucket of midpoint 150.5 us, rounded up */
	CHECK_LINE(t, "     |  50th=[  151],  99th=[  151]");
	CHECK_LINE(t, "  lat (usec)   : 250=100.00%");
	free(t);
	free(fx);
}

TEST(groups_and_disks)
{
	struct fixture *fx = fixture_new();
	char *t = render(&fx->r), *g0, *g1;

	g0 = strstr(t, "Run status group 0 (all jobs):\n");
	g1 = strstr(t, "Run status group 1 (all jobs):\n");
	CHECK(g0 && g1 && g0 < g1);
	CHECK_LINE(t, "   READ: bw=2000KiB/s (2048kB/s), 2000KiB/s-2000KiB/s (2048kB/s-2048kB/s), "
		   "io=4000KiB (4096kB), run=2000-2000msec");
	CHECK_LINE(t, "  WRITE: bw=4000KiB/s (4096kB/s), 4000KiB/s-4000KiB/s (4096kB/s-4096kB/s), "
		   "io=4000KiB (4096kB), run=1000-1000msec");
	CHECK_LINE(t, "   READ: bw=1200KiB/s (1229kB/s), 1200KiB/s-1200KiB/s (1229kB/s-1229kB/s), "
		   "io=1200KiB (1229kB), run=1000-1000msec");
	CHECK_LINE(t, "Disk stats (read/write):");
	CHECK_LINE(t, "  vda: ios=87110/24220, merge=6/7, ticks=10607/10319, in_queue=20926, util=77.10%");
	free(t);
	free(fx);
}

TEST(group_totals_over_two_jobs)
{
	struct fixture *fx = fixture_new();
	char *t;

	/* beta into group 0: 4096000 + 1228800 bytes over the longest run (2 s) */
	fx->jr[1].groupid = 0;
	t = render(&fx->r);
	CHECK(strstr(t, "Run status group 1") == NULL);
	CHECK_LINE(t, "   READ: bw=2600KiB/s (2662kB/s), 1200KiB/s-2000KiB/s (1229kB/s-2048kB/s), "
		   "io=5200KiB (5325kB), run=1000-2000msec");
	free(t);
	free(fx);
}

TEST(partial_markers)
{
	struct fixture *fx = fixture_new();
	char *t = render(&fx->r);

	CHECK(strstr(t, "\n\niotrial:\n*** PARTIAL RESULTS: interrupted by SIGINT after 3 s ***\n"));
	free(t);
	fx->r.signal = 0;
	t = render(&fx->r);
	CHECK(strstr(t, "\n\niotrial:\n*** PARTIAL RESULTS: stopped by an error after 3 s: read at "
		     "offset 4096 of /dev/vdz: Input/output error ***\n"));
	free(t);
	fx->r.partial = 0;
	fx->jr[1].partial = 0;
	t = render(&fx->r);
	CHECK(strstr(t, "PARTIAL") == NULL);
	CHECK(!strncmp(t, "alpha: (g=0): ", 14));
	free(t);
	free(fx);
}

TEST(units_at_scale)
{
	struct fixture *fx = fixture_new();
	struct dir_result *d = &fx->jr[0].dir[DDIR_READ];
	char *t;

	/* 10 GiB of 4 KiB reads in 10 s: 262144 IOPS, 1 GiB/s */
	d->io_bytes = 10ull << 30;
	d->total_ios = d->io_bytes / 4096;
	d->runtime_ms = 10000;
	/* 2 s latencies: msec in the summary, msec in the table too (2e9 ns >= 1e8) */
	fixture_moments(&d->clat, d->total_ios, 1000000000, 3000000000ull, 2e9, 1e8);
	memset(&d->clat_hist, 0, sizeof(d->clat_hist));
	fixture_hist(&d->clat_hist, 2000000000, 10);
	t = render(&fx->r);
	CHECK_LINE(t, "  read: IOPS=262k, BW=1024MiB/s (1074MB/s)(10.0GiB/10000msec)");
	CHECK_LINE(t, "    clat (msec): min=1000, max=3000, avg=2000.00, stdev=100.00");
	CHECK(strstr(t, "    clat percentiles (msec):\n     |  1.00th=[ 2005],") != NULL);
	/* 2 s is past the last label: 10 of 510 completions (500 writes) */
	CHECK_LINE(t, "  lat (msec)   : >=2000=1.96%");
	free(t);
	free(fx);
}

TEST(tiny_shares_are_not_shown_as_zero)
{
	struct fixture *fx = fixture_new();
	char *t;

	fx->jr[0].depth_level[0] = 1;
	fx->jr[0].depth_level[4] = 100000;
	t = render(&fx->r);
	/* fio shows a non-zero share under 0.1% as 0.1% */
	CHECK_LINE(t, "  IO depths    : 1=0.1%, 2=0.0%, 4=0.0%, 8=0.0%, 16=100.0%, 32=0.0%, >=64=0.0%");
	free(t);
	free(fx);
}

TEST(write_error_is_reported)
{
	struct fixture *fx = fixture_new();
	struct err e = { 0 };
	FILE *f = fopen("/dev/full", "w");

	if (!f)
		SKIP("no /dev/full");
	CHECK(report_text_write(f, &fx->r, &e) < 0);
	CHECK_EQ_U(e.exit_code, EXIT_OUTPUT);
	fclose(f);
	free(fx);
}

/* fio's lines for the files a run laid out: one per thread, whole MiB, "total" for several */
TEST(laying_out_lines)
{
	struct fixture *fx = fixture_new();
	char *t;

	fx->jr[0].laid_threads = 1;
	fx->jr[0].laid_files = 1;
	fx->jr[0].laid_bytes = 512 << 10;	/* under 1 MiB: fio prints 0MiB */
	fx->jr[1].laid_threads = 2;		/* group_reporting merged two threads */
	fx->jr[1].laid_files = 6;
	fx->jr[1].laid_bytes = 6 << 20;
	t = render(&fx->r);
	CHECK(t != NULL);
	CHECK_LINE(t, "alpha: Laying out IO file (1 file / 0MiB)");
	CHECK_LINE(t, "beta: Laying out IO files (3 files / total 3MiB)");
	/* after "Starting", before the blank line that ends the header */
	CHECK(t && strstr(t, "\nStarting ") < strstr(t, "\nalpha: Laying out"));
	CHECK(t && strstr(t, "\nbeta: Laying out IO files (3 files / total 3MiB)\nbeta: Laying out IO "
			  "files (3 files / total 3MiB)\n\n") != NULL);
	free(t);
	free(fx);
}

/* How many lines of @t start with @prefix. */
static int count_lines(const char *t, const char *prefix)
{
	int n = 0;

	for (const char *p = t; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		n += !strncmp(p, prefix, strlen(prefix));
	return n;
}

/*
 * Four clones of one job (numjobs=4, no group_reporting) that agree: named
 * alpha.0..3, said once, the verdict beside the figure it qualifies, and the
 * bottleneck line without the time per I/O said above it.
 */
TEST(clones_said_once)
{
	struct fixture *fx = fixture_new();
	struct job_result *jr = calloc(4, sizeof(*jr));
	struct run_result r;
	char *t;

	for (int k = 0; k < 4; k++) {
		jr[k] = fx->jr[0];
		strcpy(jr[k].bottleneck.verdict, "page_cache");
		snprintf(jr[k].bottleneck.evidence, sizeof(jr[k].bottleneck.evidence),
			 "the device did far less than the job; thread CPU %d%% of one CPU", 20 + k);
		jr[k].bottleneck.dev_io_share = 0.01;
	}
	r = fx->r;
	r.jobs = jr;
	r.nr_jobs = 4;
	r.nr_groups = 0;
	t = render(&r);
	CHECK(t != NULL);
	CHECK_LINE(t, "alpha.0..3 (group 0, 4 clones of job alpha):");
	/* the four together, over the longest runtime (4 x 1000 reads / 2 s), and what they are */
	CHECK_LINE(t, "  read : bw=8000KiB/s (8192kB/s), IOPS=2000: the page cache, not the device "
		   "(the device did 1% of the bytes)");
	CHECK_LINE(t, "  write: bw=15.6MiB/s (16.4MB/s), IOPS=2000: the page cache, not the device");
	CHECK_LINE(t, "  bottleneck: page_cache, all 4 (alpha.0's figures: the device did far less "
		   "than the job; thread CPU 20% of one CPU)");
	CHECK(count_lines(t, "  bottleneck") == 1);
	CHECK(t && !strstr(t, "\njob alpha"));
	/* fio's part is untouched: one block per clone */
	CHECK(count_lines(t, "alpha: (groupid=0, jobs=1)") == 4);
	free(t);
	free(jr);
	free(fx);
}

int main(void)
{
	RUN(job_lines);
	RUN(clones_said_once);
	RUN(second_job_error_and_custom_percentiles);
	RUN(groups_and_disks);
	RUN(group_totals_over_two_jobs);
	RUN(partial_markers);
	RUN(units_at_scale);
	RUN(tiny_shares_are_not_shown_as_zero);
	RUN(write_error_is_reported);
	RUN(laying_out_lines);
	return CHECK_DONE();
}
