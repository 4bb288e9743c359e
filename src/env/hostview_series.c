/*
 * hostview_series: the host's view sampled through a guest's run, and
 * joined with the guest's own series (see hostview_series.h).
 */
#include "env/hostview_series.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The counters a boundary keeps, as numbers to interpolate (hostview_count's order). */
#define NCNT 8

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void cnt_vec(const struct hostview_count *c, double v[NCNT])
{
	v[0] = (double)c->rd_ops, v[1] = (double)c->wr_ops, v[2] = (double)c->flush_ops;
	v[3] = (double)c->rd_bytes, v[4] = (double)c->wr_bytes;
	v[5] = (double)c->rd_ns, v[6] = (double)c->wr_ns, v[7] = (double)c->flush_ns;
}

/* Sample @h's counters of the drives of the first sample; a drive gone keeps @prev's. */
static void counts_of(const struct hostview_series *s, const struct hostview_sample *h,
		      struct hostview_count *row, const struct hostview_count *prev)
{
	for (size_t k = 0; k < s->nd; k++) {
		const char *name = s->first.d[k].name;
		const struct qmp_drive *d = NULL;

		if (k < h->nd && !strcmp(h->d[k].name, name))	/* QMP keeps its order */
			d = &h->d[k];
		for (size_t i = 0; !d && i < h->nd; i++)
			if (!strcmp(h->d[i].name, name))
				d = &h->d[i];
		if (!d) {
			if (prev)
				row[k] = prev[k];
			else
				memset(&row[k], 0, sizeof(row[k]));
			continue;
		}
		row[k] = (struct hostview_count){ d->rd_ops, d->wr_ops, d->flush_ops, d->rd_bytes,
						  d->wr_bytes, d->rd_ns, d->wr_ns, d->flush_ns };
	}
}

/* Every other boundary goes (the first stays): adjacent intervals merge in pairs. */
static void thin(struct hostview_series *s)
{
	size_t k = 1;

	for (size_t i = 2; i < s->n; i += 2, k++) {
		s->pt[k] = s->pt[i];
		memcpy(&s->cnt[k * s->nd], &s->cnt[i * s->nd], s->nd * sizeof(*s->cnt));
	}
	s->n = k;
	s->period_ns *= 2;
}

/* @h as the next boundary: the CPU since the previous sample added to the sums. */
static void append(struct hostview_series *s, const struct hostview_sample *h,
		   const struct hostview_point *sums)
{
	if (s->n == s->max)
		thin(s);
	s->pt[s->n] = *sums;
	s->pt[s->n].t_ns = h->t_ns;
	counts_of(s, h, &s->cnt[s->n * s->nd], s->n ? &s->cnt[(s->n - 1) * s->nd] : NULL);
	s->n++;
}

int hostview_series_init(struct hostview_series *s, const struct hostview_cfg *c,
			 double period_s, struct hostview_sample *first, struct err *e)
{
	struct hostview_point zero;

	memset(s, 0, sizeof(*s));
	s->cfg = c;
	if (!(period_s > 0))
		period_s = 1;
	s->period_ns = (int64_t)(period_s < 0.01 ? 1e7 : period_s * 1e9);
	s->first = *first;
	memset(first, 0, sizeof(*first));
	s->nd = s->first.nd;
	s->max = HOSTVIEW_SERIES_POINTS;
	if (s->nd && HOSTVIEW_SERIES_CELLS / s->nd < s->max)
		s->max = HOSTVIEW_SERIES_CELLS / s->nd;
	s->max = s->max < 16 ? 16 : s->max & ~(size_t)1;
	s->pt = calloc(s->max, sizeof(*s->pt));
	s->cnt = calloc(s->max * (s->nd ? s->nd : 1), sizeof(*s->cnt));
	if (!s->pt || !s->cnt) {
		hostview_series_free(s);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	}
	memset(&zero, 0, sizeof(zero));
	append(s, &s->first, &zero);
	return 0;
}

int hostview_series_start(struct hostview_series *s, const struct hostview_cfg *c,
			  double period_s, struct err *e)
{
	struct hostview_sample first;
	int rc;

	memset(s, 0, sizeof(*s));
	if ((rc = hostview_sample(c, &first, e)))
		return rc;
	return hostview_series_init(s, c, period_s, &first, e);
}

void hostview_series_add(struct hostview_series *s, struct hostview_sample *h)
{
	const struct hostview_sample *prev = s->last.t_ns ? &s->last : &s->first;
	struct hostview_point sums = s->sum;
	double cpu[HOST_ROLE_NR], total;

	hostview_role_cpu(prev, h, cpu, &total);
	for (int r = 0; r < HOST_ROLE_NR; r++)
		sums.cpu[r] += cpu[r];
	sums.cpu_total += total;
	s->sum = sums;	/* runs on from the latest sample, whatever thinning dropped */
	append(s, h, &sums);
	hostview_sample_free(&s->last);
	s->last = *h;
	memset(h, 0, sizeof(*h));
}

/*
 * A sample now (@full: with the drives' cache modes and the threads' roles
 * from QMP, else the counters alone); a failure ends the sampling, keeping
 * what was taken.
 */
static int take(struct hostview_series *s, int full, struct err *e)
{
	struct hostview_sample h;
	struct err e2;
	int rc;

	err_clear(&e2);
	if ((rc = hostview_sample_light(s->cfg, full ? NULL : &s->first, &h, &e2))) {
		s->lost = 1;
		s->lost_ns = now_ns();
		snprintf(s->lost_msg, sizeof(s->lost_msg), "%s", e2.msg);
		return err_set(e, rc, e2.exit_code, "%s", e2.msg);
	}
	hostview_series_add(s, &h);
	return 0;
}

int hostview_series_tick(struct hostview_series *s, struct err *e)
{
	if (!s->pt || s->lost || now_ns() < s->pt[s->n - 1].t_ns + s->period_ns)
		return 0;
	return take(s, 0, e);
}

int hostview_series_end(struct hostview_series *s, struct err *e)
{
	if (!s->pt || s->lost)
		return 0;
	return take(s, 1, e);
}

void hostview_series_free(struct hostview_series *s)
{
	hostview_sample_free(&s->first);
	hostview_sample_free(&s->last);
	free(s->pt);
	free(s->cnt);
	memset(s, 0, sizeof(*s));
}

/* The guest's I/Os done by @tau ms since its job started (its series, linear between ends). */
static double g_at(const struct hostview_guest *g, double tau)
{
	double t0 = 0, c0 = 0;

	if (tau <= 0)
		return 0;
	for (size_t i = 0; i < g->n; i++) {
		if (tau <= g->t_ms[i])
			return g->t_ms[i] > t0 ? c0 + (g->cum[i] - c0) * (tau - t0) / (g->t_ms[i] - t0) :
						 g->cum[i];
		t0 = g->t_ms[i];
		c0 = g->cum[i];
	}
	return c0;
}

/* When (ms since its job started) the guest had done @c I/Os: g_at's inverse, the first time. */
static double g_when(const struct hostview_guest *g, double c)
{
	double t0 = 0, c0 = 0;

	for (size_t i = 0; i < g->n; i++) {
		if (g->cum[i] >= c)
			return g->cum[i] > c0 ? t0 + (c - c0) / (g->cum[i] - c0) * (g->t_ms[i] - t0) :
						g->t_ms[i];
		t0 = g->t_ms[i];
		c0 = g->cum[i];
	}
	return t0;
}

/* The guest job's start on the host's clock (CLOCK_MONOTONIC ns). */
struct align {
	int ok;
	double start_ns;
	double spread_ms;	/* the median distance of the samples' own estimates from it */
	size_t used;		/* the samples taken while the job ran, which gave it */
};

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static double ops_at(const struct hostview_series *s, size_t j, size_t k)
{
	const struct hostview_count *c = &s->cnt[j * s->nd + k];

	return (double)(c->rd_ops + c->wr_ops);
}

/*
 * Each sample taken while the guest's job ran (the drive between none and
 * all of the guest's I/Os since the first sample) says when the job
 * started: its time less the guest's time to reach that count.  Their
 * median is the start: a sample early or late in its interval moves its
 * own estimate only.
 */
static void align(const struct hostview_series *s, size_t k, const struct hostview_guest *g,
		  struct align *al)
{
	double *v, tot;
	size_t m = 0;

	memset(al, 0, sizeof(*al));
	if (!g || !g->n || !(g->cum[g->n - 1] > 0) || !(v = malloc(s->n * sizeof(*v))))
		return;
	tot = g->cum[g->n - 1];
	for (size_t j = 1; j < s->n; j++) {
		double c = ops_at(s, j, k) - ops_at(s, 0, k);

		if (c > 0 && c < tot)
			v[m++] = (double)s->pt[j].t_ns - g_when(g, c) * 1e6;
	}
	if (m) {
		qsort(v, m, sizeof(*v), by_value);
		al->start_ns = m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
		for (size_t j = 0; j < m; j++)
			v[j] = fabs(v[j] - al->start_ns) / 1e6;
		qsort(v, m, sizeof(*v), by_value);
		al->spread_ms = m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
		al->ok = 1;
		al->used = m;
	}
	free(v);
}

/*
 * Drive @k's counters and QEMU's CPU at host time @t: between two samples,
 * the counters spread as the guest's own I/Os were (when it did any there),
 * the CPU evenly in time.
 */
static void value_at(const struct hostview_series *s, size_t k, const struct align *al,
		     const struct hostview_guest *g, double t, double v[NCNT],
		     double cpu[HOST_ROLE_NR], double *total)
{
	const struct hostview_point *p = s->pt;
	double a[NCNT], b[NCNT], fc, f;
	size_t j = 0;

	if (t <= (double)p[0].t_ns || s->n < 2)
		t = (double)p[0].t_ns;
	if (t >= (double)p[s->n - 1].t_ns)
		t = (double)p[s->n - 1].t_ns;
	while (j + 2 < s->n && (double)p[j + 1].t_ns <= t)
		j++;
	if (s->n < 2) {
		cnt_vec(&s->cnt[k], v);
		memcpy(cpu, p[0].cpu, sizeof(p[0].cpu));
		*total = p[0].cpu_total;
		return;
	}
	fc = p[j + 1].t_ns > p[j].t_ns ? (t - (double)p[j].t_ns) / (double)(p[j + 1].t_ns - p[j].t_ns) : 1;
	f = fc;
	if (al->ok) {
		double g0 = g_at(g, ((double)p[j].t_ns - al->start_ns) / 1e6);
		double g1 = g_at(g, ((double)p[j + 1].t_ns - al->start_ns) / 1e6);

		if (g1 > g0)
			f = (g_at(g, (t - al->start_ns) / 1e6) - g0) / (g1 - g0);
	}
	cnt_vec(&s->cnt[j * s->nd + k], a);
	cnt_vec(&s->cnt[(j + 1) * s->nd + k], b);
	for (int i = 0; i < NCNT; i++)
		v[i] = a[i] + f * (b[i] - a[i]);
	for (int r = 0; r < HOST_ROLE_NR; r++)
		cpu[r] = p[j].cpu[r] + fc * (p[j + 1].cpu[r] - p[j].cpu[r]);
	*total = p[j].cpu_total + fc * (p[j + 1].cpu_total - p[j].cpu_total);
}

static uint64_t rounded(double x)
{
	return x > 0 ? (uint64_t)(x + 0.5) : 0;
}

static json_t *roles_json(const double cpu[HOST_ROLE_NR])
{
	json_t *o = json_object();

	for (int r = 0; r < HOST_ROLE_NR; r++)
		json_object_set_new(o, host_role_name((enum host_role)r), json_real(cpu[r]));
	return o;
}

/* The host's series: an element per interval between two samples, on the guest job's clock. */
static json_t *series_json(const struct hostview_series *s, size_t k, const struct align *al,
			   double e0, double e1)
{
	json_t *arr = json_array();
	double origin = al->ok ? al->start_ns : (double)s->pt[0].t_ns;

	for (size_t j = 1; arr && j < s->n; j++) {
		const struct hostview_point *p0 = &s->pt[j - 1], *p1 = &s->pt[j];
		const struct hostview_count *a = &s->cnt[(j - 1) * s->nd + k], *b = &s->cnt[j * s->nd + k];
		double ops = (double)(b->rd_ops + b->wr_ops) - (double)(a->rd_ops + a->wr_ops);
		double ns = (double)(b->rd_ns + b->wr_ns) - (double)(a->rd_ns + a->wr_ns);
		double cpu[HOST_ROLE_NR], mid = ((double)p0->t_ns + (double)p1->t_ns) / 2;
		json_t *o;

		for (int r = 0; r < HOST_ROLE_NR; r++)
			cpu[r] = p1->cpu[r] - p0->cpu[r];
		o = json_pack("{s:f, s:I, s:I, s:I, s:o, s:o}",
			      "t_ms", ((double)p1->t_ns - origin) / 1e6,
			      "dur_us", (json_int_t)((p1->t_ns - p0->t_ns) / 1000),
			      "ops", (json_int_t)(ops > 0 ? ops : 0),
			      "bytes", (json_int_t)((b->rd_bytes + b->wr_bytes) - (a->rd_bytes + a->wr_bytes)),
			      "backend_lat_ns", ops > 0 ? json_real(ns / ops) : json_null(),
			      "cpu_ns", roles_json(cpu));
		if (o && al->ok)
			json_object_set_new(o, "phase", json_string(mid < al->start_ns ? "before" :
					    mid < e0 ? "ramp" : mid <= e1 ? "measured" : "after"));
		json_array_append_new(arr, o);
	}
	return arr;
}

json_t *hostview_series_join(const struct hostview_series *s, const struct hostview_guest *g,
			     struct err *e)
{
	const struct hostview_sample *a = &s->first, *b = &s->last;
	const struct qmp_drive *d1, *dl;
	double v0[NCNT], v1[NCNT], c0[HOST_ROLE_NR], c1[HOST_ROLE_NR], t0, t1, e0, e1, end_ms;
	struct hostview_window w;
	struct align al;
	char why[200], text[400];
	json_t *o, *win;
	size_t k;

	if (s->n < 2 || !b->t_ns)
		return err_set(e, -ENODATA, EXIT_USAGE, "--host-qmp: one sample only (%s)",
			       s->lost ? s->lost_msg : "none after the run"), NULL;
	if (!(d1 = hostview_pick_drive(s->cfg, a, b, why, sizeof(why), e)))
		return NULL;
	for (k = 0; k < s->nd && strcmp(s->first.d[k].name, d1->name); k++)
		;
	if (k == s->nd)
		return err_set(e, -ENOENT, EXIT_USAGE, "--host-qmp: drive '%.100s' was not there "
			       "before the run", d1->name), NULL;
	align(s, k, g, &al);
	end_ms = g && g->n ? g->t_ms[g->n - 1] : 0;
	e0 = al.ok ? al.start_ns + (g->ramp_ms > 0 ? g->ramp_ms : 0) * 1e6 : (double)s->pt[0].t_ns;
	e1 = al.ok ? al.start_ns + end_ms * 1e6 : (double)s->pt[s->n - 1].t_ns;
	value_at(s, k, &al, g, e0, v0, c0, &t0);
	value_at(s, k, &al, g, e1, v1, c1, &t1);
	memset(&w, 0, sizeof(w));
	dl = d1;	/* the cache mode and image as last seen */
	w.d = *dl;
	w.d.rd_ops = rounded(v1[0] - v0[0]), w.d.wr_ops = rounded(v1[1] - v0[1]);
	w.d.flush_ops = rounded(v1[2] - v0[2]), w.d.rd_bytes = rounded(v1[3] - v0[3]);
	w.d.wr_bytes = rounded(v1[4] - v0[4]), w.d.rd_ns = rounded(v1[5] - v0[5]);
	w.d.wr_ns = rounded(v1[6] - v0[6]), w.d.flush_ns = rounded(v1[7] - v0[7]);
	for (int r = 0; r < HOST_ROLE_NR; r++)
		w.cpu[r] = c1[r] - c0[r] > 0 ? c1[r] - c0[r] : 0;
	w.cpu_total = t1 - t0 > 0 ? t1 - t0 : 0;
	{
		double lo = e0 > (double)s->pt[0].t_ns ? e0 : (double)s->pt[0].t_ns;
		double hi = e1 < (double)s->pt[s->n - 1].t_ns ? e1 : (double)s->pt[s->n - 1].t_ns;

		w.t_s = hi > lo ? (hi - lo) / 1e9 : 0;
	}
	o = hostview_window_json(s->cfg, &w, a, b, g, why, e);
	if (!o)
		return NULL;
	if (al.ok)
		snprintf(text, sizeof(text), "the guest job's measured time (%s): its start on the "
			 "host's clock from %zu sample(s) taken while it ran (their median distance %.1f "
			 "ms), then its own series' ramp and end", g->ramp_ms > 0 ? "ramp excluded" :
			 "no ramp", al.used, al.spread_ms);
	else
		snprintf(text, sizeof(text), "the whole run, from the sample before it to the one "
			 "after (%s)", g && g->n ? "no sample fell inside the job: a run shorter than "
			 "the series interval" : "the guest's result has no series");
	win = json_pack("{s:s, s:s, s:f, s:f, s:f, s:b}", "from", al.ok ? "measured" : "run",
			"text", text, "ramp_ms", al.ok ? g->ramp_ms : 0.0,
			"end_ms", al.ok ? end_ms : ((double)s->pt[s->n - 1].t_ns - (double)s->pt[0].t_ns) / 1e6,
			"align_spread_ms", al.ok ? al.spread_ms : 0.0,
			"partial", s->lost && e1 > (double)s->pt[s->n - 1].t_ns);
	if (win && s->lost)
		json_object_set_new(win, "lost", json_sprintf("the QMP socket went away %.1f s into "
				    "the run (%s): the host's figures stop at the last sample",
				    (double)(s->lost_ns - s->pt[0].t_ns) / 1e9, s->lost_msg));
	/* check says so too: the figures cover less than the guest's window */
	if (s->lost && e1 > (double)s->pt[s->n - 1].t_ns)
		json_array_append_new(json_object_get(o, "pitfalls"), json_pack("{s:s, s:s}", "id",
				      "host_partial", "text", "the QMP socket went away before the "
				      "guest's measured window ended: the host's figures cover its "
				      "part before the last sample, against all of the guest's I/Os"));
	json_object_set_new(o, "window", win);
	json_object_set_new(o, "series_interval_ms", json_real((double)s->period_ns / 1e6));
	json_object_set_new(o, "series_from", json_string(
		"QMP and QEMU's threads sampled every series_interval_ms (the guest job's "
		"series_interval) while the runner ran; t_ms: end of each interval, ms since the "
		"guest's job started I/O as placed by the window's alignment (before it: negative; "
		"without an alignment, since the sample before the run)"));
	json_object_set_new(o, "series", series_json(s, k, &al, e0, e1));
	return o;
}
