/*
 * history_db: what the history's files share and nobody else sees: the open
 * database handle, the schema and its migrations, transactions, and the
 * translation of SQLite's failures into a struct err that names the file and
 * the problem (locked, read-only, full, corrupt, newer).
 */
#ifndef IOTRIAL_HISTORY_DB_H
#define IOTRIAL_HISTORY_DB_H

#include <sqlite3.h>
#include "history/history.h"

struct history {
	sqlite3 *db;
	char *path;
	unsigned busy_ms;
	enum history_problem problem;	/* of the last failure */
	int version;		/* the file's schema as opened (a reader leaves an old one as it is) */
};

/* One schema step: run @sql to go from version - 1 to @version. */
struct history_migration {
	int version;
	const char *sql;
};

/*
 * Bring @h's schema to @target with @steps (ascending versions), inside one
 * IMMEDIATE transaction; the version is re-read under the lock, so two
 * processes opening a new file together migrate it once.  A file already
 * at @target is left alone; one above it is HISTORY_NEWER.  (The open path
 * calls it with the built-in steps; the unit tests with their own.)
 */
int history_db_migrate(struct history *h, const struct history_migration *steps, size_t n,
		       int target, struct err *e);

/*
 * Record a failed SQLite call @rc while doing @what ("storing run x.json")
 * in @e, classified (h->problem) and worded for one line: the file, the
 * problem, SQLite's own message.  Returns a negative errno.
 */
int history_db_fail(struct history *h, int rc, const char *what, struct err *e);

/* Run @sql (no results).  0, or history_db_fail's value. */
int history_db_exec(struct history *h, const char *sql, const char *what, struct err *e);

/* Prepare @sql.  0, or history_db_fail's value. */
int history_db_prepare(struct history *h, const char *sql, sqlite3_stmt **st, struct err *e);

/* BEGIN IMMEDIATE (waits up to the busy timeout for other writers); COMMIT; ROLLBACK. */
int history_db_begin(struct history *h, const char *what, struct err *e);
int history_db_commit(struct history *h, const char *what, struct err *e);
void history_db_rollback(struct history *h);

/* Milliseconds since the epoch (CLOCK_REALTIME). */
int64_t history_now_ms(void);

/* Bind @s as text, or NULL when it is NULL or empty. */
int history_db_bind_text(sqlite3_stmt *st, int idx, const char *s);

/* Bind @v as a real, or NULL when it is not finite. */
int history_db_bind_real(sqlite3_stmt *st, int idx, double v);

/* Column @i as text into @buf ("" for NULL). */
void history_db_col_text(sqlite3_stmt *st, int i, char *buf, size_t sz);

/* Column @i as a real (NAN for NULL). */
double history_db_col_real(sqlite3_stmt *st, int i);

/* Compress @text for the results table; *@out malloc'd. 0 or -ENOMEM. */
int history_db_deflate(const char *text, size_t len, unsigned char **out, size_t *olen);

/* The inverse: *@text malloc'd, NUL-terminated, @len bytes.  0, -ENOMEM or -EILSEQ. */
int history_db_inflate(const unsigned char *in, size_t ilen, size_t len, char **text);

/*
 * history_query.c: the WHERE clause of a filter over "runs r" into @sql
 * (parameters ?1..?8; *@devcol the device condition used, or NULL), and the
 * binding of those parameters.  0, or -errno with @e set.
 */
int history_query_where(struct history *h, const struct history_filter *f, char *sql,
			size_t sz, const char **devcol, struct err *e);
void history_query_bind(sqlite3_stmt *st, const struct history_filter *f);

#endif
