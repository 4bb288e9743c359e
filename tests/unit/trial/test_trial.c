/*
 * Tests for trial (the loop of `iotrial ab`) with a spawn callback that runs
 * nothing: it copies a saved result (A's or B's) to the run's --output=FILE,
 * or fails as a run would.  So the order, the manifest, the results kept and
 * the stop rule are checked without a process or a device.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "trial/trial.h"

#define DATA "tests/data/results/"

struct fake {
	char sides[64];		/* the side of every spawn, in order */
	size_t n;
	int fail_at;		/* 1-based spawn that exits with 3; 0: none */
	int saw_json;		/* --output-format=json was passed every time */
};

static int copy_file(const char *from, const char *to)
{
	FILE *a = fopen(from, "rb"), *b = a ? fopen(to, "wb") : NULL;
	char buf[65536];
	size_t n;
	int ret = a && b ? 0 : -1;

	while (!ret && (n = fread(buf, 1, sizeof(buf), a)) > 0)
		if (fwrite(buf, 1, n, b) != n)
			ret = -1;
	if (a)
		fclose(a);
	if (b && fclose(b))
		ret = -1;
	return ret;
}

static int fake_spawn(void *arg, struct trial *t, int side, char *const *args, size_t nargs,
		      const char *log)
{
	struct fake *f = arg;
	const char *out = NULL;
	int json = 0;
	size_t i;

	(void)t;
	(void)log;
	f->sides[f->n++] = side ? 'B' : 'A';
	for (i = 0; i < nargs; i++) {
		if (!strncmp(args[i], "--output=", 9))
			out = args[i] + 9;
		json |= !strcmp(args[i], "--output-format=json");
	}
	f->saw_json += json;
	if (f->fail_at && (int)f->n == f->fail_at)
		return 3;
	if (!out || copy_file(side ? DATA "iotrial_b.json" : DATA "iotrial_a.json", out))
		return 70;
	return 0;
}

static void cfg_init(struct trial_cfg *c, struct fake *f, const char *dir, char **common)
{
	memset(c, 0, sizeof(*c));
	compare_opts_init(&c->copts);
	c->a_spec = "rate_iops=1000";
	c->b_spec = "rate_iops=2000";
	c->common = common;
	c->ncommon = 1;
	c->stop.runs = 3;
	c->stop.max_runs = 3;
	c->stop.until_ci_pct = -1;
	c->order = ABRUN_ALTERNATE;
	c->dir = dir;
	c->metric = "total.iops";
	c->spawn = fake_spawn;
	c->spawn_arg = f;
}

static int manifest_runs(const char *dir, const char **stopped_by)
{
	char path[512];
	json_error_t je;
	json_t *m;
	int n;
	static char by[32];

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	m = json_load_file(path, 0, &je);
	if (!m)
		return -1;
	n = (int)json_array_size(json_object_get(m, "runs"));
	snprintf(by, sizeof(by), "%s", json_string_value(json_object_get(m, "stopped_by")) ?
		 json_string_value(json_object_get(m, "stopped_by")) : "(null)");
	*stopped_by = by;
	json_decref(m);
	return n;
}

static void rm_dir(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("  cannot remove %s\n", dir);
}

/* Three runs a side, alternating: ABABAB, every result kept, the manifest says why it stopped. */
TEST(fixed_runs_alternate)
{
	char dir[] = "/tmp/iotrial-test-trial.XXXXXX", common[] = "--name=x";
	char *cv[] = { common };
	struct fake f = { .fail_at = 0 };
	struct trial_cfg c;
	struct trial t;
	struct err e;
	const char *by = "";

	CHECK(mkdtemp(dir) != NULL);
	cfg_init(&c, &f, dir, cv);
	err_clear(&e);
	CHECK_EQ_U(trial_prepare(&t, &c, &e), 0);
	CHECK(trial_run(&t, &e) == ABRUN_DONE_RUNS);
	CHECK_STR(f.sides, "ABABAB");
	CHECK_EQ_U(f.saw_json, 6);
	CHECK_EQ_U(t.nres[0], 3);
	CHECK_EQ_U(t.nres[1], 3);
	CHECK_EQ_U(t.nkeys, 1);		/* rate_iops, from both sides */
	CHECK_EQ_U(manifest_runs(dir, &by), 6);
	CHECK_STR(by, "runs");
	trial_free(&t);
	rm_dir(dir);
}

/* A run that fails ends the trial with its exit code, naming the run; the manifest records it. */
TEST(failed_run_stops)
{
	char dir[] = "/tmp/iotrial-test-trial.XXXXXX", common[] = "--name=x";
	char *cv[] = { common };
	struct fake f = { .fail_at = 3 };
	struct trial_cfg c;
	struct trial t;
	struct err e;
	const char *by = "";

	CHECK(mkdtemp(dir) != NULL);
	cfg_init(&c, &f, dir, cv);
	err_clear(&e);
	CHECK_EQ_U(trial_prepare(&t, &c, &e), 0);
	CHECK(trial_run(&t, &e) == ABRUN_CONTINUE);
	CHECK_EQ_U(e.exit_code, 3);
	CHECK(strstr(e.msg, "run 3 (A) exited with 3") != NULL);
	CHECK_EQ_U(f.n, 3);
	CHECK_EQ_U(t.nres[0] + t.nres[1], 2);
	CHECK_EQ_U(manifest_runs(dir, &by), 3);
	CHECK_STR(by, "error");
	trial_free(&t);
	rm_dir(dir);
}

/* A directory that already holds a trial is refused before anything runs. */
TEST(dir_with_trial_refused)
{
	char dir[] = "/tmp/iotrial-test-trial.XXXXXX", common[] = "--name=x";
	char *cv[] = { common };
	struct fake f = { .fail_at = 0 };
	struct trial_cfg c;
	struct trial t;
	struct err e;

	CHECK(mkdtemp(dir) != NULL);
	cfg_init(&c, &f, dir, cv);
	err_clear(&e);
	CHECK_EQ_U(trial_prepare(&t, &c, &e), 0);	/* writes manifest.json */
	trial_free(&t);
	err_clear(&e);
	CHECK(trial_prepare(&t, &c, &e) == -EINVAL);
	CHECK_EQ_U(e.exit_code, EXIT_USAGE);
	CHECK(strstr(e.msg, "already holds a trial") != NULL);
	CHECK_EQ_U(f.n, 0);
	trial_free(&t);
	rm_dir(dir);
}

int main(void)
{
	RUN(fixed_runs_alternate);
	RUN(failed_run_stops);
	RUN(dir_with_trial_refused);
	return CHECK_DONE();
}
