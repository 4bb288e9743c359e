/*
 * test_devwatch: a worker's device views on a fake sysfs: the measured-time
 * view starts at devwatch_measure (ramp excluded), per-interval views line
 * up with the series' intervals (a sliver is folded into the interval before
 * it, as series.c does), and a device that vanishes leaves no view.
 */
#include "check.h"
#include "env/devwatch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static char stat_path[700];

/* The fake device's counters: @reads reads, each 1 ms ticks per 1000. */
static void set_reads(unsigned long long reads, unsigned long long ticks)
{
	FILE *f = fopen(stat_path, "w");

	CHECK(f != NULL);
	if (f) {
		fprintf(f, "%llu 0 %llu %llu 0 0 0 0 0 %llu %llu\n", reads, reads * 8, ticks, ticks, ticks);
		fclose(f);
	}
}

TEST(views_over_measured_time_and_intervals)
{
	char root[] = "/tmp/iotrial-dw-XXXXXX", file[600], link[600], dir[600], cmd[700];
	const char *paths[1];
	struct devwatch w;
	struct job_result r;
	struct err e = { 0 };
	struct stat st;
	const uint64_t S = 1000000000ull;

	memset(&w, 0, sizeof(w));
	memset(&r, 0, sizeof(r));
	CHECK(mkdtemp(root) != NULL);
	snprintf(file, sizeof(file), "%s/target", root);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/dev/block %s/sys/devices/virtual/block/loop9 && touch %s",
		 root, root, file);
	CHECK(system(cmd) == 0);
	CHECK(stat(file, &st) == 0);
	snprintf(link, sizeof(link), "%s/sys/dev/block/%u:%u", root, major(st.st_dev), minor(st.st_dev));
	CHECK(symlink("../../devices/virtual/block/loop9", link) == 0);
	snprintf(stat_path, sizeof(stat_path), "%s/sys/devices/virtual/block/loop9/stat", root);
	set_reads(0, 0);
	snprintf(dir, sizeof(dir), "%s/sys", root);
	w.du.sysfs = dir;
	paths[0] = file;
	CHECK(devwatch_init(&w, paths, 1, &e) == 0);
	CHECK_EQ_U(w.du.nr, 1);

	devwatch_begin(&w, 0);
	set_reads(1000, 4000);			/* the ramp: 1 s at depth 4 */
	CHECK(devwatch_interval(&w, 1000, S, 1 * S, 1) == 0);
	devwatch_measure(&w, 1 * S);
	set_reads(3000, 20000);			/* 1 s at depth 16, 2000 reads */
	CHECK(devwatch_interval(&w, 2000, S, 2 * S, 0) == 0);
	set_reads(5000, 36000);			/* again */
	CHECK(devwatch_interval(&w, 3000, S, 3 * S, 0) == 0);
	set_reads(5010, 36080);			/* a 50 ms sliver: folded into the last */
	CHECK(devwatch_interval(&w, 3050, S / 20, 3 * S + S / 20, 0) == 0);
	devwatch_end(&w, 3 * S + S / 20);
	devwatch_take(&w, &r);

	CHECK_EQ_U(r.nr_dev_iv, 3);
	if (r.nr_dev_iv == 3) {
		CHECK_EQ_U(r.dev_iv[0].t_ms, 1000);
		CHECK_NEAR(r.dev_iv[0].v.read_queue_depth, 4.0, 1e-9);
		CHECK_NEAR(r.dev_iv[1].v.read_queue_depth, 16.0, 1e-9);
		CHECK_NEAR(r.dev_iv[1].v.read_iops, 2000.0, 1e-9);
		CHECK_EQ_U(r.dev_iv[2].t_ms, 3050);	/* the sliver's end */
		CHECK_EQ_U(r.dev_iv[2].v.read_ios, 2010);
		CHECK_EQ_U(r.dev_iv[2].v.dur_ns, S + S / 20);
	}
	/* measured time: from devwatch_measure on, the ramp's 1000 reads left out */
	CHECK_EQ_U(r.nr_dev, 1);
	if (r.nr_dev == 1) {
		CHECK_STR(r.dev[0].name, "loop9");
		CHECK_EQ_U(r.dev[0].read_ios, 4010);
		CHECK_NEAR(r.dev[0].read_queue_depth, 32080.0 / 2050.0, 1e-9);
		CHECK_NEAR(r.dev[0].read_lat_ns_mean, 32080.0 * 1e6 / 4010.0, 1e-6);
	}
	free(r.dev);
	free(r.dev_iv);
	memset(&r, 0, sizeof(r));

	/* the device vanishes before the end: no view, no crash */
	devwatch_measure(&w, 4 * S);
	unlink(stat_path);
	CHECK(devwatch_interval(&w, 5000, S, 5 * S, 0) == 0);
	devwatch_end(&w, 5 * S);
	devwatch_take(&w, &r);
	CHECK_EQ_U(r.nr_dev, 0);
	CHECK(r.dev == NULL);
	free(r.dev_iv);
	devwatch_free(&w);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}

/* A target without a block device (tmpfs, none): nothing watched, nothing kept. */
TEST(no_device_no_views)
{
	struct devwatch w;
	struct job_result r;
	struct err e = { 0 };

	memset(&w, 0, sizeof(w));
	memset(&r, 0, sizeof(r));
	CHECK(devwatch_init(&w, NULL, 0, &e) == 0);
	devwatch_begin(&w, 0);
	devwatch_measure(&w, 1);
	CHECK(devwatch_interval(&w, 1000, 1000000000ull, 1000000000ull, 0) == 0);
	devwatch_end(&w, 2000000000ull);
	devwatch_take(&w, &r);
	CHECK(r.dev == NULL && r.dev_iv == NULL && !r.nr_dev && !r.nr_dev_iv);
	devwatch_free(&w);
}

int main(void)
{
	RUN(views_over_measured_time_and_intervals);
	RUN(no_device_no_views);
	return CHECK_DONE();
}
