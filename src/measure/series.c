/*
 * series: per-interval time series with sparse histogram deltas (series.h).
 *
 * Storage is two growing arrays: the fixed-size interval records, and every
 * interval's non-zero histogram buckets one after the other (each record
 * points at its slice).  Windows and merges rebuild a dense histogram from
 * the slices, so percentiles over any window are exact to the bucket.
 */
#include "measure/series.h"
#include "lib/vec.h"

#include <errno.h>	/* EINVAL, ENOMEM, EOVERFLOW */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* realloc, free */
#include <string.h>	/* memset */

_Static_assert(sizeof(struct series_iv) == 240, "update the memory comment in series.h");

static const double series_pcts[3] = { 50.0, 99.0, 99.9 };

void series_init(struct series *s)
{
	memset(s, 0, sizeof(*s));
}

void series_free(struct series *s)
{
	if (!s)
		return;
	free(s->iv);
	free(s->b);
	series_init(s);
}

size_t series_mem(const struct series *s)
{
	return s->cap * sizeof(*s->iv) + s->b_cap * sizeof(*s->b);
}

/*
 * The sparse buckets are byte-coded (series.h): per non-zero bucket, its
 * index's gap from the previous bucket's index + 1, then its count, each
 * in 7-bit groups, low first, the high bit saying another byte follows.
 * Neighbouring buckets and counts below 16384 take 2-3 bytes in all, where
 * a fixed (index, count) pair took 8: for a job whose latencies spread over
 * hundreds of buckets, the stored series was most of its memory.
 */
static size_t vlen(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static uint8_t *vput(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* Read one number at *@p (before @end); 0 when the bytes run out. */
static int vget(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	uint64_t x = 0;
	unsigned sh = 0;

	while (*p < end && sh < 64) {
		uint8_t c = *(*p)++;

		x |= (uint64_t)(c & 0x7f) << sh;
		if (!(c & 0x80)) {
			*v = x;
			return 1;
		}
		sh += 7;
	}
	return 0;
}

/* Bytes needed to store @h sparsely. */
static size_t sparse_len(const struct hist *h)
{
	size_t n = 0;
	unsigned next = 0;

	for (unsigned i = 0; i < HIST_NR; i++)
		if (h->b[i]) {
			n += vlen(i - next) + vlen(h->b[i]);
			next = i + 1;
		}
	return n;
}

/* Append @h's non-zero buckets to s->b (room reserved by the caller). */
static void sparse_put(struct series *s, const struct hist *h, struct series_dir *sd)
{
	uint8_t *p = s->b + s->b_nr;
	unsigned next = 0;

	sd->hist_off = (uint32_t)s->b_nr;
	for (unsigned i = 0; i < HIST_NR; i++)
		if (h->b[i]) {
			p = vput(p, i - next);
			p = vput(p, h->b[i]);
			next = i + 1;
		}
	s->b_nr = (size_t)(p - s->b);
	sd->hist_nr = (uint32_t)(s->b_nr - sd->hist_off);
}

/*
 * Walk @sd's buckets: the next one's index and count, 0 at the end (or at
 * bytes that do not decode to a bucket, which only a damaged MPI transfer
 * could bring).  *@pos starts at 0.
 */
static int sparse_next(const struct series *s, const struct series_dir *sd, uint32_t *pos,
		       unsigned *idx, uint64_t *count)
{
	const uint8_t *p = s->b + sd->hist_off + *pos, *end = s->b + sd->hist_off + sd->hist_nr;
	uint64_t gap;
	unsigned at = *pos ? *idx + 1 : 0;

	if (!vget(&p, end, &gap) || gap >= HIST_NR - at || !vget(&p, end, count))
		return 0;
	*idx = at + (unsigned)gap;
	*pos = (uint32_t)(p - (s->b + sd->hist_off));
	return 1;
}

/* Add held interval @i's (local index) buckets of direction @d into @h. */
static void hist_add_local(const struct series *s, size_t i, enum ddir d, struct hist *h)
{
	const struct series_dir *sd = &s->iv[i].d[d];
	uint32_t pos = 0;
	unsigned idx = 0;
	uint64_t c;

	while (sparse_next(s, sd, &pos, &idx, &c))
		h->b[idx] += c;
}

void series_hist_add(const struct series *s, size_t i, enum ddir d, struct hist *h)
{
	hist_add_local(s, i - s->base, d, h);
}

/*
 * p50, p99, p99.9 of @h, kept within the exact [@min, @max] of the same I/Os:
 * a bucket's representative value may lie a little past the largest latency
 * in it, and a p99.9 above the max would read as a contradiction.
 */
static void pcts_in(const struct hist *h, uint64_t min, uint64_t max, uint64_t v[3])
{
	hist_percentiles(h, series_pcts, 3, v);
	for (int i = 0; i < 3 && max; i++) {
		if (v[i] > max)
			v[i] = max;
		if (v[i] < min)
			v[i] = min;
	}
}

static void set_pcts(struct series_dir *sd, const struct hist *h)
{
	uint64_t v[3];

	pcts_in(h, sd->ios ? sd->lat_min : 0, sd->ios ? sd->lat_max : 0, v);
	sd->p50 = v[0];
	sd->p99 = v[1];
	sd->p999 = v[2];
}

/* Reserve one more interval and @nb more buckets. */
static int reserve(struct series *s, size_t nb)
{
	if (s->b_nr + nb > UINT32_MAX)
		return -EOVERFLOW;
	if (vec_grow((void **)&s->iv, &s->cap, s->nr + 1, sizeof(*s->iv), 16))
		return -ENOMEM;
	if (vec_grow((void **)&s->b, &s->b_cap, s->b_nr + nb, sizeof(*s->b), 16))
		return -ENOMEM;
	return 0;
}

/*
 * Fold a sliver into the last interval (see series_add): add the counts,
 * merge the extremes, and rebuild the last interval's buckets (they are the
 * tail of s->b) from the dense sum of the old and the new histograms.
 */
static int fold_last(struct series *s, uint64_t t_ms, uint64_t dur_us, uint32_t n,
		     const struct series_in in[DDIR_NR])
{
	struct series_iv *iv = &s->iv[s->nr - 1];
	struct hist *h = malloc(sizeof(*h) * DDIR_NR);
	size_t nb = 0;
	int d;

	if (!h)
		return -ENOMEM;
	for (d = 0; d < DDIR_NR; d++) {
		memset(&h[d], 0, sizeof(h[d]));
		hist_add_local(s, s->nr - 1, (enum ddir)d, &h[d]);
		if (in[d].lat_hist)
			for (unsigned i = 0; i < HIST_NR; i++)
				h[d].b[i] += in[d].lat_hist->b[i];
		nb += sparse_len(&h[d]);
	}
	/* the rebuilt tail may be longer than the old one: make room first */
	if (iv->d[0].hist_off + nb > UINT32_MAX ||
	    vec_grow((void **)&s->b, &s->b_cap, iv->d[0].hist_off + nb, sizeof(*s->b), 16)) {
		free(h);
		return -ENOMEM;
	}
	s->b_nr = iv->d[0].hist_off;
	iv->t_ms = t_ms;
	iv->dur_us += dur_us;
	iv->n = series_iv_n(iv) + n;
	for (d = 0; d < DDIR_NR; d++) {
		struct series_dir *sd = &iv->d[d];

		sd->ios += in[d].ios;
		sd->bytes += in[d].bytes;
		sd->lat_sum_ns += in[d].lat_sum_ns;
		if (in[d].ios && in[d].lat_min < sd->lat_min)
			sd->lat_min = in[d].lat_min;
		if (in[d].ios && in[d].lat_max > sd->lat_max)
			sd->lat_max = in[d].lat_max;
		sparse_put(s, &h[d], sd);
		set_pcts(sd, &h[d]);
	}
	free(h);
	return 0;
}

int series_fold_last(struct series *s, uint64_t t_ms, uint64_t dur_us, uint32_t n,
		     const struct series_in in[DDIR_NR])
{
	return s->nr ? fold_last(s, t_ms, dur_us, n, in) : -EINVAL;
}

int series_add(struct series *s, uint64_t t_ms, uint64_t dur_us, int ramp,
	       const struct series_in in[DDIR_NR])
{
	if (!dur_us || (s->nr && t_ms <= s->iv[s->nr - 1].t_ms))
		return -EINVAL;
	if (ramp && s->nr > s->nr_ramp)
		return -EINVAL;
	if (s->nr && (s->nr > s->nr_ramp) == !ramp &&
	    dur_us * SERIES_SLIVER < s->iv[s->nr - 1].dur_us)
		return fold_last(s, t_ms, dur_us, 0, in);	/* a sliver: still one interval */
	return series_append(s, t_ms, dur_us, ramp, 1, in);
}

int series_append(struct series *s, uint64_t t_ms, uint64_t dur_us, int ramp, uint32_t n,
		  const struct series_in in[DDIR_NR])
{
	struct series_iv *iv;
	size_t nb = 0;
	int d, ret;

	for (d = 0; d < DDIR_NR; d++)
		if (in[d].lat_hist)
			nb += sparse_len(in[d].lat_hist);
	ret = reserve(s, nb);
	if (ret)
		return ret;

	iv = &s->iv[s->nr];
	memset(iv, 0, sizeof(*iv));
	iv->t_ms = t_ms;
	iv->dur_us = dur_us;
	iv->ramp = ramp ? 1 : 0;
	iv->n = n;
	for (d = 0; d < DDIR_NR; d++) {
		struct series_dir *sd = &iv->d[d];

		sd->ios = in[d].ios;
		sd->bytes = in[d].bytes;
		sd->lat_sum_ns = in[d].lat_sum_ns;
		sd->lat_min = in[d].ios ? in[d].lat_min : UINT64_MAX;
		sd->lat_max = in[d].ios ? in[d].lat_max : 0;
		sd->hist_off = (uint32_t)s->b_nr;
		if (in[d].lat_hist) {
			sparse_put(s, in[d].lat_hist, sd);
			set_pcts(sd, in[d].lat_hist);
		}
	}
	s->nr++;
	if (ramp)
		s->nr_ramp++;
	return 0;
}

void series_trim(struct series *s, size_t upto)
{
	size_t n, b0;

	if (upto <= s->base || s->nr < 2)
		return;
	n = upto - s->base;
	if (n > s->nr - 1)
		n = s->nr - 1;	/* the last one may still grow */
	if (n > s->nr_ramp && s->base == s->base_ramp) {
		/* the first measured interval goes: steady's ss_ramp counts from its start */
		s->m0_ms = series_held_start_ms(s, s->nr_ramp);
		s->has_m0 = 1;
	}
	/* buckets are stored interval by interval: the kept ones start here */
	b0 = s->iv[n].d[0].hist_off;
	memmove(s->iv, s->iv + n, (s->nr - n) * sizeof(*s->iv));
	memmove(s->b, s->b + b0, (s->b_nr - b0) * sizeof(*s->b));
	s->nr -= n;
	s->b_nr -= b0;
	for (size_t i = 0; i < s->nr; i++)
		for (int d = 0; d < DDIR_NR; d++)
			s->iv[i].d[d].hist_off -= (uint32_t)b0;
	if (n > s->nr_ramp) {
		s->base_ramp += s->nr_ramp;
		s->nr_ramp = 0;
	} else {
		s->base_ramp += n;
		s->nr_ramp -= n;
	}
	s->base += n;
}

/* Interval @i of the merged series: ramp ones first, then measured ones. */
static const struct series_iv *phase_iv(const struct series *s, int ramp, size_t k)
{
	if (ramp)
		return k < s->nr_ramp ? &s->iv[k] : NULL;
	return k < s->nr - s->nr_ramp ? &s->iv[s->nr_ramp + k] : NULL;
}

/* Merge one pair of intervals (either may be NULL) into @out, buckets into @m. */
static void merge_iv(struct series *m, const struct series *a, const struct series_iv *x,
		     const struct series *b, const struct series_iv *y, struct hist *h)
{
	struct series_iv *o = &m->iv[m->nr];
	const struct series_iv *any = x ? x : y;

	memset(o, 0, sizeof(*o));
	o->t_ms = any->t_ms;
	o->dur_us = any->dur_us;
	o->ramp = any->ramp;
	o->n = series_iv_n(any);
	if (x && y) {
		o->t_ms = x->t_ms > y->t_ms ? x->t_ms : y->t_ms;
		o->dur_us = x->dur_us > y->dur_us ? x->dur_us : y->dur_us;
		if (series_iv_n(y) > o->n)
			o->n = series_iv_n(y);
	}
	for (int d = 0; d < DDIR_NR; d++) {
		struct series_dir *od = &o->d[d];

		od->lat_min = UINT64_MAX;
		memset(h, 0, sizeof(*h));
		for (int k = 0; k < 2; k++) {
			const struct series_iv *src = k ? y : x;
			const struct series_dir *sd;

			if (!src)
				continue;
			sd = &src->d[d];
			od->ios += sd->ios;
			od->bytes += sd->bytes;
			od->lat_sum_ns += sd->lat_sum_ns;
			if (sd->lat_min < od->lat_min)
				od->lat_min = sd->lat_min;
			if (sd->lat_max > od->lat_max)
				od->lat_max = sd->lat_max;
			hist_add_local(k ? b : a, (size_t)(src - (k ? b : a)->iv), (enum ddir)d, h);
		}
		sparse_put(m, h, od);
		set_pcts(od, h);
	}
	m->nr++;
	if (o->ramp)
		m->nr_ramp++;
}

int series_merge(struct series *dst, const struct series *src)
{
	struct series m;
	struct hist *h;
	size_t nramp, nmeas, k;
	int ramp;

	nramp = dst->nr_ramp > src->nr_ramp ? dst->nr_ramp : src->nr_ramp;
	nmeas = dst->nr - dst->nr_ramp > src->nr - src->nr_ramp ?
		dst->nr - dst->nr_ramp : src->nr - src->nr_ramp;
	series_init(&m);
	h = malloc(sizeof(*h));
	/* the merged buckets never outnumber the two inputs' together */
	if (!h || vec_grow((void **)&m.iv, &m.cap, nramp + nmeas, sizeof(*m.iv), 16) ||
	    vec_grow((void **)&m.b, &m.b_cap, dst->b_nr + src->b_nr + 1, sizeof(*m.b), 16)) {
		free(h);
		series_free(&m);
		return -ENOMEM;
	}
	for (ramp = 1; ramp >= 0; ramp--) {
		size_t n = ramp ? nramp : nmeas;

		for (k = 0; k < n; k++)
			merge_iv(&m, dst, phase_iv(dst, ramp, k), src, phase_iv(src, ramp, k), h);
	}
	free(h);
	series_free(dst);
	*dst = m;
	return 0;
}

/*
 * Merge intervals [@i, @i + @k) of @s (k = 1 or 2, one phase) into @o, their
 * histograms into @h[DDIR_NR].  Reads only: the caller writes the buckets.
 */
static void coarsen_iv(struct series_iv *o, const struct series *s, size_t i, size_t k, struct hist *h)
{
	const struct series_iv *last = &s->iv[i + k - 1];

	memset(o, 0, sizeof(*o));
	o->t_ms = last->t_ms;
	o->ramp = last->ramp;
	for (size_t j = i; j < i + k; j++) {
		o->dur_us += s->iv[j].dur_us;
		o->n += series_iv_n(&s->iv[j]);
	}
	for (int d = 0; d < DDIR_NR; d++) {
		struct series_dir *od = &o->d[d];

		od->lat_min = UINT64_MAX;
		memset(&h[d], 0, sizeof(h[d]));
		for (size_t j = i; j < i + k; j++) {
			const struct series_dir *sd = &s->iv[j].d[d];

			od->ios += sd->ios;
			od->bytes += sd->bytes;
			od->lat_sum_ns += sd->lat_sum_ns;
			if (sd->lat_min < od->lat_min)
				od->lat_min = sd->lat_min;
			if (sd->lat_max > od->lat_max)
				od->lat_max = sd->lat_max;
			hist_add_local(s, j, (enum ddir)d, &h[d]);
		}
	}
}

/*
 * In place, so that a bounded series coarsened while the run goes never
 * needs twice its memory: element o is written where element 2o was, and
 * its buckets where 2o's began.  A merged histogram never has more sparse
 * entries than its two inputs together, so the writes stay behind the reads
 * (the pair is read whole, into dense histograms, before anything is written).
 */
int series_coarsen(struct series *s)
{
	struct hist *h = malloc(DDIR_NR * sizeof(*h));
	size_t i, o = 0, ramp = 0;

	if (!h)
		return -ENOMEM;
	s->b_nr = 0;	/* the write position; the reads use the elements' offsets */
	for (i = 0; i < s->nr;) {
		/* a pair within one phase: the ramp ends at nr_ramp */
		size_t end = i < s->nr_ramp ? s->nr_ramp : s->nr;
		size_t k = i + 1 < end ? 2 : 1;
		struct series_iv m;

		coarsen_iv(&m, s, i, k, h);
		for (int d = 0; d < DDIR_NR; d++) {
			sparse_put(s, &h[d], &m.d[d]);
			set_pcts(&m.d[d], &h[d]);
		}
		if (m.ramp)
			ramp++;
		s->iv[o++] = m;
		i += k;
	}
	free(h);
	s->nr = o;
	s->nr_ramp = ramp;
	return 0;
}

int series_bound(struct series *s, size_t max)
{
	while (max && s->nr > max) {
		size_t before = s->nr;
		int r = series_coarsen(s);

		if (r)
			return r;
		if (s->nr == before)	/* one interval per phase: cannot shrink */
			break;
	}
	return 0;
}

uint32_t series_level(const struct series *s)
{
	uint32_t m = 1, l = 1;

	for (size_t i = 0; i < s->nr; i++)
		if (series_iv_n(&s->iv[i]) > m)
			m = series_iv_n(&s->iv[i]);
	while (l < m && l < (UINT32_C(1) << 31))
		l *= 2;
	return l;
}

int series_coarsen_to(struct series *s, uint32_t n)
{
	while (series_level(s) < n) {
		size_t before = s->nr;
		int r = series_coarsen(s);

		if (r)
			return r;
		if (s->nr == before)	/* one element per phase: nothing to pair */
			break;
	}
	return 0;
}


/* Add held interval @i (local index) of direction @d to the window's sums. */
static void window_add_local(struct series_window *w, const struct series *s, size_t i, enum ddir d)
{
	const struct series_dir *sd = &s->iv[i].d[d];

	w->dur_us += s->iv[i].dur_us;
	w->ios += sd->ios;
	w->bytes += sd->bytes;
	w->lat_sum += (double)sd->lat_sum_ns;
	if (sd->lat_min < w->lat_acc_min)
		w->lat_acc_min = sd->lat_min;
	if (sd->lat_max > w->lat_max)
		w->lat_max = sd->lat_max;
	w->end_ms = s->iv[i].t_ms;
	w->last = s->base + i;
	hist_add_local(s, i, d, &w->hist);
}

void series_window_add(struct series_window *w, const struct series *s, size_t i, enum ddir d)
{
	window_add_local(w, s, i - s->base, d);
}

void series_window_finish(struct series_window *w)
{
	double secs = (double)w->dur_us / 1e6;
	uint64_t v[3];

	w->lat_mean = w->ios ? w->lat_sum / (double)w->ios : 0.0;
	w->lat_min = w->ios ? w->lat_acc_min : 0;
	w->iops = (double)w->ios / secs;
	w->bw_bytes = (double)w->bytes / secs;
	pcts_in(&w->hist, w->lat_min, w->lat_max, v);
	w->p50 = v[0];
	w->p99 = v[1];
	w->p999 = v[2];
}

int series_window(const struct series *s, size_t first, size_t last,
		  enum ddir d, struct series_window *w)
{
	if (first > last || first < s->base || last >= series_end(s) || d < 0 || d >= DDIR_NR)
		return -EINVAL;
	memset(w, 0, sizeof(*w));
	w->first = first;
	first -= s->base;	/* held indexes from here on */
	last -= s->base;
	w->start_ms = series_held_start_ms(s, first);
	w->lat_acc_min = UINT64_MAX;
	for (size_t i = first; i <= last; i++)
		window_add_local(w, s, i, d);
	series_window_finish(w);
	return 0;
}

/* Interval @i's I/Os (@bytes 0) or bytes (1) per second, direction @d or all (< 0). */
static double series_rate(const struct series *s, size_t i, int d, int bytes)
{
	const struct series_iv *iv = series_at(s, i);
	uint64_t sum = 0;

	for (int k = 0; k < DDIR_NR; k++)
		if (d < 0 || d == k)
			sum += bytes ? iv->d[k].bytes : iv->d[k].ios;
	return (double)sum * 1e6 / (double)iv->dur_us;
}

double series_iops(const struct series *s, size_t i, int d)
{
	return series_rate(s, i, d, 0);
}

double series_bw(const struct series *s, size_t i, int d)
{
	return series_rate(s, i, d, 1);
}

uint64_t series_total_ios(const struct series *s, enum ddir d)
{
	uint64_t n = 0;

	for (size_t i = s->nr_ramp; i < s->nr; i++)
		n += s->iv[i].d[d].ios;
	return n;
}

/* {"mean","min","max","p50","p99","p99.9"} */
static json_t *lat_json(double mean, uint64_t min, uint64_t max,
			uint64_t p50, uint64_t p99, uint64_t p999)
{
	return json_pack("{s:f, s:I, s:I, s:I, s:I, s:I}", "mean", mean,
			 "min", (json_int_t)min, "max", (json_int_t)max,
			 "p50", (json_int_t)p50, "p99", (json_int_t)p99,
			 "p99.9", (json_int_t)p999);
}

/* fio json+ style: {"<bucket midpoint ns>": count} of the non-zero buckets */
static json_t *bins_json(const struct series *s, const struct series_dir *sd)
{
	json_t *o = json_object();
	char key[24];

	if (!o)
		return NULL;
	uint32_t pos = 0;
	unsigned idx = 0;
	uint64_t c;

	while (sparse_next(s, sd, &pos, &idx, &c)) {
		snprintf(key, sizeof(key), "%llu", (unsigned long long)hist_bucket_value(idx));
		if (json_object_set_new(o, key, json_integer((json_int_t)c))) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

static json_t *dir_json(const struct series *s, const struct series_iv *iv, int d, unsigned flags)
{
	const struct series_dir *sd = &iv->d[d];
	double secs = (double)iv->dur_us / 1e6;
	json_t *o, *lat;

	lat = lat_json(sd->ios ? (double)sd->lat_sum_ns / (double)sd->ios : 0.0,
		       sd->ios ? sd->lat_min : 0, sd->lat_max, sd->p50, sd->p99, sd->p999);
	o = json_pack("{s:I, s:I, s:f, s:I, s:o}", "ios", (json_int_t)sd->ios,
		      "bytes", (json_int_t)sd->bytes, "iops", (double)sd->ios / secs,
		      "bw_bytes", (json_int_t)((double)sd->bytes / secs + 0.5), "lat_ns", lat);
	if (o && (flags & SERIES_JSON_HIST)) {
		json_t *bins = bins_json(s, sd);

		if (!bins || json_object_set_new(json_object_get(o, "lat_ns"), "bins", bins)) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

/* A direction with nothing in it: its JSON is the same in every element. */
static int dir_idle(const struct series_dir *sd, unsigned flags)
{
	return !sd->ios && !sd->bytes && !sd->lat_max && !sd->p50 && !sd->p99 && !sd->p999 &&
	       !(flags & SERIES_JSON_HIST);
}

/*
 * Elements' idle directions (a read job's write and trim, every job's trim)
 * share one JSON object, referenced from each: the document prints the same,
 * and a long series' tree, the largest thing a run holds while its result is
 * written (docs/performance.md, "Memory"), is up to two thirds smaller.
 */
int series_to_json(const struct series *s, unsigned flags, json_t **out)
{
	json_t *arr = json_array(), *idle = NULL;

	if (!arr)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr; i++) {
		const struct series_iv *iv = &s->iv[i];
		json_t *e = json_pack("{s:I, s:I}", "t_ms", (json_int_t)iv->t_ms,
				      "dur_us", (json_int_t)iv->dur_us);

		if (!e || (iv->ramp && json_object_set_new(e, "ramp", json_true())))
			goto fail_e;
		if (series_iv_n(iv) > 1 &&
		    json_object_set_new(e, "intervals", json_integer((json_int_t)iv->n)))
			goto fail_e;
		for (int d = 0; d < DDIR_NR; d++) {
			json_t *o;

			if (dir_idle(&iv->d[d], flags)) {
				if (!idle && !(idle = dir_json(s, iv, d, flags)))
					goto fail_e;
				if (json_object_set(e, ddir_name(d), idle))
					goto fail_e;
				continue;
			}
			o = dir_json(s, iv, d, flags);
			if (!o || json_object_set_new(e, ddir_name(d), o))
				goto fail_e;
		}
		if (json_array_append_new(arr, e))
			goto fail;
		continue;
fail_e:
		json_decref(e);
		goto fail;
	}
	json_decref(idle);
	*out = arr;
	return 0;
fail:
	json_decref(idle);
	json_decref(arr);
	return -ENOMEM;
}

int series_window_to_json(const struct series_window *w, json_t **out)
{
	json_t *lat = lat_json(w->lat_mean, w->lat_min, w->lat_max, w->p50, w->p99, w->p999);

	*out = json_pack("{s:I, s:I, s:f, s:I, s:o}", "ios", (json_int_t)w->ios,
			 "bytes", (json_int_t)w->bytes, "iops", w->iops,
			 "bw_bytes", (json_int_t)(w->bw_bytes + 0.5), "lat_ns", lat);
	return *out ? 0 : -ENOMEM;
}
