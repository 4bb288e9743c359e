/*
 * engine: the small ops table every I/O engine plugs into.
 *
 * The worker owns the io_u pool, the buffers and the opened files; an engine
 * only moves io_us to the kernel and back.  Protocol per batch:
 *   queue(io) for each io_u    -> ENGINE_Q_QUEUED, or ENGINE_Q_COMPLETED when the
 *                                 engine finished it inline (sync engines; res set)
 *   commit()                   -> hand queued io_us to the kernel
 *   getevents(min, max, out)   -> completed io_us, each with res set
 * commit() may take fewer than were queued when the kernel's queue is full:
 * the rest stay queued in the engine and go with the next commit (0 means
 * "reap first").  queue/commit/getevents run on one thread (io_uring binds
 * its ring to the thread of the first commit; init may run elsewhere).
 * res is the byte count done (short when < len) or -errno.  An engine never
 * allocates, locks or prints in queue/commit/getevents: they are the hot path.
 * Each engine's own options live in its file; the registry is engine.c.
 */
#ifndef IOTRIAL_ENGINE_H
#define IOTRIAL_ENGINE_H

#include <stdint.h>
#include "lib/err.h"
#include "model/job.h"
#include "io/engine_traits.h"	/* ENGINE_F_*, named in the contracts below */

/* An extra "direction" for fsync/fdatasync requests (not counted as I/O). */
#define DDIR_SYNC 3
#define DDIR_DATASYNC 4

struct io_u {
	uint64_t offset;
	uint32_t len;
	uint8_t ddir;		/* enum ddir, DDIR_SYNC or DDIR_DATASYNC */
	uint16_t file;		/* index into engine_ctx.files */
	uint32_t index;		/* position in the pool (fixedbufs buffer index) */
	uint16_t ioprio;	/* ioprio_set(2) value for this I/O, 0 = none (cmdprio.h) */
	void *buf;
	int64_t res;		/* set on completion: bytes or -errno */
	uint64_t t_start;	/* clock ticks when the io_u was set up (lat) */
	uint64_t t_issue;	/* clock ticks when it went to the engine (clat) */
	void *engine_data;	/* per-io_u engine state (an iocb, ...) */
	/*
	 * Set by queue() for an I/O the engine did not really do (filecreate's
	 * blocks after the file's creation, as fio counts them): counted in
	 * ios and bytes, no latency sample.  The worker clears it per I/O.
	 * Engines completing inline only (ENGINE_Q_COMPLETED): the batched
	 * reap path does not look at it.
	 */
	uint8_t untimed;
	uint8_t vbl;		/* the worker's: a verify_backlog read-back (worker_verify.c) */
	/* the worker's, rated jobs only: t_due (ticks) is the I/O's slot in the
	 * rate schedule, set when due is; lat_from_due counts from it */
	uint8_t due;
	uint64_t t_due;
};

struct engine_file {
	int fd;
	char *path;
	uint64_t size;		/* bytes usable for I/O, from offset on */
	int is_blk;		/* a block device (trim via BLKDISCARD) */
	uint64_t offset;	/* first byte of the I/O region (offset=, offset_increment=) */
	uint64_t laid_out;	/* the size this run created or extended it to; 0: it was there */
};

struct engine_ctx {
	const struct job *job;
	struct engine_file *files;
	unsigned nr_files;
	struct io_u *ios;	/* the pool, job->iodepth entries */
	unsigned depth;
	void *buf_base;		/* all buffers, contiguous (for fixedbufs) */
	uint64_t buf_len;
	void *priv;		/* the engine's own state */
	char info[160];		/* set by init: what the engine chose, for the report
				 * (io_uring: the setup flags that the kernel took) */
	/*
	 * Set by init: a pause after every I/O when the job sets no thinktime
	 * (cpuio: the idle share of each cycle, so the CPU is busy cpuload%).
	 */
	uint64_t think_ns;
};

enum { ENGINE_Q_QUEUED = 0, ENGINE_Q_COMPLETED = 1, ENGINE_Q_BUSY = 2 };

/*
 * An engine's traits (synchronous, needs no files, ...) are not here: they
 * are engine_traits.h's table, keyed by name, which code that never runs an
 * engine asks too.
 */
struct engine_ops {
	const char *name;
	/* Set up after files are open and buffers allocated. 0 or -errno (+ @e). */
	int (*init)(struct engine_ctx *ctx, struct err *e);
	/* ENGINE_Q_* or -errno. */
	int (*queue)(struct engine_ctx *ctx, struct io_u *io);
	/*
	 * Submit what queue() left queued: number submitted or -errno.  Optional
	 * with getevents (both NULL) for an engine that completes every I/O in
	 * queue() (ENGINE_F_SYNC): nothing is ever left queued or in flight, as
	 * fio leaves them NULL for its sync engines.
	 */
	int (*commit)(struct engine_ctx *ctx);
	/*
	 * Optional (NULL: the worker calls commit() and then getevents()): commit()
	 * and wait until @min completions are ready, in one kernel entry where the
	 * engine can (io_uring).  Same return as commit(); the completions are then
	 * taken with getevents(), which finds them without waiting.  The caller
	 * cannot tell when the submission ended, so the worker uses it only when
	 * no submission time is recorded (disable_slat=1 and disable_clat=1).
	 */
	int (*commit_wait)(struct engine_ctx *ctx, unsigned min);
	/*
	 * Wait for at least @min completions, return up to @max in @out: count or
	 * -errno.  Optional with commit (see there).
	 */
	int (*getevents)(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out);
	void (*exit)(struct engine_ctx *ctx);
	/*
	 * Optional: called on the worker's thread once its I/O loop is over,
	 * before end_fsync and the verify pass, to stop what the engine started
	 * (exec's program: it must not outlive its job; exit() runs only when
	 * the whole run is over).
	 */
	void (*end)(struct engine_ctx *ctx);
	/*
	 * Optional: the engine's own checks of a parsed job (options it needs,
	 * directions it cannot do), run by opt_job_validate() so --parse-only
	 * sees them.  0 or -EINVAL with @e filled through job_err().
	 */
	int (*validate)(const struct job *j, struct err *e);
	/*
	 * Optional: getevents() that waits at most @timeout_ns for @min
	 * completions and may return fewer (0 on timeout).  io_submit_mode=offload
	 * needs it: the worker waits for completions only until the next rated
	 * I/O is due, so submissions keep their schedule (see worker.c).
	 */
	int (*getevents_timed)(struct engine_ctx *ctx, unsigned min, unsigned max,
			       struct io_u **out, uint64_t timeout_ns);
	/*
	 * Optional, for ENGINE_F_OWNFILES engines whose target lives outside
	 * the file system and has a size of its own (rbd: the image): that
	 * size, asked before the regions are planned, so that size=, offset=
	 * and their percentages apply to it as to an existing file.  0 or
	 * -errno with @e filled.
	 */
	int (*target_size)(const struct job *j, uint64_t *size, struct err *e);
	/*
	 * Optional, for engines whose targets have no fd (rbd): read @len
	 * bytes at @off of file @file into @buf, synchronously, outside the
	 * measurement (verify's read-backs; pread(2) on the fd otherwise).
	 * Bytes read or -errno.
	 */
	int64_t (*read_sync)(struct engine_ctx *ctx, unsigned file, void *buf, uint64_t len,
			     uint64_t off);
};

/* The engine named @name, or NULL (the registry in engine.c). */
const struct engine_ops *engine_find(const char *name);

/*
 * Why engine @name, which iotrial has but this build left out, is missing
 * ("this build has no librbd ..."), or NULL.
 */
const char *engine_absent_reason(const char *name);

/* NULL-terminated list of compiled-in engines, for --help and --cmdhelp. */
const struct engine_ops *const *engine_list(void);

/* The @i-th compiled-in engine's name, NULL past the end (opt_def.value_at). */
const char *engine_name_at(size_t i);

#endif
