/*
 * zonesrc: a zonemode=zbd target's zones, from a zoned block device or a
 * zoned NVMe namespace's char device (see zonesrc.h).
 */
#include "io/zonesrc.h"

#include <errno.h>
#include <string.h>	/* memset, strerror */
#include <sys/ioctl.h>
#include <sys/stat.h>	/* fstat */
#include <linux/fs.h>	/* BLKGETSIZE64 */

/* The char device @fd: a zoned NVMe namespace, another namespace, or refused. */
static int zonesrc_probe_chr(struct zonesrc *s, int fd, const char *path, const char *job,
			     struct err *e)
{
	int r = nvme_ns_identify(fd, &s->ns);

	if (r == -ENOTTY)
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': zonemode=zbd does not support "
			       "pipes or character devices other than an NVMe namespace's "
			       "(/dev/ngXnY) (%s)", job, path);
	if (r)
		return err_set(e, r, EXIT_TARGET, "%s: identify namespace: %s", path, strerror(-r));
	s->size = s->ns.nlba << s->ns.lba_shift;
	r = nvme_zns_identify(fd, &s->ns, &s->zns);
	if (r == -ENODEV)
		return 0;	/* not zoned: emulated zones */
	if (r)
		return err_set(e, r, EXIT_TARGET, "%s: identify the zoned namespace: %s", path,
			       strerror(-r));
	s->kind = ZONESRC_NVME;
	s->model = BLKZONED_HOST_MANAGED;
	s->max_open = s->zns.max_open;
	s->max_active = s->zns.max_active;
	return 0;
}

int zonesrc_probe(struct zonesrc *s, int fd, const char *path, const char *job, struct err *e)
{
	struct stat st;
	int r;

	memset(s, 0, sizeof(*s));
	if (fstat(fd, &st))
		return err_set(e, -errno, EXIT_TARGET, "%s: %m", path);
	if (S_ISFIFO(st.st_mode))
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': zonemode=zbd does not support "
			       "pipes (%s)", job, path);
	if (S_ISCHR(st.st_mode))
		return zonesrc_probe_chr(s, fd, path, job, e);
	s->size = (uint64_t)st.st_size;
	if (!S_ISBLK(st.st_mode))
		return 0;
	if (ioctl(fd, BLKGETSIZE64, &s->size))
		return err_set(e, -errno, EXIT_TARGET, "%s: BLKGETSIZE64: %m", path);
	r = blkzoned_model(st.st_rdev, &s->model);
	if (r)
		return err_set(e, r, EXIT_TARGET, "%s: cannot read its zoned model in sysfs", path);
	if (s->model == BLKZONED_NONE)
		return 0;
	s->kind = ZONESRC_BLK;
	/* an old kernel without the files: no limits */
	if (blkzoned_limit(st.st_rdev, "max_open_zones", &s->max_open))
		s->max_open = 0;
	if (blkzoned_limit(st.st_rdev, "max_active_zones", &s->max_active))
		s->max_active = 0;
	return 0;
}

const char *zonesrc_report_name(const struct zonesrc *s)
{
	return s->kind == ZONESRC_NVME ? "Zone Management Receive" : "BLKREPORTZONE";
}

int zonesrc_report(const struct zonesrc *s, int fd, uint64_t off, struct blkzoned_zone *z,
		   unsigned n)
{
	if (s->kind == ZONESRC_NVME)
		return nvme_zns_report(fd, &s->ns, &s->zns, off, z, n);
	return blkzoned_report(fd, off, z, n);
}

int zonesrc_reset(const struct zonesrc *s, int fd, uint64_t off, uint64_t len)
{
	if (s->kind == ZONESRC_NVME)
		return nvme_zns_reset(fd, &s->ns, &s->zns, off, len);
	return blkzoned_reset(fd, off, len);
}
