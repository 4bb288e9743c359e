/*
 * trial: the loop of an A/B trial (trial.h).  Moved here from cli/cmd_ab.c,
 * which keeps the argument parsing, the process spawning and the report.
 */
#include "trial/trial.h"
#include "trial/trial_host.h"
#include "lib/outfile.h"	/* the manifest appears whole or not at all */
#include "lib/vec.h"	/* vec_grow, vec_free_strings */

#include <errno.h>
#include <math.h>	/* floor, isfinite, NAN */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>	/* mkdir, stat */
#include <unistd.h>	/* access, unlink */

static void say(struct trial *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(struct trial *t, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!t->cfg->say)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	t->cfg->say(t->cfg->say_arg, line);
}

int trial_signalled(struct trial *t, double s)
{
	struct timespec ts = { (time_t)s, (long)((s - floor(s)) * 1e9) };
	int sig;

	if (!t->cfg->handle_signals) {
		if (s > 0)
			nanosleep(&ts, NULL);
		return 0;
	}
	if (!t->sig) {
		while ((sig = sigtimedwait(&t->sigs, NULL, &ts)) < 0 && errno == EINTR)
			;
		if (sig > 0)
			t->sig = sig;
	}
	return t->sig;
}

static double since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

static int64_t epoch_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* A new directory, or an existing empty one: runs of two trials never mix. */
static int prepare_dir(struct trial *t, struct err *e)
{
	struct stat st;
	char probe[PATH_MAX + 32];

	if (t->cfg->dir)
		snprintf(t->dir, sizeof(t->dir), "%s", t->cfg->dir);
	else
		abrun_default_dir(t->dir, sizeof(t->dir), time(NULL));
	if (!mkdir(t->dir, 0777))
		return 0;
	if (errno != EEXIST || stat(t->dir, &st) || !S_ISDIR(st.st_mode))
		return err_set(e, -errno, EXIT_OUTPUT, "ab: cannot create %s: %s", t->dir,
			       strerror(errno ? errno : ENOTDIR));
	snprintf(probe, sizeof(probe), "%s/manifest.json", t->dir);
	if (!access(probe, F_OK))
		return err_set(e, -EEXIST, EXIT_USAGE, "ab: %s already holds a trial "
			       "(manifest.json); use a new --dir", t->dir);
	return 0;
}

static int add_keys(struct trial *t, char **keys, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < t->nkeys && strcmp(t->keys[k], keys[i]); k++)
			;
		if (k < t->nkeys)
			continue;
		if (vec_grow((void **)&t->keys, &t->keys_cap, t->nkeys + 1, sizeof(*t->keys), 8))
			return -ENOMEM;
		t->keys[t->nkeys++] = keys[i];
	}
	return 0;
}

/*
 * Parse both sides; keep their keys (what compare should expect to differ).
 * A side given as a job file sets keys nobody listed: then any job option
 * may differ ("*").  Without common options, both sides must be job files.
 */
static int prepare_sides(struct trial *t, struct err *e)
{
	static char any[] = "*";
	char *anyv[] = { any };
	int s, ret, files = 0;

	for (s = 0; s < 2; s++) {
		size_t nk;

		ret = abrun_side_args(s ? "--b" : "--a", s ? t->cfg->b_spec : t->cfg->a_spec,
				      &t->side_args[s], &t->nside_args[s], &t->side_keys[s],
				      &t->nside_keys[s], e);
		if (ret)
			return ret;
		if (t->cfg->side_set && abrun_side_set(t->side_args[s], t->nside_args[s]))
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		nk = t->nside_keys[s];
		files += nk == 0;
		if (add_keys(t, nk ? t->side_keys[s] : anyv, nk ? nk : 1))
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	}
	if (!t->cfg->ncommon && files < 2)
		return err_set(e, -EINVAL, EXIT_USAGE, "ab: no job: give fio options "
			       "(--name=...) or a job file, or a job file for each of --a and --b");
	return 0;
}

/*
 * Each side's whole command line (common and side options) as the runner
 * parses it, before any run and before the trial directory: a misspelt
 * option or a bare word costs nothing.
 */
static int check_sides(struct trial *t, struct err *e)
{
	const struct trial_cfg *c = t->cfg;
	int s;

	for (s = 0; c->check && s < 2; s++) {
		char **v = calloc(c->ncommon + t->nside_args[s] + 1, sizeof(*v));
		size_t n = 0, i;
		int ret;

		if (!v)
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		for (i = 0; i < c->ncommon; i++)
			v[n++] = c->common[i];
		for (i = 0; i < t->nside_args[s]; i++)
			v[n++] = t->side_args[s][i];
		ret = c->check(c->spawn_arg, s, v, n, e);
		free(v);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Two sides whose command lines resolve to the same jobs would compare a
 * set-up with itself, and the report would then advise more runs of it:
 * refused before any run.
 */
static int resolve_sides(struct trial *t, struct err *e)
{
	const struct trial_cfg *c = t->cfg;
	char *jobs[2] = { NULL, NULL };
	int s, ret = 0;

	for (s = 0; c->resolve && s < 2 && !ret; s++)
		ret = c->resolve(c->spawn_arg, s, c->common, c->ncommon, t->side_args[s],
				 t->nside_args[s], &jobs[s], e);
	if (!ret && !c->allow_same && jobs[0] && jobs[1] && !strcmp(jobs[0], jobs[1]))
		ret = err_set(e, -EINVAL, EXIT_USAGE, "ab: --a %s and --b %s give the same jobs, "
			      "so the trial would compare a set-up with itself; make the sides differ "
			      "(iotrial --showcmd shows a command line's jobs), or give --allow-same "
			      "for an A/A trial of the noise", c->a_spec, c->b_spec);
	free(jobs[0]);
	free(jobs[1]);
	return ret;
}

/* manifest.json, replaced whole (outfile.h); 0 or -errno with @e filled (EXIT_OUTPUT). */
static int write_manifest(struct trial *t, const char *stopped_by, struct err *e)
{
	char path[PATH_MAX + 32];
	struct outfile of;

	if (stopped_by)
		json_object_set_new(t->manifest, "stopped_by", json_string(stopped_by));
	snprintf(path, sizeof(path), "%s/manifest.json", t->dir);
	if (outfile_open(&of, path, e))
		return -EIO;
	if (json_dumpf(t->manifest, of.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER)) {
		outfile_abort(&of);
		return err_set(e, -EIO, EXIT_OUTPUT, "ab: cannot write %s", path);
	}
	return outfile_commit(&of, e) ? -EIO : 0;
}

int trial_prepare(struct trial *t, const struct trial_cfg *c, struct err *e)
{
	const struct abrun_stop *st = &c->stop;

	memset(t, 0, sizeof(*t));
	t->cfg = c;
	sigemptyset(&t->sigs);
	if (prepare_sides(t, e) || check_sides(t, e) || resolve_sides(t, e) || prepare_dir(t, e))
		return -EINVAL;
	t->manifest = abrun_manifest_new(c->order, c->seed, c->a_spec, c->b_spec, c->common,
					 c->ncommon, c->metric, st);
	if (!t->manifest || (c->manifest_extra && json_object_update(t->manifest,
								       (json_t *)c->manifest_extra)))
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	if (write_manifest(t, NULL, e))
		return err_set(e, -EIO, EXIT_OUTPUT, "ab: cannot write %s/manifest.json", t->dir);
	return 0;
}

/* The last non-empty line of a run's log, for the error message. */
static void log_tail(const char *log, char *buf, size_t sz)
{
	FILE *f = fopen(log, "r");
	char line[512];

	buf[0] = 0;
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0])
			snprintf(buf, sz, "%s", line);
	}
	if (f)
		fclose(f);
}

static int keep_result(struct trial *t, int s, const char *path, int64_t start, struct err *e)
{
	struct resultread *r;

	if (resultread_load(path, &r, e))
		return -EINVAL;
	r->timestamp_ms = start;	/* the run order in one clock (trial_run) */
	r->order_by_trial = 1;
	if (vec_grow((void **)&t->res[s], &t->res_cap[s], t->nres[s] + 1, sizeof(*t->res[s]), 8)) {
		resultread_free(r);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	}
	t->res[s][t->nres[s]++] = r;
	return 0;
}

/*
 * QEMU sampled for --host-qmp: the sample before run @i, at @args's series
 * interval (the guest job's).  A socket that is missing or refuses is a
 * warning: the run goes on, and its result is kept without the host's view.
 */
static int host_start(struct trial *t, size_t i, char *const *args, size_t n,
		      struct hostview_series *hs)
{
	struct err e;

	memset(hs, 0, sizeof(*hs));
	if (!t->cfg->host)
		return 0;
	err_clear(&e);
	if (hostview_series_start(hs, t->cfg->host, trial_host_period(args, n), &e)) {
		say(t, "ab: warning: --host-qmp: run %zu: no sample before the run: %s; the run is "
		    "kept without the host's view", i + 1, e.msg);
		return 0;
	}
	return 1;
}

void trial_tick(struct trial *t)
{
	if (t->host_series)	/* a failure is said once, after the run (host_attach) */
		hostview_series_tick(t->host_series, NULL);
}

/*
 * The host's view after run @i (the last sample), joined into its result
 * @out; @hs is freed.  A socket that went away mid-run keeps the samples
 * taken before: one warning says so.
 */
static void host_attach(struct trial *t, size_t i, const char *out, struct hostview_series *hs)
{
	struct err e;

	err_clear(&e);
	hostview_series_end(hs, NULL);
	if (hs->lost && hs->n < 2)
		say(t, "ab: warning: --host-qmp: run %zu: no sample after the run: %s; the run is "
		    "kept without the host's view", i + 1, hs->lost_msg);
	else if (trial_host_attach(out, hs, &e))
		say(t, "ab: warning: --host-qmp: run %zu: %s; the run is kept without the host's "
		    "view", i + 1, e.msg);
	else if (hs->lost)
		say(t, "ab: warning: --host-qmp: run %zu: the socket went away mid-run (%s); the "
		    "host's view keeps the %zu samples taken before", i + 1, hs->lost_msg, hs->n);
	hostview_series_free(hs);
}

/* Nonzero when @path is missing or empty. */
static int file_empty(const char *path)
{
	struct stat st;

	return stat(path, &st) || st.st_size == 0;
}

/*
 * The run's stdout (t->run_stdout) after it ended: a runner that ignored
 * --output and printed one JSON document there (@rc 0, @out missing or
 * empty) has it taken as its result; anything else goes to the end of
 * @log, where the runner's messages are.  The stdout file is gone after.
 */
static void take_stdout(struct trial *t, int rc, const char *out, const char *log)
{
	const char *so = t->run_stdout;
	char buf[4096];
	json_t *doc;
	FILE *in, *lf;
	size_t n;

	if (!so[0] || file_empty(so)) {
		if (so[0])
			unlink(so);
		return;
	}
	if (!rc && file_empty(out) && (doc = json_load_file(so, 0, NULL))) {
		json_decref(doc);	/* one document, nothing after it (jansson's EOF check) */
		if (!rename(so, out))
			return;
	}
	in = fopen(so, "r");
	lf = fopen(log, "a");
	while (in && lf && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, lf);
	if (in)
		fclose(in);
	if (lf)
		fclose(lf);
	unlink(so);
}

/* Side @s's arguments for one run writing @out: common, side, JSON to @out. */
static char **run_args(struct trial *t, int s, const char *out, size_t *n, char **o)
{
	const struct trial_cfg *c = t->cfg;
	char **v = calloc(c->ncommon + t->nside_args[s] + 3, sizeof(*v));
	static char fmt[] = "--output-format=json";
	size_t i;

	*n = 0;
	if (!v || asprintf(o, "--output=%s", out) < 0) {
		free(v);
		return NULL;
	}
	for (i = 0; i < c->ncommon; i++)
		v[(*n)++] = c->common[i];
	for (i = 0; i < t->nside_args[s]; i++)
		v[(*n)++] = t->side_args[s][i];
	v[(*n)++] = fmt;
	v[(*n)++] = *o;
	return v;
}

/* Run number @i of the sequence: spawn, record, load.  0 or -errno (@e). */
static int one_run(struct trial *t, size_t i, struct err *e)
{
	const struct trial_cfg *c = t->cfg;
	char side = abrun_side(c->order, c->seed, i), name[32], out[PATH_MAX + 64];
	char log[PATH_MAX + 64], tail[512], **args, *o = NULL, what[300];
	int s = side == 'B', rc, have_hs = 0;
	int64_t start = epoch_ms();
	struct hostview_series hs;
	struct stat st;
	size_t nargs;

	memset(&hs, 0, sizeof(hs));
	abrun_run_name(name, sizeof(name), (unsigned)i + 1, side);
	snprintf(out, sizeof(out), "%s/%s", t->dir, name);
	snprintf(log, sizeof(log), "%s/run-%03u-%c.log", t->dir, (unsigned)i + 1, side);
	if (c->stop.until_ci_pct >= 0)
		say(t, "ab: run %zu of at most %u: %c -> %s", i + 1, 2 * c->stop.max_runs, side,
		    out);
	else
		say(t, "ab: run %zu of %u: %c -> %s", i + 1, 2 * c->stop.runs, side, out);
	args = run_args(t, s, out, &nargs, &o);
	t->where[0] = 0;
	json_decref(t->run_note);
	t->run_note = NULL;
	if (args)	/* the period from the runner's own arguments, not the output ones */
		have_hs = host_start(t, i, args, nargs - 2, &hs);
	t->host_series = have_hs ? &hs : NULL;
	snprintf(t->run_stdout, sizeof(t->run_stdout), "%s/run-%03u-%c.stdout", t->dir,
		 (unsigned)i + 1, side);
	rc = args ? c->spawn(c->spawn_arg, t, s, args, nargs, log) : EXIT_INTERNAL;
	t->host_series = NULL;
	take_stdout(t, rc, out, log);
	free(args);
	free(o);
	abrun_manifest_add(t->manifest, (unsigned)i + 1, side, name, start, epoch_ms() - start, rc);
	if (t->run_note) {	/* where it ran: the spawn's own words */
		json_t *runs = json_object_get(t->manifest, "runs");

		json_object_update(json_array_get(runs, json_array_size(runs) - 1), t->run_note);
		json_decref(t->run_note);
		t->run_note = NULL;
	}
	if (write_manifest(t, NULL, e)) {
		hostview_series_free(&hs);
		return -EIO;
	}
	snprintf(what, sizeof(what), "%c%s%s", side, t->where[0] ? " on " : "", t->where);
	if (trial_signalled(t, 0) || rc)
		hostview_series_free(&hs);
	if (trial_signalled(t, 0))
		return err_set(e, -EINTR, EXIT_INTERRUPTED, "ab: interrupted by signal %d during "
			       "run %zu (%s); report.html covers the runs completed before it",
			       t->sig, i + 1, what);
	if (rc) {
		log_tail(log, tail, sizeof(tail));
		/* 127: the runner could not be started (a bad --runner) */
		err_set(e, -EIO, rc == 127 ? EXIT_USAGE : rc > 0 && rc < 128 ? rc : EXIT_INTERNAL,
			"ab: run %zu (%s) exited with %d: %s (log %s)", i + 1, what, rc,
			tail[0] ? tail : "no output", log);
		return -EIO;
	}
	if (!stat(log, &st) && st.st_size == 0)
		unlink(log);
	if (have_hs)
		host_attach(t, i, out, &hs);
	return keep_result(t, s, out, start, e);
}

/* The metric's difference and CI so far, said; returns the CI half-width. */
static double progress(struct trial *t)
{
	const struct trial_cfg *c = t->cfg;
	struct compare_metric m;
	double half;
	struct resultwindow_note wn;
	struct err e;

	if (resultwindow_apply(c->window, t->res[0], t->nres[0], t->res[1], t->nres[1], &wn, &e))
		return NAN;
	if (compare_one(t->res[0], t->nres[0], t->res[1], t->nres[1], c->metric, &c->copts, &m))
		return NAN;
	half = isfinite(m.ci_lo) && isfinite(m.ci_hi) ? (m.ci_hi - m.ci_lo) / 2 : NAN;
	if (!isfinite(m.diff_pct))
		say(t, "ab: %zu A + %zu B runs: %s not measured", t->nres[0], t->nres[1], c->metric);
	else if (isnan(half))
		say(t, "ab: %zu A + %zu B runs: %s %+.2f%% (no CI yet)", t->nres[0], t->nres[1],
		    c->metric, m.diff_pct);
	else
		say(t, "ab: %zu A + %zu B runs: %s %g%% CI %+.2f..%+.2f%% (half-width %.2f%%), %s",
		    t->nres[0], t->nres[1], c->metric, 100 * m.ci_level, m.ci_lo, m.ci_hi, half,
		    m.verdict_text);
	compare_metric_free(&m);
	return half;
}

/* Pairs until the stopping rule says so; returns the reason, or 0 with @e set. */
static enum abrun_reason run_loop(struct trial *t, struct err *e)
{
	enum abrun_reason why = ABRUN_CONTINUE;
	size_t i;

	clock_gettime(CLOCK_MONOTONIC, &t->t0);
	for (i = 0; why == ABRUN_CONTINUE; i++) {
		if (one_run(t, i, e))
			return ABRUN_CONTINUE;
		if (i % 2 == 1)
			why = abrun_decide(&t->cfg->stop, (unsigned)(i + 1) / 2, since(&t->t0),
					   progress(t));
		if (why == ABRUN_CONTINUE && trial_signalled(t, t->cfg->pause_s)) {
			err_set(e, -EINTR, EXIT_INTERRUPTED, "ab: interrupted by signal %d after "
				"run %zu; report.html covers the runs completed", t->sig, i + 1);
			return ABRUN_CONTINUE;
		}
	}
	say(t, "ab: stopped by %s after %zu runs of each side", abrun_reason_name(why), t->nres[0]);
	return why;
}

enum abrun_reason trial_run(struct trial *t, struct err *e)
{
	enum abrun_reason why;
	struct err e2;

	if (t->cfg->order == ABRUN_RANDOM)
		say(t, "ab: random order, seed %llu", (unsigned long long)t->cfg->seed);
	if (t->cfg->handle_signals) {
		sigaddset(&t->sigs, SIGINT);
		sigaddset(&t->sigs, SIGTERM);
		sigprocmask(SIG_BLOCK, &t->sigs, &t->oldmask);
	}
	why = run_loop(t, e);
	err_clear(&e2);
	if (write_manifest(t, why != ABRUN_CONTINUE ? abrun_reason_name(why) : t->sig ?
			   "interrupted" : "error", &e2) && why != ABRUN_CONTINUE) {
		*e = e2;
		return ABRUN_CONTINUE;
	}
	return why;
}

void trial_free(struct trial *t)
{
	int s;

	for (s = 0; s < 2; s++) {
		vec_free_strings(t->side_args[s], t->nside_args[s]);
		vec_free_strings(t->side_keys[s], t->nside_keys[s]);
		resultread_set_free(t->res[s], t->nres[s]);
	}
	free(t->keys);
	json_decref(t->manifest);
	json_decref(t->run_note);
	memset(t, 0, sizeof(*t));
}
