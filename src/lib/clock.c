/*
 * clock: choosing and calibrating the time source (see clock.h).
 *
 * Calibration reads (TSC, CLOCK_MONOTONIC_RAW) pairs 40 ms apart.  Each pair
 * is taken as the tightest of several rdtsc/clock_gettime/rdtsc brackets, so
 * each end is known to within about half a bracket (tens of ns, even on a
 * VM).  Two ends of +-50 ns over 40 ms bound the rate error near 2.5 ppm: far
 * below the histogram's 0.78% bucket error and the 1e-4 that a long run's
 * drift could show, so a longer calibration would only delay the start.
 * MONOTONIC_RAW is the reference because NTP does not slew it while we
 * measure.
 */
#include "lib/clock.h"

#include <errno.h>	/* ENOTSUP */
#include <time.h>	/* nanosleep */
#if CLOCK_HAVE_TSC
#include <cpuid.h>	/* __get_cpuid */
#endif

#define CAL_NS 40000000ull	/* calibration interval */
#define CAL_TRIES 16		/* brackets per end; the tightest wins */

int clock_tsc_invariant(void)
{
#if CLOCK_HAVE_TSC
	unsigned a, b, c, d;

	/* leaf 0x80000007 EDX bit 8: invariant TSC */
	if (!__get_cpuid(0x80000007, &a, &b, &c, &d))
		return 0;
	return (d >> 8) & 1;
#else
	return 0;
#endif
}

#if CLOCK_HAVE_TSC
static uint64_t raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* One (tsc, ns) pair: the midpoint of the narrowest rdtsc bracket. */
static void cal_point(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	int i;

	for (i = 0; i < CAL_TRIES; i++) {
		uint64_t t0 = __rdtsc(), n = raw_ns(), t1 = __rdtsc();

		if (t1 - t0 < best) {
			best = t1 - t0;
			*tsc = t0 + (t1 - t0) / 2;
			*ns = n;
		}
	}
}

/* Measure the TSC rate in Hz against CLOCK_MONOTONIC_RAW. */
static double cal_tsc_hz(void)
{
	uint64_t t0, n0, t1, n1;
	struct timespec ts = { 0, (long)CAL_NS };

	cal_point(&t0, &n0);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	cal_point(&t1, &n1);
	if (n1 <= n0 || t1 <= t0)
		return 0;
	return (double)(t1 - t0) * 1e9 / (double)(n1 - n0);
}
#endif

static void clock_set_gettime(struct clock *c)
{
	c->tsc = 0;
	c->src = NULL;
	c->mult = 1ull << CLOCK_SHIFT;
	c->inv_mult = 1ull << CLOCK_SHIFT;
	c->ghz = 0;
	c->base_ns = clock_gettime_ns();
	c->base_ticks = c->base_ns;
}

int clock_init(struct clock *c, enum clock_mode mode, struct err *e)
{
	clock_set_gettime(c);
	if (mode == CLOCK_MODE_GETTIME || mode == CLOCK_MODE_GETTIMEOFDAY)
		return 0;
	if (mode != CLOCK_MODE_AUTO && mode != CLOCK_MODE_TSC)
		return err_set(e, -EINVAL, EXIT_USAGE, "clock: unknown mode %d", mode);
#if CLOCK_HAVE_TSC
	if (clock_tsc_invariant()) {
		double hz = cal_tsc_hz();

		/* a rate outside 50 MHz..20 GHz means the measurement went wrong */
		if (hz > 5e7 && hz < 2e10) {
			c->tsc = 1;
			c->ghz = hz / 1e9;
			c->mult = (uint64_t)(1e9 / hz * (double)(1ull << CLOCK_SHIFT) + 0.5);
			c->inv_mult = (uint64_t)(hz / 1e9 * (double)(1ull << CLOCK_SHIFT) + 0.5);
			c->base_ticks = __rdtsc();
			c->base_ns = clock_gettime_ns();
			return 0;
		}
		if (mode == CLOCK_MODE_TSC)
			return err_set(e, -ENOTSUP, EXIT_USAGE,
				       "clock: TSC calibration gave an implausible %.0f Hz", hz);
		return 0;
	}
#endif
	if (mode == CLOCK_MODE_TSC)
		return err_set(e, -ENOTSUP, EXIT_USAGE,
			       "clock: the TSC is not invariant on this CPU (CPUID 0x80000007 EDX bit 8); use clock_gettime");
	return 0;
}

int clock_init_source(struct clock *c, const struct clock_src *src, struct err *e)
{
	if (!src || !src->now_ns)
		return err_set(e, -EINVAL, EXIT_INTERNAL, "clock: injected source without now_ns");
	clock_set_gettime(c);
	c->src = src;
	c->base_ns = src->now_ns(src->ctx);
	c->base_ticks = c->base_ns;
	return 0;
}

void clock_sleep_ns(const struct clock *c, uint64_t ns)
{
	struct timespec ts;

	if (c->src && c->src->sleep_ns) {
		c->src->sleep_ns(c->src->ctx, ns);
		return;
	}
	if (ns < CLOCK_SPIN_NS)
		return;
	ts.tv_sec = (time_t)(ns / 1000000000ull);
	ts.tv_nsec = (long)(ns % 1000000000ull);
	nanosleep(&ts, NULL);
}

uint64_t clock_now_ns(const struct clock *c)
{
	if (!c->tsc)
		return clock_ticks(c);
	return c->base_ns + clock_ticks_to_ns(c, clock_ticks(c) - c->base_ticks);
}

const char *clock_source(const struct clock *c)
{
	return c->tsc ? "tsc" : c->src ? "injected" : "clock_gettime";
}

double clock_ghz(const struct clock *c)
{
	return c->ghz;
}
