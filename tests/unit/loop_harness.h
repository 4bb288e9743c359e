/*
 * loop_harness.h: throw-away block devices for tests (loop devices on image
 * files this process creates), with partitions, filesystems, mounts and swap.
 *
 * Only devices made here are ever touched.  The kernel here has no partition
 * table parsers, so a partition is added explicitly (addpart, BLKPG) after an
 * MBR is written into the image so that signature probes see a real table.
 * Every resource is released by lh_destroy(); leftovers of a crashed run
 * (images named with a pid that is no longer alive) are released by
 * lh_reap_stale() at start.  Included by tests/unit/io/test_safety.c and
 * test_file.c only.
 */
#ifndef IOTRIAL_LOOP_HARNESS_H
#define IOTRIAL_LOOP_HARNESS_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define LH_PREFIX "iotrial-loop-"

enum { LH_NO_PART = 0, LH_PART_MBR = 1, LH_PART_BARE = 2 };

struct loopdev {
	char img[160];		/* the backing image file */
	char dev[64];		/* /dev/loopN */
	char part[72];		/* /dev/loopNp1 when partitioned */
	char mnt[160];		/* where something is mounted, when mounted */
	char swap[72];		/* what is swapped on, when swapon ran */
};

/* Run a shell command quietly; its exit status. */
static inline int lh_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int lh_sh(const char *fmt, ...)
{
	char cmd[1024], full[1100];
	va_list ap;
	int r;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	r = snprintf(full, sizeof(full), "{ %s; } >/dev/null 2>&1", cmd);
	if (r < 0 || (size_t)r >= sizeof(full))
		return -1;
	r = system(full);
	return r == -1 ? -1 : WEXITSTATUS(r);
}

/* Why loop tests cannot run here, or NULL when they can. */
static inline const char *lh_unavailable(void)
{
	if (geteuid() != 0)
		return "not root: loop devices need CAP_SYS_ADMIN";
	if (lh_sh("command -v losetup"))
		return "losetup is missing";
	if (lh_sh("command -v mkfs.ext4"))
		return "mkfs.ext4 is missing";
	if (lh_sh("command -v addpart"))
		return "addpart is missing";
	if (access("/dev/loop-control", F_OK))
		return "no /dev/loop-control";
	return NULL;
}

/* Release everything one loopdev holds; safe on a partly built one. */
static inline void lh_destroy(struct loopdev *l)
{
	if (l->swap[0])
		lh_sh("swapoff %s", l->swap);
	if (l->mnt[0]) {
		/* a loop device just detached may still pin a file on it for a moment */
		if (lh_sh("umount %s", l->mnt))
			lh_sh("sleep 0.3; umount %s", l->mnt);
		rmdir(l->mnt);
	}
	if (l->part[0])
		lh_sh("delpart %s 1", l->dev);
	if (l->dev[0])
		lh_sh("losetup -d %s", l->dev);
	if (l->img[0])
		unlink(l->img);
	memset(l, 0, sizeof(*l));
}

/* Release loop devices, mounts and swap left by runs whose process is gone. */
static inline void lh_reap_stale(void)
{
	struct dirent *de;
	DIR *d = opendir("/tmp");

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[300];
		long pid;

		if (strncmp(de->d_name, LH_PREFIX, strlen(LH_PREFIX)))
			continue;
		pid = strtol(de->d_name + strlen(LH_PREFIX), NULL, 10);
		if (pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "/tmp/%s", de->d_name);
		if (strstr(de->d_name, ".img")) {
			/* every loop device on this image: swapoff, unmount, detach */
			lh_sh("for l in $(losetup -j '%s' -O NAME -n); do "
			      "for p in $l ${l}p1; do swapoff $p; umount $p; done; "
			      "delpart $l 1; losetup -d $l; done", path);
			unlink(path);
		} else {
			/* a mount point; images on it (a ramfs) may back loop devices */
			lh_sh("for f in '%s'/*.img; do for l in $(losetup -j \"$f\" -O NAME -n); do "
			      "losetup -d $l; done; done; umount '%s' || { sleep 0.3; umount '%s'; }",
			      path, path, path);
			rmdir(path);
		}
	}
	closedir(d);
}

/*
 * A loop device over a new @mib MiB image.  With @partition, one partition
 * from 1 MiB to the end is added as /dev/loopNp1; LH_PART_MBR also writes it
 * into an MBR, LH_PART_BARE adds it with no partition table on the disk.
 * Returns 0 or -1 (everything released).
 */
static inline int lh_create_at(struct loopdev *l, const char *dir, const char *tag, unsigned mib,
				int partition)
{
	char line[256];
	FILE *p;
	int fd;

	memset(l, 0, sizeof(*l));
	snprintf(l->img, sizeof(l->img), "%s/" LH_PREFIX "%ld-%s.img", dir, (long)getpid(), tag);
	fd = open(l->img, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)mib << 20)) {
		if (fd >= 0)
			close(fd);
		lh_destroy(l);
		return -1;
	}
	if (partition == LH_PART_MBR) {
		uint8_t mbr[512] = { 0 };
		uint32_t start = 2048, count = (mib << 11) - 2048;

		mbr[446 + 4] = 0x83;	/* partition 1: Linux */
		memcpy(&mbr[446 + 8], &start, 4);	/* little-endian LBA, x86 */
		memcpy(&mbr[446 + 12], &count, 4);
		mbr[510] = 0x55;
		mbr[511] = 0xAA;
		if (pwrite(fd, mbr, sizeof(mbr), 0) != (ssize_t)sizeof(mbr)) {
			close(fd);
			lh_destroy(l);
			return -1;
		}
	}
	close(fd);
	snprintf(line, sizeof(line), "losetup %s --find --show '%s'", partition ? "-P" : "", l->img);
	p = popen(line, "r");
	if (!p || !fgets(line, sizeof(line), p)) {
		if (p)
			pclose(p);
		lh_destroy(l);
		return -1;
	}
	pclose(p);
	line[strcspn(line, "\n")] = '\0';
	if (strlen(line) >= sizeof(l->dev) || strncmp(line, "/dev/loop", 9)) {
		lh_destroy(l);
		return -1;
	}
	memcpy(l->dev, line, strlen(line) + 1);
	if (partition) {
		snprintf(l->part, sizeof(l->part), "%sp1", l->dev);
		/* a kernel with an MBR parser has made it already */
		if (access(l->part, F_OK) &&
		    (lh_sh("addpart %s 1 2048 %u", l->dev, (mib << 11) - 2048) ||
		     access(l->part, F_OK))) {
			lh_destroy(l);
			return -1;
		}
	}
	return 0;
}

static inline int lh_create(struct loopdev *l, const char *tag, unsigned mib, int partition)
{
	return lh_create_at(l, "/tmp", tag, mib, partition);
}

static inline int lh_mkfs(const char *dev)
{
	return lh_sh("mkfs.ext4 -q -F %s", dev);
}

/* Mount @dev (ext4, or "ramfs" for a memory filesystem) on a fresh directory recorded in l->mnt. */
static inline int lh_mount(struct loopdev *l, const char *dev)
{
	int ram = !strcmp(dev, "ramfs");

	snprintf(l->mnt, sizeof(l->mnt), "/tmp/" LH_PREFIX "%ld-mnt-XXXXXX", (long)getpid());
	if (!mkdtemp(l->mnt)) {
		l->mnt[0] = '\0';
		return -1;
	}
	if (lh_sh("mount -t %s %s %s", ram ? "ramfs" : "ext4", ram ? "none" : dev, l->mnt)) {
		rmdir(l->mnt);
		l->mnt[0] = '\0';
		return -1;
	}
	return 0;
}

#endif
