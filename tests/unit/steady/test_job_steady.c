/*
 * test_job_steady: a job's options turned into the stop and reporting rules
 * (which rule, with which numbers), the errors, and one run of steady_find
 * showing that snia_round really aggregates intervals into rounds.
 */
#include "check.h"
#include "steady/job_steady.h"
#include "parse/opt.h"
#include "steady/steady_out.h"

#include <errno.h>
#include <string.h>

/* A validated job from "name=value" pairs (NULL-terminated); 0 or the error. */
static int job_of(struct job *j, struct err *e, const char *const *kv)
{
	int ret = 0;

	job_init(j);
	snprintf(j->name, sizeof(j->name), "s");
	snprintf(j->origin, sizeof(j->origin), "s.fio:2");
	err_clear(e);
	for (; *kv && !ret; kv += 2)
		ret = opt_set(j, kv[0], kv[1], "s.fio:2", e);
	return ret ? ret : opt_job_validate(j, e);
}

static void cfg_of(const struct job *j, int for_stop, struct steady_cfg *c)
{
	struct err e = { 0 };
	int ret = job_steady_cfg(j, for_stop, c, &e);

	if (ret)
		printf("  job_steady_cfg: %s\n", e.msg);
	CHECK_EQ_U(ret, 0);
}

TEST(defaults_report_snia_and_never_stop)
{
	static const char *const kv[] = { "ioengine", "null", NULL };
	struct steady_cfg c;
	struct job j;
	struct err e;

	CHECK_EQ_U(job_of(&j, &e, kv), 0);
	CHECK_EQ_U(job_steady_report(&j), SS_REPORT_SNIA);
	CHECK(!job_steady_has_fio(&j));
	cfg_of(&j, 0, &c);
	CHECK_EQ_U(c.rule, STEADY_SNIA);
	CHECK_EQ_U(c.metric, STEADY_IOPS);
	CHECK(c.ddir == -1);
	CHECK_EQ_U(c.window, 5);
	CHECK_EQ_U(c.round_intervals, 1);
	CHECK_EQ_U(c.round_us, 1000000);
	CHECK_NEAR(c.range_pct, 20, 0);
	CHECK_NEAR(c.excursion_pct, 10, 0);
	CHECK_EQ_U(c.ramp_ms, 0);
	cfg_of(&j, 1, &c);
	CHECK_EQ_U(c.rule, STEADY_OFF);
	job_free(&j);
}

TEST(snia_options_override)
{
	static const char *const kv[] = { "ioengine", "null", "series_interval", "250ms",
		"snia_window", "8", "snia_range", "15%", "snia_slope", "2.5", "snia_round", "1s",
		"snia_metric", "lat", "snia_stop", "1", NULL };
	struct steady_cfg c;
	struct job j;
	struct err e;
	char spec[200];
	int for_stop;

	CHECK_EQ_U(job_of(&j, &e, kv), 0);
	for (for_stop = 0; for_stop < 2; for_stop++) {
		cfg_of(&j, for_stop, &c);
		CHECK_EQ_U(c.rule, STEADY_SNIA);
		CHECK_EQ_U(c.metric, STEADY_LAT);
		CHECK_EQ_U(c.window, 8);
		CHECK_EQ_U(c.round_intervals, 4);
		CHECK_EQ_U(c.round_us, 1000000);
		CHECK_NEAR(c.range_pct, 15, 0);
		CHECK_NEAR(c.excursion_pct, 2.5, 0);
	}
	steady_spec(&c, spec, sizeof(spec));
	CHECK_STR(spec, "snia lat: range <= 15%, slope excursion <= 2.5%, 8 rounds of 1 s");
	job_free(&j);

	/* bw; no snia_round: one 250 ms interval per round */
	{
		static const char *const kv2[] = { "ioengine", "null", "series_interval", "250ms",
			"snia_metric", "bw", NULL };

		CHECK_EQ_U(job_of(&j, &e, kv2), 0);
		cfg_of(&j, 0, &c);
		CHECK_EQ_U(c.metric, STEADY_BW);
		CHECK_EQ_U(c.round_intervals, 1);
		CHECK_EQ_U(c.round_us, 250000);
		job_free(&j);
	}
}

/* A job with fio's ss= stops by it and, by default, reports by it. */
TEST(fio_rule)
{
	static const char *const kv[] = { "ioengine", "null", "ss", "bw:5%", "ss_dur", "10",
		"ss_ramp", "2", NULL };
	static const char *const dur_only[] = { "ioengine", "null", "ss_dur", "30s", NULL };
	static const char *const no_dur[] = { "ioengine", "null", "ss", "iops:5%", NULL };
	struct steady_cfg c;
	struct job j;
	struct err e;
	int for_stop;

	CHECK_EQ_U(job_of(&j, &e, kv), 0);
	CHECK(job_steady_has_fio(&j));
	CHECK_EQ_U(job_steady_report(&j), SS_REPORT_FIO);
	for (for_stop = 0; for_stop < 2; for_stop++) {
		cfg_of(&j, for_stop, &c);
		CHECK_EQ_U(c.rule, STEADY_FIO);
		CHECK_EQ_U(c.metric, STEADY_BW);
		CHECK_EQ_U(c.window, 10);
		CHECK_EQ_U(c.round_us, 1000000);
		CHECK_EQ_U(c.ramp_ms, 2000);
		CHECK_EQ_U(c.fio_slope, 0);
		CHECK_NEAR(c.fio_limit, 5, 0);
		CHECK_EQ_U(c.fio_pct, 1);
	}
	job_free(&j);

	/* ss_dur alone: fio's default criterion iops_slope:0.01% */
	CHECK_EQ_U(job_of(&j, &e, dur_only), 0);
	cfg_of(&j, 1, &c);
	CHECK_EQ_U(c.rule, STEADY_FIO);
	CHECK_EQ_U(c.fio_slope, 1);
	CHECK_NEAR(c.fio_limit, 0.01, 0);
	CHECK_EQ_U(c.window, 30);
	job_free(&j);

	/* ss= without ss_dur is off in fio: no stop rule, SNIA reports */
	CHECK_EQ_U(job_of(&j, &e, no_dur), 0);
	CHECK(!job_steady_has_fio(&j));
	cfg_of(&j, 1, &c);
	CHECK_EQ_U(c.rule, STEADY_OFF);
	cfg_of(&j, 0, &c);
	CHECK_EQ_U(c.rule, STEADY_SNIA);
	job_free(&j);
}

/* steady_report chooses the reporting rule only; the stop rule stays fio's. */
TEST(report_choice)
{
	static const char *const snia[] = { "ioengine", "null", "ss", "iops:5%", "ss_dur", "5",
		"steady_report", "snia", "snia_window", "3", NULL };
	static const char *const none[] = { "ioengine", "null", "steady_report", "none",
		"snia_stop", "1", NULL };
	struct steady_cfg c;
	struct job j;
	struct err e;

	CHECK_EQ_U(job_of(&j, &e, snia), 0);
	cfg_of(&j, 0, &c);
	CHECK_EQ_U(c.rule, STEADY_SNIA);
	CHECK_EQ_U(c.window, 3);
	cfg_of(&j, 1, &c);
	CHECK_EQ_U(c.rule, STEADY_FIO);
	CHECK_EQ_U(c.window, 5);
	job_free(&j);

	/* nothing reported, yet SNIA still stops the job */
	CHECK_EQ_U(job_of(&j, &e, none), 0);
	CHECK_EQ_U(job_steady_report(&j), SS_REPORT_NONE);
	cfg_of(&j, 0, &c);
	CHECK_EQ_U(c.rule, STEADY_OFF);
	cfg_of(&j, 1, &c);
	CHECK_EQ_U(c.rule, STEADY_SNIA);
	job_free(&j);
}

/* Jobs that skipped validation: the function refuses, names the job, turns the rule off. */
static int cfg_fails(struct job *j, int for_stop, const char *part)
{
	struct steady_cfg c;
	struct err e = { 0 };
	int ret, ok;

	memset(&c, 0xff, sizeof(c));
	ret = job_steady_cfg(j, for_stop, &c, &e);
	ok = ret == -EINVAL && e.exit_code == EXIT_USAGE && strstr(e.msg, part) &&
	     strstr(e.msg, "job 's' (s.fio:2)") && c.rule == STEADY_OFF;
	if (!ok)
		printf("  got %d \"%s\"\n", ret, e.msg);
	return ok;
}

TEST(errors)
{
	static const char *const kv[] = { "ioengine", "null", NULL };
	struct job j;
	struct err e;

	CHECK_EQ_U(job_of(&j, &e, kv), 0);
	j.snia_window = 1;
	CHECK(cfg_fails(&j, 0, "snia_window 1 is below 2 rounds"));
	j.snia_window = 5;
	j.snia_round_us = 2500000;
	CHECK(cfg_fails(&j, 0, "snia_round 2500000us is not a multiple of series_interval 1000000us"));
	{	/* no stop rule: nothing to build, no error */
		struct steady_cfg c;

		CHECK_EQ_U(job_steady_cfg(&j, 1, &c, &e), 0);
		CHECK_EQ_U(c.rule, STEADY_OFF);
	}
	j.snia_stop = 1;
	CHECK(cfg_fails(&j, 1, "snia_round 2500000us"));
	j.snia_round_us = 0;
	j.snia_stop = 0;
	j.steady_report = SS_REPORT_FIO;
	CHECK(cfg_fails(&j, 0, "steady_report=fio needs fio's rule"));
	j.ss_metric = SS_IOPS;
	j.ss_dur_us = 5000000;
	j.interval_us = 300000;
	CHECK(cfg_fails(&j, 0, "series_interval 300000us does not divide one second"));
	CHECK(cfg_fails(&j, 1, "series_interval 300000us does not divide one second"));
	job_free(&j);
}

/*
 * 250 ms intervals alternating 600 and 1400 IOPS: one interval per round
 * swings 800 IOPS around a mean near 1000 (never steady); rounds of 1 s (snia_round=1s,
 * four intervals) are all exactly 1000 IOPS, steady from the first window.
 */
static void alternating(struct series *s, size_t n)
{
	struct series_in in[DDIR_NR];
	size_t i;
	int d;

	series_init(s);
	for (i = 0; i < n; i++) {
		memset(in, 0, sizeof(in));
		for (d = 0; d < DDIR_NR; d++)
			in[d].lat_min = UINT64_MAX;
		in[0].ios = i % 2 ? 350 : 150;
		in[0].bytes = in[0].ios * 4096;
		in[0].lat_sum_ns = in[0].ios * 1000;
		in[0].lat_min = in[0].lat_max = 1000;
		CHECK_EQ_U(series_add(s, (i + 1) * 250, 250000, 0, in), 0);
	}
}

TEST(snia_round_aggregates)
{
	static const char *const fine[] = { "ioengine", "null", "series_interval", "250ms", NULL };
	static const char *const coarse[] = { "ioengine", "null", "series_interval", "250ms",
		"snia_round", "1000ms", NULL };
	struct steady_cfg c;
	struct steady st;
	struct series s;
	struct job j;
	struct err e;

	alternating(&s, 24);
	CHECK_EQ_U(job_of(&j, &e, fine), 0);
	cfg_of(&j, 0, &c);
	steady_init(&st);
	CHECK_EQ_U(steady_find(&c, &s, &st), 0);
	CHECK(st.evaluated && !st.attained);
	/* the last window (1400, 600, 1400, 600, 1400): range 800 over mean 1080 */
	CHECK_NEAR(st.range_pct, 800.0 / 1080.0 * 100.0, 1e-9);
	steady_free(&st);
	job_free(&j);

	CHECK_EQ_U(job_of(&j, &e, coarse), 0);
	cfg_of(&j, 0, &c);
	CHECK_EQ_U(steady_find(&c, &s, &st), 0);
	CHECK(st.evaluated && st.attained);
	CHECK_EQ_U(st.nr, 5);
	CHECK_EQ_U(st.first, 0);
	CHECK_EQ_U(st.last, 19);
	CHECK_EQ_U(st.end_ms, 5000);
	CHECK_NEAR(st.mean, 1000, 1e-9);
	CHECK_NEAR(st.range_pct, 0, 1e-12);
	steady_free(&st);
	job_free(&j);
	series_free(&s);
}

int main(void)
{
	RUN(defaults_report_snia_and_never_stop);
	RUN(snia_options_override);
	RUN(fio_rule);
	RUN(report_choice);
	RUN(errors);
	RUN(snia_round_aggregates);
	return CHECK_DONE();
}
