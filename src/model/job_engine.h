/*
 * job_engine: the options of the engines that do something other than move
 * data (fio's file-operation, cpuio, exec and e4defrag engines) and rbd's, stored in
 * one struct embedded in struct job so that a job stays one flat value:
 * fixed-size strings, no pointers, so job_copy()'s memcpy copies it and
 * job_free() has nothing to release.  The option rows that fill it live in
 * each engine's header (engine_fileop.h, engine_cpuio.h, engine_exec.h,
 * engine_e4defrag.h, engine_rbd.h) and carry .engines=, so they are refused under any
 * other engine (opt_engine_owned_check).
 */
#ifndef IOTRIAL_JOB_ENGINE_H
#define IOTRIAL_JOB_ENGINE_H

#include <stddef.h>
#include <stdint.h>

enum job_stat_type { JOB_STAT_STAT, JOB_STAT_LSTAT, JOB_STAT_STATX };
enum job_cpumode { JOB_CPUMODE_NOOP, JOB_CPUMODE_QSORT };
/* native and posix both preallocate (fallocate(2), size changed); keep
 * preallocates past the size; none and truncate only set the size */
enum job_fallocate { JOB_FALLOC_NATIVE, JOB_FALLOC_POSIX, JOB_FALLOC_KEEP, JOB_FALLOC_NONE,
		     JOB_FALLOC_TRUNCATE };

#define JOB_ENGINE_PATH_MAX 1024
#define JOB_ENGINE_NAME_MAX 256	/* rbd's pool, image, client and cluster names */

struct job_engine {
	/* filestat */
	int stat_type;			/* enum job_stat_type */
	/* cpuio */
	uint32_t cpuload;		/* percent of one CPU, 1..100 (required) */
	uint32_t cpuchunks;		/* us of CPU burnt per I/O (fio's cpucycle) */
	int cpumode;			/* enum job_cpumode */
	int exit_on_io_done;		/* end when the run's other jobs are done */
	/* exec */
	char program[JOB_ENGINE_PATH_MAX];
	char arguments[JOB_ENGINE_PATH_MAX];	/* as given: %r and %n expanded at run */
	uint64_t grace_time_us;		/* SIGTERM to SIGKILL (stored in us) */
	int std_redirect;		/* stdout/stderr to <job>.stdout / <job>.stderr */
	/* e4defrag */
	char donorname[JOB_ENGINE_PATH_MAX];
	int inplace;			/* 1: allocate the donor's blocks per I/O */
	/* file-operation engines: files are closed right after their operation */
	uint32_t openfiles;		/* 0 = nrfiles (fio's default) */
	/* rbd (engine_rbd.h): "" = unset */
	char rbd_clustername[JOB_ENGINE_NAME_MAX];
	char rbd_clientname[JOB_ENGINE_NAME_MAX];
	char rbd_pool[JOB_ENGINE_NAME_MAX];
	char rbd_name[JOB_ENGINE_NAME_MAX];
	int rbd_busy_poll;		/* spin on completions instead of sleeping */
	/* layout of new or extended files (file.c), fio's fallocate= */
	int fallocate;			/* enum job_fallocate */
};

/* fio's defaults: stat, cpuchunks 50000 us, noop, grace_time 1 s, std_redirect 1. */
void job_engine_init(struct job_engine *je);

#endif
