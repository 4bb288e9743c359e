/*
 * latency_target: the depth search (see latency_target.h).
 */
#include "io/latency_target.h"

#include <errno.h>	/* EINVAL, ERANGE */
#include <stdio.h>	/* snprintf */
#include <string.h>	/* strchr */
#include "model/job.h"
#include "model/num.h"
#include "model/opt_def.h"

void lat_target_init(struct lat_target *lt, unsigned max_depth)
{
	lt->max = max_depth ? max_depth : 1;
	lt->depth = 1;
	lt->good = 0;
	lt->bad = 0;
	lt->bad_seen = 0;
	lt->settled = 0;
	lt->windows = 0;
}

int lat_target_met(const struct lat_target_cfg *c, uint64_t ios, uint64_t over)
{
	if (!ios)
		return 0;
	if (over > ios)
		over = ios;
	/* compared in doubles, as a share: exact enough for counts below 2^53 */
	return (double)(ios - over) * 100.0 >= c->percentile * (double)ios;
}

/* The window passed at lt->depth: returns the next depth. */
static unsigned lat_target_up(struct lat_target *lt)
{
	unsigned d = lt->depth;

	lt->good = d;
	if (lt->bad_seen)	/* bisect towards the depth that failed */
		d = (d + lt->bad) / 2;
	else			/* nothing failed yet: probe twice as deep */
		d = d > lt->max / 2 ? lt->max : 2 * d;
	return d < 1 ? 1 : d > lt->max ? lt->max : d;
}

/* The window failed at lt->depth (> 1): returns the next depth. */
static unsigned lat_target_down(struct lat_target *lt)
{
	unsigned d = lt->depth;

	lt->bad = d;
	lt->bad_seen = 1;
	if (lt->good >= d)	/* it passed before: no longer trusted */
		lt->good = d - 1;
	d = (d + lt->good) / 2;
	return d < 1 ? 1 : d;
}

enum lat_target_step lat_target_window(struct lat_target *lt, const struct lat_target_cfg *c,
				       uint64_t ios, uint64_t over)
{
	unsigned prev = lt->depth;

	lt->windows++;
	if (!lat_target_met(c, ios, over)) {
		if (prev == 1)	/* nowhere to go; percentile 100 makes it the job's end */
			return lat_target_at_once(c) ? LAT_TARGET_FATAL : LAT_TARGET_UP;
		lt->depth = lat_target_down(lt);
		return LAT_TARGET_DOWN;
	}
	lt->depth = lat_target_up(lt);
	if (lt->depth != prev || c->run)
		return LAT_TARGET_UP;
	if (lt->settled)
		return LAT_TARGET_DONE;
	lt->settled = 1;
	return LAT_TARGET_SETTLE;
}

int lat_target_parse_percentile(struct job *j, const struct opt_def *o, const char *val,
				const struct num_ctx *c, struct err *e)
{
	double p;
	int ret;

	(void)o;
	if (strchr(val, ':'))
		return num_error(e, c, -EINVAL, val, "one percentile only");
	ret = num_parse_double(val, c, &p, e);
	if (ret)
		return ret;
	if (!(p >= 0 && p <= 100))
		return num_error(e, c, -ERANGE, val, "a percentile is 0..100");
	j->lat_target.percentile = p;
	return 0;
}

int lat_target_show_percentile(const struct job *j, const struct opt_def *o, char *buf,
			       size_t len)
{
	(void)o;
	snprintf(buf, len, "%g", j->lat_target.percentile);
	return 0;
}

int lat_target_validate(const struct job *j, struct err *e)
{
	if (!j->lat_target.target_us)
		return 0;
	if (!j->lat_target.window_us)
		return job_err(e, j, "latency_target=%lluus needs latency_window > 0 (how long "
			       "each depth is tried)", (unsigned long long)j->lat_target.target_us);
	return 0;
}
