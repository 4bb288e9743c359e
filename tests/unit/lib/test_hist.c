/*
 * test_hist: the histogram layout (index <-> value), merge/delta, and
 * percentiles, including fio's own percentiles recomputed from its bins.
 */
#include <stdint.h>
#include "check.h"
#include "lib/hist.h"

static uint64_t lcg(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return *x;
}

/* Every value lands in a bucket whose [low, high] contains it. */
static int value_in_bucket(uint64_t v)
{
	unsigned i = hist_index(v);

	return hist_bucket_low(i) <= v && v <= hist_bucket_high(i);
}

TEST(index_round_trip)
{
	uint64_t v, x = 42;
	unsigned i, bad = 0, bad_err = 0;
	int k;

	for (v = 0; v < 200000; v++)
		bad += !value_in_bucket(v);
	for (k = 0; k < 200000; k++) {
		unsigned shift = (unsigned)(lcg(&x) >> 58);	/* 0..63: all magnitudes */
		uint64_t r = lcg(&x) >> shift;

		bad += !value_in_bucket(r);
		i = hist_index(r);
		/* the midpoint is within 1/128 of every value of its bucket (below the clamp) */
		if (r < (1ull << 34) && r >= 128) {
			double val = (double)hist_bucket_value(i);

			if (fabs(val - (double)r) / (double)r > 1.0 / 128)
				bad_err++;
		}
	}
	CHECK_EQ_U(bad, 0);
	CHECK_EQ_U(bad_err, 0);
}

TEST(layout_by_hand)
{
	unsigned i;
	int gaps = 0, mids = 0;

	CHECK_EQ_U(hist_index(0), 0);
	CHECK_EQ_U(hist_index(127), 127);
	CHECK_EQ_U(hist_index(128), 128);	/* width 2 from 128 */
	CHECK_EQ_U(hist_index(129), 128);
	CHECK_EQ_U(hist_index(130), 129);
	CHECK_EQ_U(hist_index(255), 191);
	CHECK_EQ_U(hist_index(256), 192);	/* width 4 from 256 */
	CHECK_EQ_U(hist_index(259), 192);
	CHECK_EQ_U(hist_bucket_value(127), 127);
	CHECK_EQ_U(hist_bucket_value(128), 129);
	CHECK_EQ_U(hist_bucket_value(191), 255);
	CHECK_EQ_U(hist_bucket_value(192), 258);
	CHECK_EQ_U(hist_bucket_low(192), 256);
	CHECK_EQ_U(hist_bucket_high(192), 259);
	/* 42240 is a real fio bin: [41984, 42495], width 512 */
	CHECK_EQ_U(hist_bucket_low(hist_index(42240)), 41984);
	CHECK_EQ_U(hist_bucket_high(hist_index(42240)), 42495);
	CHECK_EQ_U(hist_bucket_value(hist_index(41984)), 42240);
	/* the last group: [2^33, 2^34) in buckets of 2^27; beyond clamps */
	CHECK_EQ_U(hist_bucket_low(HIST_NR - 64), 1ull << 33);
	CHECK_EQ_U(hist_index((1ull << 34) - 1), HIST_NR - 1);
	CHECK_EQ_U(hist_index(1ull << 34), HIST_NR - 1);
	CHECK_EQ_U(hist_index(UINT64_MAX), HIST_NR - 1);
	CHECK_EQ_U(hist_bucket_high(HIST_NR - 1), UINT64_MAX);
	/* buckets tile the line with no gap, and value = low + width / 2 */
	for (i = 0; i + 1 < HIST_NR; i++) {
		uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);

		gaps += hi + 1 != hist_bucket_low(i + 1);
		if (i >= 128)
			mids += hist_bucket_value(i) != lo + (hi - lo + 1) / 2;
		else
			mids += hist_bucket_value(i) != i;
	}
	CHECK_EQ_U(gaps, 0);
	CHECK_EQ_U(mids, 0);
}

TEST(merge_delta_total)
{
	static struct hist a, b, c;
	unsigned i;
	int bad = 0;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	hist_add(&a, 5);
	hist_add(&a, 5);
	hist_add(&a, 1000000);
	hist_add(&b, 5);
	hist_add(&b, UINT64_MAX);
	CHECK_EQ_U(hist_total(&a), 3);
	c = a;
	hist_merge(&c, &b);
	CHECK_EQ_U(hist_total(&c), 5);
	CHECK_EQ_U(c.b[5], 3);
	CHECK_EQ_U(c.b[HIST_NR - 1], 1);
	hist_delta(&c, &c, &a);		/* aliasing allowed */
	for (i = 0; i < HIST_NR; i++)
		bad += c.b[i] != b.b[i];
	CHECK_EQ_U(bad, 0);
}

TEST(percentiles_by_hand)
{
	static struct hist h;
	double p[] = { 1, 25, 50, 50.1, 75, 100 };
	uint64_t out[6];

	memset(&h, 0, sizeof(h));
	CHECK_EQ_U(hist_percentile(&h, 50), 0);	/* empty */
	h.b[10] = 1;
	h.b[20] = 1;
	h.b[30] = 2;
	/* N = 4: thresholds 0.04, 1, 2, 2.004, 3, 4 over cumulative 1, 2, 4 */
	hist_percentiles(&h, p, 6, out);
	CHECK_EQ_U(out[0], 10);
	CHECK_EQ_U(out[1], 10);	/* cumulative 1 >= 1: the first bucket */
	CHECK_EQ_U(out[2], 20);
	CHECK_EQ_U(out[3], 30);
	CHECK_EQ_U(out[4], 30);
	CHECK_EQ_U(out[5], 30);
	CHECK_EQ_U(hist_percentile(&h, 50), 20);
	/* a value above 128 reports its bucket's midpoint */
	memset(&h, 0, sizeof(h));
	hist_add(&h, 1000);
	CHECK_EQ_U(hist_percentile(&h, 99), hist_bucket_value(hist_index(1000)));
	CHECK_EQ_U(hist_percentile(&h, 99), 1004);	/* [1000, 1007] */
}

/* fio 3.33 --output-format=json+ (fio-samples/jp.json): clat_ns bins and percentiles */
static const struct { uint64_t v, n; } jp_bins[] = {
	{42240, 1}, {44800, 2}, {45824, 3}, {46848, 6}, {47360, 1}, {47872, 2}, {48384, 4},
	{48896, 10}, {49408, 19}, {49920, 27}, {50432, 24}, {50944, 26}, {51456, 25},
	{51968, 26}, {52480, 43}, {52992, 35}, {53504, 31}, {54016, 51}, {54528, 58},
	{55040, 55}, {55552, 74}, {56064, 85}, {56576, 77}, {57088, 86}, {57600, 93},
	{58112, 94}, {58624, 121}, {59136, 147}, {59648, 148}, {60160, 152}, {60672, 157},
	{61184, 155}, {61696, 117}, {62208, 160}, {62720, 146}, {63232, 150}, {63744, 153},
	{64256, 151}, {64768, 138}, {65280, 175}, {66048, 382}, {67072, 446}, {68096, 477},
	{69120, 553}, {70144, 473}, {71168, 438}, {72192, 400}, {73216, 393}, {74240, 360},
	{75264, 348}, {76288, 358}, {77312, 362}, {78336, 339}, {79360, 312}, {80384, 302},
	{81408, 248}, {82432, 206}, {83456, 206}, {84480, 172}, {85504, 179}, {86528, 147},
	{87552, 152}, {88576, 154}, {89600, 157}, {90624, 151}, {91648, 136}, {92672, 109},
	{93696, 120}, {94720, 105}, {95744, 107}, {96768, 115}, {97792, 107}, {98816, 80},
	{99840, 86}, {100864, 81}, {101888, 71}, {102912, 69}, {103936, 48}, {104960, 38},
	{105984, 30}, {107008, 31}, {108032, 32}, {109056, 25}, {110080, 19}, {111104, 15},
	{112128, 18}, {113152, 19}, {114176, 11}, {115200, 11}, {116224, 10}, {117248, 7},
	{118272, 14}, {119296, 12}, {120320, 6}, {121344, 5}, {122368, 4}, {123392, 8},
	{124416, 4}, {125440, 5}, {126464, 4}, {127488, 10}, {128512, 7}, {129536, 5},
	{130560, 3}, {132096, 10}, {134144, 11}, {136192, 10}, {138240, 12}, {140288, 9},
	{142336, 11}, {144384, 5}, {146432, 5}, {148480, 8}, {150528, 6}, {152576, 3},
	{154624, 6}, {156672, 3}, {158720, 2}, {160768, 3}, {162816, 4}, {164864, 6},
	{166912, 1}, {168960, 2}, {171008, 1}, {173056, 4}, {175104, 3}, {177152, 3},
	{179200, 3}, {181248, 5}, {183296, 2}, {185344, 2}, {187392, 3}, {189440, 1},
	{191488, 1}, {197632, 3}, {199680, 1}, {203776, 1}, {205824, 3}, {207872, 2},
	{214016, 1}, {220160, 1}, {222208, 2}, {230400, 1}, {232448, 1}, {234496, 1},
	{240640, 1}, {244736, 1}, {246784, 1}, {248832, 1}, {254976, 2}, {257024, 1},
	{264192, 2}, {268288, 1}, {272384, 2}, {288768, 1}, {292864, 4}, {301056, 1},
	{309248, 1}, {321536, 1}, {329728, 1}, {337920, 1}, {342016, 3}, {346112, 1},
	{350208, 1}, {354304, 2}, {362496, 2}, {370688, 1}, {374784, 1}, {387072, 1},
	{391168, 2}, {395264, 1}, {399360, 1}, {403456, 1}, {407552, 1}, {411648, 1},
	{419840, 3}, {432128, 1}, {444416, 1}, {448512, 1}, {452608, 1}, {456704, 1},
	{460800, 1}, {473088, 1}, {481280, 1}, {497664, 1}, {514048, 2}, {528384, 1},
	{569344, 1}, {708608, 1}, {790528, 2}, {831488, 1}, {897024, 1}, {1011712, 1},
	{1286144, 1}, {1368064, 1}, {1433600, 1}, {1531904, 1}, {2146304, 1}, {2375680, 1},
	{3194880, 1},
};
static const struct { double p; uint64_t v; } jp_pct[] = {
	{1.000000, 51456}, {5.000000, 56576}, {10.000000, 59648}, {20.000000, 63744}, {30.000000, 67072}, {40.000000, 70144}, {50.000000, 73216}, {60.000000, 76288}, {70.000000, 80384}, {80.000000, 86528}, {90.000000, 95744}, {95.000000, 103936}, {99.000000, 162816}, {99.500000, 264192}, {99.900000, 708608}, {99.950000, 1286144}, {99.990000, 2375680}
};

TEST(fio_percentiles_from_fio_bins)
{
	static struct hist h;
	double p[sizeof(jp_pct) / sizeof(jp_pct[0])];
	uint64_t out[sizeof(jp_pct) / sizeof(jp_pct[0])];
	size_t i, n = sizeof(jp_pct) / sizeof(jp_pct[0]);
	int not_mid = 0;

	memset(&h, 0, sizeof(h));
	for (i = 0; i < sizeof(jp_bins) / sizeof(jp_bins[0]); i++) {
		unsigned idx = hist_index(jp_bins[i].v);

		/* fio's bin keys are exactly our bucket values */
		not_mid += hist_bucket_value(idx) != jp_bins[i].v;
		h.b[idx] += jp_bins[i].n;
	}
	CHECK_EQ_U(not_mid, 0);
	CHECK_EQ_U(hist_total(&h), 12562);	/* fio's clat N */
	for (i = 0; i < n; i++)
		p[i] = jp_pct[i].p;
	hist_percentiles(&h, p, n, out);
	for (i = 0; i < n; i++) {
		if (out[i] != jp_pct[i].v)
			printf("  p%g: ours %llu, fio %llu\n", p[i], (unsigned long long)out[i],
			       (unsigned long long)jp_pct[i].v);
		CHECK_EQ_U(out[i], jp_pct[i].v);
		CHECK_EQ_U(hist_percentile(&h, p[i]), jp_pct[i].v);
	}
}

/* hist_add_n(v, k) counts k samples in v's bucket, as k hist_add(v) would. */
TEST(add_n_equals_repeated_add)
{
	static const uint64_t val[] = { 0, 127, 128, 1000, 1000000, ~0ull };
	static struct hist one, run;
	unsigned i, k;
	int same = 1;

	memset(&one, 0, sizeof(one));
	memset(&run, 0, sizeof(run));
	for (i = 0; i < sizeof(val) / sizeof(val[0]); i++) {
		for (k = 0; k < i + 1; k++)
			hist_add(&one, val[i]);
		hist_add_n(&run, val[i], i + 1);
	}
	for (i = 0; i < HIST_NR; i++)
		same &= one.b[i] == run.b[i];
	CHECK(same);
	CHECK_EQ_U(hist_total(&run), 21);
	CHECK_EQ_U(run.b[hist_index(1000000)], 5);
	CHECK_EQ_U(run.b[HIST_NR - 1], 6);
}

int main(void)
{
	RUN(index_round_trip);
	RUN(layout_by_hand);
	RUN(merge_delta_total);
	RUN(percentiles_by_hand);
	RUN(fio_percentiles_from_fio_bins);
	RUN(add_n_equals_repeated_add);
	return CHECK_DONE();
}
