/*
 * nvme: NVMe command building, identify and the SMART log (see nvme.h).
 *
 * Field positions are the NVM Express Base and NVM Command Set
 * specifications': identify namespace NSZE at byte 0, NLBAF at 25, FLBAS at
 * 26, DPS at 29, the LBA formats from byte 128 (4 bytes each: MS, LBADS,
 * RP); read/write CDW10-11 the starting LBA, CDW12 the 0-based block count
 * (15:0), PRINFO (29:26) and FUA (30), CDW14 the initial reference tag,
 * CDW15 the application tag and its mask; the SMART log's data units and
 * host command counts at bytes 32, 48, 64 and 80, 16 bytes each.
 */
#include "io/nvme.h"

#include <errno.h>	/* EINVAL, ENOTTY */
#include <stdio.h>	/* snprintf */
#include <string.h>	/* memset, memcpy, strrchr */
#include <sys/ioctl.h>	/* ioctl */
#include <sys/stat.h>	/* stat */

#define NVME_ID_SIZE 4096
#define NVME_SMART_SIZE 512
#define NVME_PI_SIZE 8		/* 16-bit guard PI: guard, application tag, reference tag */
#define NVME_PRINFO_PRACT (1u << 3)

static uint64_t nvme_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* CRC-16 T10-DIF (polynomial 0x8bb7, no reflection): the PI's guard. */
static const uint16_t nvme_t10dif_table[256] = {
	0x0000, 0x8bb7, 0x9cd9, 0x176e, 0xb205, 0x39b2, 0x2edc, 0xa56b,
	0xefbd, 0x640a, 0x7364, 0xf8d3, 0x5db8, 0xd60f, 0xc161, 0x4ad6,
	0x54cd, 0xdf7a, 0xc814, 0x43a3, 0xe6c8, 0x6d7f, 0x7a11, 0xf1a6,
	0xbb70, 0x30c7, 0x27a9, 0xac1e, 0x0975, 0x82c2, 0x95ac, 0x1e1b,
	0xa99a, 0x222d, 0x3543, 0xbef4, 0x1b9f, 0x9028, 0x8746, 0x0cf1,
	0x4627, 0xcd90, 0xdafe, 0x5149, 0xf422, 0x7f95, 0x68fb, 0xe34c,
	0xfd57, 0x76e0, 0x618e, 0xea39, 0x4f52, 0xc4e5, 0xd38b, 0x583c,
	0x12ea, 0x995d, 0x8e33, 0x0584, 0xa0ef, 0x2b58, 0x3c36, 0xb781,
	0xd883, 0x5334, 0x445a, 0xcfed, 0x6a86, 0xe131, 0xf65f, 0x7de8,
	0x373e, 0xbc89, 0xabe7, 0x2050, 0x853b, 0x0e8c, 0x19e2, 0x9255,
	0x8c4e, 0x07f9, 0x1097, 0x9b20, 0x3e4b, 0xb5fc, 0xa292, 0x2925,
	0x63f3, 0xe844, 0xff2a, 0x749d, 0xd1f6, 0x5a41, 0x4d2f, 0xc698,
	0x7119, 0xfaae, 0xedc0, 0x6677, 0xc31c, 0x48ab, 0x5fc5, 0xd472,
	0x9ea4, 0x1513, 0x027d, 0x89ca, 0x2ca1, 0xa716, 0xb078, 0x3bcf,
	0x25d4, 0xae63, 0xb90d, 0x32ba, 0x97d1, 0x1c66, 0x0b08, 0x80bf,
	0xca69, 0x41de, 0x56b0, 0xdd07, 0x786c, 0xf3db, 0xe4b5, 0x6f02,
	0x3ab1, 0xb106, 0xa668, 0x2ddf, 0x88b4, 0x0303, 0x146d, 0x9fda,
	0xd50c, 0x5ebb, 0x49d5, 0xc262, 0x6709, 0xecbe, 0xfbd0, 0x7067,
	0x6e7c, 0xe5cb, 0xf2a5, 0x7912, 0xdc79, 0x57ce, 0x40a0, 0xcb17,
	0x81c1, 0x0a76, 0x1d18, 0x96af, 0x33c4, 0xb873, 0xaf1d, 0x24aa,
	0x932b, 0x189c, 0x0ff2, 0x8445, 0x212e, 0xaa99, 0xbdf7, 0x3640,
	0x7c96, 0xf721, 0xe04f, 0x6bf8, 0xce93, 0x4524, 0x524a, 0xd9fd,
	0xc7e6, 0x4c51, 0x5b3f, 0xd088, 0x75e3, 0xfe54, 0xe93a, 0x628d,
	0x285b, 0xa3ec, 0xb482, 0x3f35, 0x9a5e, 0x11e9, 0x0687, 0x8d30,
	0xe232, 0x6985, 0x7eeb, 0xf55c, 0x5037, 0xdb80, 0xccee, 0x4759,
	0x0d8f, 0x8638, 0x9156, 0x1ae1, 0xbf8a, 0x343d, 0x2353, 0xa8e4,
	0xb6ff, 0x3d48, 0x2a26, 0xa191, 0x04fa, 0x8f4d, 0x9823, 0x1394,
	0x5942, 0xd2f5, 0xc59b, 0x4e2c, 0xeb47, 0x60f0, 0x779e, 0xfc29,
	0x4ba8, 0xc01f, 0xd771, 0x5cc6, 0xf9ad, 0x721a, 0x6574, 0xeec3,
	0xa415, 0x2fa2, 0x38cc, 0xb37b, 0x1610, 0x9da7, 0x8ac9, 0x017e,
	0x1f65, 0x94d2, 0x83bc, 0x080b, 0xad60, 0x26d7, 0x31b9, 0xba0e,
	0xf0d8, 0x7b6f, 0x6c01, 0xe7b6, 0x42dd, 0xc96a, 0xde04, 0x55b3,
};

uint16_t nvme_pi_crc16(uint16_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len--)
		crc = (uint16_t)(crc << 8) ^ nvme_t10dif_table[((crc >> 8) ^ *p++) & 0xff];
	return crc;
}

static void nvme_put_be(uint8_t *p, uint64_t v, unsigned n)
{
	while (n--) {
		p[n] = (uint8_t)v;
		v >>= 8;
	}
}

void nvme_pi_fill(const struct nvme_ns *ns, const void *buf, uint32_t len, void *md,
		  uint64_t off, uint16_t apptag)
{
	uint32_t i, nlb = len >> ns->lba_shift, ref = (uint32_t)(off >> ns->lba_shift);
	unsigned at = ns->pi_first ? 0 : ns->ms - NVME_PI_SIZE;

	for (i = 0; i < nlb; i++) {
		uint8_t *m = (uint8_t *)md + (size_t)i * ns->ms;
		uint16_t g = nvme_pi_crc16(0, (const uint8_t *)buf + ((size_t)i << ns->lba_shift),
					   ns->lba_size);

		g = nvme_pi_crc16(g, m, at);	/* metadata before the PI, when it is last */
		nvme_put_be(m + at, g, 2);
		nvme_put_be(m + at + 2, apptag, 2);
		nvme_put_be(m + at + 4, ns->pi_type == 3 ? 0xffffffffu : ref + i, 4);
	}
}

int nvme_ns_parse(const uint8_t *id, uint32_t nsid, struct nvme_ns *ns)
{
	unsigned nlbaf = id[25] + 1u, flbas = id[26], dps = id[29], idx, lbads;
	const uint8_t *lbaf;

	memset(ns, 0, sizeof(*ns));
	/* 16 formats or fewer: FLBAS bits 3:0; more: bits 6:5 are the high bits */
	idx = flbas & 0xf;
	if (nlbaf > 16)
		idx |= ((flbas >> 5) & 0x3) << 4;
	if (idx >= nlbaf || idx >= 64)
		return -EINVAL;
	lbaf = id + 128 + 4 * idx;
	lbads = lbaf[2];
	if (lbads < 9 || lbads > 16)
		return -EINVAL;
	ns->nsid = nsid;
	ns->lbaf = idx;
	ns->lba_shift = lbads;
	ns->lba_size = 1u << lbads;
	ns->ms = (uint32_t)nvme_le(lbaf, 2);
	ns->ext_lba = (flbas >> 4) & 1;
	ns->pi_type = ns->ms >= NVME_PI_SIZE ? dps & 0x7 : 0;
	ns->pi_first = (dps >> 3) & 1;
	ns->nlba = nvme_le(id, 8);
	return ns->nlba ? 0 : -EINVAL;
}

int nvme_admin(int fd, uint8_t op, uint32_t nsid, uint32_t cdw10, uint32_t cdw11, void *buf,
	       uint32_t len)
{
	struct nvme_admin_cmd c;
	int r;

	memset(&c, 0, sizeof(c));
	c.opcode = op;
	c.nsid = nsid;
	c.addr = (uint64_t)(uintptr_t)buf;
	c.data_len = len;
	c.cdw10 = cdw10;
	c.cdw11 = cdw11;
	r = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c);
	return r < 0 ? -errno : r;
}

int nvme_ns_identify(int fd, struct nvme_ns *ns)
{
	uint8_t id[NVME_ID_SIZE] __attribute__((aligned(64)));
	int nsid = ioctl(fd, NVME_IOCTL_ID), r;

	if (nsid < 0)
		return errno == EINVAL ? -ENOTTY : -errno;
	memset(id, 0, sizeof(id));
	r = nvme_admin(fd, NVME_ADMIN_IDENTIFY, (uint32_t)nsid, 0 /* CNS 0: namespace */, 0, id,
		       sizeof(id));
	if (r)
		return r > 0 ? -EIO : r;
	return nvme_ns_parse(id, (uint32_t)nsid, ns);
}

int nvme_ns_blockdev(const char *chr, char *out, size_t n)
{
	const char *base = strrchr(chr, '/');
	struct stat st;

	base = base ? base + 1 : chr;
	if (strncmp(base, "ng", 2) || base[2] < '0' || base[2] > '9')
		return -ENOENT;
	if ((size_t)snprintf(out, n, "/dev/nvme%s", base + 2) >= n)
		return -ENOENT;
	if (stat(out, &st) || !S_ISBLK(st.st_mode))
		return -ENOENT;
	return 0;
}

unsigned nvme_prinfo(const struct nvme_ns *ns, int pract, unsigned chk)
{
	if (!nvme_ns_has_pi(ns))
		return 0;
	return (pract ? NVME_PRINFO_PRACT : 0) | (chk & 0x7);
}

uint64_t nvme_md_len(const struct nvme_ns *ns, int pract, uint64_t len)
{
	if (!ns->ms || ns->ext_lba)
		return 0;
	/* PRACT with metadata that is the PI alone: the controller adds and strips it */
	if (pract && nvme_ns_has_pi(ns) && ns->ms == NVME_PI_SIZE)
		return 0;
	return (len >> ns->lba_shift) * ns->ms;
}

void nvme_cmd_rw(struct nvme_uring_cmd *c, const struct nvme_ns *ns, int write, uint64_t off,
		 uint32_t len, const void *addr, uint32_t data_len, const void *md,
		 uint32_t md_len, const struct nvme_io_flags *f)
{
	uint64_t slba = off >> ns->lba_shift;
	uint32_t nlb = len >> ns->lba_shift;

	memset(c, 0, sizeof(*c));
	c->opcode = write ? NVME_OP_WRITE : NVME_OP_READ;
	c->nsid = ns->nsid;
	c->addr = (uint64_t)(uintptr_t)addr;
	c->data_len = data_len;
	c->metadata = (uint64_t)(uintptr_t)md;
	c->metadata_len = md_len;
	c->cdw10 = (uint32_t)slba;
	c->cdw11 = (uint32_t)(slba >> 32);
	c->cdw12 = (nlb - 1) & 0xffff;
	if (f && f->prinfo) {
		c->cdw12 |= f->prinfo << 26;
		/* types 1 and 2: the reference tag starts at the LBA (its low 32 bits) */
		if (ns->pi_type == 1 || ns->pi_type == 2)
			c->cdw14 = (uint32_t)slba;
		c->cdw15 = (uint32_t)f->apptag_mask << 16 | f->apptag;
	}
}

void nvme_cmd_zone_append(struct nvme_uring_cmd *c, const struct nvme_ns *ns, uint64_t zone_off,
			  uint32_t len, const void *addr, uint32_t data_len, const void *md,
			  uint32_t md_len, const struct nvme_io_flags *f)
{
	nvme_cmd_rw(c, ns, 1, zone_off, len, addr, data_len, md, md_len, f);
	c->opcode = NVME_OP_ZONE_APPEND;
}

void nvme_cmd_dsm(struct nvme_uring_cmd *c, const struct nvme_ns *ns, uint64_t off, uint64_t len,
		  struct nvme_dsm_range *r)
{
	r->cattr = 0;
	r->nlb = (uint32_t)(len >> ns->lba_shift);
	r->slba = off >> ns->lba_shift;
	memset(c, 0, sizeof(*c));
	c->opcode = NVME_OP_DSM;
	c->nsid = ns->nsid;
	c->addr = (uint64_t)(uintptr_t)r;
	c->data_len = sizeof(*r);
	c->cdw10 = 0;		/* one range (0-based) */
	c->cdw11 = 1u << 2;	/* AD: deallocate */
}

void nvme_cmd_flush(struct nvme_uring_cmd *c, const struct nvme_ns *ns)
{
	memset(c, 0, sizeof(*c));
	c->opcode = NVME_OP_FLUSH;
	c->nsid = ns->nsid;
}

int nvme_status_errno(int res)
{
	unsigned sct, sc;

	if (res <= 0)
		return res;
	sct = ((unsigned)res >> 8) & 0x7;
	sc = (unsigned)res & 0xff;
	/* Media and data integrity errors: guard, application tag, reference tag check */
	if (sct == 2 && sc >= 0x82 && sc <= 0x84)
		return -EILSEQ;
	return -EIO;
}

int nvme_io_cmd(int fd, const struct nvme_uring_cmd *c, uint64_t *result)
{
	struct nvme_passthru_cmd64 p;
	int r;

	_Static_assert(sizeof(*c) <= sizeof(p), "nvme_uring_cmd is passthru_cmd64 without result");
	memset(&p, 0, sizeof(p));
	memcpy(&p, c, sizeof(*c));
	r = ioctl(fd, NVME_IOCTL_IO64_CMD, &p);
	if (r < 0)
		return -errno;
	if (result)
		*result = p.result;
	return r;
}

int64_t nvme_io_sync(int fd, const struct nvme_ns *ns, int write, uint64_t off, uint32_t len,
		     void *buf, void *md, uint32_t md_len, const struct nvme_io_flags *f)
{
	struct nvme_uring_cmd c;
	int r;

	nvme_cmd_rw(&c, ns, write, off, len, buf, len, md, md_len, f);
	r = nvme_io_cmd(fd, &c, NULL);
	if (r)
		return r < 0 ? r : nvme_status_errno(r);
	return len;
}

void nvme_smart_parse(const uint8_t *log, struct nvme_smart *s)
{
	s->data_units_read = nvme_le(log + 32, 8);
	s->data_units_written = nvme_le(log + 48, 8);
	s->host_read_cmds = nvme_le(log + 64, 8);
	s->host_write_cmds = nvme_le(log + 80, 8);
}

int nvme_smart_read(int fd, uint32_t nsid, struct nvme_smart *s)
{
	uint8_t log[NVME_SMART_SIZE] __attribute__((aligned(64)));
	/* log page 02h, NUMDL = dwords - 1 in bits 31:16 */
	uint32_t cdw10 = 0x02 | (uint32_t)(NVME_SMART_SIZE / 4 - 1) << 16;
	int r;

	memset(log, 0, sizeof(log));
	r = nvme_admin(fd, NVME_ADMIN_GET_LOG_PAGE, nsid, cdw10, 0, log, sizeof(log));
	if (r)
		return r > 0 ? -EIO : r;
	nvme_smart_parse(log, s);
	return 0;
}
