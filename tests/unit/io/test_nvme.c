/*
 * Tests for nvme: identify data parsed into a namespace, I/O commands built
 * field by field (LBAs, 0-based counts, PRINFO, tags), trims as one
 * deallocating Dataset Management range, status codes to errno, the PI
 * guard's CRC and the host's PI tuple, the SMART log's counters.
 */
#include <errno.h>
#include <string.h>
#include "check.h"
#include "io/nvme.h"

/* Identify data: @nlbaf formats (0-based count), format @fmt in use, its data size 2^@lbads. */
static void id_make(uint8_t *id, uint64_t nsze, unsigned nlbaf, unsigned flbas, unsigned fmt,
		    unsigned lbads, unsigned ms, unsigned dps)
{
	unsigned i;

	memset(id, 0, 4096);
	for (i = 0; i < 8; i++)
		id[i] = (uint8_t)(nsze >> (8 * i));
	id[25] = (uint8_t)nlbaf;
	id[26] = (uint8_t)flbas;
	id[29] = (uint8_t)dps;
	id[128 + 4 * fmt] = (uint8_t)ms;
	id[128 + 4 * fmt + 1] = (uint8_t)(ms >> 8);
	id[128 + 4 * fmt + 2] = (uint8_t)lbads;
}

TEST(ns_parse_plain_and_pi)
{
	uint8_t id[4096];
	struct nvme_ns ns;

	/* 64 MiB of 512-byte LBAs, format 0, no metadata */
	id_make(id, 131072, 0, 0, 0, 9, 0, 0);
	CHECK(nvme_ns_parse(id, 1, &ns) == 0);
	CHECK_EQ_U(ns.nsid, 1);
	CHECK_EQ_U(ns.lba_size, 512);
	CHECK_EQ_U(ns.lba_shift, 9);
	CHECK_EQ_U(ns.nlba, 131072);
	CHECK_EQ_U(ns.ms, 0);
	CHECK(!nvme_ns_has_pi(&ns));
	/* QEMU's nvme-pi: format 1 (of 8) is 4 KiB + 8 bytes separate, PI type 1 */
	id_make(id, 16384, 7, 1, 1, 12, 8, 1);
	CHECK(nvme_ns_parse(id, 3, &ns) == 0);
	CHECK_EQ_U(ns.lba_size, 4096);
	CHECK_EQ_U(ns.ms, 8);
	CHECK_EQ_U(ns.pi_type, 1);
	CHECK(!ns.ext_lba && !ns.pi_first);
	/* FLBAS bit 4: extended LBA; DPS bit 3: PI first */
	id_make(id, 100, 0, 0x10, 0, 9, 16, 0x8 | 3);
	CHECK(nvme_ns_parse(id, 2, &ns) == 0);
	CHECK(ns.ext_lba && ns.pi_first);
	CHECK_EQ_U(ns.pi_type, 3);
	/* more than 16 formats: FLBAS bits 6:5 are the index's high bits (0x21 -> 17) */
	id_make(id, 100, 31, 0x21, 17, 12, 0, 0);
	CHECK(nvme_ns_parse(id, 1, &ns) == 0);
	CHECK_EQ_U(ns.lba_size, 4096);
	/* with 16 formats or fewer the same bits are not the index */
	id_make(id, 100, 3, 0x21, 1, 12, 0, 0);
	CHECK(nvme_ns_parse(id, 1, &ns) == 0);
	CHECK_EQ_U(ns.lba_size, 4096);
}

TEST(ns_parse_refuses_nonsense)
{
	uint8_t id[4096];
	struct nvme_ns ns;

	id_make(id, 0, 0, 0, 0, 9, 0, 0);	/* no capacity */
	CHECK(nvme_ns_parse(id, 1, &ns) == -EINVAL);
	id_make(id, 8, 0, 2, 2, 9, 0, 0);	/* format 2 of 1 */
	CHECK(nvme_ns_parse(id, 1, &ns) == -EINVAL);
	id_make(id, 8, 0, 0, 0, 8, 0, 0);	/* 256-byte LBAs */
	CHECK(nvme_ns_parse(id, 1, &ns) == -EINVAL);
	id_make(id, 8, 0, 0, 0, 0, 0, 0);	/* all zeros: LBADS 0 */
	CHECK(nvme_ns_parse(id, 1, &ns) == -EINVAL);
	/* PI type bits with less than 8 bytes of metadata carry no PI */
	id_make(id, 8, 0, 0, 0, 9, 0, 1);
	CHECK(nvme_ns_parse(id, 1, &ns) == 0);
	CHECK(!nvme_ns_has_pi(&ns));
}

static const struct nvme_ns ns512 = { .nsid = 1, .lba_size = 512, .lba_shift = 9, .nlba = 1u << 20 };
static const struct nvme_ns ns4k_pi = { .nsid = 3, .lba_size = 4096, .lba_shift = 12, .ms = 8,
					.pi_type = 1, .nlba = 1u << 20 };

TEST(cmd_rw_fields)
{
	struct nvme_uring_cmd c;
	static char buf[8192];

	memset(&c, 0xa5, sizeof(c));	/* everything not set must be cleared */
	nvme_cmd_rw(&c, &ns512, 0, 512ull * 0x123456789ull, 4096, buf, 4096, NULL, 0, NULL);
	CHECK_EQ_U(c.opcode, NVME_OP_READ);
	CHECK_EQ_U(c.nsid, 1);
	CHECK(c.addr == (uint64_t)(uintptr_t)buf);
	CHECK_EQ_U(c.data_len, 4096);
	CHECK_EQ_U(c.cdw10, 0x23456789);	/* SLBA low */
	CHECK_EQ_U(c.cdw11, 0x1);		/* SLBA high */
	CHECK_EQ_U(c.cdw12, 7);			/* 8 LBAs, 0-based */
	CHECK_EQ_U(c.cdw13, 0);
	CHECK_EQ_U(c.cdw14, 0);
	CHECK_EQ_U(c.cdw15, 0);
	CHECK(c.metadata == 0 && c.metadata_len == 0 && c.flags == 0 && c.timeout_ms == 0);
	nvme_cmd_rw(&c, &ns512, 1, 0, 512, buf, 512, NULL, 0, NULL);
	CHECK_EQ_U(c.opcode, NVME_OP_WRITE);
	CHECK_EQ_U(c.cdw12, 0);			/* one LBA */
	/* the largest: 65536 LBAs is 0xffff */
	nvme_cmd_rw(&c, &ns512, 1, 0, 65536u * 512, buf, 65536u * 512, NULL, 0, NULL);
	CHECK_EQ_U(c.cdw12, 0xffff);
}

TEST(cmd_rw_pi)
{
	struct nvme_uring_cmd c;
	struct nvme_io_flags f = { .apptag = 0x1234, .apptag_mask = 0xffff };
	static char buf[8192], md[16];

	/* pi_act=1, check guard and reftag: PRINFO 1011b at bits 29:26 */
	f.prinfo = nvme_prinfo(&ns4k_pi, 1, NVME_PICHK_GUARD | NVME_PICHK_REFTAG);
	CHECK_EQ_U(f.prinfo, 0xd);
	nvme_cmd_rw(&c, &ns4k_pi, 1, 4096ull * 0x100000005ull, 8192, buf, 8192, NULL, 0, &f);
	CHECK_EQ_U(c.cdw12, 1u | 0xdu << 26);
	CHECK_EQ_U(c.cdw14, 5);			/* type 1: the LBA's low 32 bits */
	CHECK_EQ_U(c.cdw15, 0xffff1234u);
	/* metadata: 8 bytes per LBA unless the controller adds and strips it all */
	CHECK(nvme_md_len(&ns4k_pi, 1, 8192) == 0);
	CHECK(nvme_md_len(&ns4k_pi, 0, 8192) == 16);
	CHECK(nvme_md_len(&ns512, 0, 8192) == 0);
	f.prinfo = nvme_prinfo(&ns4k_pi, 0, NVME_PICHK_APPTAG);
	CHECK_EQ_U(f.prinfo, 0x2);
	nvme_cmd_rw(&c, &ns4k_pi, 0, 0, 8192, buf, 8192, md, 16, &f);
	CHECK(c.metadata == (uint64_t)(uintptr_t)md);
	CHECK_EQ_U(c.metadata_len, 16);
	CHECK_EQ_U(c.cdw12 >> 26, 0x2);
	/* no PI format: PRINFO stays 0 whatever is asked */
	CHECK_EQ_U(nvme_prinfo(&ns512, 1, 7), 0);
	/* a namespace with metadata beyond the PI needs a buffer even with PRACT */
	{
		struct nvme_ns n16 = ns4k_pi;

		n16.ms = 16;
		CHECK(nvme_md_len(&n16, 1, 8192) == 32);
	}
}

/* Zone Append: a write's fields with the zone's start LBA, opcode 0x7d. */
TEST(cmd_zone_append)
{
	struct nvme_uring_cmd c;
	static char buf[8192];

	nvme_cmd_zone_append(&c, &ns512, 4ull << 20, 8192, buf, 8192, NULL, 0, NULL);
	CHECK_EQ_U(c.opcode, 0x7d);
	CHECK_EQ_U(c.cdw10, 8192);		/* ZSLBA: 4 MiB of 512-byte LBAs */
	CHECK_EQ_U(c.cdw11, 0);
	CHECK_EQ_U(c.cdw12, 15);		/* 16 LBAs, 0-based */
	CHECK_EQ_U(c.data_len, 8192);
	/* its completion: the LBA the controller chose, 64 bits, as a byte offset */
	CHECK(nvme_append_offset(&ns512, 8192 + 48) == (4ull << 20) + 48 * 512);
	CHECK(nvme_append_offset(&ns4k_pi, 0x100000001ull) == 0x100000001ull << 12);
}

TEST(cmd_dsm_and_flush)
{
	struct nvme_uring_cmd c;
	struct nvme_dsm_range r;

	memset(&c, 0xa5, sizeof(c));
	memset(&r, 0xa5, sizeof(r));
	nvme_cmd_dsm(&c, &ns512, 1048576, 65536, &r);
	CHECK_EQ_U(c.opcode, NVME_OP_DSM);
	CHECK_EQ_U(c.nsid, 1);
	CHECK(c.addr == (uint64_t)(uintptr_t)&r);
	CHECK_EQ_U(c.data_len, 16);
	CHECK_EQ_U(c.cdw10, 0);			/* one range */
	CHECK_EQ_U(c.cdw11, 4);			/* deallocate */
	CHECK_EQ_U(r.cattr, 0);
	CHECK_EQ_U(r.nlb, 128);			/* 1-based */
	CHECK(r.slba == 2048);
	CHECK_EQ_U(sizeof(r), 16);
	nvme_cmd_flush(&c, &ns4k_pi);
	CHECK_EQ_U(c.opcode, NVME_OP_FLUSH);
	CHECK_EQ_U(c.nsid, 3);
	CHECK(c.addr == 0 && c.data_len == 0 && c.cdw10 == 0);
}

TEST(status_errno)
{
	CHECK(nvme_status_errno(0) == 0);
	CHECK(nvme_status_errno(-EINVAL) == -EINVAL);
	CHECK(nvme_status_errno(0x282) == -EILSEQ);	/* guard check error */
	CHECK(nvme_status_errno(0x283) == -EILSEQ);	/* application tag */
	CHECK(nvme_status_errno(0x284) == -EILSEQ);	/* reference tag */
	CHECK(nvme_status_errno(0x281) == -EIO);	/* unrecovered read error */
	CHECK(nvme_status_errno(0x80) == -EIO);		/* LBA out of range */
	CHECK(nvme_status_errno(0x4002) == -EIO);	/* DNR bit: still an I/O error */
}

TEST(pi_guard_and_tuple)
{
	static uint8_t data[2 * 4096];
	uint8_t md[16];
	unsigned i;

	/* the CRC-16 T10-DIF check value */
	CHECK_EQ_U(nvme_pi_crc16(0, "123456789", 9), 0xd0db);
	/* continuing a CRC is the CRC of the concatenation */
	CHECK_EQ_U(nvme_pi_crc16(nvme_pi_crc16(0, "1234", 4), "56789", 5), 0xd0db);
	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7);
	memset(md, 0, sizeof(md));
	nvme_pi_fill(&ns4k_pi, data, sizeof(data), md, 4096ull * 0x1000000ffull, 0xbeef);
	for (i = 0; i < 2; i++) {
		uint16_t g = nvme_pi_crc16(0, data + 4096 * i, 4096);
		uint32_t ref = 0xff + i;

		CHECK_EQ_U(md[8 * i], g >> 8);		/* big-endian guard */
		CHECK_EQ_U(md[8 * i + 1], g & 0xff);
		CHECK_EQ_U(md[8 * i + 2], 0xbe);
		CHECK_EQ_U(md[8 * i + 3], 0xef);
		CHECK_EQ_U((unsigned)md[8 * i + 4] << 24 | md[8 * i + 5] << 16 | md[8 * i + 6] << 8 |
			   md[8 * i + 7], ref);		/* type 1: the LBA's low 32 bits */
	}
	/* an all-zero block's guard is 0: a fresh namespace reads back consistent */
	memset(data, 0, 4096);
	CHECK_EQ_U(nvme_pi_crc16(0, data, 4096), 0);
}

TEST(smart_counters)
{
	uint8_t log[512];
	struct nvme_smart s;

	memset(log, 0, sizeof(log));
	log[32] = 3;			/* data units read: 3 */
	log[48] = 0x10; log[49] = 0x27;	/* written: 10000 */
	log[64] = 0xff; log[65] = 0x01;	/* host read commands: 511 */
	log[80] = 1; log[87] = 1;	/* host write commands: 2^56 + 1 */
	log[88] = 9;			/* beyond the low 64 bits: ignored */
	nvme_smart_parse(log, &s);
	CHECK(s.data_units_read == 3);
	CHECK(s.data_units_written == 10000);
	CHECK(s.host_read_cmds == 511);
	CHECK(s.host_write_cmds == (1ull << 56) + 1);
}

TEST(blockdev_name)
{
	char out[64];

	/* names that are not a namespace's char device map to nothing */
	CHECK(nvme_ns_blockdev("/dev/sda", out, sizeof(out)) == -ENOENT);
	CHECK(nvme_ns_blockdev("/dev/ngx", out, sizeof(out)) == -ENOENT);
	CHECK(nvme_ns_blockdev("ng", out, sizeof(out)) == -ENOENT);
	/* a well-formed name maps, but only to a block device that exists */
	CHECK(nvme_ns_blockdev("/dev/ng77n9", out, sizeof(out)) == -ENOENT);
	CHECK_STR(out, "/dev/nvme77n9");
}

int main(void)
{
	RUN(ns_parse_plain_and_pi);
	RUN(ns_parse_refuses_nonsense);
	RUN(cmd_rw_fields);
	RUN(cmd_rw_pi);
	RUN(cmd_zone_append);
	RUN(cmd_dsm_and_flush);
	RUN(status_errno);
	RUN(pi_guard_and_tuple);
	RUN(smart_counters);
	RUN(blockdev_name);
	return CHECK_DONE();
}
