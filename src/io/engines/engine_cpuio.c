/*
 * engine_cpuio: fio's cpuio engine.  It moves no data: each "I/O" keeps the
 * CPU busy for cpuchunks microseconds (wall clock), either in a spin loop
 * (cpumode=noop) or sorting a small array again and again (cpumode=qsort,
 * more work per cycle: more power drawn).  Between cycles the worker pauses
 * cpuchunks x (100 - cpuload) / cpuload through engine_ctx.think_ns (the
 * job's own thinktime= wins when set), so one thread keeps one CPU about
 * cpuload% busy; numjobs= loads more CPUs.  As in fio the cycles count as
 * I/Os of the job's direction with 0 bytes, each timed.  It never ends on
 * its own: runtime= or exit_on_io_done=1 (run.c stops it once the group's
 * other jobs are done) is required.  Completes inline.
 */
#include <errno.h>	/* ENOMEM */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* calloc, free, qsort */
#include <time.h>	/* clock_gettime */
#include "io/engine.h"

#define CPUIO_QSORT_N 1024	/* ints sorted per round: 4 KiB, stays in L1 */

enum cpuio_mode { CPUIO_NOOP, CPUIO_QSORT };

/* Its options (the rows at the end), in the job's engine area. */
struct cpuio_opts {
	uint32_t cpuload;	/* percent of one CPU, 1..100 (required) */
	uint32_t cpuchunks;	/* us of CPU burnt per I/O (fio's cpucycle) */
	int cpumode;		/* enum cpuio_mode */
};

/* fio's: 50000 us per cycle, a spin loop */
static const struct cpuio_opts cpuio_defaults = { .cpuchunks = 50000, .cpumode = CPUIO_NOOP };

struct cpuio_state {
	uint64_t chunk_ns;
	int mode;
	uint32_t seed;
	int *arr;		/* cpumode=qsort's array */
};

static uint64_t cpuio_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cpuio_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int cpuio_init(struct engine_ctx *ctx, struct err *e)
{
	const struct cpuio_opts *je = engine_job_opts(ctx->job);
	struct cpuio_state *s = calloc(1, sizeof(*s));

	if (!s)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "cpuio: out of memory");
	s->chunk_ns = (uint64_t)je->cpuchunks * 1000;
	s->mode = je->cpumode;
	s->seed = 0x9e3779b9u;
	if (s->mode == CPUIO_QSORT && !(s->arr = calloc(CPUIO_QSORT_N, sizeof(int)))) {
		free(s);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "cpuio: out of memory");
	}
	ctx->priv = s;
	/* validate() guarantees 1 <= cpuload <= 100 */
	ctx->think_ns = s->chunk_ns * (100 - je->cpuload) / je->cpuload;
	snprintf(ctx->info, sizeof(ctx->info), "cpuio: %s, %u us busy, %llu us idle per cycle",
		 s->mode == CPUIO_QSORT ? "qsort" : "noop", je->cpuchunks,
		 (unsigned long long)(ctx->think_ns / 1000));
	return 0;
}

/* One sort of a freshly scrambled array (xorshift32: cheap, never 0). */
static void cpuio_qsort_round(struct cpuio_state *s)
{
	uint32_t x = s->seed;
	unsigned i;

	for (i = 0; i < CPUIO_QSORT_N; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		s->arr[i] = (int)x;
	}
	s->seed = x;
	qsort(s->arr, CPUIO_QSORT_N, sizeof(int), cpuio_cmp);
}

static int cpuio_queue(struct engine_ctx *ctx, struct io_u *io)
{
	struct cpuio_state *s = ctx->priv;
	uint64_t end = cpuio_now() + s->chunk_ns;
	volatile unsigned spin;

	if (s->mode == CPUIO_QSORT) {
		while (cpuio_now() < end)
			cpuio_qsort_round(s);
	} else {
		while (cpuio_now() < end)
			for (spin = 0; spin < 64; spin++)
				;
	}
	io->len = 0;	/* no data moved: 0 bytes, not a short I/O */
	io->res = 0;
	return ENGINE_Q_COMPLETED;
}

static void cpuio_exit(struct engine_ctx *ctx)
{
	struct cpuio_state *s = ctx->priv;

	if (!s)
		return;
	free(s->arr);
	free(s);
	ctx->priv = NULL;
}

static int cpuio_validate(const struct job *j, struct err *e)
{
	const struct cpuio_opts *co = engine_job_opts(j);

	if (!co->cpuload)
		return job_err(e, j, "ioengine cpuio needs cpuload= (percent of a CPU, 1-100)");
	if (!j->runtime_us && !j->exit_on_io_done)
		return job_err(e, j, "ioengine cpuio never ends by itself: set runtime= or "
			       "exit_on_io_done=1");
	return 0;
}

static const struct opt_choice cpuio_modes[] = {
	{ "noop", CPUIO_NOOP }, { "qsort", CPUIO_QSORT }, { NULL, 0 },
};

static const struct opt_def cpuio_rows[] = {
	{ .name = "cpuload", .type = OPT_INT, ENGINE_OPT_FIELD(struct cpuio_opts, cpuload),
	  .max = 100, .help = "cpuio: percent of one CPU to keep busy (required)" },
	{ .name = "cpuchunks", .type = OPT_INT, ENGINE_OPT_FIELD(struct cpuio_opts, cpuchunks),
	  .min = 1, .help = "cpuio: microseconds of CPU burnt per cycle (one I/O)" },
	{ .name = "cpumode", .type = OPT_CHOICE, ENGINE_OPT_FIELD(struct cpuio_opts, cpumode),
	  .choices = cpuio_modes,
	  .help = "cpuio: how the CPU is kept busy: noop (a spin loop) or qsort" },
	/* the run acts on it (run.c): struct job's */
	{ .name = "exit_on_io_done", .type = OPT_BOOL, OPT_FIELD(exit_on_io_done),
	  .help = "cpuio: end when every non-cpuio job of the run is done" },
	{ .name = NULL },
};

static const struct opt_def *const cpuio_opts[] = { cpuio_rows, NULL };

const struct engine_ops engine_cpuio_ops = {
	.name = "cpuio",
	.opts = cpuio_opts,
	ENGINE_OPTS_AREA(struct cpuio_opts, &cpuio_defaults),
	.init = cpuio_init,
	.queue = cpuio_queue,
	.exit = cpuio_exit,
	.validate = cpuio_validate,
};
