/*
 * steady: steady-state criteria over a series (steady.h).
 *
 * The series is cut into rounds aligned on the first eligible interval; each
 * round's IOPS, bandwidth and mean latency are computed from its I/O counts
 * and real durations.  A window is W consecutive rounds; its statistics are
 * the mean, range, least-squares slope (x = round index) and largest
 * deviation from the mean of the tracked metric.
 */
#include "steady/steady.h"

#include <errno.h>	/* EINVAL, ENOMEM */
#include <math.h>	/* fabs, floor */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* memset */

void steady_cfg_snia(struct steady_cfg *c, uint64_t interval_us)
{
	memset(c, 0, sizeof(*c));
	c->rule = STEADY_SNIA;
	c->metric = STEADY_IOPS;
	c->ddir = -1;
	c->window = 5;
	c->round_intervals = 1;
	c->round_us = interval_us ? interval_us : 1000000;
	c->range_pct = 20.0;
	c->excursion_pct = 10.0;
}

int steady_cfg_from_job(struct steady_cfg *c, const struct job *j)
{
	uint64_t iv = j->interval_us ? j->interval_us : 1000000;

	memset(c, 0, sizeof(*c));
	c->ddir = -1;
	if (j->ss_metric == SS_NONE || !j->ss_dur_us)
		return 0;
	/* fio samples once a second: aggregate sub-second intervals into seconds */
	if (iv < 1000000) {
		if (1000000 % iv)
			return -EINVAL;
		c->round_intervals = (unsigned)(1000000 / iv);
	} else {
		c->round_intervals = 1;
	}
	c->rule = STEADY_FIO;
	c->round_us = iv * c->round_intervals;
	c->window = (unsigned)(j->ss_dur_us / c->round_us);
	if (!c->window)
		c->window = 1;
	c->ramp_ms = j->ss_ramp_us / 1000;
	c->metric = (j->ss_metric == SS_BW || j->ss_metric == SS_BW_SLOPE) ? STEADY_BW : STEADY_IOPS;
	c->fio_slope = j->ss_metric == SS_IOPS_SLOPE || j->ss_metric == SS_BW_SLOPE;
	c->fio_limit = j->ss_limit;
	c->fio_pct = j->ss_pct;
	return 0;
}

void steady_init(struct steady *st)
{
	memset(st, 0, sizeof(*st));
}

void steady_free(struct steady *st)
{
	if (!st)
		return;
	free(st->iops);
	free(st->bw);
	free(st->lat);
	for (int d = 0; d < DDIR_NR; d++)
		free(st->dir[d]);
	steady_tail_free(st->tail);
	steady_init(st);
}

void steady_tail_free(struct steady_tail *t)
{
	if (!t)
		return;
	for (int d = 0; d < DDIR_NR; d++)
		free(t->dir[d]);
	free(t);
}

/* Interval indexes here are the run's (series.h: a trimmed series holds base on). */
static uint64_t iv_start_ms(const struct series *s, size_t i)
{
	return series_iv_start_ms(s, i);
}

/*
 * On a trimmed series the intervals before base are gone: the caller that
 * trims (the worker) keeps every interval from the first eligible one on,
 * so the ones dropped were not eligible, and the first measured one's start
 * was kept (m0_ms).
 */
size_t steady_first_eligible(const struct steady_cfg *c, const struct series *s)
{
	size_t i = series_ramp_end(s), end = series_end(s);
	uint64_t m0;

	if (i >= end)
		return end;
	if (i < s->base) {
		m0 = s->has_m0 ? s->m0_ms : iv_start_ms(s, s->base);
		i = s->base;
	} else {
		m0 = iv_start_ms(s, i);
	}
	while (i < end && iv_start_ms(s, i) < m0 + c->ramp_ms)
		i++;
	return i;
}

/* The three values over intervals [@i0, @i0 + @n), exact. */
static void span_values(const struct steady_cfg *c, const struct series *s, size_t i0, size_t n,
			double *iops, double *bw, double *lat)
{
	uint64_t ios = 0, bytes = 0, dur = 0;
	double lat_sum = 0;

	for (size_t i = i0; i < i0 + n; i++) {
		const struct series_iv *iv = series_at(s, i);

		dur += iv->dur_us;
		for (int d = 0; d < DDIR_NR; d++) {
			if (c->ddir >= 0 && c->ddir != d)
				continue;
			ios += iv->d[d].ios;
			bytes += iv->d[d].bytes;
			lat_sum += (double)iv->d[d].lat_sum_ns;
		}
	}
	*iops = (double)ios * 1e6 / (double)dur;
	*bw = (double)bytes * 1e6 / (double)dur;
	*lat = ios ? lat_sum / (double)ios : 0.0;
}

double steady_metric(const struct steady_cfg *c, const struct series *s, size_t first, size_t n)
{
	double v[3];

	span_values(c, s, first, n, &v[0], &v[1], &v[2]);
	return c->metric == STEADY_BW ? v[1] : c->metric == STEADY_LAT ? v[2] : v[0];
}

/* The three round values of the round starting at interval @i0. */
static void round_values(const struct steady_cfg *c, const struct series *s, size_t i0,
			 double *iops, double *bw, double *lat)
{
	span_values(c, s, i0, c->round_intervals, iops, bw, lat);
	if (c->rule == STEADY_FIO) {
		/* whole numbers, as in fio's data arrays */
		*iops = floor(*iops);
		*bw = floor(*bw);
	}
}

const double *steady_values(const struct steady *st)
{
	switch (st->cfg.metric) {
	case STEADY_BW:
		return st->bw;
	case STEADY_LAT:
		return st->lat;
	default:
		return st->iops;
	}
}

/* Window statistics of st's nr values, and the verdict. */
static void window_stats(struct steady *st)
{
	const struct steady_cfg *c = &st->cfg;
	const double *y = steady_values(st);
	unsigned n = st->nr;
	double sum = 0, sxx = 0, sxy = 0, xm = (double)(n - 1) / 2.0;

	st->min = st->max = y[0];
	for (unsigned i = 0; i < n; i++) {
		sum += y[i];
		if (y[i] < st->min)
			st->min = y[i];
		if (y[i] > st->max)
			st->max = y[i];
	}
	st->mean = sum / n;
	st->max_deviation = 0;
	for (unsigned i = 0; i < n; i++) {
		double dx = (double)i - xm, dy = y[i] - st->mean;

		sxx += dx * dx;
		sxy += dx * dy;
		if (fabs(dy) > st->max_deviation)
			st->max_deviation = fabs(dy);
	}
	st->slope = n > 1 ? sxy / sxx : 0.0;
	st->range_pct = st->mean > 0 ? (st->max - st->min) / st->mean * 100.0 : 0.0;
	st->excursion_pct = st->mean > 0 ?
		fabs(st->slope) * (double)(n - 1) / st->mean * 100.0 : 0.0;

	if (c->rule == STEADY_FIO) {
		double per_s = st->slope * 1e6 / (double)c->round_us;
		double v = c->fio_slope ? per_s : st->max_deviation;

		if (c->fio_pct)
			v = st->mean > 0 ? v / st->mean * 100.0 : 0.0;
		st->criterion = v;
		st->attained = st->evaluated && (!c->fio_pct || st->mean > 0) &&
			       fabs(v) < c->fio_limit;
	} else {
		st->attained = st->evaluated && st->mean > 0 &&
			       st->range_pct <= c->range_pct * (1 + STEADY_EPS) &&
			       st->excursion_pct <= c->excursion_pct * (1 + STEADY_EPS);
	}
}

void steady_window_stats(struct steady *st)
{
	window_stats(st);
}

int steady_judge(const struct steady_cfg *c, const double *y, unsigned n, double *mean)
{
	struct steady st;

	if (!n)
		return 0;
	memset(&st, 0, sizeof(st));
	st.cfg = *c;
	st.nr = n;
	st.evaluated = 1;
	/* window_stats only reads the metric's values: the cast is for the struct */
	st.iops = st.bw = st.lat = (double *)y;
	window_stats(&st);
	*mean = st.mean;
	return st.attained;
}

int steady_fill_dirs(struct steady *st, const struct series *s)
{
	for (int d = 0; d < DDIR_NR; d++) {
		struct series_window *w = malloc(sizeof(*w));

		if (!w)
			return -ENOMEM;
		if (series_window(s, st->first, st->last, (enum ddir)d, w) || !w->ios) {
			free(w);
			continue;
		}
		st->dir[d] = w;
	}
	return 0;
}

/*
 * Evaluate the window of @n rounds starting at round @r0 of the rounds that
 * begin at interval @e, into @out (arrays already sized for @n).
 */
static void eval_window(struct steady *out, const struct series *s, size_t e,
			size_t r0, unsigned n, int full)
{
	const struct steady_cfg *c = &out->cfg;

	out->nr = n;
	out->evaluated = full;
	out->first = e + r0 * c->round_intervals;
	out->last = out->first + (size_t)n * c->round_intervals - 1;
	out->start_ms = iv_start_ms(s, out->first);
	out->end_ms = series_at(s, out->last)->t_ms;
	for (unsigned i = 0; i < n; i++)
		round_values(c, s, out->first + (size_t)i * c->round_intervals,
			     &out->iops[i], &out->bw[i], &out->lat[i]);
	window_stats(out);
}

static int prepare(const struct steady_cfg *c, const struct series *s, struct steady *out,
		   size_t *e, size_t *rounds)
{
	steady_free(out);
	out->cfg = *c;
	if (c->rule == STEADY_OFF || !c->window || !c->round_intervals)
		return -EINVAL;
	*e = steady_first_eligible(c, s);
	*rounds = (series_end(s) - *e) / c->round_intervals;
	out->iops = calloc(c->window, sizeof(double));
	out->bw = calloc(c->window, sizeof(double));
	out->lat = calloc(c->window, sizeof(double));
	if (!out->iops || !out->bw || !out->lat) {
		steady_free(out);
		return -ENOMEM;
	}
	return 0;
}

int steady_check(const struct steady_cfg *c, const struct series *s, struct steady *out)
{
	size_t e, rounds;
	int ret = prepare(c, s, out, &e, &rounds);

	if (ret)
		return ret;
	if (!rounds)
		return 0;
	if (rounds < c->window)
		eval_window(out, s, e, 0, (unsigned)rounds, 0);
	else
		eval_window(out, s, e, rounds - c->window, c->window, 1);
	return out->attained ? steady_fill_dirs(out, s) : 0;
}

double steady_band(const struct steady_cfg *c, double mean)
{
	double lim;

	if (c->rule != STEADY_FIO)
		return c->range_pct / 100.0 * mean;
	lim = c->fio_limit;
	if (c->fio_slope)
		lim *= (double)c->window * (double)c->round_us / 1e6;
	return c->fio_pct ? lim / 100.0 * mean : lim;
}

/*
 * Held or lost: the full rounds after the attained window (rounds from @r0,
 * of @rounds), each checked against the band.  The first one outside gives
 * lost_ms and, with all the rounds after it, lost_mean.
 */
static void steady_hold(struct steady *st, const struct series *s, size_t e, size_t r0,
			size_t rounds)
{
	const struct steady_cfg *c = &st->cfg;
	double half = steady_band(c, st->mean), sum = 0;
	size_t r, n = 0;

	st->held = 1;
	st->band_lo = st->mean - half;
	st->band_hi = st->mean + half;
	st->after = (unsigned)(rounds - r0);
	for (r = r0; r < rounds; r++) {
		double v[3], y;

		round_values(c, s, e + r * c->round_intervals, &v[0], &v[1], &v[2]);
		y = c->metric == STEADY_BW ? v[1] : c->metric == STEADY_LAT ? v[2] : v[0];
		if (st->held && (y < st->band_lo * (1 - STEADY_EPS) || y > st->band_hi * (1 + STEADY_EPS))) {
			st->held = 0;
			st->lost_ms = iv_start_ms(s, e + r * c->round_intervals);
		}
		if (!st->held) {
			sum += y;
			n++;
		}
	}
	if (!st->held)
		st->lost_mean = sum / (double)n;
}

int steady_find(const struct steady_cfg *c, const struct series *s, struct steady *out)
{
	size_t e, rounds, r0;
	int ret = prepare(c, s, out, &e, &rounds);

	if (ret)
		return ret;
	if (!rounds)
		return 0;
	if (rounds < c->window) {
		eval_window(out, s, e, 0, (unsigned)rounds, 0);
		return 0;
	}
	for (r0 = 0; r0 + c->window <= rounds; r0++) {
		eval_window(out, s, e, r0, c->window, 1);
		if (out->attained) {
			steady_hold(out, s, e, r0 + c->window, rounds);
			return steady_fill_dirs(out, s);
		}
	}
	return 0;	/* out holds the last window, not attained */
}
