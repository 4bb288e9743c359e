/*
 * test_idleprof: the idleness profile's arithmetic (idleprof.h), and the
 * threads' use of it on a fake clock: pinned to one CPU, the profile's one
 * thread reads the clock only at the ends of each calibration timing and of
 * its count, so with a clock that moves a fixed step per read every figure
 * it reports is known exactly.
 */
#include "check.h"
#include "measure/idleprof.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>	/* nanosleep */

TEST(unit_is_the_fastest_timing)
{
	uint64_t runs[] = { 3000, 2500, 0, 4100, 2600 };

	/* a timing can only be slowed by others: the fastest, per unit; 0 (no tick) is no timing */
	CHECK_NEAR(idleprof_unit_ns(runs, 5, 1000), 2.5, 1e-12);
	CHECK_NEAR(idleprof_unit_ns(runs, 0, 1000), 0.0, 0);
	CHECK_NEAR(idleprof_unit_ns(runs, 5, 0), 0.0, 0);
}

TEST(unit_stats_sample_stddev)
{
	double v[] = { 2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0 }, mean, sd;

	idleprof_unit_stats(v, 8, &mean, &sd);
	CHECK_NEAR(mean, 5.0, 1e-12);
	CHECK_NEAR(sd, 2.138089935299395, 1e-12);	/* sqrt(32 / 7) */
	/* one CPU: no spread to speak of, and never nan */
	idleprof_unit_stats(v, 1, &mean, &sd);
	CHECK_NEAR(mean, 2.0, 0);
	CHECK_NEAR(sd, 0.0, 0);
	idleprof_unit_stats(v, 0, &mean, &sd);
	CHECK_NEAR(mean, 0.0, 0);
}

TEST(share_is_units_at_calibrated_speed_over_wall)
{
	/* 300 units of 2 us in 1 ms: 60% */
	CHECK_NEAR(idleprof_share(300, 2000.0, 1000000), 60.0, 1e-9);
	/* faster than calibrated (a boosted clock): capped, never above 100 */
	CHECK_NEAR(idleprof_share(600, 2000.0, 1000000), 100.0, 0);
	CHECK_NEAR(idleprof_share(0, 2000.0, 1000000), 0.0, 0);
	CHECK_NEAR(idleprof_share(5, 2000.0, 0), 0.0, 0);
	CHECK_NEAR(idleprof_share(5, 0.0, 1000), 0.0, 0);
}

/* A clock that moves STEP per read, safe to read from the profile's thread. */
#define STEP 2000000ull	/* ns */
static atomic_ullong fake_now;

static uint64_t fake_read(void *ctx)
{
	(void)ctx;
	return atomic_fetch_add(&fake_now, STEP);
}

TEST(profile_on_a_fake_clock)
{
	struct clock_src src = { .now_ns = fake_read };
	struct idleprof_result res;
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	struct idleprof ip;
	struct clock clk;
	struct err e = { 0 };
	cpu_set_t set, old;
	double want_pct;

	if (sched_getaffinity(0, sizeof(old), &old))
		SKIP("cannot read this process's CPUs");
	CPU_ZERO(&set);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &old)) {
			CPU_SET(c, &set);
			break;
		}
	if (sched_setaffinity(0, sizeof(set), &set))
		SKIP("cannot pin to one CPU");
	atomic_store(&fake_now, 1000000000ull);
	CHECK(!clock_init_source(&clk, &src, &e));
	memset(&ip, 0, sizeof(ip));
	if (idleprof_start(&ip, IDLEPROF_PERCPU, &clk, &e)) {
		idleprof_free(&ip);
		sched_setaffinity(0, sizeof(old), &old);
		SKIP("%s", e.msg);
	}
	CHECK_EQ_U(ip.nr, 1);
	/* each timing of 1000 units is two reads, one STEP apart: a unit is STEP / 1000 */
	CHECK_NEAR(ip.th[0].unit_ns, STEP / 1000.0, 0);
	idleprof_begin(&ip);
	nanosleep(&ts, NULL);	/* the thread counts (this thread waits, off its CPU) */
	CHECK(!idleprof_end(&ip, &res));
	CHECK_EQ_U(res.mode, IDLEPROF_PERCPU);
	CHECK_EQ_U(res.nr_cpus, 1);
	CHECK_NEAR(res.unit_mean_us, STEP / 1000.0 / 1000.0, 1e-12);
	CHECK_NEAR(res.unit_stddev_us, 0.0, 0);
	/* the count spans two reads, STEP apart: units x unit / STEP, capped */
	CHECK_EQ_U(ip.th[0].t1_ns - ip.th[0].t0_ns, STEP);
	want_pct = (double)ip.th[0].units * (STEP / 1000.0) / STEP * 100.0;
	CHECK(ip.th[0].units > 0);
	CHECK_NEAR(res.cpus[0].pct, want_pct > 100.0 ? 100.0 : want_pct, 1e-9);
	CHECK_NEAR(res.system_pct, res.cpus[0].pct, 1e-12);
	CHECK_EQ_U(res.cpus[0].cpu, (unsigned)ip.th[0].cpu);
	free(res.cpus);
	idleprof_free(&ip);
	sched_setaffinity(0, sizeof(old), &old);
}

TEST(calibrate_reports_the_unit_only)
{
	struct idleprof_result res;
	struct idleprof ip;
	struct clock clk;
	struct err e = { 0 };

	CHECK(!clock_init(&clk, CLOCK_MODE_AUTO, &e));
	memset(&ip, 0, sizeof(ip));
	if (idleprof_start(&ip, IDLEPROF_CALIBRATE, &clk, &e)) {
		idleprof_free(&ip);
		SKIP("%s", e.msg);
	}
	CHECK(!idleprof_end(&ip, &res));
	CHECK(res.unit_mean_us > 0.0);
	CHECK(res.unit_stddev_us >= 0.0);
	CHECK(!res.cpus);
	CHECK_EQ_U(res.nr_cpus, 0);
	idleprof_free(&ip);
}

int main(void)
{
	RUN(unit_is_the_fastest_timing);
	RUN(unit_stats_sample_stddev);
	RUN(share_is_units_at_calibrated_speed_over_wall);
	RUN(profile_on_a_fake_clock);
	RUN(calibrate_reports_the_unit_only);
	return CHECK_DONE();
}
