/*
 * verify_log: the blocks a verify job wrote (see verify_log.h), and their
 * state file for verify_state_save / verify_state_load.
 */
#include "io/verify_log.h"

#include <errno.h>	/* ENOMEM, EINVAL */
#include <stdio.h>	/* fopen, fprintf, fgets */
#include <stdlib.h>	/* calloc, realloc, free, qsort */
#include <string.h>	/* memset, strerror */
#include <unistd.h>	/* rename, unlink */

#define STATE_MAGIC "iotrial verify state 1"

int verify_log_init(struct verify_log *l, unsigned nr_files, const uint64_t *start,
		    const uint64_t *size, uint64_t bs, struct err *e)
{
	unsigned i;

	memset(l, 0, sizeof(*l));
	l->bs = bs;
	l->files = calloc(nr_files ? nr_files : 1, sizeof(*l->files));
	if (!l->files)
		goto nomem;
	l->nr_files = nr_files;
	for (i = 0; i < nr_files; i++) {
		struct verify_log_file *f = &l->files[i];

		f->start = start[i];
		f->size = size[i];
		f->sorted = 1;
		if (!bs)
			continue;
		f->nbits = size[i] / bs;
		f->bits = calloc((size_t)(f->nbits + 63) / 64 + 1, sizeof(uint64_t));
		if (!f->bits)
			goto nomem;
	}
	return 0;
nomem:
	verify_log_free(l);
	return err_set(e, -ENOMEM, EXIT_INTERNAL, "no memory for the verify log");
}

void verify_log_free(struct verify_log *l)
{
	unsigned i;

	for (i = 0; l->files && i < l->nr_files; i++) {
		free(l->files[i].bits);
		free(l->files[i].runs);
	}
	free(l->files);
	memset(l, 0, sizeof(*l));
}

static int bit_get(const uint64_t *b, uint64_t k)
{
	return (int)((b[k / 64] >> (k % 64)) & 1);
}

/* @n blocks of @len at @off (consecutive): into the bitmap when they fit it, else a run. */
static int log_add_n(struct verify_log *l, unsigned file, uint64_t off, uint64_t len, uint64_t n)
{
	struct verify_log_file *f;
	struct verify_log_run *r;

	if (file >= l->nr_files || !len || !n || len > UINT32_MAX)
		return 0;
	f = &l->files[file];
	if (f->bits && len == l->bs && off >= f->start && (off - f->start) % len == 0 &&
	    (off - f->start) / len + n <= f->nbits) {
		uint64_t k = (off - f->start) / len, end = k + n;

		for (; k < end; k++)
			f->bits[k / 64] |= 1ull << (k % 64);
		return 0;
	}
	r = f->runs_nr ? &f->runs[f->runs_nr - 1] : NULL;
	if (r && r->len == len && r->off + (uint64_t)r->len * r->n == off && r->n + n <= UINT32_MAX) {
		r->n += (uint32_t)n;
		return 0;
	}
	while (n) {
		uint32_t take = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;

		if (f->runs_nr == f->runs_cap) {
			size_t cap = f->runs_cap ? f->runs_cap * 2 : 64;
			struct verify_log_run *p = realloc(f->runs, cap * sizeof(*p));

			if (!p)
				return -ENOMEM;
			f->runs = p;
			f->runs_cap = cap;
		}
		if (f->runs_nr && f->runs[f->runs_nr - 1].off > off)
			f->sorted = 0;
		f->runs[f->runs_nr++] = (struct verify_log_run){ off, (uint32_t)len, take };
		off += (uint64_t)take * len;
		n -= take;
	}
	return 0;
}

int verify_log_add(struct verify_log *l, unsigned file, uint64_t off, uint64_t len)
{
	return log_add_n(l, file, off, len, 1);
}

static int run_cmp(const void *a, const void *b)
{
	const struct verify_log_run *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * Sort file @f's runs by offset and drop what later runs overwrote whole
 * (a run of one block rewritten by a later write of the same place and
 * length is the same block: it is read back once).
 */
static void runs_sort(struct verify_log_file *f)
{
	size_t i, o = 0;

	if (f->sorted)
		return;
	qsort(f->runs, f->runs_nr, sizeof(*f->runs), run_cmp);
	for (i = 0; i < f->runs_nr; i++) {
		if (o && f->runs[o - 1].off == f->runs[i].off && f->runs[o - 1].len == f->runs[i].len &&
		    f->runs[o - 1].n == 1 && f->runs[i].n == 1)
			continue;
		f->runs[o++] = f->runs[i];
	}
	f->runs_nr = o;
	f->sorted = 1;
}

/* The run of @f holding a block that starts at @at, or f->runs_nr. */
static size_t run_find(const struct verify_log_file *f, uint64_t at)
{
	size_t lo = 0, hi = f->runs_nr, i;

	if (f->sorted) {	/* the last run starting at or before @at */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (f->runs[mid].off <= at)
				lo = mid + 1;
			else
				hi = mid;
		}
		lo = lo ? lo - 1 : 0;
		hi = lo + 1 < f->runs_nr ? lo + 1 : f->runs_nr;
	}
	for (i = lo; i < hi; i++) {
		const struct verify_log_run *r = &f->runs[i];
		uint64_t rend = r->off + (uint64_t)r->len * r->n;

		if (at >= r->off && at < rend && (at - r->off) % r->len == 0)
			return i;
	}
	return f->runs_nr;
}

int verify_log_has(const struct verify_log *l, unsigned file, uint64_t off, uint64_t len)
{
	const struct verify_log_file *f;
	uint64_t end = off + len, at = off;
	size_t i;

	if (file >= l->nr_files)
		return 0;
	f = &l->files[file];
	/* walk forward from @off through bitmap blocks and runs until @end is covered */
	while (at < end) {
		int moved = 0;

		if (f->bits && at >= f->start && (at - f->start) % l->bs == 0) {
			uint64_t k = (at - f->start) / l->bs;

			if (k < f->nbits && bit_get(f->bits, k)) {
				at += l->bs;
				continue;
			}
		}
		i = run_find(f, at);
		if (i < f->runs_nr) {
			const struct verify_log_run *r = &f->runs[i];
			uint64_t rend = r->off + (uint64_t)r->len * r->n;

			at = rend < end ? rend : end;
			moved = 1;
		}
		if (!moved)
			return 0;
	}
	return 1;
}

void verify_log_iter_init(struct verify_log *l, struct verify_log_iter *it)
{
	unsigned i;

	for (i = 0; i < l->nr_files; i++)
		runs_sort(&l->files[i]);
	memset(it, 0, sizeof(*it));
}

int verify_log_next(const struct verify_log *l, struct verify_log_iter *it, unsigned *file,
		    uint64_t *off, uint64_t *len)
{
	for (; it->file < l->nr_files; it->file++, it->bit = 0, it->run = 0, it->in_run = 0) {
		const struct verify_log_file *f = &l->files[it->file];

		for (; f->bits && it->bit < f->nbits; it->bit++) {
			if (!f->bits[it->bit / 64]) {	/* a word without blocks */
				it->bit = (it->bit / 64) * 64 + 63;
				continue;
			}
			if (bit_get(f->bits, it->bit)) {
				*file = it->file;
				*off = f->start + it->bit * l->bs;
				*len = l->bs;
				it->bit++;
				return 1;
			}
		}
		for (; it->run < f->runs_nr; it->run++, it->in_run = 0) {
			const struct verify_log_run *r = &f->runs[it->run];

			if (it->in_run < r->n) {
				*file = it->file;
				*off = r->off + (uint64_t)r->len * it->in_run;
				*len = r->len;
				it->in_run++;
				return 1;
			}
		}
	}
	return 0;
}

int verify_log_save(const struct verify_log *l, const char *path, const char *job, unsigned jobnum,
		    char *const *paths, struct err *e)
{
	char tmp[4200];
	FILE *fp;
	unsigned i;
	size_t r;
	int bad;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fp = fopen(tmp, "w");
	if (!fp)
		return err_set(e, -errno, EXIT_JOB_ERROR, "verify_state_save: %s: %s", tmp, strerror(errno));
	fprintf(fp, STATE_MAGIC "\njob %s\nclone %u\nbs %llu\n", job, jobnum, (unsigned long long)l->bs);
	for (i = 0; i < l->nr_files; i++) {
		const struct verify_log_file *f = &l->files[i];
		uint64_t k = 0, b;

		fprintf(fp, "file %u %llu %llu %s\n", i, (unsigned long long)f->start,
			(unsigned long long)f->size, paths && paths[i] ? paths[i] : "");
		while (f->bits && k < f->nbits) {
			if (!bit_get(f->bits, k)) {
				k++;
				continue;
			}
			for (b = k; b < f->nbits && bit_get(f->bits, b); b++)
				;
			fprintf(fp, "run %u %llu %llu %llu\n", i, (unsigned long long)(f->start + k * l->bs),
				(unsigned long long)l->bs, (unsigned long long)(b - k));
			k = b;
		}
		for (r = 0; r < f->runs_nr; r++)
			fprintf(fp, "run %u %llu %u %u\n", i, (unsigned long long)f->runs[r].off,
				f->runs[r].len, f->runs[r].n);
	}
	fprintf(fp, "end\n");
	bad = ferror(fp);
	if (fclose(fp) || bad || rename(tmp, path)) {
		int err = errno ? errno : EIO;

		unlink(tmp);
		return err_set(e, -err, EXIT_JOB_ERROR, "verify_state_save: %s: %s", path, strerror(err));
	}
	return 0;
}

int verify_log_load(struct verify_log *l, const char *path, struct err *e)
{
	char line[4400];
	unsigned lineno = 0, file;
	int end = 0, r = 0;
	FILE *fp = fopen(path, "r");

	if (!fp)
		return err_set(e, -errno, EXIT_TARGET, "verify_state_load: %s: %s (run the writing job "
			       "with verify_state_save=1 first)", path, strerror(errno));
	while (!end && fgets(line, sizeof(line), fp)) {
		unsigned long long off, len, n;

		lineno++;
		if (lineno == 1) {
			if (strncmp(line, STATE_MAGIC "\n", sizeof(STATE_MAGIC))) {
				r = -EINVAL;
				break;
			}
			continue;
		}
		if (!strncmp(line, "job ", 4) || !strncmp(line, "clone ", 6) || !strncmp(line, "bs ", 3) ||
		    !strncmp(line, "file ", 5))
			continue;
		if (!strcmp(line, "end\n")) {
			end = 1;
			continue;
		}
		if (sscanf(line, "run %u %llu %llu %llu", &file, &off, &len, &n) != 4 ||
		    !len || len > UINT32_MAX) {
			r = -EINVAL;
			break;
		}
		if (file >= l->nr_files) {
			fclose(fp);
			return err_set(e, -EINVAL, EXIT_USAGE, "verify_state_load: %s:%u: file %u, but the job "
				       "has %u file%s", path, lineno, file, l->nr_files,
				       l->nr_files == 1 ? "" : "s");
		}
		if (log_add_n(l, file, off, len, n)) {
			fclose(fp);
			return err_set(e, -ENOMEM, EXIT_INTERNAL, "no memory for the verify log");
		}
	}
	fclose(fp);
	for (file = 0; file < l->nr_files; file++)
		runs_sort(&l->files[file]);
	if (r || !end)
		return err_set(e, -EINVAL, EXIT_USAGE, "verify_state_load: %s:%u: not an iotrial verify "
			       "state file (or cut short)", path, lineno);
	return 0;
}
