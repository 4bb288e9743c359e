/*
 * zone: fio's zonemode=strided (zonesize, zonerange, zoneskip).
 *
 * The region is walked zone by zone: a zone is `range` bytes (zonerange,
 * default zonesize) starting at the region's start; I/O stays inside the
 * current zone until `size` bytes (zonesize) were done in it (sequential I/O
 * wraps to the zone's start when it reaches the zone's end, so a zonesize
 * above zonerange reads the zone several times), then moves to the next zone,
 * `range + skip` bytes further.  A zone whose first block does not fit in the
 * region sends I/O back to the region's start.  Checked against fio 3.33's
 * write_iolog offsets (tests/e2e/opt_zonemode.sh).  Random I/O with the
 * random map (or lfsr) takes every block of the zone once per pass, as fio's
 * per-zone map (iogen.c); with norandommap a uniform block of the zone.
 *
 * Pure functions on two small structs: the generator (iogen.c) keeps one
 * zone_pos per file and calls these only when zonemode=strided.
 */
#ifndef IOTRIAL_ZONE_H
#define IOTRIAL_ZONE_H

#include <stdint.h>

struct zone_cfg {
	uint64_t size;		/* bytes done in a zone before moving on (> 0) */
	uint64_t range;		/* bytes of a zone (> 0) */
	uint64_t skip;		/* bytes skipped after a zone */
};

struct zone_pos {
	uint64_t start;		/* the current zone's first byte */
	uint64_t done;		/* bytes done in it */
};

/* The current zone: [*lo, *hi), clipped to the region end @rend. */
static inline void zone_bounds(const struct zone_cfg *c, const struct zone_pos *z, uint64_t rend,
			       uint64_t *lo, uint64_t *hi)
{
	*lo = z->start;
	*hi = z->start + c->range < rend ? z->start + c->range : rend;
}

/*
 * Count @len bytes done in the current zone; once `size` were done, move to
 * the next zone (back to @rstart when its first @min_bs bytes do not fit
 * before @rend).  Returns 1 when the zone changed.
 */
int zone_advance(const struct zone_cfg *c, struct zone_pos *z, uint64_t rstart, uint64_t rend,
		 uint64_t len, uint64_t min_bs);

#endif
