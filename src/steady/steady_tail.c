/*
 * steady_tail: MSER-5 over the series and the steady tail (steady.h).
 *
 * The steady part starts at the held window's start when the reporting rule
 * found a window and the level held to the end; otherwise (no window, or a
 * window whose level was lost) at MSER-5's truncation point, which looks at
 * the whole measured run.  The tail runs from there to the last interval.
 *
 * The tail's confidence interval for the mean IOPS uses batch means:
 * consecutive intervals are correlated (a slow second is often followed by
 * another), so the spread of single intervals understates the uncertainty
 * of their mean.  The tail's intervals are cut into at most
 * STEADY_TAIL_BATCHES batches of at least MSER_BATCH intervals each (a
 * trailing partial batch is left out of the spread, not of the mean); the
 * half-width is t(0.975, k-1) x sd(batch rates) / sqrt(k), centred on the
 * tail's exact rate.  Fewer than 2 full batches: no interval.
 */
#include "steady/steady_tail.h"

#include <errno.h>	/* ENOMEM */
#include <math.h>	/* sqrt */
#include <stdlib.h>	/* calloc, free, malloc */

#define STEADY_TAIL_BATCHES 20

static uint64_t start_ms(const struct series *s, size_t i)
{
	return series_held_start_ms(s, i);
}

/* IOPS of direction @d (-1: all) over intervals [@i0, @i0 + @n). */
static double span_iops(const struct series *s, size_t i0, size_t n, int d)
{
	uint64_t ios = 0, dur = 0;

	for (size_t i = i0; i < i0 + n; i++) {
		dur += s->iv[i].dur_us;
		for (int k = 0; k < DDIR_NR; k++)
			if (d < 0 || d == k)
				ios += s->iv[i].d[k].ios;
	}
	return dur ? (double)ios * 1e6 / (double)dur : 0.0;
}

/* Batch-means 95% half-width of direction @d's IOPS over the tail. */
static double batch_ci(const struct series *s, const struct steady_tail *t, int d)
{
	double sum = 0, ss = 0, m;

	for (size_t b = 0; b < t->batches; b++)
		sum += span_iops(s, t->first + b * t->batch_elements, t->batch_elements, d);
	m = sum / (double)t->batches;
	for (size_t b = 0; b < t->batches; b++) {
		double v = span_iops(s, t->first + b * t->batch_elements, t->batch_elements, d) - m;

		ss += v * v;
	}
	return mser_ci95(sqrt(ss / (double)(t->batches - 1)), t->batches);
}

static int tail_build(const struct series *s, size_t first, int from_window, struct steady_tail **out)
{
	struct steady_tail *t = calloc(1, sizeof(*t));
	size_t n = s->nr - first;

	if (!t)
		return -ENOMEM;
	t->from_window = from_window;
	t->first = first;
	t->last = s->nr - 1;
	t->start_ms = start_ms(s, first);
	t->end_ms = s->iv[t->last].t_ms;
	for (int d = 0; d < DDIR_NR; d++) {
		struct series_window *w = malloc(sizeof(*w));

		if (!w) {
			steady_tail_free(t);
			return -ENOMEM;
		}
		if (series_window(s, first, t->last, (enum ddir)d, w) || !w->ios) {
			free(w);
			continue;
		}
		t->dir[d] = w;
	}
	t->iops = span_iops(s, first, n, -1);
	t->element_intervals = 1;
	for (size_t i = first; i <= t->last; i++) {
		t->intervals += series_iv_n(&s->iv[i]);
		if (series_iv_n(&s->iv[i]) > t->element_intervals)
			t->element_intervals = series_iv_n(&s->iv[i]);
	}
	/* batches of whole elements: at least MSER_BATCH intervals, at most 20 batches */
	t->batch_elements = (n + STEADY_TAIL_BATCHES - 1) / STEADY_TAIL_BATCHES;
	if (t->batch_elements * t->element_intervals < MSER_BATCH)
		t->batch_elements = (MSER_BATCH + t->element_intervals - 1) / t->element_intervals;
	t->batch_intervals = t->batch_elements * t->element_intervals;
	t->batches = n / t->batch_elements;
	if (t->batches >= 2) {
		t->iops_ci95 = batch_ci(s, t, -1);
		for (int d = 0; d < DDIR_NR; d++)
			if (t->dir[d])
				t->dir_ci95[d] = batch_ci(s, t, d);
	}
	*out = t;
	return 0;
}

int steady_analyse(const struct steady_cfg *c, const struct series *s, struct steady *out)
{
	size_t e, k, first = SIZE_MAX;
	int r = steady_find(c, s, out);
	double *b;

	if (r)
		return r;
	e = steady_first_eligible(c, s);
	k = e < s->nr ? (s->nr - e) / MSER_BATCH : 0;
	if (k >= 3) {
		b = malloc(k * sizeof(*b));
		if (!b)
			return -ENOMEM;
		for (size_t j = 0; j < k; j++)
			b[j] = steady_metric(c, s, e + j * MSER_BATCH, MSER_BATCH);
		if (!mser_compute(b, k, &out->mser)) {
			out->mser_ok = 1;
			out->mser_ms = start_ms(s, e + out->mser.truncate * MSER_BATCH);
		}
		free(b);
	}
	if (out->attained && out->held)
		first = out->first;
	else if (out->mser_ok)
		first = e + out->mser.truncate * MSER_BATCH;
	if (first >= s->nr)
		return 0;
	return tail_build(s, first, out->attained && out->held, &out->tail);
}

int steady_tail_stream(const struct steady_stream *ss, const struct series *stored, struct steady *out)
{
	int held = out->attained && out->held && ss->tail;
	size_t point, el = 0, raw = 0;
	struct steady_tail *t;
	uint64_t ios = 0;
	int r;

	steady_tail_free(out->tail);
	out->tail = NULL;
	if (held)
		point = out->first;
	else if (out->mser_ok)
		point = ss->e_first + out->mser.truncate * ss->mser_batch;
	else
		return 0;
	/* the first stored element at or after the point (stored holds every interval) */
	while (el < stored->nr && raw < point)
		raw += series_iv_n(&stored->iv[el++]);
	if (el >= stored->nr) {
		if (!held)
			return 0;
		/* the window ends in the last element: figures, but no batches */
		t = calloc(1, sizeof(*t));
		if (!t)
			return -ENOMEM;
		t->element_intervals = stored->nr ? series_iv_n(&stored->iv[stored->nr - 1]) : 1;
	} else {
		r = tail_build(stored, el, held, &t);
		if (r)
			return r;
	}
	if (held) {
		/* from the window's start exactly: the stream's running sums */
		uint64_t dur = ss->tail[0].dur_us;

		t->from_window = 1;
		t->start_ms = ss->tail[0].start_ms;
		t->end_ms = ss->tail[0].end_ms;
		t->intervals = ss->tail[0].last - ss->tail[0].first + 1;
		for (int d = 0; d < DDIR_NR; d++) {
			free(t->dir[d]);
			t->dir[d] = NULL;
			ios += ss->tail[d].ios;
			if (!ss->tail[d].ios)
				continue;
			t->dir[d] = malloc(sizeof(*t->dir[d]));
			if (!t->dir[d]) {
				steady_tail_free(t);
				return -ENOMEM;
			}
			*t->dir[d] = ss->tail[d];
			series_window_finish(t->dir[d]);
		}
		t->iops = dur ? (double)ios * 1e6 / (double)dur : 0.0;
	}
	out->tail = t;
	return 0;
}
