/*
 * compare_suite: per-test comparison of suite results (rules in
 * compare_suite.h).  Each file is parsed again as JSON and, per test, a copy
 * of it that keeps only that test's job entries is summarised by
 * resultread_from_json(); compare_one() does the statistics.
 */
#include "trial/compare_suite.h"
#include "lib/human.h"	/* human_ns */
#include "lib/readfile.h"	/* readfile_all */
#include "lib/vec.h"	/* vec_grow, vec_free_strings */

#include <errno.h>	/* EIO, ENOMEM, EINVAL */
#include <math.h>	/* isnan */
#include <stdlib.h>	/* calloc, realloc, free */
#include <string.h>	/* strcmp, memset */

/* The JSON of a result file: from its first line that starts with '{'. */
static int suite_load(const char *path, json_t **out, struct err *e)
{
	json_error_t je;
	char *buf = NULL;
	size_t len = 0, i = 0;

	*out = NULL;
	if (readfile_all(path, RESULTREAD_SIZE_MAX, &buf, &len))
		return err_set(e, -EIO, EXIT_USAGE, "%s: cannot be read again to split it by test", path);
	while (i < len && !(buf[i] == '{' && (i == 0 || buf[i - 1] == '\n')))
		i++;
	*out = json_loadb(buf + i, len - i, JSON_DISABLE_EOF_CHECK, &je);
	free(buf);
	if (!*out)
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: %s (splitting it by test)", path, je.text);
	return 0;
}

static const char *suite_jobname(const json_t *job)
{
	const char *s = json_string_value(json_object_get(job, "jobname"));

	return s ? s : "";
}

/* Add the names of @root's jobs to @names; returns how many distinct names @root has. */
static size_t suite_names(const json_t *root, char ***names, size_t *nr, size_t *cap,
			  int *nomem)
{
	const json_t *jobs = json_object_get(root, "jobs"), *job;
	size_t i, k, mine = 0;

	json_array_foreach(jobs, i, job) {
		const char *n = suite_jobname(job);

		for (k = 0; k < *nr && strcmp((*names)[k], n); k++)
			;
		if (k == *nr) {
			if (vec_grow((void **)names, cap, *nr + 1, sizeof(**names), 8) ||
			    !((*names)[*nr] = strdup(n))) {
				*nomem = 1;
				return mine;
			}
			(*nr)++;
		}
		/* distinct within this file: count a name the first time this file shows it */
		for (k = 0; k < i && strcmp(suite_jobname(json_array_get(jobs, k)), n); k++)
			;
		mine += k == i;
	}
	return mine;
}

/* @root with only the jobs named @name (NULL on ENOMEM); *njobs gets their count. */
static json_t *suite_only(const json_t *root, const char *name, size_t *njobs)
{
	json_t *copy = json_copy((json_t *)root), *keep = json_array(), *job;
	size_t i;

	*njobs = 0;
	if (!copy || !keep) {
		json_decref(copy);
		json_decref(keep);
		return NULL;
	}
	json_array_foreach(json_object_get(root, "jobs"), i, job) {
		if (!strcmp(suite_jobname(job), name)) {
			json_array_append(keep, job);
			(*njobs)++;
		}
	}
	json_object_set_new(copy, "jobs", keep);
	return copy;
}

/* The runs of one side that hold test @name, summarised for it alone. */
static int suite_side(json_t *const *docs, struct resultread *const *src, size_t n,
		      const char *name, struct resultread ***out, size_t *nout, struct err *e)
{
	size_t i, nj;
	int ret = 0;

	*out = calloc(n ? n : 1, sizeof(**out));
	*nout = 0;
	if (!*out)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	for (i = 0; i < n && !ret; i++) {
		json_t *one = suite_only(docs[i], name, &nj);

		if (!one)
			ret = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		else if (nj && !(ret = resultread_from_json(one, src[i]->path, &(*out)[*nout], e)))
			(*nout)++;
		json_decref(one);
	}
	return ret;
}

/* The test's metric: its IOPS in the direction(s) it did I/O in, on either side. */
static void suite_metric(struct resultread *const *v, size_t n, struct resultread *const *w,
			 size_t m, char *metric, size_t len)
{
	int rd = 0, wr = 0;
	size_t i;

	for (i = 0; i < n + m; i++) {
		const struct resultread *r = i < n ? v[i] : w[i - n];

		rd |= r->dir[0].ios > 0;
		wr |= r->dir[1].ios > 0;
	}
	snprintf(metric, len, "%s", rd && !wr ? "read.iops" : wr && !rd ? "write.iops" : "total.iops");
}

/* Does some run of @v have metric @name? */
static int suite_has(struct resultread *const *v, size_t n, const char *name)
{
	double x;

	for (size_t i = 0; i < n; i++)
		if (!compare_metric_value(v[i], name, &x))
			return 1;
	return 0;
}

/*
 * The test's device.* rows, from its own jobs' device views (the window
 * compare_time names): each a row when both sides have it.  They referee
 * the IOPS row, as in the main table: never a regression.
 */
static int suite_device(struct resultread *const *a, size_t na, struct resultread *const *b,
			size_t nb, const struct compare_opts *o, struct compare_suite_row *row)
{
	static const char *const names[COMPARE_SUITE_DEV] = { "device.lat_mean_ns",
							       "device.queue_depth" };
	int ret;

	for (size_t k = 0; k < COMPARE_SUITE_DEV; k++) {
		if (!suite_has(a, na, names[k]) || !suite_has(b, nb, names[k]))
			continue;
		ret = compare_one(a, na, b, nb, names[k], o, &row->dev[row->ndev]);
		if (ret)
			return ret;
		row->ndev++;	/* a referee and a description: never a regression (their kinds) */
	}
	return 0;
}

static int suite_row(json_t *const *da, struct resultread *const *a, size_t na,
		     json_t *const *db, struct resultread *const *b, size_t nb, const char *name,
		     const struct compare_opts *o, struct compare_suite_row *row, struct err *e)
{
	struct resultread **ra = NULL, **rb = NULL;
	int ret;

	memset(row, 0, sizeof(*row));
	snprintf(row->test, sizeof(row->test), "%s", name);
	ret = suite_side(da, a, na, name, &ra, &row->na, e);
	if (!ret)
		ret = suite_side(db, b, nb, name, &rb, &row->nb, e);
	if (!ret) {
		suite_metric(ra, row->na, rb, row->nb, row->metric, sizeof(row->metric));
		if (row->na && row->nb) {
			ret = compare_one(ra, row->na, rb, row->nb, row->metric, o, &row->m);
			if (ret)
				err_set(e, ret, EXIT_INTERNAL, "compare of test '%s' failed", name);
			row->compared = !ret;
			if (row->compared) {	/* this test's jobs only: their own device windows */
				compare_time_build(ra, row->na, rb, row->nb, &row->time);
				ret = suite_device(ra, row->na, rb, row->nb, o, row);
				if (ret)
					err_set(e, ret, EXIT_INTERNAL, "compare of test '%s''s device rows failed", name);
			}
		}
	}
	if (ra)
		resultread_set_free(ra, row->na);
	if (rb)
		resultread_set_free(rb, row->nb);
	return ret;
}

int compare_suite_run(struct resultread *const *a, size_t na, struct resultread *const *b,
		      size_t nb, const struct compare_opts *o, struct compare_suite *out,
		      struct err *e)
{
	json_t **docs = calloc(na + nb + 1, sizeof(*docs));
	char **names = NULL;
	size_t nnames = 0, capnames = 0, i, most = 0, n;
	int ret = 0, nomem = 0;

	memset(out, 0, sizeof(*out));
	if (!docs)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	for (i = 0; i < na + nb && !ret; i++) {
		const struct resultread *r = i < na ? a[i] : b[i - na];

		if (r->doc)	/* not a file: the document came with the result */
			docs[i] = json_incref(r->doc);
		else
			ret = suite_load(r->path, &docs[i], e);
	}
	for (i = 0; i < na + nb && !ret && !nomem; i++) {
		n = suite_names(docs[i], &names, &nnames, &capnames, &nomem);
		most = n > most ? n : most;
	}
	if (!ret && nomem)
		ret = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	if (!ret && most >= 2) {
		out->rows = calloc(nnames, sizeof(*out->rows));
		if (!out->rows)
			ret = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		for (i = 0; i < nnames && !ret; i++, out->nr++)
			ret = suite_row(docs, a, na, docs + na, b, nb, names[i], o, &out->rows[i], e);
	}
	for (i = 0; i < na + nb; i++)
		json_decref(docs[i]);
	free(docs);
	vec_free_strings(names, nnames);
	if (ret)
		compare_suite_free(out);
	return ret;
}

void compare_suite_free(struct compare_suite *s)
{
	free(s->rows);
	memset(s, 0, sizeof(*s));
}

/* A mean with its unit-free size kept readable: 12345.6 -> "12345.6", NAN -> "-". */
static void suite_num(char *buf, size_t len, double v, const char *fmt)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fmt, v);
}

/* A device row's value: a latency readable ("212.4us"), a depth to two decimals. */
static void suite_dev_num(char *buf, size_t len, const char *metric, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (strstr(metric, "_ns"))
		human_ns(buf, len, v, HUMAN_TABLE);
	else
		snprintf(buf, len, "%.2f", v);
}

/* Each test's device.* rows, and under them the window each side's rows cover. */
static void suite_write_device(const struct compare_suite *s, FILE *f)
{
	size_t i, k, w = 4, any = 0;
	char am[32], bm[32], d[32], ci[48];

	for (i = 0; i < s->nr; i++) {
		any += s->rows[i].ndev;
		if (s->rows[i].ndev && strlen(s->rows[i].test) > w)
			w = strlen(s->rows[i].test);
	}
	if (!any)
		return;
	fprintf(f, "\ndevice per test (each test's device.* rows from its own jobs' device windows, "
		"named under it;\nthey referee the IOPS rows and never count as a regression):\n");
	fprintf(f, "%-*s %-18s %12s %3s %12s %3s %8s  %-18s %s\n", (int)w, "test", "metric",
		"A mean", "n", "B mean", "n", "B vs A", "95% CI", "verdict");
	for (i = 0; i < s->nr; i++) {
		const struct compare_suite_row *r = &s->rows[i];

		for (k = 0; k < r->ndev; k++) {
			const struct compare_metric *m = &r->dev[k];

			suite_dev_num(am, sizeof(am), m->name, m->a.mean);
			suite_dev_num(bm, sizeof(bm), m->name, m->b.mean);
			suite_num(d, sizeof(d), m->diff_pct, "%+.1f%%");
			if (isnan(m->ci_lo) || isnan(m->ci_hi))
				snprintf(ci, sizeof(ci), "-");
			else
				snprintf(ci, sizeof(ci), "%+.1f..%+.1f%%", m->ci_lo, m->ci_hi);
			fprintf(f, "%-*s %-18s %12s %3zu %12s %3zu %8s  %-18s %s\n", (int)w, r->test,
				m->name, am, m->a.n, bm, m->b.n, d, ci, m->verdict_text);
		}
		if (r->ndev)
			fprintf(f, "%-*s   window: A %s; B %s\n", (int)w, "",
				r->time.window_a[0] ? r->time.window_a : "none",
				r->time.window_b[0] ? r->time.window_b : "none");
	}
}

int compare_suite_write_text(const struct compare_suite *s, FILE *f)
{
	size_t i, w = 4;
	char am[32], bm[32], d[32], ci[48], p[32];

	if (!s->nr)
		return 0;
	for (i = 0; i < s->nr; i++)
		if (strlen(s->rows[i].test) > w)
			w = strlen(s->rows[i].test);
	fprintf(f, "\nper test (the table above adds up every test of a run; here the tests are"
		" paired by job name,\neach compared on its own IOPS in its own direction):\n");
	fprintf(f, "%-*s %-11s %12s %3s %12s %3s %8s  %-18s %-8s %s\n", (int)w, "test", "metric",
		"A mean", "n", "B mean", "n", "B vs A", "95% CI", "p", "verdict");
	for (i = 0; i < s->nr; i++) {
		const struct compare_suite_row *r = &s->rows[i];

		if (!r->compared) {
			fprintf(f, "%-*s %-11s %12s %3zu %12s %3zu %8s  %-18s %-8s only in %s\n", (int)w,
				r->test, r->metric, "-", r->na, "-", r->nb, "-", "-", "-",
				r->na ? "A" : "B");
			continue;
		}
		suite_num(am, sizeof(am), r->m.a.mean, "%.1f");
		suite_num(bm, sizeof(bm), r->m.b.mean, "%.1f");
		suite_num(d, sizeof(d), r->m.diff_pct, "%+.1f%%");
		if (isnan(r->m.ci_lo) || isnan(r->m.ci_hi))
			snprintf(ci, sizeof(ci), "-");
		else
			snprintf(ci, sizeof(ci), "%+.1f..%+.1f%%", r->m.ci_lo, r->m.ci_hi);
		suite_num(p, sizeof(p), r->m.p, "%.4f");
		fprintf(f, "%-*s %-11s %12s %3zu %12s %3zu %8s  %-18s %-8s %s%s\n", (int)w, r->test,
			r->metric, am, r->m.a.n, bm, r->m.b.n, d, ci, p, r->m.verdict_text,
			r->m.regression ? " (REGRESSION)" : "");
	}
	for (i = 0, w = 0; i < s->nr; i++) {
		const struct compare_suite_row *r = &s->rows[i];

		if (!r->time.valid)
			continue;
		if (!w++)
			fprintf(f, "\ntime per I/O per test (each test's device figures over its own window):\n");
		fprintf(f, "  %s: %s\n", r->test, r->time.sentence);
	}
	suite_write_device(s, f);
	return ferror(f) ? -EIO : 0;
}

/* A number, or null when not computable (JSON has no NaN). */
static json_t *suite_real(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

/* A string, or null when empty. */
static json_t *suite_str(const char *s)
{
	return s[0] ? json_string(s) : json_null();
}

/* {"window_a", "window_b", "metrics": [...]}: the test's device rows and their windows. */
static json_t *suite_device_json(const struct compare_suite_row *r)
{
	json_t *arr = json_array(), *o;

	for (size_t k = 0; arr && k < r->ndev; k++) {
		const struct compare_metric *m = &r->dev[k];

		o = json_pack("{s:s, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:s}", "name", m->name,
			      "n_a", (json_int_t)m->a.n, "n_b", (json_int_t)m->b.n,
			      "a_mean", suite_real(m->a.mean), "b_mean", suite_real(m->b.mean),
			      "diff_pct", suite_real(m->diff_pct), "ci_lo", suite_real(m->ci_lo),
			      "ci_hi", suite_real(m->ci_hi), "p", suite_real(m->p),
			      "verdict", m->verdict_text);
		if (!o || json_array_append_new(arr, o)) {
			json_decref(arr);
			return NULL;
		}
	}
	return json_pack("{s:o, s:o, s:o}", "window_a", suite_str(r->time.window_a),
			 "window_b", suite_str(r->time.window_b), "metrics", arr);
}

json_t *compare_suite_json(const struct compare_suite *s)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; arr && i < s->nr; i++) {
		const struct compare_suite_row *r = &s->rows[i];
		json_t *o = json_pack("{s:s, s:s, s:I, s:I}", "test", r->test, "metric", r->metric,
				      "n_a", (json_int_t)r->na, "n_b", (json_int_t)r->nb);

		if (!o) {
			json_decref(arr);
			return NULL;
		}
		if (r->compared) {
			json_object_set_new(o, "a_mean", suite_real(r->m.a.mean));
			json_object_set_new(o, "b_mean", suite_real(r->m.b.mean));
			json_object_set_new(o, "diff_pct", suite_real(r->m.diff_pct));
			json_object_set_new(o, "ci_lo", suite_real(r->m.ci_lo));
			json_object_set_new(o, "ci_hi", suite_real(r->m.ci_hi));
			json_object_set_new(o, "p", suite_real(r->m.p));
			json_object_set_new(o, "verdict", json_string(r->m.verdict_text));
			json_object_set_new(o, "regression", json_boolean(r->m.regression));
			if (r->time.valid)
				json_object_set_new(o, "time", compare_time_json(&r->time));
			if (r->ndev)
				json_object_set_new(o, "device", suite_device_json(r));
		} else {
			json_object_set_new(o, "verdict", json_string(r->na ? "only in A" : "only in B"));
		}
		json_array_append_new(arr, o);
	}
	return arr;
}
