/*
 * report_fionum: numbers in fio's normal-output notation (report_fionum.h).
 */
#include "report/report_fionum.h"

#include <stdio.h>
#include <string.h>

static int digits_of(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

void report_fionum(char *buf, size_t len, uint64_t v, int digits, int bin, const char *unit)
{
	static const char *const dec[] = { "", "k", "M", "G", "T", "P" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi" };
	const char *const *pre = bin ? iec : dec;
	const uint64_t base = bin ? 1024 : 1000;
	uint64_t rest = 0;
	unsigned scale = 0;
	int left;
	char frac[32];

	while (scale + 1 < sizeof(dec) / sizeof(dec[0]) && digits_of(v) > digits) {
		rest = v % base;
		v /= base;
		scale++;
	}
	if (!scale) {
		snprintf(buf, len, "%llu%s", (unsigned long long)v, unit);
		return;
	}
	left = digits - digits_of(v);
	if (left <= 1) {
		if (rest >= base / 2)
			v++;
		snprintf(buf, len, "%llu%s%s", (unsigned long long)v, pre[scale], unit);
		return;
	}
	/* "0.xx", or "1.00" when the rest rounds up to a whole: then the whole
	 * goes on (16773120 bytes: fio prints 16.0MiB) */
	snprintf(frac, sizeof(frac), "%.*f", left - 1, (double)rest / (double)base);
	if (frac[0] == '1')
		v++;
	snprintf(buf, len, "%llu.%s%s%s", (unsigned long long)v, frac + 2, pre[scale], unit);
}
