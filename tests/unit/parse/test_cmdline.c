/* Unit tests for cmdline: fio's command-line semantics and process flags. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "check.h"
#include "parse/cmdline.h"
#include "io/engine.h"
#include "parse/opt.h"

static char dir[256];

static const char *put(const char *name, const char *text)
{
	static char paths[4][512];
	static int k;
	char *p = paths[k++ % 4];
	FILE *f;

	snprintf(p, 512, "%s/%s", dir, name);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return p;
}

/* Parse a NULL-terminated list of arguments (argv[0] added). */
static int parse_v(struct cmdline *cl, struct err *e, const char *const *args)
{
	char *argv[64];
	int argc = 0;

	argv[argc++] = "iotrial";
	while (*args && argc < 63)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	err_clear(e);
	return cmdline_parse(argc, argv, cl, e);
}

#define PARSE(cl, e, ...) parse_v(cl, e, (const char *const[]){ __VA_ARGS__, NULL })

/* Both jobs resolve to the same option values. */
static int same_resolved(const struct job *a, const struct job *b)
{
	struct job_kv *ka, *kb;
	size_t na, nb, i;
	int same;

	if (opt_job_resolved(a, &ka, &na) || opt_job_resolved(b, &kb, &nb))
		return 0;
	same = na == nb;
	for (i = 0; same && i < na; i++) {
		if (strcmp(ka[i].key, kb[i].key) || strcmp(ka[i].val, kb[i].val)) {
			printf("  %s: %s != %s=%s\n", ka[i].key, ka[i].val, kb[i].key, kb[i].val);
			same = 0;
		}
	}
	opt_kv_free(ka, na);
	opt_kv_free(kb, nb);
	return same;
}

/* The seed report's command line gives exactly the job it describes. */
TEST(seed_command)
{
	struct cmdline cl;
	struct err e;
	struct job want;
	int have_psync = engine_find("psync") != NULL;
	static const char *const typed[][2] = {
		{ "name", "randrw" }, { "rw", "randrw" }, { "bs", "4k" }, { "iodepth", "32" },
		{ "size", "10G" }, { "numjobs", "4" }, { "runtime", "600" }, { "time_based", NULL },
	};
	size_t i;
	int ret, d;

	/* until psync is compiled in, the seed runs on the null engine */
	ret = PARSE(&cl, &e, "--name=randrw", "--rw=randrw", "--bs=4k", "--iodepth=32", "--size=10G",
		    "--numjobs=4", "--runtime=600", "--time_based",
		    have_psync ? "--rw=randrw" : "--ioengine=null");
	if (ret)
		printf("  %s\n", e.msg);
	CHECK(ret == 0);
	CHECK_EQ_U(cl.jobs_nr, 1);
	if (cl.jobs_nr != 1)
		goto out;
	job_init(&want);
	snprintf(want.name, sizeof(want.name), "randrw");
	want.rw = RW_READ | RW_WRITE | RW_RAND;
	want.iodepth = 32;
	want.size = 10ull << 30;
	want.numjobs = 4;
	want.runtime_us = 600ull * 1000000;
	want.time_based = 1;
	for (d = 0; d < DDIR_NR; d++)
		want.bs_min[d] = want.bs_max[d] = 4096;
	if (!have_psync) {
		free(want.ioengine);
		want.ioengine = strdup("null");
	}
	CHECK(same_resolved(&cl.jobs[0], &want));
	CHECK_EQ_U(cl.jobs[0].rw, RW_READ | RW_WRITE | RW_RAND);
	CHECK_EQ_U(cl.jobs[0].rwmixread, 50);
	CHECK_EQ_U(cl.jobs[0].bs[DDIR_WRITE], 4096);
	CHECK_EQ_U(cl.jobs[0].bs_max[DDIR_TRIM], 4096);
	CHECK_EQ_U(cl.jobs[0].size, 10737418240ull);
	CHECK_EQ_U(cl.jobs[0].runtime_us, 600000000ull);
	CHECK_EQ_U(cl.jobs[0].numjobs, 4);
	CHECK_EQ_U(cl.jobs[0].iodepth, 32);
	CHECK_EQ_U(cl.jobs[0].time_based, 1);
	CHECK_EQ_U(cl.jobs[0].group_reporting, 0);
	CHECK_STR(cl.jobs[0].origin, "command line");
	/* "job options" as typed, in order */
	CHECK(cl.jobs[0].opts_nr >= 8);
	for (i = 0; i < 8 && i < cl.jobs[0].opts_nr; i++) {
		CHECK_STR(cl.jobs[0].opts[i].key, typed[i][0]);
		if (typed[i][1])
			CHECK_STR(cl.jobs[0].opts[i].val, typed[i][1]);
		else
			CHECK(cl.jobs[0].opts[i].val == NULL);
	}
	CHECK_EQ_U(cl.globals_nr, 0);
	CHECK_EQ_U(cl.formats, CMDLINE_FMT_NORMAL);
	CHECK(!cl.parse_only && !cl.showcmd && !cl.readonly && cl.output == NULL);
	job_free(&want);
out:
	cmdline_free(&cl);
}

TEST(globals_and_names)
{
	struct cmdline cl;
	struct err e;

	CHECK(!PARSE(&cl, &e, "--bs=8k", "--ioengine=null", "--name=a", "--name=b", "--bs=16k",
		     "--name=global", "--iodepth=4", "--name=c"));
	CHECK_EQ_U(cl.jobs_nr, 3);
	if (cl.jobs_nr == 3) {
		CHECK_STR(cl.jobs[0].name, "a");
		CHECK_EQ_U(cl.jobs[0].bs[0], 8192);
		CHECK_EQ_U(cl.jobs[0].iodepth, 1);
		CHECK_EQ_U(cl.jobs[1].bs[0], 16384);
		CHECK_EQ_U(cl.jobs[1].iodepth, 1);
		CHECK_EQ_U(cl.jobs[2].bs[0], 8192);
		CHECK_EQ_U(cl.jobs[2].iodepth, 4);
		CHECK_EQ_U(cl.jobs[0].opts_nr, 1);
		CHECK_STR(cl.jobs[0].opts[0].key, "name");
		CHECK_EQ_U(cl.jobs[1].opts_nr, 2);
		CHECK_STR(cl.jobs[1].opts[1].val, "16k");
	}
	/* "global options" as typed: before --name and after --name=global */
	CHECK_EQ_U(cl.globals_nr, 3);
	if (cl.globals_nr == 3) {
		CHECK_STR(cl.globals[0].key, "bs");
		CHECK_STR(cl.globals[0].val, "8k");
		CHECK_STR(cl.globals[1].key, "ioengine");
		CHECK_STR(cl.globals[2].key, "iodepth");
	}
	cmdline_free(&cl);
}

TEST(separate_values_and_flags)
{
	struct cmdline cl;
	struct err e;
	const char *f = put("p.fio", "[fromfile]\n");

	/* "--opt val" for options with a value; a flag never takes the next argument */
	/* (a runtime: without one, time_based is dropped at validation, as fio drops it) */
	CHECK(!PARSE(&cl, &e, "--ioengine", "null", "--name", "x", "--bs", "8k", "--runtime=1",
		     "--time_based", f,
		     "--output", "out.json", "--section", "fromfile"));
	CHECK_EQ_U(cl.jobs_nr, 2);
	if (cl.jobs_nr == 2) {
		CHECK_STR(cl.jobs[0].name, "x");
		CHECK_EQ_U(cl.jobs[0].bs[0], 8192);
		CHECK_EQ_U(cl.jobs[0].time_based, 1);
		CHECK_STR(cl.jobs[1].name, "fromfile");
	}
	CHECK_EQ_U(cl.files_nr, 1);
	CHECK_STR(cl.output, "out.json");
	cmdline_free(&cl);
}

TEST(job_files_inherit)
{
	struct cmdline cl;
	struct err e;
	const char *f1 = put("f1.fio", "[global]\niodepth=4\n[j1]\n[global]\nbs=16k\n[j2]\n");
	const char *f2 = put("f2.fio", "[k]\nrw=write\n");

	CHECK(!PARSE(&cl, &e, "--bs=8k", "--ioengine=null", f1, "--name=cmd", f2));
	CHECK_EQ_U(cl.jobs_nr, 4);
	if (cl.jobs_nr == 4) {
		/* command-line jobs first, then each file's */
		CHECK_STR(cl.jobs[0].name, "cmd");
		CHECK_STR(cl.jobs[1].name, "j1");
		CHECK_EQ_U(cl.jobs[1].bs[0], 8192);
		CHECK_EQ_U(cl.jobs[1].iodepth, 4);
		CHECK_STR(cl.jobs[1].ioengine, "null");
		CHECK_STR(cl.jobs[2].name, "j2");
		CHECK_EQ_U(cl.jobs[2].bs[0], 16384);
		CHECK_STR(cl.jobs[3].name, "k");
		CHECK_EQ_U(cl.jobs[3].bs[0], 8192);
		CHECK_EQ_U(cl.jobs[3].iodepth, 1);
		CHECK(strstr(cl.jobs[3].origin, "f2.fio:1") != NULL);
	}
	/* command-line globals, then the files' [global] options */
	CHECK_EQ_U(cl.globals_nr, 4);
	if (cl.globals_nr == 4) {
		CHECK_STR(cl.globals[2].key, "iodepth");
		CHECK_STR(cl.globals[3].val, "16k");
	}
	cmdline_free(&cl);
	CHECK(!PARSE(&cl, &e, "--ioengine=null", "--section=j2,nothere", f1));
	CHECK_EQ_U(cl.jobs_nr, 1);
	if (cl.jobs_nr == 1)
		CHECK_STR(cl.jobs[0].name, "j2");
	CHECK_EQ_U(cl.sections_nr, 2);
	cmdline_free(&cl);
}

TEST(process_flags)
{
	struct cmdline cl;
	struct err e;

	CHECK(!PARSE(&cl, &e, "--output-format=json,json+", "--parse-only", "--showcmd", "--readonly",
		     "--status-interval=500ms", "--eta=never", "--eta-newline=2", "--output=r.json",
		     "--status-output=s.jsonl", "--name=x", "--ioengine=null"));
	CHECK_EQ_U(cl.formats, CMDLINE_FMT_JSON | CMDLINE_FMT_JSONPLUS);
	CHECK(cl.parse_only && cl.showcmd && cl.readonly && cl.eta_newline);
	CHECK_EQ_U(cl.eta_newline_us, 2000000);
	CHECK_EQ_U(cl.status_interval_us, 500000);
	CHECK_STR(cl.status_output, "s.jsonl");
	CHECK_EQ_U(cl.eta, CMDLINE_ETA_NEVER);
	CHECK_STR(cl.output, "r.json");
	cmdline_free(&cl);
	/* a bare number is seconds, as in fio; the value may be the next argument */
	CHECK(!PARSE(&cl, &e, "--status-interval", "2", "--status-output", "st",
		     "--eta-newline", "1500ms", "--name=x", "--ioengine=null"));
	CHECK_EQ_U(cl.status_interval_us, 2000000);
	CHECK_STR(cl.status_output, "st");
	CHECK_EQ_U(cl.eta_newline_us, 1500000);
	CHECK_EQ_U(cl.eta, CMDLINE_ETA_AUTO);
	cmdline_free(&cl);
	/* defaults: no status, no ETA newlines */
	CHECK(!PARSE(&cl, &e, "--name=x", "--ioengine=null", "--status-interval=1ms"));
	CHECK_EQ_U(cl.status_interval_us, 1000);
	CHECK(cl.status_output == NULL && !cl.eta_newline && cl.eta_newline_us == 0);
	cmdline_free(&cl);
	CHECK(!PARSE(&cl, &e, "--output-format=normal,json", "--eta=always", "--name=x",
		     "--ioengine=null"));
	CHECK_EQ_U(cl.formats, CMDLINE_FMT_NORMAL | CMDLINE_FMT_JSON);
	CHECK_EQ_U(cl.eta, CMDLINE_ETA_ALWAYS);
	cmdline_free(&cl);
	/* terse: --output-format=terse, --minimal (terse only), --terse-version */
	CHECK(!PARSE(&cl, &e, "--output-format=normal,terse", "--name=x", "--ioengine=null"));
	CHECK_EQ_U(cl.formats, CMDLINE_FMT_NORMAL | CMDLINE_FMT_TERSE);
	CHECK_EQ_U(cl.terse_version, 3);
	cmdline_free(&cl);
	CHECK(!PARSE(&cl, &e, "--minimal", "--terse-version=5", "--name=x", "--ioengine=null"));
	CHECK_EQ_U(cl.formats, CMDLINE_FMT_TERSE);
	CHECK_EQ_U(cl.terse_version, 5);
	cmdline_free(&cl);
	CHECK(PARSE(&cl, &e, "--terse-version=1", "--name=x", "--ioengine=null"));
	CHECK(strstr(e.msg, "fio writes 2, 3, 4 or 5") != NULL);
	cmdline_free(&cl);
	err_clear(&e);
	/* single-dash long options, unique prefixes and short -o, as getopt_long_only */
	CHECK(!PARSE(&cl, &e, "-name=x", "-ioengine", "null", "-runtime=1", "--time_base", "-o", "out.txt",
		     "-output-format=json"));
	CHECK(cl.jobs_nr == 1 && cl.jobs[0].time_based && cl.output && !strcmp(cl.output, "out.txt"));
	CHECK_EQ_U(cl.formats, CMDLINE_FMT_JSON);
	cmdline_free(&cl);
	CHECK(PARSE(&cl, &e, "--name=x", "--rwmix=5"));
	CHECK(strstr(e.msg, "ambiguous option '--rwmix'") != NULL);
	cmdline_free(&cl);
	err_clear(&e);
	CHECK(PARSE(&cl, &e, "--server"));
	CHECK(strstr(e.msg, "mpirun") != NULL);
	cmdline_free(&cl);
	err_clear(&e);
	/* help, version and cmdhelp stop parsing: what follows is not looked at */
	CHECK(!PARSE(&cl, &e, "--version", "--bogus"));
	CHECK(cl.version && cl.jobs_nr == 0);
	cmdline_free(&cl);
	CHECK(!PARSE(&cl, &e, "--help"));
	CHECK(cl.help);
	cmdline_free(&cl);
	CHECK(!PARSE(&cl, &e, "--cmdhelp"));
	CHECK(cl.cmdhelp && cl.cmdhelp_opt == NULL);
	cmdline_free(&cl);
	CHECK(!PARSE(&cl, &e, "--cmdhelp=bs"));
	CHECK(cl.cmdhelp);
	CHECK_STR(cl.cmdhelp_opt, "bs");
	cmdline_free(&cl);
}

/* The arguments must fail with @code, @exit and a message containing @part. */
static int fails_v(int code, int exitc, const char *part, const char *const *args)
{
	struct cmdline cl;
	struct err e;
	int ret = parse_v(&cl, &e, args), ok;

	ok = ret == code && e.exit_code == exitc && strstr(e.msg, part) && !strchr(e.msg, '\n');
	if (!ok)
		printf("  got %d/%d \"%s\", wanted \"%s\"\n", ret, e.exit_code, e.msg, part);
	cmdline_free(&cl);
	return ok;
}

#define FAILS(code, exitc, part, ...) fails_v(code, exitc, part, (const char *const[]){ __VA_ARGS__, NULL })

/*
 * fio's getopt_long_only list decides what a prefix means (cmdline.c,
 * cl_resolve_prefix): fio's names first, iotrial's own after.
 */
TEST(prefixes_as_fio)
{
	struct cmdline cl;
	struct err e;

	/* --append: fio's one name that starts so is --append-terse, which adds terse */
	CHECK(!PARSE(&cl, &e, "--name=x", "--append=1", "--ioengine=null", "--size=1m"));
	CHECK_EQ_U(cl.formats, CMDLINE_FMT_NORMAL | CMDLINE_FMT_TERSE);
	cmdline_free(&cl);
	/* the job's engine's options are on the list: fixedb is fixedbufs under io_uring */
	CHECK(!PARSE(&cl, &e, "--name=x", "--ioengine=io_uring", "--fixedb", "--size=1m"));
	CHECK(cl.jobs_nr == 1 && cl.jobs[0].opts_nr == 4 && !strcmp(cl.jobs[0].opts[2].key, "fixedbufs"));
	cmdline_free(&cl);
	/* under psync they are not (fio: unknown); iotrial finds the row and says whose it is */
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "belongs to ioengine io_uring", "--name=x", "--fixedb",
		    "--size=1m"));
	/* two of fio's names: ambiguous, each named, though they mean one option's parts */
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "ambiguous option '--ss_': the start of 2 options: "
		    "--ss_dur, --ss_ramp", "--name=x", "--ss_=1"));
	/* a prefix of one fio name and of iotrial's own --history: fio's meaning wins */
	CHECK(!PARSE(&cl, &e, "--name=x", "--ioengine=io_uring", "--hi", "--size=1m"));
	CHECK(cl.jobs_nr == 1 && cl.jobs[0].hipri);
	cmdline_free(&cl);
	/* iotrial's own names still resolve where fio has no name: --prese is --preset */
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "cannot be combined", "--prese=cdm", "--name=x"));
	/* fio's other process options */
	CHECK(!PARSE(&cl, &e, "--eta-interval=500ms", "--idle-prof=percpu", "--name=x",
		     "--ioengine=null"));
	CHECK_EQ_U(cl.eta_interval_us, 500000);
	CHECK_EQ_U(cl.idle_prof, IDLEPROF_PERCPU);
	cmdline_free(&cl);
	CHECK(FAILS(-ERANGE, EXIT_USAGE, "below the minimum 250ms", "--eta-interval=100ms"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "not one of system, percpu, calibrate", "--idle-prof=all"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "write_lat_log", "--latency-log=x"));
	/* calibrate stops parsing, as --version does */
	CHECK(!PARSE(&cl, &e, "--idle-prof=calibrate", "--bogus"));
	CHECK_EQ_U(cl.idle_prof, IDLEPROF_CALIBRATE);
	cmdline_free(&cl);
}

/* fio: --parse-only with nothing to check is no error; --debug=parse is taken. */
TEST(parse_only_no_job)
{
	struct cmdline cl;
	struct err e;

	CHECK(parse_v(&cl, &e, (const char *const[]){ "--parse-only", "--debug=parse", "--bs=4k", NULL }) == 0);
	CHECK(cl.jobs_nr == 0 && cl.parse_only && cl.debug_parse);
	cmdline_free(&cl);
}

TEST(errors)
{
	char missing[400];

	snprintf(missing, sizeof(missing), "%s/missing.fio", dir);
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "no job given", "--bs=4k"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "only fio's 'parse', 'random' and 'zbd' traces", "--debug=parse,io", "--name=x"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "unknown output format 'xml'", "--output-format=json,xml",
		    "--name=x"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "invalid value 'sometimes' for option 'eta'", "--eta=sometimes"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "option 'output' requires an argument", "--name=x", "--output"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "option 'parse-only' takes no value", "--parse-only=1"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "unknown option '-Q'", "-Q"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "unknown option 'xyz' (command line)", "--name=x", "--xyz=1"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "unsupported option 'lockmem' (command line)", "--name=x",
		    "--lockmem=1g"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "option 'direct' requires an argument (command line)",
		    "--name=x", "--direct"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "option 'name' requires an argument", "--name"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "option 'direct' requires an argument (command line)",
		    "--name=x", "--direct", "--bs=4k"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "option 'output' requires an argument", "--output", "--name=x"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "no job section matches --section=nope", "--section=nope",
		    put("sec.fio", "[a]\n")));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "invalid value '1x' for option 'status-interval'",
		    "--status-interval=1x", "--name=x"));
	/* fio's floor: at least 1ms (fio says "too small" / "too short") */
	CHECK(FAILS(-ERANGE, EXIT_USAGE, "invalid value '999us' for option 'status-interval': below the minimum 1ms",
		    "--status-interval=999us", "--name=x"));
	CHECK(FAILS(-ERANGE, EXIT_USAGE, "invalid value '0' for option 'status-interval'",
		    "--status-interval=0", "--name=x"));
	CHECK(FAILS(-ERANGE, EXIT_USAGE, "invalid value '0' for option 'eta-newline': below the minimum 1ms",
		    "--eta-newline=0", "--name=x"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "invalid value '2min' for option 'eta-newline'",
		    "--eta-newline=2min", "--name=x"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "option 'eta-newline' requires an argument",
		    "--eta-newline", "--name=x"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "option 'status-output' requires an argument",
		    "--name=x", "--status-interval=1", "--status-output"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "--status-output needs --status-interval",
		    "--status-output=s.jsonl", "--name=x", "--ioengine=null"));
	CHECK(FAILS(-ENOENT, EXIT_USAGE, "missing.fio' not found", "--ioengine=null", missing));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "unsupported engine 'rados'", "--name=x", "--ioengine=rados"));
	CHECK(FAILS(-EINVAL, EXIT_USAGE, "job 'x' (command line): rate and rate_iops", "--name=x",
		    "--ioengine=null", "--rate=1m", "--rate_iops=10"));
	CHECK(FAILS(-EPERM, EXIT_UNSAFE, "job 'w' (command line) has rw=randwrite, which writes or trims",
		    "--readonly", "--ioengine=null", "--name=r", "--name=w", "--rw=randwrite"));
	CHECK(FAILS(-EPERM, EXIT_UNSAFE, "rw=trim", "--ioengine=null", "--name=t", "--rw=trim", "--readonly"));
}

TEST(readonly_allows_reads)
{
	struct cmdline cl;
	struct err e;

	CHECK(!PARSE(&cl, &e, "--readonly", "--ioengine=null", "--name=r", "--rw=randread"));
	CHECK_EQ_U(cl.jobs_nr, 1);
	cmdline_free(&cl);
}

/* --showcmd output parses back to the same job. */
TEST(showcmd_round_trip)
{
	struct cmdline a, b;
	struct err e;
	char *line = NULL, *argv[64], *tok, *save = NULL;
	int argc = 0;

	CHECK(!PARSE(&a, &e, "--ioengine=null", "--name=rt", "--rw=randrw:4", "--bs=4k,64k",
		     "--bssplit=4k/50:8k/,16k", "--iodepth=8", "--runtime=1m", "--ramp_time=1500ms",
		     "--ss=iops:5%", "--ss_dur=20", "--percentile_list=50:99", "--cpus_allowed=0",
		     "--random_distribution=zipf:0.8", "--size=20%", "--log_avg_msec=250",
		     "--group_reporting", "--kb_base=1000", "--rate_iops=1k"));
	if (a.jobs_nr != 1) {
		printf("  %s\n", e.msg);
		CHECK(0);
		cmdline_free(&a);
		return;
	}
	CHECK(!opt_job_cmdline(&a.jobs[0], &line));
	argv[argc++] = "iotrial";
	for (tok = strtok_r(line, " ", &save); tok && argc < 63; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	CHECK(!cmdline_parse(argc, argv, &b, &e));
	if (b.jobs_nr == 1)
		CHECK(same_resolved(&a.jobs[0], &b.jobs[0]));
	else
		printf("  %s\n", e.msg);
	free(line);
	cmdline_free(&a);
	cmdline_free(&b);
}

/* Many jobs, options and job files: the arrays grow (vec_grow) past their
 * first allocations without losing or reordering anything. */
TEST(many_jobs_keep_order)
{
	enum { N = 40 };
	char *argv[4 + 2 * N + 1], buf[2 * N][32];
	struct cmdline cl;
	struct err e;
	int argc = 0, k, ret;

	argv[argc++] = "iotrial";
	argv[argc++] = "--ioengine=null";
	argv[argc++] = "--size=1M";
	argv[argc++] = "--rw=read";
	for (k = 0; k < N; k++) {
		snprintf(buf[2 * k], sizeof(buf[0]), "--name=j%d", k);
		snprintf(buf[2 * k + 1], sizeof(buf[0]), "--iodepth=%d", k + 1);
		argv[argc++] = buf[2 * k];
		argv[argc++] = buf[2 * k + 1];
	}
	argv[argc] = NULL;
	err_clear(&e);
	ret = cmdline_parse(argc, argv, &cl, &e);
	if (ret)
		printf("  %s\n", e.msg);
	CHECK(ret == 0);
	CHECK_EQ_U(cl.jobs_nr, N);
	for (k = 0; k < N && (size_t)k < cl.jobs_nr; k++) {
		char want[16];

		snprintf(want, sizeof(want), "j%d", k);
		CHECK_STR(cl.jobs[k].name, want);
		CHECK_EQ_U(cl.jobs[k].iodepth, k + 1);
	}
	CHECK_EQ_U(cl.globals_nr, 3);
	if (cl.globals_nr == 3) {
		CHECK_STR(cl.globals[0].key, "ioengine");
		CHECK_STR(cl.globals[2].key, "rw");
	}
	cmdline_free(&cl);
}

int main(void)
{
	char cmd[400];

	snprintf(dir, sizeof(dir), "%s/iotrial-cl.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		printf("FAIL setup: mkdtemp\n");
		return 1;
	}
	RUN(seed_command);
	RUN(globals_and_names);
	RUN(separate_values_and_flags);
	RUN(job_files_inherit);
	RUN(process_flags);
	RUN(parse_only_no_job);
	RUN(errors);
	RUN(prefixes_as_fio);
	RUN(readonly_allows_reads);
	RUN(showcmd_round_trip);
	RUN(many_jobs_keep_order);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("  could not remove %s\n", dir);
	return CHECK_DONE();
}
