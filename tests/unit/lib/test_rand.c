/*
 * test_rand: reproducible streams, unbiased bounded integers, the random map
 * (every block once per pass, also across map levels), and the shapes of
 * the zipf, pareto and normal distributions against their formulas.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "lib/rand.h"

TEST(seeding_reproduces)
{
	struct rand_state a, b, c;
	int i, same = 1, differ = 0;

	rand_seed(&a, 7);
	rand_seed(&b, 7);
	rand_seed(&c, 8);
	for (i = 0; i < 1000; i++) {
		uint64_t x = rand_u64(&a), y = rand_u64(&b), z = rand_u64(&c);

		same &= x == y;
		differ += x != z;
	}
	CHECK(same);
	CHECK(differ > 990);
	rand_seed(&a, 0);	/* seed 0 must not give a stuck state */
	CHECK(rand_u64(&a) != rand_u64(&a));
	CHECK(rand_mix(1, 0) != rand_mix(1, 1));
	CHECK(rand_mix(1, 0) != rand_mix(2, 0));
	CHECK_EQ_U(rand_base_seed(1, 0, 0), rand_base_seed(1, 0, 0));
	CHECK_EQ_U(rand_base_seed(1, 1, 99), 99);
	CHECK_EQ_U(rand_base_seed(0, 1, 99), 99);
	CHECK(rand_base_seed(0, 0, 0) != rand_base_seed(0, 0, 0));
}

TEST(bounded_uniform)
{
	struct rand_state r;
	unsigned cnt[10] = { 0 };
	double chi = 0, mean = 0;
	int i, out = 0;

	rand_seed(&r, 1);
	for (i = 0; i < 100000; i++)
		cnt[rand_below(&r, 10)]++;
	for (i = 0; i < 10; i++)
		chi += (cnt[i] - 10000.0) * (cnt[i] - 10000.0) / 10000.0;
	CHECK(chi < 30);	/* 9 dof: p ~ 0.0005 */
	for (i = 0; i < 1000; i++) {
		out += rand_below(&r, 1) != 0;
		out += rand_below(&r, (1ull << 63) + 1) > (1ull << 63);
		out += rand_below(&r, 3) > 2;
	}
	CHECK_EQ_U(out, 0);
	for (i = 0; i < 100000; i++) {
		double d = rand_double(&r);

		out += d < 0 || d >= 1;
		mean += d;
	}
	CHECK_EQ_U(out, 0);
	CHECK_NEAR(mean / 100000, 0.5, 0.005);
	/* exponential: mean 1, P(X > 1) = 1/e */
	mean = 0;
	out = 0;
	for (i = 0; i < 100000; i++) {
		double x = rand_exp(&r);

		mean += x;
		out += x > 1;
	}
	CHECK_NEAR(mean / 100000, 1.0, 0.02);
	CHECK_NEAR(out / 100000.0, exp(-1), 0.006);
}

/* Fill a map in random order like iogen does; each block must come out once. */
static int fill_once(struct rand_map *m, struct rand_state *r, unsigned char *seen)
{
	uint64_t i, k, bad = 0;

	for (i = 0; i < m->nr; i++) {
		k = rand_below(r, m->nr);
		if (rand_map_isset(m, k))
			k = rand_map_next_free(m, k);
		if (k == RAND_MAP_NONE || k >= m->nr)
			return 0;
		bad += seen[k]++ != 0;
		bad += rand_map_set_run(m, k, 1) != 1;
	}
	return !bad && rand_map_full(m) && rand_map_next_free(m, 0) == RAND_MAP_NONE;
}

TEST(random_map_every_block_once)
{
	static const uint64_t sizes[] = { 1, 63, 64, 65, 1000, 4096, 4097, 64 * 64 * 64 + 5 };
	struct rand_state r;
	unsigned s, pass;

	rand_seed(&r, 3);
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		struct rand_map m;
		unsigned char *seen = calloc(sizes[s], 1);

		CHECK_EQ_U(rand_map_init(&m, sizes[s]), 0);
		for (pass = 0; pass < 2; pass++) {
			int ok;

			memset(seen, 0, sizes[s]);
			ok = fill_once(&m, &r, seen);
			if (!ok)
				printf("  map of %llu blocks, pass %u\n", (unsigned long long)sizes[s], pass);
			CHECK(ok);
			CHECK(memchr(seen, 0, sizes[s]) == NULL);
			rand_map_reset(&m);
			CHECK_EQ_U(m.used, 0);
		}
		rand_map_free(&m);
		free(seen);
	}
	CHECK(rand_map_init(&(struct rand_map){ 0 }, 0) == -EINVAL);
}

TEST(random_map_runs_and_search)
{
	struct rand_map m;

	CHECK_EQ_U(rand_map_init(&m, 200), 0);
	CHECK_EQ_U(m.levels, 2);
	CHECK_EQ_U(rand_map_set_run(&m, 10, 5), 5);	/* 10..14 */
	CHECK_EQ_U(rand_map_set_run(&m, 8, 5), 2);	/* stops at 10 */
	CHECK_EQ_U(rand_map_set_run(&m, 12, 3), 0);
	CHECK_EQ_U(rand_map_set_run(&m, 198, 5), 2);	/* stops at the end */
	CHECK_EQ_U(m.used, 9);
	CHECK_EQ_U(rand_map_next_free(&m, 8), 15);
	CHECK_EQ_U(rand_map_next_free(&m, 198), 0);	/* wraps */
	CHECK_EQ_U(rand_map_set_run(&m, 0, 8), 8);
	CHECK_EQ_U(rand_map_next_free(&m, 199), 15);
	/* a whole first word full: the level above points past it */
	CHECK_EQ_U(rand_map_set_run(&m, 15, 49), 49);	/* 0..63 all set */
	CHECK_EQ_U(m.lvl[1][0] & 1, 1);
	CHECK_EQ_U(rand_map_next_free(&m, 3), 64);
	rand_map_free(&m);
}

TEST(zipf_matches_formula)
{
	const uint64_t n = 1000;
	const double thetas[] = { 1.2, 1.0, 0.8 };
	struct rand_state r;
	unsigned t;

	rand_seed(&r, 5);
	for (t = 0; t < 3; t++) {
		static unsigned cnt[1000];
		struct rand_skew z;
		double zeta = 0, draws = 200000;
		uint64_t k;
		int i;

		CHECK_EQ_U(rand_skew_init(&z, RAND_SKEW_ZIPF, n, thetas[t]), 0);
		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < (int)draws; i++) {
			k = rand_skew_next(&z, &r);
			if (k < n)
				cnt[k]++;
		}
		for (k = 1; k <= n; k++)
			zeta += pow((double)k, -thetas[t]);
		/* ranks 1..5 and 100: within 4 standard deviations of the exact probability */
		for (k = 1; k <= 100; k += (k < 5 ? 1 : 95)) {
			double p = pow((double)k, -thetas[t]) / zeta;
			double sd = sqrt(draws * p * (1 - p));

			if (fabs(cnt[k - 1] - draws * p) > 4 * sd)
				printf("  theta %g rank %llu: %u vs %.0f\n", thetas[t],
				       (unsigned long long)k, cnt[k - 1], draws * p);
			CHECK(fabs(cnt[k - 1] - draws * p) <= 4 * sd);
		}
	}
	CHECK(rand_skew_init(&(struct rand_skew){ 0 }, RAND_SKEW_ZIPF, 10, 0) == -EINVAL);
}

TEST(pareto_shape)
{
	struct rand_state r;
	struct rand_skew p;
	int i, low = 0, n = 100000;

	rand_seed(&r, 6);
	CHECK_EQ_U(rand_skew_init(&p, RAND_SKEW_PARETO, 10000, 0.2), 0);
	for (i = 0; i < n; i++)
		low += rand_skew_next(&p, &r) < 2000;
	/* pareto:0.2: the hottest 20% of blocks get 80% of the I/O */
	CHECK_NEAR((double)low / n, 0.8, 0.006);
	CHECK(rand_skew_init(&p, RAND_SKEW_PARETO, 10, 1.0) == -EINVAL);
	CHECK(rand_skew_init(&p, RAND_SKEW_PARETO, 10, 0) == -EINVAL);
}

TEST(normal_shape)
{
	struct rand_state r;
	struct rand_skew g;
	double sum = 0, sq = 0;
	int i, n = 100000, in1 = 0, out = 0;

	rand_seed(&r, 7);
	CHECK_EQ_U(rand_skew_init(&g, RAND_SKEW_NORMAL, 10000, 10), 0);	/* sigma = 1000 blocks */
	for (i = 0; i < n; i++) {
		uint64_t k = rand_skew_next(&g, &r);

		out += k >= 10000;
		sum += (double)k;
		sq += ((double)k - 5000) * ((double)k - 5000);
		in1 += k >= 4000 && k < 6000;
	}
	CHECK_EQ_U(out, 0);
	CHECK_NEAR(sum / n, 4999.5, 15);
	CHECK_NEAR(sqrt(sq / n), 1000, 15);
	CHECK_NEAR((double)in1 / n, 0.6827, 0.006);
	CHECK(rand_skew_init(&g, RAND_SKEW_NORMAL, 10, 101) == -EINVAL);
	CHECK_EQ_U(rand_skew_init(&g, RAND_SKEW_NORMAL, 10, 0), 0);
	CHECK_EQ_U(rand_skew_next(&g, &r), 5);
}

/* The full-period sequence visits each index once per n draws, for any n. */
TEST(fullperiod_covers_each_index_once)
{
	static unsigned char seen[5000];
	const uint64_t ns[] = { 1, 2, 3, 7, 64, 1000, 4096, 4097 };
	size_t t;

	for (t = 0; t < sizeof(ns) / sizeof(ns[0]); t++) {
		struct rand_fullperiod f;
		uint64_t i, n = ns[t], bad = 0;
		int pass;

		rand_fullperiod_init(&f, n, 42 + t);
		for (pass = 0; pass < 2; pass++) {
			memset(seen, 0, sizeof(seen));
			for (i = 0; i < n; i++) {
				uint64_t k = rand_fullperiod_next(&f);

				if (k >= n || seen[k]++)
					bad++;
			}
		}
		CHECK_EQ_U(bad, 0);
	}
}

int main(void)
{
	RUN(fullperiod_covers_each_index_once);
	RUN(seeding_reproduces);
	RUN(bounded_uniform);
	RUN(random_map_every_block_once);
	RUN(random_map_runs_and_search);
	RUN(zipf_matches_formula);
	RUN(pareto_shape);
	RUN(normal_shape);
	return CHECK_DONE();
}
