/*
 * Tests for nvme_zns: the zoned namespace's identify data (zone size of the
 * format in use, 0-based limits, all ones for none), the zone report's
 * command and its descriptors decoded into bytes and the kernel's zone
 * conditions, and the reset command, field by field.
 */
#include <errno.h>
#include <string.h>
#include "check.h"
#include "io/nvme_zns.h"

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* QEMU's ZNS namespace of the guest tests: 4 KiB LBAs (format 1), 1 MiB zones */
static const struct nvme_ns ns4k = { .nsid = 2, .lba_size = 4096, .lba_shift = 12,
				     .nlba = 4096, .lbaf = 1 };

TEST(zns_identify_parse)
{
	static uint8_t id[4096];
	struct nvme_zns z;

	memset(id, 0, sizeof(id));
	put_le(id + 4, 3, 4);			/* MAR: 4 active, 0-based */
	put_le(id + 8, 1, 4);			/* MOR: 2 open */
	put_le(id + 2816, 999, 8);		/* format 0's zone size: not the one in use */
	put_le(id + 2816 + 16, 256, 8);		/* format 1's: 256 LBAs, 1 MiB */
	CHECK(nvme_zns_parse(id, &ns4k, &z) == 0);
	CHECK_EQ_U(z.zone_lbas, 256);
	CHECK_EQ_U(z.max_active, 4);
	CHECK_EQ_U(z.max_open, 2);
	/* all ones: no limit */
	put_le(id + 4, 0xffffffffu, 4);
	put_le(id + 8, 0xffffffffu, 4);
	CHECK(nvme_zns_parse(id, &ns4k, &z) == 0);
	CHECK_EQ_U(z.max_active, 0);
	CHECK_EQ_U(z.max_open, 0);
	/* no zone size: not zoned */
	put_le(id + 2816 + 16, 0, 8);
	CHECK(nvme_zns_parse(id, &ns4k, &z) == -ENODEV);
}

TEST(zns_report_cmd)
{
	struct nvme_uring_cmd c;
	static uint8_t buf[64 + 4 * 64];

	memset(&c, 0xa5, sizeof(c));
	/* from byte 5 MiB + 4 KiB: the LBA holding it, 1281 */
	nvme_zns_cmd_report(&c, &ns4k, (5ull << 20) + 4096, buf, sizeof(buf));
	CHECK_EQ_U(c.opcode, 0x7a);
	CHECK_EQ_U(c.nsid, 2);
	CHECK_EQ_U(c.cdw10, 1281);
	CHECK_EQ_U(c.cdw11, 0);
	CHECK_EQ_U(c.cdw12, sizeof(buf) / 4 - 1);	/* dwords, 0-based */
	CHECK_EQ_U(c.cdw13, 1u << 16);			/* report zones, all, partial */
	CHECK_EQ_U(c.data_len, sizeof(buf));
	CHECK(c.addr == (uint64_t)(uintptr_t)buf);
	CHECK_EQ_U(c.metadata, 0);
	/* an LBA above 32 bits */
	nvme_zns_cmd_report(&c, &ns4k, 0x123456789ull << 12, buf, sizeof(buf));
	CHECK_EQ_U(c.cdw10, 0x23456789);
	CHECK_EQ_U(c.cdw11, 0x1);
}

TEST(zns_report_parse)
{
	static uint8_t buf[64 + 3 * 64];
	struct blkzoned_zone z[4];
	uint8_t *d;

	memset(buf, 0, sizeof(buf));
	memset(z, 0xa5, sizeof(z));
	put_le(buf, 2, 8);		/* two descriptors */
	d = buf + 64;			/* zone 0: implicitly open, 192 of 256 LBAs writable */
	d[0] = 0x2;
	d[1] = 0x2 << 4;
	put_le(d + 8, 192, 8);
	put_le(d + 16, 0, 8);
	put_le(d + 24, 16, 8);
	d += 64;			/* zone 1: full */
	d[0] = 0x2;
	d[1] = 0xe << 4;
	put_le(d + 8, 192, 8);
	put_le(d + 16, 256, 8);
	put_le(d + 24, 512, 8);
	CHECK_EQ_U(nvme_zns_report_parse(buf, sizeof(buf), &ns4k, 256, z, 4), 2);
	CHECK(z[0].start == 0 && z[0].len == 1u << 20 && z[0].cap == 768u << 10);
	CHECK(z[0].wp == 64u << 10);
	CHECK_EQ_U(z[0].cond, BLKZONED_COND_IMP_OPEN);
	CHECK(z[0].seq);
	CHECK(z[1].start == 1u << 20 && z[1].wp == 2u << 20);
	CHECK_EQ_U(z[1].cond, BLKZONED_COND_FULL);
	/* never more than asked for, nor than the buffer holds */
	CHECK_EQ_U(nvme_zns_report_parse(buf, sizeof(buf), &ns4k, 256, z, 1), 1);
	put_le(buf, 1000, 8);
	CHECK_EQ_U(nvme_zns_report_parse(buf, sizeof(buf), &ns4k, 256, z, 4), 3);
	CHECK_EQ_U(nvme_zns_report_parse(buf, 32, &ns4k, 256, z, 4), 0);
	/* another zone type has no write pointer */
	buf[64] = 0x1;
	nvme_zns_report_parse(buf, sizeof(buf), &ns4k, 256, z, 1);
	CHECK(!z[0].seq);
}

TEST(zns_reset_cmd)
{
	struct nvme_uring_cmd c;

	memset(&c, 0xa5, sizeof(c));
	nvme_zns_cmd_reset(&c, &ns4k, 3ull << 20);
	CHECK_EQ_U(c.opcode, 0x79);
	CHECK_EQ_U(c.nsid, 2);
	CHECK_EQ_U(c.cdw10, 768);	/* zone 3's start LBA */
	CHECK_EQ_U(c.cdw11, 0);
	CHECK_EQ_U(c.cdw13, 0x04);	/* reset, this zone only (no Select All) */
	CHECK_EQ_U(c.data_len, 0);
	CHECK_EQ_U(c.addr, 0);
}

int main(void)
{
	RUN(zns_identify_parse);
	RUN(zns_report_cmd);
	RUN(zns_report_parse);
	RUN(zns_reset_cmd);
	return CHECK_DONE();
}
