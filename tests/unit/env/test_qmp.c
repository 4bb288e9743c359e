/*
 * test_qmp: the QMP reply reader (env/qmp.h) on replies made here, the
 * roles of QEMU's threads (lib/hostrole.h) from a fake /proc tree, and the
 * join of two samples with the guest's figures (env/hostview.h).
 */
#include "check.h"
#include "env/hostview.h"
#include "env/qmp.h"
#include "lib/hostrole.h"
#include "trial/compare.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char stats1[] =
	"{\"return\": [{\"device\": \"drive-virtio0\", \"qdev\": \"/machine/peripheral/virtio0\", "
	"\"stats\": {\"rd_operations\": 100, \"wr_operations\": 0, \"flush_operations\": 0, "
	"\"rd_bytes\": 409600, \"wr_bytes\": 0, \"rd_total_time_ns\": 5000000, "
	"\"wr_total_time_ns\": 0, \"flush_total_time_ns\": 0}}, "
	"{\"device\": \"\", \"qdev\": \"nvme0-ns1\", \"stats\": {\"rd_operations\": 7, "
	"\"wr_operations\": 1, \"flush_operations\": 0, \"rd_bytes\": 1, \"wr_bytes\": 2, "
	"\"rd_total_time_ns\": 3, \"wr_total_time_ns\": 4, \"flush_total_time_ns\": 5}}]}";

TEST(line_kinds)
{
	json_t *r;
	struct err e;
	int kind;
	const char *line;

	CHECK(!qmp_parse_line("{\"QMP\": {\"version\": {}}}", 24, &kind, &r, NULL) && kind == 'G');
	CHECK(!qmp_parse_line("{\"event\": \"RESUME\"}", 19, &kind, &r, NULL) && kind == 'E');
	CHECK(!qmp_parse_line("{\"return\": {}}", 14, &kind, &r, NULL) && kind == 'R' && json_is_object(r));
	json_decref(r);
	err_clear(&e);
	line = "{\"error\": {\"class\": \"x\", \"desc\": \"no\\nway\"}}";
	CHECK(!qmp_parse_line(line, strlen(line), &kind, &r, &e) &&
	      kind == 'X' && strstr(e.msg, "no\\nway"));
	err_clear(&e);
	CHECK(qmp_parse_line("[1]", 3, &kind, &r, &e) == -EPROTO && strstr(e.msg, "not an object"));
	err_clear(&e);
	CHECK(qmp_parse_line("{\"x\": 1}", 8, &kind, &r, &e) == -EPROTO);
	err_clear(&e);
	CHECK(qmp_parse_line("{\"return\": 1, \"return\": 2}", 26, &kind, &r, &e) == -EPROTO);
	err_clear(&e);
	CHECK(qmp_parse_line("{", QMP_REPLY_MAX + 1, &kind, &r, &e) == -EPROTO && strstr(e.msg, "bytes"));
}

TEST(blockstats_strict)
{
	struct qmp_drive d[4];
	size_t n;
	json_t *r;
	struct err e;
	int kind;
	char *bad;

	CHECK(!qmp_parse_line(stats1, strlen(stats1), &kind, &r, NULL));
	CHECK(!qmp_parse_blockstats(r, d, 4, &n, NULL) && n == 2);
	CHECK_STR(d[0].name, "drive-virtio0");
	CHECK_STR(d[1].name, "nvme0-ns1");	/* no device name: the qdev */
	CHECK_EQ_U(d[0].rd_ops, 100);
	CHECK_EQ_U(d[0].rd_ns, 5000000);
	CHECK_EQ_U(d[1].flush_ns, 5);
	err_clear(&e);
	CHECK(qmp_parse_blockstats(r, d, 1, &n, &e) == -EPROTO && strstr(e.msg, "2 drives"));
	json_decref(r);
	/* a counter of the wrong type, negative, missing: refused, named */
	const char *subs[][2] = { { "\"rd_operations\": 100", "\"rd_operations\": \"100\"" },
				  { "\"rd_operations\": 100", "\"rd_operations\": -1" },
				  { "\"rd_operations\": 100", "\"rd_operationz\": 100" },
				  { "\"rd_operations\": 100", "\"rd_operations\": 1.5" } };
	for (size_t k = 0; k < 4; k++) {
		const char *p = strstr(stats1, subs[k][0]);
		size_t pre = (size_t)(p - stats1);

		bad = malloc(sizeof(stats1) + 16);
		memcpy(bad, stats1, pre);
		strcpy(bad + pre, subs[k][1]);
		strcat(bad, p + strlen(subs[k][0]));
		CHECK(!qmp_parse_line(bad, strlen(bad), &kind, &r, NULL));
		err_clear(&e);
		CHECK(qmp_parse_blockstats(r, d, 4, &n, &e) == -EPROTO && strstr(e.msg, "rd_operation"));
		json_decref(r);
		free(bad);
	}
	r = json_pack("[{s:s, s:i}]", "device", "x", "stats", 1);
	CHECK(qmp_parse_blockstats(r, d, 4, &n, NULL) == -EPROTO);
	json_decref(r);
	r = json_pack("{}");
	CHECK(qmp_parse_blockstats(r, d, 4, &n, NULL) == -EPROTO);
	json_decref(r);
}

TEST(thread_ids_and_block)
{
	int t[4];
	size_t n;
	struct qmp_drive d[1];
	json_t *r = json_pack("[{s:i}, {s:i}]", "thread-id", 17699, "thread-id", 17705);

	CHECK(!qmp_parse_thread_ids(r, t, 4, &n, NULL) && n == 2 && t[1] == 17705);
	CHECK(qmp_parse_thread_ids(r, t, 1, &n, NULL) == -EPROTO);
	json_decref(r);
	r = json_pack("[{s:s}]", "thread-id", "1");
	CHECK(qmp_parse_thread_ids(r, t, 4, &n, NULL) == -EPROTO);
	json_decref(r);
	memset(d, 0, sizeof(d));
	strcpy(d[0].name, "drive-virtio0");
	r = json_pack("[{s:s, s:{s:{s:b, s:b}, s:{s:i, s:i}}}]", "device", "drive-virtio0", "inserted",
		      "cache", "direct", 0, "writeback", 1, "image", "virtual-size", 1000, "actual-size", 10);
	CHECK(!qmp_parse_block(r, d, 1, NULL) && d[0].has_block && !d[0].cache_direct &&
	      d[0].cache_writeback && d[0].actual_size == 10);
	json_decref(r);
	r = json_pack("[{s:s, s:{s:{s:i}}}]", "device", "drive-virtio0", "inserted", "cache", "direct", 1);
	CHECK(qmp_parse_block(r, d, 1, NULL) == -EPROTO);
	json_decref(r);
}

TEST(roles_by_name)
{
	CHECK(host_role_of("CPU 0/TCG") == HOST_ROLE_VCPU);
	CHECK(host_role_of("CPU 12/KVM") == HOST_ROLE_VCPU);
	CHECK(host_role_of("CPU x/KVM") == HOST_ROLE_OTHER);
	CHECK(host_role_of("IO iothread0") == HOST_ROLE_IOTHREAD);
	CHECK(host_role_of("IO mon_iothread") == HOST_ROLE_OTHER);
	CHECK(host_role_of("qemu-system-x86") == HOST_ROLE_MAIN);
	CHECK(host_role_of("kvm") == HOST_ROLE_MAIN);
	CHECK(host_role_of("worker") == HOST_ROLE_WORKER);
	CHECK(host_role_of("call_rcu") == HOST_ROLE_OTHER);
	CHECK_STR(host_role_name(HOST_ROLE_MAIN), "main_loop");
	/* compare's host.cpu_per_io_ns.<role> rows are the roles' names, in order */
	for (int k = 0; k < HOST_ROLE_NR; k++) {
		char name[64];

		snprintf(name, sizeof(name), "host.cpu_per_io_ns.%s", host_role_name((enum host_role)k));
		CHECK(compare_metric_known(name));
	}
}

/* A fake /proc/PID with threads @names and CPU ticks @ticks. */
static void fake_proc(const char *root, int pid, const char *const *names, const int *ticks, int n,
		      int total)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "mkdir -p %s/%d/task", root, pid);
	CHECK(!system(p));
	snprintf(p, sizeof(p), "%s/%d/stat", root, pid);
	f = fopen(p, "w");
	fprintf(f, "%d (qemu-system-x86) S 1 1 1 0 -1 0 0 0 0 0 %d 0 0 0\n", pid, total);
	fclose(f);
	for (int i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%s/%d/task/%d", root, pid, pid + i);
		mkdir(p, 0755);
		strcat(p, "/stat");
		f = fopen(p, "w");
		/* names with blanks and parentheses: fields start after the last ')' */
		fprintf(f, "%d (%s) S 1 1 1 0 -1 0 0 0 0 0 %d %d 0 0\n", pid + i, names[i], ticks[i] / 2,
			ticks[i] - ticks[i] / 2);
		fclose(f);
	}
}

TEST(threads_by_role_and_join)
{
	char root[] = "/tmp/test_qmp.XXXXXX", cmd[600];
	static const char *const names[] = { "qemu-system-x86", "CPU 0/TCG", "qemu-system-x86",
					     "worker", "call_rcu", "a (b) c" };
	int t0[] = { 10, 100, 0, 0, 1, 0 }, t1[] = { 30, 300, 50, 5, 1, 0 };
	long hz = sysconf(_SC_CLK_TCK);
	double tick = 1e9 / (double)hz;
	struct hostview_sample a, b;
	struct hostview_cfg c;
	struct hostview_guest g = { .ios = 100, .dev_lat_ns = 80000, .tool_ns = 3000, .io_path_ns = 2000 };
	char buf[64];
	json_t *o, *by;
	struct err e;
	char *pit;

	CHECK(mkdtemp(root) != NULL);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	/* QMP names thread 4002 an iothread: its name (cut by QEMU 7.2) does not */
	a.io_tids[0] = b.io_tids[0] = 4002;
	a.n_io = b.n_io = 1;
	fake_proc(root, 4000, names, t0, 6, 111);
	CHECK(!hostview_threads(root, 4000, &a, NULL) && a.nth == 6);
	fake_proc(root, 4000, names, t1, 6, 400);	/* 400 - 386: 14 ticks of ended threads */
	CHECK(!hostview_threads(root, 4000, &b, NULL));
	CHECK(b.th[0].role == HOST_ROLE_MAIN && b.th[1].role == HOST_ROLE_VCPU &&
	      b.th[2].role == HOST_ROLE_IOTHREAD && b.th[3].role == HOST_ROLE_WORKER);
	/* the drives: drive-virtio0 moved 100 ops, the other none */
	a.d = calloc(2, sizeof(*a.d));
	b.d = calloc(2, sizeof(*b.d));
	a.nd = b.nd = 2;
	strcpy(a.d[0].name, "drive-virtio0");
	strcpy(a.d[1].name, "drive-nvme0-ns1");
	memcpy(b.d, a.d, 2 * sizeof(*a.d));
	b.d[0].rd_ops = 100;
	b.d[0].rd_ns = 100 * 50000;
	b.d[1].has_block = 1;	/* not the drive measured: its cache mode is not ours */
	b.t_ns = 2000000000;
	CHECK(!hostview_cfg_parse("/run/q.sock", buf, sizeof(buf), &c, NULL));
	o = hostview_join(&c, &a, &b, &g, NULL);
	CHECK(o != NULL);
	CHECK_STR(json_string_value(json_object_get(o, "drive")), "drive-virtio0");
	CHECK(json_integer_value(json_object_get(o, "ops")) == 100);
	CHECK_NEAR(json_real_value(json_object_get(o, "backend_lat_ns")), 50000, 1e-6);
	CHECK_NEAR(json_real_value(json_object_get(o, "virt_path_ns")), 30000, 1e-6);
	by = json_object_get(o, "cpu_per_io_ns_by_role");
	CHECK_NEAR(json_real_value(json_object_get(by, "vcpu")), 200 * tick / 100, 1);
	CHECK_NEAR(json_real_value(json_object_get(by, "iothread")), 50 * tick / 100, 1);
	CHECK_NEAR(json_real_value(json_object_get(by, "main_loop")), 20 * tick / 100, 1);
	CHECK_NEAR(json_real_value(json_object_get(by, "worker")), 5 * tick / 100, 1);
	CHECK_NEAR(json_real_value(json_object_get(by, "other")), 14 * tick / 100, 1);
	CHECK_NEAR(json_real_value(json_object_get(o, "cpu_per_io_ns")), 289 * tick / 100, 1);
	CHECK(json_array_size(json_object_get(o, "pitfalls")) == 0);
	json_decref(o);
	/* no iothread at work, the main loop doing it: flagged; a named drive */
	b.th[2].cpu_ns = a.th[2].cpu_ns;
	CHECK(!hostview_cfg_parse("/run/q.sock,drive=drive-nvme0-ns1", buf, sizeof(buf), &c, NULL));
	CHECK_STR(c.drive, "drive-nvme0-ns1");
	b.d[1].rd_ops = 10;
	b.d[1].rd_ns = 10;
	o = hostview_join(&c, &a, &b, &g, NULL);
	CHECK(o && json_integer_value(json_object_get(o, "ops")) == 10);
	pit = o ? json_dumps(json_object_get(o, "pitfalls"), 0) : NULL;
	CHECK(pit && strstr(pit, "host_no_iothread") && strstr(pit, "host_page_cache"));
	free(pit);
	json_decref(o);
	err_clear(&e);
	CHECK(!hostview_cfg_parse("/run/q.sock,drive=nope", buf, sizeof(buf), &c, NULL));
	CHECK(!hostview_join(&c, &a, &b, &g, &e) && strstr(e.msg, "no drive 'nope'"));
	err_clear(&e);
	CHECK(hostview_cfg_parse("/run/q.sock,drv=x", buf, sizeof(buf), &c, &e) == -EINVAL);
	/* nothing moved: no drive to name */
	memcpy(b.d, a.d, 2 * sizeof(*a.d));
	CHECK(!hostview_cfg_parse("/run/q.sock", buf, sizeof(buf), &c, NULL));
	err_clear(&e);
	CHECK(!hostview_join(&c, &a, &b, &g, &e) && strstr(e.msg, "no drive"));
	hostview_sample_free(&a);
	hostview_sample_free(&b);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK(!system(cmd));
}

int main(void)
{
	RUN(line_kinds);
	RUN(blockstats_strict);
	RUN(thread_ids_and_block);
	RUN(roles_by_name);
	RUN(threads_by_role_and_join);
	return CHECK_DONE();
}
