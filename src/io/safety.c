/*
 * safety: the checks behind safety_check() (see safety.h).
 *
 * The device is described by sysfs: /sys/dev/block/MAJ:MIN resolves to the
 * kernel's directory for it; a directory holding a "partition" file is a
 * partition, and a whole disk lists its partitions as such subdirectories.
 * Every check runs over the device and its partitions, so a whole disk whose
 * partition is mounted is caught.  Partitions are probed for signatures
 * through the whole disk at the partition's offset, which works even where
 * no /dev node exists for the partition.  The first reason found wins, in the
 * order mounted, swap, holders, signature (the most alarming first).
 */
#include "io/safety.h"
#include "lib/vec.h"	/* vec_grow */

#include <blkid/blkid.h>	/* blkid_probe: filesystem/partition/RAID signatures */
#include <dirent.h>	/* opendir */
#include <errno.h>	/* EPERM */
#include <fcntl.h>	/* open */
#include <limits.h>	/* PATH_MAX */
#include <stdarg.h>	/* va_list */
#include <stdint.h>	/* uint64_t */
#include <stdio.h>	/* snprintf, fopen */
#include <stdlib.h>	/* realpath, calloc */
#include <string.h>	/* strcmp */
#include <sys/stat.h>	/* stat */
#include <sys/sysmacros.h>	/* major, minor, makedev */
#include <unistd.h>	/* access, close */

struct safety_dev {
	dev_t dev;
	char name[64];		/* kernel name, e.g. "loop3p1" */
	char sysdir[PATH_MAX];	/* its sysfs directory */
	uint64_t start, size;	/* bytes on the whole disk (partitions of a whole-disk target) */
};

struct safety_target {
	const char *typed;	/* the path as the user gave it */
	char resolved[PATH_MAX];
	struct safety_dev *devs;	/* devs[0] is the device itself, then its partitions */
	unsigned nr;
	size_t cap;			/* of devs, for vec_grow */
	const struct job *job;
};

/* Refuse with "typed (resolved): <reason>; set <flag>=1 to override". */
static int safety_refuse(struct err *e, const struct safety_target *t, const char *flag,
			 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int safety_refuse(struct err *e, const struct safety_target *t, const char *flag,
			 const char *fmt, ...)
{
	char reason[ERR_MSG_MAX];
	char who[PATH_MAX * 2 + 8];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	if (strcmp(t->typed, t->resolved))
		snprintf(who, sizeof(who), "%s (%s)", t->typed, t->resolved);
	else
		snprintf(who, sizeof(who), "%s", t->typed);
	if (flag)
		return err_set(e, -EPERM, EXIT_UNSAFE, "%s: %s; set %s=1 to override", who, reason, flag);
	return err_set(e, -EPERM, EXIT_UNSAFE, "%s: %s", who, reason);
}

/* "the device" or "partition /dev/loop3p1", the subject of a reason. */
static void safety_subject(const struct safety_target *t, unsigned i, char *buf, size_t n)
{
	if (i == 0)
		snprintf(buf, n, "the device");
	else
		snprintf(buf, n, "partition /dev/%s", t->devs[i].name);
}

/* Read a small sysfs attribute into @buf without the newline: 0 or -errno. */
static int safety_read_attr(const char *dir, const char *attr, char *buf, size_t n)
{
	char path[PATH_MAX + 64];
	FILE *f;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)n, f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	len = strlen(buf);
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	return 0;
}

static int safety_add_dev(struct safety_target *t, const char *sysdir, const char *name)
{
	struct safety_dev *d;
	char val[64];
	unsigned maj, min;
	unsigned long long start = 0, size = 0;

	if (safety_read_attr(sysdir, "dev", val, sizeof(val)) || sscanf(val, "%u:%u", &maj, &min) != 2)
		return -ENOENT;
	if (!safety_read_attr(sysdir, "start", val, sizeof(val)))
		start = strtoull(val, NULL, 10);
	if (!safety_read_attr(sysdir, "size", val, sizeof(val)))
		size = strtoull(val, NULL, 10);
	if (vec_grow((void **)&t->devs, &t->cap, (size_t)t->nr + 1, sizeof(*t->devs), 4))
		return -ENOMEM;
	d = &t->devs[t->nr++];
	memset(d, 0, sizeof(*d));
	d->dev = makedev(maj, min);
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->sysdir, sizeof(d->sysdir), "%s", sysdir);
	d->start = (uint64_t)start * 512;	/* sysfs counts 512-byte sectors */
	d->size = (uint64_t)size * 512;
	return 0;
}

/* Fill t->devs with the device and, for a whole disk, its partitions. */
static int safety_collect(struct safety_target *t, dev_t rdev)
{
	char link[64], sysdir[PATH_MAX], sub[PATH_MAX + 300], probe[PATH_MAX + 320];
	const char *base;
	struct dirent *de;
	DIR *d;
	int ret;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	if (!realpath(link, sysdir))
		return -errno;
	base = strrchr(sysdir, '/');
	base = base ? base + 1 : sysdir;
	ret = safety_add_dev(t, sysdir, base);
	if (ret)
		return ret;
	t->devs[0].start = t->devs[0].size = 0;	/* the target is probed whole, by path */
	snprintf(probe, sizeof(probe), "%s/partition", sysdir);
	if (!access(probe, F_OK))
		return 0;	/* a partition has no partitions */
	d = opendir(sysdir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", sysdir, de->d_name);
		snprintf(probe, sizeof(probe), "%s/partition", sub);
		if (access(probe, F_OK))
			continue;
		ret = safety_add_dev(t, sub, de->d_name);
		if (ret == -ENOMEM)
			break;
		ret = 0;
	}
	closedir(d);
	return ret;
}

/* Undo the octal escapes (\040 for a space) of /proc/self/mountinfo and /proc/swaps. */
static void safety_unescape(char *s)
{
	char *o = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
}

/* Index in t->devs of the device @dev, or -1. */
static int safety_find(const struct safety_target *t, dev_t dev)
{
	unsigned i;

	for (i = 0; i < t->nr; i++)
		if (t->devs[i].dev == dev)
			return (int)i;
	return -1;
}

/* The block device a mount or swap source path names, or 0. */
static dev_t safety_source_dev(const char *src)
{
	struct stat st;

	if (strncmp(src, "/dev/", 5) || stat(src, &st) || !S_ISBLK(st.st_mode))
		return 0;
	return st.st_rdev;
}

/*
 * Mounted?  A mount matches by the major:minor of its superblock, and also by
 * its source device, for filesystems (btrfs) whose superblock carries an
 * anonymous device number.
 */
static int safety_check_mounts(const struct safety_target *t, struct err *e)
{
	char line[8192], src[4096], subj[128];
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int ret = 0;

	if (!f)
		return 0;	/* no procfs: nothing more can be known */
	while (!ret && fgets(line, sizeof(line), f)) {
		char *fields[5], *sep, *save = NULL, *tok;
		unsigned maj, min;
		int n = 0, idx;
		dev_t sd;

		sep = strstr(line, " - ");
		if (!sep)
			continue;
		if (sscanf(sep + 3, "%*s %4095s", src) != 1)
			src[0] = '\0';
		*sep = '\0';
		for (tok = strtok_r(line, " ", &save); tok && n < 5; tok = strtok_r(NULL, " ", &save))
			fields[n++] = tok;
		if (n < 5 || sscanf(fields[2], "%u:%u", &maj, &min) != 2)
			continue;
		idx = safety_find(t, makedev(maj, min));
		if (idx < 0 && src[0]) {
			safety_unescape(src);
			sd = safety_source_dev(src);
			idx = sd ? safety_find(t, sd) : -1;
		}
		if (idx < 0)
			continue;
		safety_unescape(fields[4]);
		safety_subject(t, (unsigned)idx, subj, sizeof(subj));
		ret = safety_refuse(e, t, "allow_mounted_write", "%s is mounted on %s", subj, fields[4]);
	}
	fclose(f);
	return ret;
}

/* Active swap on the device or a partition. */
static int safety_check_swaps(const struct safety_target *t, struct err *e)
{
	char line[4096 + 256], name[4096], subj[128];
	FILE *f = fopen("/proc/swaps", "re");
	int ret = 0;

	if (!f)
		return 0;
	while (!ret && fgets(line, sizeof(line), f)) {
		dev_t sd;
		int idx;

		if (sscanf(line, "%4095s", name) != 1 || name[0] != '/')
			continue;	/* the header line */
		safety_unescape(name);
		sd = safety_source_dev(name);
		idx = sd ? safety_find(t, sd) : -1;
		if (idx < 0)
			continue;
		safety_subject(t, (unsigned)idx, subj, sizeof(subj));
		ret = safety_refuse(e, t, "allow_signature_write", "%s is in use as swap", subj);
	}
	fclose(f);
	return ret;
}

/* Held by device-mapper (LVM, crypt, multipath) or md: sysfs holders/ not empty. */
static int safety_check_holders(const struct safety_target *t, struct err *e)
{
	char dir[PATH_MAX + 16], hdir[PATH_MAX + 300], dmname[256], subj[128];
	unsigned i;
	int ret = 0;

	for (i = 0; i < t->nr && !ret; i++) {
		struct dirent *de;
		DIR *d;

		snprintf(dir, sizeof(dir), "%s/holders", t->devs[i].sysdir);
		d = opendir(dir);
		if (!d)
			continue;
		while ((de = readdir(d)) && !ret) {
			if (de->d_name[0] == '.')
				continue;
			safety_subject(t, i, subj, sizeof(subj));
			snprintf(hdir, sizeof(hdir), "/sys/class/block/%s/dm", de->d_name);
			if (!safety_read_attr(hdir, "name", dmname, sizeof(dmname)))
				ret = safety_refuse(e, t, "allow_signature_write",
						    "%s is held by device-mapper device %s (%s: LVM, dm-crypt or multipath)",
						    subj, de->d_name, dmname);
			else if (!strncmp(de->d_name, "md", 2))
				ret = safety_refuse(e, t, "allow_signature_write",
						    "%s is held by md RAID array %s", subj, de->d_name);
			else
				ret = safety_refuse(e, t, "allow_signature_write",
						    "%s is held by %s", subj, de->d_name);
		}
		closedir(d);
	}
	return ret;
}

/*
 * Probe @fd from @off for @size bytes (0: to the end) for a signature; with
 * @parts also for a partition table.  Returns 1 with @what filled, 0 when
 * clean, -EIO when the probe failed.
 */
static int safety_probe(int fd, uint64_t off, uint64_t size, int parts, char *what, size_t n)
{
	blkid_probe pr = blkid_new_probe();
	const char *type = NULL, *usage = NULL;
	int rc;

	if (!pr)
		return -EIO;
	if (blkid_probe_set_device(pr, fd, (blkid_loff_t)off, (blkid_loff_t)size)) {
		blkid_free_probe(pr);
		return -EIO;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, parts);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0) {
		if (!blkid_probe_lookup_value(pr, "TYPE", &type, NULL)) {
			blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
			if (usage && !strcmp(usage, "filesystem"))
				snprintf(what, n, "a filesystem signature (%s)", type);
			else if (usage && !strcmp(usage, "raid"))
				snprintf(what, n, "a RAID member signature (%s)", type);
			else if (usage && !strcmp(usage, "crypto"))
				snprintf(what, n, "an encrypted-volume signature (%s)", type);
			else
				snprintf(what, n, "a signature (%s)", type);
		} else if (!blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL)) {
			snprintf(what, n, "a partition table (%s)", type);
		} else {
			snprintf(what, n, "a signature");
		}
		rc = 1;
	} else if (rc == -2) {
		snprintf(what, n, "several conflicting signatures");
		rc = 1;
	} else if (rc == 1) {
		rc = 0;
	} else {
		rc = -EIO;
	}
	blkid_free_probe(pr);
	return rc;
}

static int safety_check_signatures(const struct safety_target *t, struct err *e)
{
	char what[256], subj[128];
	unsigned i;
	int fd, rc, ret = 0;

	fd = open(t->resolved, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return safety_refuse(e, t, "allow_signature_write",
				     "cannot be opened to check it for signatures (%s)", strerror(errno));
	for (i = 0; i < t->nr && !ret; i++) {
		rc = safety_probe(fd, t->devs[i].start, t->devs[i].size, i == 0, what, sizeof(what));
		safety_subject(t, i, subj, sizeof(subj));
		if (rc < 0)
			ret = safety_refuse(e, t, "allow_signature_write",
					    "%s could not be checked for signatures", subj);
		else if (rc > 0)
			ret = safety_refuse(e, t, "allow_signature_write", "%s carries %s", subj, what);
	}
	close(fd);
	return ret;
}

int safety_check(const char *path, int writes, const struct job *j, int readonly, struct err *e)
{
	struct safety_target t;
	struct stat st;
	int ret;

	if (!writes)
		return 0;
	memset(&t, 0, sizeof(t));
	t.typed = path;
	t.job = j;
	if (!realpath(path, t.resolved))
		snprintf(t.resolved, sizeof(t.resolved), "%s", path);
	if (readonly)
		return safety_refuse(e, &t, NULL, "the job writes or trims but --readonly is set");
	if (stat(t.resolved, &st) || !S_ISBLK(st.st_mode))
		return 0;	/* a regular file, or one still to be created */
	ret = safety_collect(&t, st.st_rdev);
	if (ret) {
		free(t.devs);
		if (j && j->allow_signature_write && j->allow_mounted_write)
			return 0;
		return safety_refuse(e, &t, "allow_mounted_write=1 and allow_signature_write",
				     "cannot inspect the device in sysfs (%s)", strerror(-ret));
	}
	if (!(j && j->allow_mounted_write))
		ret = safety_check_mounts(&t, e);
	if (!ret && !(j && j->allow_signature_write))
		ret = safety_check_swaps(&t, e);
	if (!ret && !(j && j->allow_signature_write))
		ret = safety_check_holders(&t, e);
	if (!ret && !(j && j->allow_signature_write))
		ret = safety_check_signatures(&t, e);
	free(t.devs);
	return ret;
}

int safety_check_output(const char *path, const char *what, int allow_device, struct err *e)
{
	char resolved[PATH_MAX], who[PATH_MAX * 2 + 80];
	const char *sep = what[0] == '-' ? "=" : " ";	/* "--output=X", "log file X" */
	struct stat st;

	if (!path || !strcmp(path, "-") || !*path)
		return 0;	/* stdout, or an empty name refused by the writer */
	if (stat(path, &st))
		return 0;	/* a new file (or an unreachable one: its writer says why) */
	if (S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) ||
	    S_ISDIR(st.st_mode))
		return 0;
	if (realpath(path, resolved) && strcmp(resolved, path))
		snprintf(who, sizeof(who), "%s%s%s (%s)", what, sep, path, resolved);
	else
		snprintf(who, sizeof(who), "%s%s%s", what, sep, path);
	if (S_ISBLK(st.st_mode)) {
		if (allow_device)
			return 0;
		return err_set(e, -EPERM, EXIT_UNSAFE,
			       "%s: is a block device: writing the output there would overwrite "
			       "its data; use --allow-output-device to override", who);
	}
	return err_set(e, -EPERM, EXIT_UNSAFE, "%s: is not a regular file, FIFO or character "
		       "device (%s): refusing to write output there", who,
		       S_ISSOCK(st.st_mode) ? "a socket" : "a special file");
}
