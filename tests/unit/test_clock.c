/*
 * test_clock: both sources measure a 100 ms interval within 1% of
 * CLOCK_MONOTONIC, conversions round-trip, and the TSC is refused where the
 * CPU does not flag it invariant; an injected source is read and slept
 * through exactly, and a real clock_sleep_ns sleeps (or spins) as told.
 */
#include <errno.h>
#include <stdint.h>
#include <time.h>
#include "check.h"
#include "clock.h"
#include "fake_clock.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts))
		;
}

/* One 100 ms interval measured by @c and by CLOCK_MONOTONIC. */
static void check_interval(const struct clock *c)
{
	uint64_t m0, m1, t0, t1, ns, ref, n0, n1;

	m0 = clock_gettime_ns();
	t0 = clock_ticks(c);
	n0 = clock_now_ns(c);
	sleep_ms(100);
	n1 = clock_now_ns(c);
	t1 = clock_ticks(c);
	m1 = clock_gettime_ns();
	ns = clock_ticks_to_ns(c, t1 - t0);
	ref = m1 - m0;
	CHECK(ref >= 100000000);
	CHECK_NEAR((double)ns / (double)ref, 1.0, 0.01);
	CHECK_NEAR((double)(n1 - n0) / (double)ref, 1.0, 0.01);
	/* now_ns is on CLOCK_MONOTONIC's scale, not just its rate */
	CHECK_NEAR((double)n1, (double)clock_gettime_ns(), 2e6);
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
	t0 = clock_gettime_ns();
	clock_sleep_ns(&c, 20000000);
	CHECK(clock_gettime_ns() - t0 >= 20000000);
	t0 = clock_gettime_ns();
	clock_sleep_ns(&c, CLOCK_SPIN_NS - 1);
	CHECK(clock_gettime_ns() - t0 < 20000000);	/* no sleep (generous: shared CPUs) */
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
