/*
 * iolog: write_iolog and read_iolog (see iolog.h).
 */
#include "log/iolog.h"

#include <errno.h>	/* ENOMEM, EINVAL */
#include <stdio.h>	/* fopen, fprintf, fgets */
#include <stdlib.h>	/* realloc, free */
#include <string.h>	/* strcmp, strrchr, strerror */

static const char *const iolog_act[] = { "read", "write", "trim", "sync", "datasync" };

void iolog_record_grow(struct iolog_writer *w, uint64_t t_us, const struct io_u *io)
{
	size_t cap = w->cap ? w->cap * 2 : 4096;
	struct iolog_rec *p = realloc(w->r, cap * sizeof(*p));

	if (!p) {		/* reported when the log is written */
		w->dropped = 1;
		return;
	}
	w->r = p;
	w->cap = cap;
	iolog_record(w, t_us, io);
}

void iolog_writer_free(struct iolog_writer *w)
{
	free(w->r);
	memset(w, 0, sizeof(*w));
}

int iolog_write(const struct iolog_writer *w, const char *path, char *const *paths,
		unsigned nr_files, uint64_t t_close_us, struct err *e)
{
	FILE *f;
	size_t i;
	unsigned k;
	int bad;

	if (w->dropped)
		return err_set(e, -ENOMEM, EXIT_OUTPUT, "write_iolog %s: out of memory for the log", path);
	f = fopen(path, "w");
	if (!f)
		return err_set(e, -errno, EXIT_OUTPUT, "write_iolog %s: %s", path, strerror(errno));
	fprintf(f, "fio version 3 iolog\n");
	for (k = 0; k < nr_files; k++)
		fprintf(f, "%llu %s add\n", (unsigned long long)w->t_open, paths[k]);
	for (k = 0; k < nr_files; k++)
		fprintf(f, "%llu %s open\n", (unsigned long long)w->t_open, paths[k]);
	for (i = 0; i < w->nr; i++) {
		const struct iolog_rec *r = &w->r[i];

		if (r->file >= nr_files || r->ddir > DDIR_DATASYNC)
			continue;
		fprintf(f, "%llu %s %s %llu %u\n", (unsigned long long)r->t_us, paths[r->file],
			iolog_act[r->ddir], (unsigned long long)(r->ddir < DDIR_NR ? r->off : 0),
			r->ddir < DDIR_NR ? r->len : 0);
	}
	for (k = 0; k < nr_files; k++)
		fprintf(f, "%llu %s close\n", (unsigned long long)t_close_us, paths[k]);
	bad = ferror(f);
	if (fclose(f) || bad)
		return err_set(e, -EIO, EXIT_OUTPUT, "write_iolog %s: write failed", path);
	return 0;
}

/* One parsed line: the action (-1 for add/open/close), its file name and numbers. */
struct iolog_line {
	int act;
	char name[4096];
	unsigned long long t, off, len;
};

/*
 * Parse @s (version @ver) into @l.  0, or -EINVAL for a line that is not
 * fio's.  A v2 line is "<file> <action> [<offset> <length>]"; v3 puts the
 * time first.
 */
static int iolog_parse_line(const char *s, int ver, struct iolog_line *l)
{
	char act[32];
	int n, k;

	memset(l, 0, sizeof(*l));
	if (ver == 3) {
		n = sscanf(s, "%llu %4095s %31s %llu %llu", &l->t, l->name, act, &l->off, &l->len);
		n--;
	} else {
		n = sscanf(s, "%4095s %31s %llu %llu", l->name, act, &l->off, &l->len);
	}
	if (n < 2)
		return -EINVAL;
	if (!strcmp(act, "add") || !strcmp(act, "open") || !strcmp(act, "close")) {
		l->act = -1;
		return 0;
	}
	for (k = 0; k <= DDIR_DATASYNC; k++)
		if (!strcmp(act, iolog_act[k]))
			break;
	if (k > DDIR_DATASYNC || (k < DDIR_NR && (n != 4 || !l->len || l->len > UINT32_MAX)))
		return -EINVAL;
	l->act = k;
	return 0;
}

/* Open @path and read its version line: 2 or 3, or -errno (+ @e). */
static int iolog_open(const char *path, FILE **fp, struct err *e)
{
	char line[128];

	*fp = fopen(path, "r");
	if (!*fp)
		return err_set(e, -errno, EXIT_USAGE, "read_iolog %s: %s", path, strerror(errno));
	if (!fgets(line, sizeof(line), *fp) ||
	    (strcmp(line, "fio version 2 iolog\n") && strcmp(line, "fio version 3 iolog\n"))) {
		fclose(*fp);
		return err_set(e, -EINVAL, EXIT_USAGE, "read_iolog %s:1: not a fio version 2 or 3 iolog "
			       "(blktrace logs are not supported)", path);
	}
	return line[12] - '0';
}

int iolog_scan(const char *path, unsigned *dirs, uint32_t *max_len, struct err *e)
{
	char line[4200];
	unsigned lineno = 1;
	struct iolog_line l;
	FILE *fp;
	int ver = iolog_open(path, &fp, e);

	if (ver < 0)
		return ver;
	*dirs = 0;
	*max_len = 0;
	while (fgets(line, sizeof(line), fp)) {
		lineno++;
		if (line[0] == '\n')
			continue;
		if (iolog_parse_line(line, ver, &l)) {
			fclose(fp);
			return err_set(e, -EINVAL, EXIT_USAGE, "read_iolog %s:%u: not an iolog line", path,
				       lineno);
		}
		if (l.act >= 0 && l.act < DDIR_NR) {
			*dirs |= 1u << l.act;
			if (l.len > *max_len)
				*max_len = (uint32_t)l.len;
		}
	}
	fclose(fp);
	return 0;
}

/* The job file a log's @name is: same path, else same base name, else the only one. */
static int iolog_file(const char *name, char *const *paths, unsigned nr)
{
	const char *b = strrchr(name, '/') ? strrchr(name, '/') + 1 : name, *pb;
	unsigned k;

	for (k = 0; k < nr; k++)
		if (!strcmp(paths[k], name))
			return (int)k;
	for (k = 0; k < nr; k++) {
		pb = strrchr(paths[k], '/') ? strrchr(paths[k], '/') + 1 : paths[k];
		if (!strcmp(pb, b))
			return (int)k;
	}
	return nr == 1 ? 0 : -1;
}

int iolog_load(struct iolog_replay *rp, const char *path, char *const *paths, unsigned nr_files,
	       int skip_writes, struct err *e)
{
	char line[4200];
	unsigned lineno = 1;
	size_t cap = 0;
	struct iolog_line l;
	FILE *fp;
	int ver = iolog_open(path, &fp, e), f;

	memset(rp, 0, sizeof(*rp));
	if (ver < 0)
		return ver;
	rp->timed = ver == 3;
	while (fgets(line, sizeof(line), fp)) {
		struct iolog_rec *r;

		lineno++;
		if (line[0] == '\n')
			continue;
		if (iolog_parse_line(line, ver, &l))
			goto bad;
		if (l.act < 0 || (skip_writes && l.act == DDIR_WRITE))
			continue;
		f = iolog_file(l.name, paths, nr_files);
		if (f < 0) {
			fclose(fp);
			iolog_replay_free(rp);
			return err_set(e, -EINVAL, EXIT_USAGE, "read_iolog %s:%u: file '%s' is none of the "
				       "job's files (give it as filename=)", path, lineno, l.name);
		}
		if (rp->nr == cap) {
			struct iolog_rec *p;

			cap = cap ? cap * 2 : 1024;
			p = realloc(rp->r, cap * sizeof(*p));
			if (!p) {
				fclose(fp);
				iolog_replay_free(rp);
				return err_set(e, -ENOMEM, EXIT_INTERNAL, "read_iolog %s: out of memory", path);
			}
			rp->r = p;
		}
		r = &rp->r[rp->nr++];
		r->t_us = l.t;
		r->off = l.act < DDIR_NR ? l.off : 0;
		r->len = l.act < DDIR_NR ? (uint32_t)l.len : 0;
		r->file = (uint16_t)f;
		r->ddir = (uint8_t)l.act;
		r->pad = 0;
	}
	fclose(fp);
	return 0;
bad:
	fclose(fp);
	iolog_replay_free(rp);
	return err_set(e, -EINVAL, EXIT_USAGE, "read_iolog %s:%u: not an iolog line", path, lineno);
}

int iolog_next(struct iolog_replay *rp, struct io_u *io, uint64_t *t_us)
{
	const struct iolog_rec *r;

	if (rp->next >= rp->nr)
		return 1;
	r = &rp->r[rp->next++];
	io->ddir = r->ddir;
	io->file = r->file;
	io->offset = r->off;
	io->len = r->len;
	*t_us = rp->timed ? r->t_us : UINT64_MAX;
	return 0;
}

void iolog_replay_free(struct iolog_replay *rp)
{
	free(rp->r);
	memset(rp, 0, sizeof(*rp));
}
