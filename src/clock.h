/*
 * clock: the time base of every measurement.
 *
 * Two sources: the CPU's time-stamp counter (rdtsc: one instruction, used
 * only where CPUID flags it invariant, i.e. constant rate in every P/C-state)
 * and clock_gettime(CLOCK_MONOTONIC) (vDSO; roughly twice the cost per I/O
 * in bench/micro_hotpath, always correct).  The hot
 * path reads raw ticks with clock_ticks() and converts a difference of ticks
 * with clock_ticks_to_ns(): one 64x64->128 multiply and a shift, no division.
 * A struct clock is filled once by clock_init() and then only read, so every
 * worker thread shares one.
 */
#ifndef IOTRIAL_CLOCK_H
#define IOTRIAL_CLOCK_H

#include <stdint.h>
#include <time.h>	/* clock_gettime */
#include "err.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>	/* __rdtsc */
#define CLOCK_HAVE_TSC 1
#else
#define CLOCK_HAVE_TSC 0
#endif

/* Same values as the runner's RUN_CLOCK_* (run.h). */
enum { CLOCK_MODE_AUTO = 0, CLOCK_MODE_TSC = 1, CLOCK_MODE_GETTIME = 2 };

/* Fixed-point scale of the tick->ns factor: ns = ticks * mult >> 32. */
#define CLOCK_SHIFT 32

struct clock {
	int tsc;		/* 1: ticks are TSC cycles; 0: ticks are ns */
	uint64_t mult;		/* ns per tick << CLOCK_SHIFT */
	uint64_t inv_mult;	/* ticks per ns << CLOCK_SHIFT */
	uint64_t base_ticks;	/* ticks at base_ns */
	uint64_t base_ns;	/* CLOCK_MONOTONIC at calibration */
	double ghz;		/* TSC rate; 0 when not using the TSC */
};

/*
 * Choose and calibrate the source.  @mode CLOCK_MODE_TSC fails with -ENOTSUP
 * (and a message) when the TSC is not invariant; AUTO falls back silently.
 * Takes up to ~50 ms when calibrating the TSC.
 */
int clock_init(struct clock *c, int mode, struct err *e);

/* True if CPUID says the TSC runs at a constant rate in all states. */
int clock_tsc_invariant(void);

static inline uint64_t clock_gettime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Raw ticks: only differences of them mean anything. */
static inline uint64_t clock_ticks(const struct clock *c)
{
#if CLOCK_HAVE_TSC
	if (__builtin_expect(c->tsc, 1))
		return __rdtsc();
#endif
	return clock_gettime_ns();
}

/*
 * Ticks to ns.  The 128-bit product cannot overflow, and the result is exact
 * to within one part in 2^32 of the tick period, so deltas of hours (or years)
 * convert correctly.
 */
static inline uint64_t clock_ticks_to_ns(const struct clock *c, uint64_t ticks)
{
	return (uint64_t)(((unsigned __int128)ticks * c->mult) >> CLOCK_SHIFT);
}

/* ns to ticks (to set deadlines in ticks), same precision. */
static inline uint64_t clock_ns_to_ticks(const struct clock *c, uint64_t ns)
{
	return (uint64_t)(((unsigned __int128)ns * c->inv_mult) >> CLOCK_SHIFT);
}

/* Now, in ns on CLOCK_MONOTONIC's scale (from the TSC when it is the source). */
uint64_t clock_now_ns(const struct clock *c);

/* "tsc" or "clock_gettime". */
const char *clock_source(const struct clock *c);

/* TSC rate in GHz, 0 when the TSC is not used. */
double clock_ghz(const struct clock *c);

#endif
