/*
 * engine: the registry of compiled-in engines.  Adding an engine means one
 * extern line and one array entry here, nothing else.
 */
#include <string.h>	/* strcmp */
#include "engine.h"

extern const struct engine_ops engine_null_ops;
extern const struct engine_ops engine_uring_ops;
extern const struct engine_ops engine_libaio_ops;
extern const struct engine_ops engine_sync_ops;
extern const struct engine_ops engine_psync_ops;
extern const struct engine_ops engine_pvsync2_ops;
extern const struct engine_ops engine_posixaio_ops;
extern const struct engine_ops engine_mmap_ops;
extern const struct engine_ops engine_filecreate_ops;
extern const struct engine_ops engine_filestat_ops;
extern const struct engine_ops engine_filedelete_ops;
extern const struct engine_ops engine_dircreate_ops;
extern const struct engine_ops engine_dirstat_ops;
extern const struct engine_ops engine_dirdelete_ops;
extern const struct engine_ops engine_ftruncate_ops;
extern const struct engine_ops engine_falloc_ops;
extern const struct engine_ops engine_cpuio_ops;
extern const struct engine_ops engine_exec_ops;
extern const struct engine_ops engine_pagefault_ops;
extern const struct engine_ops engine_e4defrag_ops;

static const struct engine_ops *const engines[] = {
	&engine_null_ops,
	&engine_uring_ops,
	&engine_libaio_ops,
	&engine_sync_ops,
	&engine_psync_ops,
	&engine_pvsync2_ops,
	&engine_posixaio_ops,
	&engine_mmap_ops,
	&engine_filecreate_ops,
	&engine_filestat_ops,
	&engine_filedelete_ops,
	&engine_dircreate_ops,
	&engine_dirstat_ops,
	&engine_dirdelete_ops,
	&engine_ftruncate_ops,
	&engine_falloc_ops,
	&engine_cpuio_ops,
	&engine_exec_ops,
	&engine_pagefault_ops,
	&engine_e4defrag_ops,
	NULL,
};

const struct engine_ops *engine_find(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; engines[i]; i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

const struct engine_ops *const *engine_list(void)
{
	return engines;
}
