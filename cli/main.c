/*
 * main: the command line.  Turns argv into a request, calls the library,
 * prints, and maps the outcome to an exit code.  Nothing else prints or exits.
 *
 * "iotrial compare|check|ab|sweep|preset|report|history ..." go to their
 * subcommands; anything else is a fio-compatible command line: parsed by
 * cmdline_parse(), then --version,
 * --help, --cmdhelp, --showcmd and --parse-only are answered here and a real
 * run goes to cmd_run().  Every failure is one line on stderr,
 * "iotrial: error: <msg>", and the exit code of its class (err.h).
 */
#include <errno.h>	/* ENOENT */
#include <signal.h>	/* sigprocmask */
#include <stdio.h>	/* printf, fprintf */
#include <stdlib.h>	/* free */
#include <string.h>	/* strcmp, strerror, strtok_r */
#include <unistd.h>	/* getpid */
#include "cmd.h"
#include "lib/version.h"
#include "parse/cmdline.h"
#include "lib/err.h"
#include "log/fiolog_fz.h"	/* --inflate-log */
#include "parse/opt.h"
#include "lib/clock.h"	/* --idle-prof=calibrate's timings */
#include "measure/idleprof.h"
#include "report/report_text.h"	/* report_text_idle */

static void usage(FILE *f)
{
	const struct err_exit_code *codes;
	size_t ncodes, i;

	fprintf(f,
		"usage: iotrial [options] [--name=JOB [job options]]... [jobfile]...\n"
		"       iotrial compare A.json... [-- B.json...]\n"
		"       iotrial check RESULT.json...\n"
		"       iotrial ab --runs N --a OPTS --b OPTS <fio options or job files>\n"
		"       iotrial sweep [--slo=pNN:TIME] [--range=LO-HI] [--steps=N] <fio options or job file>\n"
		"       iotrial --preset=NAME [fio options that override the preset's]\n"
		"       iotrial --runner=CMD [--host-qmp=SOCKET[,drive=ID]] <fio options>  (a run in a\n"
		"               QEMU guest with the host's view, docs/vm.md)\n"
		"       iotrial preset list | preset show NAME [fio options]\n"
		"       iotrial report RESULT.json... [-o FILE.html]\n"
		"       iotrial history list|show|trend|compare|label|export|import ...\n"
		"\n"
		"Runs fio job files and fio command lines unchanged and writes fio's output.\n"
		"Job options (--bs=4k, --rw=randrw, ...) are fio's; --cmdhelp lists them.\n"
		"Options before the first --name apply to every job, job files included.\n"
		"\n"
		"options:\n");
	cmdline_help(f);
	fprintf(f,
		"\n"
		"subcommands:\n"
		"  compare                  compare saved results of configurations A and B\n"
		"  check                    plausibility checks on saved results\n"
		"  ab                       run an interleaved, repeated A/B trial\n"
		"  sweep                    latency against offered load: the knee, an SLO's capacity\n"
		"  preset                   list the built-in job sets or print one as a job file\n"
		"  report                   an HTML report with charts of result files\n"
		"  history                  the results history (--history stores a run there)\n"
		"\n"
		"exit codes:\n");
	codes = err_exit_codes(&ncodes);
	for (i = 0; i < ncodes; i++)
		fprintf(f, "  %d  %s\n", codes[i].code, codes[i].meaning);
}

static int fail(const char *msg, int code)
{
	fprintf(stderr, "iotrial: error: %s\n", msg);
	return code;
}

/* Print every job as a command line that re-parses to it. */
static int showcmd(const struct cmdline *cl)
{
	char *line;
	size_t i;

	for (i = 0; i < cl->jobs_nr; i++) {
		if (opt_job_cmdline(&cl->jobs[i], &line))
			return fail("out of memory", EXIT_INTERNAL);
		printf("iotrial %s\n", line);
		free(line);
	}
	return EXIT_OK;
}

/*
 * --debug=parse: fio's trace of each option handled, global ones first, then
 * each job's own, "parse    PID line".  On stdout as fio (stderr when JSON
 * goes to stdout: JSON there stays alone).
 */
static void debug_parse(const struct cmdline *cl)
{
	FILE *f = !cl->output && (cl->formats & (CMDLINE_FMT_JSON | CMDLINE_FMT_JSONPLUS)) ? stderr : stdout;
	char buf[512], *line, *save = NULL;
	long pid = (long)getpid();
	size_t i, k;

	fprintf(f, "fio: set debug option parse\n");
	for (i = 0; i <= cl->jobs_nr; i++) {
		const struct job_kv *kv = i ? cl->jobs[i - 1].opts : cl->globals;
		size_t nr = i ? cl->jobs[i - 1].opts_nr : cl->globals_nr;

		for (k = 0; k < nr; k++) {
			opt_debug_parse(kv[k].key, kv[k].val, buf, sizeof(buf));
			for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
				fprintf(f, "parse    %ld %s\n", pid, line);
		}
	}
	fflush(f);
}

/* --idle-prof=calibrate: time the unit of work on every CPU, print it, and stop (as fio). */
static int idle_calibrate(void)
{
	struct idleprof ip;
	struct idleprof_result res = { 0 };
	struct clock clk;
	struct err e = { 0 };
	int r;

	memset(&ip, 0, sizeof(ip));	/* idleprof_free is then safe whatever fails */
	r = clock_init(&clk, CLOCK_MODE_AUTO, &e);
	if (!r)
		r = idleprof_start(&ip, IDLEPROF_CALIBRATE, &clk, &e);
	if (!r && idleprof_end(&ip, &res))
		r = err_set(&e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	idleprof_free(&ip);
	if (r)
		return fail(e.msg, e.exit_code);
	report_text_idle(stdout, &res);
	free(res.cpus);
	return fflush(stdout) || ferror(stdout) ? fail("writing to stdout failed", EXIT_OUTPUT) :
						  EXIT_OK;
}

/* Answer what does not run jobs; returns -1 when cmd_run() should go on. */
static int answer(struct cmdline *cl)
{
	char msg[200];

	if (cl->version) {
		/* tools test for "fio-3..."; the fio iotrial follows, then iotrial's own */
		if (version_git()[0])
			printf("fio-3.33 (iotrial %s, git %s)\n", version_number(), version_git());
		else
			printf("fio-3.33 (iotrial %s)\n", version_number());
		return EXIT_OK;
	}
	if (cl->help) {
		usage(stdout);
		return EXIT_OK;
	}
	if (cl->inflate_log) {
		struct err e = { 0 };

		if (fiolog_fz_inflate(cl->inflate_log, stdout, &e))
			return fail(e.msg, e.exit_code);
		return fflush(stdout) || ferror(stdout) ? fail("writing to stdout failed", EXIT_OUTPUT) :
							  EXIT_OK;
	}
	if (cl->idle_prof == IDLEPROF_CALIBRATE)
		return idle_calibrate();
	if (cl->cmdhelp) {
		if (opt_cmdhelp(stdout, cl->cmdhelp_opt) == -ENOENT) {
			snprintf(msg, sizeof(msg), "unknown option '%.100s'", cl->cmdhelp_opt);
			return fail(msg, EXIT_USAGE);
		}
		return EXIT_OK;
	}
	if (cl->debug_parse)
		debug_parse(cl);
	if (cl->showcmd)
		return showcmd(cl);
	if (cl->parse_only)
		return EXIT_OK;
	return -1;
}

int main(int argc, char **argv)
{
	struct cmdline cl;
	struct err e = { 0 };
	char msg[300];
	sigset_t stop, old;
	int rc;

	/*
	 * First thing: SIGINT and SIGTERM wait (blocked) until the runner looks
	 * for them, so one that comes during start-up (clock calibration takes
	 * ~45 ms), layout or report writing cannot kill the process half-way and
	 * leave no result or a stale temporary file.  They stay blocked to the
	 * end: once the run is over, the complete report is written whatever
	 * comes.  Commands that run no jobs get the default behaviour back.
	 */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigprocmask(SIG_BLOCK, &stop, &old);
	if (argc > 1 && (!strcmp(argv[1], "compare") || !strcmp(argv[1], "check") ||
			 !strcmp(argv[1], "ab") || !strcmp(argv[1], "history") ||
			 !strcmp(argv[1], "sweep")))
		sigprocmask(SIG_SETMASK, &old, NULL);
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "check"))
		return cmd_check(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "ab"))
		return cmd_ab(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "sweep"))
		return cmd_sweep(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "preset"))
		return cmd_preset(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "history"))
		return cmd_history(argc - 1, argv + 1);
	/* a run driven from the host into a guest: the runner parses the options */
	if (cmd_run_host_wanted(argc, argv))
		return cmd_run_host(argc, argv);

	if (cmdline_parse(argc, argv, &cl, &e)) {
		cmdline_free(&cl);
		return fail(e.msg, e.exit_code ? e.exit_code : EXIT_INTERNAL);
	}
	rc = answer(&cl);
	if (rc < 0)
		rc = cmd_run(&cl);
	cmdline_free(&cl);
	/* a full disk or a closed pipe must not pass for success */
	if (fflush(stdout) || ferror(stdout) || fclose(stdout)) {
		if (rc == EXIT_OUTPUT)
			return rc;	/* the failed write was reported already: one line */
		snprintf(msg, sizeof(msg), "cannot write to standard output: %s", strerror(errno));
		return fail(msg, rc ? rc : EXIT_OUTPUT);
	}
	return rc;
}
