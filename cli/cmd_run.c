/*
 * cmd_run: the fio-compatible mode.  Runs the parsed jobs, shows progress on
 * a terminal, and writes the requested formats whole to --output or stdout.
 * When JSON goes to stdout, stdout carries only JSON: progress, status lines
 * and errors all go to stderr.
 */
#include <errno.h>	/* errno */
#include <jansson.h>	/* --status-output lines */
#include <pthread.h>	/* pthread_sigmask */
#include <signal.h>	/* sigset_t */
#include <stdio.h>	/* fprintf */
#include <string.h>	/* memset, strerror */
#include <unistd.h>	/* isatty, getpid */

#include "cmd.h"
#include "history_hooks.h"
#include "lib/human.h"	/* status lines: rates, counts, latencies */
#include "lib/mpienv.h"	/* mpienv_launched */
#include "mpi/mpirank.h"	/* MPI mode: one rank of a run (docs/mpi.md) */
#include "parse/cmdline.h"
#include "lib/err.h"
#include "log/agglog.h"	/* --bandwidth-log paths */
#include "log/fiolog.h"
#include "lib/outfile.h"
#include "parse/preset.h"
#include "report/report_json.h"
#include "report/report_summary.h"
#include "report/report_text.h"
#include "report/report_terse.h"
#include "result/result.h"
#include "run/run.h"
#include "io/safety.h"
#include "lib/utf8.h"

struct progress_state {
	const struct cmdline *cl;
	int eta_line;			/* an ETA line on a terminal */
	double last_newline_s;		/* --eta-newline: when the last one was kept */
	int status;			/* --status-interval lines */
	const char *status_path;	/* --status-output=FILE */
	FILE *status_json;		/* the status lines go there, as JSON */
	int drawn;			/* an ETA line is on screen */
	struct run_progress last;	/* at the last ETA rate update */
	double rate_bytes[DDIR_NR], rate_ios[DDIR_NR];
};

static void fmt_time(char *buf, size_t len, double s)
{
	unsigned long t = s < 0 ? 0 : (unsigned long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%luh:%02lum:%02lus", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%02lum:%02lus", t / 60, t % 60);
}

/* "; steady since 12 s", "; steady lost at 8 s" or "" (steady_live.h). */
static const char *status_steady(const struct run_progress_job *e, char *buf, size_t len)
{
	if (e->steady == 1)
		snprintf(buf, len, "; steady since %g s", (double)e->steady_since_ms / 1000.0);
	else if (e->steady == 2)
		snprintf(buf, len, "; steady lost at %g s", (double)e->steady_lost_ms / 1000.0);
	else
		buf[0] = 0;
	return buf;
}

/*
 * One status line per job (or group) with new intervals:
 *   status: 3.0s 'seq' read: 2000 IOPS, 7.8MiB/s, lat mean 812ns p99 1.2us; write: ...
 */
static void status_text(const struct run_progress *p, const struct run_progress_job *e)
{
	char who[300], dirs[4 * 160] = "", steady[64];
	size_t used = 0;

	if (e->threads > 1)
		snprintf(who, sizeof(who), "'%s' (%u threads)", e->name, e->threads);
	else if (e->clone)
		snprintf(who, sizeof(who), "'%s'#%u", e->name, e->clone + 1);
	else
		snprintf(who, sizeof(who), "'%s'", e->name);
	for (int d = 0; d < DDIR_NR; d++) {
		const struct run_progress_dir *pd = &e->d[d];
		char iops[32], bw[32], mean[32], p99[32];
		int n;

		if (!(e->dirs & (1u << d)))
			continue;
		human_count(iops, sizeof(iops), pd->iops, HUMAN_STATUS);
		human_rate(bw, sizeof(bw), pd->bw_bytes, HUMAN_STATUS);
		human_ns(mean, sizeof(mean), pd->lat_mean, HUMAN_STATUS);
		human_ns(p99, sizeof(p99), (double)pd->p99, HUMAN_STATUS);
		n = snprintf(dirs + used, sizeof(dirs) - used, "%s%s: %s IOPS, %s, lat mean %s p99 %s",
			     used ? "; " : "", ddir_name(d), iops, bw, mean, p99);
		if (n > 0 && (size_t)n < sizeof(dirs) - used)
			used += (size_t)n;
	}
	fprintf(stderr, "status: %.1fs %s%s %s%s\n", p->elapsed_s, who, e->ramp ? " (ramp)" : "", dirs,
		status_steady(e, steady, sizeof(steady)));
}

/* The same as one JSON object on one line (--status-output). */
static void status_json(FILE *f, const struct run_progress *p, const struct run_progress_job *e)
{
	json_t *o = json_pack("{s:I, s:o, s:i, s:i, s:i, s:I, s:I, s:I, s:I}",
			      "time_ms", (json_int_t)(p->elapsed_s * 1000 + 0.5), "job", utf8_json(e->name),
			      "clone", (int)e->clone, "groupid", (int)e->groupid,
			      "threads", (int)e->threads, "t_ms", (json_int_t)e->t_ms,
			      "dur_us", (json_int_t)e->dur_us, "first_interval", (json_int_t)e->first_iv,
			      "intervals", (json_int_t)e->nr_iv);

	if (!o)
		return;
	if (e->ramp)
		json_object_set_new(o, "ramp", json_true());
	if (e->steady >= 0) {
		static const char *const state[] = { "searching", "steady", "lost" };

		json_object_set_new(o, "steady", json_pack("{s:s, s:I, s:I}", "state", state[e->steady],
				    "since_ms", (json_int_t)e->steady_since_ms,
				    "lost_ms", (json_int_t)e->steady_lost_ms));
	}
	for (int d = 0; d < DDIR_NR; d++) {
		const struct run_progress_dir *pd = &e->d[d];

		json_object_set_new(o, ddir_name(d),
			json_pack("{s:I, s:I, s:f, s:I, s:{s:f, s:I, s:I, s:I, s:I, s:I}}",
				  "ios", (json_int_t)pd->ios, "bytes", (json_int_t)pd->bytes,
				  "iops", pd->iops, "bw_bytes", (json_int_t)(pd->bw_bytes + 0.5),
				  "lat_ns", "mean", pd->lat_mean, "min", (json_int_t)pd->lat_min,
				  "max", (json_int_t)pd->lat_max, "p50", (json_int_t)pd->p50,
				  "p99", (json_int_t)pd->p99, "p99.9", (json_int_t)pd->p999));
	}
	json_dumpf(o, f, JSON_COMPACT | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	fflush(f);	/* a reader tailing the file sees each line whole */
	json_decref(o);
}

/*
 * The ETA line's rates, refreshed about once a second (--eta-interval)
 * whatever the calls: the period less a tenth, so a call a little early
 * does not skip one.
 */
static void eta_rates(struct progress_state *ps, const struct run_progress *p)
{
	double dt = p->elapsed_s - ps->last.elapsed_s;
	double period = ps->cl->eta_interval_us ? (double)ps->cl->eta_interval_us / 1e6 : 1.0;

	if (dt < period * 0.9)
		return;
	for (int d = 0; d < DDIR_NR; d++) {
		ps->rate_bytes[d] = (double)(p->bytes[d] - ps->last.bytes[d]) / dt;
		ps->rate_ios[d] = (double)(p->ios[d] - ps->last.ios[d]) / dt;
	}
	ps->last = *p;
	ps->last.jobs = NULL;
}

/* Called by the run loop: status lines for new intervals, or the ETA line. */
static void on_progress(void *arg, const struct run_progress *p)
{
	struct progress_state *ps = arg;
	char rr[32], wr[32], ri[32], wi[32], eta[32], pct[16];

	if (ps->status) {
		for (size_t i = 0; i < p->nr_jobs; i++) {
			if (!p->jobs[i].nr_iv)
				continue;
			if (ps->status_json)
				status_json(ps->status_json, p, &p->jobs[i]);
			else
				status_text(p, &p->jobs[i]);
		}
		return;
	}
	if (!ps->eta_line)
		return;
	eta_rates(ps, p);
	human_rate(rr, sizeof(rr), ps->rate_bytes[DDIR_READ], HUMAN_STATUS);
	human_rate(wr, sizeof(wr), ps->rate_bytes[DDIR_WRITE], HUMAN_STATUS);
	human_count(ri, sizeof(ri), ps->rate_ios[DDIR_READ], HUMAN_STATUS);
	human_count(wi, sizeof(wi), ps->rate_ios[DDIR_WRITE], HUMAN_STATUS);
	if (p->eta_s >= 0)
		fmt_time(eta, sizeof(eta), p->eta_s);
	else
		snprintf(eta, sizeof(eta), "--");
	if (p->pct >= 0)
		snprintf(pct, sizeof(pct), "%.1f%%", p->pct);
	else
		snprintf(pct, sizeof(pct), "-.-%%");
	/* the phase by its name: a startdelay wait is not a ramp */
	fprintf(stderr, "\rJobs: %u/%u: [%s%s%s][r=%s,w=%s][r=%s,w=%s IOPS][eta %s]\033[K",
		p->running, p->total, pct, p->ramping ? " ramp" : "",
		p->delaying ? " startdelay" : "", rr, wr, ri, wi, eta);
	ps->drawn = 1;
	/* --eta-newline=T: keep one line per period instead of redrawing */
	if (ps->cl->eta_newline_us &&
	    p->elapsed_s - ps->last_newline_s >= (double)ps->cl->eta_newline_us / 1e6) {
		fputc('\n', stderr);
		ps->last_newline_s = p->elapsed_s;
		ps->drawn = 0;
	}
}

/* fio's clocksource is a job option but one clock serves the whole run. */
/*
 * error_dump=1: one line per error continue_on_error let pass, in fio's words
 * ("io_u error on file F: <why>: write offset=O, buflen=L") and the job's
 * name.  Called on the job's thread: one fprintf, which stdio locks.
 */
static void on_error_dump(void *arg, const struct ioerr_event *ev)
{
	char name[3 * JOB_NAME_MAX], file[3 * 256], why[128];
	const char *dir = ev->ddir < DDIR_NR ? ddir_name((enum ddir)ev->ddir) : "sync";

	(void)arg;
	err_escape(name, sizeof(name), ev->job);
	if (ev->msg) {		/* a verify failure continue_on_error=verify let pass */
		char msg[3 * 600];

		err_escape(msg, sizeof(msg), ev->msg);
		fprintf(stderr, "iotrial: verify: %s (job '%s')\n", msg, name);
		return;
	}
	err_escape(file, sizeof(file), ev->file);
	fprintf(stderr, "iotrial: io_u error on file %s: %s: %s offset=%llu, buflen=%llu (job '%s')\n",
		file, strerror_r(ev->err, why, sizeof(why)), dir,
		(unsigned long long)ev->offset, (unsigned long long)ev->len, name);
}

static enum clock_mode clock_mode(const struct cmdline *cl)
{
	size_t i;

	for (i = 0; i < cl->jobs_nr; i++)
		if (cl->jobs[i].clocksource != CLOCK_MODE_AUTO)
			return cl->jobs[i].clocksource;
	return CLOCK_MODE_AUTO;
}

/* --debug=random: each job's random seeds, "random   PID rand_seeds[i]=V" (newer fio's line). */
static void debug_random(FILE *f, const struct run_result *res)
{
	long pid = (long)getpid();

	for (size_t i = 0; i < res->nr_jobs; i++)
		for (unsigned k = 0; k < 4; k++)
			fprintf(f, "random   %ld rand_seeds[%u]=%llu\n", pid, k,
				(unsigned long long)res->jobs[i].rand_seeds[k]);
}

/* Write every requested format, in fio's order, to one output, whole. */
static int write_results(const struct cmdline *cl, const struct run_result *res, struct err *e)
{
	struct outfile of;
	int r;

	r = outfile_open(&of, cl->output, e);
	if (r)
		return r;
	if (cl->debug_random)	/* into the text output as fio; JSON stays alone */
		debug_random(cl->formats & (CMDLINE_FMT_JSON | CMDLINE_FMT_JSONPLUS) ? stderr : of.f, res);
	if (cl->formats & CMDLINE_FMT_NORMAL)
		r = report_text_write(of.f, res, e);
	/*
	 * The summary table: after the text of a preset run, and alone with
	 * --output-format=summary (a preset's kind, or a row per job) -- the
	 * one screen without the ~30 lines per job before it.
	 */
	if (!r && (((cl->formats & CMDLINE_FMT_NORMAL) && cl->preset && preset_find(cl->preset)) ||
		   (cl->formats & CMDLINE_FMT_SUMMARY))) {
		static const struct preset per_job = { .name = "", .summary = PRESET_SUMMARY_TESTS };
		const struct preset *p = cl->preset ? preset_find(cl->preset) : NULL;

		r = report_summary_write(of.f, res, p ? p : &per_job, e);
	}
	if (!r && (cl->formats & CMDLINE_FMT_TERSE))
		r = report_terse_write(of.f, res, cl->terse_version, e);
	if (!r && (cl->formats & (CMDLINE_FMT_JSON | CMDLINE_FMT_JSONPLUS)))
		r = report_json_write(of.f, res, (cl->formats & CMDLINE_FMT_JSONPLUS) != 0, e);
	if (r) {
		outfile_abort(&of);
		if (e->exit_code == EXIT_OUTPUT) {
			/* the writers saw only a temporary FILE *: name the destination */
			struct err why = *e;

			err_clear(e);
			err_set(e, why.code, EXIT_OUTPUT, "cannot write results to %s: %s",
				cl->output && strcmp(cl->output, "-") ? cl->output : "stdout", why.msg);
		}
		return r;
	}
	return outfile_commit(&of, e);
}

/*
 * Every path the run writes that is not a job target (--output,
 * --status-output, each thread's log files) must not be a block device or a
 * special file (safety.h): checked before anything is opened or laid out.
 */
static int check_outputs(const struct cmdline *cl, struct err *e)
{
	unsigned k = 0;
	int r;

	r = safety_check_output(cl->output, "--output", cl->allow_output_device, e);
	if (!r)
		r = outfile_check(cl->output, e);
	if (!r && cl->status_interval_us)
		r = safety_check_output(cl->status_output, "--status-output",
					cl->allow_output_device, e);
	if (!r && cl->bandwidth_log)
		r = agglog_check(NULL, cl->allow_output_device, e);
	for (size_t i = 0; i < cl->jobs_nr && !r; i++) {
		const struct job *j = &cl->jobs[i];
		unsigned n = j->numjobs ? j->numjobs : 1;

		/* fiolog numbers a thread by its place among all threads, from 1 */
		for (unsigned c = 0; c < n && !r; c++)
			r = fiolog_check_paths(j, ++k, cl->allow_output_device, e);
	}
	return r;
}

/*
 * One run; under MPI (@mpi active) one rank of it: only rank 0 reports.
 * *@sig (when not NULL): the signal that stopped it, 0 if none.
 */
static int run_once(struct cmdline *cl, struct mpirank *mpi, int *sig_out)
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
	ps.status = cl->status_interval_us > 0 && !mpi->rank;	/* MPI: rank 0 speaks */
	ps.status_path = cl->status_output;
	if (check_outputs(cl, &e)) {	/* MPI: cmd_run releases the other ranks */
		fprintf(stderr, "iotrial: error: %s\n", e.msg);
		return e.exit_code ? e.exit_code : EXIT_OUTPUT;
	}
	if (ps.status && ps.status_path) {
		ps.status_json = fopen(ps.status_path, "w");
		if (!ps.status_json) {
			err_set(&e, -errno, EXIT_OUTPUT, "--status-output=%.255s: %s", ps.status_path,
				strerror(errno));	/* err_set: one line whatever the path holds */
			/* MPI: the other ranks wait in the start barrier for this word */
			mpirank_agree(mpi, -EIO, &e);
			fprintf(stderr, "iotrial: error: %s\n", e.msg);
			return EXIT_OUTPUT;
		}
	}
	ps.eta_line = cl->eta == CMDLINE_ETA_ALWAYS ||
		      (cl->eta == CMDLINE_ETA_AUTO && isatty(STDERR_FILENO));
	if (mpi->rank)	/* MPI: rank 0 speaks for all (docs/mpi.md) */
		ps.eta_line = 0;
	req.jobs = cl->jobs;
	req.nr_jobs = cl->jobs_nr;
	req.globals = cl->globals;
	req.nr_globals = cl->globals_nr;
	req.readonly = cl->readonly;
	req.aux_path = cl->aux_path;
	req.bandwidth_log = cl->bandwidth_log;
	req.idle_prof = cl->idle_prof;
	req.clock_mode = clock_mode(cl);
	req.handle_signals = 1;
	req.error_dump = on_error_dump;
	req.sync = mpi->active ? &mpi->sync : NULL;
	for (i = 0; i < cl->jobs_nr; i++) {	/* per-rank default targets */
		cl->jobs[i].rank = mpi->rank;
		cl->jobs[i].nranks = mpi->nranks;
	}
	if (ps.status || ps.eta_line) {
		req.progress = on_progress;
		req.progress_arg = &ps;
		req.progress_us = ps.status ? cl->status_interval_us :
			cl->eta_interval_us ? cl->eta_interval_us : 1000000;
	}
	r = run_execute(&req, &res, &e);
	if (mpi->started) {	/* every rank ran: merge on rank 0 */
		struct err me;
		int mr;

		err_clear(&me);
		mr = mpirank_gather(mpi, &res, cl->jobs, cl->jobs_nr, &me);
		if (!r && mr) {
			r = mr;
			e = me;
		}
		if (mpi->rank) {	/* not reporting: its result is in rank 0's */
			result_free(&res);
			return r ? (e.exit_code ? e.exit_code : EXIT_INTERNAL) : EXIT_OK;
		}
	}
	if (ps.drawn)
		fprintf(stderr, "\r\033[K");
	if (ps.status_json && fclose(ps.status_json)) {
		struct err se;

		err_clear(&se);
		err_set(&se, -errno, EXIT_OUTPUT, "--status-output=%.255s: %s",
			ps.status_path ? ps.status_path : "", strerror(errno));
		fprintf(stderr, "iotrial: error: %s\n", se.msg);
		code = EXIT_OUTPUT;
	}
	if (r) {
		if (!mpi->rank)
			fprintf(stderr, "iotrial: error: %s\n", e.msg);
		result_free(&res);
		return e.exit_code ? e.exit_code : EXIT_INTERNAL;
	}
	if (res.signal)
		fprintf(stderr, "iotrial: interrupted by signal %d: writing partial results\n", res.signal);
	for (i = 0; i < res.nr_jobs; i++) {
		if (res.jobs[i].error) {
			char name[3 * sizeof(res.jobs[i].name)], why[3 * sizeof(res.jobs[i].first_error)];

			/* one line each, whatever bytes a name or path holds */
			err_escape(name, sizeof(name), res.jobs[i].name);
			err_escape(why, sizeof(why), res.jobs[i].first_error);
			fprintf(stderr, "iotrial: job '%s' stopped on error: %s\n", name, why);
			/* verify's 8 first; a target that could not be laid out (a full
			 * disk) is README's 3, "could not be sized", not an I/O error's 1 */
			code = res.jobs[i].verify.failures || code == EXIT_VERIFY ? EXIT_VERIFY :
			       res.jobs[i].target_error || code == EXIT_TARGET ? EXIT_TARGET :
			       EXIT_JOB_ERROR;
		} else if (res.jobs[i].verify.failures) {
			/* continue_on_error=verify let them pass: the data is still bad */
			char name[3 * sizeof(res.jobs[i].name)];

			err_escape(name, sizeof(name), res.jobs[i].name);
			fprintf(stderr, "iotrial: job '%s': verify found %llu bad blocks of %llu "
				"checked (continue_on_error=verify let the job go on)\n", name,
				(unsigned long long)res.jobs[i].verify.failures,
				(unsigned long long)res.jobs[i].verify.blocks);
			code = EXIT_VERIFY;
		}
	}
	r = write_results(cl, &res, &e);
	/* --history: stored after the results, never changing the run's outcome */
	history_hooks_after_run(cl, &res, r ? EXIT_OUTPUT : res.signal ? EXIT_INTERRUPTED : code);
	sig = res.signal;
	if (sig_out)
		*sig_out = sig;
	result_free(&res);
	if (r) {
		fprintf(stderr, "iotrial: error: %s\n", e.msg);
		return EXIT_OUTPUT;
	}
	if (sig)
		return EXIT_INTERRUPTED;
	return code;
}

int cmd_run(struct cmdline *cl)
{
	struct mpirank mpi;
	struct err e;
	int code;

	err_clear(&e);
	if (mpienv_launched()) {
		sigset_t sigs;

		/* before MPI_Init: its threads inherit the mask (mpirank.h) */
		sigemptyset(&sigs);
		sigaddset(&sigs, SIGINT);
		sigaddset(&sigs, SIGTERM);
		pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	}
	if (mpirank_init(&mpi, &e)) {
		fprintf(stderr, "iotrial: error: %s\n", e.msg);
		code = e.exit_code ? e.exit_code : EXIT_INTERNAL;
	} else {
		code = run_once(cl, &mpi, NULL);
	}
	if (mpi.active && !mpi.agreed) {
		/* it failed before the start barrier: the other ranks wait there */
		err_clear(&e);
		err_set(&e, -ECANCELED, code ? code : EXIT_INTERNAL,
			"failed before the run (its own message above)");
		mpirank_agree(&mpi, -ECANCELED, &e);
	}
	code = mpirank_exit_code(&mpi, code);
	mpirank_finalize(&mpi);
	return code;
}

int cmd_run_rank(int argc, char **argv, struct mpirank *side, int *sig)
{
	struct cmdline cl;
	struct err e;
	int code;

	err_clear(&e);
	*sig = 0;
	if (cmdline_parse(argc, argv, &cl, &e)) {
		fprintf(stderr, "iotrial: error: %s\n", e.msg);
		code = e.exit_code ? e.exit_code : EXIT_INTERNAL;
	} else {
		code = run_once(&cl, side, sig);
	}
	cmdline_free(&cl);
	if (side->active && !side->agreed) {
		/* it failed before the start barrier: the side's other ranks wait there */
		err_clear(&e);
		err_set(&e, -ECANCELED, code ? code : EXIT_INTERNAL,
			"failed before the run (its own message above)");
		mpirank_agree(side, -ECANCELED, &e);
	}
	return code;
}
