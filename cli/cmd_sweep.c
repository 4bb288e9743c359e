/*
 * cmd_sweep: `iotrial sweep [--slo=pNN:TIME] [--range=LO-HI] [--steps=N]
 * <fio options or job file>`.  Latency against offered load: the sweep
 * (src/trial/sweep.c) decides the steps and reads each run's result; this
 * file parses, starts each run as a child of this very binary, and prints.
 */
#include <errno.h>
#include <fcntl.h>	/* open */
#include <signal.h>	/* sigprocmask */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>	/* waitpid */
#include <time.h>	/* localtime_r, strftime */
#include <unistd.h>	/* fork, execv, dup2 */
#include "cmd.h"
#include "history_hooks.h"	/* --history: the sweep's document stored, not its runs */
#include "lib/err.h"
#include "lib/outfile.h"
#include "result/resultread.h"	/* RESULTREAD_SWEEP_FILE */
#include "report/report_html_sweep.h"
#include "report/report_sweep.h"	/* an ab sweep's text, as `iotrial report` writes it */
#include "trial/compare.h"
#include "trial/sweep.h"
#include "trial/sweep_ab.h"
#include <sys/stat.h>	/* mkdir */

static const char usage[] =
	"usage: iotrial sweep [sweep options] <fio options or job file>\n"
	"Latency against offered load: a closed-loop run finds the job's capacity,\n"
	"then the offered load (rate_iops, open loop) steps from 20% to 120% of it,\n"
	"each step a few runs (batches), until the device falls behind (achieved\n"
	"under 95% of offered); the gap to the last step kept is then halved.  Each\n"
	"step reports its achieved IOPS, the latency from each I/O's due time (lat\n"
	"from due: the wait for a free slot counts) and fio's clat.\n"
	"  --slo=pNN:TIME   e.g. p99:1ms: the highest offered load kept with that\n"
	"                   percentile, from the due time, within TIME, and its interval\n"
	"  --range=LO-HI    offered IOPS, all threads together (no closed-loop run)\n"
	"  --steps=N        coarse steps (default 8)\n"
	"  --refine=N       halvings between the last kept and the first behind (default 2)\n"
	"  --batches=N      runs per step (default 3, at least 2: the interval)\n"
	"  --batch-time=T   each run's runtime unless the job sets one (default 2s)\n"
	"  --ramp=T         each run's ramp_time unless the job sets one (default 500ms):\n"
	"                   not measured, so a throttle's burst at a run's start is not\n"
	"                   taken for the device's rate\n"
	"  --probe-time=T   the closed-loop run's (default 2s)\n"
	"  --dir=DIR        where the runs' results go (default ./iotrial-sweep-DATE)\n"
	"  --output-format=normal|json   (json: stdout carries only the JSON)\n"
	"  --output=FILE    the report there instead of stdout\n"
	"  --html=FILE      also an HTML page: latency against achieved IOPS, the SLO,\n"
	"                   the knee (both sides on one chart in an ab sweep)\n"
	"  --history[=FILE] store the sweep's document (each side's in an ab sweep) in\n"
	"                   the results history, not its runs (also IOTRIAL_HISTORY=FILE;\n"
	"                   docs/history.md): history trend slo.iops follows it\n"
	"  --a OPTS --b OPTS  an ab sweep: the job swept for two configurations (as\n"
	"                   iotrial ab's --a/--b: key=value,... or a job file, set in\n"
	"                   every job), A then B, into DIR/a and DIR/b; both curves in\n"
	"                   one report, and their SLO capacities compared (slo.iops)\n"
	"Exit: 0 done, 2 bad input, else the failed run's exit code.\n";

struct sweep_args {
	struct sweep_cfg cfg;
	char **job;
	size_t njob;
	int json;
	const char *output;
	const char *html;		/* --html=FILE */
	const char *spec[2];		/* --a, --b: an ab sweep */
	char dir[4096];
};

/* sweep_cfg.spawn: /proc/self/exe with @args, its output to @log. */
static int spawn_run(void *arg, char *const *args, size_t nargs, const char *log)
{
	char **argv = calloc(nargs + 2, sizeof(*argv));
	int status = 0, fd;
	pid_t pid;

	(void)arg;
	if (!argv)
		return EXIT_INTERNAL;
	argv[0] = (char *)"iotrial";
	memcpy(argv + 1, args, nargs * sizeof(*argv));
	pid = fork();
	if (pid == 0) {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		execv("/proc/self/exe", argv);
		fprintf(stderr, "iotrial: error: sweep: cannot run /proc/self/exe: %s\n", strerror(errno));
		_exit(127);
	}
	free(argv);
	if (pid < 0)
		return EXIT_INTERNAL;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return EXIT_INTERNAL;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void say_err(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "sweep: %s\n", line);
}

static int parse_uint(const char *name, const char *v, unsigned *out, struct err *e)
{
	char *end;
	unsigned long x = v ? strtoul(v, &end, 10) : 0;

	if (!v || !*v || *end || x > 1000)
		return err_set(e, -EINVAL, EXIT_USAGE, "sweep: --%s=%s: want a whole number", name,
			       v ? v : "");
	*out = (unsigned)x;
	return 0;
}

static int parse_args(int argc, char **argv, struct sweep_args *s, struct err *e)
{
	struct sweep_cfg *c = &s->cfg;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '='), *v = eq ? eq + 1 : NULL;
		char name[32];
		size_t len = eq ? (size_t)(eq - a) : strlen(a);

		snprintf(name, sizeof(name), "%.*s", (int)(len < sizeof(name) ? len : sizeof(name) - 1), a);
		if ((!strcmp(name, "--a") || !strcmp(name, "--b")) && !v) {
			if (i + 1 >= argc)
				return err_set(e, -EINVAL, EXIT_USAGE, "sweep: %s needs options "
					       "(key=value,...) or a job file", name);
			v = argv[++i];
		}
		if (!strcmp(name, "--a") || !strcmp(name, "--b")) {
			s->spec[name[2] == 'b'] = v;
		} else if (!strcmp(name, "--slo")) {
			c->has_slo = 1;
			if (sweep_parse_slo(v, &c->slo_pct, &c->slo_ns, e))
				return -EINVAL;
		} else if (!strcmp(name, "--range")) {
			c->has_range = 1;
			if (sweep_parse_range(v, &c->lo, &c->hi, e))
				return -EINVAL;
		} else if (!strcmp(name, "--steps")) {
			if (parse_uint("steps", v, &c->steps, e))
				return -EINVAL;
		} else if (!strcmp(name, "--refine")) {
			if (parse_uint("refine", v, &c->refine, e))
				return -EINVAL;
		} else if (!strcmp(name, "--batches")) {
			if (parse_uint("batches", v, &c->batches, e))
				return -EINVAL;
		} else if (!strcmp(name, "--batch-time") && v) {
			c->batch_time = v;
		} else if (!strcmp(name, "--ramp") && v) {
			c->ramp_time = v;
		} else if (!strcmp(name, "--probe-time") && v) {
			c->probe_time = v;
		} else if (!strcmp(name, "--dir") && v) {
			snprintf(s->dir, sizeof(s->dir), "%s", v);
		} else if (!strcmp(name, "--html") && v) {
			s->html = v;
		} else if (!strcmp(name, "--output") && v) {
			s->output = v;
		} else if (!strcmp(name, "--output-format") && v) {
			if (strcmp(v, "json") && strcmp(v, "normal"))
				return err_set(e, -EINVAL, EXIT_USAGE, "sweep: --output-format=%s: "
					       "want normal or json", v);
			s->json = !strcmp(v, "json");
		} else {
			s->job[s->njob++] = argv[i];	/* the job's: passed to every run */
		}
	}
	if (!s->njob)
		return err_set(e, -EINVAL, EXIT_USAGE, "sweep: no job (see iotrial sweep --help)");
	if (!s->spec[0] != !s->spec[1])
		return err_set(e, -EINVAL, EXIT_USAGE, "sweep: %s without %s: an ab sweep needs both "
			       "sides", s->spec[0] ? "--a" : "--b", s->spec[0] ? "--b" : "--a");
	return 0;
}

/* --html=FILE: the page of @n sweeps (1, or an ab's 2 with @rep), whole or not at all. */
static int sweep_html(const struct sweep_args *s, const struct sweep_result *r, size_t n,
		      const struct compare_report *rep, struct err *e)
{
	static const char *const one[] = { "sweep" }, *const two[] = { "A", "B" };
	json_t *j[2] = { NULL, NULL }, *c = rep ? compare_json(rep) : NULL;
	struct outfile o;
	int rc = 0;

	for (size_t k = 0; k < n; k++)
		if (!(j[k] = sweep_json(&r[k])))
			rc = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	if (!rc && rep && !c)
		rc = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	if (!rc && outfile_open(&o, s->html, e))
		rc = -EIO;
	if (!rc) {
		if (report_html_sweep(o.f, (const json_t *const *)j, n > 1 ? two : one, n, c)) {
			outfile_abort(&o);
			rc = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		} else if (outfile_commit(&o, e)) {
			rc = -EIO;
		}
	}
	json_decref(j[0]);
	json_decref(j[1]);
	json_decref(c);
	return rc;
}

/*
 * The JSON report into the sweep's directory too: `iotrial compare DIR` reads
 * it; then into the history when asked (@hab), with @what naming it.
 */
static int sweep_save(const struct sweep_result *r, const struct history_hooks_ab *hab,
		      const char *what, struct err *e)
{
	char path[4200];
	struct outfile o;
	json_t *j = sweep_json(r);
	int rc = 0;

	snprintf(path, sizeof(path), "%s/%s", r->dir, RESULTREAD_SWEEP_FILE);
	if (!j)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "sweep: out of memory");
	if (outfile_open(&o, path, e)) {
		json_decref(j);
		return -EIO;
	}
	if (json_dumpf(j, o.f, JSON_INDENT(2)) || fputc('\n', o.f) == EOF) {
		outfile_abort(&o);
		rc = err_set(e, -EIO, EXIT_OUTPUT, "sweep: cannot write %s", path);
	} else if (outfile_commit(&o, e)) {
		rc = -EIO;
	}
	json_decref(j);
	if (!rc)
		history_hooks_after_sweep(hab, path, what);
	return rc;
}

/*
 * The report on stdout or --output: one sweep (@rep NULL), or an ab's two
 * (@r[0], @r[1]) with their comparison: both tables and compare's, or the
 * JSON of all three.
 */
static int sweep_print(const struct sweep_args *s, const struct sweep_result *r,
		       const struct compare_report *rep, struct err *e)
{
	struct outfile o;
	int rc = 0;

	if (s->output) {
		if (outfile_open(&o, s->output, e))
			return e->exit_code ? e->exit_code : EXIT_OUTPUT;
	} else {
		o.f = stdout;
	}
	if (s->json) {
		json_t *j = rep ? sweep_ab_json(r, s->spec, rep) : sweep_json(r);

		if (!j || json_dumpf(j, o.f, JSON_INDENT(2)) || fputc('\n', o.f) == EOF)
			rc = EXIT_OUTPUT;
		json_decref(j);
	} else if (!rep) {
		rc = sweep_write_text(r, o.f) ? EXIT_OUTPUT : 0;
	} else {
		rc = report_sweep_ab_text(o.f, r, s->spec, rep) ? EXIT_OUTPUT : 0;
	}
	if (s->output) {
		if (rc)
			outfile_abort(&o);
		else if (outfile_commit(&o, e))
			rc = e->exit_code ? e->exit_code : EXIT_OUTPUT;
	}
	return rc;
}

/* Both sides swept, A then B, each into its own directory; then compared. */
static int sweep_ab_main(struct sweep_args *s, const struct history_hooks_ab *hab, struct err *e)
{
	struct sweep_ab_sides sides;
	struct sweep_result *r = calloc(2, sizeof(*r));
	struct compare_report rep;
	struct compare_opts co;
	char dir[2][4200];
	struct resultread *docs[2] = { NULL, NULL };	/* what the report points into */
	int rc, have_rep = 0;

	if (!r)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	rc = sweep_ab_sides(s->spec[0], s->spec[1], s->job, s->njob, &sides, e);
	for (int k = 0; k < 2 && !rc; k++) {
		struct sweep_cfg c = s->cfg;
		unsigned threads;

		c.args = sides.args[k];
		c.nargs = sides.nargs[k];
		rc = sweep_check(&c, &threads, e);
	}
	if (!rc && mkdir(s->dir, 0777) && errno != EEXIST)
		rc = err_set(e, -errno, EXIT_OUTPUT, "sweep: cannot make %s: %s", s->dir, strerror(errno));
	for (int k = 0; k < 2 && !rc; k++) {
		struct sweep_cfg c = s->cfg;

		snprintf(dir[k], sizeof(dir[k]), "%s/%c", s->dir, "ab"[k]);
		c.args = sides.args[k];
		c.nargs = sides.nargs[k];
		c.dir = dir[k];
		say_err(NULL, k ? "side B" : "side A");
		rc = sweep_run(&c, &r[k], e);
		if (!rc)
			rc = sweep_save(&r[k], hab, k ? "side B's sweep" : "side A's sweep", e);
	}
	if (!rc) {
		compare_opts_init(&co);
		rc = sweep_ab_compare(r, &co, docs, &rep, e);
		have_rep = !rc;
	}
	if (!rc && s->html)
		rc = sweep_html(s, r, 2, &rep, e);
	if (rc) {
		fprintf(stderr, "iotrial: error: %s\n", e->msg);
		rc = e->exit_code ? e->exit_code : EXIT_INTERNAL;
	} else {
		rc = sweep_print(s, r, &rep, e);
		if (rc && e->msg[0])
			fprintf(stderr, "iotrial: error: %s\n", e->msg);
	}
	if (have_rep)
		compare_report_free(&rep);
	resultread_free(docs[0]);	/* after the report, which points into them */
	resultread_free(docs[1]);
	sweep_ab_sides_free(&sides);
	sweep_result_clear(&r[0]);
	sweep_result_clear(&r[1]);
	free(r);
	return rc;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_args s;
	struct sweep_result *r;
	struct history_hooks_ab hab;
	struct err e;
	int rc;

	err_clear(&e);
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	history_hooks_ab_take(&argc, argv, &hab);	/* the runs must not store themselves */
	memset(&s, 0, sizeof(s));
	s.cfg.steps = 8;
	s.cfg.refine = 2;
	s.cfg.batches = 3;
	s.cfg.batch_time = "2s";
	s.cfg.ramp_time = "500ms";
	s.cfg.probe_time = "2s";
	s.job = calloc((size_t)argc, sizeof(*s.job));
	r = calloc(1, sizeof(*r));
	if (!s.job || !r) {
		free(s.job);
		free(r);
		fprintf(stderr, "iotrial: error: out of memory\n");
		return EXIT_INTERNAL;
	}
	rc = parse_args(argc, argv, &s, &e);
	if (!rc && !s.dir[0]) {
		time_t now = time(NULL);
		struct tm tm;

		localtime_r(&now, &tm);
		strftime(s.dir, sizeof(s.dir), "iotrial-sweep-%Y%m%d-%H%M%S", &tm);
	}
	if (!rc && s.spec[0]) {
		s.cfg.spawn = spawn_run;
		s.cfg.say = say_err;
		rc = sweep_ab_main(&s, &hab, &e);
		free(s.job);
		free(r);
		return rc;
	}
	if (!rc) {
		unsigned threads;

		s.cfg.args = s.job;
		s.cfg.nargs = s.njob;
		rc = sweep_check(&s.cfg, &threads, &e);
	}
	s.cfg.dir = s.dir;
	s.cfg.spawn = spawn_run;
	s.cfg.say = say_err;
	if (!rc)
		rc = sweep_run(&s.cfg, r, &e);
	if (rc) {
		fprintf(stderr, "iotrial: error: %s\n", e.msg);
		rc = e.exit_code ? e.exit_code : EXIT_INTERNAL;
	} else if (sweep_save(r, &hab, "the sweep", &e) || (s.html && sweep_html(&s, r, 1, NULL, &e))) {
		fprintf(stderr, "iotrial: error: %s\n", e.msg);
		rc = e.exit_code ? e.exit_code : EXIT_OUTPUT;
	} else {
		rc = sweep_print(&s, r, NULL, &e);
		if (rc && e.msg[0])
			fprintf(stderr, "iotrial: error: %s\n", e.msg);
	}
	free(s.job);
	sweep_result_clear(r);
	free(r);
	return rc;
}
