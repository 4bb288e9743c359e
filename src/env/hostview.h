/*
 * hostview: the host's side of a guest's run, from QEMU itself (docs/vm.md).
 * A sample is QMP's query-blockstats and query-block (qmp.h) and the CPU
 * time of each of QEMU's threads (/proc/PID/task/TID/stat, grouped by role:
 * lib/hostrole.h); two samples around a run, joined with the guest's own
 * figures, give the result's "iotrial.host": the drive that served the run
 * and its ops, the host backend's latency per op, the host CPU per I/O by
 * role, and the virtual device path (the guest-seen device latency less
 * the backend's).
 */
#ifndef IOTRIAL_HOSTVIEW_H
#define IOTRIAL_HOSTVIEW_H

#include <jansson.h>
#include <stdint.h>
#include <sys/types.h>

#include "env/qmp.h"
#include "lib/err.h"
#include "lib/hostrole.h"

/* Threads kept per sample; a QEMU with more is refused (-E2BIG). */
#define HOSTVIEW_THREADS_MAX 4096

struct hostview_thread {
	int tid;
	enum host_role role;
	uint64_t cpu_ns;	/* user + system since it started */
	int pinned;		/* its affinity is not every CPU */
	uint64_t cpus[16];	/* its affinity mask, CPUs 0..1023 */
};

struct hostview_sample {
	int64_t t_ns;		/* CLOCK_MONOTONIC */
	pid_t pid;
	uint64_t proc_cpu_ns;	/* the whole process, ended threads included */
	struct qmp_drive *d;
	size_t nd;
	struct hostview_thread *th;
	size_t nth;
	/* the threads QMP named (query-iothreads, query-cpus-fast): their roles
	 * whatever their names say */
	int io_tids[64], vcpu_tids[256];
	size_t n_io, n_vcpu;
};

/* Where the host's view comes from (cli's --host-qmp=SOCKET[,drive=ID]). */
struct hostview_cfg {
	const char *socket;
	const char *drive;	/* NULL: the drive whose ops moved most */
	const char *proc;	/* "/proc" unless a test gives a fake tree */
	int timeout_ms;
};

/*
 * Parse "SOCKET[,drive=ID]" (@arg, kept borrowed: @c points into @buf, of
 * @sz) into @c.  0 or -EINVAL with @e naming the option.
 */
int hostview_cfg_parse(const char *arg, char *buf, size_t sz, struct hostview_cfg *c,
		       struct err *e);

/*
 * The CPU time of each thread of process @pid under @proc ("/proc"):
 * task/TID/stat's utime + stime; its role from QMP's thread ids in @s
 * (io_tids, vcpu_tids), the process's own id (the main loop), else its
 * name.  0 or -errno (@e).
 */
int hostview_threads(const char *proc, pid_t pid, struct hostview_sample *s, struct err *e);

/*
 * One sample: QMP (connect, blockstats, block, close) and QEMU's threads
 * (QEMU's pid from the socket's peer credentials).  0 or -errno (@e); on
 * failure @s holds nothing to free.
 */
int hostview_sample(const struct hostview_cfg *c, struct hostview_sample *s, struct err *e);

/*
 * A sample in the run (hostview_series.h): query-blockstats alone, the
 * roles of the threads as QMP named them in @roles (a full sample's): QMP's
 * main loop, which serves the socket, does a fourth of the work, so the
 * samples at the run's interval weigh little on its CPU time.  The drives'
 * cache modes and image sizes are then unknown (has_block 0).
 */
int hostview_sample_light(const struct hostview_cfg *c, const struct hostview_sample *roles,
			  struct hostview_sample *s, struct err *e);

void hostview_sample_free(struct hostview_sample *s);

/* What the guest's own result says about the run (NAN unknown). */
struct hostview_guest {
	double ios;		/* its I/Os, all directions (total_ios) */
	double dev_lat_ns;	/* its device's time per request (the guest-seen device) */
	double tool_ns, io_path_ns;	/* its breakdown: tool (user + system + CPU wait), I/O path */
	/*
	 * Its own series, all jobs summed, ramp included: @cum[i] I/Os done by
	 * @t_ms[i], ms since the job started I/O on the guest's clock (the
	 * intervals' ends).  @ramp_ms: where the ramp ended (0: none).  @n 0:
	 * no series (fio's result), and the host's window is the whole run.
	 */
	const double *t_ms, *cum;
	size_t n;
	double ramp_ms;
};

/* The host's figures over a window of the run. */
struct hostview_window {
	struct qmp_drive d;	/* the drive: counters over the window; cache, image as last seen */
	double cpu[HOST_ROLE_NR], cpu_total;	/* QEMU's CPU time by role, and all of it, ns */
	double t_s;		/* the window's length */
};

/*
 * QEMU's CPU time of each role between @a and @b, and all of it in
 * *@total; threads that ended between them count as "other".
 */
void hostview_role_cpu(const struct hostview_sample *a, const struct hostview_sample *b,
		       double cpu[HOST_ROLE_NR], double *total);

/*
 * The drive that served the run (a drive of @b): @c->drive, else the one
 * whose ops moved most from @a to @b; @why (of @wsz) says how it was
 * chosen.  NULL with @e filled when no drive moved or the named one is
 * missing.
 */
const struct qmp_drive *hostview_pick_drive(const struct hostview_cfg *c,
					   const struct hostview_sample *a,
					   const struct hostview_sample *b, char *why, size_t wsz,
					   struct err *e);

/*
 * "iotrial.host" (a new object) from the window's figures @w, the guest's
 * @g, and the samples around the run (@b: QEMU's pid, the threads'
 * affinities for the pitfalls).  NULL with @e filled when out of memory.
 */
json_t *hostview_window_json(const struct hostview_cfg *c, const struct hostview_window *w,
			     const struct hostview_sample *a, const struct hostview_sample *b,
			     const struct hostview_guest *g, const char *why, struct err *e);

/*
 * The host's view of the run between @a and @b as "iotrial.host" (a new
 * object), with the guest's figures @g: the whole window between the two
 * samples.  The drive: @c->drive, else the one whose ops moved most.
 * Returns NULL with @e filled when no drive moved or the named one is
 * missing.
 */
json_t *hostview_join(const struct hostview_cfg *c, const struct hostview_sample *a,
		      const struct hostview_sample *b, const struct hostview_guest *g,
		      struct err *e);

#endif
