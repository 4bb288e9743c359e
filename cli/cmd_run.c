/*
 * cmd_run: the fio-compatible mode.  Runs the parsed jobs, shows progress on
 * a terminal, and writes the requested formats whole to --output or stdout.
 * When JSON goes to stdout, stdout carries only JSON: progress, status lines
 * and errors all go to stderr.
 */
#include <stdio.h>	/* fprintf */
#include <string.h>	/* memset */
#include <unistd.h>	/* isatty */

#include "cmd.h"
#include "cmdline.h"
#include "err.h"
#include "outfile.h"
#include "report_json.h"
#include "report_text.h"
#include "result.h"
#include "run.h"

struct progress_state {
	const struct cmdline *cl;
	int eta_line;			/* an ETA line on a terminal */
	int status;			/* --status-interval lines */
	int drawn;			/* an ETA line is on screen */
	struct run_progress last;
};

static void fmt_rate(char *buf, size_t len, double bytes_per_s)
{
	static const char *const units[] = { "B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s" };
	unsigned u = 0;

	while (bytes_per_s >= 1024 * 10 && u < 4) {
		bytes_per_s /= 1024;
		u++;
	}
	snprintf(buf, len, "%.0f%s", bytes_per_s, units[u]);
}

static void fmt_count(char *buf, size_t len, double v)
{
	if (v >= 10e6)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else if (v >= 10e3)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
}

static void fmt_time(char *buf, size_t len, double s)
{
	unsigned long t = s < 0 ? 0 : (unsigned long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%luh:%02lum:%02lus", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%02lum:%02lus", t / 60, t % 60);
}

/* Called by the run loop about once a second (or every --status-interval). */
static void on_progress(void *arg, const struct run_progress *p)
{
	struct progress_state *ps = arg;
	double dt = p->elapsed_s - ps->last.elapsed_s;
	char rr[32], wr[32], ri[32], wi[32], eta[32], pct[16];

	if (dt <= 0)
		dt = 1;
	fmt_rate(rr, sizeof(rr), (double)(p->bytes[DDIR_READ] - ps->last.bytes[DDIR_READ]) / dt);
	fmt_rate(wr, sizeof(wr), (double)(p->bytes[DDIR_WRITE] - ps->last.bytes[DDIR_WRITE]) / dt);
	fmt_count(ri, sizeof(ri), (double)(p->ios[DDIR_READ] - ps->last.ios[DDIR_READ]) / dt);
	fmt_count(wi, sizeof(wi), (double)(p->ios[DDIR_WRITE] - ps->last.ios[DDIR_WRITE]) / dt);
	if (p->eta_s >= 0)
		fmt_time(eta, sizeof(eta), p->eta_s);
	else
		snprintf(eta, sizeof(eta), "--");
	if (p->pct >= 0)
		snprintf(pct, sizeof(pct), "%.1f%%", p->pct);
	else
		snprintf(pct, sizeof(pct), "-.-%%");
	if (ps->status) {
		fprintf(stderr, "status: t=%.1fs jobs=%u/%u%s read: %s %s IOPS, write: %s %s IOPS\n",
			p->elapsed_s, p->running, p->total, p->ramping ? " (ramp)" : "",
			rr, ri, wr, wi);
	} else if (ps->eta_line) {
		fprintf(stderr, "\rJobs: %u/%u: [%s%s][r=%s,w=%s][r=%s,w=%s IOPS][eta %s]\033[K",
			p->running, p->total, pct, p->ramping ? " ramp" : "", rr, wr, ri, wi, eta);
		ps->drawn = 1;
	}
	ps->last = *p;
}

/* fio's clocksource is a job option but one clock serves the whole run. */
static int clock_mode(const struct cmdline *cl)
{
	size_t i;

	for (i = 0; i < cl->jobs_nr; i++) {
		if (cl->jobs[i].clocksource == CLOCK_SRC_CPU)
			return RUN_CLOCK_TSC;
		if (cl->jobs[i].clocksource == CLOCK_SRC_CLOCK_GETTIME ||
		    cl->jobs[i].clocksource == CLOCK_SRC_GETTIMEOFDAY)
			return RUN_CLOCK_GETTIME;
	}
	return RUN_CLOCK_AUTO;
}

/* Write every requested format, in fio's order, to one output, whole. */
static int write_results(const struct cmdline *cl, const struct run_result *res, struct err *e)
{
	struct outfile of;
	int r;

	r = outfile_open(&of, cl->output, e);
	if (r)
		return r;
	if (cl->formats & CMDLINE_FMT_NORMAL)
		r = report_text_write(of.f, res, e);
	if (!r && (cl->formats & (CMDLINE_FMT_JSON | CMDLINE_FMT_JSONPLUS)))
		r = report_json_write(of.f, res, (cl->formats & CMDLINE_FMT_JSONPLUS) != 0, e);
	if (r) {
		outfile_abort(&of);
		return r;
	}
	return outfile_commit(&of, e);
}

int cmd_run(struct cmdline *cl)
{
	struct progress_state ps;
	struct run_req req;
	struct run_result res;
	struct err e;
	size_t i;
	int r, sig, code = EXIT_OK;

	memset(&ps, 0, sizeof(ps));
	memset(&req, 0, sizeof(req));
	err_clear(&e);
	ps.cl = cl;
	ps.status = cl->status_interval_us > 0;
	ps.eta_line = cl->eta == CMDLINE_ETA_ALWAYS ||
		      (cl->eta == CMDLINE_ETA_AUTO && isatty(STDERR_FILENO));
	req.jobs = cl->jobs;
	req.nr_jobs = cl->jobs_nr;
	req.globals = cl->globals;
	req.nr_globals = cl->globals_nr;
	req.readonly = cl->readonly;
	req.clock_mode = clock_mode(cl);
	req.handle_signals = 1;
	if (ps.status || ps.eta_line) {
		req.progress = on_progress;
		req.progress_arg = &ps;
		req.progress_us = ps.status ? cl->status_interval_us : 1000000;
	}
	r = run_execute(&req, &res, &e);
	if (ps.drawn)
		fprintf(stderr, "\r\033[K");
	if (r) {
		fprintf(stderr, "iotrial: error: %s\n", e.msg);
		result_free(&res);
		return e.exit_code ? e.exit_code : EXIT_INTERNAL;
	}
	if (res.signal)
		fprintf(stderr, "iotrial: interrupted by signal %d: writing partial results\n", res.signal);
	for (i = 0; i < res.nr_jobs; i++) {
		if (res.jobs[i].error) {
			fprintf(stderr, "iotrial: job '%s' stopped on error: %s\n", res.jobs[i].name,
				res.jobs[i].first_error);
			code = EXIT_JOB_ERROR;
		}
	}
	r = write_results(cl, &res, &e);
	sig = res.signal;
	result_free(&res);
	if (r) {
		fprintf(stderr, "iotrial: error: %s\n", e.msg);
		return EXIT_OUTPUT;
	}
	if (sig)
		return EXIT_INTERRUPTED;
	return code;
}
