/*
 * safety: refuse writes and trims that would destroy a user's data.
 *
 * A benchmark that writes to the wrong block device wipes a filesystem in
 * seconds.  Before a job opens a block device for writing or trimming, the
 * file module asks safety_check(), which looks at the device the path really
 * names (symlinks such as /dev/disk/by-id/... resolved) and at every partition
 * of it.  It refuses, with EXIT_UNSAFE and a message naming the device and
 * the reason, when:
 *   - --readonly is in force (any target, not only block devices);
 *   - the device or a partition is mounted (matched by major:minor in
 *     /proc/self/mountinfo, so another name for the same device is caught),
 *     unless allow_mounted_write=1;
 *   - the device or a partition is active swap (/proc/swaps), is held by
 *     device-mapper/LVM or md (sysfs holders/), or carries a filesystem,
 *     partition table, RAID or other signature (libblkid), unless
 *     allow_signature_write=1.
 * Regular files and paths that do not exist yet pass (they are the file
 * module's business).  Reads are never refused.
 */
#ifndef IOTRIAL_SAFETY_H
#define IOTRIAL_SAFETY_H

#include "lib/err.h"
#include "model/job.h"

/*
 * May @path be written or trimmed?  @writes: the job writes or trims it;
 * @j: its options (allow_mounted_write, allow_signature_write; may be NULL:
 * no overrides); @readonly: --readonly is set.  Returns 0 when allowed, or a
 * negative errno (-EPERM for a refusal) with @e filled (EXIT_UNSAFE).
 */
int safety_check(const char *path, int writes, const struct job *j, int readonly, struct err *e);

/*
 * May the run write a report or log to @path?  @what names the output in the
 * message ("--output", "--status-output", "log file").  Symlinks are followed;
 * a path that does not exist yet, a regular file, a FIFO and a character
 * device (a terminal, /dev/null) pass.  A block device is refused unless
 * @allow_device (--allow-output-device): writing a report over it destroys
 * what it holds.  A socket or other special file is always refused.  A
 * directory passes here (writing to it fails later with EXIT_OUTPUT).
 * Returns 0, or -EPERM with @e filled (EXIT_UNSAFE, one line naming the path
 * as typed, what it resolved to and the reason).  Does no I/O on @path.
 */
int safety_check_output(const char *path, const char *what, int allow_device, struct err *e);

#endif
