/*
 * cmdline: argv to jobs and process settings (rules in cmdline.h).
 *
 * Process options (--output, --parse-only, ...) are recognised here; every
 * other --option goes to the option table through opt_set(), so the command
 * line and job files accept exactly the same job options.
 */
#include "parse/cmdline.h"
#include "lib/suggest.h"

#include <errno.h>	/* EINVAL, ENOMEM, EPERM, ERANGE */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* realloc, free */
#include <string.h>	/* strcmp, strchr, strdup, strncmp */
#include "parse/jobfile.h"
#include "lib/vec.h"
#include "model/num.h"
#include "parse/opt.h"
#include "parse/preset.h"
#include "io/engine.h"	/* engine_find, engine_takes: the job's engine's rows */

#define CL_WHERE "command line"

struct cl_state {
	struct cmdline *cl;
	struct err *e;
	struct job global;	/* the defaults: options before --name, --name=global */
	struct job job;		/* the --name=X job being read */
	struct job *cur;	/* where options go: &global or &job */
};

static int cl_nomem(struct err *e)
{
	return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
}

/* Append a copy of @s to a string array. */
static int cl_push_str(char ***arr, size_t *nr, const char *s)
{
	char **n = realloc(*arr, (*nr + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	*arr = n;
	n[*nr] = strdup(s);
	if (!n[*nr])
		return -ENOMEM;
	(*nr)++;
	return 0;
}

/* Move a job into cl->jobs (ownership passes; @j is zeroed). */
static int cl_push_job(struct cmdline *cl, struct job *j)
{
	if (vec_grow((void **)&cl->jobs, &cl->jobs_cap, cl->jobs_nr + 1, sizeof(*cl->jobs), 16))
		return -ENOMEM;
	cl->jobs[cl->jobs_nr++] = *j;
	memset(j, 0, sizeof(*j));
	return 0;
}

/* Move @n typed options to the end of cl->globals. */
static int cl_take_kv(struct cmdline *cl, struct job_kv *kv, size_t nr)
{
	size_t i;

	if (!nr)
		return 0;
	if (vec_grow((void **)&cl->globals, &cl->globals_cap, cl->globals_nr + nr,
		     sizeof(*cl->globals), 16))
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		cl->globals[cl->globals_nr++] = kv[i];
	return 0;
}

/* The --name job being read is complete. */
static int cl_finish_job(struct cl_state *s)
{
	if (s->cur != &s->job)
		return 0;
	if (s->cl->jobs_nr >= JOBFILE_JOBS_MAX)	/* s->job is freed by cmdline_parse */
		return err_set(s->e, -E2BIG, EXIT_USAGE, "job '%s' (" CL_WHERE "): more than %d jobs "
			       "(the limit)", s->job.name, JOBFILE_JOBS_MAX);
	s->cur = &s->global;
	if (cl_push_job(s->cl, &s->job))
		return cl_nomem(s->e);
	return 0;
}

static int cl_start(struct cl_state *s, const char *name)
{
	int ret = cl_finish_job(s);

	if (ret)
		return ret;
	if (!name || !*name)
		return err_set(s->e, -EINVAL, EXIT_USAGE, "option 'name' requires an argument (" CL_WHERE ")");
	if (!strcmp(name, "global")) {
		s->cur = &s->global;
		return 0;
	}
	if (job_copy(&s->job, &s->global))
		return cl_nomem(s->e);
	job_kv_clear(&s->job);
	snprintf(s->job.origin, sizeof(s->job.origin), CL_WHERE);
	s->cur = &s->job;
	return opt_set(&s->job, "name", name, CL_WHERE, s->e);
}

static int cl_formats(struct cmdline *cl, const char *val, struct err *e)
{
	static const struct { const char *name; unsigned bit; } fmts[] = {
		{ "normal", CMDLINE_FMT_NORMAL }, { "terse", CMDLINE_FMT_TERSE },
		{ "json", CMDLINE_FMT_JSON }, { "json+", CMDLINE_FMT_JSONPLUS },
		{ "summary", CMDLINE_FMT_SUMMARY },
	};
	const char *p = val, *end;
	size_t n, i;
	unsigned bits = 0;

	do {
		end = strchr(p, ',');
		n = end ? (size_t)(end - p) : strlen(p);
		for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
			if (strlen(fmts[i].name) == n && !strncmp(fmts[i].name, p, n))
				break;
		if (i == sizeof(fmts) / sizeof(fmts[0]))
			return err_set(e, -EINVAL, EXIT_USAGE,
				       "unknown output format '%.*s' (normal, terse, json, json+, summary)", (int)n, p);
		bits |= fmts[i].bit;
		p = end ? end + 1 : NULL;
	} while (p);
	cl->formats = bits;
	return 0;
}

static int cl_eta(struct cmdline *cl, const char *val, struct err *e)
{
	if (!strcmp(val, "auto"))
		cl->eta = CMDLINE_ETA_AUTO;
	else if (!strcmp(val, "always"))
		cl->eta = CMDLINE_ETA_ALWAYS;
	else if (!strcmp(val, "never"))
		cl->eta = CMDLINE_ETA_NEVER;
	else
		return err_set(e, -EINVAL, EXIT_USAGE, "invalid value '%s' for option 'eta': not one of auto, always, never",
			       val);
	return 0;
}

/* A process time (--status-interval, --eta-newline): bare seconds, 1ms at least as in fio. */
static int cl_time(const char *name, const char *val, uint64_t *out_us, struct err *e)
{
	struct num_ctx c = { .kb_base = 1024, .opt = name, .where = CL_WHERE };
	uint64_t us;
	int ret = num_parse_time(val, &c, 1000000, &us, e);

	if (ret)
		return ret;
	if (us < 1000)
		return num_error(e, &c, -ERANGE, val, "below the minimum 1ms");
	*out_us = us;
	return 0;
}

/* A process option's value: after '=' or the next argument. */
static const char *cl_value(int argc, char **argv, int *i, const char *val)
{
	if (val)
		return val;
	if (*i + 1 < argc && argv[*i + 1][0] != '-')
		return argv[++*i];
	return NULL;
}

enum { CL_NOT_MINE = 1, CL_STOP = 2 };

/* --idle-prof=system|percpu|calibrate (measure/idleprof.h); calibrate stops parsing. */
static int cl_idle_prof(struct cmdline *cl, const char *val, struct err *e)
{
	if (!strcmp(val, "system"))
		cl->idle_prof = IDLEPROF_SYSTEM;
	else if (!strcmp(val, "percpu"))
		cl->idle_prof = IDLEPROF_PERCPU;
	else if (!strcmp(val, "calibrate"))
		return cl->idle_prof = IDLEPROF_CALIBRATE, CL_STOP;
	else
		return err_set(e, -EINVAL, EXIT_USAGE, "invalid value '%s' for option 'idle-prof': "
			       "not one of system, percpu, calibrate (" CL_WHERE ")", val);
	return 0;
}

#define CL_MPI "to drive many hosts, run iotrial under mpirun (its MPI mode)"

/*
 * fio's process options: what --help lists and what the parser knows, one
 * list.  @arg: 0 none, 1 required, 2 optional.  @refused: why iotrial turns
 * the option down (with the nearest thing it has); such rows are known, so a
 * prefix resolves to them and the refusal names them, but --help omits them.
 * @own: iotrial's, not on fio's list, so it never makes a prefix that fio
 * resolves ambiguous (cl_resolve_prefix).
 */
static const struct cl_popt {
	const char *name;
	int arg;
	const char *metavar;
	const char *help;
	const char *refused;
	int own;
} cl_popts[] = {
	{ "output", 1, "FILE", "write results to FILE instead of stdout (also -o FILE)", NULL, 0 },
	{ "output-format", 1, "LIST", "normal, terse, json, json+, summary (comma-separated)", NULL, 0 },
	{ "minimal", 0, NULL, "terse output (the same as --output-format=terse)", NULL, 0 },
	{ "terse-version", 1, "N", "terse output version 2, 3 (default), 4 or 5", NULL, 0 },
	{ "parse-only", 0, NULL, "check the jobs and exit", NULL, 0 },
	{ "showcmd", 0, NULL, "print each job as a command line with resolved values", NULL, 0 },
	{ "readonly", 0, NULL, "refuse any job that writes or trims", NULL, 0 },
	{ "allow-output-device", 0, NULL, "let --output, --status-output or a log be a block device", NULL,
	  1 },
	{ "status-interval", 1, "TIME", "a status line every TIME (bare number: seconds)", NULL, 0 },
	{ "status-output", 1, "FILE", "write the status lines to FILE, one JSON object each", NULL, 1 },
	{ "eta", 1, "WHEN", "when to print the ETA line: auto, always or never", NULL, 0 },
	{ "eta-newline", 1, "TIME", "start a new ETA line every TIME (bare number: seconds)", NULL, 0 },
	{ "eta-interval", 1, "TIME", "refresh the ETA line's rates every TIME (default 1s, at least "
	  "250ms)", NULL, 0 },
	{ "append-terse", 2, NULL, "add terse output to the other formats (a value is ignored, as "
	  "in fio)", NULL, 0 },
	{ "section", 1, "NAME", "run only job sections NAME of the job files", NULL, 0 },
	{ "preset", 1, "NAME", "run a built-in job set (preset list); typed job options win", NULL, 1 },
	{ "set", 1, "KEY=VALUE", "set a job option in every job, over what the command line and "
	  "job files say (iotrial ab's --a/--b)", NULL, 1 },
	{ "history", 2, "FILE", "store the run in the results history (docs/history.md)", NULL, 1 },
	{ "cmdhelp", 2, "OPTION", "describe the job options (or one of them)", NULL, 0 },
	{ "warnings-fatal", 0, NULL, "accepted: iotrial's parser warnings are always fatal", NULL, 0 },
	{ "alloc-size", 1, "KB", "accepted and ignored: iotrial has no shared memory pool", NULL, 0 },
	{ "max-jobs", 1, "N", "accepted and ignored: fio 3.33 sizes shared memory with it, no limit", NULL, 0 },
	{ "aux-path", 1, "DIR", "where verify state files and verify_dump files go (default: .)", NULL, 0 },
	{ "version", 0, NULL, "print the fio version iotrial follows, and iotrial's (also -v)", NULL, 0 },
	{ "help", 0, NULL, "this text (also -h)", NULL, 0 },
	{ "client", 1, NULL, NULL, "fio's client/server mode is not supported; " CL_MPI, 0 },
	{ "server", 2, NULL, NULL, "fio's client/server mode is not supported; " CL_MPI, 0 },
	{ "daemonize", 1, NULL, NULL, "fio's client/server mode is not supported; " CL_MPI, 0 },
	{ "remote-config", 1, NULL, NULL, "fio's client/server mode is not supported; " CL_MPI, 0 },
	{ "bandwidth-log", 0, NULL, "write the run's bandwidth every 500 ms to agg-{read,write,trim}_bw.log "
	  "(also -b)", NULL, 0 },
	{ "idle-prof", 1, "system|percpu|calibrate", "profile each CPU's idleness during the run "
	  "(calibrate: only measure the unit of work, and exit)", NULL, 0 },
	{ "debug", 1, "parse,random,zbd", "fio's traces: each option parsed, each job's random "
	  "seeds (zbd: accepted, no trace)", NULL, 0 },
	{ "enghelp", 2, NULL, NULL, "use --cmdhelp (engine options are listed there)", 0 },
	{ "crctest", 2, NULL, NULL, "checksum speed tests are not supported", 0 },
	{ "cpuclock-test", 0, NULL, NULL, "not supported (the JSON records the clock source)", 0 },
	{ "memcpytest", 2, NULL, NULL, "memory copy speed tests are not supported", 0 },
	{ "latency-log", 1, NULL, NULL, "fio no longer has it either: use write_lat_log", 0 },
	{ "profile", 1, NULL, NULL, "fio's built-in profiles are not supported; iotrial's job "
	  "sets are --preset (iotrial preset list)", 0 },
	{ "merge-blktrace-only", 0, NULL, NULL, "blktrace replay is not supported", 0 },
	{ "inflate-log", 1, "FILE", "print a log_store_compressed log (.fz) as text, and exit", NULL, 0 },
	{ "trigger-file", 1, NULL, NULL, "triggers are not supported", 0 },
	{ "trigger-timeout", 1, NULL, NULL, "triggers are not supported", 0 },
	{ "trigger", 1, NULL, NULL, "triggers are not supported", 0 },
	{ "trigger-remote", 1, NULL, NULL, "triggers are not supported", 0 },
};

#define CL_POPTS_NR (sizeof(cl_popts) / sizeof(cl_popts[0]))

static const struct cl_popt *cl_popt_find(const char *name)
{
	size_t k;

	for (k = 0; k < CL_POPTS_NR; k++)
		if (!strcmp(cl_popts[k].name, name))
			return &cl_popts[k];
	return NULL;
}

void cmdline_help(FILE *f)
{
	char left[64];
	size_t k;

	for (k = 0; k < CL_POPTS_NR; k++) {
		const struct cl_popt *p = &cl_popts[k];
		int shown = p->arg && p->metavar;	/* append-terse: a value fio never reads */

		if (p->refused)
			continue;
		snprintf(left, sizeof(left), "--%s%s%s%s%s", p->name,
			 shown && p->arg == 2 ? "[" : "", shown ? "=" : "", shown ? p->metavar : "",
			 shown && p->arg == 2 ? "]" : "");
		fprintf(f, "  %-24s %s\n", left, p->help);
	}
}

/* Process options.  Returns 0, CL_NOT_MINE, CL_STOP (help/version) or -errno. */
static int cl_process_opt(struct cmdline *cl, const char *name, const char *val, int argc,
			  char **argv, int *i, struct err *e)
{
	const struct cl_popt *p = cl_popt_find(name);

	if (!p)
		return CL_NOT_MINE;
	if (p->refused)
		return err_set(e, -EINVAL, EXIT_USAGE, "unsupported option '--%s': %s (" CL_WHERE ")",
			       name, p->refused);
	if (p->arg == 1) {
		val = cl_value(argc, argv, i, val);
		if (!val || !*val)
			return err_set(e, -EINVAL, EXIT_USAGE, "option '%s' requires an argument (" CL_WHERE ")",
				       name);
	} else if (p->arg == 0 && val) {
		return err_set(e, -EINVAL, EXIT_USAGE, "option '%s' takes no value (" CL_WHERE ")", name);
	}
	if (!strcmp(name, "output")) {
		free(cl->output);
		cl->output = strdup(val);
		return cl->output ? 0 : cl_nomem(e);
	}
	if (!strcmp(name, "output-format"))
		return cl_formats(cl, val, e);
	if (!strcmp(name, "status-output")) {
		free(cl->status_output);
		cl->status_output = strdup(val);
		return cl->status_output ? 0 : cl_nomem(e);
	}
	if (!strcmp(name, "status-interval"))
		return cl_time(name, val, &cl->status_interval_us, e);
	if (!strcmp(name, "eta-newline")) {
		cl->eta_newline = 1;
		return cl_time(name, val, &cl->eta_newline_us, e);
	}
	if (!strcmp(name, "eta"))
		return cl_eta(cl, val, e);
	if (!strcmp(name, "eta-interval")) {
		int r = cl_time(name, val, &cl->eta_interval_us, e);

		/* fio's floor: its disk statistics are taken every 250 ms */
		if (!r && cl->eta_interval_us < 250000)
			r = err_set(e, -ERANGE, EXIT_USAGE, "invalid value '%s' for option "
				    "'eta-interval': below the minimum 250ms (" CL_WHERE ")", val);
		return r;
	}
	if (!strcmp(name, "append-terse")) {	/* fio: terse added, its value unread */
		cl->formats |= CMDLINE_FMT_TERSE;
		return 0;
	}
	if (!strcmp(name, "idle-prof"))
		return cl_idle_prof(cl, val, e);
	if (!strcmp(name, "history")) {	/* a bare --history: the default file */
		cl->history = 1;
		free(cl->history_file);
		cl->history_file = val && *val ? strdup(val) : NULL;
		return !val || !*val || cl->history_file ? 0 : cl_nomem(e);
	}
	if (!strcmp(name, "inflate-log")) {
		free(cl->inflate_log);
		cl->inflate_log = strdup(val);
		return cl->inflate_log ? CL_STOP : cl_nomem(e);
	}
	if (!strcmp(name, "bandwidth-log")) {
		cl->bandwidth_log = 1;
		return 0;
	}
	if (!strcmp(name, "aux-path")) {
		free(cl->aux_path);
		cl->aux_path = strdup(val);
		return cl->aux_path ? 0 : cl_nomem(e);
	}
	if (!strcmp(name, "preset")) {
		free(cl->preset);
		cl->preset = strdup(val);
		return cl->preset ? 0 : cl_nomem(e);
	}
	if (!strcmp(name, "set")) {
		if (val[0] == '=')
			return err_set(e, -EINVAL, EXIT_USAGE, "--set=%s: expected KEY=VALUE or a flag's "
				       "KEY (" CL_WHERE ")", val);
		return cl_push_str(&cl->sets, &cl->sets_nr, val) ? cl_nomem(e) : 0;
	}
	if (!strcmp(name, "section")) {
		char *buf = strdup(val), *tok, *save = NULL;	/* any length: never cut */

		if (!buf)
			return cl_nomem(e);
		for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			if (cl_push_str(&cl->sections, &cl->sections_nr, tok)) {
				free(buf);
				return cl_nomem(e);
			}
		free(buf);
		return 0;
	}
	if (!strcmp(name, "terse-version")) {
		if (strlen(val) != 1 || val[0] < '0' + CMDLINE_TERSE_MIN || val[0] > '0' + CMDLINE_TERSE_MAX)
			return err_set(e, -EINVAL, EXIT_USAGE,
				       "invalid value '%s' for option 'terse-version': fio writes 2, 3, 4 or 5 ("
				       CL_WHERE ")", val);
		cl->terse_version = val[0] - '0';
		return 0;
	}
	if (!strcmp(name, "minimal")) {
		cl->formats = CMDLINE_FMT_TERSE;
		return 0;
	}
	/*
	 * debug: fio has about twenty trace classes; of them 'parse' (each
	 * option as it is handled, and steady state's parsed threshold, which
	 * fio's steadystate tests read) and 'random' (each job's seeds, as
	 * newer fio prints them; fio's random_seed test reads them) say
	 * something iotrial can say truly without tracing every I/O.  'zbd' is
	 * taken and prints nothing: fio's t/zbd/test-zbd-support passes it to
	 * many cases and reads none of it (only "Assertion"/"Aborted" lines),
	 * and its trace is per I/O, which iotrial does not format.
	 */
	if (!strcmp(name, "debug")) {
		char *buf = strdup(val), *tok, *save = NULL;
		int ret;

		if (!buf)
			return cl_nomem(e);
		for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			if (!strcmp(tok, "parse")) {
				cl->debug_parse = 1;
			} else if (!strcmp(tok, "random")) {
				cl->debug_random = 1;
			} else if (!strcmp(tok, "zbd")) {
				continue;
			} else {
				ret = err_set(e, -EINVAL, EXIT_USAGE, "unsupported value '%s' for option "
					      "'debug': only fio's 'parse', 'random' and 'zbd' traces are supported ("
					      CL_WHERE ")", tok);
				free(buf);
				return ret;
			}
		}
		free(buf);
		return 0;
	}
	if (!strcmp(name, "parse-only"))
		cl->parse_only = 1;
	else if (!strcmp(name, "showcmd"))
		cl->showcmd = 1;
	else if (!strcmp(name, "readonly"))
		cl->readonly = 1;
	else if (!strcmp(name, "allow-output-device"))
		cl->allow_output_device = 1;
	else if (!strcmp(name, "version"))
		return cl->version = 1, CL_STOP;
	else if (!strcmp(name, "help"))
		return cl->help = 1, CL_STOP;
	else if (!strcmp(name, "cmdhelp")) {
		cl->cmdhelp = 1;
		if (val && *val && !(cl->cmdhelp_opt = strdup(val)))
			return cl_nomem(e);
		return CL_STOP;
	}
	/*
	 * max-jobs: fio 3.33 sizes its shared memory segments with it and grows
	 * them past it (measured: --max-jobs=2 runs 3 jobs), so it limits
	 * nothing; fio's own test runner passes it to every job.  A number is
	 * still required, so that a typo is not silently taken.
	 */
	if (!strcmp(name, "max-jobs")) {
		const char *c = val;

		while (*c >= '0' && *c <= '9')
			c++;
		if (*c || c == val)
			return err_set(e, -EINVAL, EXIT_USAGE,
				       "invalid value '%s' for option 'max-jobs': not a number (" CL_WHERE ")",
				       val);
	}
	/* warnings-fatal, alloc-size, max-jobs: nothing to do */
	return 0;
}

/*
 * Is row @o on fio's command-line list when the job's engine is @ops?  fio
 * lists every job option with its alias and, from a job's first option on,
 * the options of that job's engine; iotrial's own rows, other engines' rows
 * and the options of fio engines iotrial lacks are not there.
 */
static int cl_fio_row(const struct opt_def *o, const struct engine_ops *ops)
{
	if (o->flags & (OPT_F_IOTRIAL | OPT_F_FOREIGN))
		return 0;
	return !engine_opt_owner(o, 0) || engine_takes(ops, o);
}

/* The names a prefix matched, in list order, for the ambiguity message. */
struct cl_match {
	size_t hits;
	const char *hit;
	char list[320];
	size_t pos;
};

/* Did @m already count @cand?  (fio's list names it once; iotrial may have a row and a process option.) */
static int cl_match_has(const struct cl_match *m, const char *cand)
{
	size_t n = strlen(cand);

	for (const char *p = m->list; (p = strstr(p, cand)) != NULL; p += n)
		if (p >= m->list + 2 && p[-1] == '-' && p[-2] == '-' && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

static void cl_match(struct cl_match *m, const char *cand, const char *name, size_t n)
{
	int w;

	if (!cand || strncmp(cand, name, n) || cl_match_has(m, cand))
		return;
	m->hits++;
	m->hit = cand;
	if (m->pos >= sizeof(m->list))
		return;
	w = snprintf(m->list + m->pos, sizeof(m->list) - m->pos, "%s--%s", m->hits > 1 ? ", " : "",
		     cand);
	m->pos += (size_t)w;
	if (m->pos >= sizeof(m->list))	/* cut: say so rather than end mid-name */
		strcpy(m->list + sizeof(m->list) - sizeof(", ..."), ", ...");
}

static int cl_ambiguous(const char *name, const struct cl_match *m, struct err *e)
{
	return err_set(e, -EINVAL, EXIT_USAGE, "ambiguous option '--%s': the start of %zu options: %s ("
		       CL_WHERE ")", name, m->hits, m->list);
}

/*
 * fio reads its command line with getopt_long_only: a long option may be cut
 * to any prefix; an exact name wins, and a prefix of two or more names is an
 * error, even when they mean the same (long_only mode).  fio's list is its
 * process options, every job option with its alias, and the options of the
 * engine of the job being read (cl_fio_row).  An exact name of iotrial's
 * wins; otherwise iotrial resolves @name (in place, to the full name) over
 * fio's list first, so a prefix means what it means to fio; only a prefix of
 * no name on it goes on to iotrial's own options and the rows of other
 * engines (whose refusal then names them).  0 when it resolves or matches
 * nothing (opt_set then names it as unknown); -EINVAL when ambiguous.
 */
static int cl_resolve_prefix(const struct cl_state *s, char *name, size_t size, struct err *e)
{
	const struct engine_ops *ops = engine_find(s->cur->ioengine ? s->cur->ioengine :
						   JOB_IOENGINE_DEFAULT);
	const struct cl_popt *p = cl_popt_find(name);
	const struct opt_def *o = opt_find(name);
	struct cl_match fio = { 0 }, own = { 0 };
	struct opt_iter it = { 0 };
	size_t k, n = strlen(name);
	const struct cl_match *m;

	if (p || o)	/* an exact name wins, as in getopt */
		return 0;
	for (k = 0; k < CL_POPTS_NR; k++)
		cl_match(cl_popts[k].own ? &own : &fio, cl_popts[k].name, name, n);
	while ((o = opt_next(&it)) != NULL) {
		struct cl_match *to = cl_fio_row(o, ops) ? &fio : &own;

		cl_match(to, o->name, name, n);
		cl_match(to, o->alias[0], name, n);
		cl_match(to, o->alias[1], name, n);
	}
	m = fio.hits ? &fio : &own;
	if (m->hits > 1)
		return cl_ambiguous(name, m, e);
	if (m->hits == 1 && strlen(m->hit) < size)
		strcpy(name, m->hit);
	return 0;
}

/* One "--name[=val]" argument (val may come from the next argument). */
static int cl_dash_arg(struct cl_state *s, const char *arg, int argc, char **argv, int *i)
{
	char name[128];
	const char *eq = strchr(arg, '='), *val = eq ? eq + 1 : NULL;
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct opt_def *o;
	int ret;

	if (n >= sizeof(name) || !n)
		return err_set(s->e, -EINVAL, EXIT_USAGE, "unknown option '--%.60s'", arg);
	memcpy(name, arg, n);
	name[n] = '\0';
	ret = cl_resolve_prefix(s, name, sizeof(name), s->e);
	if (ret)
		return ret;
	ret = cl_process_opt(s->cl, name, val, argc, argv, i, s->e);
	if (ret != CL_NOT_MINE)
		return ret;
	o = opt_find(name);
	/*
	 * fio takes "--opt val" for options that need a value; flags never take
	 * one.  Unlike getopt, "--direct -bs=4k" does not read "-bs=4k" as
	 * direct's value: no value starts with "-", so that is a missing value.
	 */
	if (!val && o && o->type != OPT_FLAG && o->type != OPT_UNSUPPORTED &&
	    !(o->flags & OPT_F_OPTVAL) && *i + 1 < argc && argv[*i + 1][0] != '-')
		val = argv[++*i];
	if (!strcmp(name, "name"))
		return cl_start(s, val);
	return opt_set(s->cur, name, val, CL_WHERE, s->e);
}

/*
 * A single-dash argument.  getopt_long_only first reads "-name=x" as a long
 * option (full or unique prefix); only when none matches is it a short one:
 * fio's -o FILE (--output), -v (--version) and -h (--help).
 */
static int cl_single_dash(struct cl_state *s, const char *arg, int argc, char **argv, int *i)
{
	char name[128];
	const char *eq = strchr(arg + 1, '=');
	size_t n = eq ? (size_t)(eq - arg - 1) : strlen(arg + 1), k;
	struct opt_iter it = { 0 };
	const struct opt_def *o;
	int ret, long_hit = 0;

	if (n < sizeof(name)) {
		memcpy(name, arg + 1, n);
		name[n] = '\0';
		if (cl_popt_find(name) || opt_find(name))
			long_hit = 1;
		for (k = 0; !long_hit && k < CL_POPTS_NR; k++)
			long_hit = !strncmp(cl_popts[k].name, name, n);
		while (!long_hit && (o = opt_next(&it)) != NULL)
			long_hit = !strncmp(o->name, name, n) ||
				   (o->alias[0] && !strncmp(o->alias[0], name, n)) ||
				   (o->alias[1] && !strncmp(o->alias[1], name, n));
		/* a lone short letter is a short option even when long names start with it */
		if (long_hit && !(n == 1 && strchr("ovhb", name[0]) && !cl_popt_find(name) &&
				  !opt_find(name)))
			return cl_dash_arg(s, arg + 1, argc, argv, i);
	}
	if (arg[1] == 'o') {
		const char *val = arg[2] ? arg + 2 : (*i + 1 < argc ? argv[++*i] : NULL);

		if (!val || !*val)
			return err_set(s->e, -EINVAL, EXIT_USAGE,
				       "option '-o' requires an argument (" CL_WHERE ")");
		ret = cl_process_opt(s->cl, "output", val, argc, argv, i, s->e);
		return ret;
	}
	if (!strcmp(arg, "-b"))
		return cl_process_opt(s->cl, "bandwidth-log", NULL, argc, argv, i, s->e);
	if (!strcmp(arg, "-v"))
		return cl_process_opt(s->cl, "version", NULL, argc, argv, i, s->e);
	if (!strcmp(arg, "-h"))
		return cl_process_opt(s->cl, "help", NULL, argc, argv, i, s->e);
	return err_set(s->e, -EINVAL, EXIT_USAGE, "unknown option '%s'", arg);
}

/* Read argv into jobs, globals, files and process settings. */
static int cl_args(struct cl_state *s, int argc, char **argv)
{
	const char *arg;
	int i, ret;

	for (i = 1; i < argc; i++) {
		arg = argv[i];
		if (!strncmp(arg, "--", 2)) {
			ret = cl_dash_arg(s, arg + 2, argc, argv, &i);
			if (ret)
				return ret;
		} else if (arg[0] == '-' && arg[1]) {
			ret = cl_single_dash(s, arg, argc, argv, &i);
			if (ret)
				return ret;
		} else if (cl_push_str(&s->cl->files, &s->cl->files_nr, arg)) {
			return cl_nomem(s->e);
		}
	}
	return cl_finish_job(s);
}

/*
 * --preset: the preset rendered with the command-line options (cl->globals so
 * far, as typed) appended to each of its jobs, then read as a job file whose
 * jobs start from the command-line globals (precedence in preset.h).
 */
static int cl_preset(struct cl_state *s, struct jobfile_out *out)
{
	struct cmdline *cl = s->cl;
	const struct preset *p;
	char where[64];
	int ret;

	if (cl->jobs_nr || cl->files_nr)
		return err_set(s->e, -EINVAL, EXIT_USAGE,
			       "--preset=%.60s cannot be combined with %s: the preset is the whole "
			       "job list (options typed with it override its own)",
			       cl->preset, cl->jobs_nr ? "--name jobs" : "job files");
	ret = preset_lookup(cl->preset, &p, s->e);
	if (ret)
		return ret;
	ret = preset_render(p, cl->globals, cl->globals_nr, &cl->preset_text, s->e);
	if (ret)
		return ret;
	snprintf(where, sizeof(where), "preset %s", p->name);
	return jobfile_parse_buf(cl->preset_text, strlen(cl->preset_text), where, &s->global,
				 cl->sections, cl->sections_nr, out, s->e);
}

/*
 * --set KEY=VALUE into every job, after the command line and the job files
 * made them: unlike an option typed before a job file (a default the file
 * overrides, as in fio), it wins.  iotrial ab gives --a/--b this way, so a
 * side is what its user typed whatever the job file says.
 */
static int cl_apply_sets(struct cmdline *cl, struct err *e)
{
	size_t i, k;
	int ret;

	for (k = 0; k < cl->sets_nr; k++) {
		char *eq = strchr(cl->sets[k], '=');

		if (eq)
			*eq = 0;
		for (i = 0, ret = 0; i < cl->jobs_nr && !ret; i++)
			ret = opt_set(&cl->jobs[i], cl->sets[k], eq ? eq + 1 : NULL, "--set", e);
		if (eq)
			*eq = '=';
		if (ret)
			return ret;
	}
	return 0;
}

/* suggest_nearest's list: the job sections --section left out. */
static const char *skipped_at(size_t i, const void *ctx)
{
	const struct jobfile_out *out = ctx;

	return i < out->skipped_nr ? out->skipped[i] : NULL;
}

/* No job section matched --section: say so, with the nearest section name. */
static int cl_no_section(struct cl_state *s, const struct jobfile_out *out)
{
	const struct cmdline *cl = s->cl;
	const char *hint = NULL;

	for (size_t i = 0; i < cl->sections_nr && !hint; i++)
		hint = suggest_nearest(cl->sections[i], skipped_at, out);
	return err_set(s->e, -EINVAL, EXIT_USAGE, "no job section matches --section=%s%s%s%s%s",
		       cl->sections[0], cl->sections_nr > 1 ? ",..." : "",
		       hint ? " (did you mean " : "", hint ? hint : "", hint ? "?)" : "");
}

/* Parse the job files, then validate every job. */
static int cl_files_and_validate(struct cl_state *s)
{
	struct cmdline *cl = s->cl;
	struct jobfile_out out = { 0 };
	uint64_t threads = 0;
	size_t i;
	int ret = 0;

	if (cl->preset)
		ret = cl_preset(s, &out);
	for (i = 0; i < cl->files_nr && !ret; i++)
		ret = jobfile_parse(cl->files[i], &s->global, cl->sections, cl->sections_nr, &out, s->e);
	if (!ret && cl->jobs_nr + out.jobs_nr > JOBFILE_JOBS_MAX)
		ret = err_set(s->e, -E2BIG, EXIT_USAGE, "more than %d jobs (the limit): %zu on the "
			      "command line, %zu in job files", JOBFILE_JOBS_MAX, cl->jobs_nr,
			      out.jobs_nr);
	for (i = 0; i < out.jobs_nr && !ret; i++)
		if (cl_push_job(cl, &out.jobs[i]))
			ret = cl_nomem(s->e);
	if (!ret && !cl->jobs_nr && cl->sections_nr)
		ret = cl_no_section(s, &out);
	if (!ret && cl_take_kv(cl, out.globals, out.globals_nr))
		ret = cl_nomem(s->e);
	else if (!ret)
		out.globals_nr = 0;	/* moved */
	jobfile_out_free(&out);
	if (!ret)
		ret = cl_apply_sets(cl, s->e);
	if (ret)
		return ret;
	if (!cl->jobs_nr && cl->parse_only)	/* fio: nothing to check is no error */
		return 0;
	if (!cl->jobs_nr)
		return err_set(s->e, -EINVAL, EXIT_USAGE,
			       "no job given (use --name=NAME or a job file; --help for usage)");
	for (i = 0; i < cl->jobs_nr; i++) {
		struct job *j = &cl->jobs[i];
		char rw[64] = "";

		ret = opt_job_validate(j, s->e);
		if (ret)
			return ret;
		/* each clone is a thread with its own state: the same limit as jobs, as in fio */
		threads += j->numjobs;
		if (threads > JOBFILE_JOBS_MAX)
			return err_set(s->e, -E2BIG, EXIT_USAGE, "job '%s' (%s): numjobs=%u brings the "
				       "threads to more than %d (the limit)", j->name, j->origin,
				       j->numjobs, JOBFILE_JOBS_MAX);
		if (cl->readonly && job_writes(j)) {
			const struct opt_def *o = opt_find("rw");

			o->show(j, o, rw, sizeof(rw));
			return err_set(s->e, -EPERM, EXIT_UNSAFE,
				       "job '%s' (%s) has rw=%s, which writes or trims: refused by --readonly",
				       j->name, j->origin, rw);
		}
	}
	return 0;
}

int cmdline_parse(int argc, char **argv, struct cmdline *cl, struct err *e)
{
	struct cl_state s = { .cl = cl, .e = e };
	int ret;

	memset(cl, 0, sizeof(*cl));
	cl->formats = CMDLINE_FMT_NORMAL;
	cl->terse_version = 3;
	job_init(&s.global);
	snprintf(s.global.origin, sizeof(s.global.origin), CL_WHERE);
	s.cur = &s.global;
	ret = cl_args(&s, argc, argv);
	if (ret == CL_STOP) {
		ret = 0;
		goto out;
	}
	if (ret)
		goto out;
	if (cl->status_output && !cl->status_interval_us) {
		ret = err_set(e, -EINVAL, EXIT_USAGE,
			      "--status-output needs --status-interval (how often to write a line)");
		goto out;
	}
	snprintf(s.global.origin, sizeof(s.global.origin), CL_WHERE);
	ret = opt_engine_owned_check(&s.global, e);	/* the defaults' own engine options */
	if (ret)
		goto out;
	/* the typed globals go to "global options"; jobs from files start without them */
	if (cl_take_kv(cl, s.global.opts, s.global.opts_nr)) {
		ret = cl_nomem(e);
		goto out;
	}
	free(s.global.opts);
	s.global.opts = NULL;
	s.global.opts_nr = 0;
	ret = cl_files_and_validate(&s);
out:
	if (s.cur == &s.job)
		job_free(&s.job);
	job_free(&s.global);
	return ret;
}

void cmdline_free(struct cmdline *cl)
{
	size_t i;

	for (i = 0; i < cl->jobs_nr; i++)
		job_free(&cl->jobs[i]);
	free(cl->jobs);
	for (i = 0; i < cl->globals_nr; i++) {
		free(cl->globals[i].key);
		free(cl->globals[i].val);
	}
	free(cl->globals);
	vec_free_strings(cl->files, cl->files_nr);
	vec_free_strings(cl->sections, cl->sections_nr);
	vec_free_strings(cl->sets, cl->sets_nr);
	free(cl->output);
	free(cl->status_output);
	free(cl->cmdhelp_opt);
	free(cl->preset);
	free(cl->aux_path);
	free(cl->preset_text);
	free(cl->history_file);
	free(cl->inflate_log);
	memset(cl, 0, sizeof(*cl));
}
