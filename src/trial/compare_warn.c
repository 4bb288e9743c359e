/*
 * compare_warn: the warnings of a comparison (compare.h lists them): runs
 * without I/O dropped, too few runs, sides that mix jobs or directions,
 * option and environment differences and what they mean for the verdict,
 * per-run checks, a change of bottleneck, run order in blocks, outliers.
 * compare.c computes the metrics and calls these; they never call it.
 */
#include "trial/compare_warn.h"
#include "lib/vec.h"	/* vec_grow */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "trial/abdrift.h"	/* order: blocks */
#include "analysis/bottleneck.h"	/* the bottleneck_differs warning */
#include "analysis/plausibility.h"
#include "env/env.h"

void compare_warn(json_t *arr, const char *id, const char *sev, const char *side,
		  const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:s?}", "id", id, "severity", sev,
					     "message", msg, "side", side));
}

static int is_expected(const struct compare_opts *o, const char *key)
{
	size_t i;

	for (i = 0; i < o->nr_expected; i++)
		if (!strcmp(o->expected[i], key) || !strcmp(o->expected[i], "*"))
			return 1;
	return 0;
}

/*
 * Is a difference of @it ({"a", "b"}) only fio's way of writing options: fio
 * leaves out of its "job options" an option typed without a value
 * (time_based, a bare flag), which iotrial writes as "".  An option absent
 * from a result fio wrote, "" in the other, is then the same job.
 */
static int fio_left_out(const json_t *it, const struct resultread *ra,
			const struct resultread *rb)
{
	const json_t *a = json_object_get(it, "a"), *b = json_object_get(it, "b");

	if ((!a || json_is_null(a)) && !ra->is_iotrial)
		return json_is_string(b) && !*json_string_value(b);
	if ((!b || json_is_null(b)) && !rb->is_iotrial)
		return json_is_string(a) && !*json_string_value(a);
	return 0;
}

/* Differences of two results' options as "job.<key>", without the job's name. */
static int job_diff(const struct resultread *ra, const struct resultread *rb, json_t *out,
		    struct err *e)
{
	json_t *d = NULL, *it;
	size_t i;
	int ret = env_diff(ra->options, rb->options, &d, e);

	if (ret)
		return ret;
	json_array_foreach(d, i, it) {
		const char *k = json_string_value(json_object_get(it, "key"));
		char key[256];

		if (!strcmp(k, "name") || fio_left_out(it, ra, rb))
			continue;
		snprintf(key, sizeof(key), "job.%s", k);
		json_array_append_new(out, json_pack("{s:s, s:O, s:O}", "key", key,
				      "a", json_object_get(it, "a"), "b", json_object_get(it, "b")));
	}
	json_decref(d);
	return 0;
}

/*
 * What a differing key is about, so that one change (a device: its driver,
 * model, size, ...) counts as one thing: the options under test, one job
 * option, one target, or one top-level environment entry.
 */
static void thing_of(const char *key, const struct compare_opts *o, int target_tested,
		     char *out, size_t sz)
{
	const char *dot;

	if (!strncmp(key, "job.", 4)) {
		snprintf(out, sz, "%s", is_expected(o, key + 4) ? "the options under test" : key);
		return;
	}
	if (!strncmp(key, "targets.", 8) || !strcmp(key, "disk_util")) {
		if (target_tested) {
			snprintf(out, sz, "the options under test");
			return;
		}
		dot = strchr(key, '.') ? strchr(key + 8, '.') : NULL;
		snprintf(out, sz, "%.*s", dot ? (int)(dot - key) : (int)strlen(key), key);
		return;
	}
	dot = strchr(key, '.');
	snprintf(out, sz, "%.*s", dot ? (int)(dot - key) : (int)strlen(key), key);
}

/* Warn about job options that differ (not the expected ones) and about many things differing. */
void compare_warn_diff(const json_t *diff, const struct compare_opts *o, json_t *warnings)
{
	char things[6][96], jobs[400] = "", list[600] = "", t[96];
	int target_tested = is_expected(o, "filename") || is_expected(o, "directory");
	size_t i, k, nthings = 0, njobs = 0, off = 0, joff = 0;
	json_t *it;

	json_array_foreach((json_t *)diff, i, it) {
		const char *key = json_string_value(json_object_get(it, "key"));

		/* --trial-of: env_differs judges the environment (compare_warn_env) */
		if (o->trial_of && strncmp(key, "job.", 4))
			continue;
		if (!strncmp(key, "job.", 4) && !is_expected(o, key + 4) && joff < sizeof(jobs)) {
			char *va = json_dumps(json_object_get(it, "a"), JSON_ENCODE_ANY);
			char *vb = json_dumps(json_object_get(it, "b"), JSON_ENCODE_ANY);

			joff += (size_t)snprintf(jobs + joff, sizeof(jobs) - joff, "%s%s (%s vs %s)",
						 njobs++ ? ", " : "", key + 4, va ? va : "?", vb ? vb : "?");
			free(va);
			free(vb);
		}
		thing_of(key, o, target_tested, t, sizeof(t));
		for (k = 0; k < nthings && k < 6; k++)
			if (!strcmp(things[k], t))
				break;
		if (k == nthings && nthings < 6)
			snprintf(things[nthings++], sizeof(things[0]), "%s", t);
	}
	if (njobs)
		compare_warn(warnings, "job_differs", "warning", NULL,
		     "the jobs differ: %s; the comparison measures these changes too", jobs);
	if (nthings < 2)
		return;
	for (k = 0; k < nthings && off < sizeof(list); k++)
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s", k ? ", " : "",
					things[k]);
	compare_warn(warnings, "many_differences", "warning", NULL,
	     "more than one thing differs between A and B (%s): a difference cannot be "
	     "attributed to one of them", list);
}

/* The environment entries --trial-of names; "memory" is memory_bytes. */
static const char *const trial_names[] = { "disk", "kernel", "cpu", "memory", "memory_bytes",
	"hypervisor", "clock_source", "iommu_groups", "iotrial_version", "host", NULL };

int compare_trial_of_valid(const char *list, struct err *e)
{
	const char *p = list;

	while (p && *p) {
		size_t n = strcspn(p, ","), k;

		for (k = 0; trial_names[k]; k++)
			if (strlen(trial_names[k]) == n && !strncmp(trial_names[k], p, n))
				break;
		if (!trial_names[k])
			break;
		p += n;
		if (!*p)
			return 0;
		p++;
	}
	return err_set(e, -EINVAL, EXIT_USAGE, "--trial-of=%s: expected environment entries, "
		       "comma-separated: disk, kernel, cpu, memory, hypervisor, clock_source, "
		       "iommu_groups, iotrial_version, host", list ? list : "");
}

/* The --trial-of name an environment diff key belongs to ("targets.0..." -> "disk"). */
static void entry_of(const char *key, char *out, size_t sz)
{
	size_t n = strcspn(key, ".");

	if (!strncmp(key, "targets.", 8) || !strcmp(key, "disk_util"))
		snprintf(out, sz, "disk");
	else if (!strcmp(key, "memory_bytes"))
		snprintf(out, sz, "memory");
	else
		snprintf(out, sz, "%.*s", (int)n, key);
}

static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (p && *p) {
		size_t k = strcspn(p, ",");

		if ((k == n && !strncmp(p, name, n)) ||
		    (!strcmp(name, "memory") && k == 12 && !strncmp(p, "memory_bytes", 12)))
			return 1;
		p += k + (p[k] == ',');
	}
	return 0;
}

void compare_warn_env(struct compare_report *r, const struct compare_opts *o)
{
	char list[600] = "", entry[64], seen[256] = ",";
	size_t i, off = 0, soff = 0, n = 0;
	json_t *it;

	if (!o->trial_of)
		return;
	r->diff_first = 1;
	json_array_foreach(r->env_diff, i, it) {
		const char *key = json_string_value(json_object_get(it, "key"));
		char *va, *vb, tag[72];

		if (!strncmp(key, "job.", 4))
			continue;	/* the options: job_differs and the expected keys */
		entry_of(key, entry, sizeof(entry));
		/* the host's name alone changes no I/O: its hardware shows in the others */
		if (!strcmp(entry, "host") || in_list(o->trial_of, entry)) {
			json_object_set_new(it, "under_trial", json_true());
			continue;
		}
		json_object_set_new(it, "under_trial", json_false());
		va = json_dumps(json_object_get(it, "a"), JSON_ENCODE_ANY);
		vb = json_dumps(json_object_get(it, "b"), JSON_ENCODE_ANY);
		if (off < sizeof(list))
			off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s (%s vs %s)",
						n ? ", " : "", key, va ? va : "?", vb ? vb : "?");
		free(va);
		free(vb);
		n++;
		/* each entry named once in the verdicts' note */
		snprintf(tag, sizeof(tag), ",%s,", entry);
		if (!strstr(seen, tag) && strlen(seen) + strlen(tag) < sizeof(seen)) {
			snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen), "%s,", entry);
			soff = strlen(r->not_under_trial);
			snprintf(r->not_under_trial + soff, sizeof(r->not_under_trial) - soff,
				 "%s%s", soff ? ", " : "", entry);
		}
	}
	if (n)
		compare_warn(r->warnings, "env_differs", "warning", NULL,
		     "A and B also differ in %s: not what is under trial (--trial-of=%s), so the "
		     "comparison cannot attribute a difference to %s alone", list, o->trial_of,
		     !strcmp(o->trial_of, "disk") ? "the disk" : o->trial_of);
}

void compare_warn_env_verdicts(struct compare_report *r, const struct compare_opts *o)
{
	size_t i, len;

	if (!r->not_under_trial[0])
		return;
	for (i = 0; i < r->nm; i++) {
		struct compare_metric *m = &r->m[i];

		if (m->verdict != COMPARE_BETTER && m->verdict != COMPARE_WORSE &&
		    m->verdict != COMPARE_DIFFERS && m->verdict != COMPARE_NEGLIGIBLE)
			continue;
		len = strlen(m->note);
		snprintf(m->note + len, sizeof(m->note) - len, "%snot %s alone: %s also differ%s",
			 len ? "; " : "", !strcmp(o->trial_of, "disk") ? "the disk" : o->trial_of,
			 r->not_under_trial, strchr(r->not_under_trial, ',') ? "" : "s");
	}
}

/* Directions with I/O in @r, as a bit mask (1 read, 2 write, 4 trim). */
static unsigned dir_mask(const struct resultread *r)
{
	unsigned m = 0;
	int k;

	for (k = 0; k < RESULTREAD_NDIR; k++)
		if (r->dir[k].ios)
			m |= 1u << k;
	return m;
}

static void mask_text(unsigned m, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s%s%s%s", m & 1 ? "r" : "", m & 2 ? "w" : "", m & 4 ? "t" : "",
		 m ? "" : "none");
}

/*
 * Files of one side that come from different jobs, hold a different number
 * of jobs, or did I/O in different directions: the side is not one
 * configuration, and no metric of it gets a verdict.  Returns 1 when mixed.
 */
int compare_warn_side_mixed(struct resultread *const *v, size_t n, const char *side,
			    json_t *warnings)
{
	char ma[8], mb[8];
	size_t i;

	for (i = 1; i < n; i++) {
		json_t *d = json_array();
		struct err e;

		err_clear(&e);
		if (d && !job_diff(v[0], v[i], d, &e) && json_array_size(d)) {
			json_t *first = json_array_get(d, 0);

			compare_warn(warnings, "side_mixed", "warning", side,
			     "%s and %s come from different jobs (%s): the side is not one "
			     "configuration; no verdicts", v[0]->path, v[i]->path,
			     json_string_value(json_object_get(first, "key")));
			json_decref(d);
			return 1;
		}
		json_decref(d);
		if (v[i]->nr_jobs != v[0]->nr_jobs || dir_mask(v[i]) != dir_mask(v[0])) {
			mask_text(dir_mask(v[0]), ma, sizeof(ma));
			mask_text(dir_mask(v[i]), mb, sizeof(mb));
			compare_warn(warnings, "side_mixed", "warning", side,
			     "%s and %s differ in jobs (%zu vs %zu) or directions with I/O (%s vs "
			     "%s): the side is not one configuration; no verdicts", v[0]->path,
			     v[i]->path, v[0]->nr_jobs, v[i]->nr_jobs, ma, mb);
			return 1;
		}
	}
	return 0;
}

/*
 * The same job options on both sides but a different number of jobs (a job
 * file holding the job twice) or different directions with I/O: what was
 * measured differs in a way the options do not show.  Returns 1 when so.
 */
int compare_warn_jobs_differ(const struct resultread *a, const struct resultread *b,
			     const json_t *diff, json_t *warnings)
{
	char ma[8], mb[8];
	size_t i;
	json_t *it;

	json_array_foreach((json_t *)diff, i, it)
		if (!strncmp(json_string_value(json_object_get(it, "key")), "job.", 4))
			return 0;	/* job_differs says what changed */
	if (a->nr_jobs == b->nr_jobs && dir_mask(a) == dir_mask(b))
		return 0;
	mask_text(dir_mask(a), ma, sizeof(ma));
	mask_text(dir_mask(b), mb, sizeof(mb));
	compare_warn(warnings, "jobs_differ", "warning", NULL,
	     "the job options are the same but A has %zu job%s doing I/O in %s and B %zu "
	     "doing %s: the sides ran different workloads; no verdicts", a->nr_jobs,
	     a->nr_jobs == 1 ? "" : "s", ma, b->nr_jobs, mb);
	return 1;
}

/* One check id and its first item, with how many runs raised it. */
struct agg {
	struct plausibility_item item;
	size_t count;
};

/* Each file's plausibility checks, one warning per id and side. */
int compare_warn_side_checks(struct resultread *const *v, size_t n, const char *side,
			     json_t *warnings)
{
	struct agg *agg = NULL;
	size_t nagg = 0, cap = 0, i, k, j;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		struct plausibility_list l;

		plausibility_list_init(&l);
		ret = plausibility_check(v[i], &l);
		for (k = 0; k < l.n && !ret; k++) {
			for (j = 0; j < nagg && strcmp(agg[j].item.id, l.v[k].id); j++)
				;
			if (j == nagg) {
				if (vec_grow((void **)&agg, &cap, nagg + 1, sizeof(*agg), 8)) {
					ret = -ENOMEM;
					break;
				}
				agg[nagg].item = l.v[k];
				agg[nagg++].count = 0;
			}
			agg[j].count++;
		}
		plausibility_list_free(&l);
	}
	for (j = 0; j < nagg && !ret; j++) {
		if (n > 1)
			compare_warn(warnings, agg[j].item.id, plausibility_sev_name(agg[j].item.sev),
				     side, "%s (in %zu of %zu files)", agg[j].item.msg, agg[j].count, n);
		else
			compare_warn(warnings, agg[j].item.id, plausibility_sev_name(agg[j].item.sev),
				     side, "%s", agg[j].item.msg);
	}
	free(agg);
	return ret;
}

/*
 * When A and B were limited by different things (bottleneck.h), the
 * comparison measures that change of limit (often the tool), not the
 * configurations: say so.  The verdict of each side is its first result's.
 */
void compare_warn_bottleneck(struct resultread *const *a, struct resultread *const *b,
			     json_t *warnings)
{
	char va[16], vb[16];

	if (bottleneck_of_result(a[0], va, sizeof(va)) || bottleneck_of_result(b[0], vb, sizeof(vb)) ||
	    !strcmp(va, vb))
		return;
	compare_warn(warnings, "bottleneck_differs", "warning", NULL,
	     "A was limited by %s, B by %s: the comparison measures that change of bottleneck, "
	     "not only the configurations", va, vb);
}

void compare_warn_runs(struct resultread *const *a, size_t na, struct resultread *const *b,
		       size_t nb, json_t *warnings)
{
	/* one sweep a side is many runs: its interval is from its steps' batches */
	size_t n = na == 1 && nb == 1 && a[0]->sweep.is && b[0]->sweep.is ? 5 : na < nb ? na : nb;

	if (n == 1)
		compare_warn(warnings, "single_run", "warning", NULL,
		     "%zu run of A and %zu of B: one run cannot separate a difference from "
		     "run-to-run noise; repeat each side 5 times or more, interleaved "
		     "(iotrial ab)", na, nb);
	else if (n < 5)
		compare_warn(warnings, "few_runs", "info", NULL,
		     "%zu runs of A and %zu of B: the interval is wide and Mann-Whitney weak "
		     "below 5 runs a side", na, nb);
	if (!a[0]->env != !b[0]->env)
		compare_warn(warnings, "env_missing", "info", NULL,
		     "the environment is recorded for %s only: what else differed is unknown",
		     a[0]->env ? "A" : "B");
}

int compare_warn_build_diff(struct compare_report *r, struct resultread *const *a,
			    struct resultread *const *b, struct err *e)
{
	json_t *envd = NULL;
	size_t i;
	json_t *it;
	int ret;

	r->env_diff = json_array();
	if (!r->env_diff)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	ret = job_diff(a[0], b[0], r->env_diff, e);
	if (!ret && a[0]->disks[0] && b[0]->disks[0] && strcmp(a[0]->disks, b[0]->disks))
		json_array_append_new(r->env_diff, json_pack("{s:s, s:s, s:s}", "key", "disk_util",
				      "a", a[0]->disks, "b", b[0]->disks));
	if (!ret)
		ret = env_diff(a[0]->env, b[0]->env, &envd, e);
	if (ret)
		return ret;
	json_array_foreach(envd, i, it)
		json_array_append(r->env_diff, it);
	json_decref(envd);
	return 0;
}

/* Drop runs without any I/O (failed runs), with a warning naming them. */
int compare_warn_drop_zero_io(struct resultread *const *v, size_t n, const char *side,
			      struct resultread ***out, size_t *nout, json_t *warnings)
{
	char names[400] = "";
	size_t i, off = 0, dropped = 0;

	*out = malloc(sizeof(**out) * (n ? n : 1));
	if (!*out)
		return -ENOMEM;
	*nout = 0;
	for (i = 0; i < n; i++) {
		if (dir_mask(v[i]) || v[i]->sweep.is) {	/* a sweep did its I/O in its runs */
			(*out)[(*nout)++] = v[i];
			continue;
		}
		if (off < sizeof(names))
			off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s",
						dropped ? ", " : "", v[i]->path);
		dropped++;
	}
	if (dropped)
		compare_warn(warnings, "zero_io", "warning", side,
		     "%zu of %zu runs did no I/O (%s): counted as failed runs and left out; "
		     "the figures are over the other %zu", dropped, n, names, *nout);
	return 0;
}

/* Run order: unknown, or made in blocks (warned; the verdicts say inconclusive). */
void compare_warn_order(const struct seq *s, const struct compare_opts *o, json_t *warnings)
{
	struct abdrift_run r[256];
	struct abdrift_fit f;
	char strip[80];
	size_t i;

	if (!s->known) {
		compare_warn(warnings, "run_order", "info", NULL, "the run order is unknown (timestamps "
		     "missing or equal): a drift in time cannot be separated from the effect");
		return;
	}
	if (s->n > 256)
		return;
	for (i = 0; i < s->n; i++)
		r[i] = (struct abdrift_run){ 1, s->v[i].side == 'B' };
	if (abdrift_fit(r, s->n, &f) == -EINVAL && f.switches > 1)
		return;
	if (!f.blocky && f.switches > 1)
		return;
	for (i = 0; i < s->n && i < sizeof(strip) - 4; i++)
		strip[i] = s->v[i].side;
	snprintf(strip + i, sizeof(strip) - i, "%s", i < s->n ? "..." : "");
	if (o->sides_apart) {
		compare_warn(warnings, "run_order", "info", NULL,
		     "the baseline ran before the candidate, by design (%s): the interval allows "
		     "for a linear drift along the runs, fitted within the sides; anything else "
		     "that changed in between is part of the difference", strip);
		return;
	}
	compare_warn(warnings, "run_order", "warning", NULL,
	     "the sides ran in blocks (%s, order/side correlation %.2f): a drift in time "
	     "would read as a difference; %s", strip, f.corr,
	     f.confounded ? "side and order are confounded, verdicts are inconclusive" :
	     "the interval allows for a linear drift only");
}

/* One warning per run flagged as an outlier, listing the metrics. */
void compare_warn_outliers(const struct compare_report *r, const struct seq *s)
{
	size_t i, k, j;

	for (i = 0; i < s->n; i++) {
		char list[300] = "";
		size_t off = 0, nf = 0;

		for (k = 0; k < r->nm; k++)
			for (j = 0; j < r->m[k].nruns; j++)
				if (r->m[k].runs[j].outlier &&
				    r->m[k].runs[j].file == s->v[i].r->path && off < sizeof(list)) {
					off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s",
								nf++ ? ", " : "", r->m[k].name);
				}
		if (nf)
			compare_warn(r->warnings, "outlier", "warning", s->v[i].side == 'A' ? "a" : "b",
			     "%s is an outlier in %s (robust z above %.1f: its distance from "
			     "the side's median over 1.4826 x MAD): check what happened during it",
			     s->v[i].r->path, list, COMPARE_OUTLIER_Z);
	}
}
