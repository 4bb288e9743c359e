/*
 * cmd_preset: `iotrial preset list` and `iotrial preset show NAME [options]`.
 * show prints the preset as a fio job file; with fio options after the name
 * it prints the file `--preset=NAME options` would run (the options appended
 * to every job), checked by the same parser first, so what is printed can be
 * saved, edited and run as a job file and gives the same jobs.
 */
#include <stdio.h>	/* printf, fprintf, fputs */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* strcmp */

#include "cmd.h"
#include "parse/cmdline.h"
#include "lib/err.h"
#include "parse/preset.h"

static const char preset_usage[] =
	"usage: iotrial preset list\n"
	"       iotrial preset show NAME [fio options]\n"
	"list: the built-in job sets, one per line (name, what it runs).\n"
	"show: the preset as a fio job file on stdout; fio options after NAME are\n"
	"appended to every job, as --preset=NAME with the same options would run it.\n"
	"exit codes: 0 done, 2 unknown preset or bad option.\n";

static int preset_list(void)
{
	const struct preset *p;
	size_t nr, i;

	p = preset_all(&nr);
	for (i = 0; i < nr; i++)
		printf("%-11s %s\n", p[i].name, p[i].what);
	return EXIT_OK;
}

/* Parse "--preset=NAME options --parse-only" as a run would, and print its text. */
static int preset_show(int argc, char **argv)
{
	char **av = calloc((size_t)argc + 3, sizeof(*av));
	char *arg = NULL;
	struct cmdline cl;
	struct err e;
	int n = 0, i, rc = EXIT_OK;

	err_clear(&e);
	if (!av || asprintf(&arg, "--preset=%s", argv[1]) < 0) {
		free(av);
		fprintf(stderr, "iotrial: error: out of memory\n");
		return EXIT_INTERNAL;
	}
	av[n++] = "iotrial";
	av[n++] = arg;
	for (i = 2; i < argc; i++)
		av[n++] = argv[i];
	av[n++] = "--parse-only";
	if (cmdline_parse(n, av, &cl, &e)) {
		fprintf(stderr, "iotrial: error: %s\n", e.msg);
		rc = e.exit_code ? e.exit_code : EXIT_INTERNAL;
	} else if (!cl.preset_text) {
		/* --help or --version stopped parsing before the preset was read */
		fputs(preset_usage, stderr);
		rc = EXIT_USAGE;
	} else {
		fputs(cl.preset_text, stdout);
	}
	cmdline_free(&cl);
	free(arg);
	free(av);
	return rc;
}

int cmd_preset(int argc, char **argv)
{
	const struct preset *p;
	struct err e;

	err_clear(&e);
	if (argc == 2 && !strcmp(argv[1], "list"))
		return preset_list();
	if (argc >= 3 && !strcmp(argv[1], "show")) {
		if (preset_lookup(argv[2], &p, &e)) {
			fprintf(stderr, "iotrial: error: %s\n", e.msg);
			return EXIT_USAGE;
		}
		return preset_show(argc - 1, argv + 1);
	}
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(preset_usage, stdout);
		return EXIT_OK;
	}
	fputs(preset_usage, stderr);
	return EXIT_USAGE;
}
