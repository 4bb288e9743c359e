/*
 * steady: steady-state criteria over a series (steady.h).
 *
 * The series is cut into rounds aligned on the first eligible interval; each
 * round's IOPS, bandwidth and mean latency are computed from its I/O counts
 * and real durations.  A window is W consecutive rounds; its statistics are
 * the mean, range, least-squares slope (x = round index) and largest
 * deviation from the mean of the tracked metric.
 */
#include "steady.h"
#include "steady_tail.h"

#include <errno.h>	/* EINVAL, ENOMEM */
#include <math.h>	/* fabs, floor */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* memset */

static const char *const steady_metric_name[] = { "iops", "bw", "lat" };
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

/* Interval indexes here are the run's (series.h: a trimmed series holds base on). */
static uint64_t iv_start_ms(const struct series *s, size_t i)
{
	const struct series_iv *iv = series_at(s, i);
	uint64_t d = (iv->dur_us + 500) / 1000;

	return iv->t_ms > d ? iv->t_ms - d : 0;
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

static const double *metric_values(const struct steady *st)
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
	const double *y = metric_values(st);
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

/* fio's name for the criterion: iops, iops_slope, bw, bw_slope */
static const char *fio_metric(const struct steady_cfg *c)
{
	if (c->metric == STEADY_BW)
		return c->fio_slope ? "bw_slope" : "bw";
	return c->fio_slope ? "iops_slope" : "iops";
}

static double round_secs(const struct steady_cfg *c)
{
	return (double)c->round_us / 1e6;
}

void steady_spec(const struct steady_cfg *c, char *buf, size_t len)
{
	const char *dir = c->ddir >= 0 && c->ddir < DDIR_NR ? ddir_name(c->ddir) : NULL;

	if (c->rule == STEADY_FIO)
		snprintf(buf, len, "%s:%f%s", fio_metric(c), c->fio_limit, c->fio_pct ? "%" : "");
	else if (c->rule == STEADY_SNIA)
		snprintf(buf, len, "snia %s%s%s: range <= %g%%, slope excursion <= %g%%, %u rounds of %g s",
			 dir ? dir : "", dir ? " " : "", steady_metric_name[c->metric],
			 c->range_pct, c->excursion_pct, c->window, round_secs(c));
	else
		snprintf(buf, len, "off");
}

static json_t *values_json(const double *v, unsigned n, int whole)
{
	json_t *a = json_array();

	for (unsigned i = 0; a && i < n; i++) {
		json_t *x = whole ? json_integer((json_int_t)v[i]) : json_real(v[i]);

		if (json_array_append_new(a, x)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* Add the measured values and limits to @o. */
static int measured_json(const struct steady *st, json_t *o)
{
	const struct steady_cfg *c = &st->cfg;
	json_t *limits;
	int err = 0;

	err |= json_object_set_new(o, "mean", json_real(st->mean));
	err |= json_object_set_new(o, "min", json_real(st->min));
	err |= json_object_set_new(o, "max", json_real(st->max));
	err |= json_object_set_new(o, "range_pct", json_real(st->range_pct));
	err |= json_object_set_new(o, "slope", json_real(st->slope));
	err |= json_object_set_new(o, "slope_excursion_pct", json_real(st->excursion_pct));
	err |= json_object_set_new(o, "max_deviation", json_real(st->max_deviation));
	if (c->rule == STEADY_FIO) {
		err |= json_object_set_new(o, "fio_criterion", json_real(st->criterion));
		limits = json_pack("{s:s, s:f, s:b}", "ss", fio_metric(c), "limit", c->fio_limit,
				   "pct", c->fio_pct);
	} else {
		limits = json_pack("{s:f, s:f}", "range_pct", c->range_pct,
				   "slope_excursion_pct", c->excursion_pct);
	}
	err |= json_object_set_new(o, "limits", limits);
	err |= json_object_set_new(o, "values", values_json(metric_values(st), st->nr, 0));
	return err ? -ENOMEM : 0;
}

int steady_to_json(const struct steady *st, json_t **out)
{
	const struct steady_cfg *c = &st->cfg;
	char spec[160];
	json_t *o;
	int err = 0;

	steady_spec(c, spec, sizeof(spec));
	o = json_pack("{s:s, s:s, s:s, s:b, s:i, s:I, s:i}",
		      "criterion", c->rule == STEADY_FIO ? "fio" : "snia", "spec", spec,
		      "metric", steady_metric_name[c->metric], "attained", st->attained,
		      "window_rounds", (int)c->window, "round_ms", (json_int_t)(c->round_us / 1000),
		      "rounds", (int)st->nr);
	if (!o)
		return -ENOMEM;
	if (st->evaluated) {
		err |= json_object_set_new(o, "start_ms", json_integer((json_int_t)st->start_ms));
		err |= json_object_set_new(o, "end_ms", json_integer((json_int_t)st->end_ms));
	}
	if (st->nr)
		err |= measured_json(st, o);
	if (st->attained) {
		err |= json_object_set_new(o, "held", json_boolean(st->held));
		err |= json_object_set_new(o, "rounds_after", json_integer(st->after));
		err |= json_object_set_new(o, "band", json_pack("[f, f]", st->band_lo, st->band_hi));
		if (!st->held) {
			err |= json_object_set_new(o, "lost_ms", json_integer((json_int_t)st->lost_ms));
			err |= json_object_set_new(o, "lost_mean", json_real(st->lost_mean));
		}
	}
	if (!err)
		err |= steady_tail_to_json(st, o);
	for (int d = 0; d < DDIR_NR && !err; d++) {
		json_t *w;

		if (!st->attained || !st->dir[d])
			continue;
		err |= series_window_to_json(st->dir[d], &w);
		if (!err)
			err |= json_object_set_new(o, ddir_name(d), w);
	}
	if (err) {
		json_decref(o);
		return -ENOMEM;
	}
	*out = o;
	return 0;
}

static double mean_of(const double *v, unsigned n)
{
	double s = 0;

	for (unsigned i = 0; i < n; i++)
		s += v[i];
	return n ? s / n : 0.0;
}

int steady_fio_json(const struct steady *st, json_t **out)
{
	const struct steady_cfg *c = &st->cfg;
	char ss[64], crit[64];
	json_t *data, *o;
	double slope_s = st->slope * 1e6 / (double)c->round_us;

	if (c->rule != STEADY_FIO)
		return -EINVAL;
	steady_spec(c, ss, sizeof(ss));
	/* fio narrows the criterion to float before printing it: so do we */
	snprintf(crit, sizeof(crit), "%f%s", (double)(float)st->criterion, c->fio_pct ? "%" : "");
	data = json_pack("{s:I, s:I, s:o, s:o}",
			 "bw_mean", (json_int_t)mean_of(st->bw, st->nr),
			 "iops_mean", (json_int_t)mean_of(st->iops, st->nr),
			 "iops", values_json(st->iops, st->nr, 1),
			 "bw", values_json(st->bw, st->nr, 1));
	/* fio fills only the active criterion's figure, the other stays 0 */
	o = json_pack("{s:s, s:I, s:i, s:s, s:f, s:f, s:o}", "ss", ss,
		      "duration", (json_int_t)((uint64_t)c->window * c->round_us / 1000000),
		      "attained", st->attained, "criterion", crit,
		      "max_deviation", c->fio_slope ? 0.0 : st->max_deviation,
		      "slope", c->fio_slope ? slope_s : 0.0, "data", data);
	if (!o)
		return -ENOMEM;
	*out = o;
	return 0;
}

/* A metric value with its unit. */
static void fmt_metric(char *buf, size_t len, enum steady_metric m, double v)
{
	if (m == STEADY_BW)
		snprintf(buf, len, "%.2f MiB/s", v / 1048576.0);
	else if (m == STEADY_LAT)
		snprintf(buf, len, "%.2f usec", v / 1000.0);
	else
		snprintf(buf, len, "%.0f IOPS", v);
}

/* Why the criterion failed, e.g. "range 25.00% > 20%". */
static void fmt_reason(char *buf, size_t len, const struct steady *st)
{
	const struct steady_cfg *c = &st->cfg;
	const char *u = c->fio_pct ? "%" : "";

	if (!st->evaluated) {
		snprintf(buf, len, "%u of %u rounds measured after ramp", st->nr, c->window);
	} else if (st->mean <= 0) {
		snprintf(buf, len, "no I/O in the window");
	} else if (c->rule == STEADY_FIO) {
		snprintf(buf, len, "%s %.6g%s >= %.6g%s", c->fio_slope ? "slope" : "max deviation",
			 fabs(st->criterion), u, c->fio_limit, u);
	} else {
		int r = st->range_pct > c->range_pct * (1 + STEADY_EPS);
		int x = st->excursion_pct > c->excursion_pct * (1 + STEADY_EPS);

		snprintf(buf, len, "%s%.2f%% %s %g%%, slope excursion %.2f%% %s %g%%",
			 "range ", st->range_pct, r ? ">" : "<=", c->range_pct,
			 st->excursion_pct, x ? ">" : "<=", c->excursion_pct);
	}
}

/* "held to the end (8 rounds after)" or "lost at 6.000 s (IOPS fell 70%)" */
static void fmt_hold(char *buf, size_t len, const struct steady *st)
{
	static const char *const what[] = { "IOPS", "bandwidth", "latency" };
	double ch;

	if (st->held) {
		snprintf(buf, len, "held to the end (%u round%s after)", st->after,
			 st->after == 1 ? "" : "s");
		return;
	}
	ch = st->mean > 0 ? (st->lost_mean - st->mean) / st->mean * 100.0 : 0.0;
	snprintf(buf, len, "lost at %.3f s (%s %s %.0f%%)", (double)st->lost_ms / 1000.0,
		 what[st->cfg.metric], ch < 0 ? "fell" : "rose", fabs(ch));
}

void steady_print_text(FILE *f, const struct steady *st)
{
	const struct steady_cfg *c = &st->cfg;
	char spec[160], buf[160], mean[48];

	steady_spec(c, spec, sizeof(spec));
	if (!st->attained) {
		fmt_reason(buf, sizeof(buf), st);
		fprintf(f, "  steady state NOT reached (%s: %s)\n", spec, buf);
		steady_tail_print_text(f, st);
		return;
	}
	fmt_metric(mean, sizeof(mean), c->metric, st->mean);
	fprintf(f, "  steady state reached (%s)\n", spec);
	fmt_hold(buf, sizeof(buf), st);
	fprintf(f, "    reached at %.3f-%.3f s, %s\n", (double)st->start_ms / 1000.0,
		(double)st->end_ms / 1000.0, buf);
	if (c->rule == STEADY_FIO)
		fprintf(f, "    window: mean %s, %s %.6g%s\n", mean,
			c->fio_slope ? "slope" : "max deviation", st->criterion, c->fio_pct ? "%" : "");
	else
		fprintf(f, "    window: mean %s, range %.2f%%, slope excursion %.2f%%\n", mean,
			st->range_pct, st->excursion_pct);
	for (int d = 0; d < DDIR_NR; d++) {
		const struct series_window *w = st->dir[d];

		if (!w)
			continue;
		fprintf(f, "    %-5s: iops=%.1f, bw=%.2f MiB/s, lat (usec): mean=%.2f, p50=%.2f, p99=%.2f, p99.9=%.2f\n",
			ddir_name(d), w->iops, w->bw_bytes / 1048576.0, w->lat_mean / 1000.0,
			(double)w->p50 / 1000.0, (double)w->p99 / 1000.0, (double)w->p999 / 1000.0);
	}
	steady_tail_print_text(f, st);
}
