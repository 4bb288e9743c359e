/*
 * cmd_compare: `iotrial compare A... [-- B...]`.  Turns argv into two sets
 * of result files and compare options, runs compare_run(), prints the text
 * table or the JSON object, and maps a regression to exit code 6.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "history_hooks.h"
#include "trial/compare.h"
#include "trial/compare_suite.h"
#include "lib/err.h"
#include "lib/outfile.h"
#include "report/report_html.h"
#include "result/resultwindow.h"
#include "trial/trialdir.h"	/* compare DIR of an ab trial; its change under trial */

static const char usage[] =
	"usage: iotrial compare [options] A.json B.json\n"
	"       iotrial compare [options] A... -- B...\n"
	"       iotrial compare [options] TRIALDIR      (an iotrial ab trial's runs)\n"
	"Compare result files (iotrial's JSON, or fio 3.x --output-format=json/json+).\n"
	"Each side is one or more files or directories of *.json files, one file per run;\n"
	"with exactly two files the first is A and the second B.  For every metric it\n"
	"prints each side's mean, sd and n, the confidence interval of (B - A) / A at\n"
	"level 1 - alpha (with run order as a covariate when the results' timestamps give\n"
	"it; a rank interval for tied values), the ratio of means, a p-value, and a\n"
	"verdict read off the interval: faster/slower when it lies beyond +-noise,\n"
	"negligible within, else inconclusive with the runs likely needed; then each\n"
	"run's value in run order, what differs between the sides, and warnings.\n"
	"Results of several tests (a preset's, any stonewalled job file's) also get one\n"
	"row per test, the tests paired by job name.\n"
	"options:\n"
	"  --window=all|steady|auto  whole runs, or each run's steady tail (iotrial results:\n"
	"                       from the steady start to the end); auto (default) uses the\n"
	"                       tails when every result has one; the output says which\n"
	"  --output-format=html      a self-contained HTML report with charts instead\n"
	"  -o FILE, --output=FILE    write the report to FILE (whole or not at all)\n"
	"  --baseline=SIDE, --candidate=SIDE  a side from the results history\n"
	"                       (history:LABEL, history:40-44, history:last:5; see iotrial\n"
	"                       history --help) or files; the other side is the files given.\n"
	"                       The history refuses runs whose device or workload differ\n"
	"                       (--allow-differences compares anyway); --history=FILE\n";

static const char exits[] =
	"exit codes: 0 compared, 2 bad option or result file, 6 regression\n"
	"(with --fail-on-regression), 7 output could not be written.\n";

struct compare_args {
	char **a, **b;
	size_t na, nb;
	int saw_sep;
	int json;
	int html;		/* --output-format=html */
	const char *out;	/* -o/--output FILE; NULL: stdout */
	struct compare_opts opts;
	enum resultwindow window;
	struct resultwindow_note wn;	/* which figures were compared (resultwindow.h) */
	struct history_hooks_sides hist;	/* --baseline=history:LABEL ... (history_hooks.c) */
	struct trialdir td;		/* the ab trial the files come from, if any */
	int from_td;			/* `compare DIR` of a trial: its sides are td's */
	char note[1024], trial_of[64];	/* trialdir_apply: why it ended early, what it is about */
};

/* "--name=value" or "--name value"; returns argv entries used, 0 if not ours, -1 on error. */
static int take_option(int argc, char **argv, int i, struct compare_args *ca, struct err *e)
{
	char name[64];
	const char *eq = strchr(argv[i], '='), *value;
	size_t len = eq ? (size_t)(eq - argv[i] - 2) : strlen(argv[i] + 2);
	int used = 1, ret;

	if (len >= sizeof(name))
		return 0;
	memcpy(name, argv[i] + 2, len);
	name[len] = 0;
	value = eq ? eq + 1 : NULL;
	if (!eq && i + 1 < argc) {
		value = argv[i + 1];
		used = 2;
	}
	/* the HTML report and the output file are the CLI's, not compare's */
	if (!strcmp(name, "output-format") && value && !strcmp(value, "html")) {
		ca->html = 1;
		return used;
	}
	if (!strcmp(name, "output") && value) {
		ca->out = value;
		return used;
	}
	if (!strcmp(name, "window")) {
		if (!eq)	/* never a following argument: it may be a file */
			return err_set(e, -1, EXIT_USAGE, "compare: --window needs a value: "
				       "--window=all|steady|auto"), -1;
		return resultwindow_parse(value, &ca->window, e) ? -1 : 1;
	}
	ret = history_hooks_compare_option(name, value, &ca->hist, e);
	if (ret)
		return ret < 0 ? -1 : ret == 2 || eq ? 1 : used;	/* 2: a flag */
	ret = compare_parse_option(name, value, &ca->opts, &ca->json, e);
	if (ret < 0)
		return -1;
	return ret ? used : 0;
}

static int parse_args(int argc, char **argv, struct compare_args *ca, struct err *e)
{
	int i, used;

	compare_opts_init(&ca->opts);
	ca->a = calloc((size_t)argc, sizeof(*ca->a));
	ca->b = calloc((size_t)argc, sizeof(*ca->b));
	if (!ca->a || !ca->b)
		return err_set(e, -1, EXIT_INTERNAL, "out of memory");
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--") && !ca->saw_sep) {
			ca->saw_sep = 1;
			continue;
		}
		if (!ca->saw_sep && !strcmp(argv[i], "-o")) {
			if (i + 1 >= argc)
				return err_set(e, -1, EXIT_USAGE, "compare: -o needs a file name");
			ca->out = argv[++i];
			continue;
		}
		if (!ca->saw_sep && !strncmp(argv[i], "--", 2)) {
			used = take_option(argc, argv, i, ca, e);
			if (used < 0)
				return -1;
			if (!used)
				return err_set(e, -1, EXIT_USAGE, "compare: unknown option %s "
					       "(see iotrial compare --help)", argv[i]);
			i += used - 1;
			continue;
		}
		if (ca->saw_sep)
			ca->b[ca->nb++] = argv[i];
		else
			ca->a[ca->na++] = argv[i];
	}
	if (ca->hist.used && ca->saw_sep)
		return err_set(e, -1, EXIT_USAGE, "compare: with --baseline or --candidate, the "
			       "files are the other side: no -- between them");
	if (ca->hist.used)	/* the files are the side not given (history_hooks.c) */
		return 0;
	/* an ab trial directory alone: its own A and B runs, from its manifest */
	if (!ca->saw_sep && ca->na == 1 && trialdir_is(ca->a[0])) {
		if (trialdir_load(ca->a[0], &ca->td, e))
			return -1;
		ca->from_td = 1;
		return 0;
	}
	if (!ca->saw_sep && ca->na == 2) {
		ca->b[ca->nb++] = ca->a[--ca->na];
	} else if (!ca->saw_sep) {
		return err_set(e, -1, EXIT_USAGE, "compare: give two result files, separate the "
			       "sides with --, or give an ab trial directory (one with manifest.json): "
			       "iotrial compare A... -- B...");
	}
	if (!ca->na || !ca->nb)
		return err_set(e, -1, EXIT_USAGE, "compare: side %s is empty", ca->na ? "B" : "A");
	return 0;
}

static int print_report(const struct compare_report *r, const struct compare_suite *suite,
			int json, const struct resultwindow_note *wn, FILE *f)
{
	int ret = 0;

	if (json) {
		json_t *o = compare_json(r);

		/* suites: one entry per test, paired by job name (compare_suite.h) */
		if (o && suite->nr)
			json_object_set_new(o, "tests", compare_suite_json(suite));
		if (o && json_object_set_new(o, "window", resultwindow_note_json(wn)))
			ret = -1;

		if (!o || json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10)) ||
		    fputc('\n', f) == EOF)
			ret = -1;
		json_decref(o);
	} else {
		ret = compare_write_text(r, f);
		if (!ret)
			ret = compare_suite_write_text(suite, f);
		if (!ret && fprintf(f, "%s\n%s%s", wn->what, wn->warning, wn->warning[0] ? "\n" : "") < 0)
			ret = -1;
	}
	if (fflush(f) || ferror(f))
		ret = -1;
	return ret;
}

/* The HTML page: the compare JSON plus every run's own result, for the charts. */
static int print_html(const struct compare_report *r, struct resultread **a, size_t na,
		      struct resultread **b, size_t nb, FILE *f, struct err *e)
{
	struct report_html_run *runs;
	size_t n;
	json_t *o;
	int ret;

	if (report_html_runs_load(a, na, b, nb, &runs, &n, e)) {
		report_html_runs_free(runs, n);
		return -1;
	}
	o = compare_json(r);
	ret = o ? report_html_compare(f, o, runs, n, NULL, NULL) : -1;
	json_decref(o);
	report_html_runs_free(runs, n);
	return ret;
}

/* Write the report to -o FILE (or stdout), whole or not at all. */
static int write_report(const struct compare_args *ca, const struct compare_report *r,
			const struct compare_suite *suite,
			struct resultread **a, size_t na, struct resultread **b, size_t nb,
			struct err *e)
{
	struct outfile of;
	int ret;

	if (outfile_open(&of, ca->out, e))
		return -1;
	ret = ca->html ? print_html(r, a, na, b, nb, of.f, e) : print_report(r, suite, ca->json, &ca->wn, of.f);
	if (ret) {
		outfile_abort(&of);
		return err_set(e, -1, EXIT_OUTPUT, "compare: writing the report failed");
	}
	return outfile_commit(&of, e);
}

/*
 * Results in an ab trial directory: ordered by the trial's clock; a trial
 * that ended early is said (trial_incomplete); a trial across hosts brings
 * what it is about (--trial-of) unless given.  Always 0.
 */
static int trial_apply(struct compare_args *ca, struct resultread **a, size_t na,
		       struct resultread **b, size_t nb)
{
	char note[sizeof(ca->note)], of[sizeof(ca->trial_of)];

	trialdir_apply(a, na, ca->note, sizeof(ca->note), ca->trial_of, sizeof(ca->trial_of));
	trialdir_apply(b, nb, note, sizeof(note), of, sizeof(of));
	if (!ca->note[0])
		memcpy(ca->note, note, sizeof(note));
	if (!ca->trial_of[0])
		memcpy(ca->trial_of, of, sizeof(of));
	if (ca->note[0])
		ca->opts.incomplete = ca->note;
	if (ca->trial_of[0] && !ca->opts.trial_of)
		ca->opts.trial_of = ca->trial_of;
	return 0;
}

/*
 * The runs of one ab trial (a trial directory, or files that are all its
 * runs): the option keys its --a/--b set are the change under trial, which
 * compare expects to differ rather than warn about ([job_differs]).
 */
static int expect_trial_keys(struct compare_args *ca, struct err *e)
{
	char **all;
	size_t i, n = 0;
	int r;

	if (ca->hist.used || ca->opts.nr_expected)
		return 0;
	if (!ca->from_td) {
		all = calloc(ca->na + ca->nb + 1, sizeof(*all));
		if (!all)
			return err_set(e, -1, EXIT_INTERNAL, "out of memory");
		for (i = 0; i < ca->na; i++)
			all[n++] = ca->a[i];
		for (i = 0; i < ca->nb; i++)
			all[n++] = ca->b[i];
		r = trialdir_of_files(all, n, &ca->td, e);
		free(all);
		if (r <= 0)
			return r;
	}
	ca->opts.expected = (const char *const *)ca->td.keys;
	ca->opts.nr_expected = ca->td.nkeys;
	return 0;
}

static int wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args ca = { 0 };
	struct resultread **a = NULL, **b = NULL;
	struct compare_report rep;
	struct compare_suite suite = { 0 };
	size_t na = 0, nb = 0, i;
	struct err e;
	int rc = EXIT_OK;

	err_clear(&e);
	if (wants_help(argc, argv)) {
		fputs(usage, stdout);
		fputs(compare_options_help, stdout);
		fputs(exits, stdout);
		return EXIT_OK;
	}
	if (parse_args(argc, argv, &ca, &e) || expect_trial_keys(&ca, &e) ||
	    (ca.hist.used ? history_hooks_compare_load(&ca.hist, ca.a, ca.na, &ca.opts, &a, &na, &b,
						     &nb, &e) :
	     resultread_load_set(ca.from_td ? ca.td.a : ca.a, ca.from_td ? ca.td.na : ca.na, &a,
				 &na, &e) ||
	     resultread_load_set(ca.from_td ? ca.td.b : ca.b, ca.from_td ? ca.td.nb : ca.nb, &b,
				 &nb, &e)) ||
	    trial_apply(&ca, a, na, b, nb) ||
	    resultwindow_apply(ca.window, a, na, b, nb, &ca.wn, &e) ||
	    compare_run(a, na, b, nb, &ca.opts, &rep, &e)) {
		fprintf(stderr, "iotrial: error: %s\n", e.msg);
		rc = e.exit_code ? e.exit_code : EXIT_INTERNAL;
		goto out;
	}
	if (compare_suite_run(a, na, b, nb, &ca.opts, &suite, &e)) {
		compare_report_free(&rep);
		fprintf(stderr, "iotrial: error: %s\n", e.msg);
		rc = e.exit_code ? e.exit_code : EXIT_INTERNAL;
		goto out;
	}
	for (i = 0; i < suite.nr; i++)
		rep.regressed |= suite.rows[i].m.regression;
	if (write_report(&ca, &rep, &suite, a, na, b, nb, &e)) {
		fprintf(stderr, "iotrial: error: %s\n", e.msg);
		rc = e.exit_code ? e.exit_code : EXIT_OUTPUT;
	} else if (rep.regressed) {
		rc = EXIT_REGRESSION;
	}
	compare_report_free(&rep);
	compare_suite_free(&suite);
out:
	resultread_set_free(a, na);
	resultread_set_free(b, nb);
	free(ca.a);
	free(ca.b);
	trialdir_free(&ca.td);
	return rc;
}
