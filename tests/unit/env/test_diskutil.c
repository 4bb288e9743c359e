/*
 * test_diskutil: device discovery and counter deltas, on a fake sysfs tree
 * (exact numbers, dm over a partition and a disk), on the real disk behind
 * /tmp, on tmpfs (no entry) and on a loop device (root only).
 */
#include "check.h"
#include "env/diskutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void mkdirs(const char *root, const char *rel)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", root, rel);
	CHECK(system(cmd) == 0);
}

static const struct disk_util *find(const struct disk_util *du, size_t nr, const char *name)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(du[i].name, name))
			return &du[i];
	return NULL;
}

/*
 * A fake sysfs: the test file's st_dev maps to dm-0, whose members are a
 * partition vdb1 (of disk vdb) and a whole disk vdc.
 */
TEST(fake_sysfs_dm_partition_members)
{
	char root[] = "/tmp/iotrial-du-XXXXXX", file[600], link[600], dir[600], cmd[700];
	const char *paths[2];
	struct diskutil d = { 0 };
	struct disk_util *du = NULL;
	const struct disk_util *u;
	struct err e = { 0 };
	struct stat st;
	size_t nr = 0;

	CHECK(mkdtemp(root) != NULL);
	snprintf(file, sizeof(file), "%s/target", root);
	put(root, "target", "x");
	CHECK(stat(file, &st) == 0);
	mkdirs(root, "sys/dev/block");
	mkdirs(root, "sys/devices/virtual/block/dm-0/slaves");
	mkdirs(root, "sys/devices/pci/block/vdb/vdb1");
	mkdirs(root, "sys/devices/pci/block/vdc");
	snprintf(link, sizeof(link), "%s/sys/dev/block/%u:%u", root, major(st.st_dev), minor(st.st_dev));
	CHECK(symlink("../../devices/virtual/block/dm-0", link) == 0);
	snprintf(dir, sizeof(dir), "%s/sys/devices/virtual/block/dm-0", root);
	put(dir, "stat", "10 0 80 5 20 0 160 7 0 30 12 0 0 0 0\n");
	CHECK(symlink("../../../../pci/block/vdb/vdb1", strcat(strcpy(link, dir), "/slaves/vdb1")) == 0);
	CHECK(symlink("../../../../pci/block/vdc", strcat(strcpy(link, dir), "/slaves/vdc")) == 0);
	snprintf(dir, sizeof(dir), "%s/sys/devices/pci/block/vdb", root);
	put(dir, "stat", "100 1 800 50 200 2 1600 70 0 300 120\n");
	snprintf(dir, sizeof(dir), "%s/sys/devices/pci/block/vdb/vdb1", root);
	put(dir, "stat", "1 1 1 1 1 1 1 1 0 1 1\n");
	put(dir, "partition", "1\n");
	snprintf(dir, sizeof(dir), "%s/sys/devices/pci/block/vdc", root);
	put(dir, "stat", "0 0 0 0 0 0 0 0 0 0 0\n");

	snprintf(dir, sizeof(dir), "%s/sys", root);
	d.sysfs = dir;
	paths[0] = file;
	paths[1] = file;	/* twice: still one entry per device */
	CHECK(diskutil_start(&d, paths, 2, &e) == 0);
	CHECK_EQ_U(d.nr, 4);
	CHECK_STR(d.nr ? d.dev[0].name : "", "dm-0");

	/* the run: dm-0 busy 500 of 1000 ms; vdc busy 1500 ms (overshoot) */
	snprintf(dir, sizeof(dir), "%s/sys/devices/virtual/block/dm-0", root);
	put(dir, "stat", "15 0 120 9 28 0 224 11 0 530 412 0 0 0 0\n");
	snprintf(dir, sizeof(dir), "%s/sys/devices/pci/block/vdc", root);
	put(dir, "stat", "3 4 8 5 6 7 8 9 1 1500 1700\n");
	CHECK(diskutil_end(&d, 1000, &du, &nr) == 0);
	CHECK_EQ_U(nr, 4);
	u = find(du, nr, "dm-0");
	CHECK(u != NULL);
	if (u) {
		CHECK_EQ_U(u->read_ios, 5);
		CHECK_EQ_U(u->write_ios, 8);
		CHECK_EQ_U(u->read_ticks, 4);
		CHECK_EQ_U(u->write_ticks, 4);
		CHECK_EQ_U(u->in_queue, 400);
		CHECK_EQ_U(u->io_ticks, 500);
		CHECK_NEAR(u->util, 50.0, 1e-9);
	}
	CHECK(find(du, nr, "vdb1") != NULL);
	CHECK(find(du, nr, "vdb") != NULL);	/* the partition's disk */
	u = find(du, nr, "vdc");
	CHECK(u != NULL);
	if (u) {
		CHECK_EQ_U(u->read_merges, 4);
		CHECK_EQ_U(u->write_merges, 7);
		CHECK_NEAR(u->util, 100.0, 0);	/* capped */
	}
	u = find(du, nr, "vdb");
	CHECK(u && u->read_ios == 0 && u->util == 0.0);
	free(du);
	diskutil_free(&d);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}

/* Two fixed snapshots 2 s apart: every figure of the device view, exactly. */
TEST(view_from_fixed_snapshots)
{
	struct diskutil_snap a = { .ok = 1, .t_ns = 1000000000ull }, b = { .ok = 1, .t_ns = 3000000000ull };
	struct disk_view v;
	/* reads, merges, sectors, ticks; writes ...; in flight, io_ticks, in_queue */
	const uint64_t s0[DISKUTIL_STAT_NR] = { 100, 0, 800, 40, 50, 0, 400, 10, 0, 1000, 2000 };
	const uint64_t s1[DISKUTIL_STAT_NR] = { 20100, 0, 160800, 16040, 1050, 0, 8400, 1010, 3, 2900, 36000 };

	memcpy(a.v, s0, sizeof(s0));
	memcpy(b.v, s1, sizeof(s1));
	CHECK(diskutil_view("vda", &a, &b, &v) == 0);
	CHECK_STR(v.name, "vda");
	CHECK_EQ_U(v.dur_ns, 2000000000ull);
	CHECK_EQ_U(v.read_ios, 20000);
	CHECK_EQ_U(v.write_ios, 1000);
	CHECK_EQ_U(v.read_bytes, 160000ull * 512);
	CHECK_EQ_U(v.write_bytes, 8000ull * 512);
	CHECK_NEAR(v.read_iops, 10000.0, 1e-9);
	CHECK_NEAR(v.write_iops, 500.0, 1e-9);
	CHECK_NEAR(v.read_lat_ns_mean, 800000.0, 1e-6);	/* 16000 ms / 20000 */
	CHECK_NEAR(v.write_lat_ns_mean, 1000000.0, 1e-6);	/* 1000 ms / 1000 */
	CHECK_NEAR(v.read_queue_depth, 8.0, 1e-9);		/* 16000 ms in 2000 ms */
	CHECK_NEAR(v.write_queue_depth, 0.5, 1e-9);
	CHECK_NEAR(v.queue_depth, 17.0, 1e-9);			/* 34000 / 2000 */
	CHECK_NEAR(v.util, 95.0, 1e-9);				/* 1900 / 2000 */
	/* an empty window or a missing snapshot is no view, not a division by 0 */
	CHECK(diskutil_view("vda", &a, &a, &v) == -ENODEV && v.dur_ns == 0);
	b.ok = 0;
	CHECK(diskutil_view("vda", &a, &b, &v) == -ENODEV);
}

/* The kernel's 32-bit tick counters wrap; a reset (re-created device) gives 0. */
TEST(counter_wrap)
{
	struct diskutil_snap a = { .ok = 1, .t_ns = 0 }, b = { .ok = 1, .t_ns = 1000000000ull };
	struct disk_view v;

	CHECK_EQ_U(diskutil_delta(5, 3), 2);
	CHECK_EQ_U(diskutil_delta(10, 4294967290ull), 16);	/* 2^32 - 6 -> 10 */
	CHECK_EQ_U(diskutil_delta(0, 4294967295ull), 1);
	CHECK_EQ_U(diskutil_delta(7, 1ull << 40), 0);		/* 64-bit counter went back */
	a.v[3] = 4294967000ull;		/* read ticks just before the wrap */
	b.v[3] = 704;			/* 1000 ms later */
	a.v[0] = 10;
	b.v[0] = 1010;
	a.v[10] = 4294967295ull;
	b.v[10] = 999;
	a.v[9] = 4294966796ull;
	b.v[9] = 500;
	CHECK(diskutil_view("loop0", &a, &b, &v) == 0);
	CHECK_NEAR(v.read_queue_depth, 1.0, 1e-9);
	CHECK_NEAR(v.read_lat_ns_mean, 1000000.0, 1e-6);
	CHECK_NEAR(v.queue_depth, 1.0, 1e-9);
	CHECK_NEAR(v.util, 100.0, 1e-9);
}

/*
 * A file on a partition watches the partition and its parent disk, each
 * sampled on its own; a device whose stat file vanishes mid-run (removed
 * loop or dm device) gives no snapshot and no view, and the others go on.
 */
TEST(partition_parent_and_vanishing_device)
{
	char root[] = "/tmp/iotrial-du-XXXXXX", file[600], link[600], dir[600], cmd[700], pdir[600];
	const char *paths[1];
	struct diskutil d = { 0 };
	struct diskutil_snap s0[2], s1[2];
	struct disk_view v;
	struct disk_util *du = NULL;
	struct err e = { 0 };
	struct stat st;
	size_t nr = 0;

	CHECK(mkdtemp(root) != NULL);
	snprintf(file, sizeof(file), "%s/target", root);
	put(root, "target", "x");
	CHECK(stat(file, &st) == 0);
	mkdirs(root, "sys/dev/block");
	mkdirs(root, "sys/devices/pci/block/vdb/vdb2");
	snprintf(link, sizeof(link), "%s/sys/dev/block/%u:%u", root, major(st.st_dev), minor(st.st_dev));
	CHECK(symlink("../../devices/pci/block/vdb/vdb2", link) == 0);
	snprintf(dir, sizeof(dir), "%s/sys/devices/pci/block/vdb", root);
	put(dir, "stat", "1000 0 8000 500 0 0 0 0 0 900 600\n");
	snprintf(pdir, sizeof(pdir), "%s/sys/devices/pci/block/vdb/vdb2", root);
	put(pdir, "stat", "400 0 3200 200 0 0 0 0 0 300 200\n");
	put(pdir, "partition", "2\n");
	snprintf(dir, sizeof(dir), "%s/sys", root);
	d.sysfs = dir;
	paths[0] = file;
	CHECK(diskutil_start(&d, paths, 1, &e) == 0);
	CHECK_EQ_U(d.nr, 2);
	CHECK_STR(d.nr > 0 ? d.dev[0].name : "", "vdb2");	/* the target's own device first */
	CHECK_STR(d.nr > 1 ? d.dev[1].name : "", "vdb");	/* then its parent */
	for (size_t i = 0; i < 2 && i < d.nr; i++)
		CHECK(diskutil_sample(&d, i, 0, &s0[i]) == 0 && s0[i].ok);

	/* 1 s later: the partition did 1000 reads, the disk those and 500 more */
	put(pdir, "stat", "1400 0 11200 1200 0 0 0 0 0 1300 1200\n");
	snprintf(dir, sizeof(dir), "%s/sys/devices/pci/block/vdb", root);
	put(dir, "stat", "2500 0 20000 2500 0 0 0 0 0 1900 2600\n");
	CHECK(diskutil_sample(&d, 0, 1000000000ull, &s1[0]) == 0);
	CHECK(diskutil_view("vdb2", &s0[0], &s1[0], &v) == 0);
	CHECK_EQ_U(v.read_ios, 1000);
	CHECK_NEAR(v.read_queue_depth, 1.0, 1e-9);
	CHECK(diskutil_sample(&d, 1, 1000000000ull, &s1[1]) == 0);
	CHECK(diskutil_view("vdb", &s0[1], &s1[1], &v) == 0);
	CHECK_EQ_U(v.read_ios, 1500);
	CHECK_NEAR(v.read_queue_depth, 2.0, 1e-9);

	/* the partition disappears: no snapshot, no view, no crash; the disk stays */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", pdir);
	CHECK(system(cmd) == 0);
	CHECK(diskutil_sample(&d, 0, 2000000000ull, &s1[0]) < 0);
	CHECK(!s1[0].ok);
	CHECK(diskutil_view("vdb2", &s0[0], &s1[0], &v) == -ENODEV);
	CHECK(diskutil_sample(&d, 5, 0, &s1[0]) == -ENODEV);	/* out of range */
	CHECK(diskutil_end(&d, 2000, &du, &nr) == 0);
	CHECK_EQ_U(nr, 1);
	CHECK_STR(nr ? du[0].name : "", "vdb");
	free(du);
	diskutil_free(&d);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}

/*
 * The kernel name of the disk under @path's filesystem, or "": from st_dev
 * through /sys/dev/block (a partition's parent), not from the mount table,
 * which a chroot or container may not show.
 */
static void mount_source(const char *path, char *out, size_t n)
{
	char link[64], real[4096], part[4200], *slash;
	struct stat st;

	out[0] = '\0';
	if (stat(path, &st))
		return;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	if (!realpath(link, real))
		return;
	snprintf(part, sizeof(part), "%s/partition", real);
	if (!access(part, F_OK) && (slash = strrchr(real, '/')))
		*slash = '\0';	/* a partition: its disk is the parent directory */
	slash = strrchr(real, '/');
	slash = slash ? slash + 1 : real;
	if (strlen(slash) < n)
		memcpy(out, slash, strlen(slash) + 1);
}

TEST(file_under_tmp_finds_its_disk)
{
	char path[] = "/tmp/iotrial-du-file-XXXXXX", want[64], buf[4096];
	const char *paths[1] = { path };
	struct diskutil d = { 0 };
	struct disk_util *du = NULL;
	const struct disk_util *u;
	struct err e = { 0 };
	size_t nr = 0;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	mount_source("/tmp", want, sizeof(want));
	if (!want[0] || access("/sys/dev/block", F_OK)) {
		close(fd);
		unlink(path);
		SKIP("/tmp is not on a block device here");
	}
	CHECK(diskutil_start(&d, paths, 1, &e) == 0);
	memset(buf, 'x', sizeof(buf));
	CHECK(write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf));
	CHECK(fsync(fd) == 0);	/* at least one write reaches the disk */
	CHECK(diskutil_end(&d, 1000, &du, &nr) == 0);
	u = find(du, nr, want);
	if (!u)
		printf("  expected an entry for %s\n", want);
	CHECK(u != NULL);
	if (u) {
		CHECK(u->write_ios >= 1);
		CHECK(u->util >= 0.0 && u->util <= 100.0);
	}
	free(du);
	diskutil_free(&d);
	close(fd);
	unlink(path);
}

TEST(missing_file_uses_its_directory)
{
	const char *paths[1] = { "/tmp/iotrial-du-not-created-yet" };
	struct diskutil d = { 0 };
	struct err e = { 0 };
	char want[64];

	mount_source("/tmp", want, sizeof(want));
	if (!want[0])
		SKIP("/tmp is not on a block device here");
	CHECK(diskutil_start(&d, paths, 1, &e) == 0);
	CHECK(d.nr >= 1);
	CHECK_STR(d.nr ? d.dev[0].name : "", want);
	diskutil_free(&d);
}

TEST(tmpfs_gives_no_entry)
{
	const char *paths[2] = { "/dev/shm", "/proc/self/status" };
	struct diskutil d = { 0 };
	struct disk_util *du = (struct disk_util *)1;
	struct err e = { 0 };
	struct statfs sf;
	size_t nr = 7;

	if (statfs("/dev/shm", &sf) || sf.f_type != TMPFS_MAGIC)
		SKIP("/dev/shm is not tmpfs here");
	CHECK(diskutil_start(&d, paths, 2, &e) == 0);
	CHECK_EQ_U(d.nr, 0);
	CHECK(diskutil_end(&d, 1000, &du, &nr) == 0);
	CHECK(du == NULL);
	CHECK_EQ_U(nr, 0);
	CHECK_EQ_U(e.code, 0);
	diskutil_free(&d);
}

TEST(loop_device_is_itself)
{
	char img[] = "/tmp/iotrial-du-loop-XXXXXX", cmd[256], dev[64] = "", *name;
	struct diskutil d = { 0 };
	struct disk_util *du = NULL;
	const struct disk_util *u;
	const char *paths[1] = { dev };
	struct err e = { 0 };
	size_t nr = 0;
	void *buf = NULL;
	FILE *p;
	int fd;

	if (geteuid() != 0)
		SKIP("needs root to attach a loop device");
	fd = mkstemp(img);
	CHECK(fd >= 0 && ftruncate(fd, 4 << 20) == 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "losetup -f --show '%s' 2>/dev/null", img);
	p = popen(cmd, "r");
	if (p && fgets(dev, sizeof(dev), p))
		dev[strcspn(dev, "\n")] = '\0';
	if (p)
		pclose(p);
	if (strncmp(dev, "/dev/loop", 9)) {
		unlink(img);
		SKIP("losetup could not attach a loop device");
	}
	name = strrchr(dev, '/') + 1;
	CHECK(diskutil_start(&d, paths, 1, &e) == 0);
	CHECK_EQ_U(d.nr, 1);
	CHECK_STR(d.nr ? d.dev[0].name : "", name);
	fd = open(dev, O_RDONLY | O_DIRECT);
	CHECK(fd >= 0 && posix_memalign(&buf, 4096, 4096) == 0);
	for (int i = 0; fd >= 0 && buf && i < 8; i++)
		CHECK(pread(fd, buf, 4096, (off_t)i * 8192) == 4096);
	if (fd >= 0)
		close(fd);
	free(buf);
	CHECK(diskutil_end(&d, 1000, &du, &nr) == 0);
	u = find(du, nr, name);
	CHECK(u != NULL);
	if (u) {
		CHECK(u->read_ios >= 8);
		CHECK(u->util >= 0.0 && u->util <= 100.0);
	}
	free(du);
	diskutil_free(&d);
	snprintf(cmd, sizeof(cmd), "losetup -d '%s'", dev);
	CHECK(system(cmd) == 0);
	unlink(img);
}

int main(void)
{
	RUN(fake_sysfs_dm_partition_members);
	RUN(view_from_fixed_snapshots);
	RUN(counter_wrap);
	RUN(partition_parent_and_vanishing_device);
	RUN(file_under_tmp_finds_its_disk);
	RUN(missing_file_uses_its_directory);
	RUN(tmpfs_gives_no_entry);
	RUN(loop_device_is_itself);
	return CHECK_DONE();
}
