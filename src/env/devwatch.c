/*
 * devwatch: a worker's device views (see devwatch.h).
 */
#include "env/devwatch.h"
#include "measure/series.h"	/* SERIES_SLIVER */
#include "lib/vec.h"	/* vec_grow */

#include <errno.h>
#include <fcntl.h>	/* open */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>	/* ioctl */
#include <sys/stat.h>	/* stat */
#include <unistd.h>	/* close */

/*
 * @path is an NVMe namespace's char device whose controller's SMART log
 * reads: keep it open and remember the log's scope (the namespace when the
 * controller keeps a log per namespace, else the whole controller).
 */
static void devwatch_ctrl_init(struct devwatch *w, const char *path)
{
	struct nvme_smart s;
	struct stat st;
	const char *base;
	int nsid, fd;

	w->ctrl_fd = -1;
	if (stat(path, &st) || !S_ISCHR(st.st_mode))
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	nsid = ioctl(fd, NVME_IOCTL_ID);
	if (nsid > 0 && !nvme_smart_read(fd, (uint32_t)nsid, &s))
		w->ctrl.nsid = (uint32_t)nsid;
	else if (nsid > 0 && !nvme_smart_read(fd, 0xffffffffu, &s))
		w->ctrl.nsid = 0xffffffffu;
	else {
		close(fd);
		return;
	}
	w->ctrl_fd = fd;
	base = strrchr(path, '/');
	snprintf(w->ctrl.name, sizeof(w->ctrl.name), "%s", base ? base + 1 : path);
}

/* The controller's counters now: at the start of measurement, or the view at its end. */
static void devwatch_ctrl_sample(struct devwatch *w, uint64_t t_ns, int end)
{
	struct nvme_smart s;

	if (w->ctrl_fd <= 0 || nvme_smart_read(w->ctrl_fd, w->ctrl.nsid, &s))
		return;
	if (!end) {
		w->ctrl_start = s;
		w->ctrl_t0 = t_ns;
		return;
	}
	w->ctrl.valid = t_ns > w->ctrl_t0;
	w->ctrl.dur_ns = t_ns - w->ctrl_t0;
	w->ctrl.read_cmds = s.host_read_cmds - w->ctrl_start.host_read_cmds;
	w->ctrl.write_cmds = s.host_write_cmds - w->ctrl_start.host_write_cmds;
	w->ctrl.units_read = s.data_units_read - w->ctrl_start.data_units_read;
	w->ctrl.units_written = s.data_units_written - w->ctrl_start.data_units_written;
}

int devwatch_init(struct devwatch *w, const char *const *paths, size_t n, struct err *e)
{
	int r = diskutil_start(&w->du, paths, n, e);

	if (r)
		return r;
	if (!w->du.nr) {
		if (n)
			devwatch_ctrl_init(w, paths[0]);
		return 0;
	}
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
	devwatch_ctrl_sample(w, t_ns, 0);
	for (size_t i = 0; i < w->du.nr; i++)
		diskutil_sample(&w->du, i, t_ns, &w->start[i]);
}

void devwatch_bound(struct devwatch *w, size_t max)
{
	w->max = max;
}

int devwatch_interval(struct devwatch *w, uint64_t t_ms, uint64_t dur, uint64_t t_ns, int ramp)
{
	struct diskutil_snap now;
	struct disk_view_iv *last = w->has_pend ? &w->pend : NULL;

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
	/* the pending view is final now: into the bounded list */
	if (last && devwatch_store(&w->iv, &w->nr_iv, &w->cap_iv, w->max, &w->level_n, last))
		return -ENOMEM;
	last = &w->pend;
	memset(last, 0, sizeof(*last));
	w->has_pend = 1;
	last->t_ms = t_ms;
	last->ramp = ramp;
	last->n = 1;
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

	devwatch_ctrl_sample(w, t_ns, 1);
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
	/* the last interval is final now; out of memory loses only its view */
	if (w->has_pend)
		(void)devwatch_store(&w->iv, &w->nr_iv, &w->cap_iv, w->max, &w->level_n, &w->pend);
	w->has_pend = 0;
	r->ctrl = w->ctrl;
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
	w->level_n = 1;
}

static void view_add(struct disk_view *a, const struct disk_view *b);

static uint32_t iv_n(const struct disk_view_iv *v)
{
	return v->n ? v->n : 1;
}

/* Pair adjacent views within each phase (ramp views come first), as series_coarsen. */
static size_t store_coarsen(struct disk_view_iv *iv, size_t nr)
{
	size_t i = 0, o = 0, nr_ramp = 0;

	while (nr_ramp < nr && iv[nr_ramp].ramp)
		nr_ramp++;
	while (i < nr) {
		size_t end = i < nr_ramp ? nr_ramp : nr;
		struct disk_view_iv m = iv[i];

		if (i + 1 < end) {
			view_add(&m.v, &iv[i + 1].v);
			m.t_ms = iv[i + 1].t_ms;
			m.n = iv_n(&iv[i]) + iv_n(&iv[i + 1]);
			i += 2;
		} else {
			i++;
		}
		iv[o++] = m;	/* o <= i: in place is safe */
	}
	return o;
}

int devwatch_store(struct disk_view_iv **iv, size_t *nr, size_t *cap, size_t max,
		   uint32_t *level_n, const struct disk_view_iv *v)
{
	struct disk_view_iv *last = *nr ? &(*iv)[*nr - 1] : NULL;

	if (!*level_n)
		*level_n = 1;
	/* the last element fills up to level_n intervals, within its phase (series_sink) */
	if (last && last->ramp == v->ramp && iv_n(last) + iv_n(v) <= *level_n) {
		view_add(&last->v, &v->v);
		last->t_ms = v->t_ms;
		last->n = iv_n(last) + iv_n(v);
		return 0;
	}
	if (vec_grow((void **)iv, cap, *nr + 1, sizeof(**iv), 16))
		return -ENOMEM;
	(*iv)[(*nr)++] = *v;
	if (max && *nr > max) {
		size_t before = *nr;

		*nr = store_coarsen(*iv, *nr);
		if (*nr < before)
			*level_n *= 2;
	}
	return 0;
}

void devwatch_free(struct devwatch *w)
{
	if (w->ctrl_fd > 0)
		close(w->ctrl_fd);
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
			size_t have = iv_n(&iv[pos]);

			m = iv[pos++];
			/* the views in it may each cover several intervals already */
			for (; have < n && pos < end; pos++) {
				view_add(&m.v, &iv[pos].v);
				m.t_ms = iv[pos].t_ms;
				have += iv_n(&iv[pos]);
			}
			m.n = (uint32_t)have;
			iv[out++] = m;	/* out <= the first view read: in place is safe */
		}
	}
	*nr = out;
}
