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
#include "err.h"
#include "result.h"

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

/* Release what @d holds; @d may then be reused after zeroing. */
void diskutil_free(struct diskutil *d);

#endif
