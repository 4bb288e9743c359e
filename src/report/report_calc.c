/*
 * report_calc: figures shared by the text and JSON writers (see report_calc.h).
 */
#include "report/report_calc.h"

#include <string.h>	/* memset */

/* fio's default percentile_list. */
static const double report_default_pct[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

_Static_assert(sizeof(report_default_pct) / sizeof(report_default_pct[0]) <= REPORT_PCT_MAX,
	       "the default percentile list must fit REPORT_PCT_MAX");

static const unsigned report_lat_labels[REPORT_LAT_MS_NR - 1] = {
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000,
};

void report_rates(const struct dir_result *d, struct report_rates *out)
{
	memset(out, 0, sizeof(*out));
	out->io_kbytes = d->io_bytes >> 10;
	if (!d->runtime_ms)
		return;
	/* 128-bit: io_bytes * 1000 overflows 64 bits past 18 PB */
	out->bw_bytes = (uint64_t)((unsigned __int128)d->io_bytes * 1000 / d->runtime_ms);
	out->bw_kib = out->bw_bytes >> 10;
	out->iops = (double)d->total_ios * 1000.0 / (double)d->runtime_ms;
}

unsigned report_lat_label(unsigned i)
{
	return i < REPORT_LAT_MS_NR - 1 ? report_lat_labels[i] : 0;
}

/* Entry of the unit @unit (1, 1e3, 1e6 ns) that value @v falls in, or -1. */
static int report_lat_slot(uint64_t v, uint64_t unit, unsigned nr)
{
	for (unsigned i = 0; i < nr; i++)
		if (v < (uint64_t)report_lat_labels[i] * unit)
			return (int)i;
	return -1;
}

/* Add one bucket's count to the ns/us/ms counters. */
static void report_lat_count(uint64_t v, uint64_t c, uint64_t *ns, uint64_t *us, uint64_t *ms)
{
	int s;

	if (v < 1000) {
		ns[report_lat_slot(v, 1, REPORT_LAT_NR)] += c;
	} else if (v < 1000000) {
		us[report_lat_slot(v, 1000, REPORT_LAT_NR)] += c;
	} else {
		s = report_lat_slot(v, 1000000, REPORT_LAT_MS_NR - 1);
		ms[s < 0 ? REPORT_LAT_MS_NR - 1 : s] += c;
	}
}

void report_lat_dist(const struct job_result *j, struct report_lat_dist *out)
{
	uint64_t ns[REPORT_LAT_NR] = { 0 }, us[REPORT_LAT_NR] = { 0 };
	uint64_t ms[REPORT_LAT_MS_NR] = { 0 };

	memset(out, 0, sizeof(*out));
	for (unsigned d = 0; d < DDIR_NR; d++) {
		const struct hist *h = &j->dir[d].clat_hist;

		/* fio counts these with clat: none with disable_clat */
		if (j->job && j->job->disable_clat)
			continue;
		if (!hist_total(h))
			h = &j->dir[d].lat_hist;
		for (unsigned i = 0; i < HIST_NR; i++) {
			if (!h->b[i])
				continue;
			report_lat_count(hist_bucket_value(i), h->b[i], ns, us, ms);
			out->total += h->b[i];
		}
	}
	if (!out->total)
		return;
	for (unsigned i = 0; i < REPORT_LAT_NR; i++) {
		out->ns[i] = 100.0 * (double)ns[i] / (double)out->total;
		out->us[i] = 100.0 * (double)us[i] / (double)out->total;
	}
	for (unsigned i = 0; i < REPORT_LAT_MS_NR; i++)
		out->ms[i] = 100.0 * (double)ms[i] / (double)out->total;
}

void report_pct(const uint64_t *map, size_t n, double *pct)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += map[i];
	for (size_t i = 0; i < n; i++)
		pct[i] = sum ? 100.0 * (double)map[i] / (double)sum : 0.0;
}

const char *report_depth_label(unsigned i)
{
	static const char *const l[RESULT_DEPTH_NR] = {
		"1", "2", "4", "8", "16", "32", ">=64",
	};

	return i < RESULT_DEPTH_NR ? l[i] : "";
}

const char *report_submit_label(unsigned i)
{
	static const char *const l[REPORT_SUBMIT_NR] = {
		"0", "4", "8", "16", "32", "64", ">=64",
	};

	return i < REPORT_SUBMIT_NR ? l[i] : "";
}

void report_submit_fold(const uint64_t *in, uint64_t out[REPORT_SUBMIT_NR])
{
	for (unsigned i = 0; i < REPORT_SUBMIT_NR; i++)
		out[i] = in[i];
	for (unsigned i = REPORT_SUBMIT_NR; i < RESULT_DEPTH_NR + 1; i++)
		out[REPORT_SUBMIT_NR - 1] += in[i];
}

size_t report_percentile_list(const struct job *j, const double **p)
{
	if (j && j->percentile_nr) {
		*p = j->percentile_list;
		return j->percentile_nr;
	}
	*p = report_default_pct;
	return sizeof(report_default_pct) / sizeof(report_default_pct[0]);
}

void report_pct_on(const struct job *j, struct report_pct_on *on)
{
	if (!j) {
		on->slat = 0;
		on->clat = 1;
		on->lat = 0;
	} else {
		on->slat = j->slat_percentiles;
		on->clat = j->clat_percentiles;
		on->lat = j->lat_percentiles;
	}
	/* fio gives sync latencies percentiles when clat or lat ones are on */
	on->sync = on->clat || on->lat;
}
