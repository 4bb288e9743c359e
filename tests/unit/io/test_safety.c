/*
 * Tests for safety: which block-device writes are refused and what the message
 * says, on loop devices this program creates (and always releases).
 */
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "check.h"
#include "io/safety.h"
#include "loop_harness.h"

static char tmpdir[64];

static void sjob(struct job *j, int mounted_ok, int signature_ok)
{
	memset(j, 0, sizeof(*j));
	snprintf(j->name, sizeof(j->name), "w");
	j->rw = RW_WRITE;
	j->allow_mounted_write = mounted_ok;
	j->allow_signature_write = signature_ok;
}

/* Expect a refusal of @path with exactly @want as the message. */
static void refused(const char *path, const struct job *j, const char *want)
{
	struct err e = { 0 };

	CHECK(safety_check(path, 1, j, 0, &e) == -EPERM);
	CHECK(e.exit_code == EXIT_UNSAFE);
	CHECK_STR(e.msg, want);
}

static int allowed(const char *path, const struct job *j)
{
	struct err e = { 0 };
	int r = safety_check(path, 1, j, 0, &e);

	if (r)
		printf("  unexpected refusal: %s\n", e.msg);
	return r == 0;
}

#define NEED_LOOPS() do { \
	const char *why_ = lh_unavailable(); \
	if (why_) \
		SKIP("%s", why_); \
} while (0)

TEST(regular_files_pass)
{
	struct job j;
	char path[128];

	sjob(&j, 0, 0);
	snprintf(path, sizeof(path), "%s/file", tmpdir);
	CHECK(allowed(path, &j));	/* does not exist yet */
	lh_sh("touch %s", path);
	CHECK(allowed(path, &j));
	CHECK(allowed(path, NULL));
	unlink(path);
}

TEST(readonly_refuses_writes)
{
	struct job j;
	struct err e = { 0 };
	char path[128];

	sjob(&j, 1, 1);
	snprintf(path, sizeof(path), "%s/file", tmpdir);
	CHECK(safety_check(path, 1, &j, 1, &e) == -EPERM);
	CHECK(e.exit_code == EXIT_UNSAFE);
	CHECK(strstr(e.msg, path) == e.msg);
	CHECK(strstr(e.msg, "--readonly") != NULL);
	err_clear(&e);
	CHECK(safety_check(path, 0, &j, 1, &e) == 0);	/* reading is fine */
	CHECK(e.code == 0);
}

TEST(blank_device_allowed)
{
	struct loopdev l;
	struct job j;

	NEED_LOOPS();
	if (lh_create(&l, "blank", 8, LH_NO_PART))
		SKIP("could not set up a loop device");
	sjob(&j, 0, 0);
	CHECK(allowed(l.dev, &j));
	lh_destroy(&l);
}

TEST(filesystem_refused)
{
	struct loopdev l;
	struct job j;
	char want[256];

	NEED_LOOPS();
	if (lh_create(&l, "ext4", 8, LH_NO_PART))
		SKIP("could not set up a loop device");
	CHECK(lh_mkfs(l.dev) == 0);
	sjob(&j, 0, 0);
	snprintf(want, sizeof(want), "%s: the device carries a filesystem signature (ext4); "
		 "set allow_signature_write=1 to override", l.dev);
	refused(l.dev, &j, want);
	CHECK(safety_check(l.dev, 0, &j, 0, NULL) == 0);	/* reads are never refused */
	sjob(&j, 0, 1);
	CHECK(allowed(l.dev, &j));
	lh_destroy(&l);
}

TEST(mounted_refused)
{
	struct loopdev l;
	struct job j;
	char want[512];

	NEED_LOOPS();
	if (lh_create(&l, "mnt", 8, LH_NO_PART))
		SKIP("could not set up a loop device");
	if (lh_mkfs(l.dev) || lh_mount(&l, l.dev)) {
		lh_destroy(&l);
		SKIP("could not mount an ext4 loop device");
	}
	sjob(&j, 0, 0);
	snprintf(want, sizeof(want), "%s: the device is mounted on %s; "
		 "set allow_mounted_write=1 to override", l.dev, l.mnt);
	refused(l.dev, &j, want);
	sjob(&j, 0, 1);	/* the signature override does not cover mounts */
	refused(l.dev, &j, want);
	sjob(&j, 1, 0);	/* nor the other way round */
	snprintf(want, sizeof(want), "%s: the device carries a filesystem signature (ext4); "
		 "set allow_signature_write=1 to override", l.dev);
	refused(l.dev, &j, want);
	sjob(&j, 1, 1);
	CHECK(allowed(l.dev, &j));
	lh_destroy(&l);
}

/* Another device node for the same major:minor is caught: mounts match by number. */
TEST(mounted_other_name)
{
	struct loopdev l;
	struct job j;
	struct stat st;
	struct err e = { 0 };
	char node[128];

	NEED_LOOPS();
	if (lh_create(&l, "alias", 8, LH_NO_PART))
		SKIP("could not set up a loop device");
	if (lh_mkfs(l.dev) || lh_mount(&l, l.dev)) {
		lh_destroy(&l);
		SKIP("could not mount an ext4 loop device");
	}
	snprintf(node, sizeof(node), "%s/alias-node", tmpdir);
	CHECK(stat(l.dev, &st) == 0);
	if (mknod(node, S_IFBLK | 0600, st.st_rdev)) {
		lh_destroy(&l);
		SKIP("mknod is not allowed here");
	}
	sjob(&j, 0, 1);
	CHECK(safety_check(node, 1, &j, 0, &e) == -EPERM);
	CHECK(strstr(e.msg, node) == e.msg);
	CHECK(strstr(e.msg, "the device is mounted on ") != NULL);
	unlink(node);
	lh_destroy(&l);
}

/* A symlink (as /dev/disk/by-id/... are) is resolved; the message shows both names. */
TEST(symlink_resolved)
{
	struct loopdev l;
	struct job j;
	char link[128], want[512];

	NEED_LOOPS();
	if (lh_create(&l, "link", 8, LH_NO_PART))
		SKIP("could not set up a loop device");
	CHECK(lh_mkfs(l.dev) == 0);
	snprintf(link, sizeof(link), "%s/by-id-disk", tmpdir);
	CHECK(symlink(l.dev, link) == 0);
	sjob(&j, 0, 0);
	snprintf(want, sizeof(want), "%s (%s): the device carries a filesystem signature (ext4); "
		 "set allow_signature_write=1 to override", link, l.dev);
	refused(link, &j, want);
	unlink(link);
	lh_destroy(&l);
}

TEST(partition_table_refused)
{
	struct loopdev l;
	struct job j;
	char want[256];

	NEED_LOOPS();
	if (lh_create(&l, "mbr", 8, LH_PART_MBR))
		SKIP("could not set up a partitioned loop device");
	sjob(&j, 0, 0);
	snprintf(want, sizeof(want), "%s: the device carries a partition table (dos); "
		 "set allow_signature_write=1 to override", l.dev);
	refused(l.dev, &j, want);
	CHECK(allowed(l.part, &j));	/* the blank partition itself */
	lh_destroy(&l);
}

/* The whole disk is refused when one of its partitions is mounted (fio misses this). */
TEST(mounted_partition_refuses_disk)
{
	struct loopdev l;
	struct job j;
	char want[512];

	NEED_LOOPS();
	if (lh_create(&l, "pmnt", 16, LH_PART_MBR))
		SKIP("could not set up a partitioned loop device");
	if (lh_mkfs(l.part) || lh_mount(&l, l.part)) {
		lh_destroy(&l);
		SKIP("could not mount an ext4 partition");
	}
	sjob(&j, 0, 0);
	snprintf(want, sizeof(want), "%s: partition %s is mounted on %s; "
		 "set allow_mounted_write=1 to override", l.dev, l.part, l.mnt);
	refused(l.dev, &j, want);
	snprintf(want, sizeof(want), "%s: the device is mounted on %s; "
		 "set allow_mounted_write=1 to override", l.part, l.mnt);
	refused(l.part, &j, want);
	sjob(&j, 1, 1);
	CHECK(allowed(l.dev, &j));
	lh_destroy(&l);
}

/* A signature inside a partition is found even with no partition table on the disk. */
TEST(partition_signature_refuses_disk)
{
	struct loopdev l;
	struct job j;
	char want[256];

	NEED_LOOPS();
	if (lh_create(&l, "bare", 16, LH_PART_BARE))
		SKIP("could not set up a partitioned loop device");
	CHECK(lh_mkfs(l.part) == 0);
	sjob(&j, 0, 0);
	snprintf(want, sizeof(want), "%s: partition %s carries a filesystem signature (ext4); "
		 "set allow_signature_write=1 to override", l.dev, l.part);
	refused(l.dev, &j, want);
	lh_destroy(&l);
}

TEST(swap_refused)
{
	struct loopdev l;
	struct job j;
	char want[256];

	NEED_LOOPS();
	if (lh_sh("command -v mkswap && command -v swapon"))
		SKIP("mkswap/swapon are missing");
	if (lh_create(&l, "swap", 8, LH_NO_PART))
		SKIP("could not set up a loop device");
	if (lh_sh("mkswap %s", l.dev) || lh_sh("swapon %s", l.dev)) {
		lh_destroy(&l);
		SKIP("swapon is not allowed here");
	}
	snprintf(l.swap, sizeof(l.swap), "%s", l.dev);
	sjob(&j, 1, 0);
	snprintf(want, sizeof(want), "%s: the device is in use as swap; "
		 "set allow_signature_write=1 to override", l.dev);
	refused(l.dev, &j, want);
	lh_destroy(&l);
}

TEST(holders_refused)
{
	struct loopdev l;
	struct job j;
	struct err e = { 0 };
	char name[64];

	NEED_LOOPS();
	if (access("/dev/mapper/control", F_OK) || lh_sh("command -v dmsetup"))
		SKIP("no device-mapper in this kernel (CONFIG_BLK_DEV_DM) or no dmsetup");
	if (lh_create(&l, "dm", 8, LH_NO_PART))
		SKIP("could not set up a loop device");
	snprintf(name, sizeof(name), "iotrial-test-%ld", (long)getpid());
	if (lh_sh("echo '0 16384 linear %s 0' | dmsetup create %s", l.dev, name)) {
		lh_destroy(&l);
		SKIP("dmsetup create failed");
	}
	sjob(&j, 0, 0);
	CHECK(safety_check(l.dev, 1, &j, 0, &e) == -EPERM);
	CHECK(strstr(e.msg, "is held by device-mapper device dm-") != NULL);
	CHECK(strstr(e.msg, name) != NULL);
	lh_sh("dmsetup remove %s", name);
	lh_destroy(&l);
}

int main(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/iotrial-safety.XXXXXX");
	if (!mkdtemp(tmpdir)) {
		printf("FAIL setup: mkdtemp\n");
		return 1;
	}
	if (!lh_unavailable())
		lh_reap_stale();
	RUN(regular_files_pass);
	RUN(readonly_refuses_writes);
	RUN(blank_device_allowed);
	RUN(filesystem_refused);
	RUN(mounted_refused);
	RUN(mounted_other_name);
	RUN(symlink_resolved);
	RUN(partition_table_refused);
	RUN(mounted_partition_refuses_disk);
	RUN(partition_signature_refuses_disk);
	RUN(swap_refused);
	RUN(holders_refused);
	lh_sh("rm -rf '%s'", tmpdir);
	return CHECK_DONE();
}
