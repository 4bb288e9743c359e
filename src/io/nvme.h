/*
 * nvme: NVMe commands as the host builds them, for the engines and counters
 * that talk to a namespace through its generic char device (/dev/ngXnY)
 * rather than through the block layer.
 *
 * Three parts: what a namespace is (identify: its LBA format, metadata,
 * protection information and capacity, parsed from the 4 KiB identify data
 * by a pure function), how an I/O becomes a command (read, write, Dataset
 * Management for trims: pure functions that fill the kernel's struct
 * nvme_uring_cmd, the SQE's payload for IORING_OP_URING_CMD and, as its
 * first 72 bytes, struct nvme_passthru_cmd64 for the ioctls), and the
 * controller's own counters (the SMART / health log page).  The builders
 * never allocate or fail: they run per I/O.  The ioctl helpers run outside
 * the measurement (set-up, verify's read-backs, counter snapshots).
 *
 * Offsets and lengths are bytes at the interface and LBAs in the command:
 * a namespace of 512-byte blocks with 8 bytes of separate metadata moves
 * 512 bytes of data per LBA (the metadata goes in its own buffer), so the
 * region an engine plans on is nlba x lba_size bytes.
 */
#ifndef IOTRIAL_NVME_H
#define IOTRIAL_NVME_H

#include <stddef.h>	/* size_t */
#include <stdint.h>
#include <linux/nvme_ioctl.h>	/* struct nvme_uring_cmd, NVME_IOCTL_* */

/* Command opcodes (NVM command set; admin). */
enum {
	NVME_OP_FLUSH = 0x00,
	NVME_OP_WRITE = 0x01,
	NVME_OP_READ = 0x02,
	NVME_OP_DSM = 0x09,
	NVME_OP_ZONE_APPEND = 0x7d,	/* Zoned Namespace Command Set */
	NVME_ADMIN_GET_LOG_PAGE = 0x02,
	NVME_ADMIN_IDENTIFY = 0x06,
};

/* Protection information check bits (pi_chk=), as PRCHK sits in CDW12 bits 28:26. */
enum {
	NVME_PICHK_REFTAG = 1u << 0,
	NVME_PICHK_APPTAG = 1u << 1,
	NVME_PICHK_GUARD = 1u << 2,
};

/* A namespace, from identify (nvme_ns_parse). */
struct nvme_ns {
	uint32_t nsid;
	uint32_t lba_size;	/* data bytes per LBA */
	unsigned lba_shift;	/* log2(lba_size) */
	uint32_t ms;		/* metadata bytes per LBA (0: none) */
	int ext_lba;		/* metadata at the end of each LBA's data (FLBAS bit 4) */
	unsigned pi_type;	/* 0 none, 1, 2 or 3 (DPS bits 2:0) */
	int pi_first;		/* PI in the first 8 bytes of the metadata (DPS bit 3) */
	uint64_t nlba;		/* capacity in LBAs (NSZE) */
	unsigned lbaf;		/* the LBA format in use (FLBAS): its index, for nvme_zns */
};

/* What an I/O adds to its command beyond its place and length. */
struct nvme_io_flags {
	unsigned prinfo;	/* CDW12 bits 29:26 (nvme_prinfo), 0 without PI */
	uint16_t apptag;	/* expected/inserted application tag */
	uint16_t apptag_mask;
};

/*
 * The namespace of identify data @id (4096 bytes, CNS 0) with id @nsid.
 * 0, or -EINVAL when the data cannot be a namespace (no capacity, an LBA
 * format index past the formats, a data size outside 512 B..64 KiB).
 */
int nvme_ns_parse(const uint8_t *id, uint32_t nsid, struct nvme_ns *ns);

/*
 * An admin command @op for @nsid with CDW10 @cdw10, CDW11 @cdw11 and a data
 * buffer @buf of @len bytes, through NVME_IOCTL_ADMIN_CMD on @fd.  0, the
 * controller's status (> 0), or -errno.
 */
int nvme_admin(int fd, uint8_t op, uint32_t nsid, uint32_t cdw10, uint32_t cdw11, void *buf,
	       uint32_t len);

/*
 * I/O command @c, synchronously through NVME_IOCTL_IO64_CMD on @fd; its
 * result (the completion's dwords 0-1) into *@result when not NULL.  0, the
 * controller's status (> 0), or -errno.
 */
int nvme_io_cmd(int fd, const struct nvme_uring_cmd *c, uint64_t *result);

/*
 * Identify the namespace behind @fd, an NVMe char or block device:
 * NVME_IOCTL_ID, then an admin Identify.  0, or -errno (-ENOTTY: @fd is not
 * an NVMe namespace).
 */
int nvme_ns_identify(int fd, struct nvme_ns *ns);

/*
 * The block device of the namespace whose generic char device is @chr
 * (/dev/ng0n1 -> /dev/nvme0n1, the kernel's naming without multipath)
 * into @out.  0 when that block device exists, else -ENOENT.
 */
int nvme_ns_blockdev(const char *chr, char *out, size_t n);

/* True when the namespace's format carries protection information. */
static inline int nvme_ns_has_pi(const struct nvme_ns *ns)
{
	return ns->pi_type != 0;
}

/*
 * PRINFO for a namespace with PI: @pract (the controller inserts and
 * strips the PI) and @chk (NVME_PICHK_*); 0 on a namespace without.
 */
unsigned nvme_prinfo(const struct nvme_ns *ns, int pract, unsigned chk);

/*
 * Metadata bytes an I/O of @len data bytes must carry in a separate buffer:
 * 0 when the namespace has none, or when the controller inserts and strips
 * it all (@pract with metadata that is only the 8-byte PI).
 */
uint64_t nvme_md_len(const struct nvme_ns *ns, int pract, uint64_t len);

/* CRC-16 T10-DIF of @len bytes at @buf, continuing @crc (0 to start): a PI guard. */
uint16_t nvme_pi_crc16(uint16_t crc, const void *buf, size_t len);

/*
 * Write the protection information of @len data bytes at @buf, to go at
 * byte offset @off of namespace @ns, into the separate metadata @md (ms
 * bytes per LBA): the guard (CRC-16 over the LBA's data, and the metadata
 * before the PI when the PI is last), @apptag, and the reference tag (the
 * LBA's low 32 bits for types 1 and 2, as the command's initial one counts
 * up; all ones for type 3).  For writes with pi_act=0: the host's PI.
 */
void nvme_pi_fill(const struct nvme_ns *ns, const void *buf, uint32_t len, void *md,
		  uint64_t off, uint16_t apptag);

/*
 * Fill @c (zeroed first) with a read (@write 0) or write of @len bytes at
 * byte offset @off of namespace @ns, the data at @addr: a buffer of
 * @data_len (= @len) bytes for NVME_URING_CMD_IO, or an iovec array of
 * @data_len entries for NVME_URING_CMD_IO_VEC.  @md/@md_len: the separate
 * metadata buffer (NULL/0: none); @f: the PI fields.  @off and @len must be
 * multiples of the LBA size (the engine checks that once, at set-up).
 */
void nvme_cmd_rw(struct nvme_uring_cmd *c, const struct nvme_ns *ns, int write, uint64_t off,
		 uint32_t len, const void *addr, uint32_t data_len, const void *md,
		 uint32_t md_len, const struct nvme_io_flags *f);

/*
 * Fill @c as nvme_cmd_rw() fills a write, as a Zone Append into the zone
 * that starts at byte @zone_off (its ZSLBA): the controller picks the LBA,
 * at the zone's write pointer, and returns it as the command's result (for
 * IORING_OP_URING_CMD: the 32-byte CQE's big_cqe[0]).
 */
void nvme_cmd_zone_append(struct nvme_uring_cmd *c, const struct nvme_ns *ns, uint64_t zone_off,
			  uint32_t len, const void *addr, uint32_t data_len, const void *md,
			  uint32_t md_len, const struct nvme_io_flags *f);

/*
 * Where a Zone Append's data went: the byte offset of the LBA the controller
 * chose, from the command's 64-bit @result (the completion's dwords 0-1:
 * IORING_OP_URING_CMD's big_cqe[0], the ioctl's result).
 */
static inline uint64_t nvme_append_offset(const struct nvme_ns *ns, uint64_t result)
{
	return result << ns->lba_shift;
}

/* One Dataset Management range, as the controller reads it (16 bytes). */
struct nvme_dsm_range {
	uint32_t cattr;
	uint32_t nlb;		/* 1-based */
	uint64_t slba;
};

/*
 * Fill @r with the LBAs of bytes [@off, @off + @len) and @c (zeroed) with a
 * Dataset Management command that deallocates that one range: a trim.
 */
void nvme_cmd_dsm(struct nvme_uring_cmd *c, const struct nvme_ns *ns, uint64_t off, uint64_t len,
		  struct nvme_dsm_range *r);

/* Fill @c (zeroed) with a Flush of namespace @ns: fsync= and fdatasync=. */
void nvme_cmd_flush(struct nvme_uring_cmd *c, const struct nvme_ns *ns);

/*
 * The errno an I/O completion's @res means: the byte count is the caller's
 * on 0; a negative @res is the kernel's -errno; a positive one is the
 * controller's status (SCT/SC): -EILSEQ for a protection information check
 * that failed (as the block layer reports it), -EIO otherwise.
 */
int nvme_status_errno(int res);

/*
 * Read or write @len bytes at @off synchronously through NVME_IOCTL_IO64_CMD,
 * outside the measurement (verify's read-backs).  Bytes done, or -errno.
 */
int64_t nvme_io_sync(int fd, const struct nvme_ns *ns, int write, uint64_t off, uint32_t len,
		     void *buf, void *md, uint32_t md_len, const struct nvme_io_flags *f);

/* The controller's own counters (SMART / health log page 02h). */
struct nvme_smart {
	uint64_t data_units_read;	/* thousands of 512-byte units, rounded up */
	uint64_t data_units_written;
	uint64_t host_read_cmds;
	uint64_t host_write_cmds;
};

/* The counters of log data @log (512 bytes), low 64 bits of each 128-bit field. */
void nvme_smart_parse(const uint8_t *log, struct nvme_smart *s);

/*
 * Read the SMART log of namespace @nsid (0xffffffff: the whole controller)
 * through the admin passthrough ioctl on @fd.  0 or -errno.
 */
int nvme_smart_read(int fd, uint32_t nsid, struct nvme_smart *s);

#endif
