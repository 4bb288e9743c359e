/*
 * history_trend: one device's figure over time (docs/history.md, "trend").
 *
 * A trend is one series of comparable runs: one device and one job
 * signature (the newest run's unless one is asked for), so a point never
 * jumps because the workload changed.  Each point is a run, with its own
 * spread (the CV of its interval samples, for IOPS and bandwidth) and a band
 * made of the runs before it: their mean +- 2 sd over up to band_runs runs
 * (from HISTORY_TREND_BAND_MIN of them).
 * The band is descriptive, a control chart's limits: a point outside it is
 * worth a look, and `history compare` (compare's statistics on the runs) is
 * what says whether a change is real.
 * The figures come from the metrics table (compare's metrics, stored when
 * the run was), so a trend reads one index range and never a document.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "history/history_db.h"
#include "lib/suggest.h"
#include "lib/vec.h"

void history_trend_free(struct history_trend *t)
{
	free(t->p);
	json_decref(t->sigs);
	memset(t, 0, sizeof(*t));
}

/* The job signatures of the device's runs, newest first, into t->sigs. */
static int trend_sigs(struct history *h, const char *where, const struct history_filter *f,
		      struct history_trend *t, struct err *e)
{
	char sql[1600];
	sqlite3_stmt *st;
	int rc;

	snprintf(sql, sizeof(sql), "SELECT r.sig, min(r.sig_text), count(*), max(r.start_ms) FROM "
		 "runs r %s GROUP BY r.sig ORDER BY max(r.start_ms) DESC", where);
	if (history_db_prepare(h, sql, &st, e))
		return -EIO;
	history_query_bind(st, f);
	t->sigs = json_array();
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		json_array_append_new(t->sigs, json_pack("{s:s, s:s, s:I, s:I}", "sig",
				      (const char *)sqlite3_column_text(st, 0), "sig_text",
				      (const char *)sqlite3_column_text(st, 1), "runs",
				      (json_int_t)sqlite3_column_int64(st, 2), "last_ms",
				      (json_int_t)sqlite3_column_int64(st, 3)));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return history_db_fail(h, rc, "reading the trend", e);
	return 0;
}

/* How many runs of the series have @metric in @window. */
static long long trend_count(struct history *h, const char *where, const struct history_filter *f,
			     const char *metric, const char *window, struct err *e)
{
	char sql[1600];
	sqlite3_stmt *st;
	long long n = -1;
	int rc;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM runs r %s%s", where, window ?
		 " AND EXISTS (SELECT 1 FROM metrics m WHERE m.run_id = r.id AND m.name = ?10 "
		 "AND m.window = ?11)" : "");
	if (history_db_prepare(h, sql, &st, e))
		return -1;
	history_query_bind(st, f);
	if (window) {
		sqlite3_bind_text(st, 10, metric, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 11, window, -1, SQLITE_STATIC);
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	else
		history_db_fail(h, rc, "reading the trend", e);
	sqlite3_finalize(st);
	return n;
}

static int trend_points(struct history *h, const char *where, const struct history_filter *f,
			struct history_trend *t, struct err *e)
{
	char sql[1800];
	sqlite3_stmt *st;
	size_t cap = 0, i;
	int rc;

	/* newest first (so that a limit keeps the newest), turned around below */
	snprintf(sql, sizeof(sql), "SELECT r.id, r.start_ms, m.value, m.cv, (SELECT "
		 "group_concat(name, ',') FROM labels WHERE run_id = r.id), %s FROM runs r JOIN "
		 "metrics m ON m.run_id = r.id AND m.name = ?10 AND m.window = ?11 %s ORDER BY "
		 "r.start_ms DESC, r.id DESC%s", h->version >= 2 ? "m.lo, m.hi" : "NULL, NULL",
		 where, f->limit ? " LIMIT ?9" : "");
	if (history_db_prepare(h, sql, &st, e))
		return -EIO;
	history_query_bind(st, f);
	sqlite3_bind_text(st, 10, t->metric, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 11, t->window, -1, SQLITE_STATIC);
	if (f->limit)
		sqlite3_bind_int64(st, 9, (sqlite3_int64)f->limit);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct history_trend_point *p;
		double cv = history_db_col_real(st, 3);

		if (vec_grow((void **)&t->p, &cap, t->n + 1, sizeof(*t->p), 256)) {
			sqlite3_finalize(st);
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		}
		p = &t->p[t->n++];
		memset(p, 0, sizeof(*p));
		p->id = sqlite3_column_int64(st, 0);
		p->start_ms = sqlite3_column_int64(st, 1);
		p->value = sqlite3_column_double(st, 2);
		p->within_sd = isfinite(cv) ? cv * p->value : NAN;
		p->lo = history_db_col_real(st, 5);
		p->hi = history_db_col_real(st, 6);
		history_db_col_text(st, 4, p->labels, sizeof(p->labels));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return history_db_fail(h, rc, "reading the trend", e);
	for (i = 0; i < t->n / 2; i++) {
		struct history_trend_point x = t->p[i];

		t->p[i] = t->p[t->n - 1 - i];
		t->p[t->n - 1 - i] = x;
	}
	return 0;
}

/*
 * Before the band forms (fewer than HISTORY_TREND_BAND_MIN runs before a
 * point) an sd says too little to draw limits, but a large step is still
 * worth a look: a point more than HISTORY_TREND_JUMP from the mean of the runs
 * before it is marked a jump, by that stated rule and not as a band verdict.
 */
static void trend_jump(const struct history_trend *t, struct history_trend_point *p, size_t from,
		       size_t i)
{
	double mean = 0, rel;

	if (i == from)
		return;
	for (size_t k = from; k < i; k++)
		mean += t->p[k].value;
	mean /= (double)(i - from);
	if (!(mean > 0))
		return;
	rel = (p->value - mean) / mean;
	if (fabs(rel) <= HISTORY_TREND_JUMP)
		return;
	p->jump = rel;
	p->jump_side = (rel < 0) != (t->lower_better != 0) ? 1 : -1;
}

/* Each point's band from the runs before it (Welford over a sliding window). */
static void trend_bands(struct history_trend *t)
{
	size_t i, k;

	for (i = 0; i < t->n; i++) {
		struct history_trend_point *p = &t->p[i];
		size_t from = i > t->band_runs ? i - t->band_runs : 0, n = i - from;
		double mean = 0, m2 = 0;

		p->band_mean = p->band_sd = NAN;
		p->outside = 0;
		p->jump = NAN;
		p->jump_side = 0;
		if (n < HISTORY_TREND_BAND_MIN || n < 2) {
			trend_jump(t, p, from, i);
			continue;
		}
		for (k = from; k < i; k++) {
			double d = t->p[k].value - mean;

			mean += d / (double)(k - from + 1);
			m2 += d * (t->p[k].value - mean);
		}
		p->band_mean = mean;
		p->band_sd = sqrt(m2 / (double)(n - 1));
		if (p->value < mean - 2 * p->band_sd)
			p->outside = t->lower_better ? -1 : 1;
		else if (p->value > mean + 2 * p->band_sd)
			p->outside = t->lower_better ? 1 : -1;
	}
}

/* suggest_nearest's list: compare's metric names. */
static const char *metric_at(size_t i, const void *ctx)
{
	int lower;

	(void)ctx;
	return compare_metric_at(i, &lower);
}

/*
 * No --device: the one device the selected runs measured (a trend is one
 * device's; with one in the database there is nothing to choose), else an
 * error naming them.  @dev gets its id.
 */
static int trend_device(struct history *h, const struct history_filter *f, char *dev, size_t sz,
			struct err *e)
{
	char where[1024], sql[1400], names[300] = "";
	const char *devcol;
	sqlite3_stmt *st;
	size_t off = 0;
	int rc, n = 0;

	if (history_query_where(h, f, where, sizeof(where), &devcol, e))
		return -EIO;
	snprintf(sql, sizeof(sql), "SELECT DISTINCT r.dev_id FROM runs r %s ORDER BY r.dev_id "
		 "LIMIT 6", where);
	if (history_db_prepare(h, sql, &st, e))
		return -EIO;
	history_query_bind(st, f);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(st, 0);

		if (!n++)
			snprintf(dev, sz, "%s", id ? id : "");
		if (off < sizeof(names))
			off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s",
						n > 1 ? ", " : "", n > 5 ? "..." : id ? id : "?");
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return history_db_fail(h, rc, "reading the trend", e);
	if (!n)
		return err_set(e, -ENOENT, EXIT_USAGE, "history trend: no runs in %s%s", h->path,
			       f->job || f->label || f->host || f->preset ? " with these filters" : "");
	if (n > 1)
		return err_set(e, -EINVAL, EXIT_USAGE, "history trend: the runs measured %s%d devices "
			       "(%s): give --device=DEV (a trend is one device's)",
			       n > 5 ? "more than " : "", n > 5 ? 5 : n, names);
	return 0;
}

int history_trend(struct history *h, const char *metric, const struct history_filter *f0,
		  const char *window, size_t band_runs, struct history_trend *t, struct err *e)
{
	struct history_filter f = *f0;
	char where[1024], device[sizeof(t->key.dev_id)];
	const char *devcol, *name;
	struct history_run newest;
	long long n, nsteady;
	size_t i;
	int lower = 0, found = 0;

	memset(t, 0, sizeof(*t));
	for (i = 0; (name = compare_metric_at(i, &lower)); i++)
		if (!strcmp(name, metric)) {
			found = 1;
			break;
		}
	if (!found) {
		const char *hint = suggest_nearest(metric, metric_at, NULL);

		if (hint)
			return err_set(e, -EINVAL, EXIT_USAGE, "history trend: unknown metric '%s' "
				       "(did you mean %s?)", metric, hint);
		return err_set(e, -EINVAL, EXIT_USAGE, "history trend: unknown metric '%s' (total.iops, "
			       "read.iops, read.bw_bytes, read.lat_mean_ns, read.lat_p99_ns, "
			       "cpu_per_io_ns, ...: compare's metrics)", metric);
	}
	if (!f.device) {
		if (trend_device(h, &f, device, sizeof(device), e))
			return -EINVAL;
		f.device = device;
	}
	if (strcmp(window, "all") && strcmp(window, "steady") && strcmp(window, "auto"))
		return err_set(e, -EINVAL, EXIT_USAGE, "history trend: --window=%s: expected all, "
			       "steady or auto", window);
	snprintf(t->metric, sizeof(t->metric), "%s", metric);
	t->lower_better = lower;
	t->description = compare_metric_kind(metric) == COMPARE_DESCRIPTION;
	t->band_runs = band_runs ? band_runs : HISTORY_TREND_BAND_RUNS;
	f.sig = NULL;
	if (history_query_where(h, &f, where, sizeof(where), &devcol, e) ||
	    trend_sigs(h, where, &f, t, e))
		goto fail;
	if (!json_array_size(t->sigs)) {
		err_set(e, -ENOENT, EXIT_USAGE, "history trend: no runs of device '%s' in %s%s",
			f.device, h->path, f0->job || f0->label || f0->host || f0->preset ?
			" with these filters" : " (history list shows the DEVICE column)");
		goto fail;
	}
	f.sig = f0->sig ? f0->sig :
		json_string_value(json_object_get(json_array_get(t->sigs, 0), "sig"));
	if (history_query_where(h, &f, where, sizeof(where), &devcol, e))
		goto fail;
	n = trend_count(h, where, &f, metric, NULL, e);
	if (n < 0)
		goto fail;
	if (!n) {
		err_set(e, -ENOENT, EXIT_USAGE, "history trend: no runs with job signature '%s' on "
			"device '%s'", f.sig, f.device);
		goto fail;
	}
	for (i = 0; i < json_array_size(t->sigs); i++) {
		const char *s = json_string_value(json_object_get(json_array_get(t->sigs, i), "sig"));

		t->other_sigs += strncmp(s, f.sig, strlen(f.sig)) != 0;
	}
	if (!strcmp(window, "auto")) {
		nsteady = trend_count(h, where, &f, metric, "steady", e);
		if (nsteady < 0)
			goto fail;
		window = nsteady == n ? "steady" : "all";
	}
	snprintf(t->window, sizeof(t->window), "%s", window);
	if (trend_points(h, where, &f, t, e))
		goto fail;
	if (!t->n) {
		err_set(e, -ENOENT, EXIT_USAGE, "history trend: %s is not in any run of the series "
			"(%s window)", metric, t->window);
		goto fail;
	}
	if (history_get(h, t->p[t->n - 1].id, &newest, e))
		goto fail;
	t->key = newest.key;
	trend_bands(t);
	return 0;
fail:
	history_trend_free(t);
	return -EINVAL;
}
