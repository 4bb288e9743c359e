/*
 * history_hooks: what the other commands do with the results history
 * (docs/history.md): store a run (--history, IOTRIAL_HISTORY), store an ab
 * trial, and take a side of `iotrial compare` from the history
 * (--baseline=history:LABEL); and the one way every command opens the
 * database.  The subcommand `iotrial history` is cmd_history.c, above this.
 *
 * The rule of the hooks: the history never costs a run.  Whatever goes wrong
 * with the database (locked, read-only, full, corrupt, newer), the result is
 * already written, the run keeps its own exit status, and one line on stderr
 * names the database and the problem.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "history_hooks.h"
#include "parse/cmdline.h"
#include "trial/compare.h"
#include "lib/err.h"
#include "history/history.h"
#include "lib/outfile.h"
#include "lib/readfile.h"	/* a sweep's document, stored as its bytes */
#include "report/report_html.h"
#include "report/report_json.h"
#include "result/resultread.h"
#include "lib/vec.h"

/* ---- the database, for every user ---- */

/* How long a writer waits for another's lock: IOTRIAL_HISTORY_WAIT seconds, else the default. */
static unsigned busy_ms(void)
{
	const char *w = getenv("IOTRIAL_HISTORY_WAIT");
	char *end;
	double s;

	if (!w || !*w)
		return 0;
	s = strtod(w, &end);
	return *end || !(s > 0) || s > 86400 ? 0 : (unsigned)(s * 1000 + 0.5);
}

static int db_path(char *buf, size_t sz, const char *given, struct err *e)
{
	return history_path(buf, sz, given, getenv("IOTRIAL_HISTORY"), getenv("XDG_DATA_HOME"),
			    getenv("HOME"), e);
}

int history_hooks_open(const char *given, enum history_mode mode, struct history **h, struct err *e)
{
	char path[PATH_MAX];

	if (db_path(path, sizeof(path), given, e))
		return -EINVAL;
	return history_open(path, mode, busy_ms(), h, NULL, e);
}

/* ---- hooks: a run, a trial ---- */

void history_hooks_after_run(const struct cmdline *cl, const struct run_result *res, int code)
{
	struct history_origin o = { "run", cl->preset, code };
	const char *env = getenv("IOTRIAL_HISTORY");
	struct history *h = NULL;
	char *text = NULL;
	size_t len = 0;
	struct err e;
	int64_t id;
	int added, r;
	FILE *f;

	if (!cl->history && !(env && *env))
		return;
	err_clear(&e);
	/* the document as JSON, whatever formats the user asked for: json+ when asked */
	f = open_memstream(&text, &len);
	if (!f) {
		fprintf(stderr, "iotrial: warning: run not stored in the history: out of memory\n");
		return;
	}
	r = report_json_write(f, res, (cl->formats & CMDLINE_FMT_JSONPLUS) != 0, &e);
	if (fclose(f) && !r)
		r = err_set(&e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	if (!r)
		r = history_hooks_open(cl->history_file, HISTORY_WRITE, &h, &e);
	if (!r)
		r = history_record(h, text, len, "this run", &o, &id, &added, &e);
	if (r)
		fprintf(stderr, "iotrial: warning: run not stored in the history: %s\n", e.msg);
	else
		fprintf(stderr, "iotrial: history: run %lld stored in %s\n", (long long)id,
			history_file(h));
	history_close(h);
	free(text);
}

int history_hooks_ab_take(int *argc, char **argv, struct history_hooks_ab *hab)
{
	const char *env = getenv("IOTRIAL_HISTORY");
	int i, k = 1;

	memset(hab, 0, sizeof(*hab));
	if (env && *env) {
		hab->on = 1;
		snprintf(hab->file, sizeof(hab->file), "%s", env);
		/* the trial stores its runs itself, as a trial: its runs must not */
		unsetenv("IOTRIAL_HISTORY");
	}
	for (i = 1; i < *argc; i++) {
		if (!strcmp(argv[i], "--history") || !strncmp(argv[i], "--history=", 10)) {
			hab->on = 1;
			if (argv[i][9] == '=')
				snprintf(hab->file, sizeof(hab->file), "%s", argv[i] + 10);
			continue;
		}
		argv[k++] = argv[i];
	}
	*argc = k;
	argv[k] = NULL;
	return 0;
}

void history_hooks_after_ab(const struct history_hooks_ab *hab, const char *dir, const json_t *manifest,
			  const struct compare_opts *copts, char *const *keys, size_t nkeys)
{
	struct compare_opts o = *copts;
	struct history *h = NULL;
	struct err e;
	int64_t id;

	if (!hab->on)
		return;
	err_clear(&e);
	o.expected = (const char *const *)keys;
	o.nr_expected = nkeys;
	if (history_hooks_open(hab->file[0] ? hab->file : NULL, HISTORY_WRITE, &h, &e) ||
	    history_record_trial(h, dir, manifest, &o, &id, &e))
		fprintf(stderr, "iotrial: warning: trial not stored in the history: %s\n", e.msg);
	else
		fprintf(stderr, "ab: history: trial %lld stored in %s\n", (long long)id,
			history_file(h));
	history_close(h);
}

void history_hooks_after_sweep(const struct history_hooks_ab *hab, const char *path,
			       const char *what)
{
	struct history_origin o = { "sweep", NULL, 0 };
	struct history *h = NULL;
	char *text = NULL;
	size_t len = 0;
	struct err e;
	int64_t id;
	int added, r;

	if (!hab->on)
		return;
	err_clear(&e);
	/* the file's bytes, so that importing the sweep's directory later finds it stored */
	r = readfile_all(path, RESULTREAD_SIZE_MAX, &text, &len);
	if (r)
		err_set(&e, r, EXIT_OUTPUT, "%s: %s", path, strerror(-r));
	if (!r)
		r = history_hooks_open(hab->file[0] ? hab->file : NULL, HISTORY_WRITE, &h, &e);
	if (!r)
		r = history_record(h, text, len, path, &o, &id, &added, &e);
	if (r)
		fprintf(stderr, "iotrial: warning: %s not stored in the history: %s\n", what, e.msg);
	else
		fprintf(stderr, "sweep: history: %s stored as run %lld in %s\n", what, (long long)id,
			history_file(h));
	history_close(h);
	free(text);
}

/* ---- hook: compare's sides from the history ---- */

int history_hooks_compare_option(const char *name, const char *value, struct history_hooks_sides *hs,
			       struct err *e)
{
	const char **slot = !strcmp(name, "baseline") ? &hs->baseline :
			    !strcmp(name, "candidate") ? &hs->candidate :
			    !strcmp(name, "history") ? &hs->db : NULL;

	if (!strcmp(name, "allow-differences")) {
		hs->allow_diff = 1;
		return 2;
	}
	if (!slot)
		return 0;
	if (!value || !*value)
		return err_set(e, -EINVAL, EXIT_USAGE, "compare: --%s needs a value%s", name,
			       strcmp(name, "history") ? " (history:SELECTOR, a file or a directory)" :
			       ""), -1;
	*slot = value;
	hs->used |= slot != &hs->db;
	return 1;
}

struct side {
	struct resultread **r;
	size_t n;
	struct history_key *k;
	char **names;
	int from_history;
};

static void side_free(struct side *s)
{
	resultread_set_free(s->r, s->n);
	free(s->k);
	free(s->names);
	memset(s, 0, sizeof(*s));
}

/* Keys of result files (the comparability check between a file and the history). */
static int file_keys(struct side *s, struct err *e)
{
	size_t i;

	s->k = calloc(s->n ? s->n : 1, sizeof(*s->k));
	if (!s->k)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	for (i = 0; i < s->n; i++) {
		json_t *root = json_load_file(s->r[i]->path, 0, NULL);

		if (!root)	/* resultread read it: notes before the JSON; key from the summary */
			root = json_object();
		history_key_of(root, s->r[i], &s->k[i]);
		json_decref(root);
	}
	return 0;
}

/* One side: "history:SEL" from @h (opened on first use), else files and directories. */
static int load_side(const char *spec, char *const *files, size_t nfiles, const char *db,
		     struct history **h, const struct history_key *like, struct side *s,
		     struct err *e)
{
	int64_t *ids = NULL;
	size_t n = 0, i;
	int ret;

	memset(s, 0, sizeof(*s));
	if (spec && strncmp(spec, "history:", 8)) {
		files = (char *const *)&spec;
		nfiles = 1;
	}
	if (!spec || strncmp(spec, "history:", 8)) {
		if (resultread_load_set(files, nfiles, &s->r, &s->n, e))
			return -EINVAL;
		ret = file_keys(s, e);
	} else {
		if (!*h && history_hooks_open(db, HISTORY_READ, h, e))
			return -EINVAL;
		s->from_history = 1;
		ret = history_select(*h, spec + 8, like, &ids, &n, e);
		if (!ret)
			ret = history_load(*h, ids, n, &s->r, e);
		if (!ret)
			s->n = n;
		if (!ret)
			ret = history_keys(*h, ids, n, &s->k, e);
		free(ids);
	}
	if (!ret && !(s->names = calloc(s->n ? s->n : 1, sizeof(*s->names))))
		ret = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	for (i = 0; !ret && i < s->n; i++)
		s->names[i] = s->r[i]->path;
	return ret;
}

/* Are the two sides the two sides of one stored trial (trial:T:A and trial:T:B)? */
static int same_trial(const struct history_hooks_sides *hs)
{
	const char *a = hs->baseline, *b = hs->candidate;
	size_t n;

	if (!a || !b || strncmp(a, "history:trial:", 14) || strncmp(b, "history:trial:", 14))
		return 0;
	n = strlen(a);
	return n == strlen(b) && n > 16 && !strncmp(a, b, n - 1) && a[n - 1] != b[n - 1];
}

int history_hooks_compare_load(const struct history_hooks_sides *hs, char *const *files, size_t nfiles,
			     struct compare_opts *o, struct resultread ***a, size_t *na,
			     struct resultread ***b, size_t *nb, struct err *e)
{
	struct history *h = NULL;
	struct side sa, sb;
	int ret, a_last, b_first;

	memset(&sb, 0, sizeof(sb));
	if (hs->baseline && hs->candidate && nfiles)
		return err_set(e, -EINVAL, EXIT_USAGE, "compare: with --baseline and --candidate "
			       "there is no room for %s", files[0]);
	if (!nfiles && (!hs->baseline || !hs->candidate))
		return err_set(e, -EINVAL, EXIT_USAGE, "compare: give the %s side (result files, "
			       "or --%s=history:SELECTOR)", hs->baseline ? "candidate" : "baseline",
			       hs->baseline ? "candidate" : "baseline");
	/* last:N on one side takes the other's device and workload: load that one first */
	a_last = hs->baseline && !strncmp(hs->baseline, "history:last:", 13);
	b_first = a_last && !(hs->candidate && !strncmp(hs->candidate, "history:last:", 13));
	if (b_first) {
		ret = load_side(hs->candidate, files, nfiles, hs->db, &h, NULL, &sb, e);
		if (!ret)
			ret = load_side(hs->baseline, files, nfiles, hs->db, &h,
					sb.n ? &sb.k[0] : NULL, &sa, e);
		else
			memset(&sa, 0, sizeof(sa));
	} else {
		ret = load_side(hs->baseline, files, nfiles, hs->db, &h, NULL, &sa, e);
		if (!ret)
			ret = load_side(hs->candidate, files, nfiles, hs->db, &h,
					sa.n ? &sa.k[0] : NULL, &sb, e);
	}
	history_close(h);
	if (!ret && same_trial(hs)) {
		/* a trial's two sides differ by design and ran interleaved: compare them as ab did */
		static const char *const any[] = { "*" };

		o->expected = any;
		o->nr_expected = 1;
	} else if (!ret && (sa.from_history || sb.from_history)) {
		/* the history refuses what differs in what matters (docs/history.md) */
		if (!hs->allow_diff &&
		    history_comparable(sa.k, (const char *const *)sa.names, sa.n, sb.k,
				       (const char *const *)sb.names, sb.n, e))
			ret = -EXDEV;
		/* a gate that cannot fire is a broken gate: say so instead of passing */
		if (!ret && o->fail_regression_pct >= 0 && (sa.n < 2 || sb.n < 2))
			ret = err_set(e, -EINVAL, EXIT_USAGE, "compare: --fail-on-regression needs 2 "
				      "or more runs a side to have an interval (the %s has %zu): "
				      "give a directory of runs or label more", sa.n < 2 ?
				      "baseline" : "candidate", sa.n < 2 ? sa.n : sb.n);
		o->sides_apart = 1;
	}
	if (ret) {
		side_free(&sa);
		side_free(&sb);
		return -EINVAL;
	}
	*a = sa.r;
	*na = sa.n;
	*b = sb.r;
	*nb = sb.n;
	sa.r = sb.r = NULL;
	sa.n = sb.n = 0;
	side_free(&sa);
	side_free(&sb);
	return 0;
}
