/*
 * env: capture the environment a result was measured in, and diff two.
 *
 * methodology.md section 4: a comparison is only as good as the knowledge of
 * what differed between its sides.  env_capture() records, as a JSON object
 * stored under the result's "iotrial"."environment":
 *   targets[]: per target path, its type (file, block, dir, missing), size,
 *     the filesystem it lives on (type, mount point, source, options from
 *     /proc/self/mountinfo) and the block device behind it: a file resolves
 *     through its filesystem's st_dev, a partition to its disk, dm/md to their
 *     members (slaves/).  Per device: driver (virtio_blk, nvme, sd, loop,
 *     device-mapper, md, ...), model/vendor/serial/firmware where exposed,
 *     logical/physical block size, rotational, scheduler, nr_requests, write
 *     cache, discard support, size, loop backing file and dio, dm name;
 *   the host: its name, kernel (uname), CPU model, count and the TSC-related flags,
 *     memory, the kernel clock source, hypervisor (CPUID bit and vendor leaf,
 *     /sys/hypervisor/type, DMI vendor and product), the number of IOMMU
 *     groups, and iotrial's version.
 * Anything the machine does not expose is left out rather than guessed.
 * Capture only reads /sys and /proc; it never opens a target for I/O.
 *
 * env_diff() flattens both objects to dotted keys ("targets.0.device.driver")
 * and lists the keys whose values differ, in key order.
 */
#ifndef IOTRIAL_ENV_H
#define IOTRIAL_ENV_H

#include <stddef.h>
#include <jansson.h>	/* json_t */
#include "lib/err.h"

/* Capture the host and @n targets.  *out is a new reference.  0 or -errno. */
int env_capture(const char *const *targets, size_t n, json_t **out, struct err *e);

/* One target's object (see above).  *out is a new reference.  0 or -ENOMEM. */
int env_target(const char *path, json_t **out);

/*
 * The same with the mount table read from @mountinfo instead of
 * /proc/self/mountinfo.  When the table does not show the path's mount (a
 * chroot, some containers) the filesystem comes from statfs(2) and the device
 * from st_dev (/sys/dev/block/MAJ:MIN); "fs"."from" says which ("mountinfo"
 * or "statfs"), "device"."from" likewise ("st_dev" or "mount_source").
 */
int env_target_from(const char *path, const char *mountinfo, json_t **out);

/* {"dotted.key": scalar, ...} for every leaf of @v; NULL on allocation failure. */
json_t *env_flatten(const json_t *v);

/*
 * [{"key": k, "a": va, "b": vb}, ...] for each flattened key whose value
 * differs (a side that lacks the key shows null).  Either input may be NULL
 * (nothing recorded): then nothing is listed.  *out is a new reference.
 */
int env_diff(const json_t *a, const json_t *b, json_t **out, struct err *e);

#endif
