/*
 * libFuzzer harness: compare's option parsing and the comparison itself.
 * The input is split at NUL bytes: the first part holds option lines
 * "name=value" (compare_parse_option: --noise, --alpha, --bootstrap-seed,
 * ...), each later part a result file, alternately side A and side B.
 * Every accepted option set and pair of sides must compare without a crash,
 * undefined behaviour or leak, and the report must render as JSON and text.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trial/compare.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FILES 8

/* Apply each "name=value" line of @opts; nonzero to skip the input. */
static int apply_options(char *opts, struct compare_opts *o)
{
	char *save = NULL, *line;
	int json = 0;

	for (line = strtok_r(opts, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');
		struct err e;
		int r;

		if (!eq)
			continue;
		*eq = '\0';
		err_clear(&e);
		r = compare_parse_option(line, eq + 1, o, &json, &e);
		if (r < 0 && (!e.msg[0] || strchr(e.msg, '\n')))
			abort();	/* a refusal says why, on one line */
		if (r < 0)
			return 1;
	}
	if (o->boot_iters > 50)
		o->boot_iters = 50;	/* the fuzzer wants speed, not precision */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct resultread *side[2][MAX_FILES];
	size_t nr[2] = { 0, 0 }, part = 0;
	struct compare_opts o;
	struct compare_report rep;
	char *buf, *p, *end;
	struct err e;

	if (size > 1 << 18)
		return 0;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	compare_opts_init(&o);
	end = buf + size;
	p = buf;
	if (apply_options(p, &o))
		goto out;
	for (p += strlen(p) + 1; p < end; p += strlen(p) + 1, part++) {
		int s = part % 2;
		struct resultread *r = NULL;

		if (nr[s] == MAX_FILES)
			break;
		err_clear(&e);
		if (!resultread_parse(p, strlen(p), s ? "b.json" : "a.json", &r, &e))
			side[s][nr[s]++] = r;
	}
	if (nr[0] && nr[1]) {
		memset(&rep, 0, sizeof(rep));
		err_clear(&e);
		if (!compare_run(side[0], nr[0], side[1], nr[1], &o, &rep, &e)) {
			json_decref(compare_json(&rep));
			if (devnull)
				compare_write_text(&rep, devnull);
			compare_report_free(&rep);
		}
	}
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < nr[s]; i++)
			resultread_free(side[s][i]);
out:
	free(buf);
	return 0;
}
