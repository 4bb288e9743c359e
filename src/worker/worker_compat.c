/*
 * worker_compat: the parts of a worker that fio-compatibility options add
 * (docs/compat.md), kept out of worker.c so its I/O loop stays small: the
 * rate_min check, fill_device's end, wait_for (verify is worker_verify.c).
 * worker.c calls each at one place; none runs per I/O.
 */
#include "worker/worker_compat.h"

#include <errno.h>	/* EIO, EINVAL */
#include <stdio.h>	/* snprintf */
#include <string.h>	/* memset */
#include <time.h>	/* nanosleep */
#include <stdlib.h>	/* calloc, free, posix_memalign */

/* The rate_min cycle's start: time, I/Os and bytes per direction. */
static void compat_mark(const struct worker *w, struct worker_mark *m, uint64_t now)
{
	int d;

	m->ticks = now;
	for (d = 0; d < DDIR_NR; d++) {
		m->ios[d] = w->st.dir[d].ios;
		m->bytes[d] = w->st.dir[d].bytes;
	}
}

/*
 * rate_min / rate_iops_min, checked at the sample ticks as fio does: nothing
 * in the first 2 s of measurement (fio's settle period), then the first
 * cycle starts, and a direction the job issues that did less than its
 * minimum over a rate_cycle ends the job with EIO and says by how much.
 */
void worker_compat_min_rate(struct worker *w, uint64_t now)
{
	const struct job *j = w->job;
	struct worker_mark *m = &w->mark_rate_min;
	uint64_t ns, bps, iops;
	int d;

	if (clock_ticks_to_ns(w->clk, now - w->t_measure) < 2000000000ull)
		return;
	if (!m->ticks) {	/* the first cycle starts after the settle period */
		compat_mark(w, m, now);
		return;
	}
	ns = clock_ticks_to_ns(w->clk, now - m->ticks);
	if (ns < (uint64_t)j->rate_cycle_ms * 1000000)
		return;
	for (d = 0; d < DDIR_NR; d++) {
		if (!(j->rw & (1u << d)))
			continue;
		bps = (uint64_t)((double)(w->st.dir[d].bytes - m->bytes[d]) * 1e9 / (double)ns);
		iops = (uint64_t)((double)(w->st.dir[d].ios - m->ios[d]) * 1e9 / (double)ns);
		if ((j->rate_min[d] && bps < j->rate_min[d]) ||
		    (j->rate_iops_min[d] && iops < j->rate_iops_min[d])) {
			if (w->error)
				return;
			w->error = EIO;
			snprintf(w->first_error, sizeof(w->first_error),
				 "%s: minimum rate not met over %u ms: %llu B/s, %llu IOPS "
				 "(rate_min %llu B/s, rate_iops_min %llu)", job_ddir_name(d),
				 j->rate_cycle_ms, (unsigned long long)bps, (unsigned long long)iops,
				 (unsigned long long)j->rate_min[d], (unsigned long long)j->rate_iops_min[d]);
			return;
		}
	}
	compat_mark(w, m, now);
}

void worker_compat_fill_clamp(struct worker *w, const struct io_u *io)
{
	struct iogen_file *f;

	if (io->ddir != DDIR_WRITE || io->file >= w->gen.nr_files)
		return;
	f = &w->gen.files[io->file];
	if (io->offset >= f->start && io->offset < f->end)
		f->end = io->offset;
}

int worker_compat_filled(struct worker *w, const struct io_u *io)
{
	int err = (int)-io->res;

	if (io->ddir != DDIR_WRITE || (err != ENOSPC && err != EDQUOT))
		return 0;
	worker_compat_fill_clamp(w, io);
	w->st.dir[DDIR_WRITE].err_ios++;	/* fio's total_ios counts it */
	w->filled = 1;
	w->t_next_event = 0;		/* worker_event ends the job */
	return 1;
}

/* wait_for: poll (1 ms) until the waitee's threads are done, or the run stops. */
void worker_compat_wait_for(struct worker *w)
{
	struct timespec ts = { 0, 1000000 };
	unsigned i;

	for (i = 0; i < w->wait_nr; i++)
		while (!atomic_load(&w->wait_on[w->wait_first + i].done) && !atomic_load(&w->stop))
			nanosleep(&ts, NULL);
}
