/*
 * cmd_history: `iotrial history list|show|trend|compare|label|labels|trial|
 * export|import|rebuild` (docs/history.md).  The hooks the other commands
 * call (store a run or a trial, a compare side from the history) are
 * history_hooks.c, below this and below cmd_compare.c, which "history
 * compare" calls.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cmd.h"
#include "history_hooks.h"
#include "parse/cmdline.h"
#include "trial/compare.h"
#include "lib/err.h"
#include "history/history.h"
#include "lib/outfile.h"
#include "report/report_html.h"
#include "report/report_sweep.h"	/* show: a stored sweep's page */
#include "report/report_json.h"
#include "result/resultread.h"
#include "lib/vec.h"

static const char usage[] =
	"usage: iotrial history [--history=FILE] COMMAND [options]\n"
	"The results history: runs stored with --history (or IOTRIAL_HISTORY=FILE) in one\n"
	"SQLite file (default $XDG_DATA_HOME/iotrial/history.db).  docs/history.md.\n"
	"commands:\n"
	"  list [filters]                 stored runs, newest first (* after an id: partial)\n"
	"  show ID                        one run: device, workload, verdicts, figures\n"
	"  trend METRIC [--device=DEV]    one device's figure over time (--device when the\n"
	"                                 history holds several), with each run's\n"
	"                                 spread and the band of the runs before it\n"
	"  compare --baseline=SEL --candidate=SEL [compare options]\n"
	"                                 iotrial compare on runs chosen from the history\n"
	"  label ID... NAME               mark runs (a baseline); --remove takes it off\n"
	"  labels                         the labels and how many runs each has\n"
	"  trial ID                       a stored ab trial: manifest, runs, verdicts\n"
	"  export --dir=DIR [filters]     the stored result files, one per run, as stored\n"
	"  import PATH...                 result files, directories, ab trial directories\n"
	"                                 (iotrial's or fio's JSON)\n"
	"  rebuild                        derive every table again from the stored results\n"
	"filters (list, trend, export):\n"
	"  --device=DEV  --host=HOST  --job=NAME  --preset=NAME  --label=NAME  --sig=SIG\n"
	"  --since=WHEN  --until=WHEN     2025-03-01, 2025-03-01T12:00, or 12h, 7d, 4w ago\n"
	"  --partial                      include runs that were cut short\n"
	"  --limit=N                      the newest N (list: default 50; 0 = all)\n"
	"trend: --window=auto|all|steady  --band=N (runs before a point in its band, 10)\n"
	"selectors (compare): 42, 40-45, 40,42  label:NAME  trial:T:A  last:N\n"
	"  (last:N: the N newest runs with the other side's device and workload)\n"
	"  --allow-differences            compare even when device or workload differ\n"
	"output: --output-format=text|json|html, -o FILE (whole or not at all)\n"
	"exit codes: 0 done, 2 bad option, selector, database or result file,\n"
	"6 regression (compare --fail-on-regression), 7 output or database not writable.\n";

/* ---- the subcommand ---- */

struct hargs {
	const char *db;
	struct history_filter f;
	int limit_given;
	int json, html;
	const char *out;
	const char *dir;
	const char *window;
	size_t band;
	int remove;
	char **pos;		/* positional arguments */
	size_t npos;
};

/* "2025-03-01", "2025-03-01T12:00[:00][Z]", "2025-03-01 12:00", or "7d"/"12h"/"30m"/"4w" ago. */
static int parse_when(const char *name, const char *v, int64_t *out, struct err *e)
{
	struct tm tm;
	int y, mo, d, hh = 0, mi = 0, ss = 0, n = 0;
	char unit = 0, *end;
	double x;

	memset(&tm, 0, sizeof(tm));
	x = strtod(v, &end);
	if (end != v && end[0] && !end[1] && strchr("smhdw", end[0]) && x >= 0) {
		static const double secs[] = { 1, 60, 3600, 86400, 604800 };

		unit = end[0];
		*out = (int64_t)time(NULL) * 1000 -
		       (int64_t)(x * secs[strchr("smhdw", unit) - "smhdw"] * 1000);
		return 0;
	}
	if (sscanf(v, "%4d-%2d-%2d%n", &y, &mo, &d, &n) == 3 && (!v[n] ||
	    ((v[n] == 'T' || v[n] == ' ') &&
	     sscanf(v + n + 1, "%2d:%2d:%2d", &hh, &mi, &ss) >= 2))) {
		tm.tm_year = y - 1900;
		tm.tm_mon = mo - 1;
		tm.tm_mday = d;
		tm.tm_hour = hh;
		tm.tm_min = mi;
		tm.tm_sec = ss;
		if (mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && hh < 24 && mi < 60 && ss < 61) {
			*out = (int64_t)timegm(&tm) * 1000;
			return 0;
		}
	}
	return err_set(e, -EINVAL, EXIT_USAGE, "history: --%s=%s: expected a date (2025-03-01, "
		       "2025-03-01T12:00, UTC) or a time ago (30m, 12h, 7d, 4w)", name, v);
}

static int parse_size(const char *name, const char *v, size_t *out, struct err *e)
{
	char *end;
	unsigned long long x = strtoull(v ? v : "", &end, 10);

	if (!v || !*v || *end || x > 100000000ull || v[0] == '-')
		return err_set(e, -EINVAL, EXIT_USAGE, "history: --%s=%s: expected a whole number",
			       name, v ? v : "");
	*out = (size_t)x;
	return 0;
}

/* One --name=value of the history command; 1 when taken, 0 not ours, -1 error. */
static int hoption(struct hargs *a, const char *name, const char *v, struct err *e)
{
	static const char *const text[] = { "device", "host", "job", "preset", "label", "sig" };
	const char **slot[] = { &a->f.device, &a->f.host, &a->f.job, &a->f.preset, &a->f.label,
				&a->f.sig };
	size_t i;

	for (i = 0; i < 6; i++)
		if (!strcmp(name, text[i])) {
			if (!v || !*v)
				return err_set(e, -EINVAL, EXIT_USAGE, "history: --%s needs a value",
					       name), -1;
			*slot[i] = v;
			return 1;
		}
	if (!strcmp(name, "history"))
		return a->db = v, 1;
	if (!strcmp(name, "since") || !strcmp(name, "until"))
		return parse_when(name, v ? v : "", name[0] == 's' ? &a->f.since_ms : &a->f.until_ms,
				  e) ? -1 : 1;
	if (!strcmp(name, "limit")) {
		a->limit_given = 1;
		return parse_size(name, v, &a->f.limit, e) ? -1 : 1;
	}
	if (!strcmp(name, "band"))
		return parse_size(name, v, &a->band, e) ? -1 : 1;
	if (!strcmp(name, "partial") && !v)
		return a->f.partial = 1, 1;
	if (!strcmp(name, "remove") && !v)
		return a->remove = 1, 1;
	if (!strcmp(name, "window"))
		return a->window = v, 1;
	if (!strcmp(name, "dir"))
		return a->dir = v, 1;
	if (!strcmp(name, "output"))
		return a->out = v, 1;
	if (!strcmp(name, "output-format")) {
		a->json = v && !strcmp(v, "json");
		a->html = v && !strcmp(v, "html");
		if (!v || (!a->json && !a->html && strcmp(v, "text")))
			return err_set(e, -EINVAL, EXIT_USAGE, "history: --output-format=%s: expected "
				       "text, json or html", v ? v : ""), -1;
		return 1;
	}
	return 0;
}

static int hargs_parse(int argc, char **argv, struct hargs *a, struct err *e)
{
	int i, r;

	for (i = 0; i < argc; i++) {
		char name[64];
		const char *eq, *v;

		if (!strcmp(argv[i], "-o")) {
			if (i + 1 >= argc)
				return err_set(e, -EINVAL, EXIT_USAGE, "history: -o needs a file name");
			a->out = argv[++i];
			continue;
		}
		if (strncmp(argv[i], "--", 2) || !argv[i][2]) {
			a->pos[a->npos++] = argv[i];
			continue;
		}
		eq = strchr(argv[i], '=');
		snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - argv[i] - 2) : 63, argv[i] + 2);
		v = eq ? eq + 1 : NULL;
		r = hoption(a, name, v, e);
		if (r == 0 && !v && i + 1 < argc && argv[i + 1][0] != '-') {
			/* "--device vda": the value in the next argument */
			r = hoption(a, name, argv[i + 1], e);
			if (r > 0)
				i++;
		}
		if (r < 0)
			return -EINVAL;
		if (!r)
			return err_set(e, -EINVAL, EXIT_USAGE, "history: unknown option %s (see iotrial "
				       "history --help)", argv[i]);
	}
	return 0;
}

/* @o (consumed) to @f; reals with 17 digits: a stored result comes back as it was */
static int emit_json(json_t *o, FILE *f)
{
	int r = !o || json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) ||
		fputc('\n', f) == EOF;

	json_decref(o);
	return r ? -1 : 0;
}

struct list_ctx {
	FILE *f;
	int json, html;
	json_t *arr;
	struct history_run *runs;	/* html: collected */
	size_t n, cap;
	int head;
};

static int list_one(void *arg, const struct history_run *run)
{
	struct list_ctx *c = arg;

	if (c->json)
		return json_array_append_new(c->arr, history_run_json(run)) ? -ENOMEM : 0;
	if (c->html) {
		if (vec_grow((void **)&c->runs, &c->cap, c->n + 1, sizeof(*c->runs), 64))
			return -ENOMEM;
		c->runs[c->n++] = *run;
		return 0;
	}
	if (!c->head && history_write_list_head(c->f))
		return -EIO;
	c->head = 1;
	return history_write_list_line(c->f, run) ? -EIO : 0;
}

static int do_list(struct history *h, struct hargs *a, FILE *f, struct err *e)
{
	struct list_ctx c = { f, a->json, a->html, NULL, NULL, 0, 0, 0 };
	int r;

	if (!a->limit_given)
		a->f.limit = 50;
	if (c.json && !(c.arr = json_array()))
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	r = history_list(h, &a->f, list_one, &c, e);
	if (r > 0 || (r < 0 && !e->msg[0]))
		r = err_set(e, -EIO, EXIT_OUTPUT, "history list: writing failed");
	if (!r && c.json)
		r = emit_json(json_pack("{s:s, s:O}", "database", history_file(h), "runs", c.arr), f);
	if (!r && c.html)
		r = history_write_list_html(f, c.runs, c.n);
	if (!r && !c.json && !c.html && !c.head)
		fprintf(f, "no runs%s in %s\n", a->f.device || a->f.host || a->f.job || a->f.label ||
			a->f.preset || a->f.sig ? " match" : "", history_file(h));
	json_decref(c.arr);
	free(c.runs);
	return r;
}

static int parse_run_id(const char *s, int64_t *id, struct err *e)
{
	char *end;
	long long v = strtoll(s ? s : "", &end, 10);

	if (!s || !*s || *end || v < 1 || !isdigit((unsigned char)s[0]))
		return err_set(e, -EINVAL, EXIT_USAGE, "history: '%s' is not a run id", s ? s : "");
	*id = v;
	return 0;
}

static int do_show(struct history *h, struct hargs *a, FILE *f, struct err *e)
{
	struct history_run run;
	json_t *fig = NULL, *o;
	char *text = NULL;
	size_t len;
	int64_t id;
	int r;

	if (a->npos != 1)
		return err_set(e, -EINVAL, EXIT_USAGE, "history show: give one run id");
	if (parse_run_id(a->pos[0], &id, e) || history_get(h, id, &run, e) ||
	    history_figures_json(h, id, &fig, e))
		return -EINVAL;
	if (a->html) {	/* the stored result's own report */
		json_t *root;
		char name[48];
		const char *names[1] = { name };

		r = history_document(h, id, &text, &len, e);
		root = r ? NULL : json_loadb(text, len, 0, NULL);
		snprintf(name, sizeof(name), "history:%lld", (long long)id);
		if (!r && root && report_sweep_is(root))	/* a stored sweep: its own page */
			r = report_sweep_write(f, root, name, 1, e);
		else if (!r && (!root || report_html_run(f, &root, names, 1)))
			r = err_set(e, -EIO, EXIT_OUTPUT, "history show: writing the report failed");
		json_decref(root);
	} else if (a->json) {
		r = history_document(h, id, &text, &len, e);
		if (!r) {
			o = history_run_json(&run);
			if (o) {
				json_object_set(o, "figures", fig);
				json_object_set_new(o, "result", json_loadb(text, len, 0, NULL));
			}
			r = emit_json(o, f);
		}
	} else {
		r = history_write_show_text(f, &run, fig);
	}
	free(text);
	json_decref(fig);
	return r;
}

static int do_trend(struct history *h, struct hargs *a, FILE *f, struct err *e)
{
	struct history_trend t;
	int r;

	if (a->npos != 1)
		return err_set(e, -EINVAL, EXIT_USAGE, "history trend: give one metric (total.iops, "
			       "read.lat_p99_ns, ...); --device=DEV when the history holds several devices");
	if (history_trend(h, a->pos[0], &a->f, a->window ? a->window : "auto", a->band, &t, e))
		return -EINVAL;
	if (a->json)
		r = emit_json(history_trend_json(&t), f);
	else if (a->html)
		r = history_write_trend_html(f, &t);
	else
		r = history_write_trend_text(f, &t);
	history_trend_free(&t);
	return r;
}

static int do_label(struct history *h, struct hargs *a, struct err *e)
{
	int64_t *ids = NULL, *part;
	size_t n = 0, np, i;
	int r = 0;

	if (a->npos < 2)
		return err_set(e, -EINVAL, EXIT_USAGE, "history label: give run ids (or selectors) "
			       "and a name: history label 40-44 baseline");
	for (i = 0; i + 1 < a->npos && !r; i++) {
		r = history_select(h, a->pos[i], NULL, &part, &np, e);
		if (!r) {
			int64_t *g = realloc(ids, (n + np) * sizeof(*ids));

			if (!g) {
				free(part);
				r = err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
				break;
			}
			ids = g;
			memcpy(ids + n, part, np * sizeof(*ids));
			n += np;
			free(part);
		}
	}
	if (!r)
		r = history_label(h, a->pos[a->npos - 1], ids, n, a->remove, e);
	if (!r)
		fprintf(stderr, "history: %s '%s' %s %zu run(s)\n", a->remove ? "took" : "put",
			a->pos[a->npos - 1], a->remove ? "off" : "on", n);
	free(ids);
	return r;
}

static int do_labels(struct history *h, struct hargs *a, FILE *f, struct err *e)
{
	json_t *l, *x;
	size_t i;

	if (history_labels_json(h, &l, e))
		return -EINVAL;
	if (a->json)
		return emit_json(l, f);
	json_array_foreach(l, i, x)
		fprintf(f, "%-24s %6lld run(s)\n", json_string_value(json_object_get(x, "name")),
			(long long)json_integer_value(json_object_get(x, "runs")));
	if (!json_array_size(l))
		fprintf(f, "no labels in %s\n", history_file(h));
	json_decref(l);
	return 0;
}

static int do_trial(struct history *h, struct hargs *a, FILE *f, struct err *e)
{
	json_t *t, *m, *x;
	int64_t id;
	size_t i;

	if (a->npos != 1 || parse_run_id(a->pos[0], &id, e))
		return a->npos != 1 ? err_set(e, -EINVAL, EXIT_USAGE, "history trial: give one trial "
					      "id") : -EINVAL;
	if (history_trial_json(h, id, &t, e))
		return -EINVAL;
	if (a->json)
		return emit_json(t, f);
	m = json_object_get(t, "manifest");
	fprintf(f, "trial %lld: A = %s, B = %s, stopped by %s; directory %s\n", (long long)id,
		json_string_value(json_object_get(m, "a")), json_string_value(json_object_get(m, "b")),
		json_is_string(json_object_get(m, "stopped_by")) ?
		json_string_value(json_object_get(m, "stopped_by")) : "-",
		json_string_value(json_object_get(t, "dir")));
	fprintf(f, "runs:");
	json_array_foreach(json_object_get(t, "runs"), i, x)
		fprintf(f, " %lld%s", (long long)json_integer_value(json_object_get(x, "id")),
			json_string_value(json_object_get(x, "side")));
	fprintf(f, "\nverdicts (history compare --baseline=trial:%lld:A --candidate=trial:%lld:B "
		"shows them in full):\n", (long long)id, (long long)id);
	json_array_foreach(json_object_get(json_object_get(t, "verdicts"), "metrics"), i, x)
		fprintf(f, "  %-20s %s\n", json_string_value(json_object_get(x, "name")),
			json_string_value(json_object_get(x, "verdict")));
	json_decref(t);
	return 0;
}

static const char compare_usage[] =
	"usage: iotrial history [--history=FILE] compare --baseline=SEL --candidate=SEL\n"
	"                       [compare options]\n"
	"iotrial compare on runs chosen from the history: each side's runs are loaded\n"
	"from the database, checked to be comparable (same device and job signature),\n"
	"and compared with compare's statistics.  docs/history.md.\n"
	"selectors: 42, 40-45, 40,42  label:NAME  trial:T:A (a stored ab trial's side)\n"
	"  last:N     the N newest runs with the other side's device and workload\n"
	"  --allow-differences   compare even when device or workload differ\n"
	"compare options (iotrial compare --help): --window=all|steady|auto,\n"
	"  --fail-on-regression=PCT, --output-format=text|json|html, -o FILE, ...\n"
	"exit codes: 0 compared, 2 bad option, selector or database, 6 regression\n"
	"(--fail-on-regression), 7 output not writable.\n";

/* history compare: iotrial compare with both sides chosen from the history. */
static int do_compare(int argc, char **argv, const char *db)
{
	char **v, *dbopt = NULL;
	int i, n = 0, rc;

	/* its own texts, not plain compare's (whose sides are files) */
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(compare_usage, stdout);
			return EXIT_OK;
		}
	if (argc < 2) {
		fputs(compare_usage, stderr);
		return EXIT_USAGE;
	}
	v = calloc((size_t)argc + 3, sizeof(*v));
	if (!v)
		return fprintf(stderr, "iotrial: error: out of memory\n"), EXIT_INTERNAL;
	v[n++] = "compare";
	for (i = 1; i < argc; i++) {
		/* a selector without "history:" is the history's */
		if ((!strncmp(argv[i], "--baseline=", 11) || !strncmp(argv[i], "--candidate=", 12)) &&
		    !strstr(argv[i], "=history:")) {
			const char *eq = strchr(argv[i], '=');

			if (asprintf(&v[n], "%.*s=history:%s", (int)(eq - argv[i]), argv[i], eq + 1) < 0)
				break;
			n++;
			continue;
		}
		v[n++] = argv[i];
	}
	if (db && asprintf(&dbopt, "--history=%s", db) >= 0)
		v[n++] = dbopt;
	rc = cmd_compare(n, v);
	for (i = 1; i < n; i++)
		if (v[i] != dbopt && (!strncmp(v[i], "--baseline=history:", 19) ||
				      !strncmp(v[i], "--candidate=history:", 20))) {
			int k, mine = 1;

			for (k = 1; k < argc; k++)
				mine &= argv[k] != v[i];
			if (mine)
				free(v[i]);
		}
	free(dbopt);
	free(v);
	return rc;
}

static int report_fail(struct err *e)
{
	fprintf(stderr, "iotrial: error: %s\n", e->msg);
	return e->exit_code ? e->exit_code : EXIT_INTERNAL;
}

int cmd_history(int argc, char **argv)
{
	struct hargs a;
	struct history *h = NULL;
	struct outfile of;
	const char *cmd;
	struct err e;
	int r, i, writes;

	err_clear(&e);
	memset(&a, 0, sizeof(a));
	history_filter_init(&a.f);
	/* --history=FILE may come before the command */
	for (i = 1; i < argc && !strncmp(argv[i], "--history=", 10); i++)
		a.db = argv[i] + 10;
	if (i >= argc || !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") ||
	    !strcmp(argv[i], "help")) {
		fputs(usage, i >= argc ? stderr : stdout);
		return i >= argc ? EXIT_USAGE : EXIT_OK;
	}
	cmd = argv[i];
	if (!strcmp(cmd, "compare"))
		return do_compare(argc - i, argv + i, a.db);
	a.pos = calloc((size_t)argc, sizeof(*a.pos));
	if (!a.pos)
		return fprintf(stderr, "iotrial: error: out of memory\n"), EXIT_INTERNAL;
	if (hargs_parse(argc - i - 1, argv + i + 1, &a, &e))
		goto fail;
	writes = !strcmp(cmd, "label") || !strcmp(cmd, "import") || !strcmp(cmd, "rebuild");
	if (strcmp(cmd, "list") && strcmp(cmd, "show") && strcmp(cmd, "trend") && !writes &&
	    strcmp(cmd, "labels") && strcmp(cmd, "trial") && strcmp(cmd, "export")) {
		err_set(&e, -EINVAL, EXIT_USAGE, "history: unknown command '%s' (list, show, trend, "
			"compare, label, labels, trial, export, import, rebuild)", cmd);
		goto fail;
	}
	if (history_hooks_open(a.db, writes ? HISTORY_WRITE : HISTORY_READ, &h, &e))
		goto fail;
	if (!strcmp(cmd, "import")) {
		struct history_import_stats st;

		if (!a.npos) {
			err_set(&e, -EINVAL, EXIT_USAGE, "history import: give result files or "
				"directories");
			goto fail;
		}
		if (history_import(h, a.pos, a.npos, &st, &e))
			goto fail;
		printf("imported %zu file(s): %zu new run(s), %zu already stored, %zu trial(s), into "
		       "%s\n", st.files, st.added, st.known, st.trials, history_file(h));
		r = 0;
	} else if (!strcmp(cmd, "rebuild")) {
		size_t n;

		if (history_rebuild(h, &n, &e))
			goto fail;
		printf("rebuilt %zu run(s) from their stored results in %s\n", n, history_file(h));
		r = 0;
	} else if (!strcmp(cmd, "label")) {
		if (do_label(h, &a, &e))
			goto fail;
		r = 0;
	} else if (!strcmp(cmd, "export")) {
		size_t n;

		if (!a.dir) {
			err_set(&e, -EINVAL, EXIT_USAGE, "history export: give --dir=DIR");
			goto fail;
		}
		if (history_export(h, &a.f, a.dir, &n, &e))
			goto fail;
		fprintf(stderr, "history: exported %zu run(s) to %s\n", n, a.dir);
		r = 0;
	} else {
		if (outfile_open(&of, a.out, &e))
			goto fail;
		r = !strcmp(cmd, "list") ? do_list(h, &a, of.f, &e) :
		    !strcmp(cmd, "show") ? do_show(h, &a, of.f, &e) :
		    !strcmp(cmd, "trend") ? do_trend(h, &a, of.f, &e) :
		    !strcmp(cmd, "labels") ? do_labels(h, &a, of.f, &e) : do_trial(h, &a, of.f, &e);
		if (r) {
			outfile_abort(&of);
			if (!e.msg[0])
				err_set(&e, -EIO, EXIT_OUTPUT, "history %s: writing failed", cmd);
			goto fail;
		}
		if (outfile_commit(&of, &e))
			goto fail;
	}
	history_close(h);
	free(a.pos);
	return r ? EXIT_OUTPUT : EXIT_OK;
fail:
	history_close(h);
	free(a.pos);
	return report_fail(&e);
}
