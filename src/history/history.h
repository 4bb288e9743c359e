/*
 * history: every run and trial kept in one SQLite file, for "is this disk
 * slower than in March?" (docs/history.md).
 *
 * The stored result JSON is the source of truth: each run row keeps its
 * whole result document (iotrial's or fio's JSON, zlib-compressed), and every
 * other table (jobs, per-direction figures, compare's metrics, the key facts
 * of the environment) is derived from it, so the tables can always be
 * rebuilt (history_rebuild) and a file can always be added later
 * (history_import).  Nothing here reads a worker, a run or an engine: the
 * input is a result document, read by resultread.c like any saved result.
 *
 * Reliability (docs/history.md, "What can go wrong"): the file is in WAL mode
 * with a busy timeout, every write is one IMMEDIATE transaction (a run is
 * stored whole or not at all, a killed writer leaves the file as before), and
 * each failure is classified (locked, read-only, full, corrupt, newer schema)
 * so the caller can name it in one line.  The schema carries a version
 * (PRAGMA user_version); older files are migrated step by step from version
 * 1, a newer one is refused by name and never written.
 *
 * Ownership: a struct history is opened by history_open and closed by
 * history_close (NULL allowed).  Functions return 0 or -errno and fill
 * struct err; the class of a database failure is in history_problem().
 */
#ifndef IOTRIAL_HISTORY_H
#define IOTRIAL_HISTORY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>	/* json_t: manifests, verdicts, JSON output */
#include "trial/compare.h"	/* struct compare_opts: a trial's verdicts, baselines */
#include "lib/err.h"
#include "result/resultread.h"

/* The schema this build writes (PRAGMA user_version). */
#define HISTORY_SCHEMA_VERSION 2

/* The file name under $XDG_DATA_HOME/iotrial/ when none is given. */
#define HISTORY_DEFAULT_NAME "history.db"

/* How long a writer waits for another one's lock, by default (ms). */
#define HISTORY_BUSY_MS_DEFAULT 10000

struct history;

enum history_mode {
	HISTORY_READ,		/* queries only: never creates or migrates the file */
	HISTORY_WRITE,		/* creates the file (and its directory) and migrates it */
};

/* What went wrong with the database, for a one-line warning that names it. */
enum history_problem {
	HISTORY_OK,
	HISTORY_LOCKED,		/* another process held the lock past the busy timeout */
	HISTORY_READONLY,	/* the file or its directory is not writable */
	HISTORY_FULL,		/* the file system (or a size limit) is full */
	HISTORY_CORRUPT,	/* not a database, or a damaged one */
	HISTORY_NEWER,		/* written by a newer iotrial: a schema this build does not know */
	HISTORY_MISSING,	/* HISTORY_READ on a file that does not exist */
	HISTORY_OTHER,
};

/*
 * The database path: @given (from --history=FILE) when not NULL or empty,
 * else @env_history ($IOTRIAL_HISTORY), else @xdg_data_home/iotrial/history.db,
 * else @home/.local/share/iotrial/history.db.  -ENOENT with @e set when none
 * can be formed (no HOME), -ENAMETOOLONG when it does not fit in @sz.
 */
int history_path(char *buf, size_t sz, const char *given, const char *env_history,
		 const char *xdg_data_home, const char *home, struct err *e);

/*
 * Open @path.  HISTORY_WRITE creates the directory and file when missing,
 * turns WAL on and migrates an older schema (in one transaction); @busy_ms is
 * how long to wait for another writer's lock (0: the default).  A file whose
 * schema is newer than HISTORY_SCHEMA_VERSION is refused (HISTORY_NEWER) in
 * both modes.  On failure @e says what and history_problem(NULL) is not
 * available: the class is returned in *@problem when not NULL.
 */
int history_open(const char *path, enum history_mode mode, unsigned busy_ms,
		 struct history **out, enum history_problem *problem, struct err *e);

void history_close(struct history *h);

/* The class of the last failure on @h (HISTORY_OK after a success). */
enum history_problem history_problem(const struct history *h);

/* The file's path as opened. */
const char *history_file(const struct history *h);

/* ---- recording (history_record.c) ---- */

/* Where a run came from, stored with it. */
struct history_origin {
	const char *source;	/* "run", "ab", "import" */
	const char *preset;	/* --preset=NAME, or NULL */
	int exit_code;		/* the run's own exit status, -1 unknown */
};

/*
 * Store one result document (@text, @len bytes; iotrial's or fio's JSON).
 * @name names it in messages.  The same document stored twice is one run:
 * *@id is the existing run and *@added 0.  One transaction.
 */
int history_record(struct history *h, const char *text, size_t len, const char *name,
		   const struct history_origin *o, int64_t *id, int *added, struct err *e);

/*
 * Store an `iotrial ab` trial: its directory @dir (run files named in
 * @manifest's "runs"), the manifest, and the verdicts compare gives with @o
 * on its runs.  The runs and the trial go in one transaction.  *@id: the trial.
 */
int history_record_trial(struct history *h, const char *dir, const json_t *manifest,
			 const struct compare_opts *o, int64_t *id, struct err *e);

struct history_import_stats {
	size_t files;		/* result files read */
	size_t added;		/* new runs */
	size_t known;		/* already stored */
	size_t trials;		/* ab trial directories (manifest.json) stored */
};

/*
 * Import @paths: result files (iotrial's or fio's JSON), directories of
 * *.json files, and ab trial directories (those holding manifest.json: stored
 * as trials, their verdicts computed with compare's defaults).  The files go
 * in transactions of a few hundred (so that a run finishing meanwhile can
 * store its own between them); the first bad file stops the import and its
 * batch is rolled back.  A stored document is recognised by its digest, so
 * importing the same files again (after a fix, or a killed import) stores
 * exactly what is missing.
 */
int history_import(struct history *h, char *const *paths, size_t n,
		   struct history_import_stats *st, struct err *e);

/*
 * Rebuild every derived table from the stored documents (after a change of
 * what is derived, or to repair them).  One transaction.  *@runs: how many.
 */
int history_rebuild(struct history *h, size_t *runs, struct err *e);

/* ---- what makes runs comparable (history_key.c) ---- */

/*
 * A run's identity for comparisons and trends: the device it measured and
 * its job signature, the options that change what is measured (per job:
 * rw, rwmixread when mixed, bs, iodepth, direct, ioengine, numjobs).
 */
struct history_key {
	char dev_id[192];	/* "model serial", "loop:<backing file>", "dm:<name>", "<name>",
				 * "fs:<type>:<mount point>", or "unknown" */
	char dev_name[64];	/* vda, nvme0n1, ... or "" */
	char dev_model[96];
	char dev_serial[96];
	char dev_driver[32];
	char dev_scheduler[32];
	char dev_cache[32];	/* write_cache as the device reports it */
	char host[96];
	char kernel[96];
	char sig[17];		/* hex of a 64-bit hash of sig_text */
	char sig_text[2048];	/* "rw=randread bs=4096 iodepth=32 direct=1 ioengine=libaio
				 * numjobs=1", jobs separated by " | " */
	unsigned nr_jobs;
};

/* Fill @k from a result document and its summary.  0, or -ENOMEM. */
int history_key_of(const json_t *root, const struct resultread *r, struct history_key *k);

/*
 * What differs between @a and @b in what matters (device, and each job's
 * signature fields), as "bs 4096 vs 8192; device vda vs nvme0n1" in @out.
 * Returns the number of differences (0: comparable).
 */
int history_key_diff(const struct history_key *a, const struct history_key *b, char *out,
		     size_t sz);

/* ---- queries (history_query.c) ---- */

struct history_filter {
	const char *device;	/* dev_id, device name, serial or model */
	const char *host;
	const char *job;	/* a job's name */
	const char *preset;
	const char *label;
	const char *sig;	/* a job signature (hex), or a prefix of at least 4 */
	int64_t since_ms, until_ms;	/* run start; INT64_MIN / INT64_MAX: open */
	int partial;		/* also runs cut short (they are left out by default) */
	size_t limit;		/* newest first, at most this many; 0: all */
};

void history_filter_init(struct history_filter *f);

/* One stored run, as list and show give it. */
struct history_run {
	int64_t id;
	int64_t start_ms, recorded_ms;
	char source[16];
	char tool[64];
	char preset[64];
	struct history_key key;
	char job_name[128];
	int partial;
	int exit_code;		/* -1 unknown */
	char bottleneck[16];
	int steady;		/* -1 no criterion, 0 not reached, 1 reached */
	int64_t trial_id;	/* 0: none */
	char trial_side;	/* 'A', 'B' or 0 */
	double total_iops, read_bw, write_bw, read_lat_ns, write_lat_ns;	/* NAN: none */
	char labels[256];	/* "base,v6.1" */
};

/*
 * Call @fn for each run @f selects, newest first (ties by id), until it
 * returns non-zero (that value is returned).  0, or -errno with @e set.
 */
int history_list(struct history *h, const struct history_filter *f,
		 int (*fn)(void *arg, const struct history_run *run), void *arg, struct err *e);

/* One run by id: -ENOENT (EXIT_USAGE) when there is none. */
int history_get(struct history *h, int64_t id, struct history_run *run, struct err *e);

/* The stored result document of run @id (malloc'd, NUL-terminated text). */
int history_document(struct history *h, int64_t id, char **text, size_t *len, struct err *e);

/* A run's per-job and per-direction figures as JSON ([{job, name, ddir, window, ...}]). */
int history_figures_json(struct history *h, int64_t id, json_t **out, struct err *e);

/*
 * Runs chosen by a selector (docs/history.md, "Selectors"):
 *   42, 40-45, 40,42,47      run ids (a range takes the ids that exist)
 *   label:NAME or NAME       the runs labelled NAME
 *   trial:T:A, trial:T:B     one side of stored trial T
 *   last:N                   the N newest runs with @like's device and job
 *                            signature (@like may be NULL: any), partial left out
 * In the order given, ids ascending for a label, range or trial side.
 * *@ids is malloc'd.  An unknown label or id, or an empty choice: EXIT_USAGE.
 */
int history_select(struct history *h, const char *sel, const struct history_key *like,
		   int64_t **ids, size_t *n, struct err *e);

/*
 * Load runs @ids as results, each named "history:ID", for compare and
 * trend (free with resultread_set_free).
 */
int history_load(struct history *h, const int64_t *ids, size_t n, struct resultread ***out,
		 struct err *e);

/* The keys of runs @ids (malloc'd array of @n). */
int history_keys(struct history *h, const int64_t *ids, size_t n, struct history_key **out,
		 struct err *e);

/*
 * Are two sets of runs comparable?  Compares every run's key with the first
 * of @a: 0 when none differs, else -EXDEV (EXIT_USAGE) with @e saying
 * exactly what differs and between which runs (@names: how to call run i of
 * a side, e.g. "history:42" or a file name).
 */
int history_comparable(const struct history_key *a, const char *const *na, size_t nra,
		       const struct history_key *b, const char *const *nb, size_t nrb,
		       struct err *e);

/* Add (or with @remove take off) label @name on runs @ids.  One transaction. */
int history_label(struct history *h, const char *name, const int64_t *ids, size_t n,
		  int remove, struct err *e);

/* Labels with their run counts and time span, as JSON [{name, runs, first_ms, last_ms}]. */
int history_labels_json(struct history *h, json_t **out, struct err *e);

/* A stored trial: {"id", "dir", "manifest", "verdicts", "runs": [{id, side, index}]}. */
int history_trial_json(struct history *h, int64_t id, json_t **out, struct err *e);

/*
 * Write runs @f selects to @dir as one file per run, "run-<id>.json", each
 * the stored document byte for byte (outfile.h: whole or not at all).
 * *@n: files written.
 */
int history_export(struct history *h, const struct history_filter *f, const char *dir,
		   size_t *n, struct err *e);

/* ---- trends (history_trend.c) ---- */

#define HISTORY_TREND_BAND_RUNS 10	/* runs before a point that make its band */
#define HISTORY_TREND_BAND_MIN 5	/* fewer runs before a point: no band (an sd of
					 * 2 or 3 runs says little) */
#define HISTORY_TREND_JUMP 0.25		/* before the band forms: a point this far (relative)
					 * from the earlier runs' mean is marked a jump */

struct history_trend_point {
	int64_t id;
	int64_t start_ms;
	double value;
	double within_sd;	/* the run's own spread: interval CV x value; NAN unknown */
	double lo, hi;		/* the run's own interval on the value, when its document
				 * gives one (a sweep's SLO capacity: compare_metric_interval);
				 * NAN: none */
	double band_mean, band_sd;	/* over up to band_runs runs before it; NAN below
					 * HISTORY_TREND_BAND_MIN */
	int outside;		/* beyond band_mean +- 2 band_sd, on the bad side (+1) or good (-1) */
	double jump;		/* no band yet (1 to BAND_MIN - 1 runs before): (value - their
				 * mean) / their mean when beyond HISTORY_TREND_JUMP, else NAN */
	int jump_side;		/* the jump's side: +1 bad, -1 good, 0 none */
	char labels[128];
};

struct history_trend {
	char metric[40];
	int lower_better;
	/*
	 * The metric describes the runs (compare_metric_kind: device.queue_depth):
	 * a point is higher or lower than its band, never better or worse.
	 */
	int description;
	char window[8];		/* "all" or "steady": which figures */
	struct history_key key;	/* device and signature of the series */
	size_t band_runs;
	struct history_trend_point *p;
	size_t n;
	size_t other_sigs;	/* job signatures on the device left out */
	json_t *sigs;		/* [{sig, sig_text, runs, last_ms}] on the device, newest first */
};

/*
 * @metric (compare's names: total.iops, read.lat_p99_ns, ...) of one device's
 * runs over time, oldest first.  @f->device is required; the series is one
 * job signature (@f->sig, else the newest run's): runs of others are counted
 * in other_sigs.  @window "all", "steady" (runs without a tail are left out)
 * or "auto" (steady when every run of the series has a tail).  Partial runs
 * are left out.  Free with history_trend_free.
 */
int history_trend(struct history *h, const char *metric, const struct history_filter *f,
		  const char *window, size_t band_runs, struct history_trend *t, struct err *e);

void history_trend_free(struct history_trend *t);

/* ---- output (history_out.c, history_html.c) ---- */

/* A run as JSON (list entries and show). */
json_t *history_run_json(const struct history_run *r);

/* Text: the list header, one line per run. */
int history_write_list_head(FILE *f);
int history_write_list_line(FILE *f, const struct history_run *r);

/* Text: one run in full (show). */
int history_write_show_text(FILE *f, const struct history_run *r, const json_t *figures);

json_t *history_trend_json(const struct history_trend *t);

/*
 * Do @t's points carry their own intervals (lo, hi: a sweep's SLO
 * capacity)?  Then text and HTML show each point's interval where other
 * metrics show its sd.
 */
int history_trend_has_intervals(const struct history_trend *t);
#define HISTORY_TREND_INTERVAL_WHAT "a sweep's SLO capacity: from its interval's low end " \
	"to the step above its high end"
int history_write_trend_text(FILE *f, const struct history_trend *t);

/*
 * What the direction of @t's metric is, for a head line: "lower is better",
 * "higher is better", or for a description (device.queue_depth) that neither
 * side is better.
 */
const char *history_trend_direction(const struct history_trend *t);

/* HTML: a trend chart page (svg.h), the points and band, and a table. */
int history_write_trend_html(FILE *f, const struct history_trend *t);

/* HTML: a table of runs (list). */
int history_write_list_html(FILE *f, const struct history_run *runs, size_t n);

#endif
