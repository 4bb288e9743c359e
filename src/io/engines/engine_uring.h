/*
 * engine_uring: io_uring through liburing (see engine_uring.c).  This header
 * holds its option rows, expanded into the option table by opt_table.c, and
 * the callbacks they name.
 */
#ifndef IOTRIAL_ENGINE_URING_H
#define IOTRIAL_ENGINE_URING_H

#include <stddef.h>
#include "lib/err.h"
#include "model/job.h"
#include "model/num.h"
#include "model/opt_def.h"

/* sqthread_poll_cpu=N: the polling kernel thread's CPU (below CPU_SETSIZE). */
int engine_uring_parse_sqpoll_cpu(struct job *j, const struct opt_def *o, const char *val,
				  const struct num_ctx *c, struct err *e);
int engine_uring_show_sqpoll_cpu(const struct job *j, const struct opt_def *o, char *buf,
				 size_t len);

/* Rows for opt_table.c (F() is its field macro): the ring's set-up. */
#define ENGINE_URING_OPTS \
	{ .name = "fixedbufs", .engines = "io_uring", .type = OPT_FLAG, F(fixedbufs), \
	  .help = "io_uring: register the I/O buffers" }, \
	{ .name = "registerfiles", .engines = "io_uring", .type = OPT_FLAG, F(registerfiles), \
	  .help = "io_uring: register the files" }, \
	{ .name = "sqthread_poll", .engines = "io_uring", .type = OPT_FLAG, F(sqthread_poll), \
	  .help = "io_uring: a kernel thread polls the submission queue" }, \
	{ .name = "sqthread_poll_cpu", .engines = "io_uring", .type = OPT_FUNC, \
	  .parse = engine_uring_parse_sqpoll_cpu, .show = engine_uring_show_sqpoll_cpu, \
	  .help = "io_uring: CPU of the polling kernel thread" },

/*
 * How each I/O is issued: polled completions (shared with pvsync2) and
 * non-vectored commands.  A second macro so the table keeps fio's order
 * (the cmdprio rows sit between them in --cmdhelp and --showcmd).
 */
#define ENGINE_URING_IO_OPTS \
	{ .name = "hipri", .engines = "io_uring pvsync2", .type = OPT_FLAG, F(hipri), \
	  .help = "polled completions (io_uring IOPOLL, pvsync2 RWF_HIPRI)" }, \
	{ .name = "nonvectored", .engines = "io_uring", .type = OPT_BOOL, F(nonvectored), \
	  .help = "io_uring: use non-vectored read/write commands" },

#endif
