/*
 * history_db: opening the history file, its schema and migrations, and the
 * classification of SQLite's failures (history.h, docs/history.md).
 *
 * Why these settings: WAL lets readers (list, trend) run while a run is being
 * stored and makes a commit one append; synchronous=FULL makes a committed
 * run survive a power cut (one fsync per run, nothing beside a benchmark);
 * every write transaction is BEGIN IMMEDIATE so two writers queue on the
 * busy timeout instead of one failing with SQLITE_BUSY on lock upgrade.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>	/* mkdir */
#include <sys/statvfs.h>	/* a read-only file system */
#include <time.h>
#include <zlib.h>	/* compress2: the stored documents */
#include "lib/clock.h"	/* clock_gettime_ns */
#include "history/history_db.h"
#include "lib/rand.h"	/* the pauses' jitter */

/*
 * Schema version 1.  runs: one row per result document, with the facts that
 * select it (device, host, job signature, time) as indexed columns and a few
 * figures for list; results: the document itself; jobs, figures, metrics:
 * derived from it (history_rebuild remakes them); trials: `iotrial ab`
 * trials with their manifest and verdicts; labels: names on runs.
 */
static const char schema_v1[] =
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
	"CREATE TABLE trials("
	" id INTEGER PRIMARY KEY,"
	" digest TEXT NOT NULL UNIQUE,"		/* of the manifest: a trial is stored once */
	" recorded_ms INTEGER NOT NULL,"
	" start_ms INTEGER,"
	" dir TEXT,"
	" a_spec TEXT, b_spec TEXT, metric TEXT, stopped_by TEXT,"
	" regressed INTEGER,"
	" manifest TEXT NOT NULL,"
	" verdicts TEXT);"			/* compare's JSON over the trial's runs */
	"CREATE TABLE runs("
	" id INTEGER PRIMARY KEY,"
	" digest TEXT NOT NULL UNIQUE,"		/* of the document: stored once */
	" start_ms INTEGER NOT NULL,"
	" recorded_ms INTEGER NOT NULL,"
	" source TEXT NOT NULL,"
	" tool TEXT NOT NULL,"
	" preset TEXT,"
	" exit_code INTEGER,"
	" host TEXT, kernel TEXT,"
	" dev_id TEXT NOT NULL, dev_name TEXT, dev_model TEXT, dev_serial TEXT,"
	" dev_driver TEXT, dev_scheduler TEXT, dev_cache TEXT,"
	" sig TEXT NOT NULL, sig_text TEXT NOT NULL, nr_jobs INTEGER NOT NULL,"
	" job_name TEXT NOT NULL,"
	" partial INTEGER NOT NULL,"
	" steady INTEGER, bottleneck TEXT,"
	" total_iops REAL, read_bw REAL, write_bw REAL, read_lat_ns REAL, write_lat_ns REAL,"
	" trial_id INTEGER REFERENCES trials(id) ON DELETE SET NULL,"
	" trial_side TEXT, trial_index INTEGER);"
	"CREATE INDEX runs_dev ON runs(dev_id, start_ms);"
	"CREATE INDEX runs_devname ON runs(dev_name, start_ms);"
	"CREATE INDEX runs_sig ON runs(sig, start_ms);"
	"CREATE INDEX runs_time ON runs(start_ms);"
	"CREATE INDEX runs_trial ON runs(trial_id);"
	"CREATE TABLE results("
	" run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,"
	" encoding TEXT NOT NULL,"		/* "zlib" */
	" size INTEGER NOT NULL,"		/* of the document */
	" data BLOB NOT NULL);"
	"CREATE TABLE jobs("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" idx INTEGER NOT NULL, name TEXT NOT NULL, groupid INTEGER,"
	" rw TEXT, bs TEXT, iodepth INTEGER, numjobs INTEGER, direct INTEGER, ioengine TEXT,"
	" error INTEGER, bottleneck TEXT, steady INTEGER, steady_held INTEGER,"
	" PRIMARY KEY(run_id, idx)) WITHOUT ROWID;"
	"CREATE INDEX jobs_name ON jobs(name, run_id);"
	"CREATE TABLE figures("			/* job -1: the whole run */
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" job INTEGER NOT NULL, ddir TEXT NOT NULL, window TEXT NOT NULL,"
	" ios INTEGER, bytes INTEGER, iops REAL, bw_bytes REAL, lat_mean_ns REAL,"
	" lat_p99_ns REAL, interval_cv REAL, runtime_ms INTEGER,"
	" PRIMARY KEY(run_id, job, ddir, window)) WITHOUT ROWID;"
	"CREATE TABLE metrics("			/* compare's metrics, per window */
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" name TEXT NOT NULL, window TEXT NOT NULL, value REAL NOT NULL, cv REAL,"
	" PRIMARY KEY(run_id, name, window)) WITHOUT ROWID;"
	"CREATE TABLE labels("
	" name TEXT NOT NULL,"
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" created_ms INTEGER NOT NULL,"
	" PRIMARY KEY(name, run_id)) WITHOUT ROWID;"
	"CREATE INDEX labels_run ON labels(run_id);";

/*
 * Version 2: a metric's own interval beside its value (lo, hi), when the
 * document gives one (a sweep's SLO capacity: docs/sweep.md), for trends.
 * A reader of a version 1 file takes them as unknown.
 */
static const char schema_v2[] =
	"ALTER TABLE metrics ADD COLUMN lo REAL;"
	"ALTER TABLE metrics ADD COLUMN hi REAL;";

static const struct history_migration builtin_steps[] = {
	{ 1, schema_v1 },
	{ 2, schema_v2 },
};

int64_t history_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int history_path(char *buf, size_t sz, const char *given, const char *env_history,
		 const char *xdg_data_home, const char *home, struct err *e)
{
	int n;

	if (given && *given)
		n = snprintf(buf, sz, "%s", given);
	else if (env_history && *env_history)
		n = snprintf(buf, sz, "%s", env_history);
	else if (xdg_data_home && *xdg_data_home)
		n = snprintf(buf, sz, "%s/iotrial/%s", xdg_data_home, HISTORY_DEFAULT_NAME);
	else if (home && *home)
		n = snprintf(buf, sz, "%s/.local/share/iotrial/%s", home, HISTORY_DEFAULT_NAME);
	else
		return err_set(e, -ENOENT, EXIT_USAGE, "history: no database file: give "
			       "--history=FILE or set IOTRIAL_HISTORY (HOME is not set)");
	if (n < 0 || (size_t)n >= sz)
		return err_set(e, -ENAMETOOLONG, EXIT_USAGE, "history: database path too long: %.80s...",
			       buf);
	return 0;
}

/* mkdir -p of @path's directory. */
static int make_parent(const char *path)
{
	char dir[PATH_MAX], *p;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return 0;
	*p = 0;
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(dir, 0777) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(dir, 0777) && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * @cerr: errno as the failed call left it.  SQLite forgets the errno of a
 * failed write when it rolls back (sqlite3_system_errno() is 0 then), but
 * the C library's errno still says why: a write past RLIMIT_FSIZE leaves
 * EFBIG there and SQLITE_IOERR_WRITE as the code.
 */
static enum history_problem classify(sqlite3 *db, int rc, int cerr)
{
	int sys = db ? sqlite3_system_errno(db) : 0;

	if (!sys && (rc & 0xff) == SQLITE_IOERR)
		sys = cerr;

	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return HISTORY_LOCKED;
	case SQLITE_READONLY:
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return HISTORY_READONLY;
	case SQLITE_FULL:
		return HISTORY_FULL;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return HISTORY_CORRUPT;
	case SQLITE_CANTOPEN:
		return sys == EACCES || sys == EROFS || sys == EPERM ? HISTORY_READONLY :
		       sys == ENOSPC ? HISTORY_FULL : HISTORY_OTHER;
	case SQLITE_IOERR:
		/* a write past a size limit (RLIMIT_FSIZE, quota) is a full disk too */
		if (sys == ENOSPC || sys == EFBIG || sys == EDQUOT)
			return HISTORY_FULL;
		if (sys == EROFS || sys == EACCES)
			return HISTORY_READONLY;
		return HISTORY_OTHER;
	default:
		return HISTORY_OTHER;
	}
}

static const char *problem_words(enum history_problem p)
{
	switch (p) {
	case HISTORY_LOCKED: return "is locked by another process";
	case HISTORY_READONLY: return "is read-only";
	case HISTORY_FULL: return "is on a full file system";
	case HISTORY_CORRUPT: return "is corrupt (not a database, or damaged)";
	case HISTORY_NEWER: return "is from a newer iotrial";
	case HISTORY_MISSING: return "does not exist";
	default: return "failed";
	}
}

static int fail_db(sqlite3 *db, const char *path, unsigned busy_ms, int rc, const char *what,
		   enum history_problem *problem, struct err *e)
{
	int cerr = errno;	/* first: see classify() */
	enum history_problem p = classify(db, rc, cerr);
	int sys = db ? sqlite3_system_errno(db) : 0;
	char waited[48] = "", why[80] = "";

	if (!sys && (rc & 0xff) == SQLITE_IOERR)
		sys = cerr;

	if (p == HISTORY_LOCKED)
		snprintf(waited, sizeof(waited), " (waited %.1f s)", busy_ms / 1000.0);
	if (sys && (rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
		snprintf(why, sizeof(why), " (%s)", strerror(sys));
	if (problem)
		*problem = p;
	return err_set(e, p == HISTORY_FULL ? -ENOSPC : p == HISTORY_READONLY ? -EROFS :
		       p == HISTORY_LOCKED ? -EBUSY : p == HISTORY_CORRUPT ? -EILSEQ : -EIO,
		       p == HISTORY_CORRUPT || p == HISTORY_OTHER ? EXIT_USAGE : EXIT_OUTPUT,
		       "history database %s %s%s: %s%s%s%s", path, problem_words(p), waited,
		       what ? what : "", what ? ": " : "",
		       db ? sqlite3_errmsg(db) : sqlite3_errstr(rc), why);
}

int history_db_fail(struct history *h, int rc, const char *what, struct err *e)
{
	return fail_db(h->db, h->path, h->busy_ms, rc, what, &h->problem, e);
}

int history_db_exec(struct history *h, const char *sql, const char *what, struct err *e)
{
	int rc = sqlite3_exec(h->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : history_db_fail(h, rc, what, e);
}

int history_db_prepare(struct history *h, const char *sql, sqlite3_stmt **st, struct err *e)
{
	int rc = sqlite3_prepare_v2(h->db, sql, -1, st, NULL);

	return rc == SQLITE_OK ? 0 : history_db_fail(h, rc, "reading", e);
}

int history_db_begin(struct history *h, const char *what, struct err *e)
{
	return history_db_exec(h, "BEGIN IMMEDIATE", what, e);
}

int history_db_commit(struct history *h, const char *what, struct err *e)
{
	int rc = sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL);

	if (rc == SQLITE_OK)
		return 0;
	history_db_fail(h, rc, what, e);
	history_db_rollback(h);
	return -EIO;
}

void history_db_rollback(struct history *h)
{
	if (!sqlite3_get_autocommit(h->db))
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
}

int history_db_bind_text(sqlite3_stmt *st, int idx, const char *s)
{
	if (!s || !*s)
		return sqlite3_bind_null(st, idx);
	return sqlite3_bind_text(st, idx, s, -1, SQLITE_TRANSIENT);
}

int history_db_bind_real(sqlite3_stmt *st, int idx, double v)
{
	if (!(v == v) || v > 1e300 || v < -1e300)
		return sqlite3_bind_null(st, idx);
	return sqlite3_bind_double(st, idx, v);
}

void history_db_col_text(sqlite3_stmt *st, int i, char *buf, size_t sz)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	snprintf(buf, sz, "%s", t ? (const char *)t : "");
}

double history_db_col_real(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? __builtin_nan("") :
	       sqlite3_column_double(st, i);
}

int history_db_deflate(const char *text, size_t len, unsigned char **out, size_t *olen)
{
	uLongf n = compressBound((uLong)len);
	unsigned char *buf = malloc(n ? n : 1);

	if (!buf)
		return -ENOMEM;
	/* the fastest level: a run's JSON still shrinks about 4x, and a long
	 * import spends its time here and in parsing, not in waiting for disk */
	if (compress2(buf, &n, (const Bytef *)text, (uLong)len, Z_BEST_SPEED) != Z_OK) {
		free(buf);
		return -ENOMEM;
	}
	*out = buf;
	*olen = n;
	return 0;
}

int history_db_inflate(const unsigned char *in, size_t ilen, size_t len, char **text)
{
	uLongf n = (uLongf)len;
	char *buf;

	if (len > RESULTREAD_SIZE_MAX)
		return -EILSEQ;
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	if (uncompress((Bytef *)buf, &n, in, (uLong)ilen) != Z_OK || n != len) {
		free(buf);
		return -EILSEQ;
	}
	buf[len] = 0;
	*text = buf;
	return 0;
}

/* PRAGMA user_version, or -1 with the SQLite code in *rc. */
static int user_version(sqlite3 *db, int *rc)
{
	sqlite3_stmt *st;
	int v = -1;

	*rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);
	if (*rc != SQLITE_OK)
		return -1;
	*rc = sqlite3_step(st);
	if (*rc == SQLITE_ROW) {
		v = sqlite3_column_int(st, 0);
		*rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return v;
}

/* Does the file hold tables that are not ours (a schema version 0 file)? */
static int has_tables(sqlite3 *db, int *rc)
{
	sqlite3_stmt *st;
	int n = 0;

	*rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL);
	if (*rc != SQLITE_OK)
		return 0;
	*rc = sqlite3_step(st);
	if (*rc == SQLITE_ROW) {
		n = sqlite3_column_int(st, 0);
		*rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return n > 0;
}

/* "iotrial 0.3.0" from meta, for the refusal of a newer file. */
static void writer_of(sqlite3 *db, char *buf, size_t sz)
{
	sqlite3_stmt *st;

	snprintf(buf, sz, "a newer iotrial");
	if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'writer'", -1, &st,
			       NULL) != SQLITE_OK)
		return;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(buf, sz, "iotrial %s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

static int newer(struct history *h, int v, struct err *e)
{
	char who[80];

	writer_of(h->db, who, sizeof(who));
	h->problem = HISTORY_NEWER;
	return err_set(e, -EPROTO, EXIT_USAGE, "history database %s was written by %s (schema "
		       "version %d; this iotrial %s knows up to %d): refused, nothing read or "
		       "written; use that iotrial or another --history file", h->path, who, v,
		       IOTRIAL_VERSION, HISTORY_SCHEMA_VERSION);
}

int history_db_migrate(struct history *h, const struct history_migration *steps, size_t n,
		       int target, struct err *e)
{
	char sql[160];
	int rc, v;
	size_t i;

	if (history_db_begin(h, "preparing the schema", e))
		return -EIO;
	v = user_version(h->db, &rc);	/* under the lock: another opener may have done it */
	if (v < 0) {
		history_db_fail(h, rc, "reading the schema version", e);
		goto fail;
	}
	if (v > target) {
		newer(h, v, e);
		goto fail;
	}
	if (v == 0 && has_tables(h->db, &rc)) {
		h->problem = HISTORY_CORRUPT;
		err_set(e, -EILSEQ, EXIT_USAGE, "history database %s is a SQLite file but not an "
			"iotrial history (it has other tables): refused", h->path);
		goto fail;
	}
	for (i = 0; i < n && v < target; i++) {
		if (steps[i].version <= v)
			continue;
		if (steps[i].version != v + 1) {
			err_set(e, -EINVAL, EXIT_INTERNAL, "history: no migration from schema %d", v);
			goto fail;
		}
		snprintf(sql, sizeof(sql), "migrating the schema to version %d", steps[i].version);
		if (history_db_exec(h, steps[i].sql, sql, e))
			goto fail;
		v = steps[i].version;
	}
	if (v != target) {
		err_set(e, -EINVAL, EXIT_INTERNAL, "history: no migration to schema %d", target);
		goto fail;
	}
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d; INSERT OR REPLACE INTO meta "
		 "VALUES ('writer', '%s')", target, IOTRIAL_VERSION);
	if (history_db_exec(h, sql, "writing the schema version", e))
		goto fail;
	return history_db_commit(h, "writing the schema", e);
fail:
	history_db_rollback(h);
	return -EIO;
}

static int setup(struct history *h, enum history_mode mode, struct err *e)
{
	sqlite3_stmt *st;
	int rc, v, wal = 0;

	v = user_version(h->db, &rc);
	if (v < 0)
		return history_db_fail(h, rc, "opening", e);
	if (v > HISTORY_SCHEMA_VERSION)
		return newer(h, v, e);
	if (mode == HISTORY_READ) {
		if (v == 0) {
			h->problem = HISTORY_CORRUPT;
			return err_set(e, -EILSEQ, EXIT_USAGE, "history database %s is %s", h->path,
				       has_tables(h->db, &rc) ? "a SQLite file but not an iotrial "
				       "history: refused" : "empty: no run was recorded in it");
		}
		/* a file older than this build: read it as it is (the queries ask
		 * h->version for what a version added: metrics' lo and hi in 2) */
		h->version = v;
		return history_db_exec(h, "PRAGMA foreign_keys = ON", "opening", e);
	}
	if (sqlite3_db_readonly(h->db, "main") == 1) {
		h->problem = HISTORY_READONLY;
		return err_set(e, -EROFS, EXIT_OUTPUT, "history database %s is read-only: the file "
			       "or its directory cannot be written", h->path);
	}
	/* WAL is a property of the file: set once, by the first writer */
	if (history_db_prepare(h, "PRAGMA journal_mode", &st, e))
		return -EIO;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		wal = !strcmp((const char *)sqlite3_column_text(st, 0), "wal");
	sqlite3_finalize(st);
	if (!wal && history_db_exec(h, "PRAGMA journal_mode = WAL", "turning WAL on", e))
		return -EIO;
	if (history_db_exec(h, "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON",
			    "opening", e))
		return -EIO;
	h->version = HISTORY_SCHEMA_VERSION;
	if (v < HISTORY_SCHEMA_VERSION)
		return history_db_migrate(h, builtin_steps,
					  sizeof(builtin_steps) / sizeof(builtin_steps[0]),
					  HISTORY_SCHEMA_VERSION, e);
	return 0;
}

/*
 * setup, tried again while another process holds the file.  SQLite does not
 * call the busy handler everywhere: switching a new file to WAL while other
 * writers are creating or switching it returns SQLITE_BUSY at once (found
 * with eight runs and two imports starting on one new file), so the open
 * waits here, for the same time the busy timeout allows.  setup is safe to
 * repeat: it reads the file's state each time, and a failed migration is
 * rolled back.
 */
static int setup_waiting(struct history *h, enum history_mode mode, struct err *e)
{
	uint64_t end = clock_gettime_ns() + h->busy_ms * 1000000ull;
	unsigned pause_ms = 5;
	struct rand_state r;
	int ret;

	rand_seed(&r, rand_base_seed(0, 0, 0));	/* each writer its own pauses */
	for (;;) {
		h->problem = HISTORY_OK;
		ret = setup(h, mode, e);
		if (!ret || h->problem != HISTORY_LOCKED || clock_gettime_ns() >= end)
			return ret;
		err_clear(e);
		/* jittered, growing pauses: the writers that met here do not meet again */
		nanosleep(&(struct timespec){ 0, (long)(pause_ms + rand_below(&r, pause_ms + 1)) *
					      1000000L }, NULL);
		if (pause_ms < 100)
			pause_ms *= 2;
	}
}

/* Is @path (or, when it does not exist, its directory) on a file system mounted read-only? */
static int on_readonly_fs(const char *path)
{
	char dir[PATH_MAX], *slash;
	struct statvfs v;

	if (!statvfs(path, &v))
		return (v.f_flag & ST_RDONLY) != 0;
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	return !statvfs(slash ? (dir[0] ? dir : "/") : ".", &v) && (v.f_flag & ST_RDONLY);
}

/*
 * "file:PATH?immutable=1": a WAL file on a read-only file system cannot get
 * its shared-memory index, so SQLite refuses to open it at all; nobody can
 * write it there, so reading it without locks is safe.
 */
static int open_immutable(struct history *h)
{
	char uri[3 * PATH_MAX + 32], *o = uri;
	const char *p;

	o += sprintf(o, "file:");
	for (p = h->path; *p && o < uri + sizeof(uri) - 16; p++) {
		if (*p == '%' || *p == '?' || *p == '#')
			o += sprintf(o, "%%%02X", (unsigned char)*p);
		else
			*o++ = *p;
	}
	sprintf(o, "?immutable=1");
	sqlite3_close_v2(h->db);
	h->db = NULL;
	return sqlite3_open_v2(uri, &h->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
}

int history_open(const char *path, enum history_mode mode, unsigned busy_ms,
		 struct history **out, enum history_problem *problem, struct err *e)
{
	struct history *h;
	struct stat sb;
	int flags = mode == HISTORY_WRITE ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE :
		    SQLITE_OPEN_READONLY;
	int rc, ret;

	*out = NULL;
	if (problem)
		*problem = HISTORY_OK;
	if (mode == HISTORY_READ && stat(path, &sb)) {
		if (problem)
			*problem = HISTORY_MISSING;
		return err_set(e, -ENOENT, EXIT_USAGE, "history database %s does not exist: record "
			       "runs with --history or IOTRIAL_HISTORY, or give --history=FILE", path);
	}
	/* SQLite would say "disk I/O error" (read) or "unable to open" (write): name the cause */
	if (!stat(path, &sb) && S_ISDIR(sb.st_mode)) {
		if (problem)
			*problem = HISTORY_OTHER;
		return err_set(e, -EISDIR, EXIT_USAGE, "history database %s is a directory, not a "
			       "file: give --history=FILE (for example %s%shistory.db)", path, path,
			       path[0] && path[strlen(path) - 1] == '/' ? "" : "/");
	}
	if (mode == HISTORY_WRITE && (ret = make_parent(path))) {
		if (problem)
			*problem = ret == -ENOSPC ? HISTORY_FULL : HISTORY_READONLY;
		return err_set(e, ret, EXIT_OUTPUT, "history database %s: cannot create its "
			       "directory: %s", path, strerror(-ret));
	}
	h = calloc(1, sizeof(*h));
	if (!h || !(h->path = strdup(path))) {
		free(h);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	}
	h->busy_ms = busy_ms ? busy_ms : HISTORY_BUSY_MS_DEFAULT;
	rc = sqlite3_open_v2(path, &h->db, flags, NULL);
	if (rc != SQLITE_OK && mode == HISTORY_READ && on_readonly_fs(path))
		rc = open_immutable(h);
	if (rc != SQLITE_OK) {
		if (mode == HISTORY_WRITE && on_readonly_fs(path)) {
			ret = err_set(e, -EROFS, EXIT_OUTPUT, "history database %s is read-only: its "
				      "file system is mounted read-only", path);
			if (problem)
				*problem = HISTORY_READONLY;
		} else {
			ret = fail_db(h->db, path, h->busy_ms, rc, "opening", problem, e);
		}
		history_close(h);
		return ret;
	}
	sqlite3_extended_result_codes(h->db, 1);
	sqlite3_busy_timeout(h->db, (int)h->busy_ms);
	ret = setup_waiting(h, mode, e);
	if (ret && on_readonly_fs(path)) {
		err_clear(e);
		if (mode == HISTORY_READ && open_immutable(h) == SQLITE_OK) {
			sqlite3_extended_result_codes(h->db, 1);
			ret = setup(h, mode, e);
		} else if (mode == HISTORY_WRITE) {
			h->problem = HISTORY_READONLY;
			ret = err_set(e, -EROFS, EXIT_OUTPUT, "history database %s is read-only: its "
				      "file system is mounted read-only", path);
		}
	}
	if (ret) {
		if (problem)
			*problem = h->problem;
		history_close(h);
		return ret;
	}
	*out = h;
	return 0;
}

void history_close(struct history *h)
{
	if (!h)
		return;
	sqlite3_close_v2(h->db);
	free(h->path);
	free(h);
}

enum history_problem history_problem(const struct history *h)
{
	return h ? h->problem : HISTORY_OTHER;
}

const char *history_file(const struct history *h)
{
	return h->path;
}
