/*
 * engine_rows: the engine option rows several engines list (engine_rows.h).
 */
#include "io/engine_rows.h"

#include <errno.h>	/* ERANGE */
#include <sched.h>	/* CPU_SETSIZE */
#include <stddef.h>	/* offsetof */
#include <stdio.h>	/* snprintf */
#include <string.h>	/* memcpy */
#include "model/num.h"	/* num_parse_u64, num_error */

const struct opt_def engine_rows_hipri[] = {
	{ .name = "hipri", .type = OPT_FLAG, OPT_FIELD(hipri),
	  .help = "polled completions (io_uring IOPOLL, pvsync2 RWF_HIPRI)" },
	{ .name = NULL },
};

const struct opt_def engine_rows_force_async[] = {
	{ .name = "force_async", .type = OPT_INT, OPT_FIELD(force_async),
	  .help = "every Nth submission is punted to the kernel's async workers (IOSQE_ASYNC; "
		  "0 = none)" },
	{ .name = NULL },
};

/* A field of struct engine_ring_opts at the start of the job's engine area. */
#define RING_FIELD(field)								\
	.off = offsetof(struct job, engine_area) + offsetof(struct engine_ring_opts, field),	\
	.width = sizeof(((struct engine_ring_opts *)0)->field)

/* sqthread_poll_cpu=N: the polling kernel thread's CPU (below CPU_SETSIZE). */
static int ring_parse_sqpoll_cpu(struct job *j, const struct opt_def *o, const char *val,
				 const struct num_ctx *c, struct err *e)
{
	uint64_t v;
	int cpu, ret = num_parse_u64(val, c, &v, e);

	if (ret)
		return ret;
	if (v >= CPU_SETSIZE)
		return num_error(e, c, -ERANGE, val, "CPU numbers go up to %d", CPU_SETSIZE - 1);
	cpu = (int)v;
	memcpy((char *)j + o->off, &cpu, sizeof(cpu));
	return 0;
}

static int ring_show_sqpoll_cpu(const struct job *j, const struct opt_def *o, char *buf,
				size_t len)
{
	int cpu;

	memcpy(&cpu, (const char *)j + o->off, sizeof(cpu));
	if (cpu < 0)
		return 1;
	snprintf(buf, len, "%d", cpu);
	return 0;
}

const struct opt_def engine_rows_ring_setup[] = {
	{ .name = "fixedbufs", .type = OPT_FLAG, RING_FIELD(fixedbufs),
	  .help = "io_uring: register the I/O buffers" },
	{ .name = "registerfiles", .type = OPT_FLAG, RING_FIELD(registerfiles),
	  .help = "io_uring: register the files" },
	{ .name = "sqthread_poll", .type = OPT_FLAG, RING_FIELD(sqthread_poll),
	  .help = "io_uring: a kernel thread polls the submission queue" },
	{ .name = "sqthread_poll_cpu", .type = OPT_FUNC, RING_FIELD(sqthread_poll_cpu),
	  .parse = ring_parse_sqpoll_cpu, .show = ring_show_sqpoll_cpu,
	  .help = "io_uring: CPU of the polling kernel thread" },
	{ .name = NULL },
};

const struct opt_def engine_rows_ring_io[] = {
	{ .name = "nonvectored", .type = OPT_BOOL, RING_FIELD(nonvectored),
	  .help = "io_uring: use non-vectored read/write commands" },
	{ .name = NULL },
};
