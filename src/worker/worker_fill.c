/*
 * worker_fill: fill_device's end of a job (docs/compat.md).  As fio, a job
 * with fill_device=1 writes until the file system is full: a write that
 * comes back short or fails with ENOSPC or EDQUOT ends the region there (the
 * verify pass checks no further) and ends the job, not as an error.
 * worker.c calls these on a completion's rare paths only (a short or failed
 * write of a fill_device job), never per I/O otherwise.
 */
#include "worker/worker_fill.h"

#include <errno.h>	/* ENOSPC, EDQUOT */

void worker_fill_clamp(struct worker *w, const struct io_u *io)
{
	struct iogen_file *f;

	if (io->ddir != DDIR_WRITE || io->file >= w->gen.nr_files)
		return;
	f = &w->gen.files[io->file];
	if (io->offset >= f->start && io->offset < f->end)
		f->end = io->offset;
}

int worker_fill_full(struct worker *w, const struct io_u *io)
{
	int err = (int)-io->res;

	if (io->ddir != DDIR_WRITE || (err != ENOSPC && err != EDQUOT))
		return 0;
	worker_fill_clamp(w, io);
	w->st.dir[DDIR_WRITE].err_ios++;	/* fio's total_ios counts it */
	w->filled = 1;
	w->t_next_event = 0;		/* worker_event ends the job */
	return 1;
}
