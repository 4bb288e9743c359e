/*
 * steady_out: the steady-state result as JSON (iotrial's steady object and
 * fio's "steadystate") and as text lines: the output layer of steady/, over
 * the rule (steady.c) and the tail (steady_tail.c), which never call it.
 */
#include "steady/steady_out.h"

#include <errno.h>	/* EINVAL, ENOMEM */
#include <math.h>	/* fabs */
#include <stdio.h>	/* snprintf, fprintf */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* strlen, memcpy */

static const char *const steady_metric_name[] = { "iops", "bw", "lat" };

/* [lo, hi]; lo held at 0: with few batches t x sd can exceed a rate that cannot go negative */
static json_t *ci_json(double mean, double half)
{
	return json_pack("[f, f]", mean - half > 0 ? mean - half : 0.0, mean + half);
}

static int mser_json(const struct steady *st, json_t *o)
{
	const struct mser *m = &st->mser;
	json_t *v = json_pack("{s:I, s:f, s:f, s:f, s:I, s:I, s:i}",
			      "truncate_ms", (json_int_t)st->mser_ms, "mean", m->mean,
			      "sd", m->sd, "ci95", m->ci95, "batches", (json_int_t)m->batches,
			      "truncated_batches", (json_int_t)m->truncate,
			      "batch_intervals", st->mser_batch ? (int)st->mser_batch : MSER_BATCH);

	return v && !json_object_set_new(o, "mser", v) ? 0 : -ENOMEM;
}

static int steady_tail_to_json(const struct steady *st, json_t *o)
{
	const struct steady_tail *t = st->tail;
	json_t *v;
	int err = 0;

	if (st->mser_ok && mser_json(st, o))
		return -ENOMEM;
	if (!t)
		return 0;
	v = json_pack("{s:s, s:I, s:I, s:I, s:f}", "from", t->from_window ? "window" : "mser",
		      "start_ms", (json_int_t)t->start_ms, "end_ms", (json_int_t)t->end_ms,
		      "intervals", (json_int_t)t->intervals, "iops", t->iops);
	if (!v)
		return -ENOMEM;
	if (t->element_intervals > 1)	/* built from a coarsened series: say how */
		err |= json_object_set_new(v, "resolution", json_pack("{s:I, s:s}",
			"element_intervals", (json_int_t)t->element_intervals,
			"start", t->from_window ? "the held window's start (exact)" :
			"the first stored element at or after the MSER point"));
	if (t->batches >= 2) {
		err |= json_object_set_new(v, "iops_ci95", ci_json(t->iops, t->iops_ci95));
		err |= json_object_set_new(v, "batches", json_integer((json_int_t)t->batches));
		err |= json_object_set_new(v, "batch_intervals",
					   json_integer((json_int_t)t->batch_intervals));
	}
	for (int d = 0; d < DDIR_NR && !err; d++) {
		json_t *w;

		if (!t->dir[d])
			continue;
		err |= series_window_to_json(t->dir[d], &w);
		if (err)
			break;
		if (t->batches >= 2)
			err |= json_object_set_new(w, "iops_ci95", ci_json(t->dir[d]->iops, t->dir_ci95[d]));
		err |= json_object_set_new(v, ddir_name(d), w);
	}
	err |= json_object_set_new(o, "tail", v);
	return err ? -ENOMEM : 0;
}

/* " +- 0.31% (95%, 19 batches of 5 intervals)" or "" */
static void fmt_ci(char *buf, size_t len, double mean, double half, size_t k, size_t b)
{
	if (k < 2 || mean <= 0)
		snprintf(buf, len, " (too short for a confidence interval)");
	else
		snprintf(buf, len, " +- %.2f%% (95%%, %zu batches of %zu intervals)",
			 half / mean * 100.0, k, b);
}

static void steady_tail_print_text(FILE *f, const struct steady *st)
{
	static const char *const unit[] = { "IOPS", "B/s", "ns" };
	const struct steady_tail *t = st->tail;
	char ci[96];

	if (st->mser_ok) {
		fmt_ci(ci, sizeof(ci), st->mser.mean, st->mser.ci95, st->mser.batches,
		       st->mser_batch ? st->mser_batch : MSER_BATCH);
		fprintf(f, "  warm-up (MSER-5): %.3f s; after it mean %.0f %s%s\n",
			(double)st->mser_ms / 1000.0, st->mser.mean, unit[st->cfg.metric], ci);
	}
	if (!t)
		return;
	fmt_ci(ci, sizeof(ci), t->iops, t->iops_ci95, t->batches, t->batch_intervals);
	fprintf(f, "  steady tail %.3f-%.3f s (from the %s): %.0f IOPS%s\n",
		(double)t->start_ms / 1000.0, (double)t->end_ms / 1000.0,
		t->from_window ? "held window" : "MSER-5 truncation", t->iops, ci);
	for (int d = 0; d < DDIR_NR; d++) {
		const struct series_window *w = t->dir[d];

		if (!w)
			continue;
		fprintf(f, "    %-5s: iops=%.1f, bw=%.2f MiB/s, lat (usec): mean=%.2f, p50=%.2f, p99=%.2f, p99.9=%.2f\n",
			ddir_name(d), w->iops, w->bw_bytes / 1048576.0, w->lat_mean / 1000.0,
			(double)w->p50 / 1000.0, (double)w->p99 / 1000.0, (double)w->p999 / 1000.0);
	}
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
	err |= json_object_set_new(o, "values", values_json(steady_values(st), st->nr, 0));
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
	/*
	 * fio's arrays are always the window long: before the window filled,
	 * the rounds not measured yet are zeros (and count in the means), and
	 * the criterion, slope and deviation stay 0 (fio computes none yet).
	 */
	if (st->nr < c->window) {
		double *iops = calloc(c->window, sizeof(*iops)), *bw = calloc(c->window, sizeof(*bw));

		if (!iops || !bw) {
			free(iops);
			free(bw);
			return -ENOMEM;
		}
		if (st->nr) {
			memcpy(iops, st->iops, st->nr * sizeof(*iops));
			memcpy(bw, st->bw, st->nr * sizeof(*bw));
		}
		snprintf(crit, sizeof(crit), "%f%s", 0.0, c->fio_pct ? "%" : "");
		data = json_pack("{s:I, s:I, s:o, s:o}",
				 "bw_mean", (json_int_t)mean_of(bw, c->window),
				 "iops_mean", (json_int_t)mean_of(iops, c->window),
				 "iops", values_json(iops, c->window, 1),
				 "bw", values_json(bw, c->window, 1));
		free(iops);
		free(bw);
		slope_s = 0;
	} else {
		data = json_pack("{s:I, s:I, s:o, s:o}",
				 "bw_mean", (json_int_t)mean_of(st->bw, st->nr),
				 "iops_mean", (json_int_t)mean_of(st->iops, st->nr),
				 "iops", values_json(st->iops, st->nr, 1),
				 "bw", values_json(st->bw, st->nr, 1));
	}
	/* fio fills only the active criterion's figure, the other stays 0 */
	o = json_pack("{s:s, s:I, s:i, s:s, s:f, s:f, s:o}", "ss", ss,
		      "duration", (json_int_t)((uint64_t)c->window * c->round_us / 1000000),
		      "attained", st->attained, "criterion", crit,
		      "max_deviation", c->fio_slope || st->nr < c->window ? 0.0 : st->max_deviation,
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
		/* "after ramp" only where there was one: the measured rounds are
		 * too few, whatever came before them */
		snprintf(buf, len, "%u of the %u rounds it needs were measured%s", st->nr, c->window,
			 c->ramp_ms ? " after ss_ramp" : "");
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

/* One clone's verdict on one line: reached (when, held or lost, the window's mean) or why not, and its tail. */
static void clone_line(FILE *f, const char *name, const struct steady *st)
{
	static const char *const unit[] = { "IOPS", "B/s", "ns" };
	char buf[160], mean[48], ci[96];

	if (st->attained) {
		fmt_hold(buf, sizeof(buf), st);
		fmt_metric(mean, sizeof(mean), st->cfg.metric, st->mean);
		fprintf(f, "    %s: reached at %.3f-%.3f s, %s; window mean %s", name,
			(double)st->start_ms / 1000.0, (double)st->end_ms / 1000.0, buf, mean);
	} else {
		fmt_reason(buf, sizeof(buf), st);
		fprintf(f, "    %s: NOT reached (%s)", name, buf);
	}
	if (st->tail) {
		const struct steady_tail *t = st->tail;

		fmt_ci(ci, sizeof(ci), t->iops, t->iops_ci95, t->batches, t->batch_intervals);
		fprintf(f, "; steady tail %.3f-%.3f s: %.0f IOPS%s", (double)t->start_ms / 1000.0,
			(double)t->end_ms / 1000.0, t->iops, ci);
	} else if (st->mser_ok) {
		fmt_ci(ci, sizeof(ci), st->mser.mean, st->mser.ci95, st->mser.batches,
		       st->mser_batch ? st->mser_batch : MSER_BATCH);
		fprintf(f, "; after a %.3f s warm-up %.0f %s%s", (double)st->mser_ms / 1000.0,
			st->mser.mean, unit[st->cfg.metric], ci);
	}
	fputc('\n', f);
}

void steady_print_text_clones(FILE *f, const struct steady *const *v, const char *const *names,
			      size_t n)
{
	char spec[160], other[160];
	int same = 1, snia = 1;
	size_t reached = 0;

	if (n == 1) {
		steady_print_text(f, v[0]);
		return;
	}
	steady_spec(&v[0]->cfg, spec, sizeof(spec));
	for (size_t i = 0; i < n; i++) {
		steady_spec(&v[i]->cfg, other, sizeof(other));
		same &= !strcmp(spec, other);
		reached += v[i]->attained != 0;
		/* SNIA's rule judged the clone and nothing more is to be said of it */
		snia &= v[i]->cfg.rule == STEADY_SNIA && v[i]->evaluated && v[i]->mean > 0 &&
			!v[i]->attained && !v[i]->mser_ok && !v[i]->tail;
	}
	if (!same) {	/* clones of one job share a criterion; a merged result may not */
		for (size_t i = 0; i < n; i++) {
			fprintf(f, "  %s:\n", names[i]);
			steady_print_text(f, v[i]);
		}
		return;
	}
	if (snia) {	/* the figures' ranges say it in one line */
		double rlo = v[0]->range_pct, rhi = rlo, xlo = v[0]->excursion_pct, xhi = xlo;

		for (size_t i = 1; i < n; i++) {
			rlo = fmin(rlo, v[i]->range_pct);
			rhi = fmax(rhi, v[i]->range_pct);
			xlo = fmin(xlo, v[i]->excursion_pct);
			xhi = fmax(xhi, v[i]->excursion_pct);
		}
		fprintf(f, "  steady state NOT reached by any of the %zu (%s): range %.2f..%.2f%%, "
			"slope excursion %.2f..%.2f%% (%s..%s)\n", n, spec, rlo, rhi, xlo, xhi,
			names[0], names[n - 1]);
		return;
	}
	if (!reached) {	/* one reason for all (too few rounds, say): said once */
		char why[160], other_why[160];
		int one = 1;

		fmt_reason(why, sizeof(why), v[0]);
		for (size_t i = 0; i < n && one; i++) {
			fmt_reason(other_why, sizeof(other_why), v[i]);
			one = !strcmp(why, other_why) && !v[i]->mser_ok && !v[i]->tail;
		}
		if (one) {
			fprintf(f, "  steady state NOT reached by any of the %zu (%s): %s, in each\n",
				n, spec, why);
			return;
		}
	}
	fprintf(f, "  steady state reached by %zu of the %zu (%s):\n", reached, n, spec);
	for (size_t i = 0; i < n; i++)
		clone_line(f, names[i], v[i]);
}
