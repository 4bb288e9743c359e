/*
 * blkzoned: Linux's zoned block device interface, as zonemode=zbd needs it.
 *
 * The zoned model and the device's open/active zone limits come from sysfs
 * (/sys/dev/block/MAJ:MIN/queue/{zoned,max_open_zones,max_active_zones});
 * the zones from BLKREPORTZONE (with their capacity when the kernel reports
 * it: BLK_ZONE_REP_CAPACITY, else capacity = length); a reset is
 * BLKRESETZONE, which needs the device open for writing.  Offsets and lengths
 * are bytes here, sectors only at the ioctl.  Nothing here keeps state: the
 * zone table is zbd_dev.c's, its rules zbd.c's.
 */
#ifndef IOTRIAL_BLKZONED_H
#define IOTRIAL_BLKZONED_H

#include <stdint.h>
#include <sys/types.h>	/* dev_t */

/* The kernel's zoned models (queue/zoned). */
enum blkzoned_model {
	BLKZONED_NONE = 0,		/* not zoned: zones are emulated on it (zbd_dev.c) */
	BLKZONED_HOST_AWARE = 1,
	BLKZONED_HOST_MANAGED = 2,
};

/* The kernel's zone conditions (BLK_ZONE_COND_*), kept with the same values. */
enum blkzoned_cond {
	BLKZONED_COND_NOT_WP = 0x0, BLKZONED_COND_EMPTY = 0x1, BLKZONED_COND_IMP_OPEN = 0x2,
	BLKZONED_COND_EXP_OPEN = 0x3, BLKZONED_COND_CLOSED = 0x4, BLKZONED_COND_READONLY = 0xd,
	BLKZONED_COND_FULL = 0xe, BLKZONED_COND_OFFLINE = 0xf,
};

/* One zone as the device reports it, in bytes. */
struct blkzoned_zone {
	uint64_t start, len, cap, wp;
	uint8_t cond;			/* enum blkzoned_cond */
	uint8_t seq;			/* a sequential-write zone (it has a write pointer) */
};

/*
 * The zoned model of block device @rdev (sysfs queue/zoned; a partition asks
 * its disk).  0 with *@model set, or -errno when sysfs has no answer.
 */
int blkzoned_model(dev_t rdev, enum blkzoned_model *model);

/*
 * queue/@name (max_open_zones, max_active_zones) of @rdev: 0 with *@v set
 * (0: no limit), or -errno (an old kernel without the file).
 */
int blkzoned_limit(dev_t rdev, const char *name, uint32_t *v);

/*
 * Up to @n zones from the one holding byte @off of the zoned device open as
 * @fd, into @z.  Returns how many (0 past the end), or -errno.
 */
int blkzoned_report(int fd, uint64_t off, struct blkzoned_zone *z, unsigned n);

/* Reset the write pointers of the zones in [@off, @off + @len).  0 or -errno. */
int blkzoned_reset(int fd, uint64_t off, uint64_t len);

#endif
