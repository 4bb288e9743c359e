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
 * Each engine's own options live in its file (below); the registry is
 * engine.c.
 */
#ifndef IOTRIAL_ENGINE_H
#define IOTRIAL_ENGINE_H

#include <stddef.h>	/* offsetof */
#include <stdint.h>
#include "lib/err.h"
#include "model/job.h"
#include "model/opt_def.h"	/* struct opt_def: an engine's option rows */
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
	unsigned dio_align;	/* direct=1: the target's direct I/O alignment in bytes, 0 unknown */
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
	/*
	 * Set by init: writes are zone appends into zones of this many bytes
	 * (io_uring_cmd's write_mode=zone_append).  The device picks where in
	 * its zone each lands, and the engine puts that in the io_u's offset at
	 * completion; appends in flight together may land in any order among
	 * themselves.  0: a write lands where it is sent.
	 */
	uint64_t append_zone;
};

enum { ENGINE_Q_QUEUED = 0, ENGINE_Q_COMPLETED = 1, ENGINE_Q_BUSY = 2 };

/*
 * An engine's traits (synchronous, needs no files, ...) are not here: they
 * are engine_traits.h's table, keyed by name, which code that never runs an
 * engine asks too.
 */
struct engine_ops {
	const char *name;
	/*
	 * Its own options (see "An engine's options" below): runs of rows
	 * (opt_def.h), each ended by a row without a name, in the order
	 * --cmdhelp lists them; NULL-terminated; NULL for none.
	 */
	const struct opt_def *const *opts;
	/*
	 * Its options struct in the job's engine area: its size and fio's
	 * defaults (ENGINE_OPTS_AREA sets both); 0 and NULL when its rows keep
	 * no value there.
	 */
	size_t opts_size;
	const void *opts_default;
	/*
	 * Set for an engine this build leaves out (rbd without librbd): why.
	 * engine_find() does not return it; its rows stay in the option
	 * table, so that they are refused by name under any other engine.
	 */
	const char *absent;
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

/*
 * An engine's options, as fio's engines keep theirs: its rows are in its
 * file, and the option table (parse/) gathers every engine's from the
 * registry, in the registry's order, a run several engines list once.  A
 * row belongs to the engines that list it: under any other engine a value
 * set away from its default is refused by name (opt_engine_owned_check).
 *
 * The values live in struct job's engine area, as the engine's own options
 * struct, which only its file knows: the area holds the options of the
 * job's engine, at fio's defaults (opts_default) until set.  A row names its
 * field there with ENGINE_OPT_FIELD; engines that list a row with a value
 * there share one options struct (filestat and dirstat), or start theirs
 * with the same one (io_uring and io_uring_cmd: engine_rows.h's ring).  A row whose value
 * code outside its engine's file reads names a field of struct job instead
 * (OPT_FIELD: cmdprio's rows, cmdprio.h; hipri, engine_rows.h;
 * exit_on_io_done).  A parse callback
 * of a row in the area writes only the row's field, and no value in the
 * area is a pointer (job_copy copies it with memcpy).  Engines read their
 * values at init and validate, never per I/O.
 */
#define ENGINE_OPT_FIELD(type, field)						\
	.off = offsetof(struct job, engine_area) + offsetof(type, field),	\
	.width = sizeof(((type *)0)->field)

/*
 * In an engine's ops: its options struct @type and its defaults @def (a
 * const @type *).  The build fails where @type does not fit the area.
 */
#define ENGINE_OPTS_AREA(type, def)						\
	.opts_size = sizeof(type) + 0 * sizeof(struct {				\
		_Static_assert(sizeof(type) <= JOB_ENGINE_AREA_MAX &&		\
			       _Alignof(type) <= 8,				\
			       #type " does not fit struct job's engine area");	\
		int unused;							\
	}),									\
	.opts_default = (const type *)(def)

/* The job's engine options: its engine's options struct (for that engine's file). */
static inline const void *engine_job_opts(const struct job *j)
{
	return j->engine_area;
}

/* The engine named @name, or NULL (the registry in engine.c). */
const struct engine_ops *engine_find(const char *name);

/*
 * Why engine @name, which iotrial has but this build left out, is missing
 * ("this build has no librbd ..."), or NULL.
 */
const char *engine_absent_reason(const char *name);

/* The @i-th engine of this build, in the registry's order; NULL past the end. */
const struct engine_ops *engine_at(size_t i);

/* The @i-th engine's name, NULL past the end (opt_def.value_at: --cmdhelp). */
const char *engine_name_at(size_t i);

/*
 * The engines' option rows, each once, in the registry's order: start with
 * *@eng = *@row = 0 and call until NULL (the option table's middle part).
 */
const struct opt_def *engine_opt_next(size_t *eng, size_t *row);

/* True when @ops lists row @o (@ops NULL: none). */
int engine_takes(const struct engine_ops *ops, const struct opt_def *o);

/*
 * The @n-th engine, in the registry's order, that lists row @o (engines of
 * this build or not); NULL past the last, and for @n = 0 when @o is no
 * engine's.
 */
const struct engine_ops *engine_opt_owner(const struct opt_def *o, size_t n);

/* True when @o's value lives in a job's engine area (ENGINE_OPT_FIELD). */
int engine_opt_in_area(const struct opt_def *o);

/* Put @ops's default options in @j's engine area (zeros for none; @ops may be NULL). */
void engine_opts_reset(struct job *j, const struct engine_ops *ops);

#endif
