/*
 * fiolog: fio-format log files (fiolog.h).
 *
 * Entries are collected as binary records per thread and formatted only when
 * the measurement ends, so the I/O path never formats text.  Windows are
 * closed lazily: by the first I/O that completes after the window's end, or
 * by fiolog_close(); a window is stamped with its nominal end, so lines come
 * out at exact multiples of log_avg_msec / log_hist_msec whatever the timing
 * of the I/O that closed them.
 */
#include "log/fiolog.h"
#include "io/safety.h"
#include "lib/vec.h"

#include <errno.h>	/* ENOMEM, errno */
#include <stdio.h>	/* fopen, fprintf */
#include <stdlib.h>	/* malloc, realloc, free */
#include <string.h>	/* memset, strerror, strdup */
#include <sys/file.h>	/* flock: per_job_logs=0 files are shared */
#include "log/fiolog_fz.h"	/* log_store_compressed */

_Static_assert(sizeof(struct fiolog_rec) == 32, "update the cost note in fiolog.h");

static const char *const fiolog_suffix[FIOLOG_KINDS] = {
	"bw", "iops", "slat", "clat", "lat", "clat_hist",
};

/* Append one line record of kind @k; counts it as dropped if memory ran out. */
static void put(struct fiolog *l, int k, uint64_t t, uint64_t val, uint64_t aux,
		uint32_t bs, uint32_t ddir)
{
	if (l->nr[k] == l->cap[k] &&
	    vec_grow((void **)&l->r[k], &l->cap[k], l->nr[k] + 1, sizeof(*l->r[k]), 1024)) {
		l->dropped++;
		return;
	}
	l->r[k][l->nr[k]++] = (struct fiolog_rec){ .t_ms = t, .val = val, .aux = aux,
						   .bs = bs, .ddir = (uint16_t)ddir, .prio = l->prio };
}

void fiolog_io_rec(struct fiolog *l, uint64_t t_ms, enum ddir d, uint32_t bs, uint64_t offset,
		   uint64_t slat_ns, uint64_t clat_ns, uint64_t lat_ns)
{
	uint64_t spent = clat_ns != FIOLOG_NONE ? clat_ns : lat_ns;

	if (l->rec & (1u << FIOLOG_BW))	/* the I/O's own rate, in fio's unit */
		put(l, FIOLOG_BW, t_ms, spent && spent != FIOLOG_NONE ?
		    (uint64_t)bs * 1000000 / spent : 0, offset, bs, d);
	if (l->rec & (1u << FIOLOG_IOPS))
		put(l, FIOLOG_IOPS, t_ms, 1, offset, bs, d);
	/* slat was measured at submission, clat_ns before completion */
	if ((l->rec & (1u << FIOLOG_SLAT)) && slat_ns != FIOLOG_NONE) {
		uint64_t back = clat_ns != FIOLOG_NONE ? clat_ns / 1000000 : 0;

		put(l, FIOLOG_SLAT, t_ms > back ? t_ms - back : 0, slat_ns, offset, bs, d);
	}
	if ((l->rec & (1u << FIOLOG_CLAT)) && clat_ns != FIOLOG_NONE)
		put(l, FIOLOG_CLAT, t_ms, clat_ns, offset, bs, d);
	if ((l->rec & (1u << FIOLOG_LAT)) && lat_ns != FIOLOG_NONE)
		put(l, FIOLOG_LAT, t_ms, lat_ns, offset, bs, d);
}

/* Emit the window that ends at @t for every kind and direction that saw I/O. */
static void emit_window(struct fiolog *l, uint64_t t, uint64_t span_ms, int lat_only)
{
	for (int k = 0; k < FIOLOG_LINES; k++) {
		int is_lat = k == FIOLOG_SLAT || k == FIOLOG_CLAT || k == FIOLOG_LAT;

		for (int d = 0; d < DDIR_NR; d++) {
			struct fiolog_acc *a = &l->acc[k][d];
			uint64_t v;

			if (!a->n || !(l->rec & (1u << k)) || (lat_only && !is_lat)) {
				memset(a, 0, sizeof(*a));
				continue;
			}
			if (k == FIOLOG_BW)
				v = a->sum * 1000 / span_ms / 1024;
			else if (k == FIOLOG_IOPS)
				v = a->n * 1000 / span_ms;
			else
				v = a->sum / a->n;
			/* one rate sample per window: its max is itself */
			put(l, k, t, v, is_lat ? a->max : v, 0, (uint32_t)d);
			memset(a, 0, sizeof(*a));
		}
	}
}

void fiolog_roll(struct fiolog *l, uint64_t t_ms)
{
	if (!l->avg_ms)
		return;
	l->prio = 0;	/* a window mixes priorities: logged as none */
	emit_window(l, l->win_end, l->avg_ms, 0);
	l->win_end = (t_ms / l->avg_ms + 1) * l->avg_ms;
}

void fiolog_hist_roll(struct fiolog *l, uint64_t t_ms)
{
	for (int d = 0; d < DDIR_NR; d++) {
		struct hist *h = &l->hist[d];
		size_t nz = 0;

		for (unsigned i = 0; i < HIST_NR; i++)
			nz += h->b[i] != 0;
		if (!nz)
			continue;
		if (vec_grow((void **)&l->hrow, &l->h_cap, l->h_nr + 1, sizeof(*l->hrow), 1024) ||
		    vec_grow((void **)&l->hb, &l->hb_cap, l->hb_nr + nz, sizeof(*l->hb), 1024)) {
			l->dropped++;
		} else {
			struct fiolog_hrow *row = &l->hrow[l->h_nr++];

			*row = (struct fiolog_hrow){ .t_ms = l->hist_end, .ddir = (uint32_t)d,
						     .bs = l->hist_bs[d], .off = l->hb_nr, .nr = nz };
			for (unsigned i = 0; i < HIST_NR; i++)
				if (h->b[i])
					l->hb[l->hb_nr++] = (struct fiolog_hb){ .idx = i, .count = h->b[i] };
		}
		memset(h, 0, sizeof(*h));
	}
	l->hist_end = (t_ms / l->hist_ms + 1) * l->hist_ms;
}

static int make_path(struct fiolog *l, int k, const struct job *j, const char *prefix,
		     unsigned jobnum)
{
	const char *p = prefix[0] ? prefix : j->name;
	char num[16] = "";
	size_t len;

	if (!l->append)
		snprintf(num, sizeof(num), ".%u", jobnum);
	len = strlen(p) + strlen(fiolog_suffix[k]) + strlen(num) + 11;
	l->path[k] = malloc(len);
	if (!l->path[k])
		return -ENOMEM;
	snprintf(l->path[k], len, "%s_%s%s.log%s", p, fiolog_suffix[k], num,
		 l->fz && k < FIOLOG_LINES ? ".fz" : "");
	l->files |= 1u << k;
	return 0;
}

/* Create (or open for append) each file now, so a bad path fails early. */
static int touch_files(struct fiolog *l, struct err *e)
{
	for (int k = 0; k < FIOLOG_KINDS; k++) {
		FILE *f;

		if (!(l->files & (1u << k)))
			continue;
		f = fopen(l->path[k], l->append ? "a" : "w");
		if (!f)
			return err_set(e, -errno, EXIT_OUTPUT, "%s: cannot create log file: %s",
				       l->path[k], strerror(errno));
		fclose(f);
	}
	return 0;
}

static int setup(struct fiolog *l, const struct job *j, unsigned jobnum)
{
	int ret = 0;

	if (j->write_bw_log)
		ret |= make_path(l, FIOLOG_BW, j, j->write_bw_log, jobnum);
	if (j->write_iops_log)
		ret |= make_path(l, FIOLOG_IOPS, j, j->write_iops_log, jobnum);
	if (j->write_lat_log) {
		if (!j->disable_slat)
			ret |= make_path(l, FIOLOG_SLAT, j, j->write_lat_log, jobnum);
		if (!j->disable_clat)
			ret |= make_path(l, FIOLOG_CLAT, j, j->write_lat_log, jobnum);
		if (!j->disable_lat)
			ret |= make_path(l, FIOLOG_LAT, j, j->write_lat_log, jobnum);
	}
	if (j->write_hist_log)
		ret |= make_path(l, FIOLOG_HIST, j, j->write_hist_log, jobnum);
	if (ret)
		return -ENOMEM;
	l->rec = l->files & ((1u << FIOLOG_LINES) - 1);
	if ((l->files & (1u << FIOLOG_HIST)) && l->hist_ms) {
		l->hist = calloc(DDIR_NR, sizeof(*l->hist));
		if (!l->hist)
			return -ENOMEM;
	}
	return 0;
}

int fiolog_open(struct fiolog *l, const struct job *j, unsigned jobnum, struct err *e)
{
	int ret;

	memset(l, 0, sizeof(*l));
	l->avg_ms = j->log_avg_msec;
	l->hist_ms = j->log_hist_msec;
	l->window_value = j->log_max_value;
	l->log_offset = j->log_offset;
	l->log_prio = j->cmdprio.log_prio;
	l->append = !j->per_job_logs;
	l->fz = j->log_store_compressed;
	l->fz_chunk = j->log_compression;
	l->win_end = l->avg_ms;
	l->hist_end = l->hist_ms;
	ret = setup(l, j, jobnum);
	if (!ret)
		ret = touch_files(l, e);
	else
		err_set(e, ret, EXIT_INTERNAL, "%s: out of memory setting up logs", j->name);
	if (ret)
		fiolog_free(l);
	return ret;
}

int fiolog_check_paths(const struct job *j, unsigned jobnum, int allow_device, struct err *e)
{
	static const char *const opt[FIOLOG_KINDS] = {
		"write_bw_log", "write_iops_log", "write_lat_log", "write_lat_log",
		"write_lat_log", "write_hist_log",
	};
	struct fiolog l;
	int ret;

	memset(&l, 0, sizeof(l));
	l.append = !j->per_job_logs;
	l.fz = j->log_store_compressed;
	ret = setup(&l, j, jobnum);
	if (ret)
		err_set(e, ret, EXIT_INTERNAL, "%s: out of memory setting up logs", j->name);
	for (int k = 0; k < FIOLOG_KINDS && !ret; k++)
		if (l.files & (1u << k))
			ret = safety_check_output(l.path[k], opt[k], allow_device, e);
	fiolog_free(&l);
	return ret;
}

void fiolog_free(struct fiolog *l)
{
	if (!l)
		return;
	for (int k = 0; k < FIOLOG_KINDS; k++)
		free(l->path[k]);
	for (int k = 0; k < FIOLOG_LINES; k++)
		free(l->r[k]);
	free(l->hist);
	free(l->hrow);
	free(l->hb);
	memset(l, 0, sizeof(*l));
}

static void write_lines(const struct fiolog *l, int k, FILE *f)
{
	for (size_t i = 0; i < l->nr[k]; i++) {
		const struct fiolog_rec *r = &l->r[k][i];

		fprintf(f, "%llu, ", (unsigned long long)r->t_ms);
		if (!l->avg_ms || l->window_value == 0)
			fprintf(f, "%llu, ", (unsigned long long)r->val);
		else if (l->window_value == 1)
			fprintf(f, "%llu, ", (unsigned long long)r->aux);
		else
			fprintf(f, "%llu, %llu, ", (unsigned long long)r->val,
				(unsigned long long)r->aux);
		fprintf(f, "%u, %u, ", r->ddir, r->bs);
		if (l->log_offset)
			fprintf(f, "%llu, ", (unsigned long long)(l->avg_ms ? 0 : r->aux));
		if (l->log_prio)	/* fio: the ioprio value in hex */
			fprintf(f, "0x%04x\n", r->prio);
		else			/* fio: whether the I/O had the RT class */
			fprintf(f, "%d\n", (r->prio >> 13) == 1);
	}
}

static void write_hist(const struct fiolog *l, FILE *f)
{
	uint64_t *dense = calloc(HIST_NR, sizeof(*dense));

	if (!dense)
		return;
	for (size_t i = 0; i < l->h_nr; i++) {
		const struct fiolog_hrow *row = &l->hrow[i];

		for (size_t k = 0; k < row->nr; k++)
			dense[l->hb[row->off + k].idx] = l->hb[row->off + k].count;
		fprintf(f, "%llu, %u, %u", (unsigned long long)row->t_ms, row->ddir, row->bs);
		for (unsigned b = 0; b < HIST_NR; b++)
			fprintf(f, ", %llu", (unsigned long long)dense[b]);
		fputc('\n', f);
		for (size_t k = 0; k < row->nr; k++)
			dense[l->hb[row->off + k].idx] = 0;
	}
	free(dense);
}

static int write_file(const struct fiolog *l, int k, struct err *e)
{
	FILE *f = fopen(l->path[k], l->append ? "a" : "w");
	int ret = 0;

	if (!f)
		return err_set(e, -errno, EXIT_OUTPUT, "%s: cannot write log file: %s",
			       l->path[k], strerror(errno));
	/* jobs sharing a per_job_logs=0 file: one whole log at a time */
	if (l->append)
		flock(fileno(f), LOCK_EX);
	if (k == FIOLOG_HIST)
		write_hist(l, f);
	else if (l->fz) {
		struct fiolog_fz_fmt fmt = {
			.offset = l->log_offset, .prio = l->log_prio, .windowed = l->avg_ms > 0,
			.window_max = l->window_value == 1,
		};

		ret = fiolog_fz_write(l->r[k], l->nr[k], &fmt, f, l->fz_chunk, l->path[k], e);
	}
	else
		write_lines(l, k, f);
	if (!ret && (fflush(f) || ferror(f)))
		ret = err_set(e, -(errno ? errno : EIO), EXIT_OUTPUT, "%s: write failed: %s",
			      l->path[k], strerror(errno ? errno : EIO));
	if (l->append)
		flock(fileno(f), LOCK_UN);
	if (fclose(f) && !ret)
		ret = err_set(e, -(errno ? errno : EIO), EXIT_OUTPUT, "%s: close failed: %s",
			      l->path[k], strerror(errno ? errno : EIO));
	return ret;
}

/*
 * fio logs a bw/iops window or a histogram row only while the job still runs
 * at the window's end; a job whose runtime is a multiple of the window (2 s,
 * log_avg_msec=250) ends before its last window is sampled, so that window
 * is missing from fio's files.  Drop what is stamped at or after the end.
 * The latency logs keep their last window: fio writes it at exit.
 */
static void drop_at_end(struct fiolog *l, uint64_t t_end_ms)
{
	if (l->avg_ms) {
		for (int k = FIOLOG_BW; k <= FIOLOG_IOPS; k++)
			while (l->nr[k] && l->r[k][l->nr[k] - 1].t_ms >= t_end_ms)
				l->nr[k]--;
	}
	while (l->h_nr && l->hrow[l->h_nr - 1].t_ms >= t_end_ms) {
		l->h_nr--;
		l->hb_nr = l->hrow[l->h_nr].off;
	}
}

int fiolog_close(struct fiolog *l, uint64_t t_end_ms, struct err *e)
{
	int ret = 0;

	if (l->rec && l->avg_ms) {
		if (t_end_ms >= l->win_end)
			fiolog_roll(l, t_end_ms);
		/* the partial last window: latency logs keep it, bw/iops drop it */
		if (t_end_ms > l->win_end - l->avg_ms)
			emit_window(l, t_end_ms, t_end_ms - (l->win_end - l->avg_ms), 1);
	}
	if (l->hist && t_end_ms >= l->hist_end)
		fiolog_hist_roll(l, t_end_ms);
	drop_at_end(l, t_end_ms);
	for (int k = 0; k < FIOLOG_KINDS; k++) {
		if (!(l->files & (1u << k)))
			continue;
		ret = write_file(l, k, e);
		if (ret)
			break;
	}
	return ret;
}
