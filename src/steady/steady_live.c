/*
 * steady_live: the streaming steady-state tracker (steady_live.h).
 */
#include "steady/steady_live.h"

#include <errno.h>	/* ENOMEM */
#include <math.h>	/* floor */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* memmove, memset */

int steady_live_init(struct steady_live *l, const struct steady_cfg *c)
{
	memset(l, 0, sizeof(*l));
	if (c->rule == STEADY_OFF || !c->window || !c->round_intervals)
		return 0;
	l->v = calloc(c->window, sizeof(*l->v));
	l->start = calloc(c->window, sizeof(*l->start));
	if (!l->v || !l->start) {
		steady_live_free(l);
		return -ENOMEM;
	}
	l->cfg = *c;
	return 0;
}

void steady_live_free(struct steady_live *l)
{
	free(l->v);
	free(l->start);
	memset(l, 0, sizeof(*l));
}

void steady_live_pick(const struct steady_cfg *c, const struct series_iv *iv,
		      struct steady_live_iv *acc)
{
	if (iv->t_ms > acc->t_ms)
		acc->t_ms = iv->t_ms;
	if (iv->dur_us > acc->dur_us)
		acc->dur_us = iv->dur_us;
	acc->ramp = (int)iv->ramp;
	acc->used = 1;
	for (int d = 0; d < DDIR_NR; d++) {
		if (c->ddir >= 0 && c->ddir != d)
			continue;
		acc->ios += iv->d[d].ios;
		acc->bytes += iv->d[d].bytes;
		acc->lat_sum += (double)iv->d[d].lat_sum_ns;
	}
}

/* One complete round: check it against the band, or look for a window. */
static void live_round(struct steady_live *l, double y, uint64_t start)
{
	const struct steady_cfg *c = &l->cfg;
	double mean;

	if (l->state == STEADY_LIVE_STEADY) {
		/* the same slack as steady.c's held test */
		if (y >= l->lo * (1 - 1e-9) && y <= l->hi * (1 + 1e-9))
			return;
		l->state = STEADY_LIVE_LOST;
		l->lost_ms = start;
		l->nr = 0;	/* a new window starts with this round */
	}
	if (l->nr == c->window) {
		memmove(l->v, l->v + 1, (c->window - 1) * sizeof(*l->v));
		memmove(l->start, l->start + 1, (c->window - 1) * sizeof(*l->start));
		l->nr--;
	}
	l->v[l->nr] = y;
	l->start[l->nr++] = start;
	if (l->nr == c->window && steady_judge(c, l->v, l->nr, &mean)) {
		double half = steady_band(c, mean);

		l->state = STEADY_LIVE_STEADY;
		l->since_ms = l->start[0];
		l->lo = mean - half;
		l->hi = mean + half;
	}
}

void steady_live_add(struct steady_live *l, const struct steady_live_iv *iv)
{
	const struct steady_cfg *c = &l->cfg;
	uint64_t start = series_start_ms(iv->t_ms, iv->dur_us, l->has_prev, l->prev_end_ms);
	double y;

	if (iv->dur_us) {	/* series_start_ms: the next one began where this one ended */
		l->has_prev = 1;
		l->prev_end_ms = iv->t_ms;
	}
	if (c->rule == STEADY_OFF || !iv->used || iv->ramp || !iv->dur_us)
		return;
	if (!l->seen) {
		l->seen = 1;
		l->first_ms = start;
	}
	if (start < l->first_ms + c->ramp_ms)
		return;		/* ss_ramp */
	if (!l->r_n)
		l->r_start = start;
	l->r_ios += iv->ios;
	l->r_bytes += iv->bytes;
	l->r_lat += iv->lat_sum;
	l->r_dur += iv->dur_us;
	if (++l->r_n < c->round_intervals)
		return;
	if (c->metric == STEADY_BW)
		y = (double)l->r_bytes * 1e6 / (double)l->r_dur;
	else if (c->metric == STEADY_LAT)
		y = l->r_ios ? l->r_lat / (double)l->r_ios : 0.0;
	else
		y = (double)l->r_ios * 1e6 / (double)l->r_dur;
	if (c->rule == STEADY_FIO && c->metric != STEADY_LAT)
		y = floor(y);	/* as steady.c's fio rounds */
	l->r_ios = l->r_bytes = l->r_dur = 0;
	l->r_lat = 0;
	l->r_n = 0;
	live_round(l, y, l->r_start);
}
