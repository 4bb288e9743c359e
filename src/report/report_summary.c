/*
 * report_summary: a preset's closing table (rules in report_summary.h).
 * Figures come from report_rates() and the latency moments, the same values
 * report_json.c writes, so the table and the JSON cannot disagree.
 */
#include "report/report_summary.h"

#include <errno.h>	/* EIO, ENOMEM */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* strlen, strncmp, strrchr, strcmp */
#include "report/report_calc.h"
#include <jansson.h>	/* the warnings array */

/* One table row: a label and, per direction (read, write), the job that filled it. */
struct sum_row {
	char label[JOB_NAME_MAX];
	const struct job_result *src[2];
};

/* "X_read" -> "X" with *dir = DDIR_READ; otherwise the name, *dir = -1. */
static void sum_key(const char *name, char *label, size_t len, int *dir)
{
	static const char *const sfx[2] = { "_read", "_write" };
	size_t n = strlen(name), k;
	int d;

	*dir = -1;
	for (d = 0; d < 2; d++) {
		k = strlen(sfx[d]);
		if (n > k && !strcmp(name + n - k, sfx[d])) {
			*dir = d;
			n -= k;
			break;
		}
	}
	snprintf(label, len, "%.*s", (int)n, name);
}

/* Rows for every job, in order of first appearance (rules in the header). */
static size_t sum_rows(const struct run_result *r, struct sum_row *rows)
{
	size_t nr = 0, i, k;
	char label[JOB_NAME_MAX];
	int want, d;

	for (i = 0; i < r->nr_jobs; i++) {
		const struct job_result *j = &r->jobs[i];

		sum_key(j->name, label, sizeof(label), &want);
		for (d = 0; d < 2; d++) {
			if ((want >= 0 && d != want) || !j->dir[d].total_ios)
				continue;
			for (k = 0; k < nr; k++)
				if (!strcmp(rows[k].label, label) && !rows[k].src[d])
					break;
			if (k == nr) {
				snprintf(rows[nr].label, sizeof(rows[nr].label), "%s", label);
				nr++;
			}
			rows[k].src[d] = j;
		}
	}
	return nr;
}

static void sum_cell(FILE *f, const struct job_result *j, int d, int what)
{
	struct report_rates rt;

	if (!j) {
		fprintf(f, " %12s", "-");
		return;
	}
	report_rates(&j->dir[d], &rt);
	if (what == 0)
		fprintf(f, " %12.2f", (double)rt.bw_bytes / 1e6);
	else if (what == 1)
		fprintf(f, " %12.2f", rt.iops);
	else
		fprintf(f, " %12.2f", (j->dir[d].lat.n ? j->dir[d].lat.mean : 0.0) / 1e3);
}

static void sum_tests(FILE *f, const struct run_result *r, const struct preset *p,
		      struct sum_row *rows)
{
	size_t nr = sum_rows(r, rows), i, w = 4;
	int what, d;

	for (i = 0; i < nr; i++)
		if (strlen(rows[i].label) > w)
			w = strlen(rows[i].label);
	fprintf(f, "\nSummary%s%s: each %s over its own runtime (MB = 10^6 bytes,"
		" latency = mean total latency)\n", p->name[0] ? " of preset " : "", p->name,
		p->name[0] ? "test" : "job");
	fprintf(f, "%-*s %12s %12s %12s %12s %12s %12s\n", (int)w, "test", "read MB/s", "write MB/s",
		"read IOPS", "write IOPS", "read lat us", "write lat us");
	for (i = 0; i < nr; i++) {
		fprintf(f, "%-*s", (int)w, rows[i].label);
		for (what = 0; what < 3; what++)
			for (d = 0; d < 2; d++)
				sum_cell(f, rows[i].src[d], d, what);
		fputc('\n', f);
	}
	if (!nr)
		fprintf(f, "(no job did any I/O)\n");
}

/* Index of @s (of @n bytes) in @names, appended when new; -1 when full. */
static int sum_index(const char **names, size_t *nr, size_t cap, const char *s, size_t n,
		     size_t *lens)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if (lens[i] == n && !strncmp(names[i], s, n))
			return (int)i;
	if (*nr == cap)
		return -1;
	names[*nr] = s;
	lens[*nr] = n;
	return (int)(*nr)++;
}

#define SUM_MAX 32	/* rows and columns of a matrix: far beyond one screen */

static void sum_matrix(FILE *f, const struct run_result *r, const struct preset *p)
{
	const char *rown[SUM_MAX], *coln[SUM_MAX];
	size_t rowl[SUM_MAX], coll[SUM_MAX], nrow = 0, ncol = 0, i, c, plen;
	const struct job_result *cell[SUM_MAX][SUM_MAX];
	int ri, ci;

	memset(cell, 0, sizeof(cell));
	plen = strlen(p->matrix_prefix);
	for (i = 0; i < r->nr_jobs; i++) {
		const char *name = r->jobs[i].name, *us;

		if (strncmp(name, p->matrix_prefix, plen) || !(us = strrchr(name + plen, '_')))
			continue;
		ri = sum_index(rown, &nrow, SUM_MAX, name + plen, (size_t)(us - name - plen), rowl);
		ci = sum_index(coln, &ncol, SUM_MAX, us + 1, strlen(us + 1), coll);
		if (ri >= 0 && ci >= 0)
			cell[ri][ci] = &r->jobs[i];
	}
	fprintf(f, "\nSummary of preset %s: read+write IOPS of each job over its own runtime,"
		" block size (rows) x read/write mix (columns)\n%-6s", p->name, "bs");
	for (c = 0; c < ncol; c++)
		fprintf(f, " %9.*s", (int)coll[c], coln[c]);
	fputc('\n', f);
	for (i = 0; i < nrow; i++) {
		fprintf(f, "%-6.*s", (int)rowl[i], rown[i]);
		for (c = 0; c < ncol; c++) {
			struct report_rates rd, wr;

			if (!cell[i][c]) {
				fprintf(f, " %9s", "-");
				continue;
			}
			report_rates(&cell[i][c]->dir[DDIR_READ], &rd);
			report_rates(&cell[i][c]->dir[DDIR_WRITE], &wr);
			fprintf(f, " %9.0f", rd.iops + wr.iops);
		}
		fputc('\n', f);
	}
	if (!nrow)
		fprintf(f, "(no matrix job ran)\n");
}

/*
 * The warnings that qualify the table's figures, right under it, each in its
 * short form ("warning [page_cache] buffered (direct=0): the page cache can
 * serve it"): the table alone is what people paste, so what makes its
 * numbers doubtful must travel with it.  Infos are left out.
 */
static void sum_warnings(FILE *f, const struct run_result *r)
{
	const json_t *w;
	size_t i;

	json_array_foreach(r->warnings, i, w) {
		const char *brief = json_string_value(json_object_get(w, "brief"));
		const char *sev = json_string_value(json_object_get(w, "severity"));

		if (!sev || strcmp(sev, "warning"))
			continue;
		fprintf(f, "  warning [%s] %s\n", json_string_value(json_object_get(w, "id")),
			brief ? brief : json_string_value(json_object_get(w, "message")));
	}
}

int report_summary_write(FILE *f, const struct run_result *r, const struct preset *p,
			 struct err *e)
{
	struct sum_row *rows;

	if (p->summary == PRESET_SUMMARY_MATRIX && p->matrix_prefix) {
		sum_matrix(f, r, p);
	} else {
		/* at most two rows per job (a job with reads and writes of a taken row) */
		rows = calloc(2 * r->nr_jobs + 1, sizeof(*rows));
		if (!rows)
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		sum_tests(f, r, p, rows);
		free(rows);
	}
	sum_warnings(f, r);
	if (ferror(f))
		return err_set(e, -EIO, EXIT_OUTPUT, "writing the summary failed");
	return 0;
}
