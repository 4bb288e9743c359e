/*
 * test_resultwindow: which figures compare gets.  Synthetic results: an
 * iotrial one with a steady tail (whole run 1000 IOPS, tail 1500), one
 * without, and a fio one.  auto takes the tails only when every result has
 * one; all never; steady insists; switching back and forth is exact; the
 * steady parts' starts and lengths are compared.
 */
#include "check.h"
#include "result/resultwindow.h"

#include <errno.h>
#include <stdio.h>

static struct resultread *mk(int iotrial, int tail, unsigned start_ms, unsigned end_ms)
{
	char doc[2048], t[512] = "";
	struct resultread *r = NULL;
	struct err e;

	if (tail)
		snprintf(t, sizeof(t), ", \"iotrial\": {\"steady\": {\"attained\": false, \"tail\": "
			 "{\"from\": \"mser\", \"start_ms\": %u, \"end_ms\": %u, \"iops\": 1500, "
			 "\"read\": {\"ios\": 15000, \"bytes\": 61440000, \"iops\": 1500, "
			 "\"bw_bytes\": 6144000, \"lat_ns\": {\"mean\": 600, \"p99\": 900}}}}}",
			 start_ms, end_ms);
	snprintf(doc, sizeof(doc), "{%s, \"jobs\": [{\"jobname\": \"j\", "
		 "\"read\": {\"iops\": 1000, \"total_ios\": 20000, \"io_bytes\": 81920000, "
		 "\"bw_bytes\": 4096000, \"lat_ns\": {\"mean\": 1000}}, "
		 "\"write\": {\"iops\": 0, \"total_ios\": 0}%s}]}",
		 iotrial ? "\"iotrial\": {\"version\": \"0.1.0\"}" : "\"fio version\": \"fio-3.33\"", t);
	err_clear(&e);
	if (resultread_parse(doc, strlen(doc), iotrial ? "it.json" : "fio.json", &r, &e))
		printf("  %s\n", e.msg);
	return r;
}

TEST(auto_all_steady)
{
	struct resultread *a = mk(1, 1, 5000, 15000), *b = mk(1, 1, 5000, 16000);
	struct resultwindow_note n;
	struct err e;

	if (!a || !b) {
		CHECK(0);
		return;
	}
	CHECK(a->has_tail && b->has_tail);
	CHECK_EQ_U(resultwindow_apply(RESULTWINDOW_AUTO, &a, 1, &b, 1, &n, &e), 0);
	CHECK(n.steady);
	CHECK_NEAR(a->dir[0].iops, 1500, 1e-9);
	CHECK_NEAR(a->total_iops, 1500, 1e-9);
	CHECK_NEAR(a->dir[0].lat_mean_ns, 600, 1e-9);
	CHECK_NEAR(a->dir[0].lat_p99_ns, 900, 1e-9);
	CHECK_EQ_U(a->dir[0].ios, 15000);
	CHECK(strstr(n.what, "window: steady tails") != NULL);
	CHECK(n.warning[0] == 0);	/* 10 s vs 11 s from 5 s: alike */
	CHECK_EQ_U(resultwindow_apply(RESULTWINDOW_ALL, &a, 1, &b, 1, &n, &e), 0);
	CHECK(!n.steady);
	CHECK_NEAR(a->dir[0].iops, 1000, 1e-9);
	CHECK_EQ_U(a->dir[0].ios, 20000);
	CHECK(!memcmp(a->dir, a->whole, sizeof(a->dir)));	/* back exactly */
	CHECK(strstr(n.what, "whole runs (--window=all)") != NULL);
	CHECK_EQ_U(resultwindow_apply(RESULTWINDOW_STEADY, &a, 1, &b, 1, &n, &e), 0);
	CHECK_NEAR(b->dir[0].iops, 1500, 1e-9);
	resultread_free(a);
	resultread_free(b);
}

TEST(differ_greatly)
{
	struct resultread *a = mk(1, 1, 0, 20000), *b = mk(1, 1, 12000, 20000);
	struct resultwindow_note n;
	struct err e;

	CHECK_EQ_U(resultwindow_apply(RESULTWINDOW_AUTO, &a, 1, &b, 1, &n, &e), 0);
	CHECK(n.steady);
	CHECK(strstr(n.warning, "A's start at 0.0 s and last 20.0 s on average, B's at 12.0 s and 8.0 s") != NULL);
	{
		json_t *j = resultwindow_note_json(&n);

		CHECK_STR(json_string_value(json_object_get(j, "used")), "steady");
		CHECK(json_is_string(json_object_get(j, "warning")));
		json_decref(j);
		n.warning[0] = 0;
		j = resultwindow_note_json(&n);
		CHECK(j && !json_object_get(j, "warning"));
		json_decref(j);
	}
	resultread_free(a);
	resultread_free(b);
}

TEST(missing_tail_or_fio)
{
	struct resultread *a = mk(1, 1, 0, 10000), *b = mk(1, 0, 0, 0), *f = mk(0, 0, 0, 0);
	struct resultwindow_note n;
	struct err e;

	CHECK_EQ_U(resultwindow_apply(RESULTWINDOW_AUTO, &a, 1, &b, 1, &n, &e), 0);
	CHECK(!n.steady);
	CHECK_NEAR(a->dir[0].iops, 1000, 1e-9);
	CHECK(strstr(n.what, "whole runs: 1 of 2 results have no steady tail") != NULL);
	CHECK_EQ_U(resultwindow_apply(RESULTWINDOW_AUTO, &a, 1, &f, 1, &n, &e), 0);
	CHECK(strstr(n.what, "a mix of iotrial and fio results (1 fio") != NULL);
	err_clear(&e);
	CHECK(resultwindow_apply(RESULTWINDOW_STEADY, &a, 1, &f, 1, &n, &e) == -EINVAL);
	CHECK_EQ_U(e.exit_code, EXIT_USAGE);
	CHECK(strstr(e.msg, "--window=steady: fio.json has no steady tail") != NULL);
	resultread_free(a);
	resultread_free(b);
	resultread_free(f);
}

TEST(parse)
{
	enum resultwindow w;
	struct err e;

	err_clear(&e);
	CHECK(resultwindow_parse("all", &w, &e) == 0 && w == RESULTWINDOW_ALL);
	CHECK(resultwindow_parse("steady", &w, &e) == 0 && w == RESULTWINDOW_STEADY);
	CHECK(resultwindow_parse("auto", &w, &e) == 0 && w == RESULTWINDOW_AUTO);
	CHECK(resultwindow_parse("tail", &w, &e) == -EINVAL);
	CHECK_STR(e.msg, "--window=tail: expected all, steady or auto");
}

int main(void)
{
	RUN(auto_all_steady);
	RUN(differ_greatly);
	RUN(missing_tail_or_fio);
	RUN(parse);
	return CHECK_DONE();
}
