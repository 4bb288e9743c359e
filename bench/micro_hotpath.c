/*
 * micro_hotpath: the per-I/O cost of the measurement core, without an engine.
 *
 * Each iteration does what the worker does for one I/O on the null engine:
 * two clock reads, one generator step, a tick->ns conversion, one histogram
 * update and one moments update.  Prints ns per iteration for a few job
 * shapes and for both clock sources.  Not part of make check; build by hand:
 *   make && cc -O2 -std=c11 -D_GNU_SOURCE -Isrc -o build/micro_hotpath \
 *      bench/micro_hotpath.c build/libiotrial.a -lm && build/micro_hotpath [iters]
 */
#include <stdio.h>	/* printf */
#include <stdlib.h>	/* atol */
#include <string.h>	/* memset */
#include "lib/clock.h"
#include "lib/hist.h"
#include "io/iogen.h"
#include "lib/stat.h"

static struct hist hist;

static void job_shape(struct job *j, unsigned rw, int norandommap)
{
	int d;

	memset(j, 0, sizeof(*j));
	strcpy(j->name, "bench");
	j->rw = rw;
	for (d = 0; d < DDIR_NR; d++) {
		j->bs[d] = j->bs_min[d] = j->bs_max[d] = 4096;
		j->percentage_random[d] = 100;
	}
	j->rwmixread = 50;
	j->randrepeat = 1;
	j->loops = 1;
	j->time_based = 1;
	j->norandommap = norandommap;
}

static double run(const struct clock *c, const struct job *j, long iters)
{
	uint64_t size = 1ull << 30, t_begin, t_end, sink = 0;
	struct lat_acc acc;
	struct iogen g;
	struct io_u io;
	struct err e;
	long i;

	err_clear(&e);
	if (iogen_init(&g, j, 0, &size, 1, &e)) {
		fprintf(stderr, "iogen_init: %s\n", e.msg);
		exit(1);
	}
	memset(&hist, 0, sizeof(hist));
	memset(&io, 0, sizeof(io));
	lat_acc_init(&acc);
	t_begin = clock_gettime_ns();
	for (i = 0; i < iters; i++) {
		uint64_t t0 = clock_ticks(c), t1, ns;

		iogen_next(&g, &io);
		t1 = clock_ticks(c);
		ns = clock_ticks_to_ns(c, t1 - t0);
		hist_add(&hist, ns);
		lat_acc_add(&acc, ns);
		sink += io.offset;
	}
	t_end = clock_gettime_ns();
	iogen_free(&g);
	if (sink == 1)
		printf(" ");	/* keep the offsets live */
	return (double)(t_end - t_begin) / (double)iters;
}

int main(int argc, char **argv)
{
	static const struct { const char *name; unsigned rw; int norandommap; } shapes[] = {
		{ "read (sequential)", RW_READ, 0 },
		{ "randread norandommap", RW_READ | RW_RAND, 1 },
		{ "randread (random map, 1 GiB)", RW_READ | RW_RAND, 0 },
		{ "randrw norandommap", RW_READ | RW_WRITE | RW_RAND, 1 },
	};
	long iters = argc > 1 ? atol(argv[1]) : 5000000;
	int modes[] = { CLOCK_MODE_TSC, CLOCK_MODE_GETTIME }, m;
	unsigned s;

	for (m = 0; m < 2; m++) {
		struct clock c;
		struct err e;

		err_clear(&e);
		if (clock_init(&c, modes[m], &e)) {
			printf("%s: %s\n", m ? "clock_gettime" : "tsc", e.msg);
			continue;
		}
		for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
			struct job j;

			job_shape(&j, shapes[s].rw, shapes[s].norandommap);
			printf("%-14s %-32s %6.1f ns/iteration\n", clock_source(&c), shapes[s].name,
			       run(&c, &j, iters));
		}
	}
	return 0;
}
