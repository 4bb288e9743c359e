/*
 * cmd_report: `iotrial report RESULT.json... [-o FILE.html]`.  Loads every
 * result file (iotrial's or fio's json/json+), refusing the first bad one
 * before anything is written, and writes one self-contained HTML page
 * (report_html.h) to FILE or stdout, whole or not at all (outfile.h).
 * A sweep's document (`iotrial sweep`'s JSON, or an ab sweep's) is reported
 * alone, as text (the sweep's own table) or as its page (report_sweep.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>	/* stat: a sweep's directory */
#include <unistd.h>	/* access */
#include "cmd.h"
#include "lib/err.h"
#include "lib/outfile.h"
#include "report/report_html.h"
#include "report/report_sweep.h"
#include "result/resultread.h"	/* resultread_load_json */

static const char usage[] =
	"usage: iotrial report [-o FILE.html] RESULT.json...\n"
	"Write an HTML report of result files (iotrial's JSON, or fio's json/json+):\n"
	"per job IOPS, bandwidth and latency over time with the ramp and steady window,\n"
	"latency by percentile and histogram, device queue depth and latency, options,\n"
	"CPU, environment and plausibility warnings.  One file: inline CSS and SVG,\n"
	"no scripts, nothing fetched.\n"
	"A sweep's document (iotrial sweep's JSON, DIR/sweep.json or DIR, an ab\n"
	"sweep's too) is reported alone: its step table, knee and SLO capacity\n"
	"with its interval as text (as the sweep printed them), or its page with\n"
	"the chart.\n"
	"  -o FILE, --output=FILE  write the report to FILE (default: stdout)\n"
	"  --output-format=text|html  a sweep's report as text (its default, unless\n"
	"                   FILE ends in .html) or as the page; a run's is the page\n"
	"  --html=FILE      also the page, to FILE (a sweep's; a run's: as -o)\n"
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

/* A sweep's directory stands for its document, as compare takes it; else @arg. */
static const char *doc_path(const char *arg, char *buf, size_t sz)
{
	struct stat st;

	if (stat(arg, &st) || !S_ISDIR(st.st_mode))
		return arg;
	snprintf(buf, sz, "%s/%s", arg, RESULTREAD_SWEEP_FILE);
	return access(buf, F_OK) ? arg : buf;
}

/* Does @path name an HTML page (.html, .htm)? */
static int html_name(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;

	return dot && (!strcmp(dot, ".html") || !strcmp(dot, ".htm"));
}

/* @doc (a sweep's document) as text or as the page into @out (stdout: NULL), whole or not at all. */
static int sweep_report(const char *out, const json_t *doc, const char *name, int html,
			struct err *e)
{
	struct outfile of;

	if (outfile_open(&of, out, e))
		return -1;
	if (report_sweep_write(of.f, doc, name, html, e)) {
		outfile_abort(&of);
		return -1;
	}
	return outfile_commit(&of, e);
}

/*
 * A sweep's document @path, already loaded as @doc: its report (@fmt:
 * "text", "html" or NULL: text unless @out is an HTML page's name) to @out,
 * and with @page its page there too.  The document is read whole before
 * anything is written (report_sweep_write), so a broken one leaves no file.
 */
static int report_sweep_file(const char *path, const json_t *doc, const char *out,
			     const char *fmt, const char *page, struct err *e)
{
	int html = fmt ? !strcmp(fmt, "html") : html_name(out);

	if (sweep_report(out, doc, path, html, e))
		return -1;
	return page ? sweep_report(page, doc, path, 1, e) : 0;
}

int cmd_report(int argc, char **argv)
{
	char **files = calloc((size_t)argc, sizeof(*files));
	json_t **roots = calloc((size_t)argc, sizeof(*roots));
	const char *out = NULL, *fmt = NULL, *page = NULL;
	json_t *doc = NULL;
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
		} else if (!strncmp(argv[a], "--output-format=", 16)) {
			fmt = argv[a] + 16;
			if (strcmp(fmt, "text") && strcmp(fmt, "html")) {
				err_set(&e, -1, EXIT_USAGE, "report: --output-format=%s: want text or "
					"html", fmt);
				goto fail;
			}
		} else if (!strncmp(argv[a], "--html=", 7) && argv[a][7]) {
			page = argv[a] + 7;
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
	for (i = 0; i < n; i++) {
		char buf[4200];
		const char *path = doc_path(files[i], buf, sizeof(buf));

		if (resultread_load_json(path, &doc, &e))
			goto fail;
		if (report_sweep_is(doc) && n > 1) {
			err_set(&e, -1, EXIT_USAGE, "report: %s is a sweep's document: it is reported "
				"alone (one file)", path);
			goto fail;
		}
		if (report_sweep_is(doc)) {
			if (report_sweep_file(path, doc, out, fmt, page, &e))
				goto fail;
			goto out;
		}
		json_decref(doc);
		doc = NULL;
	}
	if (fmt && !strcmp(fmt, "text")) {
		err_set(&e, -1, EXIT_USAGE, "report: --output-format=text is a sweep's report; a "
			"run's is the HTML page (its text is the run's own output)");
		goto fail;
	}
	if (page && out) {
		err_set(&e, -1, EXIT_USAGE, "report: a run's report is one page: give -o FILE or "
			"--html=FILE, not both");
		goto fail;
	}
	for (i = 0; i < n; i++)
		if (report_html_load(files[i], &roots[i], &e))
			goto fail;
	if (write_report(out ? out : page, roots, files, n, &e))
		goto fail;
	goto out;
fail:
	rc = fail(&e);
out:
	json_decref(doc);
	for (i = 0; roots && i < n; i++)
		json_decref(roots[i]);
	free(roots);
	free(files);
	return rc;
}
