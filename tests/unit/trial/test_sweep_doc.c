/*
 * Tests for sweep_doc: a sweep's document written (sweep_json) and read
 * back (sweep_from_json) is the same sweep: the same JSON again and the
 * same text report, with and without an SLO; a document that is not a
 * sweep's, or whose parts are missing or of the wrong type, is refused
 * with one message naming the document and the part.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "trial/sweep.h"
#include "check.h"

/* A sweep of @n steps at 1000, 2000, ... IOPS; the last falls behind. */
static void fake(struct sweep_result *r, unsigned n, int slo)
{
	memset(r, 0, sizeof(*r));
	r->capacity_iops = 1000.0 * n - 500;
	r->capacity_measured = 1;
	r->threads = 2;
	r->batches = 3;
	r->batch_s = 2.0;
	r->pct = slo ? 50 : 99;
	r->has_slo = slo;
	r->slo_ns = 20000000;
	r->start_ms = 1764700000123;
	snprintf(r->ramp, sizeof(r->ramp), "500ms");
	snprintf(r->dir, sizeof(r->dir), "/tmp/sw");
	r->env = json_pack("{s:s, s:[{s:{s:s}}]}", "host", "h1", "targets", "device", "name", "loop7");
	r->workload = json_pack("[{s:s, s:s, s:i, s:s, s:i, s:i, s:s, s:i}]", "name", "t", "rw",
				"randread", "rwmixread", 50, "bs", "4096", "iodepth", 16, "direct", 1,
				"ioengine", "libaio", "numjobs", 2);
	r->knee_step = r->slo_step = -1;
	for (unsigned i = 0; i < n; i++) {
		struct sweep_step *s = &r->steps[i];

		s->offered = 1000.0 * (i + 1);
		s->kept = i + 1 < n;
		s->achieved = s->kept ? s->offered - 3 : s->offered * 0.8;
		s->achieved_lo = s->achieved - 10;
		s->achieved_hi = s->achieved + 10;
		s->batches = 3;
		s->due = (struct sweep_lat){ 3000, 1e5 * (i + 1), 2e5, 3e5 * (i + 1), 4e5, 1.5e5, 9e5 };
		s->clat = (struct sweep_lat){ 3000, 9e4, 1e5, 2e5, 3e5, 1e5, 8e5 };
		s->pct_ns = 5e6 * (i + 1);
		for (unsigned k = 0; k < 3; k++)
			s->pct_batch[k] = s->pct_ns + 1e5 * k;
		s->pct_mean = s->pct_ns + 1e5;
		s->pct_lo = s->pct_mean - 2e6;
		s->pct_hi = s->pct_mean + 2e6;
		s->within = slo && s->kept && s->pct_ns <= 20e6;
		r->nsteps++;
		if (s->kept) {
			r->knee_step = (int)i;
			r->knee_iops = s->offered;
		}
		if (s->within) {
			r->slo_step = (int)i;
			r->slo_iops = s->offered;
		}
	}
	if (slo) {
		r->slo_lo = 2000;
		r->slo_hi = r->slo_iops;
		r->slo_next = r->slo_iops + 1000;
	}
}

static char *text_of(const struct sweep_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	sweep_write_text(r, f);
	fclose(f);
	return buf;
}

/* sweep_json -> sweep_from_json -> sweep_json: the same document, the same text. */
static void round_trip(int slo)
{
	struct sweep_result *a = calloc(2, sizeof(*a)), *b;
	json_t *ja, *jb = NULL;
	char *ta, *tb;
	struct err e;

	if (!a)
		return;
	b = a + 1;
	fake(a, 5, slo);
	ja = sweep_json(a);
	CHECK(ja != NULL);
	err_clear(&e);
	CHECK(sweep_doc_is(ja));
	CHECK(sweep_from_json(ja, "mem.json", b, &e) == 0);
	if (e.msg[0])
		printf("  %s\n", e.msg);
	jb = sweep_json(b);
	CHECK(jb && json_equal(ja, jb));
	CHECK(b->knee_step == a->knee_step && b->slo_step == a->slo_step);
	CHECK(b->start_ms == a->start_ms && !strcmp(b->ramp, "500ms"));
	CHECK(json_equal(b->env, a->env) && json_equal(b->workload, a->workload));
	ta = text_of(a);
	tb = text_of(b);
	CHECK(ta && tb && !strcmp(ta, tb));
	if (slo)
		CHECK(ta && strstr(ta, "SLO p50 <= ") && strstr(ta, "4000 IOPS, interval 2000 .. 4000") &&
		      strstr(ta, "under the next step, 5000"));
	free(ta);
	free(tb);
	json_decref(ja);
	json_decref(jb);
	sweep_result_clear(a);
	sweep_result_clear(b);
	free(a);
}

TEST(round_trip_slo)
{
	round_trip(1);
}

TEST(round_trip_knee)
{
	round_trip(0);
}

/* @text refused, the message naming the document and containing @want. */
static int refused(const char *text, const char *want)
{
	json_t *j = json_loads(text, 0, NULL);
	struct sweep_result *r = calloc(1, sizeof(*r));
	struct err e;
	int ok;

	err_clear(&e);
	ok = j && r && sweep_from_json(j, "x.json", r, &e) == -EINVAL && e.exit_code == EXIT_USAGE &&
	     !strncmp(e.msg, "x.json: ", 8) && strstr(e.msg, want) && !strchr(e.msg, '\n');
	if (!ok)
		printf("  %s -> '%s' (want '%s')\n", text, e.msg, want);
	if (r)
		sweep_result_clear(r);
	free(r);
	json_decref(j);
	return ok;
}

TEST(bad_documents)
{
	CHECK(refused("[1, 2]", "not a JSON object"));
	CHECK(refused("{\"jobs\": [], \"steps\": []}", "a run's result"));
	CHECK(refused("{\"capacity_iops\": 5}", "no \"steps\" array"));
	CHECK(refused("{\"steps\": [], \"capacity_iops\": \"5\"}", "capacity_iops"));
	CHECK(refused("{\"steps\": [7], \"capacity_iops\": 5}", "steps[0]"));
	CHECK(refused("{\"steps\": [{\"offered_iops\": 1, \"achieved_iops\": 1, \"clat_ns\": "
		      "{\"p99\": \"x\"}}], \"capacity_iops\": 5}", "steps[0].clat_ns.\"p99\""));
	CHECK(refused("{\"steps\": [], \"capacity_iops\": 5, \"slo\": {\"percentile\": 99}}",
		      "target_ns"));
	CHECK(refused("{\"steps\": [], \"capacity_iops\": 5, \"slo\": {\"percentile\": 100, "
		      "\"target_ns\": 1000}}", "is not one"));
	CHECK(refused("{\"steps\": [], \"capacity_iops\": 5, \"knee_iops\": true}", "knee_iops"));
}

TEST(too_many_steps)
{
	json_t *steps = json_array(), *doc;
	struct sweep_result *r = calloc(1, sizeof(*r));
	struct err e;

	for (int i = 0; i <= SWEEP_MAX_STEPS; i++)
		json_array_append_new(steps, json_pack("{s:i, s:i}", "offered_iops", i, "achieved_iops", i));
	doc = json_pack("{s:o, s:i}", "steps", steps, "capacity_iops", 5);
	err_clear(&e);
	CHECK(r && sweep_from_json(doc, "big.json", r, &e) == -EINVAL && strstr(e.msg, "more than"));
	json_decref(doc);
	free(r);
}

int main(void)
{
	RUN(round_trip_slo);
	RUN(round_trip_knee);
	RUN(bad_documents);
	RUN(too_many_steps);
	return CHECK_DONE();
}
