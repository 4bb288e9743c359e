/*
 * cmd_check: `iotrial check RESULT...`: the plausibility checks (plausibility.h) on
 * saved result files, iotrial's or fio's, in text or JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/plausibility.h"
#include "cmd.h"
#include "lib/err.h"
#include "result/resultread.h"
#include "lib/utf8.h"

static const char usage[] =
	"usage: iotrial check [--output-format=text|json] RESULT...\n"
	"Run the plausibility checks on result files (iotrial's JSON, or fio 3.x\n"
	"--output-format=json/json+) or directories of *.json files:\n"
	"  littles_law   IOPS x mean latency vs numjobs x iodepth (< 75% or > 110%)\n"
	"  mix           read share vs rwmixread (50% when not set), beyond 5 points\n"
	"  page_cache    direct=0, mean read latency < 5 us, working set < RAM\n"
	"  short_run     under 10 s measured;  few_samples  under 10 interval samples\n"
	"  interval_cv   IOPS CV across intervals above 10%\n"
	"  steady_state  a steady-state criterion not attained\n"
	"  steady_lost   steady state reached, then lost (a later round left the band)\n"
	"  clock         TSC timing without constant_tsc/nonstop_tsc\n"
	"  bottleneck    device, tool, rate_limit, page_cache or unknown, from\n"
	"                disk_util: device depth vs requested, clat vs device latency\n"
	"  no_io         the run did no I/O at all (compare counts it as failed)\n"
	"  job_error, partial\n"
	"exit codes: 0 checked (warnings or not), 2 bad option or result file,\n"
	"7 output could not be written.\n";

static int print_text(struct resultread *const *v, const struct plausibility_list *l, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		size_t warn = 0;

		for (k = 0; k < l[i].n; k++)	/* an info is not a warning: counted apart */
			warn += l[i].v[k].sev == PLAUSIBILITY_WARN;
		printf("%s (%s, %zu job%s): %zu warning%s", v[i]->path, v[i]->version,
		       v[i]->nr_jobs, v[i]->nr_jobs == 1 ? "" : "s", warn, warn == 1 ? "" : "s");
		if (l[i].n > warn)
			printf(", %zu info%s", l[i].n - warn, l[i].n - warn == 1 ? "" : "s");
		putchar('\n');
		for (k = 0; k < l[i].n; k++)
			printf("  %-7s [%s] %s\n", plausibility_sev_name(l[i].v[k].sev),
			       l[i].v[k].id, l[i].v[k].msg);
	}
	return 0;
}

static int print_json(struct resultread *const *v, const struct plausibility_list *l, size_t n)
{
	json_t *arr = json_array(), *o;
	size_t i;
	int ret = 0;

	for (i = 0; arr && i < n; i++)
		json_array_append_new(arr, json_pack("{s:o, s:s, s:o}", "file", utf8_json(v[i]->path),
				      "version", v[i]->version,
				      "warnings", plausibility_list_json(&l[i])));
	o = json_pack("{s:o}", "results", arr);
	if (!o || json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) ||
	    fputc('\n', stdout) == EOF)
		ret = -1;
	json_decref(o);
	return ret;
}

static int parse(int argc, char **argv, char **files, size_t *n, int *json, struct err *e)
{
	int i, only_files = 0;

	*n = 0;
	for (i = 1; i < argc; i++) {
		if (!only_files && !strcmp(argv[i], "--")) {
			only_files = 1;
		} else if (!only_files && !strcmp(argv[i], "--output-format=json")) {
			*json = 1;
		} else if (!only_files && !strcmp(argv[i], "--output-format=text")) {
			*json = 0;
		} else if (!only_files && !strcmp(argv[i], "--output-format") && i + 1 < argc) {
			*json = !strcmp(argv[++i], "json");
			if (!*json && strcmp(argv[i], "text"))
				return err_set(e, -1, EXIT_USAGE, "--output-format=%s: expected "
					       "text or json", argv[i]);
		} else if (!only_files && !strncmp(argv[i], "--", 2)) {
			return err_set(e, -1, EXIT_USAGE, "check: unknown option %s "
				       "(see iotrial check --help)", argv[i]);
		} else {
			files[(*n)++] = argv[i];
		}
	}
	if (!*n)
		return err_set(e, -1, EXIT_USAGE, "check: give one or more result files");
	return 0;
}

int cmd_check(int argc, char **argv)
{
	char **files = calloc((size_t)argc + 1, sizeof(*files));
	struct resultread **v = NULL;
	struct plausibility_list *lists = NULL;
	size_t nfiles = 0, n = 0, i;
	int json = 0, rc = EXIT_OK;
	struct err e;

	err_clear(&e);
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage, stdout);
		free(files);
		return EXIT_OK;
	}
	if (!files || parse(argc, argv, files, &nfiles, &json, &e) ||
	    resultread_load_set(files, nfiles, &v, &n, &e)) {
		fprintf(stderr, "iotrial: error: %s\n", files ? e.msg : "out of memory");
		free(files);
		return files && e.exit_code ? e.exit_code : EXIT_INTERNAL;
	}
	lists = calloc(n, sizeof(*lists));
	for (i = 0; lists && i < n; i++)
		if (plausibility_check(v[i], &lists[i]))
			break;
	if (!lists || i < n) {
		fprintf(stderr, "iotrial: error: out of memory\n");
		rc = EXIT_INTERNAL;
	} else if ((json ? print_json(v, lists, n) : print_text(v, lists, n)) ||
		   fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "iotrial: error: check: writing the report failed\n");
		rc = EXIT_OUTPUT;
	}
	for (i = 0; lists && i < n; i++)
		plausibility_list_free(&lists[i]);
	free(lists);
	resultread_set_free(v, n);
	free(files);
	return rc;
}
