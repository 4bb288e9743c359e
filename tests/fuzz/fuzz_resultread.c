/*
 * libFuzzer harness: the result-file reader (resultread_parse) on any bytes,
 * then the plausibility checks on what it accepted (what `iotrial check`
 * does with a file).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/plausibility.h"
#include "result/resultread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct resultread *r = NULL;
	struct plausibility_list cl;
	struct err e;
	int ret;

	if (size > 1 << 20)
		return 0;
	err_clear(&e);
	ret = resultread_parse((const char *)data, size, "fuzz.json", &r, &e);
	if (ret > 0 || (ret < 0 && (r || !e.msg[0] || strchr(e.msg, '\n'))))
		abort();	/* a refusal says why, on one line, and returns nothing */
	if (!ret) {
		json_t *j;

		plausibility_list_init(&cl);
		plausibility_check(r, &cl);
		j = plausibility_list_json(&cl);
		json_decref(j);
		plausibility_list_free(&cl);
	}
	resultread_free(r);
	return 0;
}
