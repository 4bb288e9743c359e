/*
 * sample_group: a group's bw/iops figures streamed from its threads'
 * samples (sample_group.h).
 */
#include "measure/sample_group.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int sample_seq_push(struct sample_seq *q, double bw, double iops)
{
	if (q->nr == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 16;
		double *nb = realloc(q->bw, cap * sizeof(*nb)), *ni;

		if (!nb)
			return -ENOMEM;
		q->bw = nb;
		ni = realloc(q->iops, cap * sizeof(*ni));
		if (!ni)
			return -ENOMEM;
		q->iops = ni;
		q->cap = cap;
	}
	q->bw[q->nr] = bw;
	q->iops[q->nr] = iops;
	q->nr++;
	return 0;
}

void sample_seq_free(struct sample_seq *q)
{
	free(q->bw);
	free(q->iops);
	memset(q, 0, sizeof(*q));
}

void sample_group_init(struct sample_group *g)
{
	memset(g, 0, sizeof(*g));
	for (int d = 0; d < DDIR_NR; d++) {
		sample_stat_init(&g->bw_kib[d]);
		sample_stat_init(&g->iops[d]);
	}
}

void sample_group_pull(struct sample_group *g, struct sample_seq *const *q, const int *done,
		       const unsigned *dirs, size_t n)
{
	for (int d = 0; d < DDIR_NR; d++) {
		uint64_t end = UINT64_MAX, most = 0;
		size_t t;

		/* complete: below every running thread's count; none running: all */
		for (t = 0; t < n; t++) {
			uint64_t c = q[t][d].base + q[t][d].nr;

			if (!done[t] && (dirs[t] & (1u << d)) && c < end)
				end = c;
			if (c > most)
				most = c;
		}
		if (end == UINT64_MAX)
			end = most;
		for (uint64_t k = g->out[d]; k < end; k++) {
			double bw = 0, iops = 0;

			for (t = 0; t < n; t++) {	/* thread order, as the whole-array sum */
				const struct sample_seq *s = &q[t][d];

				if (k < s->base || k >= s->base + s->nr)	/* none, or dropped */
					continue;
				bw += s->bw[k - s->base];
				iops += s->iops[k - s->base];
			}
			sample_stat_add(&g->bw_kib[d], bw);
			sample_stat_add(&g->iops[d], iops);
		}
		if (end > g->out[d])
			g->out[d] = end;
		for (t = 0; t < n; t++) {
			struct sample_seq *s = &q[t][d];
			size_t m = g->out[d] > s->base ? (size_t)(g->out[d] - s->base) : 0;

			if (m > s->nr)
				m = s->nr;
			if (!m)
				continue;
			memmove(s->bw, s->bw + m, (s->nr - m) * sizeof(*s->bw));
			memmove(s->iops, s->iops + m, (s->nr - m) * sizeof(*s->iops));
			s->nr -= m;
			s->base += m;
		}
	}
}
