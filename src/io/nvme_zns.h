/*
 * nvme_zns: the Zoned Namespace command set (NVMe ZNS), as zonemode=zbd
 * needs it on a namespace's generic char device (/dev/ngXnY), where the
 * block layer's zone ioctls do not reach.
 *
 * Three commands: Identify (CNS 05h, CSI 02h: the zone size of the format
 * in use and the open/active zone limits), Zone Management Receive (the
 * zone report) and Zone Management Send (a zone's reset).  The builders and
 * the parsers are pure functions (unit-tested on made-up data); the ioctl
 * helpers send them through NVME_IOCTL_ADMIN_CMD / NVME_IOCTL_IO64_CMD,
 * outside the measurement (set-up, and zbd.c's resets).  Zone Append, the
 * one ZNS command on the I/O path, is built by nvme.c with the reads and
 * writes.  Zones come out as blkzoned.h's struct blkzoned_zone, in bytes,
 * with the kernel's zone conditions: ZNS's zone states have the same values.
 */
#ifndef IOTRIAL_NVME_ZNS_H
#define IOTRIAL_NVME_ZNS_H

#include <stddef.h>	/* size_t */
#include <stdint.h>
#include "io/blkzoned.h"	/* struct blkzoned_zone */
#include "io/nvme.h"

enum {
	NVME_OP_ZONE_MGMT_SEND = 0x79,
	NVME_OP_ZONE_MGMT_RECV = 0x7a,
	NVME_ZNS_ZSA_RESET = 0x04,		/* Zone Send Action: Reset Zone */
	NVME_ZNS_REPORT_HDR = 64,		/* the report's header, then 64-byte descriptors */
	NVME_ZNS_DESC_SIZE = 64,
};

/* What a zoned namespace adds to its identify data. */
struct nvme_zns {
	uint64_t zone_lbas;	/* ZSZE of the format in use: every zone's size */
	uint32_t max_open;	/* MOR + 1; 0: no limit */
	uint32_t max_active;	/* MAR + 1; 0: no limit */
};

/*
 * The ZNS identify data @id (4096 bytes, CNS 05h CSI 02h) of namespace @ns
 * into @z.  0, or -ENODEV when it describes no zones (a zone size of 0).
 */
int nvme_zns_parse(const uint8_t *id, const struct nvme_ns *ns, struct nvme_zns *z);

/*
 * Identify the zones of namespace @ns behind @fd (char or block device).
 * 0, -ENODEV when the namespace is not zoned (the controller refuses the
 * command set, or reports no zone size), or -errno.
 */
int nvme_zns_identify(int fd, const struct nvme_ns *ns, struct nvme_zns *z);

/*
 * Fill @c (zeroed) with a Zone Management Receive that reports, into @buf
 * of @len bytes, the zones from the one holding byte @off on (a partial
 * report: the count says how many descriptors the buffer holds).
 */
void nvme_zns_cmd_report(struct nvme_uring_cmd *c, const struct nvme_ns *ns, uint64_t off,
			 void *buf, uint32_t len);

/*
 * The zones of report data @buf (@len bytes) of namespace @ns with zones of
 * @zone_lbas LBAs, into @z (at most @n).  Returns how many.
 */
unsigned nvme_zns_report_parse(const uint8_t *buf, size_t len, const struct nvme_ns *ns,
			       uint64_t zone_lbas, struct blkzoned_zone *z, unsigned n);

/* Fill @c (zeroed) with a Zone Management Send resetting the zone that starts at byte @off. */
void nvme_zns_cmd_reset(struct nvme_uring_cmd *c, const struct nvme_ns *ns, uint64_t off);

/*
 * Up to @n zones from the one holding byte @off of namespace @ns (zones of
 * @zns) behind @fd, into @z.  How many (0 past the end), or -errno (-EIO
 * for a status from the controller).
 */
int nvme_zns_report(int fd, const struct nvme_ns *ns, const struct nvme_zns *zns, uint64_t off,
		    struct blkzoned_zone *z, unsigned n);

/*
 * Reset the write pointers of the zones in [@off, @off + @len) (whole
 * zones of @zns), one command per zone.  0 or -errno.
 */
int nvme_zns_reset(int fd, const struct nvme_ns *ns, const struct nvme_zns *zns, uint64_t off,
		   uint64_t len);

#endif
