/*
 * resultread_time: a job's time breakdown and device view read back from a
 * saved result, and fio's raw figures for computing one (see the header).
 */
#include "result/resultread_time.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void text(const json_t *o, const char *key, char *buf, size_t sz)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_string(v))
		snprintf(buf, sz, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, sz, "%lld", (long long)json_integer_value(v));
	else if (!buf[0])
		buf[0] = '\0';
}

void resultread_time_breakdown(const json_t *o, struct breakdown *b)
{
	memset(b, 0, sizeof(*b));
	if (!json_is_object(o) || isnan(num(o, "cycle_ns")))
		return;
	b->valid = 1;
	b->cycle_ns = num(o, "cycle_ns");
	b->lat_ns = num(o, "lat_ns");
	b->batch = num(o, "batch");
	b->overlap_ns = num(o, "overlap_ns");
	if (isnan(b->overlap_ns))
		b->overlap_ns = 0;
	for (int p = 0; p < BD_NR; p++) {
		const json_t *it = json_object_get(o, breakdown_part_name((enum breakdown_part)p));

		b->part[p].ns = num(it, "ns");
		b->part[p].share = num(it, "share");
		text(it, "from", b->part[p].from, sizeof(b->part[p].from));
		text(it, "exact", b->part[p].exact, sizeof(b->part[p].exact));
	}
}

static void read_view(const json_t *v, struct resultread_view *o)
{
	memset(o, 0, sizeof(*o));
	if (!json_is_object(v) || isnan(num(v, "window_s")))
		return;
	o->has = 1;
	text(v, "name", o->name, sizeof(o->name));
	o->window_s = num(v, "window_s");
	o->read_ios = num(v, "read_ios");
	o->write_ios = num(v, "write_ios");
	o->read_lat_ns = num(v, "read_lat_ns_mean");
	o->write_lat_ns = num(v, "write_lat_ns_mean");
	o->read_qd = num(v, "read_queue_depth");
	o->write_qd = num(v, "write_queue_depth");
	o->util = num(v, "util");
}

void resultread_time_job(const json_t *job, const json_t *opts, const char *rw, const char *engine,
			 int direct, unsigned numjobs, struct resultread_time *t)
{
	static const char *const buckets[7] = { "0", "4", "8", "16", "32", "64", ">=64" };
	const json_t *iot = json_object_get(job, "iotrial"), *c = json_object_get(job, "iodepth_complete");
	const json_t *bd = json_object_get(iot, "breakdown");

	memset(t, 0, sizeof(*t));
	t->usr_pct = num(job, "usr_cpu");
	t->sys_pct = num(job, "sys_cpu");
	for (int k = 0; k < 7; k++) {
		t->complete_pct[k] = num(c, buckets[k]);
		if (isnan(t->complete_pct[k]))
			t->complete_pct[k] = 0;
	}
	text(opts, "bs", t->bs, sizeof(t->bs));
	if (!t->bs[0])
		text(opts, "blocksize", t->bs, sizeof(t->bs));
	text(opts, "filename", t->target, sizeof(t->target));
	if (!t->target[0])
		text(opts, "directory", t->target, sizeof(t->target));
	snprintf(t->key, sizeof(t->key), "%s|%s|%s|%d|%u|%s", rw, t->bs[0] ? t->bs : "4k", engine, direct,
		 numjobs, t->target);
	resultread_time_breakdown(bd, &t->bd);
	resultread_time_breakdown(json_object_get(bd, "tail"), &t->bd_tail);
	read_view(json_object_get(iot, "device"), &t->view);
}
