/*
 * cmdprio: per-I/O priorities (fio's cmdprio_percentage, cmdprio_class,
 * cmdprio, cmdprio_bssplit of io_uring and libaio; prio and prioclass for
 * the job's own priority; log_prio) and the per-priority latency statistics
 * fio writes as "prios" beside each direction.
 *
 * An I/O's priority is an ioprio value, (class << 13) | level, as
 * ioprio_set(2) takes it.  cmdprio_percentage=P gives P% of a direction's
 * I/Os (drawn independently) cmdprio_class/cmdprio (default class 1, RT,
 * level 0); cmdprio_bssplit=bs/P[/class/level[/hint]]:... does so per block
 * size (the hint is accepted and not sent, as fio 3.33);
 * every other I/O gets the job's priority (prioclass/prio, or 0: none).
 * io_uring passes it in sqe->ioprio, libaio in iocb aio_reqprio with
 * IOCB_FLAG_IOPRIO; the device may ignore it.  With any cmdprio option,
 * the completion latency of each I/O (its total latency with
 * lat_percentiles=1, as fio 3.33) is also accounted under its priority
 * (at most CMDPRIO_STATS_MAX distinct values per direction), which the JSON
 * writes as fio 3.33 does: "prios": [{prioclass, prio, clat_ns or lat_ns}]
 * sorted by priority.
 */
#ifndef IOTRIAL_CMDPRIO_H
#define IOTRIAL_CMDPRIO_H

#include <stdint.h>
#include "lib/hist.h"
#include "lib/rand.h"
#include "lib/stat.h"
#include "model/cmdprio_cfg.h"	/* struct cmdprio_cfg, CMDPRIO_NONE */
#include "model/opt_def.h"	/* struct opt_def: its option rows */

#define CMDPRIO_STATS_MAX 8

/* What a worker accumulates per direction and priority. */
struct cmdprio_acc {
	unsigned nr[3];
	uint16_t ioprio[3][CMDPRIO_STATS_MAX];
	struct lat_acc clat[3][CMDPRIO_STATS_MAX];
	struct hist hist[3][CMDPRIO_STATS_MAX];
};

/* The merged result (job_result.prio). */
struct cmdprio_stat {
	uint16_t ioprio;
	struct moments clat;
	struct hist hist;
};
struct cmdprio_result {
	unsigned nr[3];
	struct cmdprio_stat s[3][CMDPRIO_STATS_MAX];
};

struct job;
struct opt_def;
struct num_ctx;
struct err;

/* Any cmdprio option set (per-I/O priorities and "prios" statistics). */
int cmdprio_on(const struct cmdprio_cfg *c);

/* The job's own ioprio (prioclass/prio), 0 when neither is set. */
int cmdprio_job_ioprio(const struct cmdprio_cfg *c);

/* The ioprio of an I/O of direction @ddir and @len bytes; draws from @rs. */
uint16_t cmdprio_pick(const struct cmdprio_cfg *c, struct rand_state *rs, unsigned ddir,
		      uint64_t len);

/* Account @clat_ns of an I/O of @ddir at @ioprio (beyond the limit: dropped). */
void cmdprio_acc_add(struct cmdprio_acc *a, unsigned ddir, uint16_t ioprio, uint64_t clat_ns);

/* @a as a result (fresh: @r is overwritten). */
void cmdprio_acc_result(const struct cmdprio_acc *a, struct cmdprio_result *r);

/* unified_rw_reporting: every direction's priorities merged into @dst's read slot
 * (@dst's other slots are left empty; it is big: heap, not stack). */
void cmdprio_result_mixed(const struct cmdprio_result *src, struct cmdprio_result *dst);

/* dst (+)= src, by priority. */
void cmdprio_result_merge(struct cmdprio_result *dst, const struct cmdprio_result *src);

/*
 * The rows of cmdprio_percentage, cmdprio_class, cmdprio and cmdprio_bssplit
 * (ended by a row without a name): engine options, listed by the engines
 * that apply per-I/O priorities (io_uring, libaio, null).
 */
extern const struct opt_def cmdprio_opt_rows[];

/* cmdprio_bssplit's callbacks; prio's and prioclass's (rows in opt_table.c). */
int cmdprio_parse_bssplit(struct job *j, const struct opt_def *o, const char *val,
			  const struct num_ctx *c, struct err *e);
int cmdprio_show_bssplit(const struct job *j, const struct opt_def *o, char *buf, size_t len);
int cmdprio_parse_prio(struct job *j, const struct opt_def *o, const char *val,
		       const struct num_ctx *c, struct err *e);
int cmdprio_show_prio(const struct job *j, const struct opt_def *o, char *buf, size_t len);

#endif
