/*
 * Tests for report_fionum: numbers as fio 3.33's normal output prints them.
 * The fixed cases are (value, text) pairs from fio 3.33's output (its
 * JSON gives the value: iops = 1000 * total_ios / runtime, bw = 1000 *
 * io_bytes / runtime, latencies in ns) and the edges of its rule.  Given a
 * file (tests/e2e/report_text_fio_format.sh writes one from a fio run it makes:
 * "VALUE DIGITS BIN UNIT TEXT" per line, UNIT "-" for none), every pair in
 * it is checked too.
 */
#include <stdio.h>
#include <stdlib.h>
#include "check.h"
#include "report/report_fionum.h"

static const char *num(uint64_t v, int digits, int bin, const char *unit)
{
	static char buf[64];

	report_fionum(buf, sizeof(buf), v, digits, bin, unit);
	return buf;
}

/* IOPS=: four digits, then k with what is left after the point. */
TEST(iops)
{
	CHECK_STR(num(4193, 4, 0, ""), "4193");		/* iotrial printed 4.19k */
	CHECK_STR(num(22000, 4, 0, ""), "22.0k");
	CHECK_STR(num(24545, 4, 0, ""), "24.5k");
	CHECK_STR(num(372255, 4, 0, ""), "372k");
	CHECK_STR(num(372627, 4, 0, ""), "373k");		/* rounded by the rest */
	CHECK_STR(num(128000, 4, 0, ""), "128k");
	CHECK_STR(num(999, 4, 0, ""), "999");
	CHECK_STR(num(0, 4, 0, ""), "0");
	CHECK_STR(num(1234567, 4, 0, ""), "1235k");
	CHECK_STR(num(12345678, 4, 0, ""), "12.3M");
}

/* BW=, io=, bs=: binary and decimal prefixes on bytes. */
TEST(bytes)
{
	CHECK_STR(num(90112000, 4, 1, "B/s"), "85.9MiB/s");
	CHECK_STR(num(90112000, 4, 0, "B/s"), "90.1MB/s");
	CHECK_STR(num(991232, 4, 1, "B"), "968KiB");
	CHECK_STR(num(1982464, 4, 1, "B"), "1936KiB");
	CHECK_STR(num(1982464, 4, 0, "B"), "1982kB");
	CHECK_STR(num(1524629504, 4, 1, "B/s"), "1454MiB/s");
	CHECK_STR(num(1524629504, 4, 0, "B/s"), "1525MB/s");
	CHECK_STR(num(4096, 4, 1, "B"), "4096B");
	CHECK_STR(num(65536, 4, 1, "B"), "64.0KiB");
	CHECK_STR(num(16384, 4, 1, "B"), "16.0KiB");
	CHECK_STR(num(1048576, 4, 1, "B"), "1024KiB");
	CHECK_STR(num(524288000, 4, 1, "B/s"), "500MiB/s");
	CHECK_STR(num(524288000, 4, 0, "B/s"), "524MB/s");
}

/* min=/max= of a latency line: six digits, then k. */
TEST(latency)
{
	CHECK_STR(num(12031000, 6, 0, ""), "12031k");
	CHECK_STR(num(508152, 6, 0, ""), "508152");
	CHECK_STR(num(73, 6, 0, ""), "73");
	/* a rest that rounds up to a whole carries into it (fio 3.33 printed
	 * io=16.0MiB for 16773120 bytes: 15 MiB and 1020 KiB) */
	CHECK_STR(num(16773120, 4, 1, "B"), "16.0MiB");
	CHECK_STR(num(85999, 4, 0, ""), "86.0k");
}

static const char *pairs_path;

/* The pairs a fio run gave (tests/e2e/report_text_fio_format.sh). */
TEST(pairs_from_fio)
{
	FILE *f = fopen(pairs_path, "r");
	unsigned long long v;
	int digits, bin, n = 0;
	char unit[16], want[64];

	CHECK(f != NULL);
	while (f && fscanf(f, "%llu %d %d %15s %63s", &v, &digits, &bin, unit, want) == 5) {
		const char *got = num(v, digits, bin, strcmp(unit, "-") ? unit : "");

		if (strcmp(got, want))
			printf("  %llu (%d digits%s): fio %s, iotrial %s\n", v, digits,
			       bin ? ", binary" : "", want, got);
		CHECK_STR(got, want);
		n++;
	}
	CHECK(n > 0);
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	RUN(iops);
	RUN(bytes);
	RUN(latency);
	if (argc > 1) {
		pairs_path = argv[1];
		RUN(pairs_from_fio);
	}
	return CHECK_DONE();
}
