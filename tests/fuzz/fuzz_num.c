/*
 * libFuzzer harness: the number parsers (num.h) on any text.  The first
 * byte picks the parser and the unit base; the rest is the value.  Every
 * call must return 0 or a negative errno with a one-line message: no crash,
 * no undefined behaviour (UBSan), no leak (ASan).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/num.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct num_ctx c = { .kb_base = 1024, .opt = "fuzz", .where = "fuzz" };
	struct bssplit bs[DDIR_NR][JOB_MAX_BSSPLIT];
	uint64_t a = 0, b = 0, v3[DDIR_NR], w3[DDIR_NR];
	unsigned nr[DDIR_NR];
	uint32_t pct;
	struct err e;
	double d;
	char *s;
	int r = 0;

	if (size < 1 || size > 4096)
		return 0;
	s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	if (data[0] & 0x80)
		c.kb_base = 1000;
	err_clear(&e);
	switch (data[0] % 9) {
	case 0: r = num_parse_u64(s, &c, &a, &e); break;
	case 1: r = num_parse_time(s, &c, 1000000, &a, &e); break;
	case 2: r = num_parse_double(s, &c, &d, &e); break;
	case 3: r = num_parse_range(s, &c, &a, &b, &e); break;
	case 4: r = num_parse_u64_ddir(s, &c, v3, &e); break;
	case 5: r = num_parse_range_ddir(s, &c, v3, w3, &e); break;
	case 6: r = num_parse_bssplit(s, &c, bs, nr, &e); break;
	case 7: r = num_parse_size_pct(s, &c, &a, &pct, &e); break;
	default: {
		char *f[DDIR_NR];

		r = num_ddir_split(s, f);
		break;
	}
	}
	if (r > 0 || (r < 0 && data[0] % 9 != 8 && (!e.msg[0] || strchr(e.msg, '\n'))))
		abort();	/* a failure must say why, on one line */
	if (!r && data[0] % 9 == 2 && (d != d || d - d != 0))
		abort();	/* num_parse_double promises a finite number */
	free(s);
	return 0;
}
