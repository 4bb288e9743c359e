/* Unit tests for jobfile: the INI reader, includes, expansion and its errors. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "parse/jobfile.h"
#include "model/num.h"
#include "parse/opt.h"

static char dir[256];

/* Write @text to dir/@name; returns the full path (static buffer rotation). */
static const char *put(const char *name, const char *text)
{
	static char paths[8][512];
	static int k;
	char *p = paths[k++ % 8];
	FILE *f;

	snprintf(p, 512, "%s/%s", dir, name);
	f = fopen(p, "wb");
	if (f) {
		fwrite(text, 1, strlen(text), f);
		fclose(f);
	}
	return p;
}

/* Parse @path from default defaults; returns the error code. */
static int parse(const char *path, struct jobfile_out *out, struct err *e)
{
	struct job def;
	int ret;

	job_init(&def);
	memset(out, 0, sizeof(*out));
	err_clear(e);
	ret = jobfile_parse(path, &def, NULL, 0, out, e);
	job_free(&def);
	return ret;
}

/* Parsing @text (as dir/@name) must fail with a message containing @part. */
static int fails(const char *name, const char *text, const char *part)
{
	struct jobfile_out out;
	struct err e;
	int ret = parse(put(name, text), &out, &e), ok;

	ok = ret < 0 && e.exit_code == EXIT_USAGE && strstr(e.msg, part);
	if (!ok)
		printf("  %s: got %d \"%s\", wanted \"%s\"\n", name, ret, e.msg, part);
	jobfile_out_free(&out);
	return ok;
}

TEST(globals_and_jobs)
{
	struct jobfile_out out;
	struct err e;
	const char *p = put("a.fio",
		"; a comment\n"
		"# another\n"
		"[global]\n"
		"bs=8k\n"
		"ioengine=null\n"
		"\n"
		"[one]\n"
		"rw=randread   ; trailing comment\n"
		"time_based\n"
		"[global]\n"
		"bs=16k\n"
		"[two]\n"
		"  iodepth = 4  \n"
		"[one]\n"
		"bs=1k # trailing hash\n");

	CHECK(!parse(p, &out, &e));
	CHECK_EQ_U(out.jobs_nr, 3);
	if (out.jobs_nr != 3)
		return;
	CHECK_STR(out.jobs[0].name, "one");
	CHECK_EQ_U(out.jobs[0].bs[0], 8192);
	CHECK_EQ_U(out.jobs[0].rw, RW_READ | RW_RAND);
	CHECK_EQ_U(out.jobs[0].time_based, 1);
	CHECK_STR(out.jobs[0].ioengine, "null");
	CHECK(strstr(out.jobs[0].origin, "a.fio:7") != NULL);
	/* the job's own options only, as typed */
	CHECK_EQ_U(out.jobs[0].opts_nr, 2);
	CHECK_STR(out.jobs[0].opts[0].key, "rw");
	CHECK_STR(out.jobs[0].opts[0].val, "randread");
	CHECK_STR(out.jobs[0].opts[1].key, "time_based");
	CHECK(out.jobs[0].opts[1].val == NULL);
	/* the second [global] adds to the first, for jobs below it */
	CHECK_STR(out.jobs[1].name, "two");
	CHECK_EQ_U(out.jobs[1].bs[0], 16384);
	CHECK_EQ_U(out.jobs[1].iodepth, 4);
	CHECK_STR(out.jobs[1].ioengine, "null");
	CHECK_EQ_U(out.jobs[1].time_based, 0);
	/* a repeated name is a separate job */
	CHECK_STR(out.jobs[2].name, "one");
	CHECK_EQ_U(out.jobs[2].bs[0], 1024);
	CHECK(strstr(out.jobs[2].origin, "a.fio:14") != NULL);
	/* [global] options as typed */
	CHECK_EQ_U(out.globals_nr, 3);
	CHECK_STR(out.globals[0].key, "bs");
	CHECK_STR(out.globals[0].val, "8k");
	CHECK_STR(out.globals[2].val, "16k");
	jobfile_out_free(&out);
}

TEST(comments_whitespace_crlf)
{
	struct jobfile_out out;
	struct err e;
	const char *p = put("c.fio",
		"\xef\xbb\xbf[x]\r\n"
		"filename=/tmp/a#b\r\n"
		"description=caf\xc3\xa9 ; utf-8 is text\r\n"
		"\tsize = 1m\r\n"
		"   ; indented comment\r\n");

	CHECK(!parse(p, &out, &e));
	CHECK_EQ_U(out.jobs_nr, 1);
	if (out.jobs_nr != 1)
		return;
	CHECK_STR(out.jobs[0].filename, "/tmp/a");
	CHECK_STR(out.jobs[0].description, "caf\xc3\xa9");
	CHECK_EQ_U(out.jobs[0].size, 1048576);
	jobfile_out_free(&out);
}

TEST(expansion)
{
	struct jobfile_out out;
	struct err e;
	struct num_sys sys;
	const char *p;

	num_sys_get(&sys);
	setenv("IOTRIAL_T_BS", "8k", 1);
	unsetenv("IOTRIAL_T_UNSET");
	p = put("env.fio",
		"[x]\n"
		"bs=${IOTRIAL_T_BS}\n"
		"description=a${IOTRIAL_T_UNSET}b\n"
		"nrfiles=$ncpus\n"
		"size=(2*$mb_memory)M\n"
		"filename=/tmp/$ncpus\n");
	CHECK(!parse(p, &out, &e));
	if (out.jobs_nr == 1) {
		CHECK_EQ_U(out.jobs[0].bs[0], 8192);
		CHECK_STR(out.jobs[0].description, "ab");
		CHECK_EQ_U(out.jobs[0].nrfiles, sys.ncpus);
		CHECK_EQ_U(out.jobs[0].size, 2 * sys.mb_memory * 1048576);
		CHECK_STR(out.jobs[0].filename, "/tmp/$ncpus");
		/* as typed means before expansion of $keywords (for JSON) */
		CHECK_STR(out.jobs[0].opts[3].val, "(2*$mb_memory)M");
	}
	jobfile_out_free(&out);
	CHECK(fails("env2.fio", "[x]\nbs=${IOTRIAL_T_UNSET}\n",
		    "option 'bs' requires an argument (" ));
	CHECK(fails("env3.fio", "[x]\nbs=${IOTRIAL_T_BS\n", "unterminated ${"));
}

/* ${RANK}/${NRANKS}: built in, from the launcher (0 and 1 without one). */
TEST(rank_builtins)
{
	struct jobfile_out out;
	struct err e;
	const char *p;
	static const char *const launcher[] = { "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
						"PMI_RANK", "PMI_SIZE" };

	for (size_t i = 0; i < 4; i++)
		unsetenv(launcher[i]);
	setenv("RANK", "7", 1);	/* e.g. set by a training framework: not ours */
	p = put("rank.fio", "[x]\nfilename=/d/f.${RANK}.of.${NRANKS}\n");
	CHECK(!parse(p, &out, &e));
	if (out.jobs_nr == 1)
		CHECK_STR(out.jobs[0].filename, "/d/f.0.of.1");
	jobfile_out_free(&out);
	setenv("PMI_RANK", "2", 1);	/* MPICH's hydra */
	setenv("PMI_SIZE", "4", 1);
	CHECK(!parse(p, &out, &e));
#ifdef IOTRIAL_MPI
	if (out.jobs_nr == 1)
		CHECK_STR(out.jobs[0].filename, "/d/f.2.of.4");
#else	/* the plain build is plain even under a launcher */
	if (out.jobs_nr == 1)
		CHECK_STR(out.jobs[0].filename, "/d/f.0.of.1");
#endif
	jobfile_out_free(&out);
	unsetenv("PMI_RANK");
	unsetenv("PMI_SIZE");
	unsetenv("RANK");
}

TEST(includes)
{
	struct jobfile_out out;
	struct err e;
	char sub[300];
	const char *p;

	snprintf(sub, sizeof(sub), "%s/sub", dir);
	mkdir(sub, 0755);
	put("sub/opts.fio", "bs=8k\ninclude more.fio\n");
	put("sub/more.fio", "; nested, relative to sub/\niodepth=7\n");
	p = put("inc.fio", "[x]\ninclude sub/opts.fio\nrw=write\n");
	CHECK(!parse(p, &out, &e));
	if (out.jobs_nr == 1) {
		CHECK_EQ_U(out.jobs[0].bs[0], 8192);
		CHECK_EQ_U(out.jobs[0].iodepth, 7);
		CHECK_EQ_U(out.jobs[0].rw, RW_WRITE);
	} else {
		printf("  %s\n", e.msg);
		CHECK(0);
	}
	jobfile_out_free(&out);

	put("loop1.fio", "[x]\ninclude loop2.fio\n");
	put("loop2.fio", "bs=4k\ninclude loop1.fio\n");
	CHECK(fails("loop1.fio", "[x]\ninclude loop2.fio\n", "include loop"));
	CHECK(fails("loop2.fio", "bs=4k\ninclude loop1.fio\n", "outside a section"));
	put("loop2.fio", "bs=4k\ninclude loop1.fio\n");
	CHECK(fails("loop1.fio", "[x]\ninclude loop2.fio\n", "loop2.fio:2)"));
	CHECK(fails("self.fio", "[x]\ninclude self.fio\n", "include loop"));
	CHECK(fails("miss.fio", "[x]\n\ninclude nothere.fio\n", "nothere.fio' not found (" ));
	CHECK(fails("miss.fio", "[x]\n\ninclude nothere.fio\n", "miss.fio:3)"));
	put("withsec.fio", "[y]\nbs=4k\n");
	CHECK(fails("incsec.fio", "[x]\ninclude withsec.fio\n", "section header in an included file"));
	CHECK(fails("incout.fio", "include sub/opts.fio\n[x]\n", "include outside a section (" ));
	CHECK(fails("incbad.fio", "[x]\ninclude sub/bad.fio\n", "sub/bad.fio' not found"));
	put("sub/bad2.fio", "bs=4k\nlockmem=1g\n");
	CHECK(fails("incbad2.fio", "[x]\ninclude sub/bad2.fio\n", "unsupported option 'lockmem' ("));
	CHECK(fails("incbad2.fio", "[x]\ninclude sub/bad2.fio\n", "sub/bad2.fio:2)"));
}

TEST(errors_name_file_and_line)
{
	char big[JOBFILE_LINE_MAX + 100];

	CHECK(fails("e1.fio", "[x]\n[job\n", "unterminated section header '[job' ("));
	CHECK(fails("e1.fio", "[x]\n[job\n", "e1.fio:2)"));
	CHECK(fails("e2.fio", "\nbs=4k\n[x]\n", "option 'bs' outside a section ("));
	CHECK(fails("e2.fio", "\nbs=4k\n[x]\n", "e2.fio:2)"));
	CHECK(fails("e3.fio", "", "job file '"));
	CHECK(fails("e3.fio", "", "defines no job"));
	CHECK(fails("e4.fio", "; only comments\n[global]\nbs=4k\n", "defines no job"));
	CHECK(fails("e5.fio", "[x]\ndirect\n", "option 'direct' requires an argument ("));
	CHECK(fails("e5.fio", "[x]\ndirect\n", "e5.fio:2)"));
	CHECK(fails("e6.fio", "[x]\nbs=4k\nxyz=1\n", "unknown option 'xyz' ("));
	CHECK(fails("e6.fio", "[x]\nbs=4k\nxyz=1\n", "e6.fio:3)"));
	CHECK(fails("e7.fio", "[x]\nlockmem=1g\n", "unsupported option 'lockmem' ("));
	CHECK(fails("e8.fio", "[x]\nbs=4k\nbs=0\n", "invalid value '0' for option 'bs': below the minimum 1 ("));
	CHECK(fails("e8.fio", "[x]\nbs=4k\nbs=0\n", "e8.fio:3)"));
	CHECK(fails("e9.fio", "[x]\nsize=99999999999999999999\n", "too large"));
	CHECK(fails("e10.fio", "[x]\nruntime=10q\n", "option 'runtime'"));
	CHECK(fails("e11.fio", "[]\n", "empty section name"));
	CHECK(fails("e12.fio", "[x] y\n", "text after section header"));
	CHECK(fails("e13.fio", "[x]\n=4k\n", "option without a name"));
	CHECK(fails("e14.fio", "[x]\nioengine=rados\n", "unsupported engine 'rados' ("));
	CHECK(fails("e15.fio", "[x]\nbsrange=64k-4k\n", "reversed"));
	/* binary content */
	CHECK(fails("b1.fio", "[x]\nbs=4k\n\xff\xfe\n", "invalid UTF-8 byte 0xff"));
	CHECK(fails("b1.fio", "[x]\nbs=4k\n\xff\xfe\n", "b1.fio:3)"));
	CHECK(fails("b2.fio", "[x]\n\x01\x02\n", "control byte 0x01"));
	CHECK(fails("b3.fio", "[x]\n\xc0\xaf\n", "invalid UTF-8"));
	CHECK(fails("b4.fio", "[x]\n\xed\xa0\x80\n", "invalid UTF-8"));
	{
		/* a NUL cannot go through put() */
		struct jobfile_out out;
		struct err e;
		char path[512];
		FILE *f;

		snprintf(path, sizeof(path), "%s/nul.fio", dir);
		f = fopen(path, "wb");
		fwrite("[x]\nbs=4k\0\n", 1, 11, f);
		fclose(f);
		CHECK(parse(path, &out, &e) == -EINVAL);
		CHECK(strstr(e.msg, "NUL byte") && strstr(e.msg, "nul.fio:2)"));
		jobfile_out_free(&out);
	}
	/* a long line */
	memset(big, 'a', sizeof(big));
	memcpy(big, "[x]\ndescription=", 16);
	big[sizeof(big) - 2] = '\n';
	big[sizeof(big) - 1] = '\0';
	CHECK(fails("long.fio", big, "line too long"));
	CHECK(fails("long.fio", big, "long.fio:2)"));
}

TEST(missing_and_directory)
{
	struct jobfile_out out;
	struct err e;
	char path[512];

	snprintf(path, sizeof(path), "%s/none.fio", dir);
	CHECK(parse(path, &out, &e) == -ENOENT);
	CHECK(strstr(e.msg, "job file '") && strstr(e.msg, "none.fio' not found"));
	CHECK(e.exit_code == EXIT_USAGE);
	jobfile_out_free(&out);
	/* a directory opens but cannot be read */
	CHECK(parse(dir, &out, &e) < 0);
	CHECK(strstr(e.msg, "cannot read") != NULL);
	jobfile_out_free(&out);
}

TEST(unreadable)
{
	struct jobfile_out out;
	struct err e;
	const char *p;

	int root = geteuid() == 0;

	p = put("noperm.fio", "[x]\n");
	chmod(p, 0);
	/* root reads anything: act as nobody for the open, then come back */
	if (root && seteuid(65534))
		SKIP("running as root and cannot seteuid(nobody)");
	CHECK(parse(p, &out, &e) == -EACCES);
	if (root && seteuid(0))
		CHECK(!"cannot return to root");
	CHECK(strstr(e.msg, "cannot read job file") != NULL);
	jobfile_out_free(&out);
}

TEST(defaults_and_sections)
{
	struct jobfile_out out = { 0 };
	struct err e = { 0 };
	struct job def;
	char *secs[] = { "b" };
	const char *p = put("s.fio", "[global]\niodepth=8\n[a]\n[b]\nbs=2k\n[c]\n");

	job_init(&def);
	CHECK(!opt_set(&def, "bs", "8k", "command line", &e));
	CHECK(!opt_set(&def, "iodepth", "2", "command line", &e));
	CHECK(!jobfile_parse(p, &def, NULL, 0, &out, &e));
	CHECK_EQ_U(out.jobs_nr, 3);
	if (out.jobs_nr == 3) {
		/* command-line globals inherited, the file's [global] overrides them */
		CHECK_EQ_U(out.jobs[0].bs[0], 8192);
		CHECK_EQ_U(out.jobs[0].iodepth, 8);
		CHECK_EQ_U(out.jobs[1].bs[0], 2048);
		CHECK_EQ_U(out.jobs[0].opts_nr, 0);
	}
	/* only the [global] typed in the file is reported as the file's */
	CHECK_EQ_U(out.globals_nr, 1);
	jobfile_out_free(&out);
	CHECK(!jobfile_parse(p, &def, secs, 1, &out, &e));
	CHECK_EQ_U(out.jobs_nr, 1);
	if (out.jobs_nr == 1) {
		CHECK_STR(out.jobs[0].name, "b");
		CHECK_EQ_U(out.jobs[0].iodepth, 8);
	}
	jobfile_out_free(&out);
	/* from memory */
	CHECK(!jobfile_parse_buf("[m]\nbs=512\n", 11, "mem.fio", &def, NULL, 0, &out, &e));
	CHECK_EQ_U(out.jobs_nr, 1);
	if (out.jobs_nr == 1)
		CHECK_EQ_U(out.jobs[0].bs[0], 512);
	jobfile_out_free(&out);
	job_free(&def);
}

static void cleanup(void)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("  could not remove %s\n", dir);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/iotrial-jf.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		printf("FAIL setup: mkdtemp\n");
		return 1;
	}
	RUN(globals_and_jobs);
	RUN(comments_whitespace_crlf);
	RUN(expansion);
	RUN(rank_builtins);
	RUN(includes);
	RUN(errors_name_file_and_line);
	RUN(missing_and_directory);
	RUN(unreadable);
	RUN(defaults_and_sections);
	cleanup();
	return CHECK_DONE();
}
