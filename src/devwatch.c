/*
 * devwatch: a worker's device views (see devwatch.h).
 */
#include "devwatch.h"
#include "series.h"	/* SERIES_SLIVER */
#include "vec.h"	/* vec_grow */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int devwatch_init(struct devwatch *w, const char *const *paths, size_t n, struct err *e)
{
	int r = diskutil_start(&w->du, paths, n, e);

	if (r)
		return r;
	if (!w->du.nr)
		return 0;
	w->start = calloc(w->du.nr, sizeof(*w->start));
	w->view = calloc(w->du.nr, sizeof(*w->view));
	if (!w->start || !w->view)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory for the device view");
	return 0;
}

void devwatch_begin(struct devwatch *w, uint64_t t_ns)
{
	if (w->du.nr)
		diskutil_sample(&w->du, 0, t_ns, &w->iv_from);
}

void devwatch_measure(struct devwatch *w, uint64_t t_ns)
{
	for (size_t i = 0; i < w->du.nr; i++)
		diskutil_sample(&w->du, i, t_ns, &w->start[i]);
}

int devwatch_interval(struct devwatch *w, uint64_t t_ms, uint64_t dur, uint64_t t_ns, int ramp)
{
	struct diskutil_snap now;
	struct disk_view_iv *last = w->nr_iv ? &w->iv[w->nr_iv - 1] : NULL;

	if (!w->du.nr)
		return 0;
	diskutil_sample(&w->du, 0, t_ns, &now);
	/* the same lengths series.c compares, so both fold the same slivers */
	if (last && last->t_ms < t_ms && w->last_ramp == ramp &&
	    dur * SERIES_SLIVER < w->last_dur_ns) {
		/* a sliver: series.c folds it into the last interval, so do we */
		diskutil_view(w->du.dev[0].name, &w->last_from, &now, &last->v);
		last->t_ms = t_ms;
		w->last_dur_ns += dur;
		w->iv_from = now;
		return 0;
	}
	if (vec_grow((void **)&w->iv, &w->cap_iv, w->nr_iv + 1, sizeof(*w->iv), 16))
		return -ENOMEM;
	last = &w->iv[w->nr_iv++];
	last->t_ms = t_ms;
	last->ramp = ramp;
	diskutil_view(w->du.dev[0].name, &w->iv_from, &now, &last->v);
	last->v.nr_requests = diskutil_nr_requests(&w->du, 0);
	w->last_from = w->iv_from;
	w->last_ramp = ramp;
	w->last_dur_ns = dur;
	w->iv_from = now;
	return 0;
}

void devwatch_end(struct devwatch *w, uint64_t t_ns)
{
	size_t k = 0;

	if (!w->view && w->du.nr)	/* taken already: a second measured period */
		w->view = calloc(w->du.nr, sizeof(*w->view));
	if (!w->view)
		return;

	for (size_t i = 0; i < w->du.nr; i++) {
		struct diskutil_snap now;

		diskutil_sample(&w->du, i, t_ns, &now);
		/* vanished, or ended inside the ramp (under 1 ms measured: no view) */
		if (now.t_ns < w->start[i].t_ns + 1000000 ||
		    diskutil_view(w->du.dev[i].name, &w->start[i], &now, &w->view[k]))
			continue;
		w->view[k].nr_requests = diskutil_nr_requests(&w->du, i);
		k++;
	}
	w->nr_view = k;
}

void devwatch_take(struct devwatch *w, struct job_result *r)
{
	r->dev = w->nr_view ? w->view : NULL;
	r->nr_dev = w->nr_view;
	if (!w->nr_view)
		free(w->view);
	r->dev_iv = w->nr_iv ? w->iv : NULL;
	r->nr_dev_iv = w->nr_iv;
	if (!w->nr_iv)
		free(w->iv);
	w->view = NULL;
	w->iv = NULL;
	w->nr_view = w->nr_iv = w->cap_iv = 0;
}

void devwatch_free(struct devwatch *w)
{
	diskutil_free(&w->du);
	free(w->start);
	free(w->view);
	free(w->iv);
	memset(w, 0, sizeof(*w));
}

/* a += b, for devwatch_coarsen: counters add, figures recombined from them. */
static void view_add(struct disk_view *a, const struct disk_view *b)
{
	double da = (double)a->dur_ns, db = (double)b->dur_ns, d = da + db;
	uint64_t rio = a->read_ios + b->read_ios, wio = a->write_ios + b->write_ios;

	if (!b->dur_ns)
		return;
	if (!a->dur_ns) {
		*a = *b;
		return;
	}
	a->read_lat_ns_mean = rio ? (a->read_lat_ns_mean * (double)a->read_ios +
				     b->read_lat_ns_mean * (double)b->read_ios) / (double)rio : 0;
	a->write_lat_ns_mean = wio ? (a->write_lat_ns_mean * (double)a->write_ios +
				      b->write_lat_ns_mean * (double)b->write_ios) / (double)wio : 0;
	a->read_queue_depth = (a->read_queue_depth * da + b->read_queue_depth * db) / d;
	a->write_queue_depth = (a->write_queue_depth * da + b->write_queue_depth * db) / d;
	a->queue_depth = (a->queue_depth * da + b->queue_depth * db) / d;
	a->util = (a->util * da + b->util * db) / d;
	a->dur_ns += b->dur_ns;
	a->read_ios = rio;
	a->write_ios = wio;
	a->read_bytes += b->read_bytes;
	a->write_bytes += b->write_bytes;
	a->read_iops = (double)rio * 1e9 / (double)a->dur_ns;
	a->write_iops = (double)wio * 1e9 / (double)a->dur_ns;
	if (b->nr_requests > a->nr_requests)
		a->nr_requests = b->nr_requests;
}

void devwatch_coarsen(struct disk_view_iv *iv, size_t *nr, const struct series *s)
{
	size_t nr_ramp = 0, out = 0, i, merged = 0;

	for (i = 0; i < s->nr; i++)
		merged |= series_iv_n(&s->iv[i]) > 1;
	if (!merged || !*nr)
		return;
	while (nr_ramp < *nr && iv[nr_ramp].ramp)
		nr_ramp++;
	for (int ramp = 1; ramp >= 0; ramp--) {
		size_t pos = ramp ? 0 : nr_ramp, end = ramp ? nr_ramp : *nr;

		for (i = 0; i < s->nr && pos < end; i++) {
			struct disk_view_iv m;
			size_t n = series_iv_n(&s->iv[i]);

			if ((int)s->iv[i].ramp != ramp)
				continue;
			m = iv[pos];
			for (size_t j = pos + 1; j < pos + n && j < end; j++) {
				view_add(&m.v, &iv[j].v);
				m.t_ms = iv[j].t_ms;
			}
			pos += n;
			iv[out++] = m;	/* out <= the first view read: in place is safe */
		}
	}
	*nr = out;
}
