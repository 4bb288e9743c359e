/*
 * nvme_zns: identify, report and reset of a zoned namespace (see nvme_zns.h).
 *
 * Field positions are the NVMe Zoned Namespace Command Set specification's:
 * the ZNS identify namespace data has MAR at bytes 7:4 and MOR at 11:8 (both
 * 0-based, all ones for no limit) and the LBA format extensions from byte
 * 2816, 16 bytes each, ZSZE (zone size in LBAs) first; Zone Management
 * Receive takes the starting LBA in CDW10-11, the buffer's size in dwords
 * (0-based) in CDW12, and in CDW13 the action (7:0, 0: report zones), the
 * filter (15:8, 0: all zones) and Partial Report (bit 16); its data is a
 * 64-byte header (the number of zones in bytes 7:0) and 64-byte zone
 * descriptors: ZT in byte 0 (3:0), ZS in byte 1 (7:4), ZCAP at 8, ZSLBA
 * at 16, WP at 24.  Zone Management Send takes the zone's start LBA in
 * CDW10-11 and the action in CDW13 (7:0; 04h: reset).
 */
#include "io/nvme_zns.h"

#include <errno.h>	/* ENODEV, ENOMEM */
#include <stdlib.h>	/* free, posix_memalign */
#include <string.h>	/* memset */

#define NVME_ID_SIZE 4096
#define NVME_ID_CNS_CS_NS 0x05	/* identify: the I/O command set specific namespace data */
#define NVME_CSI_ZNS 0x02
#define NVME_ZNS_MAR 4
#define NVME_ZNS_MOR 8
#define NVME_ZNS_LBAFE 2816
#define NVME_ZNS_ZT_SEQ 0x2		/* sequential write required: ZNS's only zone type */
#define NVME_ZNS_PARTIAL (1u << 16)
#define NVME_ZNS_REPORT_MAX 1024u	/* descriptors per command: 64 KiB, below any MDTS */

static uint64_t zns_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* A 0-based limit, all ones for none, as a count (0: none). */
static uint32_t zns_limit(uint32_t v)
{
	return v == UINT32_MAX ? 0 : v + 1;
}

int nvme_zns_parse(const uint8_t *id, const struct nvme_ns *ns, struct nvme_zns *z)
{
	const uint8_t *fe = id + NVME_ZNS_LBAFE + 16 * ns->lbaf;

	z->zone_lbas = zns_le(fe, 8);
	z->max_active = zns_limit((uint32_t)zns_le(id + NVME_ZNS_MAR, 4));
	z->max_open = zns_limit((uint32_t)zns_le(id + NVME_ZNS_MOR, 4));
	return z->zone_lbas ? 0 : -ENODEV;
}

int nvme_zns_identify(int fd, const struct nvme_ns *ns, struct nvme_zns *z)
{
	uint8_t id[NVME_ID_SIZE] __attribute__((aligned(64)));
	int r;

	if (ns->lbaf >= 64)
		return -ENODEV;
	memset(id, 0, sizeof(id));
	r = nvme_admin(fd, NVME_ADMIN_IDENTIFY, ns->nsid, NVME_ID_CNS_CS_NS,
		       (uint32_t)NVME_CSI_ZNS << 24, id, sizeof(id));
	/* a namespace of another command set: the controller says Invalid Field */
	if (r > 0)
		return -ENODEV;
	if (r)
		return r;
	return nvme_zns_parse(id, ns, z);
}

void nvme_zns_cmd_report(struct nvme_uring_cmd *c, const struct nvme_ns *ns, uint64_t off,
			 void *buf, uint32_t len)
{
	uint64_t slba = off >> ns->lba_shift;

	memset(c, 0, sizeof(*c));
	c->opcode = NVME_OP_ZONE_MGMT_RECV;
	c->nsid = ns->nsid;
	c->addr = (uint64_t)(uintptr_t)buf;
	c->data_len = len;
	c->cdw10 = (uint32_t)slba;
	c->cdw11 = (uint32_t)(slba >> 32);
	c->cdw12 = len / 4 - 1;
	c->cdw13 = NVME_ZNS_PARTIAL;	/* action 0 (report zones), filter 0 (all) */
}

unsigned nvme_zns_report_parse(const uint8_t *buf, size_t len, const struct nvme_ns *ns,
			       uint64_t zone_lbas, struct blkzoned_zone *z, unsigned n)
{
	uint64_t nr = len < NVME_ZNS_REPORT_HDR ? 0 : zns_le(buf, 8);
	unsigned i, s = ns->lba_shift;

	if (nr > (len - NVME_ZNS_REPORT_HDR) / NVME_ZNS_DESC_SIZE)
		nr = (len - NVME_ZNS_REPORT_HDR) / NVME_ZNS_DESC_SIZE;
	if (nr > n)
		nr = n;
	for (i = 0; i < nr; i++) {
		const uint8_t *d = buf + NVME_ZNS_REPORT_HDR + (size_t)i * NVME_ZNS_DESC_SIZE;

		z[i].seq = (d[0] & 0xf) == NVME_ZNS_ZT_SEQ;
		z[i].cond = d[1] >> 4;
		z[i].cap = zns_le(d + 8, 8) << s;
		z[i].start = zns_le(d + 16, 8) << s;
		z[i].wp = zns_le(d + 24, 8) << s;
		z[i].len = zone_lbas << s;
	}
	return (unsigned)nr;
}

void nvme_zns_cmd_reset(struct nvme_uring_cmd *c, const struct nvme_ns *ns, uint64_t off)
{
	uint64_t slba = off >> ns->lba_shift;

	memset(c, 0, sizeof(*c));
	c->opcode = NVME_OP_ZONE_MGMT_SEND;
	c->nsid = ns->nsid;
	c->cdw10 = (uint32_t)slba;
	c->cdw11 = (uint32_t)(slba >> 32);
	c->cdw13 = NVME_ZNS_ZSA_RESET;
}

int nvme_zns_report(int fd, const struct nvme_ns *ns, const struct nvme_zns *zns, uint64_t off,
		    struct blkzoned_zone *z, unsigned n)
{
	struct nvme_uring_cmd c;
	size_t len;
	void *buf;
	int r;

	if (!n || (off >> ns->lba_shift) >= ns->nlba)
		return 0;
	if (n > NVME_ZNS_REPORT_MAX)
		n = NVME_ZNS_REPORT_MAX;
	len = NVME_ZNS_REPORT_HDR + (size_t)n * NVME_ZNS_DESC_SIZE;
	if (posix_memalign(&buf, 4096, len))
		return -ENOMEM;
	memset(buf, 0, len);
	nvme_zns_cmd_report(&c, ns, off, buf, (uint32_t)len);
	r = nvme_io_cmd(fd, &c, NULL);
	if (!r)
		r = (int)nvme_zns_report_parse(buf, len, ns, zns->zone_lbas, z, n);
	else if (r > 0)
		r = -EIO;
	free(buf);
	return r;
}

int nvme_zns_reset(int fd, const struct nvme_ns *ns, const struct nvme_zns *zns, uint64_t off,
		   uint64_t len)
{
	uint64_t zb = zns->zone_lbas << ns->lba_shift, end = off + len;
	struct nvme_uring_cmd c;
	int r;

	for (; off < end; off += zb) {
		nvme_zns_cmd_reset(&c, ns, off);
		r = nvme_io_cmd(fd, &c, NULL);
		if (r)
			return r < 0 ? r : -EIO;
	}
	return 0;
}
