/*
 * resultwindow: whole run or steady tail for compare and ab (resultwindow.h).
 */
#include "result/resultwindow.h"

#include <errno.h>	/* EINVAL */
#include <stdio.h>	/* snprintf */
#include <string.h>	/* memcpy, strcmp */

int resultwindow_parse(const char *v, enum resultwindow *w, struct err *e)
{
	if (v && !strcmp(v, "all"))
		*w = RESULTWINDOW_ALL;
	else if (v && !strcmp(v, "steady"))
		*w = RESULTWINDOW_STEADY;
	else if (v && !strcmp(v, "auto"))
		*w = RESULTWINDOW_AUTO;
	else
		return err_set(e, -EINVAL, EXIT_USAGE, "--window=%s: expected all, steady or auto",
			       v ? v : "");
	return 0;
}

static void use(struct resultread *r, int steady)
{
	memcpy(r->dir, steady ? r->tail : r->whole, sizeof(r->dir));
	r->total_iops = steady ? r->tail_total_iops : r->whole_total_iops;
}

/* Mean tail start and length of one side, in seconds. */
static void side_tail(struct resultread **s, size_t n, double *start, double *len)
{
	*start = *len = 0;
	for (size_t i = 0; i < n; i++) {
		*start += (double)s[i]->tail_start_ms / 1000.0 / (double)n;
		*len += (double)s[i]->tail_len_ms / 1000.0 / (double)n;
	}
}

static void check_alike(struct resultread **a, size_t na, struct resultread **b, size_t nb,
			struct resultwindow_note *note)
{
	double sa, la, sb, lb, run;

	side_tail(a, na, &sa, &la);
	side_tail(b, nb, &sb, &lb);
	run = sa + la > sb + lb ? sa + la : sb + lb;
	if (la > 1.5 * lb || lb > 1.5 * la || (sa > sb ? sa - sb : sb - sa) > run / 4)
		snprintf(note->warning, sizeof(note->warning),
			 "warning: the steady parts differ: A's start at %.1f s and last %.1f s "
			 "on average, B's at %.1f s and %.1f s; the figures compare different "
			 "stretches of the runs", sa, la, sb, lb);
}

int resultwindow_apply(enum resultwindow w, struct resultread **a, size_t na,
		       struct resultread **b, size_t nb, struct resultwindow_note *note,
		       struct err *e)
{
	size_t without = 0, fio = 0, i;
	const char *first = NULL;
	int steady;

	note->what[0] = note->warning[0] = 0;
	for (i = 0; i < na + nb; i++) {
		const struct resultread *r = i < na ? a[i] : b[i - na];

		if (r->has_tail)
			continue;
		without++;
		fio += !r->is_iotrial;
		if (!first)
			first = r->path;
	}
	if (w == RESULTWINDOW_STEADY && without)
		return err_set(e, -EINVAL, EXIT_USAGE, "--window=steady: %s has no steady tail (%s)",
			       first, fio ? "a fio result has no time series" :
			       "no job found a steady part: too short for MSER-5 or steady_report=none");
	steady = w != RESULTWINDOW_ALL && !without;
	for (i = 0; i < na + nb; i++)
		use(i < na ? a[i] : b[i - na], steady);
	note->steady = steady;
	if (steady)
		snprintf(note->what, sizeof(note->what), "window: steady tails (every result has one; "
			 "--window=all compares whole runs)");
	else if (w == RESULTWINDOW_ALL)
		snprintf(note->what, sizeof(note->what), "window: whole runs (--window=all)");
	else if (fio && fio < na + nb)
		snprintf(note->what, sizeof(note->what), "window: whole runs: a mix of iotrial and "
			 "fio results (%zu fio, without a time series), so no steady tails", fio);
	else
		snprintf(note->what, sizeof(note->what), "window: whole runs: %zu of %zu results "
			 "have no steady tail%s", without, na + nb,
			 fio ? " (fio results have no time series)" :
			 " (no held steady window, and under 15 intervals for MSER-5)");
	if (steady)
		check_alike(a, na, b, nb, note);
	return 0;
}

json_t *resultwindow_note_json(const struct resultwindow_note *note)
{
	json_t *o = json_pack("{s:s, s:s}", "used", note->steady ? "steady" : "all",
			      "note", note->what);

	if (o && note->warning[0] &&
	    json_object_set_new(o, "warning", json_string(note->warning))) {
		json_decref(o);
		return NULL;
	}
	return o;
}
