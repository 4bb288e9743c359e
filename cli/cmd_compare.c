/*
 * cmd_compare: `iotrial compare A... [-- B...]`.  Turns argv into two sets
 * of result files and compare options, runs compare_run(), prints the text
 * table or the JSON object, and maps a regression to exit code 6.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "compare.h"
#include "err.h"
#include "resultwindow.h"

static const char usage[] =
	"usage: iotrial compare [options] A.json B.json\n"
	"       iotrial compare [options] A... -- B...\n"
	"Compare result files (iotrial's JSON, or fio 3.x --output-format=json/json+).\n"
	"Each side is one or more files or directories of *.json files, one file per run;\n"
	"with exactly two files the first is A and the second B.  For every metric it\n"
	"prints each side's mean, sd and n, the difference (B - A) / A with its 95%\n"
	"confidence interval (Fieller), the p-value of Welch's t-test (and Mann-Whitney U),\n"
	"and a verdict; then what differs between the sides and plausibility warnings.\n"
	"options:\n"
	"  --window=all|steady|auto  whole runs, or each run's steady tail (iotrial results:\n"
	"                       from the steady start to the end); auto (default) uses the\n"
	"                       tails when every result has one; the output says which\n";

static const char exits[] =
	"exit codes: 0 compared, 2 bad option or result file, 6 regression\n"
	"(with --fail-on-regression), 7 output could not be written.\n";

struct compare_args {
	char **a, **b;
	size_t na, nb;
	int saw_sep;
	int json;
	struct compare_opts opts;
	enum resultwindow window;
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
	if (!strcmp(name, "window")) {
		if (!eq)	/* never a following argument: it may be a file */
			return err_set(e, -1, EXIT_USAGE, "compare: --window needs a value: "
				       "--window=all|steady|auto"), -1;
		return resultwindow_parse(value, &ca->window, e) ? -1 : 1;
	}
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
	if (!ca->saw_sep && ca->na == 2) {
		ca->b[ca->nb++] = ca->a[--ca->na];
	} else if (!ca->saw_sep) {
		return err_set(e, -1, EXIT_USAGE, "compare: give two result files, or separate "
			       "the sides with --: iotrial compare A... -- B...");
	}
	if (!ca->na || !ca->nb)
		return err_set(e, -1, EXIT_USAGE, "compare: side %s is empty", ca->na ? "B" : "A");
	return 0;
}

static int print_report(const struct compare_report *r, int json,
			const struct resultwindow_note *wn)
{
	int ret = 0;

	if (json) {
		json_t *o = compare_json(r);

		if (o && json_object_set_new(o, "window", resultwindow_note_json(wn)))
			ret = -1;
		if (!o || json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10)) ||
		    fputc('\n', stdout) == EOF)
			ret = -1;
		json_decref(o);
	} else {
		ret = compare_write_text(r, stdout);
		printf("%s\n%s%s", wn->what, wn->warning, wn->warning[0] ? "\n" : "");
	}
	if (fflush(stdout) || ferror(stdout))
		ret = -1;
	return ret;
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
	struct resultwindow_note wn;
	size_t na = 0, nb = 0;
	struct err e;
	int rc = EXIT_OK;

	err_clear(&e);
	if (wants_help(argc, argv)) {
		fputs(usage, stdout);
		fputs(compare_options_help, stdout);
		fputs(exits, stdout);
		return EXIT_OK;
	}
	if (parse_args(argc, argv, &ca, &e) ||
	    resultread_load_set(ca.a, ca.na, &a, &na, &e) ||
	    resultread_load_set(ca.b, ca.nb, &b, &nb, &e) ||
	    resultwindow_apply(ca.window, a, na, b, nb, &wn, &e) ||
	    compare_run(a, na, b, nb, &ca.opts, &rep, &e)) {
		fprintf(stderr, "iotrial: error: %s\n", e.msg);
		rc = e.exit_code ? e.exit_code : EXIT_INTERNAL;
		goto out;
	}
	if (print_report(&rep, ca.json, &wn)) {
		fprintf(stderr, "iotrial: error: compare: writing the report failed\n");
		rc = EXIT_OUTPUT;
	} else if (rep.regressed) {
		rc = EXIT_REGRESSION;
	}
	compare_report_free(&rep);
out:
	resultread_set_free(a, na);
	resultread_set_free(b, nb);
	free(ca.a);
	free(ca.b);
	return rc;
}
