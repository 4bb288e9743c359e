/*
 * human: numbers for people, with units: latencies, counts and byte rates.
 * The one family of human-unit formatters; each renderer picks a style (its
 * own layout, kept exactly) instead of writing its own ladder of units.
 * Not used for fio's own text format (report_text.c follows fio's rules) nor
 * for chart axes (svg.c scales to the tick step).  A non-finite value is
 * written "-" where a style says so.
 */
#ifndef IOTRIAL_HUMAN_H
#define IOTRIAL_HUMAN_H

#include <stddef.h>

enum human_style {
	/* tables (check, compare): "2.00 ms", "410 us", "12.5 us", "980 ns"; NAN "-" */
	HUMAN_TABLE,
	/* HTML pages: digits by size ("1.23 us", "12.3 us", "123 us"); non-finite "-" */
	HUMAN_PAGE,
	/* per-rank table (MPI): no blank, "2.00ms", "12.34us", "980ns" */
	HUMAN_TIGHT,
	/* status lines: three significant digits, "1.23ms", "456us" */
	HUMAN_STATUS,
};

/* A latency of @ns nanoseconds. */
void human_ns(char *buf, size_t sz, double ns, enum human_style style);

/*
 * A count or rate without unit: HUMAN_PAGE "1.23G", "4.56M", "78.9k", "42",
 * "0.50"; HUMAN_STATUS "12.3M", "45.6k", "980".
 */
void human_count(char *buf, size_t sz, double v, enum human_style style);

/*
 * Bytes per second: HUMAN_PAGE "1.23 GiB/s", "456.7 MiB/s", "12.3 KiB/s";
 * HUMAN_STATUS "123MiB/s" (the unit while the value passes 10 x 1024).
 */
void human_rate(char *buf, size_t sz, double bytes_per_s, enum human_style style);

/*
 * A number with no unit as plain digits, never an exponent: whole above 1000
 * ("347700"), else four significant digits with trailing zeros dropped
 * ("12.5", "0.0042"); non-finite "-".  For values a person reads in a table
 * (the environment), where "3.477e+05" is a misread waiting to happen.
 */
void human_plain(char *buf, size_t sz, double v);

#endif
