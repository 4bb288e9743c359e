/*
 * cmdprio: per-I/O priorities and their statistics (see cmdprio.h).
 */
#include "io/cmdprio.h"

#include <errno.h>	/* EINVAL */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* strtoull */
#include <string.h>	/* memset, strcmp, strchr */
#include "model/job.h"
#include "model/num.h"
#include "model/opt_def.h"

#define IOPRIO(cls, lvl) ((uint16_t)(((unsigned)(cls) << 13) | (unsigned)(lvl)))

int cmdprio_on(const struct cmdprio_cfg *c)
{
	return c->pct[0] || c->pct[1] || c->split_nr[0] || c->split_nr[1];
}

int cmdprio_job_ioprio(const struct cmdprio_cfg *c)
{
	if (c->prioclass == CMDPRIO_NONE && c->prio == CMDPRIO_NONE)
		return 0;
	/* prio alone is a level of the best-effort class (ionice's default) */
	return IOPRIO(c->prioclass == CMDPRIO_NONE ? 2 : c->prioclass,
		      c->prio == CMDPRIO_NONE ? 0 : c->prio);
}

static uint16_t cmdprio_high(const struct cmdprio_cfg *c, int k)
{
	return IOPRIO(c->cls[k] == CMDPRIO_NONE ? 1 : c->cls[k], c->lvl[k] == CMDPRIO_NONE ? 0 : c->lvl[k]);
}

uint16_t cmdprio_pick(const struct cmdprio_cfg *c, struct rand_state *rs, unsigned ddir,
		      uint64_t len)
{
	int k = ddir == 0 ? 0 : 1;
	unsigned i;

	if (c->split_nr[k]) {
		uint64_t r = rand_below(rs, 100), cum = 0;

		for (i = 0; i < c->split_nr[k]; i++) {
			if (c->split[k][i].bs != len)
				continue;
			cum += c->split[k][i].perc;
			if (r < cum)
				return c->split[k][i].ioprio == CMDPRIO_NONE ? cmdprio_high(c, k)
									    : (uint16_t)c->split[k][i].ioprio;
		}
	} else if (c->pct[k] && rand_below(rs, 100) < c->pct[k]) {
		return cmdprio_high(c, k);
	}
	return (uint16_t)cmdprio_job_ioprio(c);
}

void cmdprio_acc_add(struct cmdprio_acc *a, unsigned ddir, uint16_t ioprio, uint64_t clat_ns)
{
	unsigned i;

	if (ddir > 2)
		return;
	for (i = 0; i < a->nr[ddir] && a->ioprio[ddir][i] != ioprio; i++)
		;
	if (i == a->nr[ddir]) {
		if (i == CMDPRIO_STATS_MAX)
			return;
		a->ioprio[ddir][i] = ioprio;
		lat_acc_init(&a->clat[ddir][i]);
		memset(&a->hist[ddir][i], 0, sizeof(a->hist[ddir][i]));
		a->nr[ddir]++;
	}
	lat_acc_add(&a->clat[ddir][i], clat_ns);
	hist_add(&a->hist[ddir][i], clat_ns);
}

void cmdprio_acc_result(const struct cmdprio_acc *a, struct cmdprio_result *r)
{
	unsigned d, i;

	memset(r->nr, 0, sizeof(r->nr));
	for (d = 0; d < 3; d++)
		for (i = 0; i < a->nr[d]; i++) {
			struct cmdprio_stat *s = &r->s[d][r->nr[d]++];

			s->ioprio = a->ioprio[d][i];
			lat_acc_moments(&a->clat[d][i], &s->clat);
			s->hist = a->hist[d][i];
		}
}

void cmdprio_result_mixed(const struct cmdprio_result *src, struct cmdprio_result *dst)
{
	unsigned d, i, k;

	memset(dst->nr, 0, sizeof(dst->nr));
	for (d = 0; d < 3; d++)
		for (i = 0; i < src->nr[d]; i++) {
			const struct cmdprio_stat *s = &src->s[d][i];

			for (k = 0; k < dst->nr[0] && dst->s[0][k].ioprio != s->ioprio; k++)
				;
			if (k == dst->nr[0]) {
				if (k == CMDPRIO_STATS_MAX)
					continue;
				dst->s[0][k] = *s;
				dst->nr[0]++;
				continue;
			}
			moments_merge(&dst->s[0][k].clat, &s->clat);
			hist_merge(&dst->s[0][k].hist, &s->hist);
		}
}

void cmdprio_result_merge(struct cmdprio_result *dst, const struct cmdprio_result *src)
{
	unsigned d, i, k;

	for (d = 0; d < 3; d++)
		for (i = 0; i < src->nr[d]; i++) {
			const struct cmdprio_stat *s = &src->s[d][i];

			for (k = 0; k < dst->nr[d] && dst->s[d][k].ioprio != s->ioprio; k++)
				;
			if (k == dst->nr[d]) {
				if (k == CMDPRIO_STATS_MAX)
					continue;
				dst->s[d][k] = *s;
				dst->nr[d]++;
				continue;
			}
			moments_merge(&dst->s[d][k].clat, &s->clat);
			hist_merge(&dst->s[d][k].hist, &s->hist);
		}
}

/* ---- options ---- */

/* "a" or "a,b" (read, write), each within [lo, hi]. */
static int cmdprio_pair(const char *val, const struct num_ctx *c, uint64_t lo, uint64_t hi,
			int out[2], struct err *e)
{
	char buf[64];
	char *comma;
	uint64_t v[2];
	int r, k;

	if (strlen(val) >= sizeof(buf))
		return num_error(e, c, -EINVAL, val, "too long");
	strcpy(buf, val);
	comma = strchr(buf, ',');
	if (comma)
		*comma = '\0';
	r = num_parse_u64(buf, c, &v[0], e);
	if (!r)
		r = comma && comma[1] ? num_parse_u64(comma + 1, c, &v[1], e) : 0;
	if (r)
		return r;
	if (!comma || !comma[1])
		v[1] = v[0];
	for (k = 0; k < 2; k++) {
		if (v[k] < lo || v[k] > hi)
			return num_error(e, c, -ERANGE, val, "must be %llu..%llu", (unsigned long long)lo,
					 (unsigned long long)hi);
		out[k] = (int)v[k];
	}
	return 0;
}

static void cmdprio_show_pair(const int v[2], char *buf, size_t len)
{
	if (v[0] == v[1])
		snprintf(buf, len, "%d", v[0]);
	else
		snprintf(buf, len, "%d,%d", v[0], v[1]);
}

static int cmdprio_parse_pct(struct job *j, const struct opt_def *o, const char *val,
			     const struct num_ctx *c, struct err *e)
{
	int v[2], r = cmdprio_pair(val, c, 0, 100, v, e);

	(void)o;
	if (!r) {
		j->cmdprio.pct[0] = (uint32_t)v[0];
		j->cmdprio.pct[1] = (uint32_t)v[1];
	}
	return r;
}

static int cmdprio_show_pct(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	int v[2] = { (int)j->cmdprio.pct[0], (int)j->cmdprio.pct[1] };

	(void)o;
	cmdprio_show_pair(v, buf, len);
	return 0;
}

static int cmdprio_parse_class(struct job *j, const struct opt_def *o, const char *val,
			       const struct num_ctx *c, struct err *e)
{
	(void)o;
	return cmdprio_pair(val, c, 1, 3, j->cmdprio.cls, e);
}

static int cmdprio_show_class(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	int v[2] = { j->cmdprio.cls[0] == CMDPRIO_NONE ? 1 : j->cmdprio.cls[0],
		     j->cmdprio.cls[1] == CMDPRIO_NONE ? 1 : j->cmdprio.cls[1] };

	(void)o;
	cmdprio_show_pair(v, buf, len);
	return 0;
}

static int cmdprio_parse_level(struct job *j, const struct opt_def *o, const char *val,
			       const struct num_ctx *c, struct err *e)
{
	(void)o;
	return cmdprio_pair(val, c, 0, 7, j->cmdprio.lvl, e);
}

static int cmdprio_show_level(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	int v[2] = { j->cmdprio.lvl[0] == CMDPRIO_NONE ? 0 : j->cmdprio.lvl[0],
		     j->cmdprio.lvl[1] == CMDPRIO_NONE ? 0 : j->cmdprio.lvl[1] };

	(void)o;
	cmdprio_show_pair(v, buf, len);
	return 0;
}

/*
 * One direction's list: bs/perc[/class/level[/hint]]:...  The hint (newer
 * fio's, for command duration limits) is checked and kept but not sent:
 * fio 3.33 takes the five-field form and issues class << 13 | level.
 */
static int cmdprio_split_one(char *s, const struct num_ctx *c, const char *val,
			     struct cmdprio_split *out, unsigned *nr, struct err *e)
{
	char *item, *save = NULL;
	unsigned n = 0;

	for (item = strtok_r(s, ":", &save); item; item = strtok_r(NULL, ":", &save)) {
		char *f[6], *save2 = NULL, *p;
		unsigned nf = 0;
		uint64_t bs, perc, cls = 0, lvl = 0, hint = 0;
		int r;

		for (p = strtok_r(item, "/", &save2); p && nf < 6; p = strtok_r(NULL, "/", &save2))
			f[nf++] = p;
		if (nf == 6 || p || (nf != 2 && nf != 4 && nf != 5))
			return num_error(e, c, -EINVAL, val, "entries are bs/percent, "
					 "bs/percent/class/level or bs/percent/class/level/hint");
		if (n == CMDPRIO_SPLIT_MAX)
			return num_error(e, c, -EINVAL, val, "more than %d entries", CMDPRIO_SPLIT_MAX);
		r = num_parse_u64(f[0], c, &bs, e);
		if (!r)
			r = num_parse_u64(f[1], c, &perc, e);
		if (!r && nf >= 4)
			r = num_parse_u64(f[2], c, &cls, e);
		if (!r && nf >= 4)
			r = num_parse_u64(f[3], c, &lvl, e);
		if (!r && nf == 5)
			r = num_parse_u64(f[4], c, &hint, e);
		if (r)
			return r;
		/* hints: the kernel's 10 bits (IOPRIO_HINT_NR_BITS) */
		if (perc > 100 || (nf >= 4 && (cls > 3 || lvl > 7)) || hint > 1023)
			return num_error(e, c, -ERANGE, val,
					 "percent 0..100, class 0..3, level 0..7, hint 0..1023");
		out[n].bs = bs;
		out[n].perc = (uint32_t)perc;
		out[n].ioprio = nf >= 4 ? IOPRIO(cls, lvl) : CMDPRIO_NONE;
		out[n].hint = nf == 5 ? (int)hint : CMDPRIO_NONE;
		n++;
	}
	*nr = n;
	return 0;
}

int cmdprio_parse_bssplit(struct job *j, const struct opt_def *o, const char *val,
			  const struct num_ctx *c, struct err *e)
{
	struct cmdprio_split sp[2][CMDPRIO_SPLIT_MAX];
	unsigned nr[2] = { 0, 0 };
	char buf[1024], *comma;
	int r;

	(void)o;
	if (strlen(val) >= sizeof(buf))
		return num_error(e, c, -EINVAL, val, "too long");
	strcpy(buf, val);
	comma = strchr(buf, ',');
	if (comma)
		*comma = '\0';
	r = cmdprio_split_one(buf, c, val, sp[0], &nr[0], e);
	if (!r && comma)
		r = cmdprio_split_one(comma + 1, c, val, sp[1], &nr[1], e);
	if (r)
		return r;
	if (!comma) {
		memcpy(sp[1], sp[0], sizeof(sp[0]));
		nr[1] = nr[0];
	}
	memcpy(j->cmdprio.split, sp, sizeof(sp));
	memcpy(j->cmdprio.split_nr, nr, sizeof(nr));
	return 0;
}

int cmdprio_show_bssplit(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	size_t pos = 0;
	unsigned k, i;
	int n;

	(void)o;
	if (!j->cmdprio.split_nr[0] && !j->cmdprio.split_nr[1])
		return 1;
	buf[0] = '\0';
	for (k = 0; k < 2 && pos < len; k++)
		for (i = 0; i < j->cmdprio.split_nr[k] && pos < len; i++) {
			const struct cmdprio_split *s = &j->cmdprio.split[k][i];

			if (s->ioprio == CMDPRIO_NONE)
				n = snprintf(buf + pos, len - pos, "%s%llu/%u", i ? ":" : k ? "," : "",
					     (unsigned long long)s->bs, s->perc);
			else if (s->hint == CMDPRIO_NONE)
				n = snprintf(buf + pos, len - pos, "%s%llu/%u/%d/%d", i ? ":" : k ? "," : "",
					     (unsigned long long)s->bs, s->perc, s->ioprio >> 13,
					     s->ioprio & 0x1fff);
			else
				n = snprintf(buf + pos, len - pos, "%s%llu/%u/%d/%d/%d",
					     i ? ":" : k ? "," : "", (unsigned long long)s->bs, s->perc,
					     s->ioprio >> 13, s->ioprio & 0x1fff, s->hint);
			if (n > 0)
				pos += (size_t)n;
		}
	return 0;
}

/* prio=0..7 and prioclass=0..3: the job's own priority (o->name says which). */
int cmdprio_parse_prio(struct job *j, const struct opt_def *o, const char *val,
		       const struct num_ctx *c, struct err *e)
{
	int cls = !strcmp(o->name, "prioclass");
	uint64_t v;
	int r = num_parse_u64(val, c, &v, e);

	if (r)
		return r;
	if (v > (cls ? 3u : 7u))
		return num_error(e, c, -ERANGE, val, "must be 0..%d", cls ? 3 : 7);
	if (cls)
		j->cmdprio.prioclass = (int)v;
	else
		j->cmdprio.prio = (int)v;
	return 0;
}

int cmdprio_show_prio(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	int v = !strcmp(o->name, "prioclass") ? j->cmdprio.prioclass : j->cmdprio.prio;

	if (v == CMDPRIO_NONE)
		return 1;
	snprintf(buf, len, "%d", v);
	return 0;
}

/*
 * Their rows: engine options of io_uring and libaio (fio's engines/cmdprio.h;
 * null takes them too, for tests), which those engines list among theirs
 * (io/engine.h).  No storage of their own in a row: the callbacks fill
 * struct job's cmdprio, which the worker applies.
 */
const struct opt_def cmdprio_opt_rows[] = {
	{ .name = "cmdprio_percentage", .type = OPT_FUNC, .parse = cmdprio_parse_pct,
	  .show = cmdprio_show_pct,
	  .help = "percent of I/Os (read,write) issued with cmdprio_class/cmdprio" },
	{ .name = "cmdprio_class", .type = OPT_FUNC, .parse = cmdprio_parse_class,
	  .show = cmdprio_show_class,
	  .help = "priority class of those I/Os, 1..3 (read,write; default 1, RT)" },
	{ .name = "cmdprio", .type = OPT_FUNC, .parse = cmdprio_parse_level,
	  .show = cmdprio_show_level,
	  .help = "priority level of those I/Os, 0..7 (read,write; default 0)" },
	{ .name = "cmdprio_bssplit", .type = OPT_FUNC, .parse = cmdprio_parse_bssplit,
	  .show = cmdprio_show_bssplit,
	  .help = "per block size: bs/percent[/class/level[/hint]]:..., read,write "
		  "(the hint is accepted and not sent, as fio 3.33)" },
	{ .name = NULL },
};
