/*
 * zbd_dev: zonemode=zbd's devices: each target device's zone table and the
 * checks a job passes to join it.  Not the rules each I/O follows once the
 * job runs (which zone a write goes to, resets, waits): zbd.h.
 *
 * The zones come from a zoned block device or from a zoned NVMe namespace's
 * char device (/dev/ngXnY, for ioengine=io_uring_cmd): zonesrc.h.
 * Devices that are not zoned (regular files, ordinary block devices) get
 * zones of `zonesize` bytes (mandatory then, as in fio) with `zonecapacity`,
 * and resets touch only the table: fio does the same.  A job's region is
 * rounded to whole zones, and its limits (max_open_zones, block and trim
 * sizes, direct=) are checked against the device's, as fio checks them.
 *
 * Sharing: one struct zbd_dev per target path for the whole run (a zbd_set,
 * which run.c owns), its zone table and open set guarded by one mutex
 * (zbd.h's per-I/O path takes it once per I/O).
 */
#ifndef IOTRIAL_ZBD_DEV_H
#define IOTRIAL_ZBD_DEV_H

#include <pthread.h>
#include <stdint.h>
#include "io/blkzoned.h"
#include "io/engine.h"
#include "io/zonesrc.h"
#include "lib/err.h"
#include "model/job.h"

#define ZBD_MAX_OPEN 4096u	/* fio's own cap on max_open_zones */

struct zbd_zone {
	uint64_t start, cap, wp;	/* bytes; a zone ends where the next starts */
	uint8_t cond;			/* enum blkzoned_cond, as reported */
	uint8_t seq;			/* has a write pointer */
	uint8_t open;			/* in the device's open set */
	uint8_t reset_due;		/* zone_reset_frequency picked it */
	unsigned writer;		/* the job (zbd_job.id) with writes in flight in it */
	unsigned wr_inflight;
};

struct zbd_dev {
	pthread_mutex_t mu;
	struct zbd_dev *next;
	char *path;
	enum blkzoned_model model;
	struct zonesrc src;		/* where the zones come from (zonesrc.h) */
	int fd;				/* the device, for resets; -1: zones emulated */
	int fd_rw;			/* fd is open for writing (a writing job came) */
	uint64_t size, zone_size;
	uint32_t nr;
	struct zbd_zone *z;		/* nr + 1 entries: the last one's start is the end */
	uint32_t dev_max_open, dev_max_active;	/* the device's (0: none) */
	uint32_t max_open;		/* the open set's limit (0: none, not tracked) */
	int max_open_set;		/* decided by the first job on the device */
	uint32_t nr_open;
	uint32_t *open;			/* zone indexes, max_open entries */
	uint64_t valid;			/* bytes below the wps of the write range */
	uint32_t wmin, wmax;		/* the write range's zones, [wmin, wmax) */
	uint32_t write_cnt;		/* writes until zone_reset_frequency's next reset */
};

/* The run's devices: one zbd_dev per path, shared by every job on it. */
struct zbd_set {
	pthread_mutex_t mu;
	struct zbd_dev *head;
	unsigned next_id;		/* zbd_job ids, from 1 */
};

/* A job's view of one of its targets: its region, whole zones. */
struct zbd_file {
	struct zbd_dev *d;
	uint32_t zmin, zmax;		/* the region's zones, [zmin, zmax) */
	uint64_t off, io_size;		/* the region, after zone alignment */
};

/* The index of the zone holding byte @off of @d (d->nr past the end). */
static inline uint32_t zbd_dev_idx(const struct zbd_dev *d, uint64_t off)
{
	uint64_t i = off / d->zone_size;

	return i < d->nr ? (uint32_t)i : d->nr;
}

/* @s holds no device yet; zbd_job ids start at 1. */
void zbd_dev_set_init(struct zbd_set *s);

/* Every device of @s closed and freed (after the run's jobs are done with them). */
void zbd_dev_set_free(struct zbd_set *s);

/*
 * The zone table of a device from its @nr zones @z (the report, or a test's
 * fake); @size is the device's size.  0, -EINVAL (zones of unequal size, @e
 * says so) or -ENOMEM.
 */
int zbd_dev_table(struct zbd_dev *d, const struct blkzoned_zone *z, uint32_t nr, uint64_t size,
		  struct err *e);

/* Emulated zones of @zone_size bytes, @cap of them writable, over @size bytes. */
int zbd_dev_emulate(struct zbd_dev *d, uint64_t size, uint64_t zone_size, uint64_t cap,
		    struct err *e);

/*
 * Job @j's target @f (open; its region f->offset/f->size) joins the set: the
 * device is found or read (zone report, limits; or emulated zones), the
 * region is rounded to whole zones as fio does (f->offset, f->size change),
 * and the job's limits are checked against the device's.  @zf is filled.
 * 0, or -errno with @e naming the job, file and the rule (EXIT_USAGE for a
 * job the device cannot run, EXIT_TARGET when it cannot be read).
 */
int zbd_dev_attach(struct zbd_set *s, const struct job *j, struct engine_file *f,
		   struct zbd_file *zf, struct err *e);

/*
 * The zone size of the device at @path, for fio's zone units under
 * zonemode=zbd without zonesize= (zone_units.h): the device is read as
 * zbd_dev_attach reads it, and joins @s, before the job's regions are
 * laid out.  0, or -errno with @e filled as zbd_dev_attach's.
 */
int zbd_dev_zone_size(struct zbd_set *s, const struct job *j, const char *path,
		      uint64_t *zone_size, struct err *e);

/*
 * Job @j joins device @d, already known (tests call it on a fake table):
 * zbd_dev_attach's checks, the region [*@off, *@off + *@len) rounded to
 * whole zones, @zf filled.  0, or -EINVAL with @e filled as
 * zbd_dev_attach's.
 */
int zbd_dev_join(struct zbd_dev *d, const struct job *j, uint64_t *off, uint64_t *len,
		 struct zbd_file *zf, struct err *e);

#endif
