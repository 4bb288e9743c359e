/*
 * diskutil: which block devices sit behind the job targets, and how busy
 * they were during the run (fio's "Disk stats" / "disk_util").
 *
 * For each target path: a block device stands for itself; a file (or a
 * directory, or a file not created yet: its directory) for the device of its
 * filesystem, found through st_dev -> /sys/dev/block/MAJ:MIN, or through the
 * mount's source in /proc/self/mountinfo when st_dev is not a block device
 * (btrfs).  A partition also brings in its whole disk, and a dm/md device its
 * members (slaves/, recursively).  tmpfs and other device-less filesystems
 * give no entry, which is not an error.
 *
 * diskutil_start() snapshots each device's counters (<sysfs dir>/stat),
 * diskutil_end() reads them again and turns the differences into struct
 * disk_util (result.h).  Not on any hot path.
 */
#ifndef IOTRIAL_DISKUTIL_H
#define IOTRIAL_DISKUTIL_H

#include <stddef.h>
#include <stdint.h>
#include "lib/err.h"
#include "result/result.h"

#define DISKUTIL_STAT_NR 11	/* the fields of a block device's stat file we use */

struct diskutil_dev {
	char name[64];			/* kernel name: vda, vda1, dm-0, loop3 */
	char *dir;			/* its sysfs directory (resolved) */
	uint64_t start[DISKUTIL_STAT_NR];
};

struct diskutil {
	const char *sysfs;		/* NULL: "/sys"; tests point it at a fake tree */
	struct diskutil_dev *dev;
	size_t nr, cap;
};

/*
 * Find the devices behind @paths[0..n) and snapshot their counters.  @d must
 * be zeroed (optionally with sysfs set).  Paths that cannot be resolved to a
 * device are skipped.  Returns 0, or -ENOMEM with @e filled (EXIT_INTERNAL).
 */
int diskutil_start(struct diskutil *d, const char *const *paths, size_t n, struct err *e);

/*
 * Read the counters again and give one disk_util per device still readable:
 * differences since diskutil_start(), and util = busy ms / @wall_ms * 100,
 * capped at 100.  *@out is malloc'ed (free() it, or let result_free() do it
 * once it is in a run_result); *@out is NULL when *@nr is 0.  Returns 0 or
 * -ENOMEM.
 */
int diskutil_end(struct diskutil *d, uint64_t wall_ms, struct disk_util **out, size_t *nr);

/*
 * The device view (docs/json.md, the device view): snapshots of a device's counters taken at the
 * start and end of a job's measured time and at every series interval, and
 * the arithmetic that turns two snapshots into what the device saw.
 */
struct diskutil_snap {
	uint64_t v[DISKUTIL_STAT_NR];
	uint64_t t_ns;			/* when it was read (any monotonic origin) */
	int ok;				/* 0: the device could not be read */
};

/*
 * Snapshot device @i of @d at time @t_ns.  A device that cannot be read any
 * more (removed mid-run) gives s->ok = 0 and -errno.
 */
int diskutil_sample(const struct diskutil *d, size_t i, uint64_t t_ns, struct diskutil_snap *s);

/*
 * now - then for one counter.  The kernel prints the tick counters (and on
 * 32-bit kernels all of them) as 32-bit values that wrap: a smaller @now
 * with @then below 2^32 is taken as one wrap.  A smaller @now with a larger
 * @then (the counters were reset: the device was re-created) gives 0.
 */
uint64_t diskutil_delta(uint64_t now, uint64_t then);

/*
 * What the device saw from @a to @b (@name copied in): I/Os, bytes, IOPS,
 * mean latency per direction (ticks / I/Os), queue depth per direction
 * (ticks / window) and overall (time in queue / window), util (busy /
 * window, capped at 100).  Returns 0, or -ENODEV when either snapshot is
 * missing or the window is empty (@v then has dur_ns 0).
 */
int diskutil_view(const char *name, const struct diskutil_snap *a, const struct diskutil_snap *b,
		  struct disk_view *v);

/* The capacity of device @i's request queue (queue/nr_requests), 0 if unknown. */
uint64_t diskutil_nr_requests(const struct diskutil *d, size_t i);

/* Release what @d holds; @d may then be reused after zeroing. */
void diskutil_free(struct diskutil *d);

#endif
