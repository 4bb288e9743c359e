/*
 * cmd_report: `iotrial report RESULT.json... [-o FILE.html]`.  Loads every
 * result file (iotrial's or fio's json/json+), refusing the first bad one
 * before anything is written, and writes one self-contained HTML page
 * (report_html.h) to FILE or stdout, whole or not at all (outfile.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "lib/err.h"
#include "lib/outfile.h"
#include "report/report_html.h"

static const char usage[] =
	"usage: iotrial report [-o FILE.html] RESULT.json...\n"
	"Write an HTML report of result files (iotrial's JSON, or fio's json/json+):\n"
	"per job IOPS, bandwidth and latency over time with the ramp and steady window,\n"
	"latency by percentile and histogram, device queue depth and latency, options,\n"
	"CPU, environment and plausibility warnings.  One file: inline CSS and SVG,\n"
	"no scripts, nothing fetched.\n"
	"  -o FILE, --output=FILE  write the page to FILE (default: stdout)\n"
	"exit codes: 0 written, 2 bad option or result file, 7 output not written.\n";

static int fail(struct err *e)
{
	fprintf(stderr, "iotrial: error: %s\n", e->msg);
	return e->exit_code ? e->exit_code : EXIT_INTERNAL;
}

static int write_report(const char *out, json_t **roots, char **names, size_t n, struct err *e)
{
	struct outfile of;

	if (outfile_open(&of, out, e))
		return -1;
	if (report_html_run(of.f, roots, (const char *const *)names, n)) {
		outfile_abort(&of);
		return err_set(e, -1, EXIT_OUTPUT, "report: writing %s failed", out ? out : "stdout");
	}
	return outfile_commit(&of, e);
}

int cmd_report(int argc, char **argv)
{
	char **files = calloc((size_t)argc, sizeof(*files));
	json_t **roots = calloc((size_t)argc, sizeof(*roots));
	const char *out = NULL;
	size_t n = 0, i;
	struct err e;
	int a, rc = EXIT_OK;

	err_clear(&e);
	if (!files || !roots) {
		err_set(&e, -1, EXIT_INTERNAL, "out of memory");
		goto fail;
	}
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
			fputs(usage, stdout);
			goto out;
		} else if (!strcmp(argv[a], "-o") || !strcmp(argv[a], "--output")) {
			if (a + 1 >= argc) {
				err_set(&e, -1, EXIT_USAGE, "report: %s needs a file name", argv[a]);
				goto fail;
			}
			out = argv[++a];
		} else if (!strncmp(argv[a], "--output=", 9)) {
			out = argv[a] + 9;
		} else if (argv[a][0] == '-' && argv[a][1]) {
			err_set(&e, -1, EXIT_USAGE, "report: unknown option %s (see iotrial report "
				"--help)", argv[a]);
			goto fail;
		} else {
			files[n++] = argv[a];
		}
	}
	if (!n) {
		err_set(&e, -1, EXIT_USAGE, "report: give one or more result files "
			"(iotrial report RESULT.json... [-o FILE.html])");
		goto fail;
	}
	for (i = 0; i < n; i++)
		if (report_html_load(files[i], &roots[i], &e))
			goto fail;
	if (write_report(out, roots, files, n, &e))
		goto fail;
	goto out;
fail:
	rc = fail(&e);
out:
	for (i = 0; roots && i < n; i++)
		json_decref(roots[i]);
	free(roots);
	free(files);
	return rc;
}
