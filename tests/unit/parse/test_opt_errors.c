/*
 * Unit tests for what the option table refuses: unknown and unsupported
 * options, bad values (with the message), invalid jobs (opt_validate), engine
 * options under another engine.
 */
#include <errno.h>
#include <stdlib.h>
#include "check.h"
#include "parse/opt.h"
#include "io/engine.h"	/* engine_find, engine_absent_reason: rbd built or not */
#include "opt_fixture.h"	/* W, fixture_resolved, fixture_set1 */

/* @name=@val must fail with exactly @msg. */
static int fails_with(const char *name, const char *val, const char *msg)
{
	struct job j;
	struct err e;
	int ret = fixture_set1(&j, name, val, &e), ok;

	ok = ret == -EINVAL && e.exit_code == EXIT_USAGE && !strcmp(e.msg, msg);
	if (!ok)
		printf("  %s=%s: got %d \"%s\"\n", name, val ? val : "(bare)", ret, e.msg);
	/* nothing recorded */
	ok = ok && j.opts_nr == 0;
	job_free(&j);
	return ok;
}

/* @name=@val must fail with a message containing @part. */
static int fails_like(const char *name, const char *val, const char *part)
{
	struct job j;
	struct err e;
	int ret = fixture_set1(&j, name, val, &e), ok;

	ok = ret < 0 && e.exit_code == EXIT_USAGE && strstr(e.msg, part) && strstr(e.msg, "(" W ")");
	if (!ok)
		printf("  %s=%s: got %d \"%s\"\n", name, val ? val : "(bare)", ret, e.msg);
	job_free(&j);
	return ok;
}

TEST(unknown_and_unsupported)
{
	CHECK(fails_with("xyz", "1", "unknown option 'xyz' (" W ")"));
	CHECK(fails_with("iodpeth", "1", "unknown option 'iodpeth' (did you mean 'iodepth'?) (" W ")"));
	CHECK(fails_with("verify", "crc7", "unsupported value 'crc7' for option 'verify': supported: md5, "
			 "crc32c, crc32, crc64, sha1, sha256, sha512, xxhash, meta, pattern, 0/none (" W ")"));
	CHECK(fails_with("verify_write_sequence", "0", "unsupported option 'verify_write_sequence': "
			 "not supported (verify= checks every block after the writes) (" W ")"));
	CHECK(fails_with("load", "1", "unsupported option 'load': a fio profile's option: fio's "
			 "profiles are not supported (iotrial's are --preset) (" W ")"));
	CHECK(fails_with("pingpong", "1", "unsupported option 'pingpong' (" W ")"));
	CHECK(fails_like("zonemode", "zoned", "not one of none, strided, zbd"));
	CHECK(fails_like("zone_reset_frequency", "2", "not between 0 and 1"));
	/* fio's words, which fio's t/zbd greps for (its tests 18-23) */
	CHECK(fails_like("zone_reset_threshold", "-1", "value out of range"));
	CHECK(fails_like("zone_reset_frequency", "2", "value out of range"));
	CHECK(fails_like("zone_reset_threshold", ".4:.6", "the list exceeding max length"));
	CHECK(fails_with("gtod_reduce", NULL, "option 'gtod_reduce' requires an argument (" W ")"));
	CHECK(fails_like("nice", "20", "-20..19"));
	CHECK(fails_like("thinktime_blocks", "0", "below the minimum 1"));
	/* fio's zone units: whole zones, on five options only */
	CHECK(fails_with("size", "1.5z", "invalid value '1.5z' for option 'size': zone units are a "
			 "whole number of zones below 2^32 (Nz) (" W ")"));
	CHECK(fails_like("io_size", "z", "whole number of zones"));
	CHECK(fails_like("offset", "-1z", "whole number of zones"));
	CHECK(fails_like("zoneskip", "99999999999z", "below 2^32"));
	CHECK(fails_like("bs", "1z", "unexpected 'z'"));
	CHECK(fails_like("filesize", "1z", "unexpected 'z'"));
	CHECK(fails_like("io_submit_mode", "sideways", "not one of"));
	CHECK(fails_like("continue_on_error", "sometimes", "not one of none, read, write"));
	CHECK(fails_like("latency_percentile", "100.5", "a percentile is 0..100"));
	CHECK(fails_like("latency_percentile", "99:50", "one percentile only"));
	CHECK(fails_like("latency_target", "5x", "latency_target"));
	CHECK(fails_like("ignore_error", "EIO,ENOPE", "not an errno name"));
	CHECK(fails_like("nice", "x", "not an integer"));
	CHECK(fails_like("cpumask", "0", "no CPU"));
	CHECK(fails_with("direct", NULL, "option 'direct' requires an argument (" W ")"));
	CHECK(fails_with("size", "", "option 'size' requires an argument (" W ")"));
	CHECK(fails_with("ioengine", "rados", "unsupported engine 'rados' (" W ")"));
	CHECK(fails_with("ioengine", "libaio2", "unknown engine 'libaio2' (did you mean 'libaio'?) (" W ")"));
	CHECK(fails_with("ioengine", "uring", "unknown engine 'uring' (did you mean 'io_uring'?) (" W ")"));
	CHECK(fails_with("ioengine", "psnyc", "unknown engine 'psnyc' (did you mean 'psync'?) (" W ")"));
	CHECK(fails_with("ioengine", "foo", "unknown engine 'foo' (" W ")"));
	CHECK(fails_with("ioengine", "external:/x.so", "unsupported engine 'external:/x.so' (" W ")"));
	CHECK(fails_with("random_distribution", "zoned_abs:60/10g:40/90g",
			 "unsupported value 'zoned_abs:60/10g:40/90g' for option 'random_distribution': "
			 "zoned_abs and sequence distributions (" W ")"));
	CHECK(fails_like("random_distribution", "zoned:60/10:30/", "not 100% each"));
	CHECK(fails_like("random_distribution", "zoned:60/10:40", "access%/size%"));
	CHECK(fails_like("random_distribution", "zoned:60/:40/", "only one zone"));
	CHECK(fails_like("rw", "randread:-8k", "a negative modifier needs sequential I/O"));
	CHECK(fails_like("steadystate", "lat:5%", "unsupported value"));
	CHECK(fails_like("random_distribution", "zipf:1.2:0.25", "unsupported value"));
	CHECK(fails_like("random_distribution", "zipf:1.2,pareto:0.5", "unsupported value"));
	/* every fio option that is not supported is refused, not unknown */
	CHECK(opt_find("replay_redirect") && opt_find("replay_redirect")->type == OPT_UNSUPPORTED);
	CHECK(opt_find("iomem") && opt_find("iomem")->type == OPT_UNSUPPORTED);
	CHECK(opt_find("readwrite") == opt_find("rw"));
	CHECK(opt_find("nope") == NULL);
}

TEST(bad_values)
{
	CHECK(fails_like("direct", "2", "a boolean is 0 or 1"));
	CHECK(fails_like("direct", "yes", "a boolean is 0 or 1"));
	CHECK(fails_like("time_based", "2", "a boolean is 0 or 1"));
	CHECK(fails_like("bs", "0", "below the minimum 1"));
	CHECK(fails_like("bs", "4k,0", "below the minimum 1"));
	CHECK(fails_like("bs", "-4k", "negative"));
	CHECK(fails_like("bs", "4q", "unexpected 'q' after the number"));
	CHECK(fails_like("bs", "1,2,3,4", "more than three"));
	CHECK(fails_like("iodepth", "0", "below the minimum 1"));
	CHECK(fails_like("iodepth", "65537", "above the maximum 65536"));
	CHECK(fails_like("numjobs", "0", "below the minimum 1"));
	CHECK(fails_like("numjobs", "4294967296", "above the maximum 4294967295"));
	CHECK(fails_like("nrfiles", "0", "below the minimum"));
	CHECK(fails_like("loops", "0", "below the minimum"));
	CHECK(fails_like("rwmixread", "101", "above the maximum 100"));
	CHECK(fails_like("rwmixwrite", "101", "above the maximum 100"));
	CHECK(fails_like("percentage_random", "101", "above the maximum 100"));
	CHECK(fails_like("size", "99999999999999999999", "too large"));
	CHECK(fails_like("size", "abc", "not a number"));
	CHECK(fails_like("size", "101%", "0..100"));
	CHECK(fails_like("runtime", "1k", "unexpected 'k'"));
	CHECK(fails_like("runtime", "-5", "negative"));
	/* an integer of ms as in fio, which reads "2s" as 2: time units are refused */
	CHECK(fails_like("log_avg_msec", "2s", "unexpected 's'"));
	CHECK(fails_like("log_hist_msec", "1500us", "unexpected 'us'"));
	CHECK(fails_like("log_hist_msec", "2ms", "unknown unit 'ms'"));
	CHECK(fails_like("series_interval", "100us", "below the minimum 1000"));
	CHECK(fails_like("sync", "always", "not one of none, 0, sync, 1, dsync"));
	CHECK(fails_like("kb_base", "1023", "not one of 1024, 1000"));
	CHECK(fails_like("rw", "randwrite:", "empty value"));
	CHECK(fails_like("rw", "scramble", "not one of read"));
	CHECK(fails_like("bsrange", "64k-1k", "reversed"));
	CHECK(fails_like("bsrange", "0-4k", "a block size of 0"));
	CHECK(fails_like("filesize", "4m-1m", "reversed"));
	CHECK(fails_like("bssplit", "4k/50:8k/60", "above 100%"));
	CHECK(fails_like("random_distribution", "zipf:1", "not 1"));
	CHECK(fails_like("random_distribution", "zipf", "needs a parameter"));
	CHECK(fails_like("random_distribution", "pareto:1.5", "between 0 and 1"));
	CHECK(fails_like("random_distribution", "normal:101", "0..100"));
	CHECK(fails_like("random_distribution", "gauss:1", "not one of random"));
	CHECK(fails_like("random_distribution", "random:1", "no parameter"));
	CHECK(fails_like("steadystate", "iops", "needs a limit"));
	CHECK(fails_like("steadystate", "speed:1", "not one of iops"));
	CHECK(fails_like("steadystate", "iops:x%", "not a number"));
	CHECK(fails_like("percentile_list", "0:50", "above 0"));
	CHECK(fails_like("percentile_list", "50:100.5", "at most 100"));
	CHECK(fails_like("percentile_list", "1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21",
			 "more than 20"));
	CHECK(fails_like("cpus_allowed", "3-1", "reversed"));
	CHECK(fails_like("cpus_allowed", "99999", "CPU numbers go up to"));
	CHECK(fails_like("cpus_allowed", "a", "not a number"));
	CHECK(fails_like("sqthread_poll_cpu", "-1", "negative"));
	CHECK(fails_like("unified_rw_reporting", "3", "not one of none, 0, mixed, 1, both, 2"));
	CHECK(fails_like("steady_report", "auto", "not one of snia, fio, none"));
	CHECK(fails_like("snia_window", "1", "below the minimum 2"));
	CHECK(fails_like("snia_range", "0", "above 0 and at most 100"));
	CHECK(fails_like("snia_range", "100.5%", "above 0 and at most 100"));
	CHECK(fails_like("snia_slope", "-5", "above 0 and at most 100"));
	CHECK(fails_like("snia_slope", "-5", "'-5'"));
	CHECK(fails_like("snia_slope", "%", "not a number"));
	CHECK(fails_like("snia_slope", "5%%%", "not a number"));
	CHECK(fails_like("snia_round", "1.5", "fractional"));
	CHECK(fails_like("snia_round", "2min", "unknown unit"));
	CHECK(fails_like("snia_metric", "p99", "not one of iops, bw, lat"));
	CHECK(fails_like("snia_stop", "yes", "a boolean is 0 or 1"));
	CHECK(fails_like("name", "", "requires an argument"));
	{
		char longname[400];

		memset(longname, 'n', sizeof(longname) - 1);
		longname[sizeof(longname) - 1] = '\0';
		CHECK(fails_like("name", longname, "longer than 255"));
	}
}

TEST(failure_leaves_job_unchanged)
{
	struct job j;
	struct err e;

	CHECK(!fixture_set1(&j, "bs", "8k", &e));
	CHECK(opt_set(&j, "bs", "16k,zz", W, &e) == -EINVAL);
	CHECK_EQ_U(j.bs[0], 8192);
	CHECK_EQ_U(j.bs[1], 8192);
	CHECK_EQ_U(j.opts_nr, 1);
	err_clear(&e);
	CHECK(opt_set(&j, "bssplit", "4k/50,8k/20", W, &e) == -EINVAL);
	CHECK_EQ_U(j.bssplit_nr[0], 0);
	err_clear(&e);
	CHECK(opt_set(&j, "percentile_list", "50:0", W, &e) == -EINVAL);
	CHECK_EQ_U(j.percentile_nr, 17);
	err_clear(&e);
	CHECK(opt_set(&j, "cpus_allowed", "0,99999", W, &e) == -ERANGE);
	CHECK(!j.cpus_allowed_set);
	job_free(&j);
}

/* A default job with the null engine passes validation and gets its fix-ups. */
static void valid_job(struct job *j)
{
	struct err e = { 0 };

	job_init(j);
	snprintf(j->name, sizeof(j->name), "v");
	snprintf(j->origin, sizeof(j->origin), "v.fio:7");
	CHECK(!opt_set(j, "ioengine", "null", W, &e));
}

static int invalid(struct job *j, const char *part)
{
	struct err e = { 0 };
	int ret = opt_job_validate(j, &e), ok;

	ok = ret < 0 && e.exit_code == EXIT_USAGE && strstr(e.msg, part) &&
	     strstr(e.msg, "job 'v'") && strstr(e.msg, "v.fio:7");
	if (!ok)
		printf("  validate: got %d \"%s\"\n", ret, e.msg);
	job_free(j);
	return ok;
}

TEST(validate)
{
	struct job j;
	struct err e = { 0 };

	valid_job(&j);
	CHECK(!opt_set(&j, "bs", "8k,16k", W, &e));
	CHECK(!opt_job_validate(&j, &e));
	CHECK_EQ_U(j.bs_min[0], 8192);
	CHECK_EQ_U(j.bs_max[0], 8192);
	CHECK_EQ_U(j.bs_min[2], 16384);
	CHECK_STR(fixture_resolved(&j, "bsrange"), "<unset>");
	job_free(&j);

	job_init(&j);
	snprintf(j.name, sizeof(j.name), "v");
	snprintf(j.origin, sizeof(j.origin), "v.fio:7");
	free(j.ioengine);
	j.ioengine = strdup("rados");	/* a fio engine iotrial does not have */
	CHECK(invalid(&j, "unsupported engine 'rados' (job 'v', v.fio:7)"));

	valid_job(&j);
	CHECK(!opt_set(&j, "iodepth", "4", W, &e));
	CHECK(!opt_set(&j, "iodepth_batch", "16", W, &e));
	CHECK(!opt_set(&j, "iodepth_low", "8", W, &e));
	CHECK(!opt_job_validate(&j, &e));
	CHECK_EQ_U(j.iodepth_batch_submit, 4);
	CHECK_EQ_U(j.iodepth_low, 4);
	job_free(&j);

	valid_job(&j);
	CHECK(!opt_set(&j, "iodepth", "16", W, &e));
	CHECK(!opt_set(&j, "iodepth_batch_complete_min", "8", W, &e));
	CHECK(!opt_set(&j, "iodepth_batch_complete_max", "4", W, &e));
	CHECK(invalid(&j, "iodepth_batch_complete_min 8 is above iodepth_batch_complete_max 4"));

	valid_job(&j);
	CHECK(!opt_set(&j, "rate", "1m", W, &e));
	CHECK(!opt_set(&j, "rate_iops", ",100", W, &e));
	CHECK(invalid(&j, "rate and rate_iops are both set for write"));

	valid_job(&j);
	CHECK(!opt_set(&j, "size", "1m", W, &e));
	CHECK(!opt_set(&j, "offset", "1m", W, &e));
	CHECK(!opt_job_validate(&j, &e));	/* I/O goes to [1m, 2m), as in fio */
	job_free(&j);

	valid_job(&j);
	CHECK(!opt_set(&j, "size", "1m", W, &e));
	CHECK(!opt_set(&j, "offset", "512k", W, &e));
	CHECK(!opt_job_validate(&j, &e));
	job_free(&j);

	valid_job(&j);
	CHECK(!opt_set(&j, "size", "60%", W, &e));
	CHECK(!opt_set(&j, "offset", "50%", W, &e));
	CHECK(invalid(&j, "above 100%"));

	valid_job(&j);
	j.bs_min[1] = 8192;
	j.bs_max[1] = 4096;
	CHECK(invalid(&j, "bsrange for write is 8192-4096"));

	valid_job(&j);
	j.bs[2] = 0;
	CHECK(invalid(&j, "bs for trim is 0"));

	valid_job(&j);
	j.percentile_list[3] = 0;
	CHECK(invalid(&j, "percentile 0 is outside (0,100]"));

	valid_job(&j);
	j.iodepth = 0;
	CHECK(invalid(&j, "iodepth 0 is outside 1..65536"));

	valid_job(&j);
	j.numjobs = 0;
	CHECK(invalid(&j, "numjobs is 0"));

	/* ss_dur alone turns on fio's default criterion; bare logs take the job name */
	valid_job(&j);
	CHECK(!opt_set(&j, "ss_dur", "30s", W, &e));
	CHECK(!opt_set(&j, "write_iops_log", NULL, W, &e));
	CHECK(!opt_job_validate(&j, &e));
	CHECK_EQ_U(j.ss_metric, SS_IOPS_SLOPE);
	CHECK_NEAR(j.ss_limit, 0.01, 0);
	CHECK(j.ss_pct);
	CHECK_STR(j.write_iops_log, "v");
	CHECK_STR(fixture_resolved(&j, "steadystate"), "iops_slope:0.01%");
	job_free(&j);

	/* steady state: the rules must build before any I/O */
	valid_job(&j);
	CHECK(!opt_set(&j, "snia_round", "1500ms", W, &e));
	CHECK(invalid(&j, "snia_round 1500000us is not a multiple of series_interval 1000000us"));

	valid_job(&j);
	CHECK(!opt_set(&j, "series_interval", "250ms", W, &e));
	CHECK(!opt_set(&j, "snia_round", "1500ms", W, &e));
	CHECK(!opt_job_validate(&j, &e));
	job_free(&j);

	valid_job(&j);
	CHECK(!opt_set(&j, "steady_report", "fio", W, &e));
	CHECK(invalid(&j, "steady_report=fio needs fio's rule: steadystate_duration (ss_dur) is not set"));

	valid_job(&j);
	CHECK(!opt_set(&j, "ss", "iops:5%", W, &e));
	CHECK(!opt_set(&j, "steady_report", "fio", W, &e));
	CHECK(invalid(&j, "steady_report=fio needs fio's rule"));

	valid_job(&j);
	CHECK(!opt_set(&j, "ss_dur", "5", W, &e));
	CHECK(!opt_set(&j, "snia_stop", "1", W, &e));
	CHECK(invalid(&j, "snia_stop=1 and fio's ss= (steadystate_duration) are both stop rules"));

	valid_job(&j);
	CHECK(!opt_set(&j, "ss_dur", "5", W, &e));
	CHECK(!opt_set(&j, "series_interval", "300ms", W, &e));
	CHECK(invalid(&j, "series_interval 300000us does not divide one second"));

	/* both rules at once: fio's stops the job, SNIA's finds the reported window */
	valid_job(&j);
	CHECK(!opt_set(&j, "ss", "iops:5%", W, &e));
	CHECK(!opt_set(&j, "ss_dur", "5", W, &e));
	CHECK(!opt_set(&j, "steady_report", "snia", W, &e));
	CHECK(!opt_set(&j, "series_interval", "500ms", W, &e));
	CHECK(!opt_job_validate(&j, &e));
	job_free(&j);
}

/* An engine's own options are refused under another engine, by name. */
TEST(engine_options_owned)
{
	static const struct { const char *opt, *val, *eng; int ok; } c[] = {
		{ "fixedbufs", NULL, "psync", 0 },
		{ "sqthread_poll", "1", "libaio", 0 },
		{ "registerfiles", NULL, "sync", 0 },
		{ "sqthread_poll_cpu", "0", "psync", 0 },
		{ "nonvectored", "1", "null", 0 },
		{ "hipri", NULL, "psync", 0 },
		{ "fixedbufs", "0", "psync", 1 },	/* the default is no use of it */
		{ "fixedbufs", NULL, "io_uring", 1 },
		{ "hipri", NULL, "io_uring", 1 },
		{ "hipri", NULL, "pvsync2", 1 },
	};
	struct job j;
	struct err e;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char want[200];

		CHECK(fixture_set1(&j, c[i].opt, c[i].val, &e) == 0);
		CHECK(opt_set(&j, "name", "x", W, &e) == 0);
		CHECK(opt_set(&j, "ioengine", c[i].eng, W, &e) == 0);
		snprintf(j.origin, sizeof(j.origin), "%s", W);
		err_clear(&e);
		ret = opt_job_validate(&j, &e);
		if (c[i].ok) {
			CHECK(ret == 0);
		} else {
			snprintf(want, sizeof(want), "option '%s' belongs to ioengine", c[i].opt);
			CHECK(ret == -EINVAL && strstr(e.msg, want) && strstr(e.msg, c[i].eng) &&
			      strstr(e.msg, "job 'x'"));
			if (!(ret == -EINVAL && strstr(e.msg, want)))
				printf("  %s under %s: %d \"%s\"\n", c[i].opt, c[i].eng, ret, e.msg);
		}
		job_free(&j);
	}
}

/*
 * An engine option inherited (a [global] with ioengine=e4defrag and
 * donorname) is dropped when the job switches engine, as fio 3.33 does; the
 * same option set by the job itself under libaio is refused.
 */
TEST(engine_options_inherited_dropped)
{
	struct job g, j;
	struct err e;
	char *line = NULL;

	job_init(&g);
	CHECK(opt_set(&g, "ioengine", "e4defrag", W, &e) == 0);
	CHECK(opt_set(&g, "donorname", "d.def", W, &e) == 0);
	CHECK(opt_engine_owned_check(&g, &e) == 0);
	CHECK(job_copy(&j, &g) == 0);
	job_kv_clear(&j);		/* the job's own options start empty, as jobfile.c does */
	CHECK(opt_set(&j, "name", "x", W, &e) == 0);
	CHECK(opt_set(&j, "ioengine", "libaio", W, &e) == 0);
	err_clear(&e);
	CHECK(opt_job_validate(&j, &e) == 0);
	CHECK_STR(fixture_resolved(&j, "donorname"), "<unset>");
	CHECK(opt_job_cmdline(&j, &line) == 0);
	CHECK(strstr(line, "donorname") == NULL);
	free(line);
	job_free(&j);
	/* set by the job itself: refused, naming it */
	CHECK(job_copy(&j, &g) == 0);
	job_kv_clear(&j);
	CHECK(opt_set(&j, "name", "x", W, &e) == 0);
	CHECK(opt_set(&j, "donorname", "d.def", W, &e) == 0);
	CHECK(opt_set(&j, "ioengine", "libaio", W, &e) == 0);
	err_clear(&e);
	CHECK(opt_job_validate(&j, &e) == -EINVAL);
	CHECK(strstr(e.msg, "option 'donorname' belongs to ioengine e4defrag, not libaio") != NULL);
	job_free(&j);
	/* a global of another engine: refused under the name 'global' */
	job_free(&g);
	job_init(&g);
	CHECK(opt_set(&g, "donorname", "d.def", W, &e) == 0);
	err_clear(&e);
	CHECK(opt_engine_owned_check(&g, &e) == -EINVAL);
	CHECK(strstr(e.msg, "job 'global'") != NULL && strstr(e.msg, "not psync") != NULL);
	job_free(&g);
}

/*
 * rbd's options: refused under another engine by name; under rbd, pool= and
 * rbdname= are required and clustername= needs clientname=.  The engine
 * itself is either built in (librbd found) or refused naming the library.
 */
TEST(rbd_options)
{
	struct job j;
	struct err e = { 0 };
	int built = engine_find("rbd") != NULL;

	CHECK(built != (engine_absent_reason("rbd") != NULL));
	CHECK(engine_absent_reason("libaio") == NULL && engine_absent_reason("rados") == NULL);
	job_init(&j);
	CHECK(opt_set(&j, "name", "x", W, &e) == 0);
	CHECK(opt_set(&j, "pool", "rbd", W, &e) == 0);
	CHECK(opt_set(&j, "ioengine", "libaio", W, &e) == 0);
	err_clear(&e);
	CHECK(opt_job_validate(&j, &e) == -EINVAL);
	CHECK(strstr(e.msg, "option 'pool' belongs to ioengine rbd, not libaio") != NULL);
	job_free(&j);
	job_init(&j);
	err_clear(&e);
	CHECK(opt_set(&j, "busy_poll", "2", W, &e) == -EINVAL);
	CHECK(strstr(e.msg, "invalid value '2' for option 'busy_poll'") != NULL);
	err_clear(&e);
	CHECK(opt_set(&j, "rbdname", "", W, &e) == -EINVAL);
	job_free(&j);
	job_init(&j);
	CHECK(opt_set(&j, "name", "x", W, &e) == 0);
	err_clear(&e);
	if (!built) {
		CHECK(opt_set(&j, "ioengine", "rbd", W, &e) == -EINVAL);
		CHECK(strstr(e.msg, "unsupported engine 'rbd': this build has no librbd") != NULL);
		job_free(&j);
		return;
	}
	CHECK(opt_set(&j, "ioengine", "rbd", W, &e) == 0);
	CHECK(opt_set(&j, "pool", "rbd", W, &e) == 0);
	err_clear(&e);
	CHECK(opt_job_validate(&j, &e) == -EINVAL);
	CHECK(strstr(e.msg, "ioengine rbd needs rbdname=") != NULL);
	CHECK(opt_set(&j, "rbdname", "img", W, &e) == 0);
	CHECK(opt_set(&j, "clustername", "ceph", W, &e) == 0);
	err_clear(&e);
	CHECK(opt_job_validate(&j, &e) == -EINVAL);
	CHECK(strstr(e.msg, "clustername= needs clientname=") != NULL);
	CHECK(opt_set(&j, "clientname", "admin", W, &e) == 0);
	CHECK(opt_set(&j, "busy_poll", "1", W, &e) == 0);
	err_clear(&e);
	CHECK(opt_job_validate(&j, &e) == 0);
	CHECK_STR(fixture_resolved(&j, "busy_poll"), "1");
	CHECK_STR(fixture_resolved(&j, "pool"), "rbd");
	CHECK_STR(fixture_resolved(&j, "rbdname"), "img");
	CHECK_STR(fixture_resolved(&j, "clientname"), "admin");
	job_free(&j);
}

int main(void)
{
	RUN(unknown_and_unsupported);
	RUN(bad_values);
	RUN(failure_leaves_job_unchanged);
	RUN(validate);
	RUN(engine_options_owned);
	RUN(engine_options_inherited_dropped);
	RUN(rbd_options);
	return CHECK_DONE();
}
