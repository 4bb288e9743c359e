/*
 * qmp: a small client of QEMU's monitor protocol (QMP) on a unix socket, and
 * the strict readers of the replies the host's view needs (hostview.h,
 * docs/vm.md).  One connection per sample: QEMU (and Proxmox's socket)
 * serves one client at a time, so the socket is not held across a run.
 *
 * Every reply is refused unless it is what QMP documents: a line of at most
 * QMP_REPLY_MAX bytes, one JSON object, counters that are integers >= 0 and
 * names that are strings; a hostile or broken peer gets a one-line error,
 * never a crash or a silent misread.  Every wait has a limit (@timeout_ms).
 */
#ifndef IOTRIAL_QMP_H
#define IOTRIAL_QMP_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/err.h"

/* The largest reply line read: query-blockstats of 100 drives is ~150 KiB. */
#define QMP_REPLY_MAX (1u << 20)
/* Drives kept from one reply; more is refused (no VM has them). */
#define QMP_DRIVES_MAX 256

/* One drive's counters from query-blockstats (since QEMU started). */
struct qmp_drive {
	char name[128];		/* "device" (Proxmox: drive-virtio0), else the qdev path */
	uint64_t rd_ops, wr_ops, flush_ops;
	uint64_t rd_bytes, wr_bytes;
	uint64_t rd_ns, wr_ns, flush_ns;	/* rd/wr/flush_total_time_ns */
	/* from query-block, when it answered: */
	int has_block;
	int cache_direct;	/* cache.direct: O_DIRECT on the host, no host page cache */
	int cache_writeback;	/* cache.writeback */
	int64_t virtual_size, actual_size;	/* image sizes, -1 unknown */
};

struct qmp {
	int fd;
	int timeout_ms;
	pid_t pid;		/* QEMU's, from the socket's peer credentials; 0 unknown */
	char path[108];
	char *buf;		/* bytes read past the last line */
	size_t len, cap;
};

/*
 * Connect to @path, read the greeting, enter command mode
 * (qmp_capabilities).  Returns 0, or -errno with @e filled: -ENOENT missing,
 * -ECONNREFUSED nobody listening, -ETIMEDOUT, -EPROTO not QMP.
 */
int qmp_open(struct qmp *q, const char *path, int timeout_ms, struct err *e);

/*
 * Execute @cmd (no arguments) and give its "return" value in *@ret (the
 * caller's reference).  Events before the reply are skipped.  Returns 0, or
 * -errno with @e filled (-EREMOTEIO: QEMU answered with an error).
 */
int qmp_call(struct qmp *q, const char *cmd, json_t **ret, struct err *e);

/* Close the connection (safe after a failed qmp_open, and twice). */
void qmp_close(struct qmp *q);

/*
 * One line from the peer: a JSON object.  *@kind is 'G' the greeting
 * ({"QMP": {...}}), 'E' an event, 'R' a reply (*@ret its "return" value,
 * the caller's reference), 'X' an error reply (its desc in @e).  Returns 0,
 * or -EPROTO with @e filled for anything else.
 */
int qmp_parse_line(const char *line, size_t len, int *kind, json_t **ret, struct err *e);

/*
 * query-blockstats' return value into @v (at most @max, *@n of them).
 * Returns 0, or -EPROTO with @e naming the first field of a wrong type.
 */
int qmp_parse_blockstats(const json_t *ret, struct qmp_drive *v, size_t max, size_t *n,
			 struct err *e);

/*
 * query-block's return value onto the drives @v (by name): cache mode and
 * image sizes.  Entries of unknown drives are skipped.  0 or -EPROTO.
 */
int qmp_parse_block(const json_t *ret, struct qmp_drive *v, size_t n, struct err *e);

/*
 * The "thread-id" of each entry of query-iothreads' or query-cpus-fast's
 * return value into @tids (at most @max, *@n of them): QEMU's own word for
 * which thread is an iothread or a vCPU, whatever the threads are named
 * (QEMU 7.2 leaves an iothread whose id is longer than 12 bytes unnamed:
 * the kernel takes 15).  0 or -EPROTO.
 */
int qmp_parse_thread_ids(const json_t *ret, int *tids, size_t max, size_t *n, struct err *e);

#endif
