/*
 * abrun: the decisions behind `iotrial ab`, kept apart from process handling
 * so that they can be tested without running anything:
 *   - turning a side's spec ("rate_iops=1000,bs=4k", "ioengine=libaio
 *     direct=1", or a job file) into fio command-line arguments, plus the
 *     option keys it sets (what compare should expect to differ);
 *   - the run order: ABAB... ("alternate") or, per pair, AB or BA drawn from a
 *     recorded seed ("random"): both interleave, so drift over time (thermal,
 *     garbage collection, a neighbour's load) hits both sides alike, which
 *     all-A-then-all-B never does (Duplyakin et al., ATC'23);
 *   - when to stop: after a fixed number of runs per side, or adaptively when
 *     the metric's CI half-width falls under a target, bounded by a run
 *     budget and a time budget (a pair is not started if, at the average pair
 *     time so far, it would end past the time budget);
 *   - file names (run-001-A.json), the default directory name and the
 *     manifest that records the order, seed, start times and files.
 */
#ifndef IOTRIAL_ABRUN_H
#define IOTRIAL_ABRUN_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <jansson.h>	/* json_t: the manifest */
#include "lib/err.h"

enum abrun_order { ABRUN_ALTERNATE, ABRUN_RANDOM };

enum abrun_reason {
	ABRUN_CONTINUE,
	ABRUN_DONE_RUNS,	/* the fixed number of runs per side is done */
	ABRUN_DONE_CI,		/* the CI half-width reached the target */
	ABRUN_DONE_MAX_RUNS,	/* run budget spent before the target */
	ABRUN_DONE_MAX_TIME,	/* time budget spent (or the next pair would pass it) */
};

/*
 * Fewest pairs before the CI may stop a trial: stopping as soon as a noisy
 * early interval happens to be narrow inflates the false-positive rate (9% at
 * 3 pairs, A = B, CV 5%); from 5 pairs it stays near the nominal level
 * (measured in tests/unit/trial/test_compare_sim.c).
 */
#define ABRUN_MIN_CI_PAIRS 5

struct abrun_stop {
	unsigned runs;		/* runs per side; the minimum when until_ci_pct >= 0
				 * (the CI never stops before ABRUN_MIN_CI_PAIRS) */
	unsigned max_runs;	/* per side, adaptive mode only */
	double until_ci_pct;	/* target CI half-width in %; < 0: fixed mode */
	double max_time_s;	/* 0: no time budget */
};

/*
 * Split @spec into fio arguments ("--key=value", or a job file path kept as
 * it is) in *argv (malloc'd strings, *argc of them) and the keys it sets in
 * *keys (*nkeys; none for a job file).  Commas separate options only where
 * the next part starts a new key ("bs=4k,8k" stays one option); whitespace
 * always separates.  -EINVAL with @e naming @side ("--a") when a part is
 * neither key=value, a bare flag, nor an existing job file.  Free both
 * arrays with vec_free_strings().
 */
int abrun_side_args(const char *side, const char *spec, char ***argv, size_t *argc,
		    char ***keys, size_t *nkeys, struct err *e);

/*
 * For a runner that takes --set (iotrial): each option argument of a side
 * ("--key=value", "--flag") becomes "--set=key=value", so that it wins over
 * a job file's own setting and reaches every job (docs/usage.md); a job
 * file stays as it is.  0 or -ENOMEM.
 */
int abrun_side_set(char **argv, size_t argc);

/* 'A' or 'B' for run @i (0-based) of the sequence. */
char abrun_side(enum abrun_order order, uint64_t seed, size_t i);

/* After @pairs_done complete pairs, @elapsed_s since the start, and the
 * metric's current CI half-width in % (NAN when none yet): go on or stop? */
enum abrun_reason abrun_decide(const struct abrun_stop *s, unsigned pairs_done,
			       double elapsed_s, double ci_half_pct);

/* "runs", "ci", "max-runs", "max-time", "" for ABRUN_CONTINUE. */
const char *abrun_reason_name(enum abrun_reason r);

/* "run-007-B.json" for run @index (1-based) of @side. */
void abrun_run_name(char *buf, size_t sz, unsigned index, char side);

/* "iotrial-ab-20261130-174937" for local time @now. */
void abrun_default_dir(char *buf, size_t sz, time_t now);

/* Seconds from "30", "30s", "500ms", "2m", "1h", "1.5"; -EINVAL when not a duration. */
int abrun_parse_duration(const char *s, double *out);

/* The manifest skeleton: {"tool", "version", "order", "seed", "a", "b",
 * "common_args", "stop", "runs": [], "stopped_by": null}.  NULL on ENOMEM. */
json_t *abrun_manifest_new(enum abrun_order order, uint64_t seed, const char *a_spec,
			   const char *b_spec, char *const *common, size_t ncommon,
			   const char *metric, const struct abrun_stop *s);

/* Record one run (start in ms since the epoch). 0 or -ENOMEM. */
int abrun_manifest_add(json_t *m, unsigned index, char side, const char *file,
		       int64_t start_ms, int64_t duration_ms, int exit_code);

#endif
