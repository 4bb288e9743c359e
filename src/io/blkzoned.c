/*
 * blkzoned: zone report, reset and limits of a Linux zoned block device
 * (see blkzoned.h).
 */
#include "io/blkzoned.h"

#include <errno.h>
#include <stdio.h>	/* snprintf, fopen */
#include <stdlib.h>	/* calloc, strtoul */
#include <string.h>	/* strcmp, strcspn */
#include <sys/ioctl.h>
#include <sys/sysmacros.h>	/* major, minor */
#include <linux/blkzoned.h>

/* Read the first line of queue/@name of @rdev (or of its disk, for a partition). */
static int blkzoned_sysfs(dev_t rdev, const char *name, char *buf, size_t len)
{
	char path[128];
	FILE *fp;
	int i;

	/* a partition has no queue/: its disk's is one directory up */
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%squeue/%s", major(rdev),
			 minor(rdev), i ? "../" : "", name);
		fp = fopen(path, "r");
		if (fp)
			break;
	}
	if (!fp)
		return -ENOENT;
	if (!fgets(buf, (int)len, fp)) {
		fclose(fp);
		return -EIO;
	}
	fclose(fp);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int blkzoned_model(dev_t rdev, enum blkzoned_model *model)
{
	char buf[64];
	int r = blkzoned_sysfs(rdev, "zoned", buf, sizeof(buf));

	if (r)
		return r;
	if (!strcmp(buf, "host-managed"))
		*model = BLKZONED_HOST_MANAGED;
	else if (!strcmp(buf, "host-aware"))
		*model = BLKZONED_HOST_AWARE;
	else
		*model = BLKZONED_NONE;
	return 0;
}

int blkzoned_limit(dev_t rdev, const char *name, uint32_t *v)
{
	char buf[64], *end;
	unsigned long n;
	int r = blkzoned_sysfs(rdev, name, buf, sizeof(buf));

	if (r)
		return r;
	errno = 0;
	n = strtoul(buf, &end, 10);
	if (errno || end == buf || n > UINT32_MAX)
		return -EINVAL;
	*v = (uint32_t)n;
	return 0;
}

int blkzoned_report(int fd, uint64_t off, struct blkzoned_zone *z, unsigned n)
{
	struct blk_zone_report *rep;
	unsigned i;
	int r;

	if (!n)
		return 0;
	rep = calloc(1, sizeof(*rep) + (size_t)n * sizeof(struct blk_zone));
	if (!rep)
		return -ENOMEM;
	rep->sector = off >> 9;
	rep->nr_zones = n;
	if (ioctl(fd, BLKREPORTZONE, rep)) {
		r = -errno;
		free(rep);
		return r;
	}
	for (i = 0; i < rep->nr_zones && i < n; i++) {
		const struct blk_zone *b = &rep->zones[i];

		z[i].start = b->start << 9;
		z[i].len = b->len << 9;
		/* kernels before 5.9 know no capacity: the whole zone is writable */
		z[i].cap = (rep->flags & BLK_ZONE_REP_CAPACITY) ? b->capacity << 9 : b->len << 9;
		z[i].wp = b->wp << 9;
		z[i].cond = b->cond;
		z[i].seq = b->type != BLK_ZONE_TYPE_CONVENTIONAL;
	}
	r = (int)i;
	free(rep);
	return r;
}

int blkzoned_reset(int fd, uint64_t off, uint64_t len)
{
	struct blk_zone_range zr = { .sector = off >> 9, .nr_sectors = len >> 9 };

	return ioctl(fd, BLKRESETZONE, &zr) ? -errno : 0;
}
