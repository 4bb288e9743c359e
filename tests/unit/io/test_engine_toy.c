/*
 * test_engine_toy: an engine added from the test tree alone, as io/engine.c
 * says an engine is added: its file (the first part below: ops, one option
 * of its own, its options struct and defaults) and one registry line
 * (engine_registry_extra, which this program defines and the library does
 * not).  Nothing of the library names it, yet its option is parsed (before
 * or after ioengine=), described by --cmdhelp, written back by --showcmd,
 * refused under another engine, checked by its validate(), and the worker
 * runs it on a fake clock with the value the job gave.
 */
#include <errno.h>	/* EIO */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "fake_clock.h"
#include "io/engine.h"
#include "parse/opt.h"
#include "result/result.h"
#include "worker/worker.h"

/* ---- the toy engine: its file ------------------------------------------ */

/* Its options, in the job's engine area. */
struct toy_opts {
	uint32_t fail_every;	/* every Nth I/O fails with EIO; 0 = none */
};

static const struct toy_opts toy_defaults = { .fail_every = 0 };

struct toy_state {
	struct io_u **queued, **done;
	unsigned nr_queued, nr_done;
	uint32_t fail_every;
	uint64_t count;
};

static int toy_init(struct engine_ctx *ctx, struct err *e)
{
	const struct toy_opts *to = engine_job_opts(ctx->job);
	struct toy_state *s = calloc(1, sizeof(*s));

	if (s) {
		s->queued = calloc(ctx->depth, sizeof(*s->queued));
		s->done = calloc(ctx->depth, sizeof(*s->done));
	}
	if (!s || !s->queued || !s->done) {
		if (s) {
			free(s->queued);
			free(s->done);
		}
		free(s);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "toy: out of memory");
	}
	s->fail_every = to->fail_every;
	ctx->priv = s;
	snprintf(ctx->info, sizeof(ctx->info), "toy: fail every %u", to->fail_every);
	return 0;
}

static int toy_queue(struct engine_ctx *ctx, struct io_u *io)
{
	struct toy_state *s = ctx->priv;

	if (s->nr_queued + s->nr_done >= ctx->depth)
		return ENGINE_Q_BUSY;
	s->count++;
	io->res = s->fail_every && s->count % s->fail_every == 0 ? -EIO : (int64_t)io->len;
	s->queued[s->nr_queued++] = io;
	return ENGINE_Q_QUEUED;
}

static int toy_commit(struct engine_ctx *ctx)
{
	struct toy_state *s = ctx->priv;
	unsigned i, n = s->nr_queued;

	for (i = 0; i < n; i++)
		s->done[s->nr_done++] = s->queued[i];
	s->nr_queued = 0;
	return (int)n;
}

static int toy_getevents(struct engine_ctx *ctx, unsigned min, unsigned max, struct io_u **out)
{
	struct toy_state *s = ctx->priv;
	unsigned i, n = s->nr_done < max ? s->nr_done : max;

	(void)min;
	for (i = 0; i < n; i++)
		out[i] = s->done[i];
	for (i = n; i < s->nr_done; i++)
		s->done[i - n] = s->done[i];
	s->nr_done -= n;
	return (int)n;
}

static void toy_exit(struct engine_ctx *ctx)
{
	struct toy_state *s = ctx->priv;

	if (!s)
		return;
	free(s->queued);
	free(s->done);
	free(s);
	ctx->priv = NULL;
}

static int toy_validate(const struct job *j, struct err *e)
{
	if (((const struct toy_opts *)engine_job_opts(j))->fail_every == 1)
		return job_err(e, j, "ioengine toy: toy_fail_every=1 fails every I/O");
	return 0;
}

static const struct opt_def toy_rows[] = {
	{ .name = "toy_fail_every", .type = OPT_INT, ENGINE_OPT_FIELD(struct toy_opts, fail_every),
	  .help = "toy: every Nth I/O fails with EIO (0: none)" },
	{ .name = NULL },
};

static const struct opt_def *const toy_opts[] = { toy_rows, NULL };

static const struct engine_ops toy_ops = {
	.name = "toy",
	.opts = toy_opts,
	ENGINE_OPTS_AREA(struct toy_opts, &toy_defaults),
	.init = toy_init,
	.queue = toy_queue,
	.commit = toy_commit,
	.getevents = toy_getevents,
	.exit = toy_exit,
	.validate = toy_validate,
};

/* ---- its registry line ------------------------------------------------- */

const struct engine_ops *const engine_registry_extra[] = { &toy_ops, NULL };

/* ---- the tests --------------------------------------------------------- */

#define W "toy.fio:1"

/* A job parsed from @n name=value pairs (value NULL: bare), then validated. */
static int toy_job(struct job *j, const char *const *kv, size_t n, struct err *e)
{
	size_t i;
	int r = 0;

	job_init(j);
	err_clear(e);
	snprintf(j->origin, sizeof(j->origin), "%s", W);
	for (i = 0; i + 1 < n && !r; i += 2)
		r = opt_set(j, kv[i], kv[i + 1], W, e);
	return r ? r : opt_job_validate(j, e);
}

#define TOY_JOB(j, e, ...) \
	toy_job((j), (const char *const[]){ __VA_ARGS__ }, \
		sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *), (e))

/* What a --cmdhelp call prints, in a malloc'd string. */
static char *toy_help(const char *name)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	opt_cmdhelp(f, name);
	fclose(f);
	return buf;
}

TEST(toy_is_registered)
{
	const struct opt_def *o = opt_find("toy_fail_every");
	size_t i;

	CHECK(engine_find("toy") == &toy_ops);
	CHECK(o == &toy_rows[0]);
	CHECK(engine_opt_owner(o, 0) == &toy_ops && engine_opt_owner(o, 1) == NULL);
	CHECK(engine_takes(&toy_ops, o) && !engine_takes(engine_find("psync"), o));
	CHECK(engine_opt_in_area(o));
	/* listed after the library's engines */
	for (i = 0; engine_name_at(i); i++)
		;
	CHECK(i > 1 && !strcmp(engine_name_at(i - 1), "toy"));
	/* no traits row: an asynchronous engine with files, reaching a device */
	CHECK_EQ_U(engine_traits("toy"), 0);
}

TEST(toy_cmdhelp)
{
	char *h = toy_help("toy_fail_every");

	CHECK(h && strstr(h, "toy_fail_every: toy: every Nth I/O fails with EIO (0: none)\n"));
	CHECK(h && strstr(h, "  engines: toy (refused under any other)\n"));
	CHECK(h && strstr(h, "  default: 0\n"));
	free(h);
	h = toy_help("ioengine");
	CHECK(h && strstr(h, " e4defrag") && strstr(h, " toy\n"));	/* last: after the library's */
	free(h);
	h = toy_help(NULL);
	CHECK(h && strstr(h, "\ntoy_fail_every "));
	free(h);
}

TEST(toy_parse_and_show)
{
	struct job j;
	struct err e;
	struct job_kv *kv;
	size_t nr, i;
	char *line = NULL;
	int found = 0;

	/* before ioengine=, as after */
	CHECK(TOY_JOB(&j, &e, "name", "t", "toy_fail_every", "7", "ioengine", "toy") == 0);
	CHECK_EQ_U(((const struct toy_opts *)engine_job_opts(&j))->fail_every, 7);
	CHECK(opt_job_cmdline(&j, &line) == 0);
	CHECK(line && strstr(line, " --ioengine=toy") && strstr(line, " --toy_fail_every=7"));
	free(line);
	CHECK(opt_job_resolved(&j, &kv, &nr) == 0);
	for (i = 0; i < nr; i++)
		if (!strcmp(kv[i].key, "toy_fail_every"))
			found = !strcmp(kv[i].val, "7");
	CHECK(found);
	opt_kv_free(kv, nr);
	job_free(&j);
	CHECK(TOY_JOB(&j, &e, "name", "t", "ioengine", "toy", "toy_fail_every", "3") == 0);
	CHECK_EQ_U(((const struct toy_opts *)engine_job_opts(&j))->fail_every, 3);
	job_free(&j);
	/* its own check of a parsed job */
	CHECK(TOY_JOB(&j, &e, "name", "t", "ioengine", "toy", "toy_fail_every", "1") == -EINVAL);
	CHECK(strstr(e.msg, "toy_fail_every=1 fails every I/O") != NULL);
	job_free(&j);
	/* a bad value, at once */
	CHECK(TOY_JOB(&j, &e, "name", "t", "toy_fail_every", "x") == -EINVAL);
	CHECK(strstr(e.msg, "toy_fail_every") != NULL);
	job_free(&j);
}

TEST(toy_refused_elsewhere)
{
	struct job j;
	struct err e;

	CHECK(TOY_JOB(&j, &e, "name", "t", "ioengine", "psync", "toy_fail_every", "5") == -EINVAL);
	CHECK(strstr(e.msg, "option 'toy_fail_every' belongs to ioengine toy, not psync") != NULL);
	job_free(&j);
	/* its default is no use of it: accepted */
	CHECK(TOY_JOB(&j, &e, "name", "t", "ioengine", "psync", "toy_fail_every", "0") == 0);
	job_free(&j);
	/* and the library's engines' options are refused under the toy */
	CHECK(TOY_JOB(&j, &e, "name", "t", "ioengine", "toy", "cpuload", "50") == -EINVAL);
	CHECK(strstr(e.msg, "option 'cpuload' belongs to ioengine cpuio, not toy") != NULL);
	job_free(&j);
}

/* Run @j on the real worker and a fake clock; fills @r.  The worker's error. */
static int toy_run(struct job *j, struct job_result *r, char *info, size_t len)
{
	struct worker w;
	struct fake_clock fc;
	struct err e;
	int ret;

	memset(&w, 0, sizeof(w));
	memset(r, 0, sizeof(*r));
	if (fake_clock_init(&fc, 5000000000ull, 1000))
		return -1;
	err_clear(&e);
	w.job = j;
	w.clk = &fc.clk;
	w.ops = engine_find(j->ioengine);
	w.traits = engine_traits(j->ioengine);
	ret = worker_prepare(&w, &e);
	if (ret) {
		printf("  worker_prepare: %s\n", e.msg);
		worker_release(&w);
		return ret;
	}
	worker_main(&w);
	worker_result(&w, r);
	snprintf(info, len, "%s", w.ctx.info);
	ret = w.error;
	worker_release(&w);
	return ret;
}

TEST(toy_runs_in_the_worker)
{
	struct job j;
	struct job_result r;
	struct err e;
	char info[160];

	CHECK(TOY_JOB(&j, &e, "name", "t", "ioengine", "toy", "size", "1m", "bs", "4k",
		      "iodepth", "4") == 0);
	CHECK_EQ_U(toy_run(&j, &r, info, sizeof(info)), 0);
	CHECK_EQ_U(r.dir[DDIR_READ].total_ios, 256);
	CHECK_STR(info, "toy: fail every 0");
	job_free(&j);
	/* the job's value reaches the engine: the 10th I/O fails and ends the job */
	CHECK(TOY_JOB(&j, &e, "name", "t", "toy_fail_every", "10", "ioengine", "toy",
		      "size", "1m", "bs", "4k") == 0);
	CHECK_EQ_U(toy_run(&j, &r, info, sizeof(info)), EIO);
	CHECK_EQ_U(r.dir[DDIR_READ].total_ios, 10);
	CHECK_STR(info, "toy: fail every 10");
	job_free(&j);
}

int main(void)
{
	RUN(toy_is_registered);
	RUN(toy_cmdhelp);
	RUN(toy_parse_and_show);
	RUN(toy_refused_elsewhere);
	RUN(toy_runs_in_the_worker);
	return CHECK_DONE();
}
