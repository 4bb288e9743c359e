/*
 * engine_exec: fio's exec engine.  The job runs program= (looked up in
 * PATH) with arguments= split at spaces, %r replaced by the runtime in whole
 * seconds and %n by the job name, for the job's runtime, so a monitoring
 * tool or a competing load runs beside the other jobs of its group.
 * std_redirect=1 (the default) sends its stdout and stderr to
 * <job>.stdout and <job>.stderr in the current directory; with 0 they are
 * iotrial's own.  The program starts at the job's first I/O; each "I/O" then
 * waits up to 100 ms (fio counts the same ticks: 0 bytes each), and when the
 * job ends a program still running gets SIGTERM, then SIGKILL after
 * grace_time.  A program that ends early does not end the job; its exit
 * status is not an error (fio does the same).  runtime= is required.
 * The argument vector is built at init; the spawn itself allocates (once,
 * at the first I/O, off the per-I/O path).
 */
#include <errno.h>	/* ENOMEM, ENOENT */
#include <fcntl.h>	/* O_WRONLY, O_CREAT, O_TRUNC */
#include <signal.h>	/* kill, SIGTERM, SIGKILL, sigset_t */
#include <spawn.h>	/* posix_spawnp */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* strlen, strerror */
#include <sys/wait.h>	/* waitpid */
#include <time.h>	/* nanosleep, clock_gettime */
#include <unistd.h>	/* access */
#include "io/engine.h"

#define EXEC_PATH_MAX 1024

/* Its options (the rows at the end), in the job's engine area. */
struct exec_opts {
	char program[EXEC_PATH_MAX];
	char arguments[EXEC_PATH_MAX];	/* as given: %r and %n expanded at init */
	uint64_t grace_time_us;		/* SIGTERM to SIGKILL */
	int std_redirect;		/* stdout/stderr to <job>.stdout / <job>.stderr */
};

/* fio's: a grace time of 1 s, output redirected */
static const struct exec_opts exec_defaults = { .grace_time_us = 1000000, .std_redirect = 1 };

#define EXEC_TICK_NS 100000000ull	/* one "I/O": the program is looked at every 100 ms */
#define EXEC_MAX_ARGS 256

extern char **environ;

struct exec_state {
	char *argv[EXEC_MAX_ARGS + 2];	/* program, arguments, NULL */
	char *argbuf;			/* the expanded arguments, split in place */
	char out[JOB_NAME_MAX + 8], errf[JOB_NAME_MAX + 8];
	int redirect;
	uint64_t grace_ns;
	pid_t pid;			/* 0: not started; -1: spawn failed */
	int exited;
};

/* Expand %r and %n of @in into a new string. NULL when out of memory. */
static char *exec_expand(const struct job *j, const char *in)
{
	char secs[32];
	size_t cap = strlen(in) + 1, n = 0, k;
	const char *p;
	char *out;

	snprintf(secs, sizeof(secs), "%llu", (unsigned long long)(j->runtime_us / 1000000));
	for (p = in; *p; p++)
		if (p[0] == '%' && (p[1] == 'r' || p[1] == 'n'))
			cap += strlen(j->name) + sizeof(secs);
	out = malloc(cap);
	if (!out)
		return NULL;
	for (p = in; *p; p++) {
		const char *sub = NULL;

		if (p[0] == '%' && p[1] == 'r')
			sub = secs;
		else if (p[0] == '%' && p[1] == 'n')
			sub = j->name;
		if (sub) {
			k = strlen(sub);
			memcpy(out + n, sub, k);
			n += k;
			p++;
			continue;
		}
		out[n++] = *p;
	}
	out[n] = '\0';
	return out;
}

static void exec_exit(struct engine_ctx *ctx);

/* 1 when @prog names an executable, directly or through PATH (as posix_spawnp looks). */
static int exec_findable(const char *prog)
{
	const char *path = getenv("PATH"), *p, *end;
	char buf[4096];

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	for (p = path ? path : "/bin:/usr/bin"; *p; p = *end ? end + 1 : end) {
		int n;

		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		if (end == p)	/* an empty PATH entry is the current directory */
			n = snprintf(buf, sizeof(buf), "./%s", prog);
		else
			n = snprintf(buf, sizeof(buf), "%.*s/%s", (int)(end - p), p, prog);
		if (n > 0 && (size_t)n < sizeof(buf) && access(buf, X_OK) == 0)
			return 1;
	}
	return 0;
}

static int exec_init(struct engine_ctx *ctx, struct err *e)
{
	const struct job *j = ctx->job;
	const struct exec_opts *xo = engine_job_opts(j);
	struct exec_state *s = calloc(1, sizeof(*s));
	unsigned n = 0;
	char *p;

	ctx->info[0] = '\0';
	if (!s)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "exec: out of memory");
	ctx->priv = s;
	/* found now, before any job runs, rather than as an error of its first I/O */
	if (!exec_findable(xo->program)) {
		exec_exit(ctx);
		return err_set(e, -ENOENT, EXIT_TARGET, "job '%s': exec: program '%s' is not found "
			       "or not executable", j->name, xo->program);
	}
	s->argbuf = exec_expand(j, xo->arguments);
	if (!s->argbuf) {
		exec_exit(ctx);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "exec: out of memory");
	}
	s->argv[n++] = (char *)xo->program;
	for (p = strtok(s->argbuf, " "); p; p = strtok(NULL, " ")) {
		if (n > EXEC_MAX_ARGS) {
			exec_exit(ctx);
			return job_err(e, j, "exec: more than %d arguments", EXEC_MAX_ARGS);
		}
		s->argv[n++] = p;
	}
	s->argv[n] = NULL;
	s->redirect = xo->std_redirect;
	snprintf(s->out, sizeof(s->out), "%s.stdout", j->name);
	snprintf(s->errf, sizeof(s->errf), "%s.stderr", j->name);
	s->grace_ns = xo->grace_time_us * 1000;
	snprintf(ctx->info, sizeof(ctx->info), "exec: %.140s", xo->program);
	return 0;
}

/* Start the program: 0 or -errno. */
static int exec_spawn(struct exec_state *s)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, dfl;
	int r;

	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	/* the runner blocks SIGINT/SIGTERM in its threads: the child must not inherit that */
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGPIPE);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &dfl);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	if (s->redirect) {
		posix_spawn_file_actions_addopen(&fa, 1, s->out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		posix_spawn_file_actions_addopen(&fa, 2, s->errf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	}
	r = posix_spawnp(&s->pid, s->argv[0], &fa, &at, s->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	if (r) {
		s->pid = -1;
		return -r;
	}
	return 0;
}

static void exec_sleep(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int exec_queue(struct engine_ctx *ctx, struct io_u *io)
{
	struct exec_state *s = ctx->priv;
	int status;

	io->len = 0;	/* no data moved: 0 bytes, not a short I/O */
	if (!s->pid) {
		int r = exec_spawn(s);

		if (r) {
			io->res = r;
			return ENGINE_Q_COMPLETED;
		}
	}
	if (!s->exited && s->pid > 0 && waitpid(s->pid, &status, WNOHANG) == s->pid)
		s->exited = 1;
	exec_sleep(EXEC_TICK_NS);
	io->res = 0;
	return ENGINE_Q_COMPLETED;
}

/* SIGTERM, up to grace_time for it to go, then SIGKILL; always reaped. */
static void exec_stop(struct exec_state *s)
{
	uint64_t waited = 0, step = 10000000ull;
	int status;

	if (s->pid <= 0 || s->exited)
		return;
	s->exited = 1;	/* reaped below, whatever happens */
	if (waitpid(s->pid, &status, WNOHANG) == s->pid)
		return;
	kill(s->pid, SIGTERM);
	while (waited < s->grace_ns) {
		if (waitpid(s->pid, &status, WNOHANG) == s->pid)
			return;
		exec_sleep(step);
		waited += step;
	}
	if (waitpid(s->pid, &status, WNOHANG) == s->pid)
		return;
	kill(s->pid, SIGKILL);
	waitpid(s->pid, &status, 0);
}

static void exec_end(struct engine_ctx *ctx)
{
	if (ctx->priv)
		exec_stop(ctx->priv);
}

static void exec_exit(struct engine_ctx *ctx)
{
	struct exec_state *s = ctx->priv;

	if (!s)
		return;
	exec_stop(s);
	free(s->argbuf);
	free(s);
	ctx->priv = NULL;
}

static int exec_validate(const struct job *j, struct err *e)
{
	if (!((const struct exec_opts *)engine_job_opts(j))->program[0])
		return job_err(e, j, "ioengine exec needs program=");
	if (!j->runtime_us)
		return job_err(e, j, "ioengine exec runs its program for the job's runtime: set runtime=");
	return 0;
}

static const struct opt_def exec_rows[] = {
	{ .name = "program", .type = OPT_FUNC, ENGINE_OPT_FIELD(struct exec_opts, program),
	  .parse = opt_parse_strbuf, .show = opt_show_strbuf,
	  .help = "exec: the program to run (looked up in PATH)" },
	{ .name = "arguments", .type = OPT_FUNC, ENGINE_OPT_FIELD(struct exec_opts, arguments),
	  .parse = opt_parse_strbuf, .show = opt_show_strbuf,
	  .help = "exec: its arguments, split at spaces; %r is the runtime in seconds, %n the job name" },
	{ .name = "grace_time", .type = OPT_TIME, ENGINE_OPT_FIELD(struct exec_opts, grace_time_us),
	  .unit_us = 1, .bare_us = 1000000,
	  .help = "exec: time between SIGTERM and SIGKILL at the end of the job" },
	{ .name = "std_redirect", .type = OPT_BOOL, ENGINE_OPT_FIELD(struct exec_opts, std_redirect),
	  .help = "exec: stdout and stderr go to <job>.stdout and <job>.stderr (default 1)" },
	{ .name = NULL },
};

static const struct opt_def *const exec_opts[] = { exec_rows, NULL };

const struct engine_ops engine_exec_ops = {
	.name = "exec",
	.opts = exec_opts,
	ENGINE_OPTS_AREA(struct exec_opts, &exec_defaults),
	.init = exec_init,
	.queue = exec_queue,
	.exit = exec_exit,
	.end = exec_end,
	.validate = exec_validate,
};
