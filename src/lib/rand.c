/*
 * rand: seeding, the random map and the skewed distributions (see rand.h).
 */
#include "lib/rand.h"

#include <errno.h>	/* EINVAL, ENOMEM */
#include <math.h>	/* log, exp, expm1, log1p, pow */
#include <stdlib.h>	/* calloc */
#include <string.h>	/* memset */
#include <sys/random.h>	/* getrandom */
#include <time.h>	/* clock_gettime: fallback entropy */

#define RAND_REPEAT_SEED 0x696f747269616c31ull	/* "iotrial1" */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void rand_seed(struct rand_state *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t rand_mix(uint64_t a, uint64_t b)
{
	uint64_t x = a ^ rand_rotl(b, 29) ^ 0x6a09e667f3bcc909ull;

	splitmix64(&x);
	x ^= b;
	return splitmix64(&x);
}

uint64_t rand_base_seed(int repeat, int seed_given, uint64_t seed)
{
	struct timespec ts;
	uint64_t v;

	if (seed_given)
		return seed;
	if (repeat)
		return RAND_REPEAT_SEED;
	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) == (ssize_t)sizeof(v))
		return v;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return rand_mix((uint64_t)ts.tv_nsec, (uint64_t)ts.tv_sec);
}

/* Standard normal deviate (Box-Muller). */
static double rand_normal(struct rand_state *r)
{
	double u1 = 1.0 - rand_double(r);	/* (0, 1]: log is finite */
	double u2 = rand_double(r);

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

double rand_exp(struct rand_state *r)
{
	return -log(1.0 - rand_double(r));
}

/* ---- random map ---- */

/* Mark the bits past the end of each level as used, so searches skip them. */
static void map_set_tails(struct rand_map *m)
{
	uint64_t nbits = m->nr;
	unsigned l;

	for (l = 0; l < m->levels; l++) {
		unsigned tail = (unsigned)(nbits & 63);

		if (tail)
			m->lvl[l][m->words[l] - 1] |= ~0ull << tail;
		nbits = m->words[l];
	}
}

int rand_map_init(struct rand_map *m, uint64_t nr)
{
	uint64_t nbits = nr;
	unsigned l = 0;

	memset(m, 0, sizeof(*m));
	if (!nr)
		return -EINVAL;
	m->nr = nr;
	do {
		m->words[l] = (nbits + 63) / 64;
		m->lvl[l] = calloc(m->words[l], sizeof(uint64_t));
		if (!m->lvl[l]) {
			m->levels = l;
			rand_map_free(m);
			return -ENOMEM;
		}
		nbits = m->words[l];
		l++;
	} while (nbits > 1 && l < RAND_MAP_LEVELS);
	m->levels = l;
	map_set_tails(m);
	return 0;
}

void rand_map_free(struct rand_map *m)
{
	unsigned l;

	for (l = 0; l < m->levels; l++)
		free(m->lvl[l]);
	memset(m, 0, sizeof(*m));
}

void rand_map_reset(struct rand_map *m)
{
	unsigned l;

	for (l = 0; l < m->levels; l++)
		memset(m->lvl[l], 0, m->words[l] * sizeof(uint64_t));
	m->used = 0;
	map_set_tails(m);
}

/*
 * First zero bit at or after @p on level @l, or RAND_MAP_NONE.  When the
 * current word has none, the level above says which later word is not full.
 */
static uint64_t map_find_zero(const struct rand_map *m, unsigned l, uint64_t p)
{
	for (;;) {
		uint64_t w = p >> 6, bits, q;

		if (w >= m->words[l])
			return RAND_MAP_NONE;
		bits = ~m->lvl[l][w] & (~0ull << (p & 63));
		if (bits)
			return (w << 6) + (uint64_t)__builtin_ctzll(bits);
		if (l + 1 >= m->levels)
			return RAND_MAP_NONE;	/* the top level is one word */
		q = map_find_zero(m, l + 1, w + 1);
		if (q == RAND_MAP_NONE)
			return RAND_MAP_NONE;
		p = q << 6;
	}
}

uint64_t rand_map_next_free(const struct rand_map *m, uint64_t b)
{
	uint64_t f;

	if (rand_map_full(m))
		return RAND_MAP_NONE;
	if (b >= m->nr)
		b = 0;
	f = map_find_zero(m, 0, b);
	if (f == RAND_MAP_NONE)
		f = map_find_zero(m, 0, 0);
	return f;
}

static void map_set(struct rand_map *m, uint64_t b)
{
	unsigned l;

	m->used++;
	for (l = 0; l < m->levels; l++) {
		uint64_t *w = &m->lvl[l][b >> 6];

		*w |= 1ull << (b & 63);
		if (*w != ~0ull)
			return;
		b >>= 6;	/* this word is now full: note it one level up */
	}
}

uint64_t rand_map_set_run(struct rand_map *m, uint64_t b, uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n && b + i < m->nr; i++) {
		if (rand_map_isset(m, b + i))
			break;
		map_set(m, b + i);
	}
	return i;
}

/* ---- skewed distributions ---- */

/* log1p(x)/x and expm1(x)/x, both continuous at 0 (where they equal 1). */
static double helper_log1p_x(double x)
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1.0 - x / 2.0;
}

static double helper_expm1_x(double x)
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1.0 + x / 2.0;
}

/* H(x) = (x^(1-theta) - 1) / (1 - theta): the integral of x^-theta (log x at theta = 1). */
static double zipf_H(double theta, double x)
{
	double lx = log(x);

	return helper_expm1_x((1.0 - theta) * lx) * lx;
}

static double zipf_H_inv(double theta, double y)
{
	double t = y * (1.0 - theta);

	if (t < -1.0)
		t = -1.0;
	return exp(helper_log1p_x(t) * y);
}

static double zipf_h(double theta, double x)
{
	return exp(-theta * log(x));
}

int rand_skew_init(struct rand_skew *d, enum rand_skew_kind kind, uint64_t n, double param)
{
	memset(d, 0, sizeof(*d));
	if (!n)
		return -EINVAL;
	d->kind = kind;
	d->n = n;
	d->n_d = (double)n;
	switch (kind) {
	case RAND_SKEW_ZIPF:
		if (!(param > 0.0))
			return -EINVAL;
		d->theta = param;
		d->h_x1 = zipf_H(param, 1.5) - 1.0;
		d->h_n = zipf_H(param, d->n_d + 0.5);
		d->sv = 2.0 - zipf_H_inv(param, zipf_H(param, 2.5) - zipf_h(param, 2.0));
		return 0;
	case RAND_SKEW_PARETO:
		if (!(param > 0.0 && param < 1.0))
			return -EINVAL;
		/* P(u^pow < h) = h^(1/pow) = 1 - h */
		d->pow = log(param) / log(1.0 - param);
		return 0;
	case RAND_SKEW_NORMAL:
		if (!(param >= 0.0 && param <= 100.0))
			return -EINVAL;
		d->center = d->n_d / 2.0;
		d->sigma = d->n_d * param / 100.0;
		return 0;
	}
	return -EINVAL;
}

/* Rejection-inversion: exact Zipf ranks 1..n in O(1) expected time for any n. */
static uint64_t zipf_next(const struct rand_skew *d, struct rand_state *r)
{
	for (;;) {
		double u = d->h_n + rand_double(r) * (d->h_x1 - d->h_n);
		double x = zipf_H_inv(d->theta, u);
		double k = floor(x + 0.5);

		if (k < 1.0)
			k = 1.0;
		else if (k > d->n_d)
			k = d->n_d;
		if (k - x <= d->sv || u >= zipf_H(d->theta, k + 0.5) - zipf_h(d->theta, k)) {
			uint64_t rank = (uint64_t)k - 1;

			return rank < d->n ? rank : d->n - 1;
		}
	}
}

uint64_t rand_skew_next(const struct rand_skew *d, struct rand_state *r)
{
	double v;

	switch (d->kind) {
	case RAND_SKEW_ZIPF:
		return zipf_next(d, r);
	case RAND_SKEW_PARETO:
		v = d->n_d * pow(rand_double(r), d->pow);
		return v < d->n_d ? (uint64_t)v : d->n - 1;
	case RAND_SKEW_NORMAL:
		do {
			v = floor(d->center + d->sigma * rand_normal(r));
		} while (v < 0.0 || v >= d->n_d);
		return (uint64_t)v;
	}
	return 0;
}

void rand_fullperiod_init(struct rand_fullperiod *f, uint64_t n, uint64_t seed)
{
	uint64_t m = 1;

	while (m < n && m < (1ull << 63))
		m <<= 1;
	f->n = n;
	f->mask = m >= (1ull << 63) && m < n ? UINT64_MAX : m - 1;
	f->c = (rand_mix(seed, 0x1f5a) | 1) & f->mask;
	if (!f->c)
		f->c = 1;
	f->x = rand_mix(seed, 0x2f5a) & f->mask;
}
