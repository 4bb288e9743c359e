/*
 * Unit tests for how a job's options are written back: "%%" in values, the
 * resolved list (JSON "job options"), the command line of a job, --cmdhelp.
 */
#include <errno.h>
#include <stdlib.h>
#include "check.h"
#include "parse/opt.h"
#include "io/engine.h"	/* engine_at, engine_name_at: --cmdhelp lists the engines */
#include "opt_fixture.h"	/* W, fixture_resolved, fixture_set1 */

/* "%%" reads as "%" in values (fio 3.33); strings keep their text. */
TEST(double_percent)
{
	struct job j;
	struct err e;

	CHECK(fixture_set1(&j, "size", "100%%", &e) == 0);
	CHECK_STR(fixture_resolved(&j, "size"), "100%");
	CHECK_STR(j.opts[0].val, "100%%");	/* echoed as typed, as fio does */
	job_free(&j);
	CHECK(fixture_set1(&j, "steadystate", "iops:20%%", &e) == 0);
	CHECK_STR(fixture_resolved(&j, "steadystate"), "iops:20%");
	job_free(&j);
	CHECK(fixture_set1(&j, "description", "a%%b", &e) == 0);
	CHECK_STR(fixture_resolved(&j, "description"), "a%%b");
	job_free(&j);
	CHECK(fixture_set1(&j, "offset", "0%", &e) == 0);
	CHECK_STR(fixture_resolved(&j, "offset"), "0");
	job_free(&j);
}

TEST(resolved_list)
{
	struct job j;
	struct err e = { 0 };
	struct job_kv *kv;
	size_t nr, i, listed = 0;
	struct opt_iter it = { 0 };
	const struct opt_def *o;

	job_init(&j);
	CHECK(!opt_job_resolved(&j, &kv, &nr));
	while ((o = opt_next(&it)) != NULL)
		if (o->type != OPT_UNSUPPORTED && !(o->flags & OPT_F_NOSHOW))
			listed++;
	/* unset at default: description, filename, directory, randseed, sqthread_poll_cpu,
	 * cpus_allowed, bsrange, bssplit, clocksource, steadystate, 4 logs, buffer_pattern,
	 * verify_pattern, wait_for, program, arguments, donorname, ignore_error,
	 * cmdprio_bssplit, prio, prioclass, filename_format, numa_cpu_nodes,
	 * numa_mem_policy, rbd's clustername, rbdname, pool, clientname, write_iolog,
	 * read_iolog, allrandrepeat, ioscheduler, io_uring_cmd's pi_chk */
	CHECK_EQ_U(nr, listed - 36);
	CHECK_STR(kv[0].key, "name");
	for (i = 0; i < nr; i++)
		CHECK(strcmp(kv[i].key, "buffered") && strcmp(kv[i].key, "rwmixwrite"));
	opt_kv_free(kv, nr);
	CHECK(!opt_set(&j, "runtime", "1h", W, &e));
	CHECK_STR(fixture_resolved(&j, "runtime"), "3600000000");
	job_free(&j);
}

TEST(cmdline_of_job)
{
	struct job j;
	struct err e = { 0 };
	char *line;

	job_init(&j);
	CHECK(!opt_set(&j, "name", "randrw", W, &e));
	CHECK(!opt_set(&j, "rw", "randrw", W, &e));
	CHECK(!opt_set(&j, "bs", "4k", W, &e));
	CHECK(!opt_set(&j, "iodepth", "32", W, &e));
	CHECK(!opt_set(&j, "size", "10G", W, &e));
	CHECK(!opt_set(&j, "numjobs", "4", W, &e));
	CHECK(!opt_set(&j, "runtime", "600", W, &e));
	CHECK(!opt_set(&j, "time_based", NULL, W, &e));
	CHECK(!opt_set(&j, "description", "it's a test", W, &e));
	CHECK(!opt_job_cmdline(&j, &line));
	CHECK_STR(line, "--name=randrw --description='it'\\''s a test' --size=10737418240 "
			"--rw=randrw --iodepth=32 --runtime=600000000us --time_based --numjobs=4");
	free(line);
	job_free(&j);
}

TEST(cmdhelp)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		SKIP("open_memstream failed");
	CHECK(!opt_cmdhelp(f, "bs"));
	CHECK(!opt_cmdhelp(f, "ss"));
	CHECK(!opt_cmdhelp(f, "sync"));
	CHECK(!opt_cmdhelp(f, "verify_write_sequence"));
	CHECK(!opt_cmdhelp(f, "fixedbufs"));
	CHECK(opt_cmdhelp(f, "nope") == -ENOENT);
	fclose(f);
	CHECK(strstr(buf, "bs: block size") != NULL);
	CHECK(strstr(buf, "alias:   blocksize") != NULL);
	CHECK(strstr(buf, "default: 4096") != NULL);
	CHECK(strstr(buf, "steadystate: ") != NULL);
	CHECK(strstr(buf, "values:  none 0 sync 1 dsync") != NULL);
	CHECK(strstr(buf, "verify_write_sequence: a fio option that iotrial does not support (refused): not supported") != NULL);
	CHECK(strstr(buf, "engines: io_uring io_uring_cmd (refused under any other)") != NULL);
	free(buf);
	/* ioengine lists every engine of the registry, from the registry */
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK(!opt_cmdhelp(f, "ioengine"));
	fclose(f);
	CHECK(strstr(buf, "type:    one of the values below") != NULL);
	{
		const struct engine_ops *ops;
		char want[64];

		CHECK(engine_at(0) != NULL);
		for (size_t i = 0; (ops = engine_at(i)) != NULL; i++) {
			snprintf(want, sizeof(want), " %s", ops->name);
			CHECK(strstr(strstr(buf, "values: ") ? strstr(buf, "values: ") : "", want));
			CHECK_STR(engine_name_at(i), ops->name);
		}
	}
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK(!opt_cmdhelp(f, NULL));
	fclose(f);
	CHECK(strstr(buf, "\niodepth ") != NULL);
	CHECK(strstr(buf, "\nioscheduler ") != NULL);
	CHECK(strstr(buf, "\nverify_write_sequence ") == NULL);
	CHECK(strstr(buf, "further fio options are recognised") != NULL);
	free(buf);
}

int main(void)
{
	RUN(double_percent);
	RUN(resolved_list);
	RUN(cmdline_of_job);
	RUN(cmdhelp);
	return CHECK_DONE();
}
