/*
 * engine: the registry of engines, and through it the engines' options.
 *
 * Adding an engine is its file (its ops, and its options: rows, struct and
 * defaults; see engine.h) and one line in engines[] below with its extern
 * declaration; the option table, --cmdhelp, --showcmd, the JSON and the
 * refusal of its options under other engines follow from the registry.  A
 * synchronous engine, or one that needs no files or reaches no device, adds
 * its row to engine_traits.c's table too.  An engine built only when its
 * library is found (rbd: IOTRIAL_RBD, the Makefile's librbd probe) is in
 * every build; without its library its ops carry only the name, the options
 * and why it is absent.
 *
 * A program may add engines of its own (a test's toy engine) by defining
 * engine_registry_extra: a NULL-terminated array, listed after these.  The
 * library does not define it; the reference is weak, so it is NULL then.
 * Both lists are constant: the registry has no state.
 */
#include <string.h>	/* strcmp, memset, memcpy */
#include "io/engine.h"

extern const struct engine_ops engine_null_ops;
extern const struct engine_ops engine_uring_ops;
extern const struct engine_ops engine_uring_cmd_ops;
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
extern const struct engine_ops engine_rbd_ops;

extern const struct engine_ops *const engine_registry_extra[] __attribute__((weak));

/*
 * The order is the one --cmdhelp lists the engines and their options in,
 * and the one "belongs to ioengine A B" names a row's engines in.
 */
static const struct engine_ops *const engines[] = {
	&engine_uring_ops,
	&engine_uring_cmd_ops,
	&engine_libaio_ops,
	&engine_null_ops,
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
	&engine_rbd_ops,
};

#define ENGINES_NR (sizeof(engines) / sizeof(engines[0]))

/* The @i-th engine of the registry, absent ones and the program's own included. */
static const struct engine_ops *engine_reg(size_t i)
{
	size_t k;

	if (i < ENGINES_NR)
		return engines[i];
	if (!engine_registry_extra)
		return NULL;
	for (k = 0; k < i - ENGINES_NR && engine_registry_extra[k]; k++)
		;
	return engine_registry_extra[k];
}

const struct engine_ops *engine_find(const char *name)
{
	const struct engine_ops *ops;
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; (ops = engine_reg(i)) != NULL; i++)
		if (!ops->absent && !strcmp(ops->name, name))
			return ops;
	return NULL;
}

const struct engine_ops *engine_at(size_t i)
{
	const struct engine_ops *ops;
	size_t k;

	for (k = 0; (ops = engine_reg(k)) != NULL; k++)
		if (!ops->absent && i-- == 0)
			return ops;
	return NULL;
}

const char *engine_name_at(size_t i)
{
	const struct engine_ops *ops = engine_at(i);

	return ops ? ops->name : NULL;
}

const char *engine_absent_reason(const char *name)
{
	const struct engine_ops *ops;
	size_t i;

	for (i = 0; name && (ops = engine_reg(i)) != NULL; i++)
		if (ops->absent && !strcmp(ops->name, name))
			return ops->absent;
	return NULL;
}

/* True when @ops lists the run of rows @run. */
static int engine_lists_run(const struct engine_ops *ops, const struct opt_def *run)
{
	size_t k;

	for (k = 0; ops->opts && ops->opts[k]; k++)
		if (ops->opts[k] == run)
			return 1;
	return 0;
}

/* True when an engine before the @eng-th lists the run @run: its rows came there. */
static int engine_run_seen(const struct opt_def *run, size_t eng)
{
	size_t e;

	for (e = 0; e < eng; e++)
		if (engine_lists_run(engine_reg(e), run))
			return 1;
	return 0;
}

const struct opt_def *engine_opt_next(size_t *eng, size_t *row)
{
	const struct engine_ops *ops;
	const struct opt_def *run;
	size_t k, i, n;

	/* *row counts the rows of the engine's runs passed already */
	for (; (ops = engine_reg(*eng)) != NULL; ++*eng, *row = 0)
		for (k = 0, n = 0; ops->opts && (run = ops->opts[k]) != NULL; k++)
			for (i = 0; run[i].name; i++, n++)
				if (n >= *row) {
					++*row;
					if (!engine_run_seen(run, *eng))
						return &run[i];
				}
	return NULL;
}

int engine_takes(const struct engine_ops *ops, const struct opt_def *o)
{
	const struct opt_def *run;
	size_t k, i;

	for (k = 0; ops && ops->opts && (run = ops->opts[k]) != NULL; k++)
		for (i = 0; run[i].name; i++)
			if (&run[i] == o)
				return 1;
	return 0;
}

const struct engine_ops *engine_opt_owner(const struct opt_def *o, size_t n)
{
	const struct engine_ops *ops;
	size_t i;

	for (i = 0; (ops = engine_reg(i)) != NULL; i++)
		if (engine_takes(ops, o) && n-- == 0)
			return ops;
	return NULL;
}

int engine_opt_in_area(const struct opt_def *o)
{
	size_t base = offsetof(struct job, engine_area);

	return o->width && o->off >= base && o->off < base + JOB_ENGINE_AREA_MAX;
}

void engine_opts_reset(struct job *j, const struct engine_ops *ops)
{
	memset(j->engine_area, 0, sizeof(j->engine_area));
	if (ops && ops->opts_default)
		memcpy(j->engine_area, ops->opts_default, ops->opts_size);
}
