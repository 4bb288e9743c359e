/*
 * resultread_int: what the files of the result reader share, and nothing
 * outside src/result/ includes.  resultread.c reads a run's document (jobs,
 * directions, latency, tails); resultread_opts.c a job's options as it ran;
 * resultread_host.c the host's view of a guest's run; resultread_disk.c
 * fio's disk_util; resultread_sweep.c a sweep's document.  They read with
 * one context (the document's name and the error to fill) and the same
 * checked getters, here.
 */
#ifndef IOTRIAL_RESULTREAD_INT_H
#define IOTRIAL_RESULTREAD_INT_H

#include <errno.h>
#include <math.h>	/* NAN */
#include <stdint.h>
#include <stdio.h>	/* snprintf */
#include <jansson.h>
#include "lib/ddir.h"	/* DDIR_NR */
#include "lib/err.h"

/* resultread.h's; not included, so that the module has no include loop */
#define RESULTREAD_INT_NDIR DDIR_NR
struct resultread;
struct resultread_job;

/* One json+ bin: latency value (ns) and count. */
struct rr_bin {
	double v;
	uint64_t n;
};

/* Per-direction accumulators while jobs are read. */
struct dir_acc {
	double lat_sum;		/* sum of N x mean */
	uint64_t lat_n;
	double p99_sum;		/* sum of ios x p99 */
	uint64_t p99_n;
	int p99_missing;
	int bins_missing;
	struct rr_bin *bins;
	size_t nbins, cap;
};

struct load_ctx {
	const char *name;
	struct err *e;
	struct dir_acc acc[RESULTREAD_INT_NDIR];
	double cpu_ns;
	uint64_t all_ios;
	int cpu_known;
};

/* 2^64 is exactly representable; a uint64_t holds values strictly below it. */
#define RR_U64_LIMIT 18446744073709549568.0	/* the largest double below 2^64 */

static inline int bad(struct load_ctx *c, const char *fmt, const char *what, size_t job)
{
	char tmp[256];

	snprintf(tmp, sizeof(tmp), fmt, what);
	if (job == (size_t)-1)
		return err_set(c->e, -EINVAL, EXIT_USAGE, "%s: %s", c->name, tmp);
	return err_set(c->e, -EINVAL, EXIT_USAGE, "%s: job %zu: %s", c->name, job, tmp);
}

static inline double jnum(const json_t *o, const char *key, double dflt)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : dflt;
}

static inline void copy_str(char *dst, size_t sz, const char *src)
{
	snprintf(dst, sz, "%s", src ? src : "");
}

/* When the run happened (timestamp_ms, else timestamp x 1000), in ms; -1 unknown. */
static inline int64_t resultread_timestamp_of(const json_t *root)
{
	double ms = jnum(root, "timestamp_ms", NAN), s = jnum(root, "timestamp", NAN);

	if (ms > 0 && ms < 9e15)
		return (int64_t)ms;
	if (s > 0 && s < 9e12)
		return (int64_t)s * 1000;
	return -1;
}

/* ---- resultread_opts.c ---- */

/* An option's value as text whatever its JSON type; NULL when absent (may point into @buf). */
const char *resultread_opts_text(const json_t *opts, const char *key, char *buf, size_t sz);

/* Options the job ran with: global options overlaid with its own (a new object, or NULL). */
json_t *resultread_opts_merge(const json_t *global, const json_t *job);

/* @j's options from @given (as typed) and @ran (iotrial's resolved job, or NULL). */
void resultread_opts_resolve(const json_t *given, const json_t *ran, struct resultread_job *j);

/* ---- resultread_host.c ---- */

/* The host's view @h (iotrial.host) into r->host; NULL: none (its figures NAN). */
void resultread_host_read(struct resultread *r, const json_t *h);

/* ---- resultread_disk.c ---- */

/* fio's disk_util names into r->disks. */
void resultread_disk_names(struct resultread *r, const json_t *du);

/* disk_util's counters into r->du.  0, -ENOMEM, or -ERANGE with c->e naming the counter. */
int resultread_disk_read(struct load_ctx *c, struct resultread *r, const json_t *du);

/* ---- resultread_sweep.c ---- */

/* A sweep's document @root into @r.  0, or -errno with c->e filled. */
int resultread_sweep_read(struct load_ctx *c, struct resultread *r, const json_t *root);

#endif
