/*
 * zonesrc: where a zonemode=zbd target's zones come from, so that the zone
 * table (zbd_dev.c) and its rules (zbd.c) do not care.
 *
 * Three kinds of target: a zoned block device (its zoned model and limits
 * from sysfs, its zones through BLKREPORTZONE/BLKRESETZONE: blkzoned.h), an
 * NVMe namespace's generic char device /dev/ngXnY, which the io_uring_cmd
 * engine drives and the block layer's zone ioctls do not reach (the zoned
 * namespace's identify data, Zone Management Receive and Send through the
 * passthrough ioctls: nvme_zns.h; a ZNS namespace is host-managed, as the
 * kernel treats it), and anything else (a regular file, an ordinary block
 * device, a namespace of another command set), which is not zoned: zbd_dev.c
 * then emulates zones of zonesize=, as fio.  A pipe, or a char device that is
 * not an NVMe namespace, is refused.
 */
#ifndef IOTRIAL_ZONESRC_H
#define IOTRIAL_ZONESRC_H

#include <stdint.h>
#include "io/blkzoned.h"
#include "io/nvme.h"
#include "io/nvme_zns.h"
#include "lib/err.h"

enum zonesrc_kind {
	ZONESRC_NONE = 0,	/* not zoned (zbd_dev.c emulates zones) */
	ZONESRC_BLK,		/* a zoned block device */
	ZONESRC_NVME,		/* a zoned NVMe namespace's char device */
};

struct zonesrc {
	enum zonesrc_kind kind;
	enum blkzoned_model model;
	uint64_t size;			/* bytes */
	uint32_t max_open, max_active;	/* the device's limits (0: none) */
	struct nvme_ns ns;		/* ZONESRC_NVME: the namespace ... */
	struct nvme_zns zns;		/* ... and its zones */
};

/*
 * What target @fd (named @path, of job @job) is: kind, model, size and
 * limits into @s.  0, or -errno with @e naming the job and file
 * (EXIT_USAGE for a target zonemode=zbd cannot use, EXIT_TARGET when it
 * cannot be read).
 */
int zonesrc_probe(struct zonesrc *s, int fd, const char *path, const char *job, struct err *e);

/* The command that reports zones, for messages ("BLKREPORTZONE"). */
const char *zonesrc_report_name(const struct zonesrc *s);

/*
 * Up to @n zones from the one holding byte @off of the zoned target @s,
 * open as @fd, into @z.  How many (0 past the end), or -errno.
 */
int zonesrc_report(const struct zonesrc *s, int fd, uint64_t off, struct blkzoned_zone *z,
		   unsigned n);

/* Reset the write pointers of the zones in [@off, @off + @len) of @s (@fd open for writing). */
int zonesrc_reset(const struct zonesrc *s, int fd, uint64_t off, uint64_t len);

#endif
