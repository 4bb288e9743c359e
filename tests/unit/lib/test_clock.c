/*
 * test_clock: both sources measure a 100 ms interval within 1% of
 * CLOCK_MONOTONIC, conversions round-trip, and the TSC is refused where the
 * CPU does not flag it invariant; an injected source is read and slept
 * through exactly, and a real clock_sleep_ns sleeps (or spins) as told.
 * Nothing here assumes an idle machine: readings are bracketed by the
 * reference clock, and sleeping is told from spinning by counting context
 * switches.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/resource.h>	/* getrusage, RUSAGE_THREAD */
#include <time.h>
#include "check.h"
#include "lib/clock.h"
#include "fake_clock.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts))
		;
}

/*
 * A read of @c between two reads of CLOCK_MONOTONIC (@lo, @hi): the read
 * happened between them.  The narrowest of 20 tries: a busy machine may
 * preempt the thread between two reads, which widens the bracket (and so
 * the checks below) but cannot make them fail.
 */
struct bracket {
	uint64_t lo, hi, ticks, now;
};

static struct bracket bracket_read(const struct clock *c)
{
	struct bracket b = { 0, UINT64_MAX, 0, 0 };

	for (int i = 0; i < 20; i++) {
		struct bracket x;

		x.lo = clock_gettime_ns();
		x.ticks = clock_ticks(c);
		x.now = clock_now_ns(c);
		x.hi = clock_gettime_ns();
		if (x.hi - x.lo < b.hi - b.lo)
			b = x;
	}
	return b;
}

/*
 * One 100 ms interval measured by @c and by CLOCK_MONOTONIC: within 1% of
 * the monotonic interval, which lies between the inner and the outer bounds
 * of the two brackets (no fixed allowance for the time between the reads,
 * which a loaded machine stretches at will).
 */
static void check_interval(const struct clock *c)
{
	struct bracket b0, b1;
	double ns, in, out;

	b0 = bracket_read(c);
	sleep_ms(100);
	b1 = bracket_read(c);
	ns = (double)clock_ticks_to_ns(c, b1.ticks - b0.ticks);
	in = (double)(b1.lo - b0.hi);
	out = (double)(b1.hi - b0.lo);
	CHECK(in >= 100000000);
	CHECK(ns >= 0.99 * in && ns <= 1.01 * out);
	CHECK((double)(b1.now - b0.now) >= 0.99 * in && (double)(b1.now - b0.now) <= 1.01 * out);
	/* now_ns is on CLOCK_MONOTONIC's scale, not just its rate: within the
	 * bracket, give or take 2 ms of calibration offset */
	CHECK(b1.now + 2000000 >= b1.lo && b1.now <= b1.hi + 2000000);
}

/* Voluntary context switches of the calling thread so far. */
static long nvcsw(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_nvcsw;
}

TEST(gettime_mode)
{
	struct clock c;
	struct err e;

	err_clear(&e);
	CHECK_EQ_U(clock_init(&c, CLOCK_MODE_GETTIME, &e), 0);
	CHECK_STR(clock_source(&c), "clock_gettime");
	CHECK_NEAR(clock_ghz(&c), 0, 0);
	/* ticks are ns: conversion is the identity, even for huge values */
	CHECK_EQ_U(clock_ticks_to_ns(&c, 123456789), 123456789);
	CHECK_EQ_U(clock_ticks_to_ns(&c, 1ull << 62), 1ull << 62);
	CHECK_EQ_U(clock_ns_to_ticks(&c, 987654321), 987654321);
	check_interval(&c);
}

/* fio's gettimeofday is served by clock_gettime; a mode off the list is refused. */
TEST(gettimeofday_and_unknown_modes)
{
	struct clock c;
	struct err e;

	err_clear(&e);
	CHECK_EQ_U(clock_init(&c, CLOCK_MODE_GETTIMEOFDAY, &e), 0);
	CHECK_STR(clock_source(&c), "clock_gettime");
	check_interval(&c);
	err_clear(&e);
	CHECK(clock_init(&c, (enum clock_mode)7, &e) == -EINVAL);
	CHECK(strstr(e.msg, "unknown mode 7") != NULL);
}

TEST(tsc_mode)
{
	struct clock c;
	struct err e;
	uint64_t hour_ticks;

	err_clear(&e);
	if (!clock_tsc_invariant()) {
		CHECK(clock_init(&c, CLOCK_MODE_TSC, &e) == -ENOTSUP);
		CHECK(strstr(e.msg, "TSC") != NULL);
		SKIP("the TSC is not invariant here (CPUID 0x80000007 EDX bit 8 clear)");
	}
	CHECK_EQ_U(clock_init(&c, CLOCK_MODE_TSC, &e), 0);
	CHECK_STR(clock_source(&c), "tsc");
	CHECK(clock_ghz(&c) > 0.05 && clock_ghz(&c) < 20);
	/* an hour of ticks converts without overflow, to an hour */
	hour_ticks = (uint64_t)(clock_ghz(&c) * 3600e9);
	CHECK_NEAR((double)clock_ticks_to_ns(&c, hour_ticks) / 3600e9, 1.0, 1e-6);
	CHECK_NEAR((double)clock_ns_to_ticks(&c, 3600000000000ull) / (double)hour_ticks, 1.0, 1e-6);
	check_interval(&c);
}

TEST(auto_mode)
{
	struct clock c;
	struct err e;

	err_clear(&e);
	CHECK_EQ_U(clock_init(&c, CLOCK_MODE_AUTO, &e), 0);
	CHECK_STR(clock_source(&c), clock_tsc_invariant() ? "tsc" : "clock_gettime");
	CHECK(clock_init(&c, 99, &e) < 0);
}

TEST(injected_source)
{
	struct fake_clock fc;
	struct clock c;
	struct clock_src bad = { 0 };
	struct err e;
	uint64_t t0;
	long sw;

	err_clear(&e);
	CHECK(clock_init_source(&c, &bad, &e) == -EINVAL);
	CHECK(clock_init_source(&c, NULL, &e) == -EINVAL);
	CHECK_EQ_U(fake_clock_init(&fc, 5000000000ull, 7), 0);
	CHECK_STR(clock_source(&fc.clk), "injected");
	CHECK_NEAR(clock_ghz(&fc.clk), 0, 0);
	/* ticks are the source's ns: each read (init's included) moves the
	 * fake by its step */
	t0 = clock_ticks(&fc.clk);
	CHECK_EQ_U(t0, 5000000007ull);
	CHECK_EQ_U(clock_ticks(&fc.clk), t0 + 7);
	CHECK_EQ_U(clock_now_ns(&fc.clk), t0 + 14);
	CHECK_EQ_U(clock_ticks_to_ns(&fc.clk, 123456789), 123456789);
	CHECK_EQ_U(clock_ns_to_ticks(&fc.clk, 1ull << 62), 1ull << 62);
	/* sleeping goes to the source, however short: no real time passes */
	t0 = clock_gettime_ns();
	clock_sleep_ns(&fc.clk, 3600000000000ull);
	clock_sleep_ns(&fc.clk, 5);
	CHECK(clock_gettime_ns() - t0 < 1000000000ull);
	CHECK_EQ_U(fc.sleeps, 2);
	CHECK_EQ_U(clock_ticks(&fc.clk), 5000000028ull + 3600000000005ull);
	/* a real clock really sleeps, and returns at once below the spin limit */
	CHECK_EQ_U(clock_init(&c, CLOCK_MODE_GETTIME, &e), 0);
	CHECK_STR(clock_source(&c), "clock_gettime");
	/* counted, not timed: a sleep blocks (a voluntary context switch), a
	 * wait below the spin limit never does, however long a busy machine
	 * keeps the thread from running */
	t0 = clock_gettime_ns();
	sw = nvcsw();
	clock_sleep_ns(&c, 20000000);
	CHECK(clock_gettime_ns() - t0 >= 20000000);
	CHECK(nvcsw() > sw);
	sw = nvcsw();
	for (int i = 0; i < 1000; i++)
		clock_sleep_ns(&c, CLOCK_SPIN_NS - 1);
	CHECK(sw >= 0 && nvcsw() == sw);
}

int main(void)
{
	RUN(gettime_mode);
	RUN(gettimeofday_and_unknown_modes);
	RUN(tsc_mode);
	RUN(auto_mode);
	RUN(injected_source);
	return CHECK_DONE();
}
