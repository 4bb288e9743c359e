/*
 * libFuzzer harness: the job-file reader (jobfile_parse_buf) and the option
 * validation every parsed job goes through, on any bytes.  Inputs with an
 * include line are skipped: an include opens a file by name, which would let
 * the fuzzer read the machine's files (or block on /dev/stdin); includes are
 * covered by tests/unit/parse/test_jobfile.c.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "parse/jobfile.h"
#include "parse/opt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jobfile_out out;
	struct job defaults;
	struct err e;
	int r;

	if (size > 1 << 16 || memmem(data, size, "include", 7))
		return 0;
	memset(&out, 0, sizeof(out));
	job_init(&defaults);
	err_clear(&e);
	r = jobfile_parse_buf((const char *)data, size, "/nonexistent/fuzz.fio", &defaults, NULL, 0,
			      &out, &e);
	if (r > 0 || (r < 0 && (!e.msg[0] || strchr(e.msg, '\n'))))
		abort();	/* a failure says why, on one line */
	for (size_t i = 0; !r && i < out.jobs_nr; i++) {
		err_clear(&e);
		if (opt_job_validate(&out.jobs[i], &e) < 0 && (!e.msg[0] || strchr(e.msg, '\n')))
			abort();
	}
	jobfile_out_free(&out);
	job_free(&defaults);
	return 0;
}
