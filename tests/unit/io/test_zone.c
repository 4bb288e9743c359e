/*
 * test_zone: zonemode=strided's walk (zone.h), the offsets fio 3.33 issues
 * for 4k reads of a 1 MiB region (as its write_iolog shows them).
 */
#include "check.h"
#include "io/zone.h"

#define K 1024ull

/* Zone starts visited over @n zone changes. */
static void walk(const struct zone_cfg *c, uint64_t rstart, uint64_t rend, uint64_t *starts,
		 unsigned n)
{
	struct zone_pos z = { .start = rstart, .done = 0 };
	unsigned i = 0;

	starts[i++] = z.start;
	while (i < n)
		if (zone_advance(c, &z, rstart, rend, 4 * K, 4 * K))
			starts[i++] = z.start;
}

TEST(zone_steps_by_range_plus_skip)
{
	struct zone_cfg c = { .size = 16 * K, .range = 16 * K, .skip = 32 * K };
	uint64_t s[24];

	walk(&c, 0, 1024 * K, s, 24);
	CHECK_EQ_U(s[1], 48 * K);
	CHECK_EQ_U(s[21], 1008 * K);	/* the last that fits */
	CHECK_EQ_U(s[22], 0);		/* 1056k is past the end: back to the start */
	CHECK_EQ_U(s[23], 48 * K);
}

TEST(zone_size_above_range_repeats_the_zone)
{
	struct zone_cfg c = { .size = 64 * K, .range = 16 * K, .skip = 0 };
	struct zone_pos z = { 0, 0 };
	unsigned i, changes = 0;

	for (i = 0; i < 16; i++)	/* 16 x 4k = 64k: one zone change at the end */
		changes += (unsigned)zone_advance(&c, &z, 0, 1024 * K, 4 * K, 4 * K);
	CHECK_EQ_U(changes, 1);
	CHECK_EQ_U(z.start, 16 * K);
}

TEST(zone_offset_region_and_bounds)
{
	struct zone_cfg c = { .size = 8 * K, .range = 40 * K, .skip = 0 };
	struct zone_pos z = { .start = 1000 * K, .done = 0 };
	uint64_t lo, hi;

	zone_bounds(&c, &z, 1024 * K, &lo, &hi);
	CHECK_EQ_U(lo, 1000 * K);
	CHECK_EQ_U(hi, 1024 * K);	/* clipped to the region */
	zone_advance(&c, &z, 8 * K, 1024 * K, 8 * K, 4 * K);
	CHECK_EQ_U(z.start, 8 * K);	/* 1040k does not fit: the region's start */
}

int main(void)
{
	RUN(zone_steps_by_range_plus_skip);
	RUN(zone_size_above_range_repeats_the_zone);
	RUN(zone_offset_region_and_bounds);
	return CHECK_DONE();
}
