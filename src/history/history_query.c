/*
 * history_query: reading the history -- list with filters, one run, the
 * stored documents, selectors for compare (ids, labels, trial sides, the
 * newest N like a given run), labels, trials and export.
 *
 * The filters are written so that SQLite can answer them from an index
 * (docs/history.md, "Scale"): a device is resolved to its dev_id (or name)
 * first, and the time order comes from the (dev_id, start_ms), (sig,
 * start_ms) and (start_ms) indexes, so listing one device's newest runs
 * reads only those rows.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>	/* mkdir */
#include "history/history_db.h"
#include "lib/outfile.h"
#include "lib/vec.h"

void history_filter_init(struct history_filter *f)
{
	memset(f, 0, sizeof(*f));
	f->since_ms = INT64_MIN;
	f->until_ms = INT64_MAX;
}

#define RUN_SELECT "SELECT r.id, r.start_ms, r.recorded_ms, r.source, r.tool, r.preset, " \
	"r.exit_code, r.host, r.kernel, r.dev_id, r.dev_name, r.dev_model, r.dev_serial, " \
	"r.dev_driver, r.dev_scheduler, r.dev_cache, r.sig, r.sig_text, r.nr_jobs, r.job_name, " \
	"r.partial, r.steady, r.bottleneck, r.total_iops, r.read_bw, r.write_bw, " \
	"r.read_lat_ns, r.write_lat_ns, r.trial_id, r.trial_side, " \
	"(SELECT group_concat(name, ',') FROM labels WHERE run_id = r.id) FROM runs r "

static void row_key(sqlite3_stmt *st, int c, struct history_key *k)
{
	memset(k, 0, sizeof(*k));
	history_db_col_text(st, c++, k->host, sizeof(k->host));
	history_db_col_text(st, c++, k->kernel, sizeof(k->kernel));
	history_db_col_text(st, c++, k->dev_id, sizeof(k->dev_id));
	history_db_col_text(st, c++, k->dev_name, sizeof(k->dev_name));
	history_db_col_text(st, c++, k->dev_model, sizeof(k->dev_model));
	history_db_col_text(st, c++, k->dev_serial, sizeof(k->dev_serial));
	history_db_col_text(st, c++, k->dev_driver, sizeof(k->dev_driver));
	history_db_col_text(st, c++, k->dev_scheduler, sizeof(k->dev_scheduler));
	history_db_col_text(st, c++, k->dev_cache, sizeof(k->dev_cache));
	history_db_col_text(st, c++, k->sig, sizeof(k->sig));
	history_db_col_text(st, c++, k->sig_text, sizeof(k->sig_text));
	k->nr_jobs = (unsigned)sqlite3_column_int(st, c);
}

static void row_run(sqlite3_stmt *st, struct history_run *r)
{
	char side[4];

	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(st, 0);
	r->start_ms = sqlite3_column_int64(st, 1);
	r->recorded_ms = sqlite3_column_int64(st, 2);
	history_db_col_text(st, 3, r->source, sizeof(r->source));
	history_db_col_text(st, 4, r->tool, sizeof(r->tool));
	history_db_col_text(st, 5, r->preset, sizeof(r->preset));
	r->exit_code = sqlite3_column_type(st, 6) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 6);
	row_key(st, 7, &r->key);
	history_db_col_text(st, 19, r->job_name, sizeof(r->job_name));
	r->partial = sqlite3_column_int(st, 20);
	r->steady = sqlite3_column_type(st, 21) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 21);
	history_db_col_text(st, 22, r->bottleneck, sizeof(r->bottleneck));
	r->total_iops = history_db_col_real(st, 23);
	r->read_bw = history_db_col_real(st, 24);
	r->write_bw = history_db_col_real(st, 25);
	r->read_lat_ns = history_db_col_real(st, 26);
	r->write_lat_ns = history_db_col_real(st, 27);
	r->trial_id = sqlite3_column_int64(st, 28);
	history_db_col_text(st, 29, side, sizeof(side));
	r->trial_side = side[0];
	history_db_col_text(st, 30, r->labels, sizeof(r->labels));
}

/* Does column @col (indexed) hold @v anywhere?  1, 0, or -1 on error. */
static int any_with(struct history *h, const char *col, const char *v, struct err *e)
{
	char sql[96];
	sqlite3_stmt *st;
	int rc;

	snprintf(sql, sizeof(sql), "SELECT 1 FROM runs WHERE %s = ? LIMIT 1", col);
	if (history_db_prepare(h, sql, &st, e))
		return -1;
	sqlite3_bind_text(st, 1, v, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : (history_db_fail(h, rc, "reading", e), -1);
}

/*
 * The WHERE clause of @f, with its parameters numbered from 1 (bound by
 * history_query_bind in the same order).  The device resolves to the column that
 * names it -- dev_id, else the device name (both indexed), else serial or
 * model -- so the common filters read an index.
 */
int history_query_where(struct history *h, const struct history_filter *f, char *sql, size_t sz,
		    const char **devcol, struct err *e)
{
	size_t off = 0;
	int r;

	*devcol = NULL;
	off += (size_t)snprintf(sql + off, sz - off, "WHERE r.start_ms >= ?1 AND r.start_ms <= ?2");
	if (!f->partial)
		off += (size_t)snprintf(sql + off, sz - off, " AND r.partial = 0");
	if (f->device) {
		int n;

		if ((r = any_with(h, "dev_id", f->device, e)) < 0 ||
		    (n = any_with(h, "dev_name", f->device, e)) < 0)
			return -EIO;
		/* fio's results know the device by name only ("vda"): a name matches both */
		if (r && n)
			*devcol = "(r.dev_id = ?3 OR r.dev_name = ?3)";
		else if (r)
			*devcol = "r.dev_id = ?3";
		else if (n)
			*devcol = "r.dev_name = ?3";
		else
			*devcol = "(r.dev_serial = ?3 OR r.dev_model = ?3)";
		off += (size_t)snprintf(sql + off, sz - off, " AND %s", *devcol);
	}
	if (f->host)
		off += (size_t)snprintf(sql + off, sz - off, " AND r.host = ?4");
	if (f->job)
		off += (size_t)snprintf(sql + off, sz - off,
					" AND r.id IN (SELECT run_id FROM jobs WHERE name = ?5)");
	if (f->preset)
		off += (size_t)snprintf(sql + off, sz - off, " AND r.preset = ?6");
	if (f->label)
		off += (size_t)snprintf(sql + off, sz - off,
					" AND r.id IN (SELECT run_id FROM labels WHERE name = ?7)");
	if (f->sig)
		off += (size_t)snprintf(sql + off, sz - off, strlen(f->sig) == 16 ?
					" AND r.sig = ?8" : " AND r.sig GLOB ?8 || '*'");
	return off < sz ? 0 : err_set(e, -E2BIG, EXIT_INTERNAL, "history: query too long");
}

void history_query_bind(sqlite3_stmt *st, const struct history_filter *f)
{
	sqlite3_bind_int64(st, 1, f->since_ms);
	sqlite3_bind_int64(st, 2, f->until_ms);
	if (f->device)
		sqlite3_bind_text(st, 3, f->device, -1, SQLITE_STATIC);
	if (f->host)
		sqlite3_bind_text(st, 4, f->host, -1, SQLITE_STATIC);
	if (f->job)
		sqlite3_bind_text(st, 5, f->job, -1, SQLITE_STATIC);
	if (f->preset)
		sqlite3_bind_text(st, 6, f->preset, -1, SQLITE_STATIC);
	if (f->label)
		sqlite3_bind_text(st, 7, f->label, -1, SQLITE_STATIC);
	if (f->sig)
		sqlite3_bind_text(st, 8, f->sig, -1, SQLITE_STATIC);
}

int history_list(struct history *h, const struct history_filter *f,
		 int (*fn)(void *arg, const struct history_run *run), void *arg, struct err *e)
{
	char sql[2048], where[1024];
	const char *devcol;
	struct history_run run;
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (history_query_where(h, f, where, sizeof(where), &devcol, e))
		return -EIO;
	snprintf(sql, sizeof(sql), RUN_SELECT "%s ORDER BY r.start_ms DESC, r.id DESC%s", where,
		 f->limit ? " LIMIT ?9" : "");
	if (history_db_prepare(h, sql, &st, e))
		return -EIO;
	history_query_bind(st, f);
	if (f->limit)
		sqlite3_bind_int64(st, 9, (sqlite3_int64)f->limit);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		row_run(st, &run);
		ret = fn(arg, &run);
		if (ret)
			break;
	}
	if (!ret && rc != SQLITE_DONE)
		ret = history_db_fail(h, rc, "listing runs", e);
	sqlite3_finalize(st);
	return ret;
}

/*
 * Prepare @sql (one "?" for @id) and step to its row: 0 with @st on it (the
 * caller finalizes), -ENOENT "no @kind N" when there is none, or the
 * database's error while @doing.
 */
static int row_by_id(struct history *h, const char *sql, int64_t id, const char *kind,
		     const char *doing, sqlite3_stmt **st, struct err *e)
{
	int rc;

	if (history_db_prepare(h, sql, st, e))
		return -EIO;
	sqlite3_bind_int64(*st, 1, id);
	rc = sqlite3_step(*st);
	if (rc == SQLITE_ROW)
		return 0;
	sqlite3_finalize(*st);
	*st = NULL;
	if (rc != SQLITE_DONE)
		return history_db_fail(h, rc, doing, e);
	return err_set(e, -ENOENT, EXIT_USAGE, "history: no %s %lld in %s", kind, (long long)id,
		       h->path);
}

int history_get(struct history *h, int64_t id, struct history_run *run, struct err *e)
{
	sqlite3_stmt *st;
	int ret = row_by_id(h, RUN_SELECT "WHERE r.id = ?", id, "run", "reading a run", &st, e);

	if (ret)
		return ret;
	row_run(st, run);
	sqlite3_finalize(st);
	return 0;
}

int history_document(struct history *h, int64_t id, char **text, size_t *len, struct err *e)
{
	sqlite3_stmt *st;
	int ret;

	ret = row_by_id(h, "SELECT encoding, size, data FROM results WHERE run_id = ?", id,
			"run", "reading a result document", &st, e);
	if (ret)
		return ret;
	*len = (size_t)sqlite3_column_int64(st, 1);
	ret = strcmp((const char *)sqlite3_column_text(st, 0), "zlib") ? -EILSEQ :
	      history_db_inflate(sqlite3_column_blob(st, 2), (size_t)sqlite3_column_bytes(st, 2),
				 *len, text);
	sqlite3_finalize(st);
	if (ret == -ENOMEM)
		return err_set(e, ret, EXIT_INTERNAL, "out of memory");
	if (ret)
		return err_set(e, ret, EXIT_USAGE, "history database %s is corrupt: the stored "
			       "document of run %lld does not decode", h->path, (long long)id);
	return 0;
}

int history_figures_json(struct history *h, int64_t id, json_t **out, struct err *e)
{
	sqlite3_stmt *st;
	json_t *a = json_array();
	int rc;

	if (!a)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	if (history_db_prepare(h, "SELECT f.job, j.name, f.ddir, f.window, f.ios, f.bytes, f.iops, "
			       "f.bw_bytes, f.lat_mean_ns, f.lat_p99_ns, f.interval_cv, f.runtime_ms "
			       "FROM figures f LEFT JOIN jobs j ON j.run_id = f.run_id AND j.idx = "
			       "f.job WHERE f.run_id = ? ORDER BY f.job, f.window, f.ddir", &st, e)) {
		json_decref(a);
		return -EIO;
	}
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		static const char *const keys[] = { "ios", "bytes", "iops", "bw_bytes",
			"lat_mean_ns", "lat_p99_ns", "interval_cv", "runtime_ms" };
		json_t *o = json_object();
		int c;

		json_object_set_new(o, "job", sqlite3_column_int(st, 0) < 0 ? json_null() :
				    json_integer(sqlite3_column_int(st, 0)));
		json_object_set_new(o, "name", sqlite3_column_text(st, 1) ?
				    json_string((const char *)sqlite3_column_text(st, 1)) : json_null());
		json_object_set_new(o, "ddir", json_string((const char *)sqlite3_column_text(st, 2)));
		json_object_set_new(o, "window", json_string((const char *)sqlite3_column_text(st, 3)));
		for (c = 0; c < 8; c++) {
			double v = history_db_col_real(st, 4 + c);

			json_object_set_new(o, keys[c], isfinite(v) ? json_real(v) : json_null());
		}
		json_array_append_new(a, o);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		json_decref(a);
		return history_db_fail(h, rc, "reading figures", e);
	}
	*out = a;
	return 0;
}

/* ---- selectors ---- */

struct idv {
	int64_t *v;
	size_t n, cap;
};

static int idv_push(struct idv *x, int64_t id)
{
	if (vec_grow((void **)&x->v, &x->cap, x->n + 1, sizeof(*x->v), 16))
		return -ENOMEM;
	x->v[x->n++] = id;
	return 0;
}

/* Every id a query with one optional int and one optional text parameter returns. */
static int ids_of(struct history *h, const char *sql, int64_t a, int64_t b, const char *t,
		  struct idv *x, struct err *e)
{
	sqlite3_stmt *st;
	int rc;

	if (history_db_prepare(h, sql, &st, e))
		return -EIO;
	sqlite3_bind_int64(st, 1, a);
	sqlite3_bind_int64(st, 2, b);
	if (t)
		sqlite3_bind_text(st, 3, t, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (idv_push(x, sqlite3_column_int64(st, 0))) {
			sqlite3_finalize(st);
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : history_db_fail(h, rc, "selecting runs", e);
}

static int parse_id(const char *s, const char *end, int64_t *out)
{
	char *p;
	long long v;

	if (s == end || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &p, 10);
	if (errno || p != end || v < 1)
		return -EINVAL;
	*out = v;
	return 0;
}

/* "40,42,45-47": ids that exist; an id or range with none is an error. */
static int select_ids(struct history *h, const char *sel, struct idv *x, struct err *e)
{
	const char *p = sel, *end, *dash;

	while (*p) {
		int64_t lo, hi;
		size_t before = x->n;

		end = p + strcspn(p, ",");
		dash = memchr(p, '-', (size_t)(end - p));
		if (dash ? parse_id(p, dash, &lo) || parse_id(dash + 1, end, &hi) || hi < lo :
			   parse_id(p, end, &lo))
			return err_set(e, -EINVAL, EXIT_USAGE, "history: bad selector '%s': expected "
				       "run ids (42, 40-45, 40,42), label:NAME, trial:T:A|B or "
				       "last:N", sel);
		if (!dash)
			hi = lo;
		if (ids_of(h, "SELECT id FROM runs WHERE id BETWEEN ?1 AND ?2 ORDER BY id", lo, hi,
			   NULL, x, e))
			return -EIO;
		if (x->n == before)
			return err_set(e, -ENOENT, EXIT_USAGE, "history: no run %.*s in %s",
				       (int)(end - p), p, h->path);
		p = *end ? end + 1 : end;
	}
	return 0;
}

int history_select(struct history *h, const char *sel, const struct history_key *like,
		   int64_t **ids, size_t *n, struct err *e)
{
	struct idv x = { 0 };
	int ret;

	*ids = NULL;
	*n = 0;
	if (!strncmp(sel, "label:", 6) || (!isdigit((unsigned char)sel[0]) && !strchr(sel, ':'))) {
		const char *name = strncmp(sel, "label:", 6) ? sel : sel + 6;

		ret = ids_of(h, "SELECT run_id FROM labels WHERE name = ?3 ORDER BY run_id", 0, 0,
			     name, &x, e);
		if (!ret && !x.n)
			ret = err_set(e, -ENOENT, EXIT_USAGE, "history: no runs labelled '%s' in %s "
				      "(history label ID... NAME marks them)", name, h->path);
	} else if (!strncmp(sel, "trial:", 6)) {
		int64_t t;
		const char *colon = strchr(sel + 6, ':');

		if (!colon || parse_id(sel + 6, colon, &t) || (strcmp(colon, ":A") &&
							    strcmp(colon, ":B")))
			return err_set(e, -EINVAL, EXIT_USAGE, "history: bad selector '%s': "
				       "expected trial:T:A or trial:T:B", sel);
		ret = ids_of(h, "SELECT id FROM runs WHERE trial_id = ?1 AND trial_side = ?3 "
			     "ORDER BY trial_index, id", t, 0, colon + 1, &x, e);
		if (!ret && !x.n)
			ret = err_set(e, -ENOENT, EXIT_USAGE, "history: trial %lld has no runs of "
				      "side %s in %s", (long long)t, colon + 1, h->path);
	} else if (!strncmp(sel, "last:", 5)) {
		int64_t k;
		size_t i;

		if (parse_id(sel + 5, sel + strlen(sel), &k))
			return err_set(e, -EINVAL, EXIT_USAGE, "history: bad selector '%s': expected "
				       "last:N (N from 1)", sel);
		if (like) {
			sqlite3_stmt *st;
			int rc;

			ret = history_db_prepare(h, "SELECT id FROM runs WHERE sig = ?1 AND dev_id = "
						 "?2 AND partial = 0 ORDER BY start_ms DESC, id DESC "
						 "LIMIT ?3", &st, e);
			if (ret)
				return -EIO;
			sqlite3_bind_text(st, 1, like->sig, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 2, like->dev_id, -1, SQLITE_STATIC);
			sqlite3_bind_int64(st, 3, k);
			while ((rc = sqlite3_step(st)) == SQLITE_ROW)
				if (idv_push(&x, sqlite3_column_int64(st, 0)))
					break;
			sqlite3_finalize(st);
			if (rc != SQLITE_DONE && rc != SQLITE_ROW)
				ret = history_db_fail(h, rc, "selecting runs", e);
		} else {
			ret = ids_of(h, "SELECT id FROM runs WHERE partial = 0 ORDER BY start_ms DESC, "
				     "id DESC LIMIT ?1", k, 0, NULL, &x, e);
		}
		for (i = 0; i < x.n / 2; i++) {	/* oldest first, as the runs were made */
			int64_t t = x.v[i];

			x.v[i] = x.v[x.n - 1 - i];
			x.v[x.n - 1 - i] = t;
		}
		if (!ret && !x.n)
			ret = err_set(e, -ENOENT, EXIT_USAGE, "history: no runs for '%s' in %s%s", sel,
				      h->path, like ? " with the same device and job" : "");
	} else {
		ret = select_ids(h, sel, &x, e);
	}
	if (ret) {
		free(x.v);
		return ret;
	}
	*ids = x.v;
	*n = x.n;
	return 0;
}

int history_load(struct history *h, const int64_t *ids, size_t n, struct resultread ***out,
		 struct err *e)
{
	struct resultread **v = calloc(n ? n : 1, sizeof(*v));
	char name[48], *text;
	size_t i, len;

	if (!v)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "history:%lld", (long long)ids[i]);
		int ret = history_document(h, ids[i], &text, &len, e);
		json_t *root = NULL;
		json_error_t je;

		if (!ret && !(root = json_loadb(text, len, 0, &je)))
			ret = err_set(e, -EILSEQ, EXIT_USAGE, "%s: the stored document does not parse: "
				      "%s", name, je.text);
		free(text);
		if (!ret)
			ret = resultread_from_json(root, name, &v[i], e);
		if (!ret)
			v[i]->doc = root;	/* compare's per-test split and the HTML use it */
		else
			json_decref(root);
		if (ret) {
			resultread_set_free(v, i);
			return -EINVAL;
		}
	}
	*out = v;
	return 0;
}

int history_keys(struct history *h, const int64_t *ids, size_t n, struct history_key **out,
		 struct err *e)
{
	struct history_key *k = calloc(n ? n : 1, sizeof(*k));
	struct history_run run;
	size_t i;

	if (!k)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	for (i = 0; i < n; i++) {
		if (history_get(h, ids[i], &run, e)) {
			free(k);
			return -ENOENT;
		}
		k[i] = run.key;
	}
	*out = k;
	return 0;
}

/* ---- labels ---- */

static int label_ok(const char *name, struct err *e)
{
	size_t i, n = strlen(name);

	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && !strchr("._-+@/", name[i]))
			break;
	if (!n || n > 64 || i < n || isdigit((unsigned char)name[0]))
		return err_set(e, -EINVAL, EXIT_USAGE, "history: bad label '%s': 1 to 64 letters, "
			       "digits and . _ - + @ /, not starting with a digit", name);
	return 0;
}

int history_label(struct history *h, const char *name, const int64_t *ids, size_t n,
		  int remove, struct err *e)
{
	sqlite3_stmt *st;
	int64_t now = history_now_ms();
	size_t i;
	int rc = SQLITE_DONE;

	if (label_ok(name, e))
		return -EINVAL;
	if (history_db_begin(h, "labelling", e))
		return -EIO;
	if (history_db_prepare(h, remove ? "DELETE FROM labels WHERE name = ?1 AND run_id = ?2" :
			       "INSERT OR IGNORE INTO labels SELECT ?1, id, ?3 FROM runs WHERE "
			       "id = ?2", &st, e)) {
		history_db_rollback(h);
		return -EIO;
	}
	for (i = 0; i < n && rc == SQLITE_DONE; i++) {
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, ids[i]);
		if (!remove)
			sqlite3_bind_int64(st, 3, now);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		history_db_fail(h, rc, "labelling", e);
		history_db_rollback(h);
		return -EIO;
	}
	return history_db_commit(h, "labelling", e);
}

int history_labels_json(struct history *h, json_t **out, struct err *e)
{
	sqlite3_stmt *st;
	json_t *a = json_array();
	int rc;

	if (!a)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	if (history_db_prepare(h, "SELECT l.name, count(*), min(r.start_ms), max(r.start_ms) FROM "
			       "labels l JOIN runs r ON r.id = l.run_id GROUP BY l.name ORDER BY "
			       "l.name", &st, e)) {
		json_decref(a);
		return -EIO;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		json_array_append_new(a, json_pack("{s:s, s:I, s:I, s:I}", "name",
				      (const char *)sqlite3_column_text(st, 0), "runs",
				      (json_int_t)sqlite3_column_int64(st, 1), "first_ms",
				      (json_int_t)sqlite3_column_int64(st, 2), "last_ms",
				      (json_int_t)sqlite3_column_int64(st, 3)));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		json_decref(a);
		return history_db_fail(h, rc, "reading labels", e);
	}
	*out = a;
	return 0;
}

/* ---- trials ---- */

static json_t *json_text_col(sqlite3_stmt *st, int c)
{
	const char *t = (const char *)sqlite3_column_text(st, c);
	json_t *v = t ? json_loads(t, 0, NULL) : NULL;

	return v ? v : json_null();
}

int history_trial_json(struct history *h, int64_t id, json_t **out, struct err *e)
{
	sqlite3_stmt *st;
	json_t *o, *runs;
	int rc;

	rc = row_by_id(h, "SELECT id, recorded_ms, start_ms, dir, regressed, manifest, "
		       "verdicts FROM trials WHERE id = ?", id, "trial", "reading a trial", &st, e);
	if (rc)
		return rc;
	o = json_pack("{s:I, s:I, s:I, s:s?, s:b, s:o, s:o}", "id",
		      (json_int_t)sqlite3_column_int64(st, 0), "recorded_ms",
		      (json_int_t)sqlite3_column_int64(st, 1), "start_ms",
		      (json_int_t)sqlite3_column_int64(st, 2), "dir",
		      (const char *)sqlite3_column_text(st, 3), "regression",
		      sqlite3_column_int(st, 4), "manifest", json_text_col(st, 5), "verdicts",
		      json_text_col(st, 6));
	sqlite3_finalize(st);
	runs = json_array();
	if (!o || !runs || history_db_prepare(h, "SELECT id, trial_side, trial_index FROM runs "
					      "WHERE trial_id = ? ORDER BY trial_index, id", &st, e)) {
		json_decref(o);
		json_decref(runs);
		return o && runs ? -EIO : err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	}
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		json_array_append_new(runs, json_pack("{s:I, s:s, s:I}", "id",
				      (json_int_t)sqlite3_column_int64(st, 0), "side",
				      (const char *)sqlite3_column_text(st, 1), "index",
				      (json_int_t)sqlite3_column_int64(st, 2)));
	sqlite3_finalize(st);
	json_object_set_new(o, "runs", runs);
	if (rc != SQLITE_DONE) {
		json_decref(o);
		return history_db_fail(h, rc, "reading a trial", e);
	}
	*out = o;
	return 0;
}

/* ---- export ---- */

struct export_ctx {
	struct idv ids;
};

static int export_collect(void *arg, const struct history_run *run)
{
	struct export_ctx *x = arg;

	return idv_push(&x->ids, run->id);
}

int history_export(struct history *h, const struct history_filter *f, const char *dir,
		   size_t *n, struct err *e)
{
	struct export_ctx x = { { 0 } };
	char path[PATH_MAX], *text;
	struct outfile of;
	size_t i, len;
	int ret;

	*n = 0;
	if (mkdir(dir, 0777) && errno != EEXIST)
		return err_set(e, -errno, EXIT_OUTPUT, "history export: cannot create %s: %s", dir,
			       strerror(errno));
	ret = history_list(h, f, export_collect, &x, e);
	if (ret > 0)
		ret = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	for (i = 0; i < x.ids.n && !ret; i++) {
		snprintf(path, sizeof(path), "%s/run-%lld.json", dir, (long long)x.ids.v[i]);
		ret = history_document(h, x.ids.v[i], &text, &len, e);
		if (ret)
			break;
		ret = outfile_open(&of, path, e);
		if (!ret) {
			if (fwrite(text, 1, len, of.f) != len) {
				outfile_abort(&of);
				ret = err_set(e, -EIO, EXIT_OUTPUT, "history export: writing %s failed",
					      path);
			} else {
				ret = outfile_commit(&of, e);
			}
		}
		free(text);
		*n += !ret;
	}
	free(x.ids.v);
	return ret;
}
