/*
 * history_record: putting result documents into the history -- one run, an
 * ab trial with its runs -- and deriving a run's rows from its document.
 * history_import.c (files and directories in batches) and history_rebuild.c
 * (every stored document derived again) go through the same steps
 * (history_record.h).
 *
 * A document is read once (jansson, then resultread_from_json, the reader
 * compare uses), so what is stored, what compare later computes from it and
 * what `history rebuild` derives again can never disagree.  Each store is a
 * transaction: a run is in the file whole (row, document, jobs, figures,
 * metrics) or not at all.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nettle/sha2.h>	/* the documents' digests: the same result is stored once */
#include "history/history_record.h"
#include "result/resultwindow.h"

/* What is derived from a document besides its key. */
struct derived {
	struct history_key key;
	int64_t start_ms;
	char tool[64];
	char job_name[128];
	char bottleneck[16];
	int partial;
	int steady;
	double total_iops, read_bw, write_bw, read_lat, write_lat;
};

/* A document read and summarised. */
struct doc {
	const char *text;	/* the JSON part of what was given (borrowed) */
	size_t len;
	json_t *root;
	struct resultread *r;
	struct derived d;
	char digest[2 * SHA256_DIGEST_SIZE + 1];
};

static void doc_free(struct doc *d)
{
	json_decref(d->root);
	resultread_free(d->r);
	d->root = NULL;
	d->r = NULL;
}

static void digest_hex(const char *text, size_t len, char *out)
{
	struct sha256_ctx c;
	uint8_t h[SHA256_DIGEST_SIZE];
	size_t i;

	sha256_init(&c);
	sha256_update(&c, len, (const uint8_t *)text);
	sha256_digest(&c, sizeof(h), h);
	for (i = 0; i < sizeof(h); i++)
		snprintf(out + 2 * i, 3, "%02x", h[i]);
}

static void derive(struct doc *d)
{
	const struct resultread *r = d->r;
	struct derived *x = &d->d;
	size_t i;
	int all = 1, any = 0;

	history_key_of(d->root, r, &x->key);
	x->start_ms = r->timestamp_ms >= 0 ? r->timestamp_ms : history_now_ms();
	snprintf(x->tool, sizeof(x->tool), "%s", r->version[0] ? r->version : "unknown");
	snprintf(x->job_name, sizeof(x->job_name), "%s", r->nr_jobs ? r->jobs[0].name : "");
	if (r->sweep.is)	/* a sweep's jobs are its runs': the first as it ran (sweep.h) */
		snprintf(x->job_name, sizeof(x->job_name), "%s", json_string_value(json_object_get(
			 json_array_get(json_object_get(d->root, "workload"), 0), "name")) ?: "");
	x->partial = r->partial;
	x->bottleneck[0] = 0;
	for (i = 0; i < r->nr_jobs; i++) {
		const struct resultread_job *j = &r->jobs[i];

		if (j->steady >= 0) {
			any = 1;
			all &= j->steady == 1;
		}
		if (!i)
			snprintf(x->bottleneck, sizeof(x->bottleneck), "%s", j->bottleneck);
		else if (strcmp(x->bottleneck, j->bottleneck))
			snprintf(x->bottleneck, sizeof(x->bottleneck), "mixed");
	}
	x->steady = any ? all : -1;
	x->total_iops = r->total_iops > 0 ? r->total_iops : NAN;
	x->read_bw = r->dir[0].ios ? r->dir[0].bw_bytes : NAN;
	x->write_bw = r->dir[1].ios ? r->dir[1].bw_bytes : NAN;
	x->read_lat = r->dir[0].ios ? r->dir[0].lat_mean_ns : NAN;
	x->write_lat = r->dir[1].ios ? r->dir[1].lat_mean_ns : NAN;
}

/* Read @text as a result document (fio's notes before the JSON skipped, as resultread does). */
static int doc_read(struct doc *d, const char *text, size_t len, const char *name, struct err *e)
{
	const char *p = text, *nl;
	json_error_t je;

	memset(d, 0, sizeof(*d));
	if (len > RESULTREAD_SIZE_MAX)
		return err_set(e, -EFBIG, EXIT_USAGE, "%s: larger than %u MiB: not a result file",
			       name, RESULTREAD_SIZE_MAX >> 20);
	while (p < text + len && *p != '{' && (nl = memchr(p, '\n', (size_t)(text + len - p))))
		p = nl + 1;
	d->text = p;
	d->len = (size_t)(text + len - p);
	d->root = json_loadb(d->text, d->len, 0, &je);
	if (!d->root)
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: not a result file: JSON error at line "
			       "%d: %s", name, je.line, je.text);
	if (resultread_from_json(d->root, name, &d->r, e)) {
		doc_free(d);
		return -EINVAL;
	}
	digest_hex(d->text, d->len, d->digest);
	derive(d);
	return 0;
}

/* Read a whole file (at most RESULTREAD_SIZE_MAX). */
static int slurp(const char *path, char **text, size_t *len, struct err *e)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0, got;
	char *buf = NULL, *nb;

	if (!f)
		return err_set(e, -errno, EXIT_USAGE, "%s: %s", path, strerror(errno));
	do {
		if (n + 1 >= cap || !buf) {
			if (buf)
				cap *= 2;
			if (cap > (size_t)RESULTREAD_SIZE_MAX + 2) {
				free(buf);
				fclose(f);
				return err_set(e, -EFBIG, EXIT_USAGE, "%s: larger than %u MiB: not a "
					       "result file", path, RESULTREAD_SIZE_MAX >> 20);
			}
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return err_set(e, -EIO, EXIT_USAGE, "%s: read error", path);
	}
	fclose(f);
	buf[n] = 0;
	*text = buf;
	*len = n;
	return 0;
}

static const char *fig_dirs[RESULTREAD_NDIR] = { "read", "write", "trim" };

/* Number @key of object @o (integer or real), NAN when absent. */
static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static double pct99(const json_t *lat)
{
	const json_t *p = json_object_get(lat, "percentile");
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)p, k, v)
		if (fabs(strtod(k, NULL) - 99.0) < 1e-9 && json_is_number(v))
			return json_number_value(v);
	return NAN;
}

static int bind_fig(struct history *h, sqlite3_stmt *st, int64_t id, int job, const char *dir,
		    const char *window, double ios, double bytes, double iops, double bw,
		    double lat, double p99, double cv, double rt, struct err *e)
{
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, job);
	sqlite3_bind_text(st, 3, dir, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, window, -1, SQLITE_STATIC);
	history_db_bind_real(st, 5, ios);
	history_db_bind_real(st, 6, bytes);
	history_db_bind_real(st, 7, iops);
	history_db_bind_real(st, 8, bw);
	history_db_bind_real(st, 9, lat);
	history_db_bind_real(st, 10, p99);
	history_db_bind_real(st, 11, cv);
	history_db_bind_real(st, 12, rt);
	rc = sqlite3_step(st);
	return rc == SQLITE_DONE ? 0 : history_db_fail(h, rc, "storing figures", e);
}

/* The whole run's figures (both windows) and each job's, per direction. */
static int put_figures(struct history *h, int64_t id, const struct doc *d, struct err *e)
{
	const struct resultread *r = d->r;
	const json_t *jobs = json_object_get(d->root, "jobs");
	sqlite3_stmt *st;
	int ret = 0, k;
	size_t i;

	if (history_db_prepare(h, "INSERT INTO figures VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", &st, e))
		return -EIO;
	for (k = 0; k < RESULTREAD_NDIR && !ret; k++) {
		const struct resultread_dir *w = &r->whole[k];

		if (w->ios)
			ret = bind_fig(h, st, id, -1, fig_dirs[k], "all", (double)w->ios,
				       (double)w->bytes, w->iops, w->bw_bytes, w->lat_mean_ns,
				       w->lat_p99_ns, w->interval_cv, (double)w->runtime_ms, e);
		if (!ret && r->has_tail && r->tail[k].ios)
			ret = bind_fig(h, st, id, -1, fig_dirs[k], "steady", (double)r->tail[k].ios,
				       (double)r->tail[k].bytes, r->tail[k].iops,
				       r->tail[k].bw_bytes, r->tail[k].lat_mean_ns,
				       r->tail[k].lat_p99_ns, r->tail[k].interval_cv,
				       (double)r->tail[k].runtime_ms, e);
	}
	for (i = 0; i < json_array_size(jobs) && !ret; i++) {
		const json_t *j = json_array_get(jobs, i);

		for (k = 0; k < RESULTREAD_NDIR && !ret; k++) {
			const json_t *x = json_object_get(j, fig_dirs[k]);
			const json_t *lat = json_object_get(x, "lat_ns");
			double ios = num(x, "total_ios"), p99 = pct99(lat);

			if (!(ios > 0))
				continue;
			if (isnan(p99))
				p99 = pct99(json_object_get(x, "clat_ns"));
			if (!json_is_object(lat))
				lat = json_object_get(x, "clat_ns");
			ret = bind_fig(h, st, id, (int)i, fig_dirs[k], "all", ios, num(x, "io_bytes"),
				       num(x, "iops"), num(x, "bw_bytes"), num(lat, "mean"), p99, NAN,
				       num(x, "runtime"), e);
		}
	}
	sqlite3_finalize(st);
	return ret;
}

/* The CV of the IOPS samples behind @metric, when it is one direction's (or the only one's). */
static double metric_cv(const struct resultread *r, const char *metric)
{
	int k, only = -1, n = 0;

	for (k = 0; k < RESULTREAD_NDIR; k++)
		if (!strncmp(metric, fig_dirs[k], strlen(fig_dirs[k])) &&
		    metric[strlen(fig_dirs[k])] == '.')
			return strstr(metric, "lat") ? NAN : r->dir[k].interval_cv;
	if (strcmp(metric, "total.iops"))
		return NAN;
	for (k = 0; k < RESULTREAD_NDIR; k++)
		if (r->dir[k].ios) {
			only = k;
			n++;
		}
	return n == 1 ? r->dir[only].interval_cv : NAN;
}

/* compare's metrics, whole run and (when there is one) steady tail. */
static int put_metrics(struct history *h, int64_t id, struct doc *d, struct err *e)
{
	struct resultread *one[1] = { d->r };
	struct resultwindow_note note;
	const char *windows[2] = { "all", "steady" };
	sqlite3_stmt *st;
	struct err ignore;
	int ret = 0, w, rc;

	if (history_db_prepare(h, "INSERT INTO metrics (run_id, name, window, value, cv, lo, hi) "
			       "VALUES (?,?,?,?,?,?,?)", &st, e))
		return -EIO;
	for (w = 0; w < 2 && !ret; w++) {
		const char *name;
		size_t i;

		err_clear(&ignore);
		if (w == 1 && (!d->r->has_tail ||
			       resultwindow_apply(RESULTWINDOW_STEADY, one, 1, NULL, 0, &note, &ignore)))
			break;
		for (i = 0; (name = compare_metric_at(i, NULL)) && !ret; i++) {
			double v, lo, hi;

			if (compare_metric_value(d->r, name, &v) || !isfinite(v))
				continue;
			compare_metric_interval(d->r, name, &lo, &hi);	/* NAN, NAN: none */
			sqlite3_reset(st);
			sqlite3_bind_int64(st, 1, id);
			sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 3, windows[w], -1, SQLITE_STATIC);
			sqlite3_bind_double(st, 4, v);
			history_db_bind_real(st, 5, metric_cv(d->r, name));
			history_db_bind_real(st, 6, lo);
			history_db_bind_real(st, 7, hi);
			rc = sqlite3_step(st);
			if (rc != SQLITE_DONE)
				ret = history_db_fail(h, rc, "storing metrics", e);
		}
	}
	err_clear(&ignore);
	resultwindow_apply(RESULTWINDOW_ALL, one, 1, NULL, 0, &note, &ignore);
	sqlite3_finalize(st);
	return ret;
}

static int put_jobs(struct history *h, int64_t id, const struct doc *d, struct err *e)
{
	const json_t *jobs = json_object_get(d->root, "jobs");
	sqlite3_stmt *st;
	int ret = 0, rc;
	size_t i;

	if (history_db_prepare(h, "INSERT INTO jobs VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", &st, e))
		return -EIO;
	for (i = 0; i < d->r->nr_jobs && !ret; i++) {
		const struct resultread_job *j = &d->r->jobs[i];
		char bs[64] = "";
		const char *v = resultread_job_option(d->root, json_array_get(jobs, i), "bs", bs,
						      sizeof(bs));	/* as it ran */

		if (v && v != bs)
			snprintf(bs, sizeof(bs), "%s", v);
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int(st, 2, (int)i);
		sqlite3_bind_text(st, 3, j->name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(st, 4, (int)j->groupid);
		sqlite3_bind_text(st, 5, j->rw, -1, SQLITE_TRANSIENT);
		history_db_bind_text(st, 6, bs);
		sqlite3_bind_int(st, 7, (int)j->iodepth);
		sqlite3_bind_int(st, 8, (int)j->numjobs);
		sqlite3_bind_int(st, 9, j->direct);
		sqlite3_bind_text(st, 10, j->ioengine, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(st, 11, j->error);
		history_db_bind_text(st, 12, j->bottleneck);
		sqlite3_bind_int(st, 13, j->steady);
		sqlite3_bind_int(st, 14, j->steady_held);
		rc = sqlite3_step(st);
		if (rc != SQLITE_DONE)
			ret = history_db_fail(h, rc, "storing jobs", e);
	}
	sqlite3_finalize(st);
	return ret;
}

/* The derived tables of run @id, from @d (any old rows are removed first). */
static int put_derived(struct history *h, int64_t id, struct doc *d, struct err *e)
{
	char sql[160];

	snprintf(sql, sizeof(sql), "DELETE FROM jobs WHERE run_id = %lld; DELETE FROM figures "
		 "WHERE run_id = %lld; DELETE FROM metrics WHERE run_id = %lld", (long long)id,
		 (long long)id, (long long)id);
	if (history_db_exec(h, sql, "storing a run", e) || put_jobs(h, id, d, e) ||
	    put_figures(h, id, d, e) || put_metrics(h, id, d, e))
		return -EIO;
	return 0;
}

/* Bind the derived columns of runs, from parameter @p on, in the order of RUN_COLS. */
#define RUN_COLS "start_ms, tool, host, kernel, dev_id, dev_name, dev_model, dev_serial, " \
	"dev_driver, dev_scheduler, dev_cache, sig, sig_text, nr_jobs, job_name, partial, " \
	"steady, bottleneck, total_iops, read_bw, write_bw, read_lat_ns, write_lat_ns"
#define RUN_NCOLS 23

static void bind_derived(sqlite3_stmt *st, int p, const struct derived *x)
{
	const struct history_key *k = &x->key;

	sqlite3_bind_int64(st, p++, x->start_ms);
	sqlite3_bind_text(st, p++, x->tool, -1, SQLITE_TRANSIENT);
	history_db_bind_text(st, p++, k->host);
	history_db_bind_text(st, p++, k->kernel);
	sqlite3_bind_text(st, p++, k->dev_id, -1, SQLITE_TRANSIENT);
	history_db_bind_text(st, p++, k->dev_name);
	history_db_bind_text(st, p++, k->dev_model);
	history_db_bind_text(st, p++, k->dev_serial);
	history_db_bind_text(st, p++, k->dev_driver);
	history_db_bind_text(st, p++, k->dev_scheduler);
	history_db_bind_text(st, p++, k->dev_cache);
	sqlite3_bind_text(st, p++, k->sig, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, p++, k->sig_text, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, p++, (int)k->nr_jobs);
	sqlite3_bind_text(st, p++, x->job_name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, p++, x->partial);
	sqlite3_bind_int(st, p++, x->steady);
	history_db_bind_text(st, p++, x->bottleneck);
	history_db_bind_real(st, p++, x->total_iops);
	history_db_bind_real(st, p++, x->read_bw);
	history_db_bind_real(st, p++, x->write_bw);
	history_db_bind_real(st, p++, x->read_lat);
	history_db_bind_real(st, p++, x->write_lat);
}

/* The run with @digest, or 0. */
static int64_t known(struct history *h, const char *digest, struct err *e)
{
	sqlite3_stmt *st;
	int64_t id = 0;
	int rc;

	if (history_db_prepare(h, "SELECT id FROM runs WHERE digest = ?", &st, e))
		return -1;
	sqlite3_bind_text(st, 1, digest, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE) {
		history_db_fail(h, rc, "reading", e);
		id = -1;
	}
	sqlite3_finalize(st);
	return id;
}

/*
 * Store @d inside the caller's transaction.  @trial: its id, side and index
 * (0 when none); a run already stored gets the trial link.
 */
static int store(struct history *h, struct doc *d, const struct history_origin *o,
		 int64_t trial, char side, int index, int64_t *id, int *added, struct err *e)
{
	sqlite3_stmt *st;
	unsigned char *z = NULL;
	size_t zlen;
	char s[2] = { side, 0 };
	int64_t have = known(h, d->digest, e);
	int rc, p = 1;

	if (have < 0)
		return -EIO;
	if (have) {
		*id = have;
		*added = 0;
		if (!trial)
			return 0;
		if (history_db_prepare(h, "UPDATE runs SET trial_id = ?, trial_side = ?, "
				       "trial_index = ? WHERE id = ?", &st, e))
			return -EIO;
		sqlite3_bind_int64(st, 1, trial);
		sqlite3_bind_text(st, 2, s, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(st, 3, index);
		sqlite3_bind_int64(st, 4, have);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		return rc == SQLITE_DONE ? 0 : history_db_fail(h, rc, "storing a trial", e);
	}
	if (history_db_prepare(h, "INSERT INTO runs (digest, recorded_ms, source, preset, "
			       "exit_code, trial_id, trial_side, trial_index, " RUN_COLS ") VALUES "
			       "(?,?,?,?,?,?,?,?, ?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
			       &st, e))
		return -EIO;
	sqlite3_bind_text(st, p++, d->digest, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, p++, history_now_ms());
	sqlite3_bind_text(st, p++, o->source ? o->source : "run", -1, SQLITE_TRANSIENT);
	history_db_bind_text(st, p++, o->preset);
	if (o->exit_code >= 0)
		sqlite3_bind_int(st, p, o->exit_code);
	p++;
	if (trial) {
		sqlite3_bind_int64(st, p, trial);
		sqlite3_bind_text(st, p + 1, s, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(st, p + 2, index);
	}
	p += 3;
	bind_derived(st, p, &d->d);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return history_db_fail(h, rc, "storing a run", e);
	*id = sqlite3_last_insert_rowid(h->db);
	*added = 1;
	if (history_db_deflate(d->text, d->len, &z, &zlen))
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	if (history_db_prepare(h, "INSERT INTO results VALUES (?, 'zlib', ?, ?)", &st, e)) {
		free(z);
		return -EIO;
	}
	sqlite3_bind_int64(st, 1, *id);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)d->len);
	sqlite3_bind_blob(st, 3, z, (int)zlen, free);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return history_db_fail(h, rc, "storing a result document", e);
	return put_derived(h, *id, d, e);
}

int history_record(struct history *h, const char *text, size_t len, const char *name,
		   const struct history_origin *o, int64_t *id, int *added, struct err *e)
{
	struct doc d;
	int ret;

	if (doc_read(&d, text, len, name, e))
		return -EINVAL;
	ret = history_db_begin(h, "storing a run", e);
	if (!ret)
		ret = store(h, &d, o, 0, 0, 0, id, added, e);
	if (!ret)
		ret = history_db_commit(h, "storing a run", e);
	else
		history_db_rollback(h);
	doc_free(&d);
	return ret ? -EIO : 0;
}

/* ---- trials ---- */

struct trial_runs {
	struct resultread **r[2];
	size_t n[2];
};

/* Load each completed run of @manifest in @dir; *@paths[i] names the file of runs[i] or NULL. */
static int trial_load(const char *dir, const json_t *manifest, struct trial_runs *t,
		      struct err *e)
{
	const json_t *runs = json_object_get(manifest, "runs"), *run;
	char path[PATH_MAX];
	size_t i;

	memset(t, 0, sizeof(*t));
	t->r[0] = calloc(json_array_size(runs) + 1, sizeof(*t->r[0]));
	t->r[1] = calloc(json_array_size(runs) + 1, sizeof(*t->r[1]));
	if (!t->r[0] || !t->r[1])
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	json_array_foreach(runs, i, run) {
		const char *side = json_string_value(json_object_get(run, "side"));
		const char *file = json_string_value(json_object_get(run, "file"));
		int s;

		if (json_integer_value(json_object_get(run, "exit_code")) || !side || !file)
			continue;
		s = side[0] == 'B';
		snprintf(path, sizeof(path), "%s/%s", dir, file);
		if (resultread_load(path, &t->r[s][t->n[s]], e))
			return -EINVAL;
		t->n[s]++;
	}
	return 0;
}

static void trial_free(struct trial_runs *t)
{
	resultread_set_free(t->r[0], t->n[0]);
	resultread_set_free(t->r[1], t->n[1]);
}

/* compare's verdicts over the trial's runs, as `iotrial ab` printed them. */
static json_t *trial_verdicts(struct trial_runs *t, const struct compare_opts *o, int *regressed)
{
	struct compare_report rep;
	struct resultwindow_note wn;
	struct err e;
	json_t *j;

	err_clear(&e);
	*regressed = 0;
	if (!t->n[0] || !t->n[1] ||
	    resultwindow_apply(RESULTWINDOW_AUTO, t->r[0], t->n[0], t->r[1], t->n[1], &wn, &e) ||
	    compare_run(t->r[0], t->n[0], t->r[1], t->n[1], o, &rep, &e))
		return NULL;
	j = compare_json(&rep);
	if (j)
		json_object_set_new(j, "window", resultwindow_note_json(&wn));
	*regressed = rep.regressed;
	compare_report_free(&rep);
	return j;
}

static int64_t put_trial(struct history *h, const char *dir, const json_t *manifest,
			 const json_t *verdicts, int regressed, int *added, struct err *e)
{
	char *m = json_dumps(manifest, JSON_COMPACT | JSON_SORT_KEYS), *v = NULL;
	char digest[2 * SHA256_DIGEST_SIZE + 1], rdir[PATH_MAX];
	const json_t *first = json_array_get(json_object_get(manifest, "runs"), 0);
	sqlite3_stmt *st;
	int64_t id;
	int rc;

	if (!m)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory"), -1;
	digest_hex(m, strlen(m), digest);
	if (history_db_prepare(h, "SELECT id FROM trials WHERE digest = ?", &st, e)) {
		free(m);
		return -1;
	}
	sqlite3_bind_text(st, 1, digest, -1, SQLITE_STATIC);
	id = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	*added = !id;
	if (id) {
		free(m);
		return id;
	}
	v = verdicts ? json_dumps(verdicts, JSON_COMPACT | JSON_PRESERVE_ORDER |
				  JSON_REAL_PRECISION(10)) : NULL;
	if (history_db_prepare(h, "INSERT INTO trials (digest, recorded_ms, start_ms, dir, a_spec, "
			       "b_spec, metric, stopped_by, regressed, manifest, verdicts) VALUES "
			       "(?,?,?,?,?,?,?,?,?,?,?)", &st, e)) {
		free(m);
		free(v);
		return -1;
	}
	sqlite3_bind_text(st, 1, digest, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, history_now_ms());
	if (json_is_integer(json_object_get(first, "start_ms")))
		sqlite3_bind_int64(st, 3, json_integer_value(json_object_get(first, "start_ms")));
	history_db_bind_text(st, 4, realpath(dir, rdir) ? rdir : dir);
	history_db_bind_text(st, 5, json_string_value(json_object_get(manifest, "a")));
	history_db_bind_text(st, 6, json_string_value(json_object_get(manifest, "b")));
	history_db_bind_text(st, 7, json_string_value(json_object_get(json_object_get(manifest,
						      "stop"), "metric")));
	history_db_bind_text(st, 8, json_string_value(json_object_get(manifest, "stopped_by")));
	sqlite3_bind_int(st, 9, regressed);
	sqlite3_bind_text(st, 10, m, -1, free);
	if (v)
		sqlite3_bind_text(st, 11, v, -1, free);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return history_db_fail(h, rc, "storing a trial", e), -1;
	return sqlite3_last_insert_rowid(h->db);
}

/* The trial and its runs, inside the caller's transaction. */
static int store_trial(struct history *h, const char *dir, const json_t *manifest,
		       const json_t *verdicts, int regressed, int64_t *id, size_t *runs_added,
		       struct err *e)
{
	const json_t *runs = json_object_get(manifest, "runs"), *run;
	char path[PATH_MAX], *text;
	size_t i, len;
	int added;

	*id = put_trial(h, dir, manifest, verdicts, regressed, &added, e);
	if (*id < 0)
		return -EIO;
	json_array_foreach(runs, i, run) {
		const char *side = json_string_value(json_object_get(run, "side"));
		const char *file = json_string_value(json_object_get(run, "file"));
		struct history_origin o = { "ab", NULL, 0 };
		struct doc d;
		int64_t rid;
		int ret, a;

		if (json_integer_value(json_object_get(run, "exit_code")) || !side || !file)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, file);
		if (slurp(path, &text, &len, e))
			return -EINVAL;
		ret = doc_read(&d, text, len, path, e);
		if (!ret)
			ret = store(h, &d, &o, *id, side[0],
				    (int)json_integer_value(json_object_get(run, "index")), &rid, &a, e);
		doc_free(&d);
		free(text);
		if (ret)
			return ret;
		if (runs_added)
			*runs_added += (size_t)a;
	}
	return 0;
}

int history_record_trial(struct history *h, const char *dir, const json_t *manifest,
			 const struct compare_opts *o, int64_t *id, struct err *e)
{
	struct trial_runs t;
	json_t *v = NULL;
	int regressed = 0, ret;

	ret = trial_load(dir, manifest, &t, e);
	if (!ret)
		v = trial_verdicts(&t, o, &regressed);
	trial_free(&t);
	if (ret)
		return ret;
	ret = history_db_begin(h, "storing a trial", e);
	if (!ret)
		ret = store_trial(h, dir, manifest, v, regressed, id, NULL, e);
	if (!ret)
		ret = history_db_commit(h, "storing a trial", e);
	else
		history_db_rollback(h);
	json_decref(v);
	return ret ? -EIO : 0;
}

int history_record_file(struct history *h, const char *path, const struct history_origin *o,
			int64_t *id, int *added, struct err *e)
{
	struct doc d;
	char *text;
	size_t len;
	int ret;

	if (slurp(path, &text, &len, e))
		return -EINVAL;
	ret = doc_read(&d, text, len, path, e);
	if (!ret)
		ret = store(h, &d, o, 0, 0, 0, id, added, e);
	doc_free(&d);
	free(text);
	return ret;
}

int history_record_trial_in(struct history *h, const char *dir, const json_t *manifest,
			    const struct compare_opts *o, int64_t *id, size_t *runs_added,
			    struct err *e)
{
	struct trial_runs t;
	json_t *v = NULL;
	int regressed = 0, ret;

	ret = trial_load(dir, manifest, &t, e);
	if (!ret)
		v = trial_verdicts(&t, o, &regressed);
	trial_free(&t);
	if (!ret)
		ret = store_trial(h, dir, manifest, v, regressed, id, runs_added, e);
	json_decref(v);
	return ret;
}

int history_record_rederive_prepare(struct history *h, sqlite3_stmt **update, struct err *e)
{
	return history_db_prepare(h, "UPDATE runs SET (" RUN_COLS ") = (?,?,?,?,?,?,?,?,?,?,?,?,"
				  "?,?,?,?,?,?,?,?,?,?,?) WHERE id = ?", update, e);
}

int history_record_rederive(struct history *h, sqlite3_stmt *update, int64_t id,
			    const char *text, size_t len, const char *name, struct err *e)
{
	struct doc d;
	int rc, ret;

	ret = doc_read(&d, text, len, name, e);
	if (!ret) {
		sqlite3_reset(update);
		bind_derived(update, 1, &d.d);
		sqlite3_bind_int64(update, RUN_NCOLS + 1, id);
		rc = sqlite3_step(update);
		ret = rc == SQLITE_DONE ? put_derived(h, id, &d, e) :
		      history_db_fail(h, rc, "rebuilding", e);
	}
	doc_free(&d);
	return ret;
}
