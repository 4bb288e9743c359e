/*
 * report_text_add: iotrial's additions to the text report (rules in
 * report_text_add.h), after every line of fio's.
 */
#include "report/report_text_add.h"
#include "report/report_breakdown.h"
#include "report/report_fionum.h"
#include "report/report_ranks.h"	/* MPI per-host table */
#include "measure/breakdown_out.h"	/* breakdown_text */
#include "lib/human.h"	/* human_ns: lat from due */
#include "steady/steady_out.h"

#include <jansson.h>	/* the warnings array */
#include <math.h>	/* isfinite */
#include <signal.h>	/* sigabbrev_np */
#include <stdlib.h>	/* calloc, free */
#include <string.h>

/* A clone's name for people: "randrw.2" among several, else the job's name. */
#define CLONE_NAME_MAX (JOB_NAME_MAX + 24)

/* One job definition of a group: its entries (clones) in report order, and their names. */
struct defn {
	const struct job_result **j;
	char (*name)[CLONE_NAME_MAX];
	size_t n;
};

/* The line of a run that did not finish (the first of iotrial's additions). */
static void text_partial(FILE *f, const struct run_result *r)
{
	uint64_t secs = 0;
	const char *sig;
	const char *why = NULL;

	for (size_t i = 0; i < r->nr_jobs; i++) {
		if (r->jobs[i].elapsed_s > secs)
			secs = r->jobs[i].elapsed_s;
		if (!why && r->jobs[i].first_error[0])
			why = r->jobs[i].first_error;
	}
	if (r->signal) {
		sig = sigabbrev_np(r->signal);
		if (sig)
			fprintf(f, "*** PARTIAL RESULTS: interrupted by SIG%s after %llu s ***\n",
				sig, (unsigned long long)secs);
		else
			fprintf(f, "*** PARTIAL RESULTS: interrupted by signal %d after %llu s ***\n",
				r->signal, (unsigned long long)secs);
	} else {
		fprintf(f, "*** PARTIAL RESULTS: stopped by an error after %llu s%s%s ***\n",
			(unsigned long long)secs, why ? ": " : "", why ? why : "");
	}
}

/*
 * What a verdict means for the figures it qualifies, said beside them:
 * "the page cache, not the device" is the one a reader must not miss.
 */
static void verdict_gloss(char *buf, size_t sz, const struct bottleneck_verdict *v, int detail)
{
	/* bottleneck.h's verdicts; an unknown one reads as unknown */
	static const struct { const char *verdict, *says; } gloss[] = {
		{ "page_cache", "the page cache, not the device" },
		{ "device", "the device: it was the limit" },
		{ "io_path", "limited by the I/O path in front of the device, not the device" },
		{ "tool", "limited by the tool's own CPU, not the device" },
		{ "cpu_contention", "limited by other load on the CPUs, not the device" },
		{ "rate_limit", "held by the rate limit, not the device" },
	};
	const char *says = "what limited it is not known (bottleneck below)";

	for (size_t i = 0; i < sizeof(gloss) / sizeof(gloss[0]); i++)
		if (!strcmp(v->verdict, gloss[i].verdict))
			says = gloss[i].says;
	if (!strcmp(v->verdict, "page_cache") && v->dev_io_share >= 0 && detail)
		snprintf(buf, sz, "%s (the device did %.0f%% of the bytes)", says,
			 100 * v->dev_io_share);
	else
		snprintf(buf, sz, "%s", says);
}

/* The verdict all of @d's clones with one share, or NULL (none, or they differ). */
static const struct bottleneck_verdict *defn_verdict(const struct defn *d)
{
	const struct bottleneck_verdict *v = NULL;

	for (size_t i = 0; i < d->n; i++) {
		const struct bottleneck_verdict *x = &d->j[i]->bottleneck;

		if (!x->verdict[0])
			continue;
		if (v && strcmp(v->verdict, x->verdict))
			return NULL;
		v = v ? v : x;
	}
	return v;
}

/*
 * "  read : bw=1272MiB/s (1334MB/s), IOPS=326k: the page cache, not the device
 * (...)": each direction of the definition (its clones together, over the
 * longest runtime, as fio's group line) with what qualifies the number.
 */
static void defn_dirs(FILE *f, const struct defn *d)
{
	const struct bottleneck_verdict *v = defn_verdict(d);
	char gloss[200], bp[32], bd[32], ip[32];
	int first = 1;

	for (unsigned k = 0; k < DDIR_NR; k++) {
		uint64_t bytes = 0, ios = 0, ms = 0, bw;

		for (size_t i = 0; i < d->n; i++) {
			const struct dir_result *x = &d->j[i]->dir[k];

			bytes += x->io_bytes;
			ios += x->total_ios;
			ms = x->runtime_ms > ms ? x->runtime_ms : ms;
		}
		if (!ms || !ios)
			continue;
		bw = 1000 * bytes / ms;
		/* the figure behind the verdict once, on the first direction */
		if (v)
			verdict_gloss(gloss, sizeof(gloss), v, first);
		else
			snprintf(gloss, sizeof(gloss), "the clones had different limits (below)");
		first = 0;
		report_fionum(bp, sizeof(bp), bw, 4, 1, "B/s");
		report_fionum(bd, sizeof(bd), bw, 4, 0, "B/s");
		report_fionum(ip, sizeof(ip), 1000 * ios / ms, 4, 0, "");
		fprintf(f, "  %-5s: bw=%s (%s), IOPS=%s%s%s\n", ddir_name(k), bp, bd, ip,
			v || d->n > 1 ? ": " : "", v || d->n > 1 ? gloss : "");
	}
}

/* Errors: once when every clone ended on the same one, else per clone. */
static void defn_errors(FILE *f, const struct defn *d)
{
	size_t bad = 0, same = 1;

	for (size_t i = 0; i < d->n; i++) {
		bad += d->j[i]->error != 0;
		same &= d->j[i]->error == d->j[0]->error &&
			!strcmp(d->j[i]->first_error, d->j[0]->first_error);
	}
	for (size_t i = 0; i < d->n && bad; i++) {
		const struct job_result *jr = d->j[i];

		if (!jr->error)
			continue;
		fprintf(f, "  error%s%s%s: %d (%s)%s\n", d->n > 1 ? " (" : "",
			d->n == 1 ? "" : bad == d->n && same ? "all" : d->name[i], d->n > 1 ? ")" : "",
			jr->error, jr->first_error[0] ? jr->first_error : strerror(jr->error),
			result_job_did_io(jr) ? "" : "; no I/O was done");
		if (bad == d->n && same)
			break;
	}
}

static void defn_steady(FILE *f, const struct defn *d)
{
	const struct steady **v = calloc(d->n, sizeof(*v));
	const char **names = calloc(d->n, sizeof(*names));
	size_t n = 0;

	for (size_t i = 0; v && names && i < d->n; i++)
		if (d->j[i]->steady && result_job_did_io(d->j[i])) {	/* without I/O: the error says */
			v[n] = d->j[i]->steady;
			names[n++] = d->name[i];
		}
	if (n == d->n && n)
		steady_print_text_clones(f, v, names, n);
	else
		for (size_t i = 0; i < n; i++) {
			if (d->n > 1)
				fprintf(f, "  %s:\n", names[i]);
			steady_print_text(f, v[i]);
		}
	free(v);
	free(names);
}

/* The clones' breakdowns (@tail: their steady tails'), I/O-weighted, and their cycles' range. */
static int defn_breakdown(const struct defn *d, int tail, struct breakdown *out, double *lo,
			  double *hi)
{
	struct breakdown *bv = calloc(d->n, sizeof(*bv));
	double *w = calloc(d->n, sizeof(*w));
	size_t n = 0;

	out->valid = 0;
	for (size_t i = 0; bv && w && i < d->n; i++) {
		const struct breakdown *b = tail ? &d->j[i]->bd_tail : &d->j[i]->bd;
		uint64_t ios = 0;

		if (!b->valid)
			break;
		for (unsigned k = 0; k < DDIR_NR; k++)
			ios += d->j[i]->dir[k].total_ios;
		bv[n] = *b;
		w[n++] = (double)ios;
		*lo = n == 1 || b->cycle_ns < *lo ? b->cycle_ns : *lo;
		*hi = n == 1 || b->cycle_ns > *hi ? b->cycle_ns : *hi;
	}
	if (n == d->n && n)
		breakdown_mean(bv, w, n, out);
	free(bv);
	free(w);
	return out->valid;
}

/* Time per I/O: the clones' together (I/O-weighted), once; a single job's as it is. */
static void defn_time(FILE *f, const struct defn *d)
{
	static const char *const what[2] = { "time per I/O", "time per I/O, steady tail" };
	struct breakdown b;
	double lo = 0, hi = 0;
	char label[160];

	for (int t = 0; t < 2; t++) {
		if (d->n == 1) {
			snprintf(label, sizeof(label), "%s (us)", what[t]);
			breakdown_text(f, "  ", label, t ? &d->j[0]->bd_tail : &d->j[0]->bd);
			continue;
		}
		if (!defn_breakdown(d, t, &b, &lo, &hi))
			continue;
		snprintf(label, sizeof(label), "%s (us, the %zu weighted by I/Os, cycles %.1f..%.1f "
			 "per clone)", what[t], d->n, lo / 1000, hi / 1000);
		breakdown_text(f, "  ", label, &b);
	}
}

/* Who limited the job: once when the clones agree (the first clone's figures), else each. */
static void defn_bottleneck(FILE *f, const struct defn *d)
{
	const struct bottleneck_verdict *v = defn_verdict(d);
	size_t judged = 0;

	for (size_t i = 0; i < d->n; i++)
		judged += d->j[i]->bottleneck.verdict[0] != 0;
	if (!judged)
		return;
	if (d->n == 1) {
		fprintf(f, "  bottleneck: %s (%s)\n", v->verdict, v->evidence);
		return;
	}
	if (v && judged == d->n) {
		fprintf(f, "  bottleneck: %s, all %zu (%s's figures: %s)\n", v->verdict, d->n,
			d->name[0], v->evidence);
		return;
	}
	for (size_t i = 0; i < d->n; i++)
		if (d->j[i]->bottleneck.verdict[0])
			fprintf(f, "  bottleneck %s: %s (%s)\n", d->name[i], d->j[i]->bottleneck.verdict,
				d->j[i]->bottleneck.evidence);
}

/*
 * lat_from_due (rated jobs): per direction, the latency from each I/O's slot
 * in the rate schedule, beside fio's lat, which counts from its start.  Per
 * clone (@name, "" for a job of one entry): the figures are each clone's.
 */
static void text_lat_from_due(FILE *f, const struct job_result *jr, const char *name)
{
	static const double p[] = { 50.0, 99.0, 99.9 };
	char v[3][32], mean[32], max[32], lat[32];
	uint64_t q[3];

	for (int d = 0; d < DDIR_NR; d++) {
		const struct dir_result *dr = &jr->dir[d];

		if (!dr->due.n)
			continue;
		hist_percentiles(&dr->due_hist, p, 3, q);
		for (int i = 0; i < 3; i++)
			human_ns(v[i], sizeof(v[i]), (double)q[i], HUMAN_TABLE);
		human_ns(mean, sizeof(mean), dr->due.mean, HUMAN_TABLE);
		human_ns(max, sizeof(max), (double)dr->due.max, HUMAN_TABLE);
		human_ns(lat, sizeof(lat), (double)hist_percentile(&dr->lat_hist, 99.0), HUMAN_TABLE);
		fprintf(f, "  lat from due%s%s%s: %s p50=%s, p99=%s, p99.9=%s, mean=%s, max=%s over "
			"%llu I/Os (from each I/O's slot in the rate schedule; lat's p99 from its "
			"start: %s)\n", name[0] ? " (" : " ", name, name[0] ? ")" : "", ddir_name(d),
			v[0], v[1], v[2], mean, max, (unsigned long long)dr->due.n, lat);
	}
}

static void defn_verify(FILE *f, const struct defn *d)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct verify_result *v = &d->j[i]->verify;

		if (!v->method)	/* verify=: the read-back pass (not counted as reads) */
			continue;
		fprintf(f, "  verify%s%s%s: %s, %llu blocks (%llu bytes) checked, %llu failed%s%s%s\n",
			d->n > 1 ? " (" : "       ", d->n > 1 ? d->name[i] : "", d->n > 1 ? ")" : "",
			verify_method_name((enum verify_method)v->method),
			(unsigned long long)v->blocks, (unsigned long long)v->bytes,
			(unsigned long long)v->failures, v->failures ? ": " : "",
			v->failures ? v->fail_msg : "",
			v->no_pass ? " (no end pass: do_verify=0 or time_based, as fio)" : "");
	}
}

/* "randrw.0..3 (group 0, 4 clones of job randrw):", or "q8 (group 0):". */
static void defn_head(FILE *f, const struct defn *d)
{
	size_t partial = 0;

	for (size_t i = 0; i < d->n; i++)
		partial += d->j[i]->partial != 0;
	/* not fio's "NAME: (groupid=" line: what greps for that finds fio's block */
	if (d->n > 1)
		fprintf(f, "%s.0..%zu (group %u, %zu clones of job %s)", d->j[0]->name, d->n - 1,
			d->j[0]->groupid, d->n, d->j[0]->name);
	else
		fprintf(f, "%s (group %u%s)", d->j[0]->name, d->j[0]->groupid,
			d->j[0]->nr_threads > 1 ? ", threads merged by group_reporting" : "");
	if (partial == d->n)
		fprintf(f, " [PARTIAL: stopped early]");
	for (size_t i = 0; i < d->n && partial && partial < d->n; i++)
		if (d->j[i]->partial)
			fprintf(f, " [PARTIAL: %s stopped early]", d->name[i]);
	fputs(":\n", f);
}

/* Job @i's definition: it and the entries of the same name in its group. */
static int defn_gather(const struct run_result *r, size_t i, struct defn *d)
{
	size_t idx, n = result_job_clones(r, i, &idx), k, m = 0;

	d->j = calloc(n, sizeof(*d->j));
	d->name = calloc(n, sizeof(*d->name));
	d->n = n;
	if (!d->j || !d->name) {
		free(d->j);
		free(d->name);
		return -1;
	}
	for (k = 0; k < r->nr_jobs && m < n; k++) {
		const struct job_result *x = &r->jobs[k];

		if (x->groupid != r->jobs[i].groupid || strcmp(x->name, r->jobs[i].name))
			continue;
		d->j[m] = x;
		if (n > 1)
			snprintf(d->name[m], sizeof(d->name[m]), "%s.%zu", x->name, m);
		else
			snprintf(d->name[m], sizeof(d->name[m]), "%s", x->name);
		m++;
	}
	return 0;
}

/* Every definition of group @gid, then the group's device views. */
static void text_group(FILE *f, const struct run_result *r, unsigned gid)
{
	for (size_t i = 0; i < r->nr_jobs; i++) {
		struct defn d;
		size_t idx;

		if (r->jobs[i].groupid != gid)
			continue;
		result_job_clones(r, i, &idx);
		if (idx || defn_gather(r, i, &d))	/* a definition once, at its first clone */
			continue;
		defn_head(f, &d);
		defn_errors(f, &d);
		if (result_job_did_io(d.j[0])) {
			defn_dirs(f, &d);
			defn_steady(f, &d);
			defn_time(f, &d);	/* docs/breakdown.md */
			report_breakdown_text_ctrl(f, d.j[0]);
			defn_bottleneck(f, &d);
		}
		for (size_t k = 0; k < d.n; k++)
			text_lat_from_due(f, d.j[k], d.n > 1 ? d.name[k] : "");
		defn_verify(f, &d);
		free(d.j);
		free(d.name);
	}
	report_breakdown_text_group(f, r, gid);
}

/* The plausibility checks (run_warnings.c): one line each, with numbers. */
static void text_warnings(FILE *f, const struct run_result *r)
{
	const json_t *w = r->warnings, *it;
	size_t i;

	if (!w || !json_array_size(w))
		return;
	fprintf(f, "\nPlausibility checks:\n");
	json_array_foreach(w, i, it) {
		fprintf(f, "  %-7s [%s] %s\n", json_string_value(json_object_get(it, "severity")),
			json_string_value(json_object_get(it, "id")),
			json_string_value(json_object_get(it, "message")));
	}
}

void report_text_add_write(FILE *f, const struct run_result *r)
{
	unsigned gid = 0;

	fprintf(f, "\niotrial:\n");
	if (r->partial)
		text_partial(f, r);
	/* ascending group ids, as fio's "Run status group" lines */
	for (int ok = result_next_group(r, 1, 0, &gid); ok; ok = result_next_group(r, 0, gid, &gid))
		text_group(f, r, gid);
	if (!r->nr_groups)	/* no per-group views (out of memory): the run-level ones */
		report_breakdown_text_views(f, r);
	report_ranks_text(f, r);	/* MPI: the per-host table */
	text_warnings(f, r);
}
