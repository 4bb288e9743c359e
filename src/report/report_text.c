/*
 * report_text: fio-like text report (see report_text.h).
 *
 * Unit rules, one per kind of figure, so every line reads the same way:
 * - latency summaries (min/max/avg/stdev) use the unit of their mean: nsec
 *   below 10 us, usec below 10 ms, msec below 10 s, then sec; all four
 *   figures in that unit with two decimals (nsec: min/max are whole);
 * - percentile tables use the smallest unit in which the largest value
 *   shown stays under 100000, as whole numbers;
 * - sizes and bandwidths are scaled by 1024 (KiB, MiB...) and, in
 *   parentheses, by 1000 (kB, MB...) until under 10000, with about three
 *   significant digits; IOPS are scaled by 1000 (k, M) until under 1000.
 * Figures come from report_calc, as the JSON ones do, so the two agree.
 */
#include "report_text.h"
#include "report/report_breakdown.h"
#include "report_ranks.h"	/* MPI per-host table */
#include "steady/steady.h"

#include <errno.h>
#include <math.h>	/* round */
#include <signal.h>	/* sigabbrev_np */
#include <stdlib.h>	/* qsort */
#include <string.h>
#include <time.h>	/* localtime_r, strftime */
#include <jansson.h>	/* the warnings array */
#include "report_calc.h"
#include "steady/steady_out.h"

struct lat_unit {
	const char *name;
	double ns;		/* nanoseconds per unit */
};

static const struct lat_unit text_units[] = {
	{ "nsec", 1 }, { "usec", 1e3 }, { "msec", 1e6 }, { "sec", 1e9 },
};
#define TEXT_UNITS_NR (sizeof(text_units) / sizeof(text_units[0]))

/* Unit of a latency summary: that of its mean. */
static const struct lat_unit *unit_for_mean(double mean_ns)
{
	unsigned i = 0;

	while (i + 1 < TEXT_UNITS_NR && mean_ns >= 10000.0 * text_units[i].ns)
		i++;
	return &text_units[i];
}

/* Unit of a percentile table: the largest value stays under 100000. */
static const struct lat_unit *unit_for_max(uint64_t max_ns)
{
	unsigned i = 0;

	while (i + 1 < TEXT_UNITS_NR && (double)max_ns >= 100000.0 * text_units[i].ns)
		i++;
	return &text_units[i];
}

/* @v scaled by @base until under @limit, with about 3 significant digits. */
static void fmt_scaled(char *buf, size_t n, double v, double base, double limit,
		       const char *const *sfx, unsigned nsfx, const char *tail)
{
	unsigned i = 0;

	while (i + 1 < nsfx && v >= limit - 0.5) {
		v /= base;
		i++;
	}
	if (i == 0 || v >= 99.95)
		snprintf(buf, n, "%.0f%s%s", v, sfx[i], tail);
	else if (v >= 9.995)
		snprintf(buf, n, "%.1f%s%s", v, sfx[i], tail);
	else
		snprintf(buf, n, "%.2f%s%s", v, sfx[i], tail);
}

static void fmt_bin(char *buf, size_t n, double bytes, const char *tail)
{
	static const char *const s[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };

	fmt_scaled(buf, n, bytes, 1024, 10000, s, 7, tail);
}

static void fmt_dec(char *buf, size_t n, double bytes, const char *tail)
{
	static const char *const s[] = { "B", "kB", "MB", "GB", "TB", "PB", "EB" };

	fmt_scaled(buf, n, bytes, 1000, 10000, s, 7, tail);
}

static void fmt_iops(char *buf, size_t n, double iops)
{
	static const char *const s[] = { "", "k", "M", "G" };

	if (iops < 9.95) {
		snprintf(buf, n, "%.1f", iops);
		return;
	}
	fmt_scaled(buf, n, iops, 1000, 1000, s, 4, "");
}

/* A percentage; a non-zero share too small to show is "<0.01" (fio: 0.01). */
static void fmt_pct(char *buf, size_t n, double pct, int decimals)
{
	double floor_v = decimals == 1 ? 0.1 : 0.01;

	if (pct > 0 && pct < floor_v / 2)
		snprintf(buf, n, "<%.*f%%", decimals, floor_v);
	else
		snprintf(buf, n, "%.*f%%", decimals, pct);
}

/* "    clat (usec): min=..., max=..., avg=..., stdev=..." */
static void text_lat_line(FILE *f, const char *name, const struct moments *m)
{
	const struct lat_unit *u = unit_for_mean(m->mean);
	double sd = moments_stddev(m);

	if (u->ns == 1)
		fprintf(f, "    %4s (%s): min=%llu, max=%llu, avg=%.2f, stdev=%.2f\n", name,
			u->name, (unsigned long long)m->min, (unsigned long long)m->max,
			m->mean, sd);
	else
		fprintf(f, "    %4s (%s): min=%.2f, max=%.2f, avg=%.2f, stdev=%.2f\n", name,
			u->name, (double)m->min / u->ns, (double)m->max / u->ns,
			m->mean / u->ns, sd / u->ns);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* "    clat percentiles (usec):" and rows of four "|  1.00th=[  100]," */
static void text_percentiles(FILE *f, const char *name, const struct hist *h,
			     const struct job *job)
{
	double p[REPORT_PCT_MAX];
	uint64_t v[REPORT_PCT_MAX];
	const double *list;
	size_t n = report_percentile_list(job, &list);
	const struct lat_unit *u;
	char num[32], lbl[32];
	int w;

	if (n > REPORT_PCT_MAX)
		n = REPORT_PCT_MAX;
	memcpy(p, list, n * sizeof(*p));
	qsort(p, n, sizeof(*p), cmp_double);
	hist_percentiles(h, p, n, v);
	u = unit_for_max(n ? v[n - 1] : 0);
	w = snprintf(num, sizeof(num), "%.0f", n ? round((double)v[n - 1] / u->ns) : 0.0);
	if (w < 3)
		w = 3;
	fprintf(f, "    %s percentiles (%s):\n", name, u->name);
	for (size_t i = 0; i < n; i++) {
		if (p[i] * 100 == round(p[i] * 100))
			snprintf(lbl, sizeof(lbl), "%5.2f", p[i]);
		else
			snprintf(lbl, sizeof(lbl), "%g", p[i]);
		fprintf(f, "%s%sth=[%*.0f]%s", i % 4 ? " " : "     | ", lbl, w,
			round((double)v[i] / u->ns), i + 1 == n ? "\n" : i % 4 == 3 ? ",\n" : ",");
	}
}

/* "   bw (  KiB/s): min=..." and "   iops        : min=..." when sampled. */
static void text_samples(FILE *f, const struct dir_result *d)
{
	const struct sample_stat *b = &d->bw_kib, *io = &d->iops;

	if (b->n)
		fprintf(f, "   bw (  KiB/s): min=%5.0f, max=%5.0f, per=%.2f%%, avg=%.2f, "
			"stdev=%.2f, samples=%llu\n", b->min, b->max, d->bw_agg_pct, b->mean,
			sample_stat_stddev(b), (unsigned long long)b->n);
	if (io->n)
		fprintf(f, "   iops        : min=%5.0f, max=%5.0f, avg=%.2f, stdev=%.2f, "
			"samples=%llu\n", io->min, io->max, io->mean, sample_stat_stddev(io),
			(unsigned long long)io->n);
}

static void text_dir(FILE *f, const struct job_result *jr, const struct dir_result *dr,
		     const char *name)
{
	struct report_pct_on on;
	struct report_rates rt;
	char iops[32], bw[32], bwd[32], io[32];

	report_pct_on(jr->job, &on);
	report_rates(dr, &rt);
	fmt_iops(iops, sizeof(iops), rt.iops);
	fmt_bin(bw, sizeof(bw), (double)rt.bw_bytes, "/s");
	fmt_dec(bwd, sizeof(bwd), (double)rt.bw_bytes, "/s");
	fmt_bin(io, sizeof(io), (double)dr->io_bytes, "");
	fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%llumsec)\n", name, iops, bw,
		bwd, io, (unsigned long long)dr->runtime_ms);
	if (dr->slat.n)
		text_lat_line(f, "slat", &dr->slat);
	if (dr->clat.n)
		text_lat_line(f, "clat", &dr->clat);
	if (dr->lat.n)
		text_lat_line(f, "lat", &dr->lat);
	if (on.slat && dr->slat.n && hist_total(&dr->slat_hist))
		text_percentiles(f, "slat", &dr->slat_hist, jr->job);
	if (on.clat && dr->clat.n && hist_total(&dr->clat_hist))
		text_percentiles(f, "clat", &dr->clat_hist, jr->job);
	if (on.lat && dr->lat.n && hist_total(&dr->lat_hist))
		text_percentiles(f, "lat", &dr->lat_hist, jr->job);
	text_samples(f, dr);
}

/* One unit's non-zero latency ranges, five per line like fio. */
static void text_lat_unit(FILE *f, const char *unit, const double *pct, unsigned nr)
{
	char lbl[16], p[16];
	unsigned shown = 0;

	for (unsigned i = 0; i < nr; i++) {
		if (pct[i] <= 0)
			continue;
		if (i < REPORT_LAT_MS_NR - 1)
			snprintf(lbl, sizeof(lbl), "%u", report_lat_label(i));
		else
			snprintf(lbl, sizeof(lbl), ">=%u", report_lat_label(i - 1));
		fmt_pct(p, sizeof(p), pct[i], 2);
		if (shown % 5 == 0)
			fprintf(f, "%s  lat (%s)   : ", shown ? "\n" : "", unit);
		else
			fputs(", ", f);
		fprintf(f, "%s=%s", lbl, p);
		shown++;
	}
	if (shown)
		fputc('\n', f);
}

static void text_lat_dist(FILE *f, const struct job_result *jr)
{
	struct report_lat_dist ld;

	report_lat_dist(jr, &ld);
	text_lat_unit(f, "nsec", ld.ns, REPORT_LAT_NR);
	text_lat_unit(f, "usec", ld.us, REPORT_LAT_NR);
	text_lat_unit(f, "msec", ld.ms, REPORT_LAT_MS_NR);
}

static void text_sync(FILE *f, const struct job_result *jr)
{
	struct report_pct_on on;

	if (!jr->sync_lat.n)
		return;
	report_pct_on(jr->job, &on);
	fprintf(f, "  fsync/fdatasync/sync_file_range:\n");
	text_lat_line(f, "sync", &jr->sync_lat);
	if (on.sync && hist_total(&jr->sync_hist))
		text_percentiles(f, "sync", &jr->sync_hist, jr->job);
}

/* "label=pct, ..." for a depth distribution. */
static void text_pct_map(FILE *f, const char *head, const uint64_t *map, size_t n,
			 const char *(*label)(unsigned))
{
	double pct[RESULT_DEPTH_NR + 1];
	char p[16];

	report_pct(map, n, pct);
	fprintf(f, "%s: ", head);
	for (size_t i = 0; i < n; i++) {
		fmt_pct(p, sizeof(p), pct[i], 1);
		fprintf(f, "%s=%s%s", label((unsigned)i), p, i + 1 < n ? ", " : "\n");
	}
}

static void text_job_tail(FILE *f, const struct job_result *jr)
{
	uint64_t sub[REPORT_SUBMIT_NR], comp[REPORT_SUBMIT_NR];
	const struct dir_result *d = jr->dir;

	fprintf(f, "  cpu          : usr=%.2f%%, sys=%.2f%%, ctx=%llu, majf=%llu, minf=%llu\n",
		jr->usr_cpu, jr->sys_cpu, (unsigned long long)jr->ctx,
		(unsigned long long)jr->majf, (unsigned long long)jr->minf);
	report_submit_fold(jr->depth_submit, sub);
	report_submit_fold(jr->depth_complete, comp);
	text_pct_map(f, "  IO depths    ", jr->depth_level, RESULT_DEPTH_NR, report_depth_label);
	text_pct_map(f, "     submit    ", sub, REPORT_SUBMIT_NR, report_submit_label);
	text_pct_map(f, "     complete  ", comp, REPORT_SUBMIT_NR, report_submit_label);
	fprintf(f, "     issued rwts: total=%llu,%llu,%llu,%llu short=%llu,%llu,%llu,0 "
		"dropped=%llu,%llu,%llu,0\n",
		(unsigned long long)d[0].total_ios, (unsigned long long)d[1].total_ios,
		(unsigned long long)d[2].total_ios, (unsigned long long)jr->sync_ios,
		(unsigned long long)d[0].short_ios, (unsigned long long)d[1].short_ios,
		(unsigned long long)d[2].short_ios, (unsigned long long)d[0].drop_ios,
		(unsigned long long)d[1].drop_ios, (unsigned long long)d[2].drop_ios);
	if (jr->coe)	/* continue_on_error: fio's line of the errors let pass */
		fprintf(f, "     errors    : total=%llu, first_error=%d/<%s>\n",
			(unsigned long long)jr->total_err, jr->first_err,
			jr->first_err ? strerror(jr->first_err) : "Success");
	/* latency_target.h: fio's line, its units (ns, us) */
	fprintf(f, "     latency   : target=%llu, window=%llu, percentile=%.2f%%, depth=%u\n",
		jr->job ? (unsigned long long)jr->job->lat_target.target_us * 1000 : 0ull,
		jr->job ? (unsigned long long)jr->job->lat_target.window_us : 0ull,
		jr->job ? jr->job->lat_target.percentile : 100.0,
		jr->lat_depth ? jr->lat_depth : jr->job ? jr->job->iodepth : 1);
}

/* The steady-state lines of a job that had a rule (steady_out.h), after its figures. */
static void text_job_steady(FILE *f, const struct job_result *jr)
{
	if (jr->steady)
		steady_print_text(f, jr->steady);
}

static void text_time(char *buf, size_t n, time_t t)
{
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, n, "%a %b %e %H:%M:%S %Y", &tm))
		snprintf(buf, n, "%lld", (long long)t);
}

static void text_job(FILE *f, const struct job_result *jr, time_t when)
{
	int per_dir = !jr->job || jr->job->unified_rw_reporting != 1;	/* mixed: only the sum */
	char date[64];

	text_time(date, sizeof(date), when);
	fprintf(f, "%s: (groupid=%u, jobs=%u): err=%2d", jr->name, jr->groupid,
		jr->nr_threads ? jr->nr_threads : 1, result_job_error(jr));
	if (jr->error)
		fprintf(f, " (%s)", jr->first_error[0] ? jr->first_error : strerror(jr->error));
	else if (result_job_error(jr))	/* continue_on_error: fio's empty "()" */
		fprintf(f, " ()");
	fprintf(f, ": %s%s\n", date, jr->partial ? " [PARTIAL: stopped early]" : "");
	for (unsigned d = 0; per_dir && d < DDIR_NR; d++)
		if (jr->dir[d].total_ios || jr->dir[d].io_bytes)
			text_dir(f, jr, &jr->dir[d], ddir_name(d));
	if (jr->job && jr->job->unified_rw_reporting) {	/* fio's "mixed": the directions summed */
		struct dir_result *m = malloc(sizeof(*m));

		if (m) {
			result_dir_mixed(jr, m);
			text_dir(f, jr, m, "mixed");
			free(m);
		}
	}
	text_lat_dist(f, jr);
	text_sync(f, jr);
	text_job_tail(f, jr);
	text_job_steady(f, jr);
	report_breakdown_text_job(f, jr);	/* time per I/O and the bottleneck (docs/breakdown.md) */
	if (jr->verify.method)	/* verify=: the read-back pass (not counted as reads) */
		fprintf(f, "  verify       : %s, %llu blocks (%llu bytes) checked, %llu failed%s%s%s\n",
			verify_method_name((enum verify_method)jr->verify.method),
			(unsigned long long)jr->verify.blocks, (unsigned long long)jr->verify.bytes,
			(unsigned long long)jr->verify.failures, jr->verify.failures ? ": " : "",
			jr->verify.failures ? jr->verify.fail_msg : "",
			jr->verify.no_pass ? " (no end pass: do_verify=0 or time_based, as fio)" : "");
	fputc('\n', f);
}

/* Totals of one direction over the jobs of one group. */
struct group_dir {
	uint64_t io_bytes;
	uint64_t bw_min, bw_max;	/* per-job bytes/s */
	uint64_t run_min, run_max;	/* ms */
	unsigned jobs;
};

static void group_dir_sum(const struct run_result *r, unsigned gid, unsigned d,
			  struct group_dir *g)
{
	memset(g, 0, sizeof(*g));
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct dir_result *dr = &r->jobs[i].dir[d];
		struct report_rates rt;

		if (r->jobs[i].groupid != gid || !dr->runtime_ms)
			continue;
		report_rates(dr, &rt);
		if (!g->jobs || rt.bw_bytes < g->bw_min)
			g->bw_min = rt.bw_bytes;
		if (!g->jobs || rt.bw_bytes > g->bw_max)
			g->bw_max = rt.bw_bytes;
		if (!g->jobs || dr->runtime_ms < g->run_min)
			g->run_min = dr->runtime_ms;
		if (!g->jobs || dr->runtime_ms > g->run_max)
			g->run_max = dr->runtime_ms;
		g->io_bytes += dr->io_bytes;
		g->jobs++;
	}
}

/*
 * "Run status group N (all jobs):" then, per direction with I/O, the
 * group's bandwidth (all bytes over the longest runtime, as fio), the
 * slowest-fastest job, the bytes moved and the runtime range.
 */
static void text_group(FILE *f, const struct run_result *r, unsigned gid)
{
	static const char *const up[DDIR_NR] = { "READ", "WRITE", "TRIM" };
	struct group_dir g;
	char a[32], ad[32], lo[32], lod[32], hi[32], hid[32], io[32], iod[32];
	double bw;

	fprintf(f, "Run status group %u (all jobs):\n", gid);
	for (unsigned d = 0; d < DDIR_NR; d++) {
		group_dir_sum(r, gid, d, &g);
		if (!g.jobs || !g.io_bytes)
			continue;
		bw = (double)g.io_bytes * 1000.0 / (double)g.run_max;
		fmt_bin(a, sizeof(a), bw, "/s");
		fmt_dec(ad, sizeof(ad), bw, "/s");
		fmt_bin(lo, sizeof(lo), (double)g.bw_min, "/s");
		fmt_dec(lod, sizeof(lod), (double)g.bw_min, "/s");
		fmt_bin(hi, sizeof(hi), (double)g.bw_max, "/s");
		fmt_dec(hid, sizeof(hid), (double)g.bw_max, "/s");
		fmt_bin(io, sizeof(io), (double)g.io_bytes, "");
		fmt_dec(iod, sizeof(iod), (double)g.io_bytes, "");
		fprintf(f, "%7s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%llu-%llumsec\n",
			up[d], a, ad, lo, hi, lod, hid, io, iod,
			(unsigned long long)g.run_min, (unsigned long long)g.run_max);
	}
}

static void text_groups(FILE *f, const struct run_result *r)
{
	unsigned gid = 0, next;
	int more = r->nr_jobs > 0;

	/* ascending group ids; jobs need not be sorted by group */
	for (size_t i = 0; i < r->nr_jobs; i++)
		if (r->jobs[i].groupid < gid || i == 0)
			gid = r->jobs[i].groupid;
	while (more) {
		text_group(f, r, gid);
		more = 0;
		next = 0;
		for (size_t i = 0; i < r->nr_jobs; i++)
			if (r->jobs[i].groupid > gid && (!more || r->jobs[i].groupid < next)) {
				next = r->jobs[i].groupid;
				more = 1;
			}
		gid = next;
		if (more)
			fputc('\n', f);
	}
}

static void text_disks(FILE *f, const struct run_result *r)
{
	if (!r->nr_du)
		return;
	fprintf(f, "\nDisk stats (read/write):\n");
	for (size_t i = 0; i < r->nr_du; i++) {
		const struct disk_util *d = &r->du[i];

		fprintf(f, "  %s: ios=%llu/%llu, merge=%llu/%llu, ticks=%llu/%llu, "
			"in_queue=%llu, util=%.2f%%\n", d->name,
			(unsigned long long)d->read_ios, (unsigned long long)d->write_ios,
			(unsigned long long)d->read_merges, (unsigned long long)d->write_merges,
			(unsigned long long)d->read_ticks, (unsigned long long)d->write_ticks,
			(unsigned long long)d->in_queue, d->util);
	}
	/* what each device saw over each group's window (docs/json.md, the device view) */
	report_breakdown_text_views(f, r);
}

/* The first line of a run that did not finish. */
static void text_partial(FILE *f, const struct run_result *r)
{
	uint64_t secs = 0;
	const char *sig;
	const char *why = NULL;

	for (size_t i = 0; i < r->nr_jobs; i++) {
		if (r->jobs[i].elapsed_s > secs)
			secs = r->jobs[i].elapsed_s;
		if (!why && r->jobs[i].first_error[0])
			why = r->jobs[i].first_error;
	}
	if (r->signal) {
		sig = sigabbrev_np(r->signal);
		if (sig)
			fprintf(f, "*** PARTIAL RESULTS: interrupted by SIG%s after %llu s ***\n",
				sig, (unsigned long long)secs);
		else
			fprintf(f, "*** PARTIAL RESULTS: interrupted by signal %d after %llu s ***\n",
				r->signal, (unsigned long long)secs);
	} else {
		fprintf(f, "*** PARTIAL RESULTS: stopped by an error after %llu s%s%s ***\n",
			(unsigned long long)secs, why ? ": " : "", why ? why : "");
	}
}

/* The plausibility checks (result_check.c): one line each, with numbers. */
static void text_warnings(FILE *f, const struct run_result *r)
{
	const json_t *w = r->warnings, *it;
	size_t i;

	if (!w || !json_array_size(w))
		return;
	fprintf(f, "\nPlausibility checks:\n");
	json_array_foreach(w, i, it) {
		fprintf(f, "  %-7s [%s] %s\n", json_string_value(json_object_get(it, "severity")),
			json_string_value(json_object_get(it, "id")),
			json_string_value(json_object_get(it, "message")));
	}
}

int report_text_write(FILE *f, const struct run_result *r, struct err *e)
{
	if (r->partial)
		text_partial(f, r);
	for (size_t i = 0; i < r->nr_jobs; i++)
		text_job(f, &r->jobs[i], r->timestamp);
	text_groups(f, r);
	report_ranks_text(f, r);	/* MPI: the per-host table */
	text_disks(f, r);
	text_warnings(f, r);
	if (fflush(f) == EOF || ferror(f))
		return err_set(e, -EIO, EXIT_OUTPUT, "cannot write the text report: %s",
			       strerror(errno ? errno : EIO));
	return 0;
}
