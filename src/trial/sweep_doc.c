/*
 * sweep_doc: a sweep's document (sweep.h, docs/sweep.md): the sweep as JSON
 * (`--output-format=json`, DIR/sweep.json), that JSON read back (`iotrial
 * report sweep.json`), and the text report.  Reading back is the inverse of
 * writing: what sweep_json writes, sweep_from_json reads into the same
 * struct sweep_result, so a report from the file prints what the sweep
 * printed.
 */
#include "trial/sweep.h"

#include <errno.h>	/* EINVAL, EIO */
#include <math.h>	/* NAN, fabs */
#include <stdlib.h>	/* strtod */
#include <string.h>	/* memset, strcmp */
#include "lib/human.h"

static json_t *lat_json(const struct sweep_lat *l)
{
	return json_pack("{s:I, s:f, s:f, s:f, s:f, s:f, s:f}", "N", (json_int_t)l->n, "p50", l->p50,
			 "p90", l->p90, "p99", l->p99, "p99.9", l->p999, "mean", l->mean, "max", l->max);
}

json_t *sweep_json(const struct sweep_result *r)
{
	json_t *o = json_object(), *steps = json_array();
	char key[32];
	int bad = !o || !steps;

	snprintf(key, sizeof(key), "p%g", r->pct);
	for (unsigned i = 0; !bad && i < r->nsteps; i++) {
		const struct sweep_step *s = &r->steps[i];
		json_t *b = json_array(), *st;

		for (unsigned k = 0; b && k < s->batches; k++)
			json_array_append_new(b, json_real(s->pct_batch[k]));
		st = json_pack("{s:f, s:f, s:f, s:f, s:b, s:o, s:o, s:{s:s, s:f, s:f, s:f, s:f, s:o}}",
			       "offered_iops", s->offered, "achieved_iops", s->achieved,
			       "achieved_iops_min", s->achieved_lo, "achieved_iops_max", s->achieved_hi,
			       "kept", s->kept, "lat_from_due_ns", lat_json(&s->due),
			       "clat_ns", lat_json(&s->clat),
			       "percentile", "of", key, "pooled_ns", s->pct_ns, "mean_ns", s->pct_mean,
			       "ci_low_ns", s->pct_lo, "ci_high_ns", s->pct_hi, "batches_ns", b);
		bad |= !st || json_array_append_new(steps, st);
	}
	if (!bad) {
		bad |= json_object_set_new(o, "steps", steps);
		steps = NULL;
	}
	bad |= json_object_set_new(o, "capacity_iops", json_real(r->capacity_iops));
	bad |= json_object_set_new(o, "capacity_from", json_string(r->capacity_measured ?
		"closed-loop run" : "most achieved by a step (--range)"));
	bad |= json_object_set_new(o, "knee_iops", r->knee_step >= 0 ? json_real(r->knee_iops) : json_null());
	bad |= json_object_set_new(o, "knee_rule", json_string("highest offered load kept: achieved >= 95% of offered"));
	bad |= json_object_set_new(o, "threads", json_integer(r->threads));
	bad |= json_object_set_new(o, "batches", json_integer(r->batches));
	bad |= json_object_set_new(o, "batch_s", json_real(r->batch_s));
	bad |= json_object_set_new(o, "dir", json_string(r->dir));
	bad |= json_object_set_new(o, "ramp_time", json_string(r->ramp));
	if (r->start_ms >= 0)
		bad |= json_object_set_new(o, "timestamp_ms", json_integer(r->start_ms));
	if (r->env)
		bad |= json_object_set_new(o, "environment", json_deep_copy(r->env));
	if (r->workload)
		bad |= json_object_set_new(o, "workload", json_deep_copy(r->workload));
	if (r->has_slo) {
		json_t *slo = json_pack("{s:f, s:I, s:o, s:[o, o], s:o, s:s}", "percentile", r->pct,
					"target_ns", (json_int_t)r->slo_ns,
					"iops", r->slo_step >= 0 ? json_real(r->slo_iops) : json_null(),
					"ci", r->slo_step >= 0 || r->slo_hi > 0 ? json_real(r->slo_lo) : json_null(),
					r->slo_step >= 0 || r->slo_hi > 0 ? json_real(r->slo_hi) : json_null(),
					"next_step_iops", r->slo_next > 0 ? json_real(r->slo_next) : json_null(),
					"measured_over", "the due-time percentile pooled over each step's "
					"batches; ci: the steps where every batch kept up and each batch's "
					"percentile gives a 95% t-interval within the target (low), or some "
					"batch kept up and that interval reaches it (high)");

		bad |= !slo || json_object_set_new(o, "slo", slo);
	}
	json_decref(steps);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int sweep_write_text(const struct sweep_result *r, FILE *f)
{
	char a[32], b[32], c3[32], d[32], e5[32], g[32], h[80], cap[32];

	fprintf(f, "sweep: %u steps of %u batches (%.1f s each), %u thread%s; latency from each "
		"I/O's due time (lat from due) and fio's clat\n", r->nsteps, r->batches, r->batch_s,
		r->threads, r->threads == 1 ? "" : "s");
	fprintf(f, "%12s %12s %6s %10s %10s %10s %10s %10s %10s %10s\n", "offered", "achieved", "kept",
		"due p50", "due p99", "due p99.9", "due max", "clat p50", "clat p99", "");
	for (unsigned i = 0; i < r->nsteps; i++) {
		const struct sweep_step *s = &r->steps[i];

		human_ns(a, sizeof(a), s->due.p50, HUMAN_TABLE);
		human_ns(b, sizeof(b), s->due.p99, HUMAN_TABLE);
		human_ns(c3, sizeof(c3), s->due.p999, HUMAN_TABLE);
		human_ns(d, sizeof(d), s->due.max, HUMAN_TABLE);
		human_ns(e5, sizeof(e5), s->clat.p50, HUMAN_TABLE);
		human_ns(g, sizeof(g), s->clat.p99, HUMAN_TABLE);
		fprintf(f, "%12.0f %12.0f %6s %10s %10s %10s %10s %10s %10s %s\n", s->offered, s->achieved,
			s->kept ? "yes" : "BEHIND", a, b, c3, d, e5, g,
			(int)i == r->knee_step ? "<- knee" : "");
	}
	fprintf(f, "capacity: %.0f IOPS (%s)\n", r->capacity_iops,
		r->capacity_measured ? "closed-loop run" : "most achieved by a step");
	if (r->knee_step >= 0)
		fprintf(f, "knee: %.0f IOPS offered (the highest kept: achieved >= 95%% of offered)\n",
			r->knee_iops);
	else
		fprintf(f, "knee: none (no step kept up: start lower, --range)\n");
	if (r->has_slo) {
		human_ns(cap, sizeof(cap), (double)r->slo_ns, HUMAN_TABLE);
		h[0] = 0;
		if (r->slo_next > 0)
			snprintf(h, sizeof(h), "; the capacity lies under the next step, %.0f", r->slo_next);
		if (r->slo_step >= 0)
			fprintf(f, "SLO p%g <= %s (from the due time): %.0f IOPS, interval %.0f .. %.0f "
				"(from each step's %u batches%s)\n", r->pct, cap, r->slo_iops, r->slo_lo,
				r->slo_hi, r->batches, h);
		else
			fprintf(f, "SLO p%g <= %s (from the due time): no step kept it\n", r->pct, cap);
	}
	return ferror(f) ? -EIO : 0;
}

/* --- reading it back --------------------------------------------------------- */

int sweep_doc_is(const json_t *doc)
{
	return json_is_object(doc) && !json_object_get(doc, "jobs") &&
	       json_is_array(json_object_get(doc, "steps")) &&
	       json_is_number(json_object_get(doc, "capacity_iops"));
}

/* @o's number @key, @dflt when absent or null; -1 (with @e) when of another type. */
static int num_of(const json_t *o, const char *key, double dflt, double *out, const char *name,
		  const char *where, struct err *e)
{
	const json_t *v = json_object_get(o, key);

	*out = dflt;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v) || !isfinite(json_number_value(v)))
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: not a sweep document: %s\"%s\" is not a "
			       "number", name, where, key);
	*out = json_number_value(v);
	return 0;
}

static int lat_read(const json_t *o, struct sweep_lat *l, const char *name, const char *where,
		    struct err *e)
{
	double n;

	memset(l, 0, sizeof(*l));
	if (num_of(o, "N", 0, &n, name, where, e) || num_of(o, "p50", 0, &l->p50, name, where, e) ||
	    num_of(o, "p90", 0, &l->p90, name, where, e) || num_of(o, "p99", 0, &l->p99, name, where, e) ||
	    num_of(o, "p99.9", 0, &l->p999, name, where, e) ||
	    num_of(o, "mean", 0, &l->mean, name, where, e) || num_of(o, "max", 0, &l->max, name, where, e))
		return -EINVAL;
	l->n = n > 0 ? (uint64_t)n : 0;
	return 0;
}

static int step_read(const json_t *js, size_t i, struct sweep_result *r, const char *name,
		     struct err *e)
{
	struct sweep_step *s = &r->steps[i];
	const json_t *pc = json_object_get(js, "percentile"), *b = json_object_get(pc, "batches_ns");
	const char *of = json_string_value(json_object_get(pc, "of"));
	char where[64], w2[96];
	size_t k;

	snprintf(where, sizeof(where), "steps[%zu].", i);
	if (!json_is_object(js) || !json_is_number(json_object_get(js, "offered_iops")) ||
	    !json_is_number(json_object_get(js, "achieved_iops")))
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: not a sweep document: steps[%zu] has no "
			       "numeric offered_iops and achieved_iops", name, i);
	if (num_of(js, "offered_iops", 0, &s->offered, name, where, e) ||
	    num_of(js, "achieved_iops", 0, &s->achieved, name, where, e) ||
	    num_of(js, "achieved_iops_min", s->achieved, &s->achieved_lo, name, where, e) ||
	    num_of(js, "achieved_iops_max", s->achieved, &s->achieved_hi, name, where, e))
		return -EINVAL;
	s->kept = json_is_true(json_object_get(js, "kept"));
	snprintf(w2, sizeof(w2), "%slat_from_due_ns.", where);
	if (lat_read(json_object_get(js, "lat_from_due_ns"), &s->due, name, w2, e))
		return -EINVAL;
	snprintf(w2, sizeof(w2), "%sclat_ns.", where);
	if (lat_read(json_object_get(js, "clat_ns"), &s->clat, name, w2, e))
		return -EINVAL;
	snprintf(w2, sizeof(w2), "%spercentile.", where);
	if (num_of(pc, "pooled_ns", 0, &s->pct_ns, name, w2, e) ||
	    num_of(pc, "mean_ns", 0, &s->pct_mean, name, w2, e) ||
	    num_of(pc, "ci_low_ns", 0, &s->pct_lo, name, w2, e) ||
	    num_of(pc, "ci_high_ns", 0, &s->pct_hi, name, w2, e))
		return -EINVAL;
	if (of && of[0] == 'p' && !i)
		r->pct = strtod(of + 1, NULL);
	s->batches = (unsigned)(json_array_size(b) < SWEEP_MAX_BATCHES ? json_array_size(b) :
				SWEEP_MAX_BATCHES);
	for (k = 0; k < s->batches; k++)
		s->pct_batch[k] = json_number_value(json_array_get(b, k));
	return 0;
}

/* The slo object: the SLO, its capacity and interval; the steps within it. */
static int slo_read(const json_t *slo, struct sweep_result *r, const char *name, struct err *e)
{
	const json_t *ci = json_object_get(slo, "ci");
	double pct, target, v;
	unsigned i;

	r->slo_step = -1;
	if (!slo || json_is_null(slo))
		return 0;
	if (!json_is_object(slo) || !json_is_number(json_object_get(slo, "percentile")) ||
	    !json_is_number(json_object_get(slo, "target_ns")))
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: not a sweep document: \"slo\" has no "
			       "numeric percentile and target_ns", name);
	if (num_of(slo, "percentile", 0, &pct, name, "slo.", e) ||
	    num_of(slo, "target_ns", 0, &target, name, "slo.", e) ||
	    num_of(slo, "iops", 0, &r->slo_iops, name, "slo.", e) ||
	    num_of(slo, "next_step_iops", 0, &r->slo_next, name, "slo.", e))
		return -EINVAL;
	if (!(pct > 0 && pct < 100 && target >= 1))
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: not a sweep document: the SLO p%g <= %g ns "
			       "is not one", name, pct, target);
	r->has_slo = 1;
	r->pct = pct;
	r->slo_ns = (uint64_t)target;
	if (json_array_size(ci) == 2) {
		r->slo_lo = json_number_value(json_array_get(ci, 0));
		r->slo_hi = json_number_value(json_array_get(ci, 1));
	}
	for (i = 0; i < r->nsteps; i++) {
		struct sweep_step *s = &r->steps[i];

		s->within = s->kept && s->pct_ns <= (double)r->slo_ns;
		v = s->offered;
		if (json_is_number(json_object_get(slo, "iops")) && fabs(v - r->slo_iops) <= 1e-6 * v)
			r->slo_step = (int)i;
	}
	return 0;
}

int sweep_from_json(const json_t *doc, const char *name, struct sweep_result *r, struct err *e)
{
	const json_t *steps = json_object_get(doc, "steps"), *js;
	const char *from = json_string_value(json_object_get(doc, "capacity_from"));
	const json_t *env = json_object_get(doc, "environment"), *wl = json_object_get(doc, "workload");
	double x;
	size_t i;

	memset(r, 0, sizeof(*r));
	r->knee_step = r->slo_step = -1;
	r->start_ms = -1;
	r->pct = 99.0;
	if (!json_is_object(doc) || json_object_get(doc, "jobs"))
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: not a sweep document (%s)", name,
			       json_is_object(doc) ? "a run's result: it has jobs" : "not a JSON object");
	if (!json_is_array(steps) || !json_is_number(json_object_get(doc, "capacity_iops")))
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: not a sweep document: no %s", name,
			       json_is_array(steps) ? "numeric \"capacity_iops\"" : "\"steps\" array");
	if (json_array_size(steps) > SWEEP_MAX_STEPS)
		return err_set(e, -EINVAL, EXIT_USAGE, "%s: not a sweep document: %zu steps, more than "
			       "a sweep makes (%d)", name, json_array_size(steps), SWEEP_MAX_STEPS);
	json_array_foreach(steps, i, js) {
		if (step_read(js, i, r, name, e))
			return -EINVAL;
		r->nsteps++;
	}
	if (num_of(doc, "capacity_iops", 0, &r->capacity_iops, name, "", e) ||
	    num_of(doc, "knee_iops", NAN, &r->knee_iops, name, "", e) ||
	    num_of(doc, "batch_s", 0, &r->batch_s, name, "", e) ||
	    num_of(doc, "threads", 0, &x, name, "", e))
		return -EINVAL;
	r->threads = x > 0 && x < 1e9 ? (unsigned)x : 0;
	if (num_of(doc, "batches", 0, &x, name, "", e))
		return -EINVAL;
	r->batches = x > 0 && x <= SWEEP_MAX_BATCHES ? (unsigned)x : 0;
	if (num_of(doc, "timestamp_ms", -1, &x, name, "", e))
		return -EINVAL;
	r->start_ms = x >= 0 && x < 9e15 ? (int64_t)x : -1;
	r->capacity_measured = from && !strcmp(from, "closed-loop run");
	for (i = 0; isfinite(r->knee_iops) && i < r->nsteps; i++)
		if (fabs(r->steps[i].offered - r->knee_iops) <= 1e-6 * r->knee_iops)
			r->knee_step = (int)i;
	if (!isfinite(r->knee_iops))
		r->knee_iops = 0;
	snprintf(r->dir, sizeof(r->dir), "%s", json_string_value(json_object_get(doc, "dir")) ?
		 json_string_value(json_object_get(doc, "dir")) : "");
	snprintf(r->ramp, sizeof(r->ramp), "%s", json_string_value(json_object_get(doc, "ramp_time")) ?
		 json_string_value(json_object_get(doc, "ramp_time")) : "");
	if (slo_read(json_object_get(doc, "slo"), r, name, e))
		return -EINVAL;
	r->env = json_is_object(env) ? json_deep_copy(env) : NULL;
	r->workload = json_is_array(wl) ? json_deep_copy(wl) : NULL;
	if ((json_is_object(env) && !r->env) || (json_is_array(wl) && !r->workload)) {
		sweep_result_clear(r);
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	}
	return 0;
}
