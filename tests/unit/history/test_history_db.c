/*
 * test_history_db: the history's core (src/history/) on databases in a temporary
 * directory: the path rules, the schema and its migrations (a later step
 * applied in a transaction, a failing step rolled back, a newer file refused
 * by name and left alone, a foreign SQLite file refused), storing a document
 * once, the derived figures and metrics, the job signature and what differs,
 * selectors and labels, and the trend's band.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "history/history_db.h"

static char dir[64];

static void path_in(char *buf, size_t sz, const char *name)
{
	snprintf(buf, sz, "%s/%s", dir, name);
}

/* A fio-style result of one job: @iops read IOPS at @ts_ms, block size @bs. */
static char *doc(double iops, long long ts_ms, const char *bs, const char *dev)
{
	char *s = NULL;

	if (asprintf(&s,
		     "{\"fio version\": \"fio-3.33\", \"timestamp_ms\": %lld,"
		     " \"global options\": {\"bs\": \"%s\"}, \"jobs\": ["
		     "{\"jobname\": \"j\", \"job options\": {\"rw\": \"randread\", \"iodepth\": \"8\","
		     " \"ioengine\": \"libaio\", \"direct\": \"1\"},"
		     " \"read\": {\"iops\": %g, \"total_ios\": %lld, \"io_bytes\": %lld, \"bw_bytes\": %g,"
		     "  \"runtime\": 1000, \"lat_ns\": {\"mean\": 1000, \"N\": 10},"
		     "  \"clat_ns\": {\"mean\": 900, \"N\": 10, \"percentile\": {\"99.000000\": 5000}}},"
		     " \"write\": {\"iops\": 0, \"total_ios\": 0}, \"job_runtime\": 1000,"
		     " \"usr_cpu\": 1, \"sys_cpu\": 2}],"
		     " \"disk_util\": [{\"name\": \"%s\", \"read_ios\": 10, \"write_ios\": 0,"
		     " \"read_ticks\": 1, \"write_ticks\": 0, \"in_queue\": 1, \"util\": 50}]}",
		     ts_ms, bs, iops, (long long)iops, (long long)iops * 4096, iops * 4096, dev) < 0)
		return NULL;
	return s;
}

static struct history *open_new(const char *name)
{
	char p[128];
	struct history *h = NULL;
	struct err e;

	err_clear(&e);
	path_in(p, sizeof(p), name);
	unlink(p);
	if (history_open(p, HISTORY_WRITE, 0, &h, NULL, &e))
		printf("  open %s: %s\n", p, e.msg);
	return h;
}

static int64_t store(struct history *h, double iops, long long ts, const char *bs, int *added)
{
	struct history_origin o = { "run", NULL, 0 };
	char *t = doc(iops, ts, bs, "vdb");
	int64_t id = -1;
	struct err e;

	err_clear(&e);
	if (!t || history_record(h, t, strlen(t), "t.json", &o, &id, added, &e))
		printf("  record: %s\n", e.msg);
	free(t);
	return id;
}

/* One integer from a query on @h. */
static long long q1(struct history *h, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;

	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

TEST(path_rules)
{
	char b[256];
	struct err e;

	err_clear(&e);
	CHECK(history_path(b, sizeof(b), "/x/given.db", "/env.db", "/xdg", "/home/u", &e) == 0);
	CHECK_STR(b, "/x/given.db");
	CHECK(history_path(b, sizeof(b), NULL, "/env.db", "/xdg", "/home/u", &e) == 0);
	CHECK_STR(b, "/env.db");
	CHECK(history_path(b, sizeof(b), "", "", "/xdg", "/home/u", &e) == 0);
	CHECK_STR(b, "/xdg/iotrial/history.db");
	CHECK(history_path(b, sizeof(b), NULL, NULL, NULL, "/home/u", &e) == 0);
	CHECK_STR(b, "/home/u/.local/share/iotrial/history.db");
	CHECK(history_path(b, sizeof(b), NULL, NULL, NULL, NULL, &e) == -ENOENT);
	CHECK(e.exit_code == EXIT_USAGE);
	err_clear(&e);
	CHECK(history_path(b, 8, "/a/long/path.db", NULL, NULL, NULL, &e) == -ENAMETOOLONG);
}

TEST(create_and_reopen)
{
	struct history *h = open_new("a/b/new.db"), *r = NULL;
	char p[128];
	enum history_problem pr;
	struct err e;

	CHECK(h != NULL);
	if (!h)
		return;
	CHECK(q1(h, "PRAGMA user_version") == HISTORY_SCHEMA_VERSION);
	CHECK(q1(h, "SELECT count(*) FROM sqlite_master WHERE name = 'runs_dev'") == 1);
	history_close(h);
	err_clear(&e);
	path_in(p, sizeof(p), "a/b/new.db");
	CHECK(history_open(p, HISTORY_READ, 0, &r, &pr, &e) == 0);
	CHECK(pr == HISTORY_OK);
	history_close(r);
	path_in(p, sizeof(p), "a/b/none.db");
	CHECK(history_open(p, HISTORY_READ, 0, &r, &pr, &e) == -ENOENT);
	CHECK(pr == HISTORY_MISSING && r == NULL);
	CHECK(access(p, F_OK) != 0);	/* reading never creates */
}

TEST(migrate_steps)
{
	struct history *h = open_new("mig.db");
	enum { V = HISTORY_SCHEMA_VERSION };	/* the new file's: steps from it on */
	static const struct history_migration good[] = {
		{ V, "SELECT 1" },	/* already applied: skipped */
		{ V + 1, "CREATE TABLE extra(x); ALTER TABLE runs ADD COLUMN note TEXT" },
	};
	static const struct history_migration bad[] = {
		{ V + 2, "CREATE TABLE half(x); THIS IS NOT SQL" },
	};
	char want[64];
	struct err e;

	if (!h)
		return;
	err_clear(&e);
	CHECK(history_db_migrate(h, good, 2, V + 1, &e) == 0);
	CHECK(q1(h, "PRAGMA user_version") == V + 1);
	CHECK(q1(h, "SELECT count(*) FROM pragma_table_info('runs') WHERE name = 'note'") == 1);
	/* a failing step leaves nothing behind: no table, the version as it was */
	CHECK(history_db_migrate(h, bad, 1, V + 2, &e) < 0);
	snprintf(want, sizeof(want), "migrating the schema to version %d", V + 2);
	CHECK(strstr(e.msg, want) != NULL);
	CHECK(q1(h, "PRAGMA user_version") == V + 1);
	CHECK(q1(h, "SELECT count(*) FROM sqlite_master WHERE name = 'half'") == 0);
	/* the same steps again: nothing to do */
	err_clear(&e);
	CHECK(history_db_migrate(h, good, 2, V + 1, &e) == 0);
	history_close(h);
}

/*
 * A version 1 file (as main wrote it before metrics had lo and hi) is read
 * as it is, and migrated to the current schema when written: lo and hi
 * appear, the rows kept.
 */
TEST(migrate_v1)
{
	struct history *h = open_new("v1.db"), *r = NULL;
	enum history_problem pr;
	char p[128];
	struct err e;

	if (!h)
		return;
	CHECK(history_db_exec(h, "CREATE TABLE m1 AS SELECT * FROM metrics; DROP TABLE metrics; "
			      "CREATE TABLE metrics(run_id INTEGER NOT NULL, name TEXT NOT NULL, window "
			      "TEXT NOT NULL, value REAL NOT NULL, cv REAL, PRIMARY KEY(run_id, name, "
			      "window)) WITHOUT ROWID; DROP TABLE m1; PRAGMA user_version = 1", NULL,
			      NULL) == 0);
	history_close(h);
	path_in(p, sizeof(p), "v1.db");
	err_clear(&e);
	CHECK(history_open(p, HISTORY_READ, 0, &r, &pr, &e) == 0);
	if (r)
		CHECK(q1(r, "PRAGMA user_version") == 1);
	history_close(r);
	r = NULL;
	CHECK(history_open(p, HISTORY_WRITE, 0, &r, &pr, &e) == 0);
	if (r) {
		CHECK(q1(r, "PRAGMA user_version") == HISTORY_SCHEMA_VERSION);
		CHECK(q1(r, "SELECT count(*) FROM pragma_table_info('metrics') WHERE name IN "
			 "('lo', 'hi')") == 2);
	}
	history_close(r);
}

TEST(newer_refused)
{
	struct history *h = open_new("newer.db"), *r = NULL;
	enum history_problem pr;
	char p[128];
	struct err e;

	if (!h)
		return;
	CHECK(history_db_exec(h, "PRAGMA user_version = 9; INSERT OR REPLACE INTO meta VALUES "
			      "('writer', '7.0.0')", NULL, NULL) == 0);
	history_close(h);
	path_in(p, sizeof(p), "newer.db");
	err_clear(&e);
	CHECK(history_open(p, HISTORY_WRITE, 0, &r, &pr, &e) < 0);
	CHECK(pr == HISTORY_NEWER && r == NULL);
	CHECK(strstr(e.msg, "written by iotrial 7.0.0 (schema version 9;") != NULL);
	CHECK(strstr(e.msg, "refused") != NULL);
	err_clear(&e);
	CHECK(history_open(p, HISTORY_READ, 0, &r, &pr, &e) < 0);
	CHECK(pr == HISTORY_NEWER);
}

TEST(foreign_file_refused)
{
	struct history *r = NULL;
	enum history_problem pr;
	sqlite3 *db;
	char p[128];
	struct err e;

	path_in(p, sizeof(p), "other.db");
	unlink(p);
	CHECK(sqlite3_open(p, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, "CREATE TABLE mine(a)", NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);
	err_clear(&e);
	CHECK(history_open(p, HISTORY_WRITE, 0, &r, &pr, &e) < 0);
	CHECK(pr == HISTORY_CORRUPT);
	CHECK(strstr(e.msg, "not an iotrial history") != NULL);
	CHECK(sqlite3_open(p, &db) == SQLITE_OK);	/* and it was not touched */
	sqlite3_stmt *st;
	CHECK(sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) == SQLITE_OK);
	CHECK(sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

TEST(record_once_and_derive)
{
	struct history *h = open_new("rec.db");
	struct history_run run;
	char *text = NULL;
	size_t len = 0;
	int added = -1;
	int64_t id, again;
	struct err e;

	if (!h)
		return;
	id = store(h, 1000, 1700000000000LL, "4k", &added);
	CHECK(id == 1 && added == 1);
	again = store(h, 1000, 1700000000000LL, "4k", &added);
	CHECK(again == 1 && added == 0);	/* the same document: one run */
	CHECK(q1(h, "SELECT count(*) FROM runs") == 1);
	err_clear(&e);
	CHECK(history_get(h, 1, &run, &e) == 0);
	CHECK(run.start_ms == 1700000000000LL);
	CHECK_STR(run.tool, "fio-3.33");
	CHECK_STR(run.key.sig_text, "rw=randread bs=4096 iodepth=8 direct=1 ioengine=libaio numjobs=1");
	CHECK_STR(run.key.dev_id, "vdb");	/* fio: the device by its disk_util name */
	CHECK_NEAR(run.total_iops, 1000, 0);
	/* figures of the whole run and of the job; compare's metrics */
	CHECK(q1(h, "SELECT count(*) FROM figures WHERE run_id = 1 AND ddir = 'read'") == 2);
	CHECK(q1(h, "SELECT value FROM metrics WHERE run_id = 1 AND name = 'read.iops' AND "
		    "window = 'all'") == 1000);
	CHECK(q1(h, "SELECT value FROM metrics WHERE name = 'read.lat_p99_ns'") == 5000);
	/* the stored document is the one given, byte for byte */
	CHECK(history_document(h, 1, &text, &len, &e) == 0);
	if (text) {
		char *want = doc(1000, 1700000000000LL, "4k", "vdb");

		CHECK(want && len == strlen(want) && !memcmp(text, want, len));
		free(want);
	}
	free(text);
	/* a bad document stores nothing */
	{
		struct history_origin o = { "run", NULL, 0 };

		err_clear(&e);
		CHECK(history_record(h, "{ not json", 10, "bad.json", &o, &id, &added, &e) < 0);
		CHECK(strstr(e.msg, "bad.json: not a result file") != NULL);
		CHECK(q1(h, "SELECT count(*) FROM runs") == 1);
	}
	history_close(h);
}

TEST(key_diff_names_what_differs)
{
	struct history_key a, b;
	char why[300];

	memset(&a, 0, sizeof(a));
	snprintf(a.dev_id, sizeof(a.dev_id), "Samsung 123");
	snprintf(a.dev_name, sizeof(a.dev_name), "nvme0n1");
	snprintf(a.sig_text, sizeof(a.sig_text), "rw=randread bs=4096 iodepth=32 direct=1 "
		 "ioengine=io_uring numjobs=1");
	snprintf(a.sig, sizeof(a.sig), "1111");
	a.nr_jobs = 1;
	b = a;
	CHECK(history_key_diff(&a, &b, why, sizeof(why)) == 0);
	snprintf(b.sig_text, sizeof(b.sig_text), "rw=randread bs=8192 iodepth=32 direct=0 "
		 "ioengine=io_uring numjobs=1");
	snprintf(b.sig, sizeof(b.sig), "2222");
	snprintf(b.dev_id, sizeof(b.dev_id), "Samsung 456");
	CHECK(history_key_diff(&a, &b, why, sizeof(why)) == 3);
	CHECK_STR(why, "device Samsung 123 vs Samsung 456; bs 4096 vs 8192; direct 1 vs 0");
	/* a result that knows the device by name only is that device */
	b = a;
	snprintf(b.dev_id, sizeof(b.dev_id), "nvme0n1");
	CHECK(history_key_diff(&a, &b, why, sizeof(why)) == 0);
}

TEST(selectors_and_labels)
{
	struct history *h = open_new("sel.db");
	int64_t *ids = NULL;
	size_t n = 0;
	int added, i;
	struct err e;

	if (!h)
		return;
	for (i = 0; i < 5; i++)
		store(h, 1000 + i, 1700000000000LL + i * 1000, "4k", &added);
	store(h, 999, 1700000009000LL, "8k", &added);	/* another workload, newest */
	err_clear(&e);
	CHECK(history_select(h, "2-4", NULL, &ids, &n, &e) == 0);
	CHECK(n == 3 && ids && ids[0] == 2 && ids[2] == 4);
	free(ids);
	CHECK(history_select(h, "1,3", NULL, &ids, &n, &e) == 0);
	CHECK(n == 2 && ids[1] == 3);
	CHECK(history_label(h, "base", ids, n, 0, &e) == 0);
	free(ids);
	CHECK(history_select(h, "label:base", NULL, &ids, &n, &e) == 0 && n == 2);
	free(ids);
	CHECK(history_select(h, "base", NULL, &ids, &n, &e) == 0 && n == 2);
	free(ids);
	{	/* last:N like run 1: its workload only, oldest first */
		struct history_key *k = NULL;
		int64_t one = 1;

		CHECK(history_keys(h, &one, 1, &k, &e) == 0);
		CHECK(history_select(h, "last:2", k, &ids, &n, &e) == 0);
		CHECK(n == 2 && ids[0] == 4 && ids[1] == 5);
		free(ids);
		free(k);
	}
	CHECK(history_select(h, "last:1", NULL, &ids, &n, &e) == 0 && n == 1 && ids[0] == 6);
	free(ids);
	err_clear(&e);
	CHECK(history_select(h, "7", NULL, &ids, &n, &e) == -ENOENT);
	err_clear(&e);
	CHECK(history_select(h, "label:none", NULL, &ids, &n, &e) == -ENOENT);
	err_clear(&e);
	CHECK(history_select(h, "4-2", NULL, &ids, &n, &e) == -EINVAL);
	CHECK(strstr(e.msg, "bad selector '4-2'") != NULL);
	err_clear(&e);
	CHECK(history_label(h, "1st", NULL, 0, 0, &e) == -EINVAL);
	history_close(h);
}

TEST(trend_band)
{
	struct history *h = open_new("trend.db");
	struct history_filter f;
	struct history_trend t;
	static const double v[] = { 100, 102, 98, 100, 101, 99, 60, 100 };	/* 7th: worse */
	int added;
	size_t i;
	struct err e;

	if (!h)
		return;
	for (i = 0; i < 8; i++)
		store(h, v[i], 1700000000000LL + (long long)i * 60000, "4k", &added);
	history_filter_init(&f);
	f.device = "vdb";
	err_clear(&e);
	CHECK(history_trend(h, "read.iops", &f, "auto", 5, &t, &e) == 0);
	CHECK_EQ_U(t.n, 8);
	CHECK_STR(t.window, "all");
	if (t.n == 8) {
		CHECK(isnan(t.p[4].band_mean));		/* four runs before: no band yet */
		CHECK_NEAR(t.p[5].band_mean, 100.2, 1e-9);	/* the first five */
		/* point 7 (60): the 5 runs before it, 102 98 100 101 99: mean 100, sd 1.58 */
		CHECK_NEAR(t.p[6].band_mean, 100, 1e-9);
		CHECK_NEAR(t.p[6].band_sd, sqrt(2.5), 1e-9);
		CHECK(t.p[6].outside == 1);		/* below the band: worse for IOPS */
		CHECK(t.p[5].outside == 0);
		CHECK(t.p[0].id == 1 && t.p[7].id == 8);
	}
	history_trend_free(&t);
	/* latency: lower is better, so a point above the band is the bad side */
	err_clear(&e);
	CHECK(history_trend(h, "cpu_per_io_ns", &f, "all", 5, &t, &e) == 0);
	CHECK(t.lower_better == 1);
	history_trend_free(&t);
	err_clear(&e);
	CHECK(history_trend(h, "bogus", &f, "all", 5, &t, &e) == -EINVAL);
	f.device = "nvme9";
	err_clear(&e);
	CHECK(history_trend(h, "read.iops", &f, "all", 5, &t, &e) < 0);
	CHECK(strstr(e.msg, "no runs of device 'nvme9'") != NULL);
	history_close(h);
}

int main(void)
{
	char cmd[96];

	snprintf(dir, sizeof(dir), "%s/iotrial-hist.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(path_rules);
	RUN(create_and_reopen);
	RUN(migrate_steps);
	RUN(migrate_v1);
	RUN(newer_refused);
	RUN(foreign_file_refused);
	RUN(record_once_and_derive);
	RUN(key_diff_names_what_differs);
	RUN(selectors_and_labels);
	RUN(trend_band);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("  could not remove %s\n", dir);
	return CHECK_DONE();
}
