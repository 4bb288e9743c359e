/*
 * series_sink: the bounded stored series and the streaming steady analysis
 * of one reported job (series_sink.h).
 */
#include "steady/series_sink.h"
#include "steady/steady_tail.h"

#include <errno.h>	/* EINVAL, ENOMEM */
#include <stdlib.h>	/* malloc, free */
#include <string.h>	/* memset */

int series_sink_init(struct series_sink *k, const struct steady_cfg *c, size_t max)
{
	int r;

	memset(k, 0, sizeof(*k));
	series_init(&k->stored);
	k->max = max;
	k->level_n = 1;
	k->h = malloc(DDIR_NR * sizeof(*k->h));
	if (!k->h)
		return -ENOMEM;
	if (c && c->rule != STEADY_OFF) {
		r = steady_stream_init(&k->ss, c);
		if (r) {
			series_sink_free(k);
			return r;
		}
		k->ss_on = 1;
	}
	return 0;
}

void series_sink_free(struct series_sink *k)
{
	if (!k)
		return;
	series_free(&k->stored);
	if (k->ss_on)
		steady_stream_free(&k->ss);
	free(k->h);
	memset(k, 0, sizeof(*k));
}

/* Interval @i of @s into the stored series: a new element, or into the last one. */
static int store(struct series_sink *k, const struct series *s, size_t i)
{
	const struct series_iv *iv = series_at(s, i);
	struct series *st = &k->stored;
	struct series_in in[DDIR_NR];
	const struct series_iv *last = st->nr ? &st->iv[st->nr - 1] : NULL;

	for (int d = 0; d < DDIR_NR; d++) {
		const struct series_dir *sd = &iv->d[d];

		memset(&k->h[d], 0, sizeof(k->h[d]));
		series_hist_add(s, i, (enum ddir)d, &k->h[d]);
		in[d] = (struct series_in){ .ios = sd->ios, .bytes = sd->bytes,
					    .lat_sum_ns = sd->lat_sum_ns, .lat_min = sd->lat_min,
					    .lat_max = sd->lat_max, .lat_hist = &k->h[d] };
	}
	/* the last element fills up to level_n intervals, within its phase */
	if (last && last->ramp == iv->ramp && series_iv_n(last) + series_iv_n(iv) <= k->level_n)
		return series_fold_last(st, iv->t_ms, iv->dur_us, series_iv_n(iv), in);
	return series_append(st, iv->t_ms, iv->dur_us, (int)iv->ramp, series_iv_n(iv), in);
}

int series_sink_add(struct series_sink *k, const struct series *s, size_t i)
{
	int r;

	if (!k->h || i != k->fed || i < s->base || i >= series_end(s))
		return -EINVAL;
	r = store(k, s, i);
	if (r)
		return r;
	k->fed++;
	if (k->max && k->stored.nr > k->max) {
		size_t before = k->stored.nr;

		r = series_coarsen(&k->stored);
		if (r)
			return r;
		if (k->stored.nr < before)	/* else one element per phase: nothing paired */
			k->level_n *= 2;
	}
	return k->ss_on ? steady_stream_add(&k->ss, s, i) : 0;
}

int series_sink_drain(struct series_sink *k, const struct series *s)
{
	while (k->fed < series_end(s)) {
		int r = series_sink_add(k, s, k->fed);

		if (r)
			return r;
	}
	return 0;
}

size_t series_sink_keep(const struct series_sink *k)
{
	return k->ss_on ? steady_stream_keep(&k->ss) : k->fed;
}

int series_sink_finish(struct series_sink *k, struct series **series, struct steady **steady)
{
	struct steady *st = NULL;
	struct series *s;
	int r = 0;

	*series = NULL;
	*steady = NULL;
	s = malloc(sizeof(*s));
	if (!s)
		return -ENOMEM;
	if (k->ss_on) {
		st = malloc(sizeof(*st));
		if (!st) {
			free(s);
			return -ENOMEM;
		}
		steady_init(st);
		r = steady_stream_result(&k->ss, st);
		if (!r)
			r = steady_stream_mser(&k->ss, st);
		if (!r)
			r = steady_tail_stream(&k->ss, &k->stored, st);
		if (r) {
			steady_free(st);
			free(st);
			free(s);
			return r;
		}
	}
	*s = k->stored;			/* moved */
	series_init(&k->stored);
	r = series_bound(s, k->max);	/* a no-op: kept within max as it grew */
	*series = s;
	*steady = st;
	return r;
}

size_t series_sink_mem(const struct series_sink *k)
{
	return sizeof(*k) + series_mem(&k->stored) + (k->h ? DDIR_NR * sizeof(*k->h) : 0) +
	       (k->ss_on ? steady_stream_mem(&k->ss) : 0);
}
