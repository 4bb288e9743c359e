/*
 * iolog: fio's I/O logs, write_iolog= (record each I/O a job issues) and
 * read_iolog= (replay a log instead of generating I/O), in fio 3.33's text
 * format so that logs pass between the two tools:
 *
 *   fio version 3 iolog
 *   <usec> <file> add
 *   <usec> <file> open
 *   <usec> <file> read|write|trim <offset> <length>
 *   <usec> <file> sync|datasync 0 0
 *   <usec> <file> close
 *
 * <usec> is the time since the job started, when the I/O was issued (fio's
 * version 3).  Version 2 logs (no time column) are read too.  A replay
 * issues each I/O at its logged time (replay_no_stall=1: as fast as it
 * can), to the job's file whose path or base name the log gives (a job with
 * one file takes every name: fio's replay_redirect), and takes its
 * directions from the log, as fio does (a read job replaying writes writes;
 * --readonly refuses such a log, as it refuses any job that writes).
 *
 * Recording costs one 24-byte record per I/O in memory (the user asked for
 * one line per I/O); the text is written when the job ends.  One log per
 * thread; clones of a job write the same file (the last one stays, as fio's).
 */
#ifndef IOTRIAL_IOLOG_H
#define IOTRIAL_IOLOG_H

#include <stddef.h>
#include <stdint.h>
#include "io/engine.h"	/* struct io_u */
#include "lib/err.h"

struct iolog_rec {
	uint64_t t_us;
	uint64_t off;
	uint32_t len;
	uint16_t file;
	uint8_t ddir;		/* enum ddir, DDIR_SYNC, DDIR_DATASYNC */
	uint8_t pad;
};

/* write_iolog: what a thread issued. */
struct iolog_writer {
	struct iolog_rec *r;
	size_t nr, cap;
	uint64_t t_open;	/* files opened (us since the job's start) */
	int dropped;		/* a record was lost to a failed allocation */
};

/* read_iolog: the I/Os to replay, in order. */
struct iolog_replay {
	struct iolog_rec *r;
	size_t nr, next;
	int timed;		/* version 3: issue at the logged times */
};

/* Record @io issued @t_us after the job's start (hot path: no formatting). */
static inline void iolog_record(struct iolog_writer *w, uint64_t t_us, const struct io_u *io);

/*
 * Write the log to @path: every record, each file named by @paths[file],
 * "add" and "open" at t_open, "close" at @t_close_us.  0 or -errno (+ @e).
 */
int iolog_write(const struct iolog_writer *w, const char *path, char *const *paths,
		unsigned nr_files, uint64_t t_close_us, struct err *e);

void iolog_writer_free(struct iolog_writer *w);

/*
 * Which directions the log at @path issues (bit 1 << ddir for read, write,
 * trim; syncs do not count), to set a replaying job's rw, and its largest
 * I/O in @max_len (the buffers must hold it).  0 or -errno with @e naming
 * the file and line.
 */
int iolog_scan(const char *path, unsigned *dirs, uint32_t *max_len, struct err *e);

/*
 * Load @path for replay on the job's @nr_files files named @paths (a log's
 * file is the job's file of the same path, else of the same base name, else
 * the only file).  @skip_writes: leave the log's writes out.  0 or -errno (+ @e naming file and line).
 */
int iolog_load(struct iolog_replay *rp, const char *path, char *const *paths, unsigned nr_files,
	       int skip_writes, struct err *e);

/*
 * The next I/O to replay into @io (ddir, file, offset, len); its time in
 * @t_us (UINT64_MAX: no time).  1 when the log is done.
 */
int iolog_next(struct iolog_replay *rp, struct io_u *io, uint64_t *t_us);

void iolog_replay_free(struct iolog_replay *rp);

/* The slow path of iolog_record. */
void iolog_record_grow(struct iolog_writer *w, uint64_t t_us, const struct io_u *io);

static inline void iolog_record(struct iolog_writer *w, uint64_t t_us, const struct io_u *io)
{
	struct iolog_rec *r;

	if (w->nr == w->cap) {
		iolog_record_grow(w, t_us, io);
		return;
	}
	r = &w->r[w->nr++];
	r->t_us = t_us;
	r->off = io->offset;
	r->len = io->len;
	r->file = (uint16_t)io->file;
	r->ddir = (uint8_t)io->ddir;
	r->pad = 0;
}

#endif
