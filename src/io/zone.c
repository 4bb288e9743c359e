/*
 * zone: zonemode=strided's walk from zone to zone (see zone.h).
 */
#include "io/zone.h"

int zone_advance(const struct zone_cfg *c, struct zone_pos *z, uint64_t rstart, uint64_t rend,
		 uint64_t len, uint64_t min_bs)
{
	uint64_t next;

	z->done += len;
	if (z->done < c->size)
		return 0;
	z->done = 0;
	next = z->start + c->range + c->skip;
	/* overflow-safe: a step past the end, or a zone whose first block does not fit */
	if (next < z->start || next >= rend || rend - next < min_bs)
		next = rstart;
	z->start = next;
	return 1;
}
