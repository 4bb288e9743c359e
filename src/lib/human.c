/*
 * human: numbers for people, with units (human.h).  Each style is the layout
 * one renderer has always printed, so outputs do not change with the move.
 */
#include "lib/human.h"

#include <math.h>	/* isnan, isfinite, fabs, floor */
#include <stdio.h>	/* snprintf */
#include <string.h>	/* strchr: trailing zeros */

void human_ns(char *buf, size_t sz, double ns, enum human_style style)
{
	switch (style) {
	case HUMAN_PAGE:
		if (!isfinite(ns))
			snprintf(buf, sz, "-");
		else if (ns < 1e3)
			snprintf(buf, sz, "%.0f ns", ns);
		else if (ns < 1e6)
			snprintf(buf, sz, "%.*f us", ns < 1e4 ? 2 : ns < 1e5 ? 1 : 0, ns / 1e3);
		else if (ns < 1e9)
			snprintf(buf, sz, "%.*f ms", ns < 1e7 ? 2 : ns < 1e8 ? 1 : 0, ns / 1e6);
		else
			snprintf(buf, sz, "%.2f s", ns / 1e9);
		return;
	case HUMAN_TIGHT:
		if (ns >= 1e6)
			snprintf(buf, sz, "%.2fms", ns / 1e6);
		else if (ns >= 1e3)
			snprintf(buf, sz, "%.2fus", ns / 1e3);
		else
			snprintf(buf, sz, "%.0fns", ns);
		return;
	case HUMAN_STATUS:
		if (ns >= 1e9)
			snprintf(buf, sz, "%.3gs", ns / 1e9);
		else if (ns >= 1e6)
			snprintf(buf, sz, "%.3gms", ns / 1e6);
		else if (ns >= 1e3)
			snprintf(buf, sz, "%.3gus", ns / 1e3);
		else
			snprintf(buf, sz, "%.0fns", ns);
		return;
	case HUMAN_TABLE:
	default:
		if (isnan(ns))
			snprintf(buf, sz, "-");
		else if (ns >= 1e9)
			snprintf(buf, sz, "%.2f s", ns / 1e9);
		else if (ns >= 1e6)
			snprintf(buf, sz, "%.2f ms", ns / 1e6);
		else if (ns >= 1e5)
			snprintf(buf, sz, "%.0f us", ns / 1e3);
		else if (ns >= 1e3)
			snprintf(buf, sz, "%.1f us", ns / 1e3);
		else
			snprintf(buf, sz, "%.0f ns", ns);
		return;
	}
}

void human_count(char *buf, size_t sz, double v, enum human_style style)
{
	if (style == HUMAN_STATUS) {
		if (v >= 10e6)
			snprintf(buf, sz, "%.1fM", v / 1e6);
		else if (v >= 10e3)
			snprintf(buf, sz, "%.1fk", v / 1e3);
		else
			snprintf(buf, sz, "%.0f", v);
		return;
	}
	if (!isfinite(v))
		snprintf(buf, sz, "-");
	else if (fabs(v) >= 1e9)
		snprintf(buf, sz, "%.2fG", v / 1e9);
	else if (fabs(v) >= 1e6)
		snprintf(buf, sz, "%.2fM", v / 1e6);
	else if (fabs(v) >= 1e4)
		snprintf(buf, sz, "%.1fk", v / 1e3);
	else if (fabs(v) >= 100 || v == floor(v))
		snprintf(buf, sz, "%.0f", v);
	else
		snprintf(buf, sz, "%.2f", v);
}

void human_rate(char *buf, size_t sz, double b, enum human_style style)
{
	static const char *const units[] = { "B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s" };
	unsigned u = 0;

	if (style == HUMAN_STATUS) {
		while (b >= 1024 * 10 && u < 4) {
			b /= 1024;
			u++;
		}
		snprintf(buf, sz, "%.0f%s", b, units[u]);
		return;
	}
	if (!isfinite(b))
		snprintf(buf, sz, "-");
	else if (b >= 1073741824.0)
		snprintf(buf, sz, "%.2f GiB/s", b / 1073741824.0);
	else if (b >= 1048576.0)
		snprintf(buf, sz, "%.1f MiB/s", b / 1048576.0);
	else
		snprintf(buf, sz, "%.1f KiB/s", b / 1024.0);
}

void human_plain(char *buf, size_t sz, double v)
{
	int dec;
	size_t n;

	if (!isfinite(v)) {
		snprintf(buf, sz, "-");
		return;
	}
	if (fabs(v) >= 1000 || v == 0) {
		snprintf(buf, sz, "%.0f", v);
		return;
	}
	/* four significant digits: decimals from the magnitude, at most 12 */
	dec = 3 - (int)floor(log10(fabs(v)));
	snprintf(buf, sz, "%.*f", dec < 0 ? 0 : dec > 12 ? 12 : dec, v);
	if (strchr(buf, '.')) {	/* "12.50" -> "12.5", "3.000" -> "3" */
		n = strlen(buf);
		while (n > 1 && buf[n - 1] == '0')
			buf[--n] = 0;
		if (n > 1 && buf[n - 1] == '.')
			buf[n - 1] = 0;
	}
}
