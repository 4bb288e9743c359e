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
 *
 * Injected source (tests): clock_init_source() makes the clock read its
 * ticks (= ns) from a caller's function instead, and sleep through the
 * caller's sleep function, so a test can drive the worker on a fake,
 * deterministic time (tests/unit/fake_clock.h: time moves only when the test
 * or a "sleep" moves it).  The hot path keeps its cost: the TSC stays the
 * first, predicted branch with no extra load; the injected case is one
 * never-taken test on the clock_gettime path.  Every wait of the worker goes
 * through clock_sleep_ns(), so nothing in it waits on real time behind the
 * injected clock's back.
 */
#ifndef IOTRIAL_CLOCK_H
#define IOTRIAL_CLOCK_H

#include <stdint.h>
#include <time.h>	/* clock_gettime */
#include "lib/err.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>	/* __rdtsc */
#define CLOCK_HAVE_TSC 1
#else
#define CLOCK_HAVE_TSC 0
#endif

/*
 * Which source to use: the one list behind the clocksource= job option
 * (job.h), the run request (run.h) and clock_init().  AUTO: the TSC when
 * invariant, else clock_gettime.  TSC is fio's "cpu".  GETTIMEOFDAY is read
 * with clock_gettime too (same kernel time, finer grain); it stays its own
 * value so the option shows back as typed.
 */
enum clock_mode { CLOCK_MODE_AUTO = 0, CLOCK_MODE_TSC = 1, CLOCK_MODE_GETTIME = 2,
		  CLOCK_MODE_GETTIMEOFDAY = 3 };

/*
 * An injected time source.  now_ns: the current time in ns (monotonic; the
 * ticks of the clock); sleep_ns: wait about @ns (a fake clock advances its
 * time), NULL to really sleep.  Both get @ctx.  Neither needs to be
 * thread-safe unless several threads share the clock.
 */
struct clock_src {
	uint64_t (*now_ns)(void *ctx);
	void (*sleep_ns)(void *ctx, uint64_t ns);
	void *ctx;
};

/* Fixed-point scale of the tick->ns factor: ns = ticks * mult >> 32. */
#define CLOCK_SHIFT 32

struct clock {
	int tsc;		/* 1: ticks are TSC cycles; 0: ticks are ns */
	uint64_t mult;		/* ns per tick << CLOCK_SHIFT */
	uint64_t inv_mult;	/* ticks per ns << CLOCK_SHIFT */
	uint64_t base_ticks;	/* ticks at base_ns */
	uint64_t base_ns;	/* CLOCK_MONOTONIC at calibration */
	double ghz;		/* TSC rate; 0 when not using the TSC */
	const struct clock_src *src;	/* injected source (tsc is 0); NULL normally */
};

/*
 * Choose and calibrate the source.  @mode CLOCK_MODE_TSC fails with -ENOTSUP
 * (and a message) when the TSC is not invariant; AUTO falls back silently.
 * Takes up to ~50 ms when calibrating the TSC.
 */
int clock_init(struct clock *c, enum clock_mode mode, struct err *e);

/*
 * Use @src (kept by pointer: it must outlive the clock) as the source:
 * ticks are its ns, conversions are the identity.  Returns 0, or -EINVAL
 * (+ @e) when @src has no now_ns.
 */
int clock_init_source(struct clock *c, const struct clock_src *src, struct err *e);

/*
 * Wait about @ns: through the injected source's sleep_ns when there is one,
 * else nanosleep -- except below CLOCK_SPIN_NS, too short to sleep
 * accurately, where it returns at once and the caller, which loops on the
 * clock until its deadline, spins.
 */
void clock_sleep_ns(const struct clock *c, uint64_t ns);

#define CLOCK_SPIN_NS 20000

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
	if (__builtin_expect(c->src != NULL, 0))
		return c->src->now_ns(c->src->ctx);
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

/* "tsc", "clock_gettime" or "injected". */
const char *clock_source(const struct clock *c);

/* TSC rate in GHz, 0 when the TSC is not used. */
double clock_ghz(const struct clock *c);

#endif
