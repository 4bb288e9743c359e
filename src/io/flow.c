/*
 * flow: the shared counters of fio's flow control (see flow.h).
 */
#include "io/flow.h"

#include <errno.h>	/* ENOMEM */
#include <stdlib.h>	/* calloc, free */
#include "model/job.h"

int flow_set_build(struct flow_set *fs, const struct job *jobs, size_t nr_jobs, struct err *e)
{
	size_t i;

	fs->f = NULL;
	fs->nr = 0;
	for (i = 0; i < nr_jobs; i++) {
		if (!jobs[i].flow || flow_set_find(fs, jobs[i].flow_id))
			continue;
		if (!fs->f && !(fs->f = calloc(nr_jobs, sizeof(*fs->f))))
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory for flows");
		fs->f[fs->nr].id = jobs[i].flow_id;
		atomic_init(&fs->f[fs->nr].issued, 0);
		atomic_init(&fs->f[fs->nr].weight, 0);
		fs->nr++;
	}
	return 0;
}

struct flow *flow_set_find(struct flow_set *fs, uint32_t id)
{
	size_t i;

	for (i = 0; i < fs->nr; i++)
		if (fs->f[i].id == id)
			return &fs->f[i];
	return NULL;
}

void flow_set_free(struct flow_set *fs)
{
	free(fs->f);
	fs->f = NULL;
	fs->nr = 0;
}

void flow_join(struct flow *f, uint64_t w)
{
	atomic_fetch_add(&f->weight, w);
}

void flow_leave(struct flow *f, uint64_t w, uint64_t mine)
{
	atomic_fetch_sub(&f->weight, w);
	atomic_fetch_sub(&f->issued, mine);
}
