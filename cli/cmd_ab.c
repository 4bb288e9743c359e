/*
 * cmd_ab: `iotrial ab --a OPTS --b OPTS [ab options] <fio options or job file>`.
 * Runs the same job for two configurations, interleaved, each run a child
 * process of this very binary (/proc/self/exe in fio-compatible mode) that
 * writes its own JSON result into the trial directory; then compares the two
 * sets like `iotrial compare`.  The decisions (order, stopping, side options,
 * manifest) live in src/trial/abrun.c; this file only parses, spawns and prints.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>	/* pthread_sigmask: before MPI_Init, as cmd_run */
#include <signal.h>	/* sigprocmask, sigtimedwait: Ctrl-C ends the trial with a report */
#include <sys/random.h>	/* getrandom: the default seed */
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "mpi/abmpi.h"	/* ab across hosts: sides on MPI ranks */
#include "lib/mpienv.h"
#include "mpi/mpirank.h"
#include "trial/abside.h"	/* the jobs a side resolves to */
#include "trial/abrun.h"
#include "trial/trial.h"
#include "cmd.h"
#include "runner.h"
#include "history_hooks.h"
#include "trial/compare.h"
#include "trial/compare_suite.h"
#include "lib/err.h"
#include "lib/outfile.h"
#include "report/report_html.h"
#include "result/resultwindow.h"
#include "lib/vec.h"	/* vec_grow, vec_free_strings */

static const char usage[] =
	"usage: iotrial ab --a OPTS --b OPTS [ab options] <fio options or job file>\n"
	"       iotrial ab --a A.fio --b B.fio [ab options]\n"
	"Run the same job for two configurations, interleaved (pairs AB or BA in a\n"
	"seeded random order, or A B A B ...), each run\n"
	"saved as its own JSON result, then compare them (as iotrial compare).\n"
	"  --a OPTS, --b OPTS   what differs: fio options, comma- or space-separated\n"
	"                       key=value (\"rate_iops=1000\", \"ioengine=libaio,direct=1\"),\n"
	"                       or a job file.  The options are set in every job, over\n"
	"                       what the command line or a job file says (as --set).\n"
	"                       A --runner other than iotrial gets them after the common\n"
	"                       options, by its own rules (fio: a job file's settings win,\n"
	"                       options after a --name reach that job only): ab refuses a\n"
	"                       side option that would not reach every job.  Two sides\n"
	"                       that resolve to the same jobs are refused (exit 2).\n"
	"  --allow-same         run them all the same: an A/A trial, which measures the\n"
	"                       set-up's own noise (its verdicts should be negligible)\n"
	"  --preset=NAME        every run is the whole preset (a fio option like any\n"
	"                       other); the report adds one row per test of the suite\n"
	"  --runs=N             runs per side (default 5; with --until-ci the minimum,\n"
	"                       never below 5 before the CI may stop the trial)\n"
	"  --order=random|alternate  each pair AB or BA from --seed (default), or ABAB...\n"
	"  --seed=N             seed of the random order (default: drawn and recorded)\n"
	"  --dir=DIR            where runs and manifest.json go (default: a new\n"
	"                       ./iotrial-ab-YYYYmmdd-HHMMSS); must be new or empty\n"
	"  --pause=T            pause between runs (30, 500ms, 2m)\n"
	"  --until-ci=PCT       add pairs until the CI half-width (level 1 - alpha) of --metric is\n"
	"                       under PCT%, or a budget ends; says which ended it\n"
	"  --metric=NAME        metric for --until-ci and progress (default total.iops;\n"
	"                       read.iops, write.lat_mean_ns, read.lat_p99_ns, ...)\n"
	"  --max-runs=N         run budget per side with --until-ci (default 30)\n"
	"  --max-time=T         time budget: no pair starts that would end after it\n"
	"  --window=all|steady|auto  compare whole runs or each run's steady tail;\n"
	"                       auto (default): the tails when every run has one\n"
	"  --history[=FILE]     store the trial, its runs and verdicts in the results\n"
	"                       history (also IOTRIAL_HISTORY=FILE; docs/history.md)\n"
	"  --runner=PROG        program run for each run (default: this iotrial); with\n"
	"                       blanks a command line (\"mpirun -n 4 iotrial\": each\n"
	"                       run is one MPI job, docs/mpi.md); e.g.\n"
	"                       --runner=fio runs the trial with fio itself; a runner\n"
	"                       may ignore --output=FILE and print the JSON on stdout\n"
	"                       (taken when FILE is missing or empty after the run)\n"
	"  --host-qmp=SOCKET[,drive=ID]  the runs run in a QEMU guest (--runner, needed):\n"
	"                       QEMU's QMP socket on this host, sampled at each run's\n"
	"                       series_interval while it runs; each result gets\n"
	"                       iotrial.host over the guest's measured window (the\n"
	"                       drive's ops and backend latency, QEMU's CPU per I/O by\n"
	"                       thread role, the virtual device path, the host's series)\n"
	"                       and compare its host.* rows; the drive is the one whose\n"
	"                       ops moved unless named (docs/vm.md).  The runner never\n"
	"                       sees it.  One run in the guest: iotrial --runner=CMD\n"
	"                       --host-qmp=SOCKET <fio options>\n"
	"  --a-ranks=LIST, --b-ranks=LIST  under mpirun: side A runs on these MPI ranks\n"
	"                       (0, 1-3, 0,2), B on those (mpirun -H puts ranks on hosts);\n"
	"                       rank 0 controls the trial, one side runs at a time\n"
	"                       (docs/mpi.md, \"A/B trials across hosts\")\n"
	"  --run-timeout=T      across hosts: a run whose ranks do not answer within T\n"
	"                       ends the trial, naming them (default auto: 10 min, or\n"
	"                       3 x the longest run + 1 min)\n"
	"At the end, and after SIGINT/SIGTERM from the runs completed, report.html (charts,\n"
	"self-contained) is written into the trial directory.\n"
	"compare options:\n";

static const char exits[] =
	"exit codes: 0 done, 2 bad option, 5 interrupted (across hosts also: mpirun\n"
	"ended the job, as it does when a rank dies), 6 regression\n"
	"(--fail-on-regression), 7 output not written, 70 a rank did not answer in\n"
	"time (--run-timeout), or a failed run's own exit code.\n";

struct ab_args {
	const char *a_spec, *b_spec;
	int allow_same;			/* --allow-same: an A/A trial on purpose */
	char **common;
	size_t ncommon;
	struct abrun_stop stop;
	int runs_given;
	enum abrun_order order;
	uint64_t seed;
	int seed_given;
	const char *dir;
	const char *runner;		/* NULL: /proc/self/exe */
	const char *host_qmp;		/* --host-qmp: SOCKET[,drive=ID], NULL none */
	struct hostview_cfg host;
	char host_buf[512];
	const char *a_ranks, *b_ranks;	/* under mpirun: each side's ranks (abmpi.h) */
	double run_timeout_s;		/* across hosts; 0: auto */
	double pause_s;
	const char *metric;
	int json;
	struct compare_opts copts;
	enum resultwindow window;
};

static int parse_uint(const char *name, const char *v, unsigned *out, struct err *e)
{
	char *end;
	unsigned long x = strtoul(v ? v : "", &end, 10);

	if (!v || !*v || *end || x < 1 || x > 100000)
		return err_set(e, -EINVAL, EXIT_USAGE, "--%s=%s: expected a whole number from 1",
			       name, v ? v : "");
	*out = (unsigned)x;
	return 0;
}

static int parse_time(const char *name, const char *v, double *out, struct err *e)
{
	if (abrun_parse_duration(v, out))
		return err_set(e, -EINVAL, EXIT_USAGE, "--%s=%s: expected a duration (30, 500ms, "
			       "2m, 1h)", name, v ? v : "");
	return 0;
}

/* One of ab's own options; returns -EINVAL with @e set, or 0. */
static int ab_option(struct ab_args *ab, const char *name, const char *v, struct err *e)
{
	char *end;

	if (!strcmp(name, "a") || !strcmp(name, "b")) {
		*(name[0] == 'a' ? &ab->a_spec : &ab->b_spec) = v;
		return 0;
	}
	if (!strcmp(name, "runs")) {
		ab->runs_given = 1;
		return parse_uint(name, v, &ab->stop.runs, e);
	}
	if (!strcmp(name, "max-runs"))
		return parse_uint(name, v, &ab->stop.max_runs, e);
	if (!strcmp(name, "order")) {
		if (v && !strcmp(v, "random"))
			ab->order = ABRUN_RANDOM;
		else if (v && !strcmp(v, "alternate"))
			ab->order = ABRUN_ALTERNATE;
		else
			return err_set(e, -EINVAL, EXIT_USAGE, "--order=%s: expected alternate or "
				       "random", v ? v : "");
		return 0;
	}
	if (!strcmp(name, "seed")) {
		ab->seed = strtoull(v ? v : "", &end, 0);
		ab->seed_given = 1;
		if (!v || !*v || *end || ab->seed > INT64_MAX)
			return err_set(e, -EINVAL, EXIT_USAGE, "--seed=%s: expected an integer",
				       v ? v : "");
		return 0;
	}
	if (!strcmp(name, "dir") || !strcmp(name, "runner")) {
		if (!v || !*v)
			return err_set(e, -EINVAL, EXIT_USAGE, "--%s needs a value", name);
		*(name[0] == 'd' ? &ab->dir : &ab->runner) = v;
		return 0;
	}
	if (!strcmp(name, "host-qmp")) {
		ab->host_qmp = v;
		return hostview_cfg_parse(v, ab->host_buf, sizeof(ab->host_buf), &ab->host, e);
	}
	if (!strcmp(name, "a-ranks") || !strcmp(name, "b-ranks")) {
		if (!v || !*v)
			return err_set(e, -EINVAL, EXIT_USAGE, "--%s needs a value (MPI ranks: 0, "
				       "1-3, 0,2)", name);
		*(name[0] == 'a' ? &ab->a_ranks : &ab->b_ranks) = v;
		return 0;
	}
	if (!strcmp(name, "run-timeout")) {
		if (parse_time(name, v, &ab->run_timeout_s, e))
			return -EINVAL;
		if (ab->run_timeout_s <= 0)
			return err_set(e, -EINVAL, EXIT_USAGE, "--run-timeout=%s: expected a "
				       "duration above 0 (30, 500ms, 2m, 1h)", v);
		return 0;
	}
	if (!strcmp(name, "pause"))
		return parse_time(name, v, &ab->pause_s, e);
	if (!strcmp(name, "window"))
		return resultwindow_parse(v, &ab->window, e);
	if (!strcmp(name, "max-time"))
		return parse_time(name, v, &ab->stop.max_time_s, e);
	if (!strcmp(name, "metric")) {
		ab->metric = v;
		if (!v || !compare_metric_known(v))
			return err_set(e, -EINVAL, EXIT_USAGE, "--metric=%s: not a metric "
				       "(read.iops, write.iops, total.iops, read.lat_mean_ns, ...)",
				       v ? v : "");
		return 0;
	}
	if (!strcmp(name, "until-ci")) {
		end = NULL;
		ab->stop.until_ci_pct = strtod(v ? v : "", &end);
		if (!v || !*v || (*end && strcmp(end, "%")) || !(ab->stop.until_ci_pct > 0))
			return err_set(e, -EINVAL, EXIT_USAGE, "--until-ci=%s: expected a "
				       "percentage above 0", v ? v : "");
		return 0;
	}
	return 1;	/* not ours */
}

static int is_ab_option(const char *name)
{
	static const char *const names[] = { "a", "b", "runs", "max-runs", "order", "seed",
		"dir", "runner", "pause", "max-time", "metric", "until-ci", "noise", "cv-limit", "alpha",
		"a-ranks", "b-ranks", "run-timeout", "trial-of", "allow-same", "host-qmp",
		"fail-on-regression", "bootstrap-seed", "output-format", "window", NULL };
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

/* Split "--name=value" / "--name value"; returns how many argv entries it used. */
static int split_opt(int argc, char **argv, int i, char *name, size_t sz, const char **v)
{
	const char *eq = strchr(argv[i], '=');
	size_t len = eq ? (size_t)(eq - argv[i]) - 2 : strlen(argv[i]) - 2;

	snprintf(name, sz, "%.*s", (int)(len < sz ? len : sz - 1), argv[i] + 2);
	*v = eq ? eq + 1 : (i + 1 < argc ? argv[i + 1] : NULL);
	return eq || i + 1 >= argc ? 1 : 2;
}

static int parse_args(int argc, char **argv, struct ab_args *ab, struct err *e)
{
	char name[64];
	const char *v;
	int i, used, ret;

	for (i = 1; i < argc; i += used) {
		used = 1;
		if (strncmp(argv[i], "--", 2) || !argv[i][2]) {
			ab->common[ab->ncommon++] = argv[i];
			continue;
		}
		used = split_opt(argc, argv, i, name, sizeof(name), &v);
		if (!strcmp(name, "allow-same")) {	/* a flag: the next word is not its value */
			if (strchr(argv[i], '='))
				return err_set(e, -EINVAL, EXIT_USAGE, "ab: --allow-same takes no value");
			ab->allow_same = 1;
			used = 1;
			continue;
		}
		if (!strcmp(name, "output"))
			return err_set(e, -EINVAL, EXIT_USAGE, "ab: --output is not allowed: each "
				       "run is saved in the trial directory (--dir)");
		if (!is_ab_option(name)) {
			used = 1;	/* a fio option: passed to every run as typed */
			ab->common[ab->ncommon++] = argv[i];
			continue;
		}
		ret = compare_parse_option(name, v, &ab->copts, &ab->json, e);
		if (ret < 0)
			return ret;
		if (!ret && ab_option(ab, name, v, e))
			return -EINVAL;
	}
	if (!ab->a_spec || !ab->b_spec)
		return err_set(e, -EINVAL, EXIT_USAGE, "ab: both --a and --b are needed "
			       "(see iotrial ab --help)");
	return 0;
}

static void ab_defaults(struct ab_args *ab)
{
	memset(ab, 0, sizeof(*ab));
	compare_opts_init(&ab->copts);
	ab->stop.runs = 5;
	ab->stop.max_runs = 30;
	ab->stop.until_ci_pct = -1;
	ab->metric = "total.iops";
	/* random pair order by default: a drift or a period in the system cannot line
	 * up with the sides, and the seed is recorded so the order can be replayed */
	ab->order = ABRUN_RANDOM;
}

static void ab_finish_defaults(struct ab_args *ab)
{
	uint32_t r;

	if (ab->stop.until_ci_pct >= 0 && !ab->runs_given)
		ab->stop.runs = ABRUN_MIN_CI_PAIRS;
	if (ab->stop.max_runs < ab->stop.runs)
		ab->stop.max_runs = ab->stop.runs;
	if (!ab->seed_given) {
		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = (uint32_t)time(NULL) ^ (uint32_t)getpid();
		ab->seed = r;
	}
}

/* runner_wait.tick: the host's samples while the run runs (--host-qmp). */
static void spawn_tick(void *arg)
{
	trial_tick(arg);
}

static int spawn_signalled(void *arg, double s)
{
	return trial_signalled(arg, s);
}

/*
 * trial_cfg.spawn: run the runner on one side with @args (argv[1] on); its
 * output goes to @log.  A SIGINT/SIGTERM sent to ab alone is passed on to
 * the run, which ends early.  Returns its exit code.
 */
static int spawn_run(void *arg, struct trial *t, int s, char *const *args, size_t nargs,
		     const char *log)
{
	const struct ab_args *ab = arg;
	struct runner_wait w = { .tick = spawn_tick, .signalled = spawn_signalled, .arg = t,
				 .child_mask = &t->oldmask, .log = log, .out = t->run_stdout };

	(void)s;
	return runner_run(ab->runner, args, nargs, &w);
}

/*
 * The runner's message in @buf into @msg: its "iotrial: error: " line, else
 * its last two distinct lines (fio: "fio: unrecognized option
 * '--iodpeth=32'", "Did you mean iodepth?").
 */
static void runner_message(char *buf, char *msg, size_t sz)
{
	static const char pre[] = "iotrial: error: ";
	char *line[2] = { NULL, NULL }, *p, *save = NULL;

	for (p = strtok_r(buf, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
		if (line[1] && !strcmp(line[1], p))
			continue;
		line[0] = line[1];
		line[1] = p;
	}
	if (!line[1])
		snprintf(msg, sz, "the runner failed on --parse-only without a message");
	else if (!strncmp(line[1], pre, sizeof(pre) - 1))
		snprintf(msg, sz, "%s", line[1] + sizeof(pre) - 1);
	else if (line[0])
		snprintf(msg, sz, "%s %s", line[0], line[1]);
	else
		snprintf(msg, sz, "%s", line[1]);
}

/*
 * trial_cfg.check: run the runner on one side's arguments with --parse-only
 * (iotrial's and fio's), its stderr read back for the message.  Before any
 * run: `--b iodpeth=32` or `--a libaio` are refused at once, saying what
 * --a/--b take.
 */
static int check_side(void *arg, int s, char *const *args, size_t nargs, struct err *e)
{
	const struct ab_args *ab = arg;
	size_t n = 0, i, cap = nargs + 3, got = 0;
	char **argv = calloc(cap, sizeof(*argv)), out[4096], msg[600];
	int status = 0, fd[2], null;
	ssize_t r;
	pid_t pid;

	if (!argv || runner_words(ab->runner, &argv, &n, cap)) {
		free(argv);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	}
	for (i = 0; i < nargs; i++)
		argv[n++] = args[i];
	argv[n++] = "--parse-only";
	if (pipe(fd)) {
		free(argv);
		return err_set(e, -errno, EXIT_INTERNAL, "ab: pipe: %s", strerror(errno));
	}
	pid = fork();
	if (pid == 0) {
		null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		dup2(fd[1], STDERR_FILENO);
		close(fd[0]);
		if (ab->runner)
			execvp(argv[0], argv);
		else
			execv("/proc/self/exe", argv);
		fprintf(stderr, "cannot run %s: %s\n", ab->runner ? ab->runner : "/proc/self/exe",
			strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	/* all of it (a long message must not block the child), the end kept */
	while (pid > 0 && (r = read(fd[0], out + got, sizeof(out) - 1 - got)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		got += (size_t)r;
		if (got == sizeof(out) - 1) {
			memmove(out, out + got / 2, got - got / 2);
			got -= got / 2;
		}
	}
	out[got] = 0;
	close(fd[0]);
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	free(argv);
	if (pid < 0)
		return err_set(e, -errno, EXIT_INTERNAL, "ab: fork: %s", strerror(errno));
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	runner_message(out, msg, sizeof(msg));
	return err_set(e, -EINVAL, EXIT_USAGE, "ab: side %c (%s %s) is refused before any run: "
		       "%s; --a and --b take fio options as key=value (--b iodepth=32), or a job "
		       "file", "AB"[s], s ? "--b" : "--a", s ? ab->b_spec : ab->a_spec, msg);
}

/*
 * Does the runner take --set: iotrial itself, or a runner whose program
 * (the last word of a command line: "mpirun -n 4 iotrial") is iotrial?
 */
static int runner_takes_set(const struct ab_args *ab)
{
	const char *end, *start, *base;

	if (!ab->runner)
		return 1;
	end = ab->runner + strlen(ab->runner);
	while (end > ab->runner && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	for (start = end; start > ab->runner && start[-1] != ' ' && start[-1] != '\t'; start--)
		;
	for (base = end; base > start && base[-1] != '/'; base--)
		;
	return end - base == 7 && !strncmp(base, "iotrial", 7);
}

/*
 * trial_cfg.resolve: the jobs a side runs, read by iotrial's parser (fio's
 * job files are its input, so it holds for fio as the runner too).  For a
 * runner without --set, a side option that would not reach every job is
 * refused, naming the job and why.
 */
static int resolve_side(void *arg, int s, char *const *common, size_t ncommon,
			char *const *side, size_t nside, char **jobs, struct err *e)
{
	const struct ab_args *ab = arg;
	struct abside_miss miss;
	char **v = calloc(ncommon + nside + 1, sizeof(*v));
	struct err ignored;
	size_t i, n = 0;
	int ret;

	*jobs = NULL;
	if (!v)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	err_clear(&ignored);
	if (!runner_takes_set(ab) &&
	    abside_unreached(common, ncommon, side, nside, &miss, &ignored) == 1) {
		const char *opt = side[miss.which] + 2;
		int from_file = strcmp(miss.where, "command line") != 0;

		free(v);
		if (from_file)
			return err_set(e, -EINVAL, EXIT_USAGE, "ab: side %c's %s would not reach job "
				       "'%s': %s sets %.*s itself, and %s lets a job file's settings win "
				       "over its command line; take it out of the job file, or let "
				       "iotrial run the trial (it sets --a/--b in every job)", "AB"[s],
				       opt, miss.job, miss.where, (int)strcspn(opt, "="), opt,
				       ab->runner);
		return err_set(e, -EINVAL, EXIT_USAGE, "ab: side %c's %s would reach only the last "
			       "--name job under %s, not '%s'; give each job its own, or let iotrial "
			       "run the trial (it sets --a/--b in every job)", "AB"[s], opt,
			       ab->runner, miss.job);
	}
	for (i = 0; i < ncommon; i++)
		v[n++] = common[i];
	for (i = 0; i < nside; i++)
		v[n++] = side[i];
	ret = abside_jobs(v, n, jobs, &ignored);
	free(v);
	(void)ret;	/* iotrial cannot read it (a runner's own options): no check */
	return 0;
}

/* trial_cfg.say: ab's progress lines go to stderr. */
static void say_stderr(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "%s\n", line);
}

static int print_final(struct trial *t, int json, enum abrun_reason why, struct err *e)
{
	struct compare_report rep;
	struct compare_suite suite = { 0 };
	struct compare_opts o = t->cfg->copts;
	struct resultwindow_note wn;
	int ret = 0;
	size_t i;

	if (resultwindow_apply(t->cfg->window, t->res[0], t->nres[0], t->res[1], t->nres[1], &wn, e))
		return -EINVAL;
	o.expected = (const char *const *)t->keys;
	o.nr_expected = t->nkeys;
	if (compare_run(t->res[0], t->nres[0], t->res[1], t->nres[1], &o, &rep, e))
		return -EINVAL;
	/* a suite (--preset, or any file of several tests): one row per test */
	if (compare_suite_run(t->res[0], t->nres[0], t->res[1], t->nres[1], &o, &suite, e)) {
		compare_report_free(&rep);
		return -EINVAL;
	}
	for (i = 0; i < suite.nr; i++)
		rep.regressed |= suite.rows[i].m.regression;
	if (json) {
		json_t *j = compare_json(&rep);

		json_object_set_new(j, "ab", json_pack("{s:s, s:s, s:I, s:s, s:I}", "dir", t->dir,
				    "order", t->cfg->order == ABRUN_RANDOM ? "random" : "alternate",
				    "seed", (json_int_t)t->cfg->seed, "stopped_by",
				    abrun_reason_name(why), "runs_per_side", (json_int_t)t->nres[0]));
		if (suite.nr)
			json_object_set_new(j, "tests", compare_suite_json(&suite));
		json_object_set_new(j, "window", resultwindow_note_json(&wn));
		if (json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			       JSON_REAL_PRECISION(10)) || fputc('\n', stdout) == EOF)
			ret = -EIO;
		json_decref(j);
	} else {
		printf("ab: %zu runs of A and %zu of B (%s order, seed %llu), stopped by %s; "
		       "results and manifest.json in %s\n\n", t->nres[0], t->nres[1],
		       t->cfg->order == ABRUN_RANDOM ? "random" : "alternate",
		       (unsigned long long)t->cfg->seed, abrun_reason_name(why), t->dir);
		ret = compare_write_text(&rep, stdout);
		if (!ret)
			ret = compare_suite_write_text(&suite, stdout);
		printf("%s\n%s%s", wn.what, wn.warning, wn.warning[0] ? "\n" : "");
	}
	if (fflush(stdout) || ferror(stdout))
		ret = -EIO;
	if (ret)
		err_set(e, -EIO, EXIT_OUTPUT, "ab: writing the report failed");
	else if (rep.regressed)
		ret = 1;
	compare_report_free(&rep);
	compare_suite_free(&suite);
	return ret;
}

/*
 * report.html in the trial directory from the runs completed so far, with
 * @note under the headline.  0, or -1 with @e set (a side without runs is
 * not an error: there is nothing to compare, which stderr says).
 */
static int write_html(struct trial *t, const char *note, struct err *e)
{
	struct compare_opts o = t->cfg->copts;
	struct report_html_run *runs = NULL;
	struct compare_report rep;
	char path[PATH_MAX + 32];
	struct outfile of;
	size_t n = 0;
	json_t *j;
	int ret = -1;

	if (!t->nres[0] || !t->nres[1]) {
		fprintf(stderr, "ab: no report.html: side %c has no completed run\n",
			t->nres[0] ? 'B' : 'A');
		return 0;
	}
	o.expected = (const char *const *)t->keys;
	o.nr_expected = t->nkeys;
	snprintf(path, sizeof(path), "%s/report.html", t->dir);
	if (compare_run(t->res[0], t->nres[0], t->res[1], t->nres[1], &o, &rep, e))
		return -1;
	j = compare_json(&rep);
	if (j && !report_html_runs_load(t->res[0], t->nres[0], t->res[1], t->nres[1], &runs,
					 &n, e) && !outfile_open(&of, path, e)) {
		if (report_html_compare(of.f, j, runs, n, t->manifest, note))
			outfile_abort(&of);
		else
			ret = outfile_commit(&of, e);
	}
	if (ret)
		err_set(e, -EIO, EXIT_OUTPUT, "ab: cannot write %s", path);
	else
		fprintf(stderr, "ab: report %s\n", path);
	json_decref(j);
	report_html_runs_free(runs, n);
	compare_report_free(&rep);
	return ret;
}

/*
 * The trial on this process, as the controller: a local trial (@x NULL:
 * each run a child process) or one across hosts (@x: runs on the sides'
 * MPI ranks, abmpi.h).  Prints the report; returns the exit code.
 */
static int ab_trial(struct ab_args *ab, struct history_hooks_ab *hist, struct abmpi *x)
{
	struct trial_cfg cfg;
	struct trial t;
	enum abrun_reason why;
	json_t *extra = x ? abmpi_manifest(x) : NULL;
	struct err e;
	int ret;

	err_clear(&e);
	if (x && !ab->copts.trial_of)
		ab->copts.trial_of = "disk";	/* across hosts: the disks are on trial */
	if (extra && ab->copts.trial_of)	/* so that compare reads the trial the same way */
		json_object_set_new(json_object_get(extra, "mpi"), "trial_of",
				    json_string(ab->copts.trial_of));
	memset(&cfg, 0, sizeof(cfg));
	cfg.a_spec = ab->a_spec;
	cfg.b_spec = ab->b_spec;
	cfg.common = ab->common;
	cfg.ncommon = ab->ncommon;
	cfg.stop = ab->stop;
	cfg.order = ab->order;
	cfg.seed = ab->seed;
	cfg.dir = ab->dir;
	cfg.pause_s = ab->pause_s;
	cfg.metric = ab->metric;
	cfg.copts = ab->copts;
	cfg.window = ab->window;
	cfg.handle_signals = 1;
	cfg.spawn = x ? abmpi_spawn : spawn_run;
	cfg.spawn_arg = x ? (void *)x : (void *)ab;
	/* both sides checked with the runner's --parse-only before the first
	 * run; across hosts each rank checks its own side as its runs start
	 * (a fork under the MPI library is best avoided) */
	cfg.check = x ? NULL : check_side;
	cfg.side_set = runner_takes_set(ab);
	/* across hosts one command line runs on different hosts: it may be the same */
	cfg.resolve = x ? NULL : resolve_side;
	cfg.allow_same = ab->allow_same;
	cfg.say = say_stderr;
	cfg.manifest_extra = extra;
	cfg.host = ab->host_qmp ? &ab->host : NULL;
	if (trial_prepare(&t, &cfg, &e))
		goto fail;
	why = trial_run(&t, &e);
	/* a run that failed (a guest killed, a host lost) ends the trial with
	 * what was completed, in the report too */
	if (t.sig || (why == ABRUN_CONTINUE && t.nres[0] + t.nres[1] > 0)) {
		char note[ERR_MSG_MAX + 160];

		if (t.sig)
			snprintf(note, sizeof(note), "Interrupted by signal %d: %zu run(s) of A and %zu "
				 "of B completed; the trial did not reach its stop rule.", t.sig,
				 t.nres[0], t.nres[1]);
		else	/* a failed run, a lost host: what was collected is kept */
			snprintf(note, sizeof(note), "The trial ended early: %s. %zu run(s) of A and "
				 "%zu of B completed.", e.msg, t.nres[0], t.nres[1]);
		write_html(&t, note, &e);
	}
	if (why == ABRUN_CONTINUE || (ret = print_final(&t, ab->json, why, &e)) < 0 ||
	    write_html(&t, NULL, &e))
		goto fail;
	history_hooks_after_ab(hist, t.dir, t.manifest, &ab->copts, t.keys, t.nkeys);
	trial_free(&t);
	json_decref(extra);
	return ret ? EXIT_REGRESSION : EXIT_OK;
fail:
	fprintf(stderr, "iotrial: error: %s\n", e.msg);
	if (x && t.sig)
		fprintf(stderr, "iotrial: mpirun sends SIGTERM to every rank when one dies or when "
			"it is interrupted: its own message names the rank; the completed runs and "
			"manifest.json are in %s\n", t.dir);
	trial_free(&t);
	json_decref(extra);
	return e.exit_code ? e.exit_code : EXIT_INTERNAL;
}

/* abmpi.run: one run in this process, on this rank's side (cmd_run.c). */
static int run_rank(void *arg, int argc, char **argv, struct mpirank *side, int *sig)
{
	(void)arg;
	return cmd_run_rank(argc, argv, side, sig);
}

/* A message of the MPI ranks' set-up: rank 0 says it, the others keep quiet. */
static int mpi_fail(unsigned rank, const char *msg, int code)
{
	if (!rank)
		fprintf(stderr, "iotrial: error: %s\n", msg);
	return code;
}

/*
 * ab under an MPI launcher: rank 0 controls the trial, the ranks of
 * --a-ranks and --b-ranks run their side when told (abmpi.h).  Every rank
 * parses the same arguments, so a bad one stops them all before MPI starts.
 */
static int ab_mpi(struct ab_args *ab, struct history_hooks_ab *hist)
{
	unsigned rank, nranks, *ranks[2] = { NULL, NULL };
	size_t nr[2] = { 0, 0 };
	struct mpirank world;
	struct abmpi x;
	sigset_t sigs;
	struct err e;
	int ret, code = EXIT_OK;

	err_clear(&e);
	memset(&x, 0, sizeof(x));
	mpienv_rank(&rank, &nranks);
	if (!ab->a_ranks || !ab->b_ranks)
		/* every rank would run its own trial */
		return mpi_fail(rank, "ab under an MPI launcher: give each side its ranks "
				"(--a-ranks=0 --b-ranks=1: A on rank 0's host, B on rank 1's), or run "
				"ab once with --runner=\"mpirun -n N ... iotrial\" (docs/mpi.md)",
				EXIT_USAGE);
	if (ab->runner)
		return mpi_fail(rank, "ab: --runner and --a-ranks/--b-ranks: across hosts the "
				"ranks run the runs themselves", EXIT_USAGE);
	if (abmpi_parse_ranks("a-ranks", ab->a_ranks, nranks, &ranks[0], &nr[0], &e) ||
	    abmpi_parse_ranks("b-ranks", ab->b_ranks, nranks, &ranks[1], &nr[1], &e) ||
	    abmpi_check_sides(ranks, nr, nranks, &e)) {
		free(ranks[0]);
		free(ranks[1]);
		return mpi_fail(rank, e.msg, e.exit_code);
	}
	/* before MPI_Init: its threads inherit the mask (mpirank.h) */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	ret = mpirank_init(&world, &e);
	if (!ret) {
		x.timeout_s = ab->run_timeout_s;
		x.run = run_rank;
		ret = abmpi_init(&x, &world, ranks, nr, &e);
		/* a rank that could not set up (its scratch directory) stops all */
		ret = mpirank_agree(&world, ret, &e);
	}
	free(ranks[0]);
	free(ranks[1]);
	if (ret) {
		code = mpi_fail(world.rank, e.msg, e.exit_code ? e.exit_code : EXIT_INTERNAL);
	} else if (world.rank == 0) {
		code = ab_trial(ab, hist, &x);
		if (x.lost || code == EXIT_INTERRUPTED) {
			/* a rank is hung or gone (mpirun ends the job when one dies):
			 * the others cannot finalize with it; all was written */
			fflush(stdout);
			fflush(stderr);
			abmpi_scratch_remove(&x);
			code = x.lost ? EXIT_INTERNAL : code;
			mpirank_abort(&world, code);
			exit(code);	/* without MPI, or if MPI_Abort came back */
		}
		abmpi_quit(&x);
	} else if (abmpi_serve(&x, &e)) {
		fprintf(stderr, "iotrial: error: rank %u (%s): %s\n", world.rank, world.host, e.msg);
		code = EXIT_INTERNAL;
	}
	abmpi_free(&x);
	code = mpirank_exit_code(&world, code);
	mpirank_finalize(&world);
	return code;
}

int cmd_ab(int argc, char **argv)
{
	struct ab_args ab;
	struct history_hooks_ab hist;
	struct err e;
	int code;

	err_clear(&e);
	history_hooks_ab_take(&argc, argv, &hist);	/* --history: the trial stores its runs */
	ab_defaults(&ab);
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("%s%s%s", usage, compare_options_help, exits);
		return EXIT_OK;
	}
	ab.common = calloc((size_t)argc, sizeof(*ab.common));
	if (!ab.common) {
		fprintf(stderr, "iotrial: error: out of memory\n");
		return EXIT_INTERNAL;
	}
	if (parse_args(argc, argv, &ab, &e)) {
		unsigned rank, nranks;

		mpienv_rank(&rank, &nranks);	/* under mpirun: said once, by rank 0 */
		free(ab.common);
		return mpi_fail(rank, e.msg, e.exit_code ? e.exit_code : EXIT_INTERNAL);
	}
	ab_finish_defaults(&ab);
	if (ab.host_qmp && (!ab.runner || mpienv_launched())) {
		unsigned rank, nranks;

		mpienv_rank(&rank, &nranks);
		free(ab.common);
		return mpi_fail(rank, ab.runner ? "ab: --host-qmp under an MPI launcher: the host's "
				"view is of one QEMU on this host; run ab there with --runner into the "
				"guest (docs/vm.md)" : "ab: --host-qmp needs --runner: the runs must run in "
				"the guest whose QEMU the socket is (--runner=CMD runs iotrial there, "
				"docs/vm.md)", EXIT_USAGE);
	}
	if (mpienv_launched()) {
		code = ab_mpi(&ab, &hist);
	} else if (ab.a_ranks || ab.b_ranks) {
		fprintf(stderr, "iotrial: error: ab: --a-ranks/--b-ranks need an MPI launcher: "
			"mpirun -H hostA,hostB -n 2 iotrial ab --a-ranks=0 --b-ranks=1 ... "
			"(docs/mpi.md)\n");
		code = EXIT_USAGE;
	} else {
		code = ab_trial(&ab, &hist, NULL);
	}
	free(ab.common);
	return code;
}
