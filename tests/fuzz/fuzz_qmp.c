/*
 * libFuzzer harness: the QMP reply reader (env/qmp.h) on any bytes, as a
 * hostile or broken QEMU (or whatever listens on the socket) could send:
 * huge, deeply nested, wrong types.  Each line is parsed; a reply's value
 * goes through every reader of the host's view (blockstats, block, thread
 * ids).  Every call must return 0 or a negative errno with a message: no
 * crash, no undefined behaviour (UBSan), no leak (ASan).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "env/qmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qmp_drive d[8];
	int tids[16], kind;
	size_t n;
	json_t *r = NULL;
	struct err e;

	if (size > QMP_REPLY_MAX + 16)
		return 0;
	err_clear(&e);
	if (qmp_parse_line((const char *)data, size, &kind, &r, &e))
		return 0;
	if (kind == 'R') {
		qmp_parse_blockstats(r, d, 8, &n, &e);
		if (!qmp_parse_blockstats(r, d, 8, &n, NULL))
			qmp_parse_block(r, d, n, &e);
		qmp_parse_thread_ids(r, tids, 16, &n, &e);
	}
	json_decref(r);
	return 0;
}
