/*
 * rand: the random numbers behind offsets, directions, block sizes and
 * Poisson arrivals.
 *
 * Generator: xoshiro256** (Blackman & Vigna), 256 bits of state seeded
 * through splitmix64 so that any 64-bit seed, even 0, gives a good state.
 * It costs a few shifts and one multiply per number.  Bounded integers use
 * Lemire's multiply-and-reject method: no modulo bias, and the division only
 * runs in the rare rejection case.
 *
 * rand_map: a bitmap of blocks already done in this pass, so that random I/O
 * touches every block exactly once per pass (fio's default unless
 * norandommap).  Finding the next free block stays fast when the map is
 * nearly full because each level summarises the one below: a bit of level
 * L+1 is set when its 64-bit word at level L is full.  Memory: one bit per
 * block plus 1/63 more (128 MiB of map for a 4 PiB region in 4 KiB blocks).
 *
 * rand_skew: skewed block indices (zipf:theta, pareto:h, normal:sigma%) as
 * fio's random_distribution documents them.
 */
#ifndef IOTRIAL_RAND_H
#define IOTRIAL_RAND_H

#include <stdint.h>

struct rand_state {
	uint64_t s[4];
};

/* Seed from a 64-bit value (all seeds, including 0, are valid). */
void rand_seed(struct rand_state *r, uint64_t seed);

/* A well-mixed 64-bit value from @a and @b: derives per-thread/per-stream seeds. */
uint64_t rand_mix(uint64_t a, uint64_t b);

/*
 * A job's base seed: @seed when given (randseed=), else a fixed constant when
 * @repeat (randrepeat=1, fio's default: every run issues the same offsets),
 * else fresh entropy from getrandom().
 */
uint64_t rand_base_seed(int repeat, int seed_given, uint64_t seed);

/* Streams drawn from one base seed, so that e.g. the rwmix does not shift offsets. */
enum { RAND_STREAM_OFFSET = 1, RAND_STREAM_DDIR, RAND_STREAM_BS, RAND_STREAM_RATE,
       RAND_STREAM_LAYOUT };

static inline uint64_t rand_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rand_u64(struct rand_state *r)
{
	uint64_t *s = r->s;
	uint64_t out = rand_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rand_rotl(s[3], 45);
	return out;
}

/* Uniform in [0, n); n must be > 0. */
static inline uint64_t rand_below(struct rand_state *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)rand_u64(r) * n;
	uint64_t lo = (uint64_t)m;

	if (__builtin_expect(lo < n, 0)) {
		uint64_t t = -n % n;	/* 2^64 mod n: the biased tail */

		while (lo < t) {
			m = (unsigned __int128)rand_u64(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/* Uniform in [0, 1), 53 random bits. */
static inline double rand_double(struct rand_state *r)
{
	return (double)(rand_u64(r) >> 11) * 0x1.0p-53;
}

/* Exponential deviate with mean 1. */
double rand_exp(struct rand_state *r);

/* ---- random map ---- */

#define RAND_MAP_LEVELS 12	/* 64^11 > 2^64: enough for any block count */
#define RAND_MAP_NONE UINT64_MAX

struct rand_map {
	uint64_t nr;			/* blocks */
	uint64_t used;			/* blocks set in this pass */
	unsigned levels;
	uint64_t words[RAND_MAP_LEVELS];	/* words per level */
	uint64_t *lvl[RAND_MAP_LEVELS];
};

/* A map of @nr blocks (nr > 0), all free.  0 or -ENOMEM. */
int rand_map_init(struct rand_map *m, uint64_t nr);
void rand_map_free(struct rand_map *m);

/* Start a new pass: every block free again. */
void rand_map_reset(struct rand_map *m);

static inline int rand_map_isset(const struct rand_map *m, uint64_t b)
{
	return (int)((m->lvl[0][b >> 6] >> (b & 63)) & 1);
}

static inline int rand_map_full(const struct rand_map *m)
{
	return m->used >= m->nr;
}

/* The first free block at or after @b, wrapping to 0; RAND_MAP_NONE if full. */
uint64_t rand_map_next_free(const struct rand_map *m, uint64_t b);

/*
 * Mark up to @n blocks from @b, stopping at the first one already set or at
 * the end of the map.  Returns how many were marked (0 if @b is set).
 */
uint64_t rand_map_set_run(struct rand_map *m, uint64_t b, uint64_t n);

/* ---- full-period sequence (random_generator=lfsr) ---- */

/*
 * Every index of [0, n) exactly once per n draws, in a scrambled order, with
 * no map: a linear congruential sequence modulo the power of two m >= n with
 * an odd increment and a multiplier of 1 mod 4 (full period m, Hull-Dobell),
 * skipping the values >= n (fewer than m/2 in a row).  fio's lfsr has the
 * same property with a different order.
 */
struct rand_fullperiod {
	uint64_t n, mask, x, c;
};

/* Set up for [0, n) (n > 0), the order chosen by @seed. */
void rand_fullperiod_init(struct rand_fullperiod *f, uint64_t n, uint64_t seed);

static inline uint64_t rand_fullperiod_next(struct rand_fullperiod *f)
{
	do
		f->x = (f->x * 6364136223846793005ull + f->c) & f->mask;
	while (f->x >= f->n);
	return f->x;
}

/* ---- skewed distributions ---- */

enum rand_skew_kind { RAND_SKEW_ZIPF, RAND_SKEW_PARETO, RAND_SKEW_NORMAL };

struct rand_skew {
	enum rand_skew_kind kind;
	uint64_t n;
	double n_d;
	/* zipf (rejection-inversion, Hoermann & Derflinger 1996) */
	double theta, h_x1, h_n, sv;
	/* pareto: index = n * u^pow */
	double pow;
	/* normal: index = center + sigma * z */
	double center, sigma;
};

/*
 * Indices in [0, n).  zipf:theta (theta > 0): P(rank k) ~ 1/k^theta, index 0
 * the hottest.  pareto:h (0 < h < 1): a fraction h of the indices gets a
 * fraction 1-h of the draws, the hottest at 0.  normal:sigma (0..100): a
 * Gaussian centred on n/2 whose standard deviation is sigma% of n, redrawn
 * when it falls outside.  Returns 0 or -EINVAL for a bad parameter.
 */
int rand_skew_init(struct rand_skew *d, enum rand_skew_kind kind, uint64_t n, double param);
uint64_t rand_skew_next(const struct rand_skew *d, struct rand_state *r);

#endif
