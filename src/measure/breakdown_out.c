/*
 * breakdown_out: a breakdown (breakdown.h) as JSON and as one line of text,
 * shared by the run's reports (report/report_breakdown.c) and comparisons
 * (trial/compare_time.c), so both write the same keys and the same line.
 */
#include "measure/breakdown_out.h"

#include <math.h>

static void jset(json_t *o, const char *k, json_t *v, int *bad)
{
	if (json_object_set_new(o, k, v))
		*bad = 1;
}

/* A figure, or null when unknown: readers tell "unknown" from 0. */
static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *breakdown_json(const struct breakdown *b)
{
	json_t *o;
	int bad = 0;

	if (!b->valid)
		return NULL;
	o = json_object();
	jset(o, "cycle_ns", jnum(b->cycle_ns), &bad);
	jset(o, "cycle_from", json_string("I/Os kept in flight (iodepth x threads) / IOPS: counts and "
					  "wall time, exact"), &bad);
	jset(o, "lat_ns", jnum(b->lat_ns), &bad);
	jset(o, "batch", jnum(b->batch), &bad);
	jset(o, "overlap_ns", jnum(b->overlap_ns), &bad);
	for (int p = 0; p < BD_NR; p++) {
		const struct breakdown_item *it = &b->part[p];

		jset(o, breakdown_part_name((enum breakdown_part)p),
		     json_pack("{s:o, s:o, s:s, s:s}", "ns", jnum(it->ns), "share", jnum(it->share),
			       "from", it->from, "exact", it->exact), &bad);
	}
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

void breakdown_text(FILE *f, const char *indent, const char *what, const struct breakdown *b)
{
	if (!b->valid)
		return;
	fprintf(f, "%s%s: cycle %.1f us", indent, what, b->cycle_ns / 1000);
	for (int p = 0; p < BD_NR; p++) {
		const struct breakdown_item *it = &b->part[p];

		if (isnan(it->ns))
			fprintf(f, "%s %s ?", p ? " +" : " =", breakdown_part_label((enum breakdown_part)p));
		else
			fprintf(f, "%s %s %.1f (%.0f%%)", p ? " +" : " =",
				breakdown_part_label((enum breakdown_part)p), it->ns / 1000, 100 * it->share);
	}
	if (b->overlap_ns > 0)
		fprintf(f, " (parts overlap by %.1f)", b->overlap_ns / 1000);
	if (b->batch > 1.0001)
		fprintf(f, "; %.1f completions per reap", b->batch);
	fputc('\n', f);
}

