/*
 * diskutil: block devices behind targets and their activity (see diskutil.h).
 *
 * Device discovery works on sysfs directories: /sys/dev/block/MAJ:MIN is a
 * symlink to the device's directory; a partition's directory holds a
 * "partition" file and sits inside its disk's; a stacked device (dm, md)
 * lists its members as symlinks in slaves/.
 */
#include "env/diskutil.h"
#include "lib/vec.h"	/* vec_grow */

#include <dirent.h>	/* opendir */
#include <errno.h>
#include <limits.h>	/* PATH_MAX */
#include <stdio.h>
#include <stdlib.h>	/* realpath */
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>	/* major, minor, makedev */
#include <unistd.h>	/* access */

#define DISKUTIL_MAX_DEPTH 8	/* dm on md on partitions is 3; guards loops */

/* Fields of <dir>/stat, in the kernel's order (Documentation/block/stat.rst). */
enum {
	ST_READ_IOS, ST_READ_MERGES, ST_READ_SECTORS, ST_READ_TICKS,
	ST_WRITE_IOS, ST_WRITE_MERGES, ST_WRITE_SECTORS, ST_WRITE_TICKS,
	ST_IN_FLIGHT, ST_IO_TICKS, ST_TIME_IN_QUEUE,
};

static const char *sysfs_root(const struct diskutil *d)
{
	return d->sysfs ? d->sysfs : "/sys";
}

/* Read <dir>/stat into @v.  Returns 0 or -errno. */
static int read_stat(const char *dir, uint64_t v[DISKUTIL_STAT_NR])
{
	char path[PATH_MAX], line[512], *p, *end;
	FILE *f;
	int i;

	if (snprintf(path, sizeof(path), "%s/stat", dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	p = fgets(line, sizeof(line), f);
	fclose(f);
	if (!p)
		return -EIO;
	for (i = 0; i < DISKUTIL_STAT_NR; i++) {
		v[i] = strtoull(p, &end, 10);
		if (end == p)
			return -EINVAL;
		p = end;
	}
	return 0;
}

static int has_dev(const struct diskutil *d, const char *name)
{
	for (size_t i = 0; i < d->nr; i++)
		if (!strcmp(d->dev[i].name, name))
			return 1;
	return 0;
}

/* Add the device whose sysfs directory is @dir (resolved), its disk, its members. */
static int add_dir(struct diskutil *d, const char *dir, int depth)
{
	const char *base = strrchr(dir, '/');
	struct diskutil_dev *dev;
	uint64_t snap[DISKUTIL_STAT_NR];
	char path[PATH_MAX], real[PATH_MAX];
	struct dirent *de;
	DIR *sl;
	int rc = 0;

	base = base ? base + 1 : dir;
	if (depth > DISKUTIL_MAX_DEPTH || !*base || strlen(base) >= sizeof(dev->name) ||
	    has_dev(d, base) || read_stat(dir, snap))
		return 0;	/* not a device we can watch: skip, not an error */
	if (vec_grow((void **)&d->dev, &d->cap, d->nr + 1, sizeof(*d->dev), 4))
		return -ENOMEM;
	dev = &d->dev[d->nr];
	memset(dev, 0, sizeof(*dev));
	dev->dir = strdup(dir);
	if (!dev->dir)
		return -ENOMEM;
	snprintf(dev->name, sizeof(dev->name), "%s", base);
	memcpy(dev->start, snap, sizeof(snap));
	d->nr++;

	/* a partition: its whole disk is the directory above */
	if (snprintf(path, sizeof(path), "%s/partition", dir) < (int)sizeof(path) &&
	    !access(path, F_OK) && base > dir + 1) {
		snprintf(path, sizeof(path), "%.*s", (int)(base - dir - 1), dir);
		rc = add_dir(d, path, depth + 1);
	}
	/* dm / md: the members */
	if (snprintf(path, sizeof(path), "%s/slaves", dir) >= (int)sizeof(path))
		return rc;
	sl = opendir(path);
	while (!rc && sl && (de = readdir(sl))) {
		char link[PATH_MAX];

		if (de->d_name[0] == '.')
			continue;
		if (snprintf(link, sizeof(link), "%s/%s", path, de->d_name) < (int)sizeof(link) &&
		    realpath(link, real))
			rc = add_dir(d, real, depth + 1);
	}
	if (sl)
		closedir(sl);
	return rc;
}

/* Add the device numbered @dev; 1 if sysfs knows it, 0 if not, or -ENOMEM. */
static int add_devnum(struct diskutil *d, dev_t dev)
{
	char path[PATH_MAX], real[PATH_MAX];
	int rc;

	snprintf(path, sizeof(path), "%s/dev/block/%u:%u", sysfs_root(d), major(dev), minor(dev));
	if (!realpath(path, real))
		return 0;
	rc = add_dir(d, real, 0);
	return rc ? rc : 1;
}

/*
 * A filesystem whose st_dev is not a block device (btrfs gives an anonymous
 * 0:N): the block device is the source of the mount with that st_dev.
 */
static int add_mount_source(struct diskutil *d, dev_t fsdev)
{
	char line[4096], want[32], *src = NULL;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	struct stat st;
	int rc = 0;

	if (!f)
		return 0;
	snprintf(want, sizeof(want), " %u:%u ", major(fsdev), minor(fsdev));
	while (!src && fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - "), *fstype, *save = NULL;

		if (!strstr(line, want) || strstr(line, want) > (sep ? sep : line))
			continue;
		fstype = strtok_r(sep + 3, " ", &save);
		src = fstype ? strtok_r(NULL, " ", &save) : NULL;
		if (src && strncmp(src, "/dev/", 5))
			src = NULL;
	}
	if (src && !stat(src, &st) && S_ISBLK(st.st_mode))
		rc = add_devnum(d, st.st_rdev);
	fclose(f);
	return rc < 0 ? rc : 0;
}

/* The device number behind @path (or its directory), or 0 if none. */
static int path_dev(const char *path, dev_t *dev, int *is_fs)
{
	char dir[PATH_MAX];
	struct stat st;
	char *slash;

	if (stat(path, &st)) {
		/* not created yet: its directory's filesystem */
		snprintf(dir, sizeof(dir), "%s", path);
		slash = strrchr(dir, '/');
		if (slash == dir)
			slash[1] = '\0';
		else if (slash)
			*slash = '\0';
		else
			snprintf(dir, sizeof(dir), ".");
		if (stat(dir, &st))
			return 0;
	}
	*is_fs = !S_ISBLK(st.st_mode);
	*dev = *is_fs ? st.st_dev : st.st_rdev;
	return 1;
}

int diskutil_start(struct diskutil *d, const char *const *paths, size_t n, struct err *e)
{
	for (size_t i = 0; i < n; i++) {
		dev_t dev;
		int is_fs, rc;

		if (!paths[i] || !path_dev(paths[i], &dev, &is_fs))
			continue;
		rc = add_devnum(d, dev);
		if (rc == 0 && is_fs)
			rc = add_mount_source(d, dev);
		if (rc < 0)
			return err_set(e, rc, EXIT_INTERNAL,
				       "out of memory listing the disks behind %s", paths[i]);
	}
	return 0;
}

static uint64_t delta(uint64_t now, uint64_t then)
{
	return diskutil_delta(now, then);
}

uint64_t diskutil_delta(uint64_t now, uint64_t then)
{
	if (now >= then)
		return now - then;
	if (then <= UINT32_MAX)
		return (now + (UINT32_MAX - then) + 1) & UINT32_MAX;
	return 0;
}

int diskutil_sample(const struct diskutil *d, size_t i, uint64_t t_ns, struct diskutil_snap *s)
{
	int r;

	s->t_ns = t_ns;
	s->ok = 0;
	if (i >= d->nr)
		return -ENODEV;
	r = read_stat(d->dev[i].dir, s->v);
	s->ok = !r;
	return r;
}

int diskutil_view(const char *name, const struct diskutil_snap *a, const struct diskutil_snap *b,
		  struct disk_view *v)
{
	double secs, ms;
	uint64_t rt, wt;

	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", name ? name : "");
	if (!a->ok || !b->ok || b->t_ns <= a->t_ns)
		return -ENODEV;
	v->dur_ns = b->t_ns - a->t_ns;
	secs = (double)v->dur_ns / 1e9;
	ms = (double)v->dur_ns / 1e6;
	v->read_ios = delta(b->v[ST_READ_IOS], a->v[ST_READ_IOS]);
	v->write_ios = delta(b->v[ST_WRITE_IOS], a->v[ST_WRITE_IOS]);
	v->read_bytes = 512 * delta(b->v[ST_READ_SECTORS], a->v[ST_READ_SECTORS]);
	v->write_bytes = 512 * delta(b->v[ST_WRITE_SECTORS], a->v[ST_WRITE_SECTORS]);
	rt = delta(b->v[ST_READ_TICKS], a->v[ST_READ_TICKS]);
	wt = delta(b->v[ST_WRITE_TICKS], a->v[ST_WRITE_TICKS]);
	v->read_iops = (double)v->read_ios / secs;
	v->write_iops = (double)v->write_ios / secs;
	v->read_lat_ns_mean = v->read_ios ? (double)rt * 1e6 / (double)v->read_ios : 0;
	v->write_lat_ns_mean = v->write_ios ? (double)wt * 1e6 / (double)v->write_ios : 0;
	v->read_queue_depth = (double)rt / ms;
	v->write_queue_depth = (double)wt / ms;
	v->queue_depth = (double)delta(b->v[ST_TIME_IN_QUEUE], a->v[ST_TIME_IN_QUEUE]) / ms;
	v->util = 100.0 * (double)delta(b->v[ST_IO_TICKS], a->v[ST_IO_TICKS]) / ms;
	if (v->util > 100.0)
		v->util = 100.0;	/* tick accounting overshoots a little */
	return 0;
}

uint64_t diskutil_nr_requests(const struct diskutil *d, size_t i)
{
	char path[PATH_MAX], line[64];
	unsigned long long n = 0;
	FILE *f;

	if (i >= d->nr || snprintf(path, sizeof(path), "%s/queue/nr_requests", d->dev[i].dir) >=
			  (int)sizeof(path))
		return 0;
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f))
		n = strtoull(line, NULL, 10);
	fclose(f);
	return n;
}

int diskutil_end(struct diskutil *d, uint64_t wall_ms, struct disk_util **out, size_t *nr)
{
	struct disk_util *du;
	uint64_t v[DISKUTIL_STAT_NR];
	size_t k = 0;

	*out = NULL;
	*nr = 0;
	if (!d->nr)
		return 0;
	du = calloc(d->nr, sizeof(*du));
	if (!du)
		return -ENOMEM;
	for (size_t i = 0; i < d->nr; i++) {
		const uint64_t *s = d->dev[i].start;
		struct disk_util *u = &du[k];

		if (read_stat(d->dev[i].dir, v))
			continue;	/* gone (hot-unplugged, dm removed) */
		snprintf(u->name, sizeof(u->name), "%s", d->dev[i].name);
		u->read_ios = delta(v[ST_READ_IOS], s[ST_READ_IOS]);
		u->write_ios = delta(v[ST_WRITE_IOS], s[ST_WRITE_IOS]);
		u->read_merges = delta(v[ST_READ_MERGES], s[ST_READ_MERGES]);
		u->write_merges = delta(v[ST_WRITE_MERGES], s[ST_WRITE_MERGES]);
		u->read_ticks = delta(v[ST_READ_TICKS], s[ST_READ_TICKS]);
		u->write_ticks = delta(v[ST_WRITE_TICKS], s[ST_WRITE_TICKS]);
		u->in_queue = delta(v[ST_TIME_IN_QUEUE], s[ST_TIME_IN_QUEUE]);
		u->io_ticks = delta(v[ST_IO_TICKS], s[ST_IO_TICKS]);
		u->util = wall_ms ? 100.0 * (double)u->io_ticks / (double)wall_ms : 0.0;
		if (u->util > 100.0)
			u->util = 100.0;	/* tick accounting overshoots a little */
		k++;
	}
	if (!k) {
		free(du);
		return 0;
	}
	*out = du;
	*nr = k;
	return 0;
}

void diskutil_free(struct diskutil *d)
{
	for (size_t i = 0; i < d->nr; i++)
		free(d->dev[i].dir);
	free(d->dev);
	d->dev = NULL;
	d->nr = 0;
	d->cap = 0;
}
