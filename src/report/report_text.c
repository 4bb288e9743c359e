/*
 * report_text: the text report.  First fio's normal output, line for line
 * in fio 3.33's format so that what parses fio's output parses this: the
 * job header lines, the version and "Starting N processes", each job's
 * block (jobs that did no I/O have none, as in fio), the groups and the
 * disk stats, numbers as fio prints them (report_fionum.h; fio's unit
 * choices for latencies and percentiles).  Then iotrial's additions, after
 * all of fio's lines (report_text_add.h).  tests/e2e/
 * report_text_fio_format.sh runs fio and iotrial on the same jobs and compares.
 * Figures come from report_calc, as the JSON ones do, so the two agree.
 */
#include "report/report_text.h"
#include "report/report_text_add.h"	/* iotrial's part */

#include <errno.h>
#include <math.h>	/* round */
#include <stdlib.h>	/* qsort */
#include <string.h>
#include <time.h>	/* localtime_r, strftime */
#include "report/report_calc.h"
#include "report/report_fionum.h"
#include "parse/opt.h"		/* opt_find: the rw line of the job header */
#include "parse/opt_parse.h"		/* opt_show_rw */

/* fio's latency line unit: usec, msec only when the spread is that wide too. */
static const char *lat_unit(uint64_t *min, uint64_t *max, double *mean, double *sd)
{
	double div;
	const char *name;

	if (*min > 2000000 && *max > 99999999ull && *sd > 1e6) {
		div = 1e6;
		name = "msec";
	} else if (*min > 2000 && *max > 99999 && *sd > 1e3) {
		div = 1e3;
		name = "usec";
	} else {
		return "nsec";
	}
	*min = (uint64_t)((double)*min / div);
	*max = (uint64_t)((double)*max / div);
	*mean /= div;
	*sd /= div;
	return name;
}

/* "    clat (usec): min=73, max=12031k, avg=101.25, stdev=20.07", as fio. */
static void text_lat_line(FILE *f, const char *name, const struct moments *m)
{
	uint64_t min = m->min, max = m->max;
	double mean = m->mean, sd = moments_stddev(m);
	const char *u = lat_unit(&min, &max, &mean, &sd);
	char a[32], b[32];

	report_fionum(a, sizeof(a), min, 6, 0, "");
	report_fionum(b, sizeof(b), max, 6, 0, "");
	fprintf(f, "    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, u, a, b, mean, sd);
}

/* A share of all I/Os as fio shows it: a non-zero one never under @floor_v. */
static double fio_share(double pct, double floor_v)
{
	return pct > 0 && pct < floor_v ? floor_v : pct;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Decimals a percentile list needs (fio: the most any entry was typed with). */
static int pct_precision(const double *p, size_t n)
{
	int prec = 0;

	for (size_t i = 0; i < n; i++)
		for (int d = prec; d < 6; d++) {
			double sc = p[i] * pow(10, d);

			if (fabs(sc - round(sc)) < 1e-6 * (sc > 1 ? sc : 1)) {
				prec = d;
				break;
			}
		}
	return prec;
}

/*
 * "    clat percentiles (usec):" and rows "     |  1.00th=[  100], ...", as
 * fio: nsec unless the values run that wide (usec: the smallest over 2000
 * and the largest over 99999; msec likewise by 1000), rounded up into the
 * unit; as many per row as fit in 80 columns.
 */
static void text_percentiles(FILE *f, const char *name, const struct hist *h,
			     const struct job *job)
{
	double p[REPORT_PCT_MAX];
	uint64_t v[REPORT_PCT_MAX], minv, maxv, div = 1;
	const double *list;
	size_t n = report_percentile_list(job, &list);
	const char *u = "nsec";
	int prec, width = 5, per_line, steps = 0;
	char num[32];

	if (n > REPORT_PCT_MAX)
		n = REPORT_PCT_MAX;
	if (!n)
		return;
	memcpy(p, list, n * sizeof(*p));
	qsort(p, n, sizeof(*p), cmp_double);
	hist_percentiles(h, p, n, v);
	minv = maxv = v[0];
	for (size_t i = 1; i < n; i++) {
		minv = v[i] < minv ? v[i] : minv;
		maxv = v[i] > maxv ? v[i] : maxv;
	}
	if (minv > 2000000 && maxv > 99999999ull) {
		u = "msec";
		div = 1000000;
		steps = 2;
	} else if (minv > 2000 && maxv > 99999) {
		u = "usec";
		div = 1000;
		steps = 1;
	}
	if (snprintf(num, sizeof(num), "%llu", (unsigned long long)(maxv / div)) > width)
		width = (int)strlen(num);
	prec = pct_precision(p, n);
	per_line = (80 - 7) / (prec + 10 + width);
	fprintf(f, "    %s percentiles (%s):\n     |", name, u);
	for (size_t i = 0; i < n; i++) {
		uint64_t x = v[i];

		for (int k = 0; k < steps; k++)
			x = (x + 999) / 1000;	/* up, as fio rounds */
		if (i && i % (size_t)per_line == 0)
			fputs("     |", f);
		fprintf(f, " %*.*fth=[%*llu]%c", prec + 3, prec, p[i], width, (unsigned long long)x,
			i + 1 == n ? '\n' : ',');
		if (i + 1 < n && i % (size_t)per_line == (size_t)per_line - 1)
			fputc('\n', f);
	}
}

/*
 * "   bw (  KiB/s): min=..." and "   iops        : min=..." when sampled:
 * fio's whole-number extremes, MiB/s once the mean is above 1 GiB/s in KiB.
 */
static void text_samples(FILE *f, const struct dir_result *d)
{
	const struct sample_stat *b = &d->bw_kib, *io = &d->iops;

	if (b->n) {
		double min = b->min, max = b->max, mean = b->mean, sd = sample_stat_stddev(b);
		const char *u = "KiB";

		if (mean > 1024.0 * 1024.0) {
			min /= 1024;
			max /= 1024;
			mean /= 1024;
			sd /= 1024;
			u = "MiB";
		}
		fprintf(f, "   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, avg=%5.02f, "
			"stdev=%5.02f, samples=%llu\n", u, (unsigned long long)min,
			(unsigned long long)max, d->bw_agg_pct, mean, sd, (unsigned long long)b->n);
	}
	if (io->n)
		fprintf(f, "   iops        : min=%5llu, max=%5llu, avg=%5.02f, stdev=%5.02f, "
			"samples=%llu\n", (unsigned long long)io->min, (unsigned long long)io->max,
			io->mean, sample_stat_stddev(io), (unsigned long long)io->n);
}

/* significant_figures of @j: fio's 4 for a job that never went through the
 * option table (built by hand, or a result whose job is not known here) */
static int text_sig_figs(const struct job *j)
{
	return j && j->sig_figs > 0 ? j->sig_figs : 4;
}

/* "  read: IOPS=4193, BW=16.4MiB/s (17.2MB/s)(164MiB/10001msec)", fio's integers. */
static void text_dir(FILE *f, const struct job_result *jr, const struct dir_result *dr,
		     const char *name)
{
	struct report_pct_on on;
	uint64_t bw, iops;
	char ip[32], bp[32], bd[32], io[32], zr[48] = "";

	if (!dr->runtime_ms)
		return;
	report_pct_on(jr->job, &on);
	bw = 1000 * dr->io_bytes / dr->runtime_ms;
	iops = 1000 * dr->total_ios / dr->runtime_ms;
	report_fionum(ip, sizeof(ip), iops, text_sig_figs(jr->job), 0, "");
	report_fionum(bp, sizeof(bp), bw, text_sig_figs(jr->job), 1, "B/s");
	report_fionum(bd, sizeof(bd), bw, text_sig_figs(jr->job), 0, "B/s");
	report_fionum(io, sizeof(io), dr->io_bytes, text_sig_figs(jr->job), 1, "B");
	/* fio 3.33 counts zone resets on writes (0 off zoned devices) */
	if (dr == &jr->dir[DDIR_WRITE])
		snprintf(zr, sizeof(zr), "; %llu zone resets", (unsigned long long)jr->zone_resets);
	fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%llumsec)%s\n", name, ip, bp, bd, io,
		(unsigned long long)dr->runtime_ms, zr);
	if (dr->slat.n)
		text_lat_line(f, "slat", &dr->slat);
	if (dr->clat.n)
		text_lat_line(f, "clat", &dr->clat);
	if (dr->lat.n)
		text_lat_line(f, " lat", &dr->lat);
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
		snprintf(p, sizeof(p), "%3.2f%%", fio_share(pct[i], 0.01));
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
		snprintf(p, sizeof(p), "%3.1f%%", map[i] ? fio_share(pct[i], 0.1) : 0.0);
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

static void text_time(char *buf, size_t n, time_t t)
{
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, n, "%a %b %e %H:%M:%S %Y", &tm))
		snprintf(buf, n, "%lld", (long long)t);
}

/* One job's block, as fio prints it (nothing of iotrial's: that comes after). */
static void text_job(FILE *f, const struct job_result *jr, time_t when)
{
	int per_dir = !jr->job || jr->job->unified_rw_reporting != 1;	/* mixed: only the sum */
	char date[64];

	if (!result_job_did_io(jr))
		return;
	/* the time its last thread ended (fio prints the time of its report) */
	text_time(date, sizeof(date), jr->end_time ? jr->end_time : when);
	fprintf(f, "%s: (groupid=%u, jobs=%u): err=%2d", jr->name, jr->groupid,
		jr->nr_threads ? jr->nr_threads : 1, result_job_error(jr));
	if (jr->error)
		fprintf(f, " (%s)", jr->first_error[0] ? jr->first_error : strerror(jr->error));
	else if (result_job_error(jr))	/* continue_on_error: fio's empty "()" */
		fprintf(f, " ()");
	fprintf(f, ": pid=%d: %s\n", jr->pid, date);
	if (jr->job && jr->job->description && jr->job->description[0])
		fprintf(f, "  Description  : [%s]\n", jr->job->description);
	for (unsigned d = 0; per_dir && d < DDIR_NR; d++)
		if (jr->dir[d].io_bytes)
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
}

/* "(R) 4096B-64.0KiB": a direction's smallest and largest block, as fio. */
static void text_bs(char *buf, size_t n, const struct job *j, unsigned d)
{
	uint64_t lo = j->bs_min[d], hi = j->bs_max[d];
	char a[32], b[32];

	for (unsigned i = 0; i < j->bssplit_nr[d]; i++) {
		uint64_t v = j->bssplit[d][i].bs;

		lo = i == 0 || v < lo ? v : lo;
		hi = i == 0 || v > hi ? v : hi;
	}
	report_fionum(a, sizeof(a), lo, text_sig_figs(j), 1, "B");
	report_fionum(b, sizeof(b), hi, text_sig_figs(j), 1, "B");
	snprintf(buf, n, "(%c) %s-%s", "RWT"[d], a, b);
}

/*
 * fio's first lines: one per job as defined ("..." under it for its
 * clones), the version, how many processes and threads start, and a line
 * for each thread that laid out files (their whole sizes, in whole MiB).
 */
static void text_header(FILE *f, const struct run_result *r)
{
	const struct opt_def *o = opt_find("rw");
	unsigned procs = 0, threads = 0;

	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct job *j = r->jobs[i].job;
		char rw[64] = "", bs[DDIR_NR][80];
		size_t k;

		for (k = 0; k < i && r->jobs[k].job != j; k++)
			;
		if (!j || k < i)	/* a clone, or group_reporting's other threads */
			continue;
		if (o && !opt_show_rw(j, o, rw, sizeof(rw)))
			rw[strcspn(rw, ":")] = '\0';	/* fio names the mode, not its modifier */
		for (unsigned d = 0; d < DDIR_NR; d++)
			text_bs(bs[d], sizeof(bs[d]), j, d);
		fprintf(f, "%s: (g=%u): rw=%s, bs=%s, %s, %s, ioengine=%s, iodepth=%u\n", j->name,
			r->jobs[i].groupid, rw, bs[0], bs[1], bs[2],
			j->ioengine ? j->ioengine : "psync", j->iodepth);
		if (j->numjobs > 1)
			fputs("...\n", f);
		if (j->thread)
			threads += j->numjobs ? j->numjobs : 1;
		else
			procs += j->numjobs ? j->numjobs : 1;
	}
	fprintf(f, "iotrial-%s\n", IOTRIAL_VERSION);
	if (threads && procs)
		fprintf(f, "Starting %u thread%s and %u process%s\n", threads, threads > 1 ? "s" : "",
			procs, procs > 1 ? "es" : "");
	else if (threads)
		fprintf(f, "Starting %u thread%s\n", threads, threads > 1 ? "s" : "");
	else
		fprintf(f, "Starting %u process%s\n", procs, procs != 1 ? "es" : "");
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct job_result *jr = &r->jobs[i];

		/* group_reporting merged its threads: each laid out its share */
		for (unsigned t = 0; t < jr->laid_threads; t++) {
			unsigned n = jr->laid_files / jr->laid_threads;

			fprintf(f, "%s: Laying out IO file%s (%u file%s / %s%lluMiB)\n", jr->name,
				n > 1 ? "s" : "", n, n > 1 ? "s" : "", n > 1 ? "total " : "",
				(unsigned long long)(jr->laid_bytes / jr->laid_threads >> 20));
		}
	}
	fputc('\n', f);
}

/* Totals of one direction over the jobs of one group, fio's integers. */
struct group_dir {
	uint64_t io_bytes;
	uint64_t bw_min, bw_max;	/* per-job bytes/s */
	uint64_t run_min, run_max;	/* ms */
	unsigned jobs;
	int sig_figs;			/* the last job's significant_figures, as fio's group */
};

static void group_dir_sum(const struct run_result *r, unsigned gid, unsigned d,
			  struct group_dir *g)
{
	memset(g, 0, sizeof(*g));
	g->sig_figs = 4;
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct dir_result *dr = &r->jobs[i].dir[d];
		uint64_t bw;

		if (r->jobs[i].groupid != gid || !dr->runtime_ms)
			continue;
		bw = 1000 * dr->io_bytes / dr->runtime_ms;
		if (!g->jobs || bw < g->bw_min)
			g->bw_min = bw;
		if (!g->jobs || bw > g->bw_max)
			g->bw_max = bw;
		if (!g->jobs || dr->runtime_ms < g->run_min)
			g->run_min = dr->runtime_ms;
		if (!g->jobs || dr->runtime_ms > g->run_max)
			g->run_max = dr->runtime_ms;
		g->io_bytes += dr->io_bytes;
		g->sig_figs = text_sig_figs(r->jobs[i].job);
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
	uint64_t bw;

	fprintf(f, "\nRun status group %u (all jobs):\n", gid);
	for (unsigned d = 0; d < DDIR_NR; d++) {
		group_dir_sum(r, gid, d, &g);
		if (!g.jobs || !g.run_max)
			continue;
		bw = g.io_bytes * 1000 / g.run_max;
		report_fionum(a, sizeof(a), bw, g.sig_figs, 1, "B/s");
		report_fionum(ad, sizeof(ad), bw, g.sig_figs, 0, "B/s");
		report_fionum(lo, sizeof(lo), g.bw_min, g.sig_figs, 1, "B/s");
		report_fionum(lod, sizeof(lod), g.bw_min, g.sig_figs, 0, "B/s");
		report_fionum(hi, sizeof(hi), g.bw_max, g.sig_figs, 1, "B/s");
		report_fionum(hid, sizeof(hid), g.bw_max, g.sig_figs, 0, "B/s");
		report_fionum(io, sizeof(io), g.io_bytes, g.sig_figs, 1, "B");
		report_fionum(iod, sizeof(iod), g.io_bytes, g.sig_figs, 0, "B");
		fprintf(f, "%7s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%llu-%llumsec\n",
			up[d], a, ad, lo, hi, lod, hid, io, iod,
			(unsigned long long)g.run_min, (unsigned long long)g.run_max);
	}
}

static void text_groups(FILE *f, const struct run_result *r)
{
	unsigned gid = 0;

	for (int ok = result_next_group(r, 1, 0, &gid); ok; ok = result_next_group(r, 0, gid, &gid))
		text_group(f, r, gid);
}

static void text_disks(FILE *f, const struct run_result *r)
{
	if (!r->nr_du)
		return;
	fprintf(f, "\nDisk stats (read/write):\n");
	for (size_t i = 0; i < r->nr_du; i++) {
		const struct disk_util *d = &r->du[i];

		fprintf(f, "  %s: ios=%llu/%llu, merge=%llu/%llu, ticks=%llu/%llu, "
			"in_queue=%llu, util=%3.2f%%\n", d->name,
			(unsigned long long)d->read_ios, (unsigned long long)d->write_ios,
			(unsigned long long)d->read_merges, (unsigned long long)d->write_merges,
			(unsigned long long)d->read_ticks, (unsigned long long)d->write_ticks,
			(unsigned long long)d->in_queue, d->util);
	}
}

void report_text_idle(FILE *f, const struct idleprof_result *ip)
{
	if (ip->mode == IDLEPROF_NONE)
		return;
	fprintf(f, "%sCPU idleness:\n", ip->mode == IDLEPROF_CALIBRATE ? "" : "\n");
	if (ip->mode >= IDLEPROF_SYSTEM)
		fprintf(f, "  system: %3.2f%%\n", ip->system_pct);
	if (ip->mode == IDLEPROF_PERCPU) {
		fprintf(f, "  percpu:");
		for (size_t i = 0; i < ip->nr_cpus; i++)
			fprintf(f, "%s %3.2f%%", i ? "," : "", ip->cpus[i].pct);
		fputc('\n', f);
	}
	fprintf(f, "  unit work: mean=%3.2fus, stddev=%3.2f\n", ip->unit_mean_us, ip->unit_stddev_us);
}

int report_text_write(FILE *f, const struct run_result *r, struct err *e)
{
	/* fio's part, in its format */
	text_header(f, r);
	for (size_t i = 0; i < r->nr_jobs; i++)
		text_job(f, &r->jobs[i], r->timestamp);
	text_groups(f, r);
	text_disks(f, r);
	report_text_idle(f, &r->idle);
	/* iotrial's, after every line of fio's */
	report_text_add_write(f, r);
	if (fflush(f) == EOF || ferror(f))
		return err_set(e, -EIO, EXIT_OUTPUT, "cannot write the text report: %s",
			       strerror(errno ? errno : EIO));
	return 0;
}
