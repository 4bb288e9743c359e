/*
 * trial: the loop of an A/B trial (`iotrial ab`), as a library: the trial
 * directory, the sides' arguments, the manifest, one run after another in
 * abrun's order, each run's result loaded, progress on the metric, and the
 * stopping rule (abrun.h's decisions).  Starting a run is the caller's: a
 * spawn callback runs one side with the given arguments and returns its exit
 * code (the CLI forks /proc/self/exe or --runner; a test writes a result
 * file), so the trial reads results and never knows how they were made.
 * What a person sees goes through a say callback; nothing here prints.
 *
 * Signals: with handle_signals, SIGINT and SIGTERM are held pending while
 * the trial runs (trial_signalled() collects them), so Ctrl-C ends the trial
 * between runs with what was completed; the spawn callback forwards one to
 * the running child.
 */
#ifndef IOTRIAL_TRIAL_H
#define IOTRIAL_TRIAL_H

#include <limits.h>	/* PATH_MAX */
#include <signal.h>	/* sigset_t */
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <jansson.h>
#include "lib/err.h"
#include "trial/abrun.h"
#include "trial/compare.h"
#include "result/resultwindow.h"
#include "env/hostview_series.h"

struct trial;

struct trial_cfg {
	const char *a_spec, *b_spec;	/* --a, --b: options or job files (abrun_side_args) */
	char *const *common;		/* fio arguments every run gets, as typed */
	size_t ncommon;
	struct abrun_stop stop;
	enum abrun_order order;
	uint64_t seed;
	const char *dir;		/* NULL: a new ./iotrial-ab-YYYYmmdd-HHMMSS */
	double pause_s;			/* between runs */
	const char *metric;		/* for --until-ci and the progress lines */
	struct compare_opts copts;
	enum resultwindow window;
	int handle_signals;		/* hold SIGINT/SIGTERM while the trial runs */
	/*
	 * Run side @side (0 A, 1 B) with @args (@nargs of them, argv[1] on:
	 * the common arguments, the side's, --output-format=json and
	 * --output=FILE), its output to @log.  Returns the run's exit code (127:
	 * it could not be started; 128 + N: killed by signal N).
	 */
	int (*spawn)(void *arg, struct trial *t, int side, char *const *args, size_t nargs,
		     const char *log);
	void *spawn_arg;
	/*
	 * Check side @side's arguments (the common ones and the side's, as
	 * spawn gets them but without the output ones) as the runner parses
	 * them, running nothing (--parse-only): 0, or -errno with @e filled
	 * with the runner's own words.  Called for both sides before the trial
	 * directory is made, so a typo costs no run.  NULL: no check.
	 */
	int (*check)(void *arg, int side, char *const *args, size_t nargs, struct err *e);
	/*
	 * The runner takes --set (iotrial, here or under mpirun): each side's
	 * options go as --set=KEY=VALUE, so they win over a job file's own
	 * settings and reach every job.  0 (fio, a script): as typed, after
	 * the common arguments, with the runner's own precedence.
	 */
	int side_set;
	/*
	 * The jobs side @side will run, after check: @common (@ncommon) and
	 * @side_args (@nside) as the runner gets them, in *@jobs (malloc'd
	 * text; NULL when it cannot be told, as with a runner's own options).
	 * Two equal texts are refused: the trial would compare a set-up with
	 * itself.  -errno with @e filled refuses the side (a side option the
	 * runner would silently drop).  NULL: no such check (ab across hosts,
	 * where the same command line runs on different hosts).
	 */
	int (*resolve)(void *arg, int side, char *const *common, size_t ncommon,
		       char *const *side_args, size_t nside, char **jobs, struct err *e);
	int allow_same;			/* an A/A trial on purpose: equal jobs are run */
	void (*say)(void *arg, const char *line);	/* one line, no newline; NULL: quiet */
	void *say_arg;
	const struct hostview_cfg *host;	/* --host-qmp: QEMU sampled through each run
						 * (trial_host.h; spawn calls trial_tick while
						 * it waits); NULL: none */
	const json_t *manifest_extra;	/* members added to the manifest (ab across hosts:
					 * the ranks and hosts of each side); NULL: none */
};

struct trial {
	const struct trial_cfg *cfg;
	char dir[PATH_MAX];
	char **side_args[2];		/* [0] A, [1] B */
	size_t nside_args[2];
	char **side_keys[2];		/* the option keys each side sets */
	size_t nside_keys[2];
	char **keys;			/* option keys the sides set (both): compare expects them */
	size_t nkeys, keys_cap;
	struct resultread **res[2];	/* the completed runs' results, per side */
	size_t nres[2], res_cap[2];
	json_t *manifest;
	struct timespec t0;
	sigset_t sigs, oldmask;		/* SIGINT, SIGTERM: held while runs run */
	int sig;			/* the signal that stopped the trial, 0 if none */
	/*
	 * Set by spawn for the run it starts (ab across hosts): where it ran
	 * ("rank 1 (vmB)"), named in the run's messages, and members added to
	 * the run's manifest entry (hosts, the host's clock).  The trial
	 * clears both before each run and takes @run_note's reference.
	 */
	char where[256];
	json_t *run_note;
	/*
	 * Set by the trial before each run: where spawn may send the run's
	 * stdout apart from its log ("" : into the log).  A runner that
	 * ignores --output and prints its JSON result on stdout (a guest's
	 * shell wrapper) is taken from there; anything else there is
	 * appended to the log.
	 */
	char run_stdout[PATH_MAX + 64];
	/* --host-qmp: the running run's samples (trial_tick), NULL between runs */
	struct hostview_series *host_series;
};

/*
 * Parse both sides and check each as its runs will be parsed (cfg->check),
 * refuse two sides that resolve to the same jobs (cfg->resolve), then make the trial directory (new, or existing and empty) and write its
 * manifest: nothing is made or run when a side is wrong.  0, or -errno with @e filled (EXIT_USAGE: bad
 * side, no job, a directory that holds a trial; EXIT_OUTPUT: cannot write).
 * Release with trial_free() either way.
 */
int trial_prepare(struct trial *t, const struct trial_cfg *c, struct err *e);

/*
 * Run pairs until the stopping rule says so; returns the reason, or
 * ABRUN_CONTINUE with @e filled: a run failed (its own exit code, or
 * EXIT_USAGE when it could not be started), a signal came (EXIT_INTERRUPTED,
 * t->sig set), a result could not be read, or the manifest not written.
 * The manifest records every run as it ends, and how the trial stopped.
 * Each run's result is ordered by when the trial started it (its
 * timestamp_ms is the start in the trial's clock: runs on other hosts are
 * timed by their own clocks, which may disagree).
 */
enum abrun_reason trial_run(struct trial *t, struct err *e);

/*
 * Has SIGINT/SIGTERM arrived (held pending since the trial started)?  Waits
 * up to @s seconds for one.  Returns the signal, or 0.  Without
 * handle_signals it only sleeps @s.
 */
int trial_signalled(struct trial *t, double s);

/*
 * Called by spawn while it waits for the run (every few tens of ms): with
 * --host-qmp, QEMU is sampled when the run's series interval is due.  It
 * never blocks longer than a sample (QMP's timeout) and never prints: a
 * socket that went away is said once, after the run.
 */
void trial_tick(struct trial *t);

/* Release what @t owns. */
void trial_free(struct trial *t);

#endif
