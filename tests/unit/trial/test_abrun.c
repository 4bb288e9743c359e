/*
 * Tests for abrun: how side specs become fio arguments, the interleaved and
 * seeded-random orders, the stopping rule (fixed, CI target, run and time
 * budgets), names, durations and the manifest.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "trial/abrun.h"
#include "check.h"
#include "lib/vec.h"	/* vec_free_strings */

static int args_are(const char *spec, const char *const *want, size_t nwant,
		    const char *const *wkeys, size_t nwkeys)
{
	char **argv, **keys;
	size_t argc, nkeys, i;
	struct err e;
	int ok = 1;

	err_clear(&e);
	if (abrun_side_args("--a", spec, &argv, &argc, &keys, &nkeys, &e)) {
		printf("  %s: %s\n", spec, e.msg);
		return 0;
	}
	if (argc != nwant || nkeys != nwkeys)
		ok = 0;
	for (i = 0; ok && i < argc; i++)
		ok = !strcmp(argv[i], want[i]);
	for (i = 0; ok && i < nkeys; i++)
		ok = !strcmp(keys[i], wkeys[i]);
	if (!ok) {
		printf("  %s ->", spec);
		for (i = 0; i < argc; i++)
			printf(" [%s]", argv[i]);
		printf("\n");
	}
	vec_free_strings(argv, argc);
	vec_free_strings(keys, nkeys);
	return ok;
}

#define V(...) (const char *const[]){ __VA_ARGS__ }, sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *)

TEST(side_options)
{
	CHECK(args_are("rate_iops=1000", V("--rate_iops=1000"), V("rate_iops")));
	CHECK(args_are("rate_iops=1000,bs=4k", V("--rate_iops=1000", "--bs=4k"),
		       V("rate_iops", "bs")));
	CHECK(args_are("bs=4k,8k", V("--bs=4k,8k"), V("bs")));	/* per-direction value */
	CHECK(args_are("ioengine=libaio direct=1", V("--ioengine=libaio", "--direct=1"),
		       V("ioengine", "direct")));
	CHECK(args_are("direct=1,time_based", V("--direct=1", "--time_based"),
		       V("direct", "time_based")));
	CHECK(args_are("direct=1,time_based rw=read", V("--direct=1", "--time_based", "--rw=read"),
		       V("direct", "time_based", "rw")));
	CHECK(args_are("cpus_allowed=0,1  rw=randrw,rwmixread=70",
		       V("--cpus_allowed=0,1", "--rw=randrw", "--rwmixread=70"),
		       V("cpus_allowed", "rw", "rwmixread")));
	CHECK(args_are("--iodepth=8", V("--iodepth=8"), V("iodepth")));
	CHECK(args_are("filename=/dev/nvme0n1", V("--filename=/dev/nvme0n1"), V("filename")));
}

TEST(side_job_file_and_errors)
{
	char tmpl[] = "/tmp/iotrial-ab.XXXXXX", **argv, **keys;
	size_t argc, nkeys;
	struct err e;
	int fd = mkstemp(tmpl);

	CHECK(fd >= 0);
	close(fd);
	err_clear(&e);
	CHECK(abrun_side_args("--b", tmpl, &argv, &argc, &keys, &nkeys, &e) == 0);
	CHECK_EQ_U(argc, 1);
	CHECK_EQ_U(nkeys, 0);
	if (argc == 1)
		CHECK_STR(argv[0], tmpl);
	vec_free_strings(argv, argc);
	vec_free_strings(keys, nkeys);
	unlink(tmpl);
	CHECK(abrun_side_args("--a", "missing.fio", &argv, &argc, &keys, &nkeys, &e) == -EINVAL);
	CHECK_STR(e.msg, "--a: \"missing.fio\" is neither a key=value fio option nor an "
		  "existing job file");
	CHECK(e.exit_code == EXIT_USAGE);
	err_clear(&e);
	CHECK(abrun_side_args("--a", "bs=4k =5", &argv, &argc, &keys, &nkeys, &e) == -EINVAL);
	CHECK(argv == NULL && argc == 0);
	err_clear(&e);
	CHECK(abrun_side_args("--b", " ", &argv, &argc, &keys, &nkeys, &e) == -EINVAL);
	CHECK_STR(e.msg, "--b needs fio options or a job file");
}

TEST(order_alternate)
{
	const char want[] = "ABABABAB";
	size_t i;

	for (i = 0; i < 8; i++)
		CHECK(abrun_side(ABRUN_ALTERNATE, 123, i) == want[i]);
}

TEST(order_random)
{
	size_t i, b_first = 0;
	int differs = 0;

	for (i = 0; i < 200; i += 2) {
		char x = abrun_side(ABRUN_RANDOM, 42, i), y = abrun_side(ABRUN_RANDOM, 42, i + 1);

		CHECK(x != y);				/* every pair has one A and one B */
		CHECK(x == abrun_side(ABRUN_RANDOM, 42, i));	/* reproducible from the seed */
		b_first += x == 'B';
		differs |= x != abrun_side(ABRUN_RANDOM, 43, i);
	}
	CHECK(b_first > 30 && b_first < 70);	/* 100 pairs, about half start with B */
	CHECK(differs);
}

TEST(stop_fixed)
{
	struct abrun_stop s = { .runs = 5, .until_ci_pct = -1 };

	CHECK(abrun_decide(&s, 4, 40, NAN) == ABRUN_CONTINUE);
	CHECK(abrun_decide(&s, 5, 50, NAN) == ABRUN_DONE_RUNS);
	/* a CI already tight does not stop a fixed trial */
	CHECK(abrun_decide(&s, 3, 30, 0.1) == ABRUN_CONTINUE);
	s.max_time_s = 100;
	/* 4 s per pair: after 2 pairs (8 s) another fits; after 24 s (12/pair) at 96 s not */
	CHECK(abrun_decide(&s, 2, 8, NAN) == ABRUN_CONTINUE);
	CHECK(abrun_decide(&s, 3, 96, NAN) == ABRUN_DONE_MAX_TIME);
}

TEST(stop_adaptive)
{
	struct abrun_stop s = { .runs = 3, .max_runs = 10, .until_ci_pct = 2 };

	CHECK(abrun_decide(&s, 2, 20, 1.0) == ABRUN_CONTINUE);	/* below the minimum */
	/* --runs=3 asks for less, but the CI never stops before 5 pairs */
	CHECK(abrun_decide(&s, 3, 30, 1.5) == ABRUN_CONTINUE);
	CHECK(abrun_decide(&s, 4, 40, 0.1) == ABRUN_CONTINUE);
	CHECK(abrun_decide(&s, ABRUN_MIN_CI_PAIRS, 50, 1.5) == ABRUN_DONE_CI);
	CHECK(abrun_decide(&s, 5, 50, 2.0) == ABRUN_CONTINUE);	/* strictly under */
	CHECK(abrun_decide(&s, 6, 60, NAN) == ABRUN_CONTINUE);	/* no CI yet */
	CHECK(abrun_decide(&s, 10, 100, 3.0) == ABRUN_DONE_MAX_RUNS);
	CHECK(abrun_decide(&s, 10, 100, 1.0) == ABRUN_DONE_CI);	/* the target wins a tie */
	s.max_time_s = 60;
	CHECK(abrun_decide(&s, 5, 55, 3.0) == ABRUN_DONE_MAX_TIME);
	CHECK(abrun_decide(&s, 5, 45, 3.0) == ABRUN_CONTINUE);	/* 45 + 9 < 60 */
	CHECK_STR(abrun_reason_name(ABRUN_DONE_CI), "ci");
	CHECK_STR(abrun_reason_name(ABRUN_DONE_MAX_TIME), "max-time");
}

TEST(names_and_durations)
{
	char b[64];
	double d;

	abrun_run_name(b, sizeof(b), 7, 'B');
	CHECK_STR(b, "run-007-B.json");
	setenv("TZ", "UTC", 1);
	tzset();
	abrun_default_dir(b, sizeof(b), 1796060977);	/* 2026-11-30 17:49:37 UTC */
	CHECK_STR(b, "iotrial-ab-20261130-174937");
	CHECK(abrun_parse_duration("30", &d) == 0 && d == 30);
	CHECK(abrun_parse_duration("1.5s", &d) == 0 && d == 1.5);
	CHECK(abrun_parse_duration("500ms", &d) == 0 && d == 0.5);
	CHECK(abrun_parse_duration("2m", &d) == 0 && d == 120);
	CHECK(abrun_parse_duration("1h", &d) == 0 && d == 3600);
	CHECK(abrun_parse_duration("5x", &d) == -EINVAL);
	CHECK(abrun_parse_duration("-1", &d) == -EINVAL);
	CHECK(abrun_parse_duration("", &d) == -EINVAL);
}

TEST(manifest)
{
	struct abrun_stop s = { .runs = 2, .until_ci_pct = -1 };
	char *common[] = { "--name=x", "--ioengine=null" };
	json_t *m = abrun_manifest_new(ABRUN_RANDOM, 99, "rate_iops=1000", "rate_iops=1180",
				       common, 2, "read.iops", &s);
	json_t *r;

	CHECK(m != NULL);
	CHECK(abrun_manifest_add(m, 1, 'B', "run-001-B.json", 1796060977000, 2100, 0) == 0);
	CHECK(abrun_manifest_add(m, 2, 'A', "run-002-A.json", 1796060979500, 2050, 0) == 0);
	CHECK_STR(json_string_value(json_object_get(m, "order")), "random");
	CHECK_EQ_U(json_integer_value(json_object_get(m, "seed")), 99);
	CHECK_STR(json_string_value(json_array_get(json_object_get(m, "common_args"), 1)),
		  "--ioengine=null");
	CHECK(json_is_null(json_object_get(json_object_get(m, "stop"), "until_ci_pct")));
	r = json_array_get(json_object_get(m, "runs"), 0);
	CHECK_STR(json_string_value(json_object_get(r, "side")), "B");
	CHECK_STR(json_string_value(json_object_get(r, "start")), "2026-11-30T17:49:37Z");
	CHECK_EQ_U(json_integer_value(json_object_get(r, "duration_ms")), 2100);
	CHECK_EQ_U(json_array_size(json_object_get(m, "runs")), 2);
	json_decref(m);
}

int main(void)
{
	RUN(side_options);
	RUN(side_job_file_and_errors);
	RUN(order_alternate);
	RUN(order_random);
	RUN(stop_fixed);
	RUN(stop_adaptive);
	RUN(names_and_durations);
	RUN(manifest);
	return CHECK_DONE();
}
