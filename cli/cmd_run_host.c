/*
 * cmd_run_host: `iotrial --runner=CMD [--host-qmp=SOCKET[,drive=ID]] <fio
 * options or job file>`, one run driven from the host (docs/vm.md): the run
 * runs through the runner (into a QEMU guest: ssh, tests/vm/guest-iotrial),
 * QEMU is sampled on this host while it runs, and the guest's result, with
 * iotrial.host added, is written as a plain run writes its own
 * (--output-format, --output).  The runner gets the fio options as typed
 * plus --output-format=<the formats asked, and json> --output=FILE; it may
 * leave the result in FILE or print it on stdout.  It never sees --runner
 * or --host-qmp.
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>	/* PATH_MAX */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "runner.h"
#include "lib/err.h"
#include "lib/mpienv.h"	/* no MPI here */
#include "lib/outfile.h"
#include "report/report_host.h"	/* the host's lines after the text */
#include "trial/trial_host.h"

struct run_host {
	const char *runner, *host_qmp, *output, *formats;
	char **args;		/* the fio options the runner gets */
	size_t nargs;
	struct hostview_cfg host;
	char host_buf[512];
	struct hostview_series hs;
	int have_hs;
	sigset_t sigs, child_mask;
	char dir[PATH_MAX], res[PATH_MAX + 16], out[PATH_MAX + 16];
};

/* Does @a name option @name ("--name", "--name=...")?  *@v its value when inline. */
static int is_opt(const char *a, const char *name, const char **v)
{
	size_t n = strlen(name);

	if (strncmp(a, name, n) || (a[n] && a[n] != '='))
		return 0;
	*v = a[n] == '=' ? a + n + 1 : NULL;
	return 1;
}

int cmd_run_host_wanted(int argc, char **argv)
{
	const char *v;

	for (int i = 1; i < argc; i++)
		if (is_opt(argv[i], "--runner", &v) || is_opt(argv[i], "--host-qmp", &v))
			return 1;
	return 0;
}

/* Take ours (and the outputs, which are redone for the runner) out of @argv. */
static int parse(struct run_host *h, int argc, char **argv, struct err *e)
{
	static const char *const ours[] = { "--runner", "--host-qmp", "--output", "--output-format" };
	const char **dst[] = { &h->runner, &h->host_qmp, &h->output, &h->formats };

	h->args = calloc((size_t)argc + 3, sizeof(*h->args));
	if (!h->args)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	for (int i = 1; i < argc; i++) {
		const char *v = NULL;
		size_t k;

		for (k = 0; k < 4 && !is_opt(argv[i], ours[k], &v); k++)
			;
		if (k == 4 && argv[i][0] == '-' && argv[i][1] == 'o') {
			k = 2;	/* fio's -o FILE, -oFILE */
			v = argv[i][2] ? argv[i] + 2 : NULL;
		}
		if (k == 4 && !strcmp(argv[i], "--minimal")) {
			h->formats = "terse";
			continue;
		}
		if (k == 4) {
			h->args[h->nargs++] = argv[i];
			continue;
		}
		if (!v)
			v = i + 1 < argc ? argv[++i] : NULL;
		if (!v || !*v)
			return err_set(e, -EINVAL, EXIT_USAGE, "%s needs a value", ours[k]);
		*dst[k] = v;
	}
	if (h->host_qmp && hostview_cfg_parse(h->host_qmp, h->host_buf, sizeof(h->host_buf),
					      &h->host, e))
		return -EINVAL;
	if (!h->runner)
		return err_set(e, -EINVAL, EXIT_USAGE, "--host-qmp needs --runner: the run must run in "
			       "the guest whose QEMU the socket is (--runner=CMD runs iotrial there; "
			       "docs/vm.md)");
	if (mpienv_launched())
		return err_set(e, -EINVAL, EXIT_USAGE, "--runner%s under an MPI launcher: the run is "
			       "driven from one host, into its guest (docs/vm.md)",
			       h->host_qmp ? " and --host-qmp" : "");
	return 0;
}

/* Is @fmt among the comma-separated @list? */
static int has_format(const char *list, const char *fmt)
{
	size_t n = strlen(fmt);

	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, fmt, n) && (!p[n] || p[n] == ','))
			return 1;
	return 0;
}

static void tick(void *arg)
{
	struct run_host *h = arg;

	if (h->have_hs)	/* a failure is said once, after the run */
		hostview_series_tick(&h->hs, NULL);
}

static int signalled(void *arg, double s)
{
	struct run_host *h = arg;
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
	int sig;

	while ((sig = sigtimedwait(&h->sigs, NULL, &ts)) < 0 && errno == EINTR)
		;
	return sig > 0 ? sig : 0;
}

/* A whole file into a new string (*@len bytes); NULL when missing or empty. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	*len = 0;
	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) &&
	    (buf = malloc((size_t)n + 1))) {
		*len = fread(buf, 1, (size_t)n, f);
		buf[*len] = '\0';
	}
	fclose(f);
	if (buf && !*len) {
		free(buf);
		buf = NULL;
	}
	return buf;
}

/* Where the JSON document starts: its first line that begins with '{' (text formats before). */
static char *json_start(char *buf)
{
	for (char *p = buf; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (*p == '{')
			return p;
	return NULL;
}

/* The host's view sampled through the run: the runner's exit code. */
static int run(struct run_host *h, const char *fmts)
{
	struct runner_wait w = { .tick = tick, .signalled = signalled, .arg = h,
				 .child_mask = &h->child_mask, .log = NULL, .out = h->out };
	char *fmt_arg = NULL, *out_arg = NULL;
	struct err e;
	int rc;

	if (asprintf(&fmt_arg, "--output-format=%s", fmts) < 0 ||
	    asprintf(&out_arg, "--output=%s", h->res) < 0) {
		free(fmt_arg);
		return EXIT_INTERNAL;
	}
	err_clear(&e);
	if (h->host_qmp) {
		/* before the output arguments: the period is the run's series_interval */
		if (hostview_series_start(&h->hs, &h->host, trial_host_period(h->args, h->nargs), &e))
			fprintf(stderr, "iotrial: warning: --host-qmp: no sample before the run: %s; "
				"the run goes on without the host's view\n", e.msg);
		else
			h->have_hs = 1;
	}
	h->args[h->nargs++] = fmt_arg;
	h->args[h->nargs++] = out_arg;
	rc = runner_run(h->runner, h->args, h->nargs, &w);
	h->nargs -= 2;
	free(fmt_arg);
	free(out_arg);
	return rc;
}

/*
 * The runner's result (its --output file, else one document on its
 * stdout) into *@doc and the text formats before it into *@text; anything
 * else it printed on stdout goes to stderr.  0 or -errno with @e filled.
 */
static int take_result(struct run_host *h, int rc, char **text, json_t **doc, struct err *e)
{
	size_t rlen, olen;
	char *res = slurp(h->res, &rlen), *so = slurp(h->out, &olen), *js;
	json_error_t je;

	if (!res && !rc && so && json_start(so)) {
		res = so;	/* a runner that printed it: its stdout is the result */
		so = NULL;
	}
	if (so) {
		fputs(so, stderr);
		free(so);
	}
	*text = res;
	*doc = NULL;
	if (!res || !(js = json_start(res)))
		return err_set(e, -ENOENT, rc == 127 ? EXIT_USAGE : rc > 0 && rc < 128 ? rc :
			       rc ? EXIT_INTERNAL : EXIT_USAGE, "the runner (%s) exited with %d and left "
			       "no JSON result (in --output=FILE, or on its stdout)", h->runner, rc);
	*doc = json_loads(js, 0, &je);
	if (!*doc)
		return err_set(e, -EPROTO, EXIT_USAGE, "the runner's result is not JSON: line %d: %s",
			       je.line, je.text);
	*js = '\0';	/* the text formats, before it */
	return 0;
}

/* The result as the user asked: the text formats, the host's lines, the JSON. */
static int write_out(const struct run_host *h, const char *text, json_t *doc, int want_json,
		     int want_normal, struct err *e)
{
	const json_t *host = json_object_get(json_object_get(doc, "iotrial"), "host");
	struct outfile of;

	if (outfile_open(&of, h->output && strcmp(h->output, "-") ? h->output : NULL, e))
		return -EIO;
	fputs(text, of.f);
	if (want_normal && host)
		report_host_text(of.f, host);
	if (want_json && (json_dumpf(doc, of.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
				     JSON_REAL_PRECISION(15)) || fputc('\n', of.f) == EOF)) {
		outfile_abort(&of);
		return err_set(e, -EIO, EXIT_OUTPUT, "cannot write the result");
	}
	return outfile_commit(&of, e) ? -EIO : 0;
}

static void cleanup(struct run_host *h)
{
	if (h->res[0])
		unlink(h->res);
	if (h->out[0])
		unlink(h->out);
	if (h->dir[0])
		rmdir(h->dir);
	if (h->have_hs)
		hostview_series_free(&h->hs);
	free(h->args);
}

int cmd_run_host(int argc, char **argv)
{
	struct run_host h;
	const char *tmp = getenv("TMPDIR");
	char *fmts = NULL, *text = NULL;
	int rc, want_json, want_normal;
	json_t *doc = NULL;
	struct err e;

	memset(&h, 0, sizeof(h));
	err_clear(&e);
	if (parse(&h, argc, argv, &e))
		goto fail;
	want_json = has_format(h.formats, "json") || has_format(h.formats, "json+");
	want_normal = !h.formats || has_format(h.formats, "normal");
	if (asprintf(&fmts, "%s%s", h.formats ? h.formats : "normal", want_json ? "" : ",json") < 0) {
		err_set(&e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		goto fail;
	}
	snprintf(h.dir, sizeof(h.dir), "%.*s/iotrial-run-XXXXXX", PATH_MAX - 32,
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(h.dir)) {
		err_set(&e, -errno, EXIT_OUTPUT, "cannot make a directory %s: %s", h.dir, strerror(errno));
		h.dir[0] = '\0';
		goto fail;
	}
	snprintf(h.res, sizeof(h.res), "%s/result", h.dir);
	snprintf(h.out, sizeof(h.out), "%s/stdout", h.dir);
	/* main holds SIGINT/SIGTERM: one is passed on to the runner, which ends early */
	sigemptyset(&h.sigs);
	sigaddset(&h.sigs, SIGINT);
	sigaddset(&h.sigs, SIGTERM);
	sigprocmask(SIG_BLOCK, NULL, &h.child_mask);
	sigdelset(&h.child_mask, SIGINT);
	sigdelset(&h.child_mask, SIGTERM);
	rc = run(&h, fmts);
	if (h.have_hs) {
		hostview_series_end(&h.hs, NULL);
		if (h.hs.lost && h.hs.n < 2)
			fprintf(stderr, "iotrial: warning: --host-qmp: no sample after the run: %s; the "
				"result is kept without the host's view\n", h.hs.lost_msg);
	}
	if (take_result(&h, rc, &text, &doc, &e))
		goto fail;
	if (h.have_hs && !(h.hs.lost && h.hs.n < 2)) {
		struct err je;

		err_clear(&je);
		if (trial_host_join_doc(doc, "the runner's result", &h.hs, &je))
			fprintf(stderr, "iotrial: warning: --host-qmp: %s; the result is kept without "
				"the host's view\n", je.msg);
		else if (h.hs.lost)
			fprintf(stderr, "iotrial: warning: --host-qmp: the socket went away mid-run "
				"(%s); the host's view keeps the %zu samples taken before\n",
				h.hs.lost_msg, h.hs.n);
	}
	if (write_out(&h, text, doc, want_json, want_normal, &e))
		goto fail;
	json_decref(doc);
	free(text);
	free(fmts);
	cleanup(&h);
	/* 127: the runner could not be started */
	return rc == 127 ? EXIT_USAGE : rc;
fail:
	fprintf(stderr, "iotrial: error: %s\n", e.msg);
	json_decref(doc);
	free(text);
	free(fmts);
	cleanup(&h);
	return e.exit_code ? e.exit_code : EXIT_INTERNAL;
}
