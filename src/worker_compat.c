/*
 * worker_compat: the parts of a worker that fio-compatibility options add
 * (docs/compat.md), kept out of worker.c so its I/O loop stays small: the verify
 * context and read-back pass (verify.h), the rate_min check, wait_for.
 * worker.c calls each at one place; none runs per I/O.
 */
#include "worker_compat.h"

#include <errno.h>	/* EIO, EINVAL */
#include <stdio.h>	/* snprintf */
#include <string.h>	/* memset */
#include <time.h>	/* nanosleep */
#include <stdlib.h>	/* calloc, free, posix_memalign */
#include <unistd.h>	/* pread */
#include "buffer.h"	/* buffer_pattern_parse */
#include "rand.h"	/* rand_mix */

/* The target verify reads back: file @file of worker @w. */
struct compat_src {
	struct worker *w;
	unsigned file;
};

/*
 * verify's reads (verify_read_fn): pread on the file's fd, or the engine's
 * own read for an engine whose target has no fd (rbd's image).
 */
static int64_t compat_read(void *arg, void *buf, uint64_t n, uint64_t off)
{
	const struct compat_src *src = arg;
	struct worker *w = src->w;
	ssize_t got;

	if (w->ops->read_sync)
		return w->ops->read_sync(&w->ctx, src->file, buf, n, off);
	got = pread(w->files[src->file].fd, buf, n, (off_t)off);
	return got < 0 ? -errno : (int64_t)got;
}

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

/* A job that reads and writes (rw, randrw): verify checks only what it wrote. */
static int compat_mixed(const struct job *j)
{
	return (j->rw & RW_READ) && (j->rw & RW_WRITE);
}

/*
 * continue_on_error=verify let a bad interval pass: counted with the job's
 * other non-fatal errors and handed to the caller, which prints each (fio
 * prints every verify failure).
 */
static void compat_verify_failed(void *arg, uint64_t offset, const char *msg)
{
	struct worker *w = arg;
	struct ioerr_event ev = {
		.job = w->job->name, .file = "", .err = EILSEQ, .ddir = DDIR_READ,
		.offset = offset, .len = w->verify.interval, .msg = msg,
	};

	if (!w->total_err++)
		w->first_nonfatal = EILSEQ;
	if (w->error_dump)
		w->error_dump(w->error_dump_arg, &ev);
}

/*
 * verify=: the context from the job's options (validated by opt_verify_validate).
 * A mixed job without verify_backlog keeps one bit per block of each file,
 * set when a write of it completes: the end pass reads back those blocks,
 * as fio reads back the writes it logged, and never the job's other reads.
 */
int worker_compat_verify_init(struct worker *w, struct err *e)
{
	const struct job *j = w->job;
	uint8_t pat[BUFFER_PATTERN_MAX];
	unsigned n = 0, i;
	const char *why;
	int r;

	memset(&w->vres, 0, sizeof(w->vres));
	if (!j->verify_method)
		return 0;
	if (j->verify_pattern && buffer_pattern_parse(j->verify_pattern, pat, &n, &why))
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': verify_pattern: %s", j->name, why);
	w->vres.method = j->verify_method;
	w->vres.no_pass = j->time_based || !j->do_verify;
	if (j->verify_backlog) {
		size_t blen = ((size_t)j->bs[DDIR_WRITE] + 4095) & ~(size_t)4095;

		/* pending never passes verify_backlog: reaching it starts a check */
		w->vbl_cap = (unsigned)j->verify_backlog;
		w->vbl_off = calloc(w->vbl_cap, sizeof(*w->vbl_off));
		w->vbl_file = calloc(w->vbl_cap, sizeof(*w->vbl_file));
		if (!w->vbl_off || !w->vbl_file || posix_memalign(&w->vbl_buf, 4096, blen))
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "job '%s': no memory for verify_backlog",
				       j->name);
		w->vtrack = 1;
	} else if (compat_mixed(j) && !j->time_based && j->do_verify && w->nr_files) {
		w->vmap = calloc(w->nr_files, sizeof(*w->vmap));
		if (!w->vmap)
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "job '%s': out of memory", j->name);
		for (i = 0; i < w->nr_files; i++) {
			uint64_t bits = w->files[i].size / j->bs[DDIR_WRITE] + 1;

			w->vmap[i] = calloc((size_t)(bits + 63) / 64, sizeof(uint64_t));
			if (!w->vmap[i])
				return err_set(e, -ENOMEM, EXIT_INTERNAL,
					       "job '%s': no memory for the verify map", j->name);
		}
		w->vtrack = 1;
	}
	/* a job that only reads checks what it reads, as it reads it (fio's verify on read) */
	w->verify_reads = j->do_verify && !job_writes(j);
	r = verify_init(&w->verify, (enum verify_method)j->verify_method,
			(uint32_t)j->bs[w->verify_reads ? DDIR_READ : DDIR_WRITE],
			j->verify_interval, pat, n, rand_mix(0x5eedull, w->thread_index), e);
	w->verify.dump = j->verify_dump;
	/* continue_on_error=verify: every bad block counted and named (verify_fatal: the first ends it) */
	w->verify.keep_going = !j->verify_fatal && ioerr_nonfatal(&j->ioerr, IOERR_VERIFY, EILSEQ);
	w->verify.on_fail = w->verify.keep_going ? compat_verify_failed : NULL;
	w->verify.on_fail_arg = w;
	return r;
}

/* Read back and check the @n oldest pending blocks of the backlog ring, which leave it. */
static void compat_backlog_check(struct worker *w, unsigned n)
{
	uint32_t bs = w->verify.bs;
	unsigned k;

	if (n > w->vbl_nr)
		n = w->vbl_nr;
	for (k = 0; k < n && !w->error; k++) {
		unsigned i = (w->vbl_head + w->vbl_cap - w->vbl_nr) % w->vbl_cap;
		const struct engine_file *f = &w->files[w->vbl_file[i]];
		struct compat_src src = { w, w->vbl_file[i] };
		int64_t got = compat_read(&src, w->vbl_buf, bs, w->vbl_off[i]);
		int r;

		w->vbl_nr--;
		if (got != (int64_t)bs) {
			w->vres.failures++;
			w->vres.fail_offset = w->vbl_off[i];
			snprintf(w->vres.fail_msg, sizeof(w->vres.fail_msg),
				 "read back at offset %llu in %.200s: %s", (unsigned long long)w->vbl_off[i],
				 f->path, got < 0 ? strerror((int)-got) : "short read");
			r = got < 0 ? (int)got : -EILSEQ;
		} else {
			r = verify_check(&w->verify, w->vbl_buf, bs, w->vbl_off[i], f->path, &w->vres);
		}
		if (r) {
			w->error = -r;
			snprintf(w->first_error, sizeof(w->first_error), "verify: %.240s", w->vres.fail_msg);
		}
	}
}

/*
 * As fio 3.33 measured: when verify_backlog writes are pending, the oldest
 * verify_backlog_batch of them are checked; a batch larger than what is
 * pending goes on with the next writes, one by one, until it is used up.
 * So every written block is checked once, whatever the batch (fio's HOWTO
 * says otherwise, its code does this).
 */
void worker_compat_verify_written(struct worker *w, const struct io_u *io)
{
	const struct job *j = w->job;
	uint64_t batch = j->verify_backlog_batch ? j->verify_backlog_batch : j->verify_backlog;
	unsigned n;

	if (!w->nr_files || w->error)	/* after a failure the ring is not drained */
		return;
	if (w->vmap) {
		const struct engine_file *f = &w->files[io->file];
		uint64_t bit = (io->offset - f->offset) / w->verify.bs;

		if (io->offset >= f->offset && bit <= f->size / w->verify.bs)	/* the map's size */
			w->vmap[io->file][bit / 64] |= 1ull << (bit % 64);
		return;
	}
	w->vbl_off[w->vbl_head] = io->offset;
	w->vbl_file[w->vbl_head] = io->file;
	w->vbl_head = (w->vbl_head + 1) % w->vbl_cap;
	w->vbl_nr++;
	if (!w->vbl_since && w->vbl_nr < w->vbl_cap)
		return;
	if (!w->vbl_since)
		w->vbl_since = batch;	/* a new batch */
	n = w->vbl_since < w->vbl_nr ? (unsigned)w->vbl_since : w->vbl_nr;
	w->vbl_since -= n;
	compat_backlog_check(w, n);
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

void worker_compat_verify_read(struct worker *w, const struct io_u *io)
{
	int r;

	if (w->error || (uint64_t)io->res != io->len)
		return;		/* a short read is counted as such, not checked */
	r = verify_check(&w->verify, io->buf, io->len, io->offset,
			 w->nr_files ? w->files[io->file].path : "", &w->vres);
	if (r) {
		w->error = -r;
		snprintf(w->first_error, sizeof(w->first_error), "verify: %.240s", w->vres.fail_msg);
	}
}

void worker_compat_verify_free(struct worker *w)
{
	unsigned i;

	free(w->vbl_off);
	free(w->vbl_file);
	free(w->vbl_buf);
	w->vbl_off = NULL;
	w->vbl_file = NULL;
	w->vbl_buf = NULL;
	w->vbl_cap = 0;
	for (i = 0; w->vmap && i < w->nr_files; i++)
		free(w->vmap[i]);
	free(w->vmap);
	w->vmap = NULL;
	w->vtrack = 0;
}

/* A mixed job's end pass: the runs of written blocks of file @i, in offset order. */
static int compat_map_pass(struct worker *w, unsigned i)
{
	const uint64_t *m = w->vmap[i];
	uint64_t bs = w->verify.bs, bits = w->files[i].size / bs + 1, b = 0, e;
	struct compat_src src = { w, i };
	int r;

	while (b < bits) {
		if (!(m[b / 64] & (1ull << (b % 64)))) {
			b++;
			continue;
		}
		for (e = b + 1; e < bits && (m[e / 64] & (1ull << (e % 64))); e++)
			;
		r = verify_pass(&w->verify, compat_read, &src, w->files[i].path,
				w->files[i].offset + b * bs, w->files[i].offset + e * bs,
				w->ctx.buf_base, w->ctx.buf_len, &w->vres);
		if (r)
			return r;
		b = e;
	}
	return 0;
}

/*
 * do_verify: read every file's region back and check it (outside the
 * measurement); with verify_backlog, only the writes still pending; for a
 * mixed job, only the blocks it wrote.  A time_based job has none: as in
 * fio, its writes use the whole runtime and no read-back phase follows
 * (verify_backlog's checks during the run are all it gets).
 */
void worker_compat_verify_pass(struct worker *w)
{
	unsigned i;
	int r;

	if (w->vres.no_pass)
		return;
	if (w->vbl_cap) {
		compat_backlog_check(w, w->vbl_nr);
		return;
	}
	/* every read was checked as it came; verify_only did no reads: the pass checks */
	if (w->verify_reads && !w->job->verify_only)
		return;

	for (i = 0; i < w->gen.nr_files && i < w->nr_files; i++) {
		struct compat_src src = { w, i };

		r = w->vmap ? compat_map_pass(w, i)
			    : verify_pass(&w->verify, compat_read, &src, w->files[i].path,
					  w->gen.files[i].start, w->gen.files[i].end, w->ctx.buf_base,
					  w->ctx.buf_len, &w->vres);
		if (r) {
			w->error = -r;
			snprintf(w->first_error, sizeof(w->first_error), "verify: %.240s", w->vres.fail_msg);
			return;
		}
	}
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
