/*
 * rate: the issue schedule of rate-limited jobs (see rate.h).
 */
#include "io/rate.h"

#include <errno.h>	/* EINVAL */
#include <string.h>	/* memset */

/*
 * (1e9 << RATE_SHIFT) / per_s, rounded up: ns per unit in fixed point.  Up,
 * so that no deadline is ever early: rounded to nearest, the I/O due at
 * exactly the end of the run could fall 1 ns before it and be issued
 * (rate_iops=3 for 3 s gave 10 I/Os; test_worker).  The cost is a rate low
 * by under 2^-32 ns per unit.
 */
static uint64_t ns_per_unit(uint64_t per_s)
{
	unsigned __int128 num = (unsigned __int128)1000000000ull << RATE_SHIFT;

	return (uint64_t)((num + per_s - 1) / per_s);
}

int rate_init(struct rate *r, const struct job *j, unsigned thread_index, struct err *e)
{
	uint64_t base;
	int d;

	memset(r, 0, sizeof(*r));
	r->poisson = j->rate_process == RATE_POISSON;
	for (d = 0; d < DDIR_NR; d++) {
		/* above 1e9 * 2^32 per second the fixed-point step would be 0 */
		if (j->rate[d] > (1ull << 61) || j->rate_iops[d] > (1ull << 61))
			return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': rate for %s too high (%llu B/s, %llu IOPS)",
				       j->name, ddir_name(d),
				       (unsigned long long)j->rate[d], (unsigned long long)j->rate_iops[d]);
		if (j->rate[d]) {
			r->ns_per_byte[d] = ns_per_unit(j->rate[d]);
			r->enabled = 1;
		}
		if (j->rate_iops[d]) {
			r->ns_per_io[d] = ns_per_unit(j->rate_iops[d]);
			r->enabled = 1;
		}
	}
	base = rand_base_seed(j->randrepeat, j->randseed_set, j->randseed);
	rand_seed(&r->rs, rand_mix(rand_mix(base, thread_index), RAND_STREAM_RATE));
	return 0;
}

void rate_reset(struct rate *r)
{
	memset(r->bytes, 0, sizeof(r->bytes));
	memset(r->ios, 0, sizeof(r->ios));
	memset(r->t_ns, 0, sizeof(r->t_ns));
}

static uint64_t fixed_mul(uint64_t n, uint64_t step)
{
	return (uint64_t)(((unsigned __int128)n * step) >> RATE_SHIFT);
}

uint64_t rate_next_ns(struct rate *r, enum ddir d, uint32_t bytes)
{
	uint64_t t, ti;

	if (d >= DDIR_NR || (!r->ns_per_byte[d] && !r->ns_per_io[d]))
		return 0;
	if (!r->poisson) {
		t = fixed_mul(r->bytes[d], r->ns_per_byte[d]);
		ti = fixed_mul(r->ios[d], r->ns_per_io[d]);
		if (ti > t)
			t = ti;
	} else {
		double mean = (double)bytes * (double)r->ns_per_byte[d] * 0x1.0p-32;
		double mean_io = (double)r->ns_per_io[d] * 0x1.0p-32;

		if (mean_io > mean)
			mean = mean_io;
		r->t_ns[d] += mean * rand_exp(&r->rs);
		t = (uint64_t)r->t_ns[d];
	}
	r->bytes[d] += bytes;
	r->ios[d]++;
	return t;
}
