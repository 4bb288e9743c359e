/*
 * steady_stream: steady_find, one interval at a time (see steady_stream.h).
 * Every computation mirrors steady.c's, in the same order, so that the
 * doubles come out bit for bit the same.
 */
#include "steady/steady_stream.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void steady_stream_free(struct steady_stream *ss)
{
	if (!ss)
		return;
	free(ss->iops);
	free(ss->bw);
	free(ss->lat);
	free(ss->first);
	free(ss->start_ms);
	free(ss->mb);
	free(ss->tail);
	steady_free(&ss->win);
	memset(ss, 0, sizeof(*ss));
}

int steady_stream_init(struct steady_stream *ss, const struct steady_cfg *c)
{
	size_t w = c->window;

	memset(ss, 0, sizeof(*ss));
	steady_init(&ss->win);
	ss->cfg = *c;
	ss->win.cfg = *c;
	ss->mser_max = STEADY_STREAM_MSER_MAX;
	ss->mser_batch = MSER_BATCH;
	if (c->rule == STEADY_OFF || !c->window || !c->round_intervals)
		return -EINVAL;
	ss->iops = calloc(w, sizeof(double));
	ss->bw = calloc(w, sizeof(double));
	ss->lat = calloc(w, sizeof(double));
	ss->first = calloc(w, sizeof(size_t));
	ss->start_ms = calloc(w, sizeof(uint64_t));
	ss->win.iops = calloc(w, sizeof(double));
	ss->win.bw = calloc(w, sizeof(double));
	ss->win.lat = calloc(w, sizeof(double));
	if (!ss->iops || !ss->bw || !ss->lat || !ss->first || !ss->start_ms ||
	    !ss->win.iops || !ss->win.bw || !ss->win.lat) {
		steady_stream_free(ss);
		return -ENOMEM;
	}
	return 0;
}

static double pick(const struct steady_cfg *c, double iops, double bw, double lat)
{
	return c->metric == STEADY_BW ? bw : c->metric == STEADY_LAT ? lat : iops;
}

/* Load the last @n complete rounds (oldest first) into ss->win and judge them. */
static void load_window(struct steady_stream *ss, unsigned n, int full)
{
	struct steady *w = &ss->win;
	size_t w0 = ss->rounds - n, cap = ss->cfg.window;

	for (unsigned j = 0; j < n; j++) {
		size_t r = (w0 + j) % cap;

		w->iops[j] = ss->iops[r];
		w->bw[j] = ss->bw[r];
		w->lat[j] = ss->lat[r];
	}
	w->nr = n;
	w->evaluated = full;
	w->first = ss->first[w0 % cap];
	w->last = w->first + (size_t)n * ss->cfg.round_intervals - 1;
	w->start_ms = ss->start_ms[w0 % cap];
	w->end_ms = ss->last_end_ms;
	steady_window_stats(w);
}

/* A round just completed: ring it, then search or hold (steady_find's loop). */
static int round_done(struct steady_stream *ss, const struct series *s)
{
	const struct steady_cfg *c = &ss->cfg;
	struct steady *w = &ss->win;
	int ret;
	size_t r = ss->rounds % c->window;
	double iops = (double)ss->r_ios * 1e6 / (double)ss->r_dur;
	double bw = (double)ss->r_bytes * 1e6 / (double)ss->r_dur;
	double lat = ss->r_ios ? ss->r_lat / (double)ss->r_ios : 0.0;
	double y;

	if (c->rule == STEADY_FIO) {
		iops = floor(iops);
		bw = floor(bw);
	}
	ss->rounds++;
	if (ss->found) {
		/* steady_hold: one comparison against the band per round */
		y = pick(c, iops, bw, lat);
		w->after++;
		if (w->held && (y < w->band_lo * (1 - STEADY_EPS) || y > w->band_hi * (1 + STEADY_EPS))) {
			w->held = 0;
			w->lost_ms = ss->r_start_ms;
			free(ss->tail);	/* lost: the tail will start at MSER's point */
			ss->tail = NULL;
		}
		if (!w->held) {
			ss->lost_sum += y;
			ss->lost_n++;
		}
		return 0;
	}
	ss->iops[r] = iops;
	ss->bw[r] = bw;
	ss->lat[r] = lat;
	ss->first[r] = ss->r_first;
	ss->start_ms[r] = ss->r_start_ms;
	if (ss->rounds < c->window)
		return 0;
	load_window(ss, c->window, 1);
	if (!w->attained)
		return 0;
	ss->found = 1;
	w->held = 1;
	{
		double half = steady_band(c, w->mean);

		w->band_lo = w->mean - half;
		w->band_hi = w->mean + half;
	}
	w->after = 0;
	ret = steady_fill_dirs(w, s);	/* from the caller's series (see the top) */
	if (ret)
		return ret;
	/* the tail from the window's start, while it holds: running sums */
	ss->tail = malloc(DDIR_NR * sizeof(*ss->tail));
	if (!ss->tail)
		return -ENOMEM;
	for (int d = 0; d < DDIR_NR; d++)
		series_window(s, w->first, w->last, (enum ddir)d, &ss->tail[d]);
	return 0;
}

/* The value of the tracked metric over a batch: steady_metric's formula. */
static double batch_metric(const struct steady_cfg *c, const struct steady_stream_batch *b)
{
	double iops = (double)b->ios * 1e6 / (double)b->dur_us;
	double bw = (double)b->bytes * 1e6 / (double)b->dur_us;
	double lat = b->ios ? b->lat / (double)b->ios : 0.0;

	return pick(c, iops, bw, lat);
}

/* Add eligible interval @iv to the filling MSER batch; halve the array when full. */
static int mser_add(struct steady_stream *ss, const struct series_iv *iv, uint64_t start)
{
	const struct steady_cfg *c = &ss->cfg;
	struct steady_stream_batch *b;

	if (!ss->mb) {
		if (ss->mser_max < 4)
			ss->mser_max = 4;
		ss->mser_max &= ~(size_t)1;	/* pairs only */
		ss->mb = calloc(ss->mser_max + 1, sizeof(*ss->mb));
		if (!ss->mb)
			return -ENOMEM;
	}
	b = &ss->mb[ss->mser_nr];
	if (!ss->mb_k) {
		memset(b, 0, sizeof(*b));
		b->start_ms = start;
	}
	b->dur_us += iv->dur_us;
	for (int d = 0; d < DDIR_NR; d++) {
		if (c->ddir >= 0 && c->ddir != d)
			continue;
		b->ios += iv->d[d].ios;
		b->bytes += iv->d[d].bytes;
		b->lat += (double)iv->d[d].lat_sum_ns;
	}
	if (++ss->mb_k < ss->mser_batch)
		return 0;
	ss->mb_k = 0;
	if (++ss->mser_nr < ss->mser_max)
		return 0;
	/* full: merge pairs, exactly; new batches are twice as long */
	for (size_t j = 0; j < ss->mser_max / 2; j++) {
		struct steady_stream_batch m = ss->mb[2 * j];
		const struct steady_stream_batch *n = &ss->mb[2 * j + 1];

		m.ios += n->ios;
		m.bytes += n->bytes;
		m.dur_us += n->dur_us;
		m.lat += n->lat;
		ss->mb[j] = m;
	}
	ss->mser_nr = ss->mser_max / 2;
	ss->mser_batch *= 2;
	return 0;
}

int steady_stream_mser(const struct steady_stream *ss, struct steady *out)
{
	size_t k = ss->mser_nr;
	double *b;

	out->mser_ok = 0;
	memset(&out->mser, 0, sizeof(out->mser));
	out->mser_ms = 0;
	if (k < 3)
		return 0;
	b = malloc(k * sizeof(*b));
	if (!b)
		return -ENOMEM;
	for (size_t j = 0; j < k; j++)
		b[j] = batch_metric(&ss->cfg, &ss->mb[j]);
	if (!mser_compute(b, k, &out->mser)) {
		out->mser_ok = 1;
		out->mser_ms = ss->mb[out->mser.truncate].start_ms;
		out->mser_batch = ss->mser_batch;
	}
	free(b);
	return 0;
}

int steady_stream_add(struct steady_stream *ss, const struct series *s, size_t i)
{
	const struct steady_cfg *c = &ss->cfg;
	const struct series_iv *iv;
	uint64_t start;
	int r;

	if (!ss->iops || i != ss->fed || i < s->base || i >= series_end(s))
		return -EINVAL;
	iv = series_at(s, i);
	ss->fed++;
	if (iv->ramp)
		return 0;
	start = series_iv_start_ms(s, i);
	if (!ss->measuring) {
		ss->measuring = 1;
		ss->m0 = start;
	}
	/* steady_first_eligible: the first interval starting ss_ramp after m0 */
	if (!ss->eligible) {
		if (start < ss->m0 + c->ramp_ms)
			return 0;
		ss->eligible = 1;
		ss->e_first = i;
	}
	r = mser_add(ss, iv, start);
	if (r)
		return r;
	if (ss->tail) {
		/* the held window's tail runs on: one more interval */
		for (int d = 0; d < DDIR_NR; d++)
			series_window_add(&ss->tail[d], s, i, (enum ddir)d);
	}
	if (!ss->r_k) {
		ss->r_first = i;
		ss->r_start_ms = start;
		ss->r_ios = ss->r_bytes = ss->r_dur = 0;
		ss->r_lat = 0;
	}
	/* span_values' order: interval by interval, direction by direction */
	ss->r_dur += iv->dur_us;
	for (int d = 0; d < DDIR_NR; d++) {
		if (c->ddir >= 0 && c->ddir != d)
			continue;
		ss->r_ios += iv->d[d].ios;
		ss->r_bytes += iv->d[d].bytes;
		ss->r_lat += (double)iv->d[d].lat_sum_ns;
	}
	if (++ss->r_k < c->round_intervals)
		return 0;
	ss->r_k = 0;
	ss->last_end_ms = iv->t_ms;
	return round_done(ss, s);
}

static double *dup_d(const double *v, size_t n)
{
	double *p = calloc(n, sizeof(double));

	if (p && v)
		memcpy(p, v, n * sizeof(double));
	return p;
}

int steady_stream_result(const struct steady_stream *ss, struct steady *out)
{
	const struct steady *w = &ss->win;
	size_t n = ss->cfg.window;

	steady_free(out);
	*out = *w;
	out->iops = out->bw = out->lat = NULL;
	memset(out->dir, 0, sizeof(out->dir));
	out->tail = NULL;
	out->iops = dup_d(w->iops, n);
	out->bw = dup_d(w->bw, n);
	out->lat = dup_d(w->lat, n);
	if (!out->iops || !out->bw || !out->lat)
		goto nomem;
	for (int d = 0; d < DDIR_NR; d++) {
		if (!w->dir[d])
			continue;
		out->dir[d] = malloc(sizeof(*out->dir[d]));
		if (!out->dir[d])
			goto nomem;
		*out->dir[d] = *w->dir[d];
	}
	if (ss->found) {
		if (!out->held)
			out->lost_mean = ss->lost_sum / (double)ss->lost_n;
		return 0;
	}
	if (ss->rounds && ss->rounds < n) {
		/* steady_find's partial window: all the rounds, not evaluated */
		struct steady_stream tmp = *ss;

		tmp.win = *out;
		load_window(&tmp, (unsigned)ss->rounds, 0);
		*out = tmp.win;
	}
	return 0;
nomem:
	steady_free(out);
	return -ENOMEM;
}

size_t steady_stream_keep(const struct steady_stream *ss)
{
	size_t keep = ss->fed, n, w = ss->cfg.window;

	if (ss->found || !ss->eligible || !w)
		return keep;
	if (ss->r_k && ss->r_first < keep)
		keep = ss->r_first;
	/* the next window is the ring's newest W - 1 rounds and the one filling */
	n = ss->rounds < w ? ss->rounds : w;
	if (n && ss->first[(ss->rounds - n) % w] < keep)
		keep = ss->first[(ss->rounds - n) % w];
	return keep;
}

size_t steady_stream_mem(const struct steady_stream *ss)
{
	size_t m = sizeof(*ss) + (size_t)ss->cfg.window *
		   (6 * sizeof(double) + sizeof(size_t) + sizeof(uint64_t));

	for (int d = 0; d < DDIR_NR; d++)
		if (ss->win.dir[d])
			m += sizeof(*ss->win.dir[d]);
	if (ss->mb)
		m += (ss->mser_max + 1) * sizeof(*ss->mb);
	if (ss->tail)
		m += DDIR_NR * sizeof(*ss->tail);
	return m;
}
