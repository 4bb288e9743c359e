/*
 * libFuzzer harness: the command-line reader (cmdline_parse), which also
 * validates every job.  The input is split into arguments at NUL bytes and
 * newlines.  Arguments that do not start with "--" would be job files read by
 * name (the machine's files, or /dev/stdin which blocks): they are dropped;
 * the job-file reader has its own harness.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "parse/cmdline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 1], *buf, *p, *end;
	struct cmdline cl;
	struct err e;
	int argc = 1, r;

	if (size > 8192)
		return 0;
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[0] = "iotrial";
	for (p = buf, end = buf + size; p <= end && argc < MAX_ARGS; p += strlen(p) + 1) {
		char *nl = strchr(p, '\n');

		if (nl)
			*nl = '\0';
		if (!strncmp(p, "--", 2))
			argv[argc++] = p;
	}
	argv[argc] = NULL;
	err_clear(&e);
	r = cmdline_parse(argc, argv, &cl, &e);
	if (r > 0 || (r < 0 && (!e.msg[0] || strchr(e.msg, '\n'))))
		abort();	/* a failure says why, on one line */
	cmdline_free(&cl);
	free(buf);
	return 0;
}
