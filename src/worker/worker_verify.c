/*
 * worker_verify: what verify= adds to a worker (docs/compat.md, "Verify").
 *
 * Writes are logged as they complete (verify_log.h: a bitmap of blocks for
 * one block size, runs for the others), so the read-back checks exactly the
 * blocks the job wrote, each once and one read per block, whatever the
 * access pattern (norandommap, io_size below size, rw/randrw, bssplit):
 * fio logs its writes the same way.  verify_backlog checks the oldest
 * pending writes while the job runs: as fio, it turns them into READ io_us
 * that the worker's loop issues through the engine ahead of new I/O, at the
 * job's depth, and checks each as it completes (worker.c: worker_next_io,
 * worker_account); only the end pass reads synchronously.  verify_only replays the job's
 * generator into the log (the blocks it would write), as fio runs the job
 * without writing; verify_state_load reads the log a verify_state_save run
 * left instead.  experimental_verify, which in fio regenerates the offsets
 * instead of logging them, checks the same blocks here.
 *
 * Every read-back is one of the job's reads, counted as fio counts it: in
 * read's total_ios and io_bytes, its latency in read's clat and lat; the end
 * pass's time is added to read's runtime and the job's (worker_result), but
 * not to iotrial's interval series, which ends with the job's own I/O.  The
 * backlog's: from the issue of a batch's first read-back to that of the
 * next other I/O is read's runtime, not write's (fio's verifying state).
 */
#include "worker/worker_verify.h"

#include <errno.h>	/* ENOMEM, EINVAL */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* calloc, free, posix_memalign */
#include <string.h>	/* memset, strerror */
#include <unistd.h>	/* pread */
#include "io/buffer.h"	/* buffer_pattern_parse */
#include "io/ioerr.h"	/* ioerr_nonfatal */
#include "io/zbd.h"	/* verify_only: what the zones hold */
#include "lib/rand.h"	/* rand_mix */

/* The job's one size for direction @d, or 0 when sizes vary (bsrange, bssplit). */
static uint64_t verify_fixed_bs(const struct job *j, int d)
{
	if (j->bssplit_nr[d] || (j->bs_min[d] && (j->bs_min[d] != j->bs_max[d] || j->bs_min[d] != j->bs[d])))
		return 0;
	return j->bs[d];
}

/* The smallest size a direction's blocks can have. */
static uint64_t verify_min_bs(const struct job *j, int d)
{
	uint64_t m = j->bs_min[d] ? j->bs_min[d] : j->bs[d];
	unsigned i;

	for (i = 0; i < j->bssplit_nr[d]; i++)
		if (j->bssplit[d][i].bs && j->bssplit[d][i].bs < m)
			m = j->bssplit[d][i].bs;
	return m;
}

/* The largest. */
static uint64_t verify_max_bs(const struct job *j, int d)
{
	uint64_t m = j->bs_max[d] > j->bs[d] ? j->bs_max[d] : j->bs[d];
	unsigned i;

	for (i = 0; i < j->bssplit_nr[d]; i++)
		if (j->bssplit[d][i].bs > m)
			m = j->bssplit[d][i].bs;
	return m;
}

/*
 * A read-back of @n bytes at @off of file @file, counted as one of the
 * job's reads (fio counts its verify reads so): pread on the file's fd, or
 * the engine's own read for a target without one (rbd's image).
 */
static int64_t verify_read(struct worker *w, unsigned file, void *buf, uint64_t n, uint64_t off)
{
	struct worker_dir *d = &w->st.dir[DDIR_READ];
	uint64_t t0 = clock_ticks(w->clk), t1, lat;
	int64_t got;

	if (w->ops->read_sync) {
		got = w->ops->read_sync(&w->ctx, file, buf, n, off);
	} else {
		ssize_t r = pread(w->files[file].fd, buf, n, (off_t)off);

		got = r < 0 ? -errno : (int64_t)r;
	}
	t1 = clock_ticks(w->clk);
	if (got <= 0)
		return got;
	lat = clock_ticks_to_ns(w->clk, t1 - t0);
	d->ios++;
	d->bytes += (uint64_t)got;
	if ((uint64_t)got != n)
		d->short_ios++;
	hist_add(&d->clat_hist, lat);
	lat_acc_add(&d->clat, lat);
	hist_add(&d->lat_hist, lat);
	lat_acc_add(&d->lat, lat);
	if (lat < d->iv_lat_min)
		d->iv_lat_min = lat;
	if (lat > d->iv_lat_max)
		d->iv_lat_max = lat;
	/* a synchronous read: one submit and one completion at depth 1 */
	w->st.depth_level[0]++;
	w->st.depth_submit[1]++;
	w->st.depth_complete[1]++;
	w->st.total_submit++;
	w->st.total_complete++;
	if (w->log_on)
		fiolog_io(&w->log, clock_ticks_to_ns(w->clk, t1 - w->t_measure) / 1000000, DDIR_READ,
			  (uint32_t)n, off, FIOLOG_NONE, lat, lat);
	return got;
}

/* A verify failure @r (from verify_block/verify_check) ends the job with its message. */
static void verify_failed(struct worker *w, int r)
{
	w->error = -r;
	snprintf(w->first_error, sizeof(w->first_error), "verify: %.240s", w->vres.fail_msg);
}

/*
 * continue_on_error=verify let a bad interval pass: counted with the job's
 * other non-fatal errors and handed to the caller, which prints each (fio
 * prints every verify failure).
 */
static void verify_let_pass(void *arg, uint64_t offset, const char *msg)
{
	struct worker *w = arg;
	struct ioerr_event ev = {
		.job = w->job->name, .file = "", .err = EILSEQ, .ddir = DDIR_READ,
		.offset = offset, .len = w->verify.interval ? w->verify.interval : w->verify.bs,
		.msg = msg,
	};

	if (!w->total_err++)
		w->first_nonfatal = EILSEQ;
	if (w->error_dump)
		w->error_dump(w->error_dump_arg, &ev);
}

/*
 * verify_state_save/_load: the state file of this clone (fio's name and
 * place).  A '/' in the job's name becomes '.', as fio escapes it: a job
 * named after its device (fio's t/zbd names each job /dev/X) keeps its state
 * file in the folder, not in a path that does not exist.
 */
static void verify_state_path(const struct worker *w, char *out, size_t n)
{
	int at = snprintf(out, n, "%s%slocal-", w->aux_path ? w->aux_path : "",
			  w->aux_path ? "/" : "");
	size_t k = at < 0 ? 0 : (size_t)at;

	for (const char *c = w->job->name; *c && k + 1 < n; c++)
		out[k++] = *c == '/' ? '.' : *c;
	if (k < n)
		snprintf(out + k, n - k, "-%u-verify.state", w->thread_index);
	else if (n)
		out[n - 1] = '\0';
}

/* A log over the job's files' regions (one bit per @bs block; @bs 0: runs only). */
static int verify_log_setup(struct worker *w, struct verify_log *l, uint64_t bs, struct err *e)
{
	uint64_t *start = calloc(w->nr_files + 1, sizeof(*start));
	uint64_t *size = calloc(w->nr_files + 1, sizeof(*size));
	unsigned i;
	int r;

	if (!start || !size) {
		free(start);
		free(size);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "job '%s': no memory for the verify log",
			       w->job->name);
	}
	for (i = 0; i < w->nr_files; i++) {
		start[i] = w->files[i].offset;
		size[i] = w->files[i].size;
	}
	r = verify_log_init(l, w->nr_files, start, size, bs, e);
	free(start);
	free(size);
	return r;
}

int worker_verify_init(struct worker *w, struct err *e)
{
	const struct job *j = w->job;
	uint8_t pat[BUFFER_PATTERN_MAX];
	unsigned n = 0;
	const char *why;
	int writes = job_writes(j), d, r;
	uint64_t bs;
	struct err le;	/* a step's own message, then prefixed with the job's name */

	memset(&w->vres, 0, sizeof(w->vres));
	if (!j->verify_method)
		return 0;
	if (j->verify_pattern && buffer_pattern_parse(j->verify_pattern, pat, &n, &why))
		return err_set(e, -EINVAL, EXIT_USAGE, "job '%s': verify_pattern: %s", j->name, why);
	w->vres.method = j->verify_method;
	/* a job that only reads checks what it reads, as it reads it (fio's verify on read) */
	w->verify_reads = j->do_verify && !writes;
	d = writes ? DDIR_WRITE : DDIR_READ;
	bs = verify_fixed_bs(j, d);
	w->vres.no_pass = j->time_based || !j->do_verify || (w->verify_reads && !j->verify_only);
	err_clear(&le);
	r = verify_init(&w->verify, (enum verify_method)j->verify_method, (uint32_t)bs,
			j->verify_interval, pat, n, rand_mix(0x5eedull, w->thread_index), &le);
	if (!r)
		r = verify_set_offset(&w->verify, j->verify_offset, (uint32_t)verify_min_bs(j, d), &le);
	if (r)
		return err_set(e, r, EXIT_USAGE, "job '%s': %s", j->name, le.msg);
	w->verify.dump = j->verify_dump;
	w->verify.dump_dir = w->aux_path;
	/* continue_on_error=verify: every bad block counted and named (verify_fatal: the first ends it) */
	w->verify.keep_going = !j->verify_fatal && ioerr_nonfatal(&j->ioerr, IOERR_VERIFY, EILSEQ);
	w->verify.on_fail = w->verify.keep_going ? verify_let_pass : NULL;
	w->verify.on_fail_arg = w;
	if (!w->nr_files)
		return 0;
	if (j->verify_backlog && writes && !j->verify_only) {
		uint64_t blen = (verify_max_bs(j, DDIR_WRITE) + 4095) & ~4095ull;

		/* pending never passes verify_backlog: reaching it starts a check */
		w->vbl_cap = (unsigned)j->verify_backlog;
		/*
		 * Room for the writes in flight too: they complete into the ring
		 * while due read-backs wait for io_us (no write is issued then),
		 * so it never holds more than vbl_cap + iodepth.
		 */
		w->vbl_size = w->vbl_cap + 2 * (j->iodepth ? j->iodepth : 1) + 1;
		w->vbl_off = calloc(w->vbl_size, sizeof(*w->vbl_off));
		w->vbl_len = calloc(w->vbl_size, sizeof(*w->vbl_len));
		w->vbl_file = calloc(w->vbl_size, sizeof(*w->vbl_file));
		if (!w->vbl_off || !w->vbl_len || !w->vbl_file || posix_memalign(&w->vbl_buf, 4096, blen))
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "job '%s': no memory for verify_backlog",
				       j->name);
		w->vtrack = 1;
	}
	/* the blocks written: for the end pass (unless the backlog has them) and the state file */
	if ((writes && !j->verify_only && ((!w->vres.no_pass && !w->vbl_cap) || j->verify_state_save)) ||
	    (j->verify_only && !w->vres.no_pass && !j->verify_state_load)) {
		r = verify_log_setup(w, &w->vlog, bs, e);
		if (r)
			return r;
		w->vlog_on = 1;
		w->vtrack |= writes && !j->verify_only;
	}
	if (j->verify_state_load) {
		char path[4200];

		r = verify_log_setup(w, &w->vstate, bs, e);
		if (r)
			return r;
		w->vstate_on = 1;
		verify_state_path(w, path, sizeof(path));
		err_clear(&le);
		r = verify_log_load(&w->vstate, path, &le);
		if (r)
			return err_set(e, r, le.exit_code, "job '%s': %s", j->name, le.msg);
	}
	return 0;
}

/* The ring's oldest entry (a due read-back if any, else the oldest pending block). */
static unsigned verify_backlog_oldest(const struct worker *w)
{
	return (w->vbl_head + w->vbl_size - w->vbl_nr - w->vbl_due) % w->vbl_size;
}

/*
 * The end pass: read back and check, synchronously, what is left in the
 * ring (due or pending), which leaves it.
 */
static void verify_backlog_check(struct worker *w)
{
	uint64_t t0 = clock_ticks(w->clk);

	while ((w->vbl_due || w->vbl_nr) && !w->error) {
		unsigned i = verify_backlog_oldest(w);
		const struct engine_file *f = &w->files[w->vbl_file[i]];
		int64_t got = verify_read(w, w->vbl_file[i], w->vbl_buf, w->vbl_len[i], w->vbl_off[i]);
		int r;

		if (w->vbl_due)
			w->vbl_due--;
		else
			w->vbl_nr--;
		r = verify_block(&w->verify, got, w->vbl_buf, w->vbl_len[i], w->vbl_off[i], f->path,
				 &w->vres);
		if (r)
			verify_failed(w, r);
	}
	if (atomic_load_explicit(&w->measuring, memory_order_relaxed))
		w->vbl_ns += clock_ticks_to_ns(w->clk, clock_ticks(w->clk) - t0);
}

void worker_verify_backlog_next(struct worker *w, struct io_u *io)
{
	unsigned i = verify_backlog_oldest(w);

	w->vbl_due--;
	io->vbl = 1;
	io->ddir = DDIR_READ;
	io->offset = w->vbl_off[i];
	io->len = w->vbl_len[i];
	io->file = w->vbl_file[i];
	io->ioprio = 0;
}

void worker_verify_backlog_done(struct worker *w, const struct io_u *io)
{
	int r;

	if (w->error)
		return;		/* after a failure nothing more is checked */
	r = verify_block(&w->verify, io->res, io->buf, io->len, io->offset, w->files[io->file].path,
			 &w->vres);
	if (r)
		verify_failed(w, r);
}

/*
 * As fio 3.33 measured: when verify_backlog writes are pending, the oldest
 * verify_backlog_batch of them are checked; a batch larger than what is
 * pending goes on with the next writes, one by one, until it is used up.
 * So every written block is checked once, whatever the batch (fio's HOWTO
 * says otherwise, its code does this).
 */
void worker_verify_written(struct worker *w, const struct io_u *io)
{
	const struct job *j = w->job;
	uint64_t batch = j->verify_backlog_batch ? j->verify_backlog_batch : j->verify_backlog;
	unsigned n;

	if (!w->nr_files || w->error || (uint64_t)io->res != io->len)
		return;		/* after a failure nothing more is checked; a short write is not logged */
	if (w->vlog_on && verify_log_add(&w->vlog, io->file, io->offset, io->len)) {
		w->error = ENOMEM;
		snprintf(w->first_error, sizeof(w->first_error), "no memory for the verify log");
		return;
	}
	if (!w->vbl_cap)
		return;
	if (w->vbl_nr + w->vbl_due >= w->vbl_size) {	/* cannot happen (worker_verify_init) */
		w->error = ENOSPC;
		snprintf(w->first_error, sizeof(w->first_error), "verify_backlog: ring full");
		return;
	}
	w->vbl_off[w->vbl_head] = io->offset;
	w->vbl_len[w->vbl_head] = io->len;
	w->vbl_file[w->vbl_head] = io->file;
	w->vbl_head = (w->vbl_head + 1) % w->vbl_size;
	w->vbl_nr++;
	if (!w->vbl_since && w->vbl_nr < w->vbl_cap)
		return;
	if (!w->vbl_since)
		w->vbl_since = batch;	/* a new batch */
	n = w->vbl_since < w->vbl_nr ? (unsigned)w->vbl_since : w->vbl_nr;
	w->vbl_since -= n;
	/* the oldest n become read-backs: worker_next_io issues them before new I/O */
	w->vbl_nr -= n;
	w->vbl_due += n;
}

void worker_verify_read(struct worker *w, const struct io_u *io)
{
	int r;

	if (w->error || (uint64_t)io->res != io->len)
		return;		/* a short read is counted as such, not checked */
	/* verify_state_load: only what the saved run wrote holds data to check */
	if (w->vstate_on && !verify_log_has(&w->vstate, io->file, io->offset, io->len))
		return;
	r = verify_check(&w->verify, io->buf, io->len, io->offset,
			 w->nr_files ? w->files[io->file].path : "", &w->vres);
	if (r)
		verify_failed(w, r);
}

/*
 * verify_only under zonemode=zbd: what the zones hold, in the job's write
 * block size from each sequential zone's start to its write pointer (the
 * device's report, or what this run's writes left), since the writes went to
 * the write pointers, not to the offsets the job's generator makes.
 */
static int verify_zones(struct worker *w)
{
	uint64_t bs = w->job->bs[DDIR_WRITE], start, end, off;
	unsigned f;
	uint32_t k;
	int r;

	for (f = 0; f < w->nr_files && w->zbd_files; f++)
		for (k = 0; (r = zbd_zone_data(&w->zbd_files[f], k, &start, &end)) >= 0; k++)
			for (off = start; r && bs && off + bs <= end; off += bs)
				if (verify_log_add(&w->vlog, f, off, bs))
					return -ENOMEM;
	return 0;
}

/*
 * verify_only: the blocks the job would write (a read job: read), from its
 * own generator, as fio runs the job without writing; each write is counted
 * in write's total_ios and io_bytes (no latency: none was done), as fio 3.33
 * reports them.  @log: add them to the verify log.  A time_based job's
 * generator never ends: one pass over its io_size is taken.
 */
static int verify_replay(struct worker *w, int log)
{
	const struct job *j = w->job;
	int writes = job_writes(j);
	uint64_t total = 0, ios = 0, cap = j->time_based ? w->gen.io_limit : UINT64_MAX;
	struct io_u io;

	memset(&io, 0, sizeof(io));
	while (total < cap && (!j->number_ios || ios < j->number_ios) && !iogen_next(&w->gen, &io)) {
		ios++;
		total += io.len;
		if (io.ddir != (writes ? DDIR_WRITE : DDIR_READ))
			continue;
		/* fio completes each write at once without doing it, and counts it */
		if (writes) {
			w->st.dir[DDIR_WRITE].ios++;
			w->st.dir[DDIR_WRITE].bytes += io.len;
		}
		/* under zonemode=zbd the zones say where the data is (verify_zones) */
		if (log && (!w->zbd_files || (io.file < w->nr_files &&
					      zbd_conventional(&w->zbd_files[io.file], io.offset))) &&
		    verify_log_add(&w->vlog, io.file, io.offset, io.len))
			return -ENOMEM;
	}
	return log && w->zbd_files ? verify_zones(w) : 0;
}

/* Read back every block of @l and check it. */
static void verify_log_pass(struct worker *w, struct verify_log *l)
{
	struct verify_log_iter it;
	unsigned file;
	uint64_t off, len;
	int r;

	verify_log_iter_init(l, &it);
	while (!w->error && !atomic_load_explicit(&w->stop, memory_order_relaxed) &&
	       verify_log_next(l, &it, &file, &off, &len)) {
		int64_t got;

		if (len > w->ctx.buf_len || file >= w->nr_files)
			continue;	/* a saved state from another job's sizes: not ours to read */
		got = verify_read(w, file, w->ctx.buf_base, len, off);
		w->vpass_ios++;
		r = verify_block(&w->verify, got, w->ctx.buf_base, (uint32_t)len, off, w->files[file].path,
				 &w->vres);
		if (r)
			verify_failed(w, r);
	}
}

void worker_verify_pass(struct worker *w)
{
	const struct job *j = w->job;
	unsigned k;

	if (w->vres.no_pass || !w->nr_files)
		return;
	if (w->vbl_cap) {
		k = w->vbl_nr + w->vbl_due;
		verify_backlog_check(w);
		w->vpass_ios += k;
		return;
	}
	if (j->verify_state_load) {
		if (j->verify_only)	/* the writes it stands in for, counted as fio */
			verify_replay(w, 0);
		verify_log_pass(w, &w->vstate);
		return;
	}
	if (!w->vlog_on)
		return;
	if (j->verify_only && verify_replay(w, 1)) {
		w->error = ENOMEM;
		snprintf(w->first_error, sizeof(w->first_error), "no memory for the verify log");
		return;
	}
	verify_log_pass(w, &w->vlog);
}

void worker_verify_save(struct worker *w)
{
	const struct job *j = w->job;
	char path[4200], **paths;
	struct err e;
	unsigned i;

	if (!w->vlog_on || !j->verify_state_save || j->verify_only || !job_writes(j))
		return;
	paths = calloc(w->nr_files + 1, sizeof(*paths));
	if (!paths)
		return;
	for (i = 0; i < w->nr_files; i++)
		paths[i] = w->files[i].path;
	err_clear(&e);
	verify_state_path(w, path, sizeof(path));
	if (verify_log_save(&w->vlog, path, j->name, w->thread_index, paths, &e) && !w->error) {
		w->error = -e.code;
		snprintf(w->first_error, sizeof(w->first_error), "%.255s", e.msg);
	}
	free(paths);
}

void worker_verify_free(struct worker *w)
{
	free(w->vbl_off);
	free(w->vbl_len);
	free(w->vbl_file);
	free(w->vbl_buf);
	w->vbl_off = NULL;
	w->vbl_len = NULL;
	w->vbl_file = NULL;
	w->vbl_buf = NULL;
	w->vbl_cap = 0;
	w->vbl_size = 0;
	verify_log_free(&w->vlog);
	verify_log_free(&w->vstate);
	w->vlog_on = 0;
	w->vstate_on = 0;
	w->vtrack = 0;
}
