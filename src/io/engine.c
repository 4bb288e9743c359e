/*
 * engine: the registry of compiled-in engines.  Adding an engine means one extern
 * line and one array entry here, nothing else.  An engine built only when
 * its library is found (rbd: IOTRIAL_RBD, the Makefile's librbd probe) is
 * behind its #ifdef, and engine_absent_reason() says why it is missing.
 */
#include <string.h>	/* strcmp */
#include "io/engine.h"

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
#ifdef IOTRIAL_RBD
extern const struct engine_ops engine_rbd_ops;
#endif

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
#ifdef IOTRIAL_RBD
	&engine_rbd_ops,
#endif
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

const char *engine_name_at(size_t i)
{
	size_t k;

	for (k = 0; k < i && engines[k]; k++)
		;
	return engines[k] ? engines[k]->name : NULL;
}

const char *engine_absent_reason(const char *name)
{
#ifndef IOTRIAL_RBD
	if (name && !strcmp(name, "rbd"))
		return "this build has no librbd; install librbd-dev and librados-dev, then rebuild";
#endif
	(void)name;
	return NULL;
}
