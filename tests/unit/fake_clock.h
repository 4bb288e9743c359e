/*
 * fake_clock.h: a deterministic time source for unit tests, injected with
 * clock_init_source() (clock.h).
 *
 * Time is in ns and moves only when something moves it: by @step after every
 * read (0 = reads do not move time), by exactly the asked duration on every
 * sleep, and by fake_clock_advance() (a test engine adding a device's
 * latency).  So a test knows, to the nanosecond, what every latency, interval
 * and deadline of the code under test must be.  One thread only.
 */
#ifndef IOTRIAL_FAKE_CLOCK_H
#define IOTRIAL_FAKE_CLOCK_H

#include <stdint.h>
#include "lib/clock.h"

struct fake_clock {
	uint64_t now;		/* ns */
	uint64_t step;		/* added after each read */
	uint64_t reads, sleeps, slept_ns;
	struct clock_src src;
	struct clock clk;	/* give &clk to the code under test */
};

static inline uint64_t fake_clock_now(void *ctx)
{
	struct fake_clock *fc = ctx;
	uint64_t t = fc->now;

	fc->reads++;
	fc->now += fc->step;
	return t;
}

static inline void fake_clock_sleep(void *ctx, uint64_t ns)
{
	struct fake_clock *fc = ctx;

	fc->sleeps++;
	fc->slept_ns += ns;
	fc->now += ns;
}

static inline void fake_clock_advance(struct fake_clock *fc, uint64_t ns)
{
	fc->now += ns;
}

/* Start at @start ns (not 0, so that nothing may confuse "0" with "unset"). */
static inline int fake_clock_init(struct fake_clock *fc, uint64_t start, uint64_t step)
{
	struct err e;

	fc->now = start;
	fc->step = step;
	fc->reads = fc->sleeps = fc->slept_ns = 0;
	fc->src.now_ns = fake_clock_now;
	fc->src.sleep_ns = fake_clock_sleep;
	fc->src.ctx = fc;
	err_clear(&e);
	return clock_init_source(&fc->clk, &fc->src, &e);
}

#endif
