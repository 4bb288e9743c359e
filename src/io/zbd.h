/*
 * zbd: fio's zonemode=zbd, the rules each I/O of a job follows on a zoned
 * device.  Not the device's zone table, how it is read or emulated, nor the
 * checks a job passes to join it: zbd_dev.h.
 *
 * A zoned device is written only at each sequential zone's write pointer
 * (wp).  The offset generator (iogen.c) still picks offsets as for any job;
 * zbd_adjust() then turns each I/O into one the zones allow, as fio's
 * zbd_adjust_block() does:
 * - a write goes to the zone its offset falls in when that zone may be
 *   written (it is a write zone already, or another may be opened), else to
 *   one of the write zones (the open set), picked by where the offset falls in
 *   the region, else to the next zone that can be opened; it is issued at that
 *   zone's wp and cut at the zone's capacity.  A full zone (less than the
 *   smallest block left) is reset first, as is one that
 *   zone_reset_threshold/zone_reset_frequency pick (the valid bytes of the
 *   region above the threshold: every 1/frequency-th write resets its zone);
 * - a read stays below the wp (read_beyond_wp lifts that): a zone without
 *   enough data sends it to the next zone with data (random I/O: the nearest
 *   one either way), shortened to what was written;
 * - the open set is the device's: at most max_open_zones zones (default the
 *   device's max_open_zones for host-managed drives, none otherwise, above
 *   it refused unless ignore_zone_limits) are written at once, shared by
 *   every job on the device, and job_max_open_zones per job.  A zone leaves
 *   it when a completed write fills it (zbd_done) or it is reset.
 * - a trim resets its zone (fio turns trims into zone resets): the block size
 *   is the zone size, and the I/O completes without the engine;
 * - verify_only reads back what each zone holds, from its start to its write
 *   pointer (zbd_zone_data), not the blocks the job's offsets would write.
 * With verify, zones are reset before the job's first write and full zones
 * are never reset during it (a reset would lose the data to check).
 *
 * Sharing: the device's zone table and open set are the run's (zbd_dev.h),
 * guarded by one mutex.  Only zonemode=zbd jobs take it, once per I/O; the
 * per-I/O path of other jobs never sees this file.  A zone with writes of one
 * job in flight is not written by another until they complete (fio holds the
 * zone's lock as long); a job waits by completing its own I/O first, so two
 * jobs never wait on each other.  When the rules need this job's I/O in
 * flight to complete (a zone reset, a full open set), zbd_adjust() calls the
 * worker's quiesce callback, with the mutex released, as fio's
 * io_u_quiesce().
 */
#ifndef IOTRIAL_ZBD_H
#define IOTRIAL_ZBD_H

#include <stdint.h>
#include "io/engine.h"
#include "io/zbd_dev.h"
#include "model/job.h"

/* The worker's hook: complete every I/O of this job in flight (fio's io_u_quiesce). */
typedef void (*zbd_quiesce_fn)(void *arg);

struct zbd_job {
	unsigned id;
	const struct job *j;
	uint64_t min_bs[DDIR_NR];
	int random, writes, mixed;
	/*
	 * sequential I/O that reaches the region's end through a zone's
	 * unwritable tail wraps (io_size above the region, time_based) or ends
	 * the job: fio counts the tail as done
	 */
	int seq_wrap;
	uint32_t nr_open;		/* zones of the open set this job put there */
	uint64_t resets;		/* fio's "zone resets" */
	int wrote;			/* a write was issued (mixed jobs write first) */
	int started;			/* zbd_start ran */
	struct zbd_file *files;
	unsigned nr_files;
	zbd_quiesce_fn quiesce;
	void *quiesce_arg;
};

enum { ZBD_OK = 0, ZBD_EOF = 1 };

/* A job's zbd state over its @nr_files targets; @min_bs: its smallest block per direction. */
void zbd_job_init(struct zbd_job *jb, struct zbd_set *s, const struct job *j,
		  const uint64_t *min_bs, struct zbd_file *files, unsigned nr_files);

/*
 * Make @io (from the generator: file, offset, len, ddir) an I/O the zones
 * allow: ZBD_OK (offset, len, maybe ddir changed; a write moved the zone's
 * wp past it), ZBD_EOF (nothing left to do: the job ends, as fio's io_u_eof),
 * or -errno when a zone reset failed.
 */
int zbd_adjust(struct zbd_job *jb, struct io_u *io);

/*
 * A new pass of loops= begins: as at the job's first I/O, with verify the
 * job's zones are reset before it writes (each pass writes them again and
 * its blocks are the ones read back), and the reset counter restarts.
 */
void zbd_new_pass(struct zbd_job *jb);

/*
 * @io, which zbd_adjust passed, is a trim the zones did (its zone was reset
 * there): the worker completes it without the engine, as fio does.
 */
int zbd_trim_done(const struct zbd_job *jb, const struct io_u *io);

/* @io, which zbd_adjust passed, completed (any result). */
void zbd_done(struct zbd_job *jb, const struct io_u *io);

/*
 * What zone @k of @zf's region holds, for verify_only (the device's write
 * pointers, as the report gave them or the run's writes moved them): 1 with
 * [*start, *end) from the zone's start to its write pointer (an offline
 * zone: empty), 0 for a conventional zone (no write pointer: the caller
 * asks the job's own offsets), -1 past the region.
 */
int zbd_zone_data(const struct zbd_file *zf, uint32_t k, uint64_t *start, uint64_t *end);

/* Whether byte @off of @zf's device lies in a conventional zone. */
int zbd_conventional(const struct zbd_file *zf, uint64_t off);

/* The write pointer of the zone holding byte @off of @zf's device (tests). */
uint64_t zbd_wp(const struct zbd_file *zf, uint64_t off);

#endif
