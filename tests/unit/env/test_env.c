/*
 * Tests for env: host capture, a temporary file resolved to its filesystem and
 * block device (compared with what /sys/dev/block says independently), a path
 * that does not exist yet, a loop device (root only), flatten and diff.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>	/* LOOP_CTL_GET_FREE, LOOP_SET_FD, LOOP_CLR_FD */
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "env/env.h"
#include "check.h"

static const char *str_at(const json_t *o, const char *path)
{
	json_t *flat = env_flatten(o);
	static char buf[PATH_MAX];
	const json_t *v = json_object_get(flat, path);

	buf[0] = 0;
	if (json_is_string(v))
		snprintf(buf, sizeof(buf), "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
	json_decref(flat);
	return v ? buf : NULL;
}

TEST(host)
{
	const char *targets[] = { "/" };
	json_t *env = NULL;
	struct err e;

	err_clear(&e);
	CHECK(env_capture(targets, 1, &env, &e) == 0);
	if (!env)
		return;
	CHECK_STR(str_at(env, "kernel.sysname"), "Linux");
	CHECK(atoi(str_at(env, "cpu.count") ? str_at(env, "cpu.count") : "0") >= 1);
	CHECK_STR(str_at(env, "iotrial_version"), IOTRIAL_VERSION);
	CHECK(json_is_integer(json_object_get(env, "iommu_groups")));
	CHECK(json_is_object(json_object_get(env, "hypervisor")));
	CHECK(json_integer_value(json_object_get(env, "memory_bytes")) > (1 << 20));
	CHECK_STR(str_at(env, "targets.0.type"), "dir");
	if (!access("/sys/devices/system/clocksource/clocksource0/current_clocksource", R_OK))
		CHECK(str_at(env, "clock_source") != NULL);
	json_decref(env);
}

/* The disk behind device number @dev, found without env's code paths. */
static int disk_of(dev_t dev, char *name, size_t sz)
{
	char path[64], real[PATH_MAX], part[PATH_MAX + 16], *slash;
	struct stat st;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(path, real))
		return -1;
	snprintf(part, sizeof(part), "%s/partition", real);
	if (!stat(part, &st))
		*strrchr(real, '/') = 0;
	slash = strrchr(real, '/');
	snprintf(name, sz, "%s", slash + 1);
	return 0;
}

TEST(temp_file)
{
	char tmpl[] = "build/iotrial-env.XXXXXX", disk[256];
	struct stat st;
	json_t *t = NULL;
	int fd = mkstemp(tmpl);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK(write(fd, "abcd", 4) == 4);
	close(fd);
	CHECK(env_target(tmpl, &t) == 0);
	stat(tmpl, &st);
	CHECK_STR(str_at(t, "type"), "file");
	CHECK_STR(str_at(t, "size"), "4");
	CHECK(str_at(t, "resolved") && str_at(t, "resolved")[0] == '/');
	CHECK(str_at(t, "fs.type") && str_at(t, "fs.type")[0]);
	CHECK(str_at(t, "fs.mount_point") && str_at(t, "fs.mount_point")[0] == '/');
	if (disk_of(st.st_dev, disk, sizeof(disk)) == 0) {
		CHECK_STR(str_at(t, "device.name"), disk);
		CHECK(str_at(t, "device.driver") && str_at(t, "device.driver")[0]);
		CHECK(str_at(t, "device.logical_block_size") != NULL);
		CHECK(str_at(t, "device.rotational") != NULL);
		printf("  %s: on %s", tmpl, disk);
		printf(", fs %s", str_at(t, "fs.type"));
		printf(", driver %s\n", str_at(t, "device.driver"));
	} else {
		printf("  %s is on a filesystem without a block device\n", tmpl);
		CHECK(json_object_get(t, "device") == NULL);
	}
	json_decref(t);
	unlink(tmpl);
}

/* A mount table that lacks the path's mount (as in a chroot): statfs fills in. */
TEST(no_mountinfo_falls_back_to_statfs)
{
	char tmpl[] = "build/iotrial-env.XXXXXX", empty[] = "build/iotrial-mi.XXXXXX", disk[256];
	struct stat st;
	json_t *t = NULL, *ref = NULL;
	int fd = mkstemp(tmpl), fe = mkstemp(empty);

	CHECK(fd >= 0 && fe >= 0);
	if (fd < 0 || fe < 0)
		return;
	close(fd);
	close(fe);
	CHECK(env_target_from(tmpl, empty, &t) == 0);
	CHECK(env_target(tmpl, &ref) == 0);
	stat(tmpl, &st);
	CHECK_STR(str_at(t, "fs.from"), "statfs");
	CHECK(str_at(t, "fs.type") && str_at(t, "fs.type")[0]);
	CHECK(str_at(t, "fs.mount_point") && str_at(t, "fs.mount_point")[0] == '/');
	/* the type agrees with the mount table's where this machine shows it
	 * (ext2/3 report ext4's magic) */
	if (str_at(ref, "fs.from") && !strcmp(str_at(ref, "fs.from"), "mountinfo") &&
	    strncmp(str_at(ref, "fs.type"), "ext", 3)) {
		CHECK_STR(str_at(t, "fs.type"), str_at(ref, "fs.type"));
		/* the walk stops at the filesystem's root: the same mount point */
		CHECK_STR(str_at(t, "fs.mount_point"), str_at(ref, "fs.mount_point"));
	}
	if (disk_of(st.st_dev, disk, sizeof(disk)) == 0) {
		CHECK_STR(str_at(t, "device.name"), disk);
		CHECK_STR(str_at(t, "device.from"), "st_dev");
	}
	printf("  statfs fallback: fs %s", str_at(t, "fs.type"));
	printf(" at %s\n", str_at(t, "fs.mount_point"));
	json_decref(t);
	json_decref(ref);
	unlink(tmpl);
	unlink(empty);
}

TEST(missing_path)
{
	json_t *t = NULL;

	/* fio creates files: describe where it will be created */
	CHECK(env_target("build/no-such-dir/no-such-file", &t) == 0);
	CHECK_STR(str_at(t, "type"), "missing");
	CHECK(str_at(t, "fs.type") != NULL);
	json_decref(t);
}

static int loop_attach(int backing, char *dev, size_t sz)
{
	int ctl = open("/dev/loop-control", O_RDWR), tries, fd = -1, nr;

	if (ctl < 0)
		return -1;
	for (tries = 0; tries < 5 && fd < 0; tries++) {
		nr = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (nr < 0)
			break;
		snprintf(dev, sz, "/dev/loop%d", nr);
		fd = open(dev, O_RDWR);
		if (fd >= 0 && ioctl(fd, LOOP_SET_FD, backing)) {
			close(fd);	/* taken by someone else meanwhile: retry */
			fd = -1;
		}
	}
	close(ctl);
	return fd;
}

TEST(loop_device)
{
	char tmpl[] = "build/iotrial-loop.XXXXXX", dev[64], real[PATH_MAX];
	json_t *t = NULL;
	int bfd, lfd;

	if (geteuid() != 0)
		SKIP("needs root to attach a loop device");
	bfd = mkstemp(tmpl);
	CHECK(bfd >= 0);
	if (bfd < 0)
		return;
	CHECK(ftruncate(bfd, 1 << 20) == 0);
	lfd = loop_attach(bfd, dev, sizeof(dev));
	if (lfd < 0) {
		close(bfd);
		unlink(tmpl);
		SKIP("no loop device could be attached (%s)", strerror(errno));
	}
	CHECK(env_target(dev, &t) == 0);
	CHECK(realpath(tmpl, real) != NULL);
	CHECK_STR(str_at(t, "type"), "block");
	CHECK_STR(str_at(t, "device.driver"), "loop");
	CHECK_STR(str_at(t, "device.name"), dev + 5);
	CHECK_STR(str_at(t, "device.loop_backing_file"), real);
	CHECK_STR(str_at(t, "device.size"), "1048576");
	ioctl(lfd, LOOP_CLR_FD, 0);
	close(lfd);
	close(bfd);
	json_decref(t);
	unlink(tmpl);
}

TEST(flatten)
{
	json_t *o = json_pack("{s:s, s:{s:i, s:[s, {s:b}]}}", "a", "x", "b", "c", 3,
			      "d", "y", "e", 1);
	json_t *f = env_flatten(o);
	char *s = json_dumps(f, JSON_COMPACT | JSON_SORT_KEYS);

	CHECK_STR(s, "{\"a\":\"x\",\"b.c\":3,\"b.d.0\":\"y\",\"b.d.1.e\":true}");
	free(s);
	json_decref(f);
	json_decref(o);
}

TEST(diff)
{
	json_t *a = json_pack("{s:s, s:[{s:s, s:{s:s, s:i}}], s:i}", "kernel", "6.1",
			      "targets", "path", "/dev/vdb", "device", "driver", "virtio_blk",
			      "rotational", 0, "iommu_groups", 0);
	json_t *b = json_pack("{s:s, s:[{s:s, s:{s:s, s:i, s:s}}], s:i}", "kernel", "6.1",
			      "targets", "path", "/dev/nvme0n1", "device", "driver", "nvme",
			      "rotational", 0, "model", "Samsung 980", "iommu_groups", 14);
	json_t *d = NULL;
	char *s;
	struct err e;

	err_clear(&e);
	CHECK(env_diff(a, b, &d, &e) == 0);
	s = json_dumps(d, JSON_COMPACT | JSON_PRESERVE_ORDER);
	CHECK_STR(s, "[{\"key\":\"iommu_groups\",\"a\":0,\"b\":14},"
		     "{\"key\":\"targets.0.device.driver\",\"a\":\"virtio_blk\",\"b\":\"nvme\"},"
		     "{\"key\":\"targets.0.device.model\",\"a\":null,\"b\":\"Samsung 980\"},"
		     "{\"key\":\"targets.0.path\",\"a\":\"/dev/vdb\",\"b\":\"/dev/nvme0n1\"}]");
	free(s);
	json_decref(d);
	/* same object: nothing; one side unknown: nothing to list */
	CHECK(env_diff(a, a, &d, &e) == 0 && json_array_size(d) == 0);
	json_decref(d);
	CHECK(env_diff(a, NULL, &d, &e) == 0 && json_array_size(d) == 0);
	json_decref(d);
	json_decref(a);
	json_decref(b);
}

int main(void)
{
	RUN(host);
	RUN(temp_file);
	RUN(no_mountinfo_falls_back_to_statfs);
	RUN(missing_path);
	RUN(loop_device);
	RUN(flatten);
	RUN(diff);
	return CHECK_DONE();
}
