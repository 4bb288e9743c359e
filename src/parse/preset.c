/*
 * preset: the embedded job files and their rendering with command-line
 * overrides (rules in preset.h).
 *
 * Each text is a plain fio job file; its comments say where the workload
 * comes from and what it leaves out, so `iotrial preset show` documents it.
 * Nothing here parses options: jobfile.c does, from the rendered text.
 */
#include "parse/preset.h"

#include <errno.h>	/* EINVAL, ENOENT, ENOMEM */
#include <stdio.h>	/* open_memstream, fputs, fprintf */
#include <stdlib.h>	/* free */
#include <string.h>	/* strcmp, strchr, strstr, strspn */

static const char cdm_text[] =
	"; cdm: CrystalDiskMark's default test set, as a fio job file.\n"
	"; Eight tests run one after another (stonewall) on one 1 GiB test file:\n"
	"; SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1, each read then write,\n"
	"; direct I/O with an asynchronous engine.  CrystalDiskMark measures 5 s per\n"
	"; test with a 5 s interval between tests and keeps the best of 5 passes.\n"
	"; This file runs one pass: 5 s per test, and the interval is startdelay=5,\n"
	"; an idle wait at the start of each test that is not part of its runtime.\n"
	"; Repeat passes with `iotrial ab` to get a spread instead of a best-of.\n"
	"[global]\n"
	"ioengine=libaio\n"
	"direct=1\n"
	"filename=iotrial-cdm.dat\n"
	"size=1g\n"
	"time_based\n"
	"runtime=5\n"
	"startdelay=5\n"
	"stonewall\n"
	"\n"
	"[SEQ1M_Q8T1_read]\n" "rw=read\n" "bs=1m\n" "iodepth=8\n"
	"\n"
	"[SEQ1M_Q8T1_write]\n" "rw=write\n" "bs=1m\n" "iodepth=8\n"
	"\n"
	"[SEQ1M_Q1T1_read]\n" "rw=read\n" "bs=1m\n" "iodepth=1\n"
	"\n"
	"[SEQ1M_Q1T1_write]\n" "rw=write\n" "bs=1m\n" "iodepth=1\n"
	"\n"
	"[RND4K_Q32T1_read]\n" "rw=randread\n" "bs=4k\n" "iodepth=32\n"
	"\n"
	"[RND4K_Q32T1_write]\n" "rw=randwrite\n" "bs=4k\n" "iodepth=32\n"
	"\n"
	"[RND4K_Q1T1_read]\n" "rw=randread\n" "bs=4k\n" "iodepth=1\n"
	"\n"
	"[RND4K_Q1T1_write]\n" "rw=randwrite\n" "bs=4k\n" "iodepth=1\n";

/* The command of the report that started this project, as it ran. */
#define SEED_COMMON \
	"[randrw]\n" \
	"rw=randrw\n" \
	"bs=4k\n" \
	"iodepth=32\n" \
	"size=10G\n" \
	"numjobs=4\n" \
	"time_based\n" \
	"runtime=600\n" \
	"; the report quoted averages \"after the first minute\"\n" \
	"ramp_time=60\n" \
	"group_reporting\n"

static const char seed_text[] =
	"; seed: the workload of the report that started this project:\n"
	";   fio --name=randrw --rw=randrw --bs=4k --iodepth=32 --size=10G\n"
	";       --numjobs=4 --runtime=600 --time_based\n"
	"; with the first minute left out (ramp_time) and the four jobs reported as\n"
	"; one.  That command named no engine, so it ran fio's default, psync, a\n"
	"; synchronous engine: each job has one I/O in flight and iodepth=32 has no\n"
	"; effect (`iotrial check` says so).  seed-async is the same with io_uring.\n"
	"[global]\n"
	"ioengine=psync\n"
	"\n"
	SEED_COMMON;

static const char seed_async_text[] =
	"; seed-async: the seed workload with an asynchronous engine and direct\n"
	"; I/O, so that iodepth=32 takes effect (32 I/Os in flight per job).\n"
	"[global]\n"
	"ioengine=io_uring\n"
	"direct=1\n"
	"\n"
	SEED_COMMON;

static const char oltp_text[] =
	"; oltp: a database-like mix: 8 KiB random I/O, 70% reads and 30% writes,\n"
	"; 16 in flight, direct, with an fsync after every 32 writes (a commit\n"
	"; flushing the device cache).  60 s measured after a 5 s ramp.\n"
	"[global]\n"
	"ioengine=libaio\n"
	"direct=1\n"
	"filename=iotrial-oltp.dat\n"
	"size=1g\n"
	"time_based\n"
	"runtime=60\n"
	"ramp_time=5\n"
	"\n"
	"[oltp]\n"
	"rw=randrw\n"
	"rwmixread=70\n"
	"bs=8k\n"
	"iodepth=16\n"
	"fsync=32\n";

static const char snia_iops_text[] =
	"; snia-iops: after SNIA's Solid State Storage Performance Test Specification\n"
	"; (PTS) IOPS test.  On one target, one job at a time (stonewall):\n"
	";  1. precond_seq: sequential 128 KiB writes over the region twice (loops=2),\n"
	";     the PTS workload-independent preconditioning (2x the capacity when\n"
	";     the region is the whole device: --filename=/dev/X --size=100%);\n"
	";  2. precond_rand: 4 KiB random writes until SNIA's steady-state rule holds\n"
	";     (5 rounds of 10 s: range <= 20% and slope excursion <= 10% of the mean),\n"
	";     30 minutes at most;\n"
	";  3. the IOPS matrix: every block size (1m to 4k) x every read/write mix\n"
	";     (0/100 to 100/0), 60 s each; jobs are named iops_<bs>_r<read%>w<write%>.\n"
	"; Differences from the PTS: one matrix pass after a steady random-write\n"
	"; state, instead of repeating whole matrix rounds until steady; no 0.5k\n"
	"; column (many devices refuse 512-byte direct I/O).  The region is --size\n"
	"; (1 GiB by default).  Like every write job, it refuses a device that holds\n"
	"; data unless told otherwise (see docs/safety.md).\n"
	"[global]\n"
	"ioengine=libaio\n"
	"direct=1\n"
	"filename=iotrial-snia.dat\n"
	"size=1g\n"
	"iodepth=32\n"
	"stonewall\n"
	"\n"
	"[precond_seq]\n"
	"rw=write\n"
	"bs=128k\n"
	"loops=2\n"
	"\n"
	"[precond_rand]\n"
	"rw=randwrite\n"
	"bs=4k\n"
	"time_based\n"
	"runtime=30m\n"
	"snia_round=10s\n"
	"snia_stop=1\n"
	"\n"
	"[global]\n"
	"rw=randrw\n"
	"time_based\n"
	"runtime=60\n"
	"\n"
	"[iops_1m_r0w100]\n" "bs=1m\n" "rwmixread=0\n"
	"[iops_128k_r0w100]\n" "bs=128k\n" "rwmixread=0\n"
	"[iops_64k_r0w100]\n" "bs=64k\n" "rwmixread=0\n"
	"[iops_32k_r0w100]\n" "bs=32k\n" "rwmixread=0\n"
	"[iops_16k_r0w100]\n" "bs=16k\n" "rwmixread=0\n"
	"[iops_8k_r0w100]\n" "bs=8k\n" "rwmixread=0\n"
	"[iops_4k_r0w100]\n" "bs=4k\n" "rwmixread=0\n"
	"[iops_1m_r5w95]\n" "bs=1m\n" "rwmixread=5\n"
	"[iops_128k_r5w95]\n" "bs=128k\n" "rwmixread=5\n"
	"[iops_64k_r5w95]\n" "bs=64k\n" "rwmixread=5\n"
	"[iops_32k_r5w95]\n" "bs=32k\n" "rwmixread=5\n"
	"[iops_16k_r5w95]\n" "bs=16k\n" "rwmixread=5\n"
	"[iops_8k_r5w95]\n" "bs=8k\n" "rwmixread=5\n"
	"[iops_4k_r5w95]\n" "bs=4k\n" "rwmixread=5\n"
	"[iops_1m_r35w65]\n" "bs=1m\n" "rwmixread=35\n"
	"[iops_128k_r35w65]\n" "bs=128k\n" "rwmixread=35\n"
	"[iops_64k_r35w65]\n" "bs=64k\n" "rwmixread=35\n"
	"[iops_32k_r35w65]\n" "bs=32k\n" "rwmixread=35\n"
	"[iops_16k_r35w65]\n" "bs=16k\n" "rwmixread=35\n"
	"[iops_8k_r35w65]\n" "bs=8k\n" "rwmixread=35\n"
	"[iops_4k_r35w65]\n" "bs=4k\n" "rwmixread=35\n"
	"[iops_1m_r50w50]\n" "bs=1m\n" "rwmixread=50\n"
	"[iops_128k_r50w50]\n" "bs=128k\n" "rwmixread=50\n"
	"[iops_64k_r50w50]\n" "bs=64k\n" "rwmixread=50\n"
	"[iops_32k_r50w50]\n" "bs=32k\n" "rwmixread=50\n"
	"[iops_16k_r50w50]\n" "bs=16k\n" "rwmixread=50\n"
	"[iops_8k_r50w50]\n" "bs=8k\n" "rwmixread=50\n"
	"[iops_4k_r50w50]\n" "bs=4k\n" "rwmixread=50\n"
	"[iops_1m_r65w35]\n" "bs=1m\n" "rwmixread=65\n"
	"[iops_128k_r65w35]\n" "bs=128k\n" "rwmixread=65\n"
	"[iops_64k_r65w35]\n" "bs=64k\n" "rwmixread=65\n"
	"[iops_32k_r65w35]\n" "bs=32k\n" "rwmixread=65\n"
	"[iops_16k_r65w35]\n" "bs=16k\n" "rwmixread=65\n"
	"[iops_8k_r65w35]\n" "bs=8k\n" "rwmixread=65\n"
	"[iops_4k_r65w35]\n" "bs=4k\n" "rwmixread=65\n"
	"[iops_1m_r95w5]\n" "bs=1m\n" "rwmixread=95\n"
	"[iops_128k_r95w5]\n" "bs=128k\n" "rwmixread=95\n"
	"[iops_64k_r95w5]\n" "bs=64k\n" "rwmixread=95\n"
	"[iops_32k_r95w5]\n" "bs=32k\n" "rwmixread=95\n"
	"[iops_16k_r95w5]\n" "bs=16k\n" "rwmixread=95\n"
	"[iops_8k_r95w5]\n" "bs=8k\n" "rwmixread=95\n"
	"[iops_4k_r95w5]\n" "bs=4k\n" "rwmixread=95\n"
	"[iops_1m_r100w0]\n" "bs=1m\n" "rwmixread=100\n"
	"[iops_128k_r100w0]\n" "bs=128k\n" "rwmixread=100\n"
	"[iops_64k_r100w0]\n" "bs=64k\n" "rwmixread=100\n"
	"[iops_32k_r100w0]\n" "bs=32k\n" "rwmixread=100\n"
	"[iops_16k_r100w0]\n" "bs=16k\n" "rwmixread=100\n"
	"[iops_8k_r100w0]\n" "bs=8k\n" "rwmixread=100\n"
	"[iops_4k_r100w0]\n" "bs=4k\n" "rwmixread=100\n"
	;

static const struct preset presets[] = {
	{ "cdm", "CrystalDiskMark's default set: SEQ1M Q8T1/Q1T1, RND4K Q32T1/Q1T1, read and write",
	  PRESET_SUMMARY_TESTS, NULL, cdm_text },
	{ "seed", "the report's workload: 4k randrw, QD32 x 4 jobs, psync, 600 s after a 60 s ramp",
	  PRESET_SUMMARY_TESTS, NULL, seed_text },
	{ "seed-async", "seed with io_uring and direct=1, so that iodepth=32 takes effect",
	  PRESET_SUMMARY_TESTS, NULL, seed_async_text },
	{ "oltp", "database-like: 8k random 70/30 read/write, QD16, fsync every 32 writes",
	  PRESET_SUMMARY_TESTS, NULL, oltp_text },
	{ "snia-iops", "SNIA PTS-style: precondition, then the IOPS matrix of block sizes x mixes",
	  PRESET_SUMMARY_MATRIX, "iops_", snia_iops_text },
};

const struct preset *preset_all(size_t *nr)
{
	*nr = sizeof(presets) / sizeof(presets[0]);
	return presets;
}

const struct preset *preset_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		if (!strcmp(presets[i].name, name))
			return &presets[i];
	return NULL;
}

int preset_lookup(const char *name, const struct preset **out, struct err *e)
{
	char names[200] = "";
	size_t i, used = 0;

	*out = preset_find(name);
	if (*out)
		return 0;
	for (i = 0; i < sizeof(presets) / sizeof(presets[0]) && used < sizeof(names); i++)
		used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "",
					 presets[i].name);
	return err_set(e, -ENOENT, EXIT_USAGE, "unknown preset '%.100s' (presets: %s)", name, names);
}

/* A job file line cannot carry these: the reader would cut or expand them. */
static int preset_check_value(const struct job_kv *kv, struct err *e)
{
	if (!kv->val)
		return 0;
	if (strpbrk(kv->val, "\n\r;#") || strstr(kv->val, "${"))
		return err_set(e, -EINVAL, EXIT_USAGE,
			       "option '%s' value '%.100s' cannot be added to a preset: a job file "
			       "line would cut or expand it (';', '#', '${' or a newline)",
			       kv->key, kv->val);
	return 0;
}

/* The overrides after a job section's own lines. */
static void preset_put_overrides(FILE *f, const struct job_kv *over, size_t nr)
{
	size_t i;

	if (!nr)
		return;
	fputs("; options given on the command line override the preset's\n", f);
	for (i = 0; i < nr; i++) {
		if (over[i].val)
			fprintf(f, "%s=%s\n", over[i].key, over[i].val);
		else
			fprintf(f, "%s\n", over[i].key);
	}
}

/* Is the line at @s (up to @n bytes) a section header other than [global]? */
static int preset_job_header(const char *s, size_t n, int *is_section)
{
	size_t k = strspn(s, " \t");

	*is_section = k < n && s[k] == '[';
	return *is_section && strncmp(s + k, "[global]", 8) != 0;
}

int preset_render(const struct preset *p, const struct job_kv *over, size_t nr, char **text,
		  struct err *e)
{
	const char *s = p->text, *nl;
	char *buf = NULL;
	size_t len = 0, i, n;
	int in_job = 0, section;
	FILE *f;

	*text = NULL;
	for (i = 0; i < nr; i++)
		if (preset_check_value(&over[i], e))
			return -EINVAL;
	f = open_memstream(&buf, &len);
	if (!f)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	while (*s) {
		nl = strchr(s, '\n');
		n = nl ? (size_t)(nl - s) + 1 : strlen(s);
		/* a new section header ends the job before it: its overrides go there */
		if (preset_job_header(s, n, &section) || section) {
			if (in_job)
				preset_put_overrides(f, over, nr);
			in_job = preset_job_header(s, n, &section);
		}
		fwrite(s, 1, n, f);
		s += n;
	}
	if (in_job)
		preset_put_overrides(f, over, nr);
	if (fclose(f) || !buf) {
		free(buf);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	}
	*text = buf;
	return 0;
}
