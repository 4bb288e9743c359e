/*
 * series_group: threads' intervals merged as they complete (series_group.h).
 */
#include "run/series_group.h"

#include <errno.h>	/* ENOMEM */
#include <stdlib.h>	/* malloc, free */
#include <string.h>	/* memset */

int series_group_init(struct series_group *g, const struct steady_cfg *c, size_t max)
{
	memset(g, 0, sizeof(*g));
	series_init(&g->merged);
	g->h = malloc(DDIR_NR * sizeof(*g->h));
	if (!g->h)
		return -ENOMEM;
	return series_sink_init(&g->sink, c, max);
}

void series_group_free(struct series_group *g)
{
	if (!g)
		return;
	series_free(&g->merged);
	series_sink_free(&g->sink);
	free(g->h);
	memset(g, 0, sizeof(*g));
}

/* Thread @s's interval number for merged index @k of the current phase. */
static size_t thr_index(const struct series_group *g, const struct series *s, size_t k)
{
	return g->meas_phase ? series_ramp_end(s) + k : k;
}

/* Does thread @s have merged index @k of the current phase? */
static int thr_has(const struct series_group *g, const struct series *s, size_t k)
{
	if (g->meas_phase)
		return series_ramp_end(s) + k < series_end(s);
	return k < series_ramp_end(s);
}

/* Merge index @k of the current phase over the threads that have it. */
static int build(struct series_group *g, const struct series *const *thr, size_t n, size_t k)
{
	struct series_in in[DDIR_NR];
	uint64_t t_ms = 0, dur = 0;
	uint32_t nmax = 1;
	int r;

	memset(in, 0, sizeof(in));
	for (int d = 0; d < DDIR_NR; d++) {
		memset(&g->h[d], 0, sizeof(g->h[d]));
		in[d].lat_min = UINT64_MAX;
		in[d].lat_hist = &g->h[d];
	}
	for (size_t t = 0; t < n; t++) {
		const struct series_iv *iv;
		size_t i;

		if (!thr_has(g, thr[t], k))
			continue;
		i = thr_index(g, thr[t], k);
		iv = series_at(thr[t], i);
		if (iv->t_ms > t_ms)
			t_ms = iv->t_ms;
		if (iv->dur_us > dur)
			dur = iv->dur_us;
		if (series_iv_n(iv) > nmax)
			nmax = series_iv_n(iv);
		for (int d = 0; d < DDIR_NR; d++) {
			const struct series_dir *sd = &iv->d[d];

			in[d].ios += sd->ios;
			in[d].bytes += sd->bytes;
			in[d].lat_sum_ns += sd->lat_sum_ns;
			if (sd->lat_min < in[d].lat_min)
				in[d].lat_min = sd->lat_min;
			if (sd->lat_max > in[d].lat_max)
				in[d].lat_max = sd->lat_max;
			series_hist_add(thr[t], i, (enum ddir)d, &g->h[d]);
		}
	}
	r = series_append(&g->merged, t_ms, dur, !g->meas_phase, nmax, in);
	if (r)
		return r;
	r = series_sink_add(&g->sink, &g->merged, series_end(&g->merged) - 1);
	if (r)
		return r;
	series_trim(&g->merged, series_sink_keep(&g->sink));
	return 0;
}

int series_group_pull(struct series_group *g, const struct series *const *thr, const int *done, size_t n)
{
	for (;;) {
		size_t k = g->meas_phase ? g->meas_out : g->ramp_out;
		int ready = 1, any = 0, r;

		for (size_t t = 0; t < n && ready; t++) {
			const struct series *s = thr[t];

			if (thr_has(g, s, k)) {
				/* final: the thread ended, or a later interval exists */
				ready = done[t] || thr_index(g, s, k) + 1 < series_end(s);
				any = 1;
			} else if (!done[t]) {
				/* it may still get index k (ramp: until a measured interval shows) */
				ready = !g->meas_phase && series_end(s) > series_ramp_end(s);
			}
		}
		if (!ready)
			return 0;
		if (!any) {
			if (g->meas_phase)
				return 0;	/* every thread ended: all built */
			g->meas_phase = 1;	/* every ramp is over and built */
			continue;
		}
		r = build(g, thr, n, k);
		if (r)
			return r;
		if (g->meas_phase)
			g->meas_out++;
		else
			g->ramp_out++;
	}
}

size_t series_group_hold(const struct series_group *g, const struct series *s)
{
	if (g->meas_phase)
		return series_ramp_end(s) + g->meas_out;
	/* a thread whose ramp was shorter still has all its measured ones to give */
	return g->ramp_out < series_ramp_end(s) ? g->ramp_out : series_ramp_end(s);
}

int series_group_finish(struct series_group *g, struct series **series, struct steady **steady)
{
	int r = series_sink_drain(&g->sink, &g->merged);

	return r ? r : series_sink_finish(&g->sink, series, steady);
}
