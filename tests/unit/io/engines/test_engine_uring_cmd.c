/*
 * Tests for engine_uring_cmd without an NVMe device: its options (the ring's
 * rows shared with io_uring, its own refused under io_uring, fio's defaults,
 * pi_chk's words, the checks validate makes) and its refusal of a target
 * that is not a namespace.  The I/O itself runs against QEMU's NVMe in
 * tests/e2e/vm_uring_cmd.sh.
 */
#include <string.h>
#include "check.h"
#include "engine_harness.h"
#include "parse/opt.h"

extern const struct engine_ops engine_uring_cmd_ops;
#define OPS (&engine_uring_cmd_ops)

/* A job from name=value pairs, validated: 0 or the first error (@e). */
static int ucmd_job(struct job *j, const char *const *kv, size_t n, struct err *e)
{
	size_t i;
	int r = 0;

	job_init(j);
	err_clear(e);
	snprintf(j->origin, sizeof(j->origin), "t.fio:1");
	for (i = 0; i + 1 < n && !r; i += 2)
		r = opt_set(j, kv[i], kv[i + 1], "t.fio:1", e);
	return r ? r : opt_job_validate(j, e);
}

#define JOB(j, e, ...) \
	ucmd_job((j), (const char *const[]){ __VA_ARGS__ }, \
		 sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *), (e))

/* The resolved value of option @name in @j, as --showcmd has it ("" when unset). */
static const char *shown(const struct job *j, const char *name, char *buf, size_t n)
{
	struct job_kv *kv;
	size_t nr, i;

	buf[0] = '\0';
	if (opt_job_resolved(j, &kv, &nr))
		return buf;
	for (i = 0; i < nr; i++)
		if (!strcmp(kv[i].key, name) && kv[i].val)
			snprintf(buf, n, "%s", kv[i].val);
	opt_kv_free(kv, nr);
	return buf;
}

TEST(registered_with_shared_rows)
{
	const struct opt_def *fb = opt_find("fixedbufs"), *ct = opt_find("cmd_type");

	CHECK(engine_find("io_uring_cmd") == OPS);
	CHECK(engine_traits("io_uring_cmd") & ENGINE_F_PASSTHRU);
	/* one row, two engines */
	CHECK(fb && engine_takes(OPS, fb) && engine_takes(engine_find("io_uring"), fb));
	CHECK(engine_takes(OPS, opt_find("hipri")) && engine_takes(OPS, opt_find("nonvectored")));
	CHECK(engine_takes(OPS, opt_find("sqthread_poll_cpu")));
	/* its own rows are its alone */
	CHECK(ct && engine_takes(OPS, ct) && !engine_takes(engine_find("io_uring"), ct));
	CHECK(engine_opt_owner(ct, 0) == OPS && engine_opt_owner(ct, 1) == NULL);
	CHECK(OPS->read_sync && OPS->validate && OPS->commit && OPS->getevents);
}

TEST(options_and_defaults)
{
	struct job j;
	struct err e;
	char b[64];

	CHECK(JOB(&j, &e, "ioengine", "io_uring_cmd") == 0);
	CHECK_STR(shown(&j, "cmd_type", b, sizeof(b)), "nvme");
	CHECK_STR(shown(&j, "pi_act", b, sizeof(b)), "1");
	CHECK_STR(shown(&j, "apptag", b, sizeof(b)), "4660");	/* 0x1234 */
	CHECK_STR(shown(&j, "apptag_mask", b, sizeof(b)), "65535");
	CHECK_STR(shown(&j, "nonvectored", b, sizeof(b)), "1");	/* fio's -1: non-vectored */
	CHECK_STR(shown(&j, "pi_chk", b, sizeof(b)), "");
	CHECK_STR(shown(&j, "write_mode", b, sizeof(b)), "write");
	job_free(&j);
	CHECK(JOB(&j, &e, "ioengine", "io_uring_cmd", "zonemode", "zbd", "write_mode",
		  "zone_append") == 0);
	CHECK_STR(shown(&j, "write_mode", b, sizeof(b)), "zone_append");
	job_free(&j);
	CHECK(JOB(&j, &e, "ioengine", "io_uring_cmd", "pi_chk", "REFTAG,GUARD", "fixedbufs", NULL,
		  "registerfiles", "1", "apptag", "0x8888", "md_per_io_size", "4k") == 0);
	CHECK_STR(shown(&j, "pi_chk", b, sizeof(b)), "GUARD,REFTAG");
	CHECK_STR(shown(&j, "fixedbufs", b, sizeof(b)), "1");
	CHECK_STR(shown(&j, "apptag", b, sizeof(b)), "34952");
	CHECK_STR(shown(&j, "md_per_io_size", b, sizeof(b)), "4096");
	job_free(&j);
	/* io_uring's defaults are its own: nonvectored stays 0 there */
	CHECK(JOB(&j, &e, "ioengine", "io_uring") == 0);
	CHECK_STR(shown(&j, "nonvectored", b, sizeof(b)), "0");
	job_free(&j);
}

TEST(bad_options_refused)
{
	struct job j;
	struct err e;

	CHECK(JOB(&j, &e, "ioengine", "io_uring_cmd", "cmd_type", "scsi") != 0);
	CHECK(strstr(e.msg, "cmd_type") != NULL);
	job_free(&j);
	CHECK(JOB(&j, &e, "ioengine", "io_uring_cmd", "pi_chk", "GUARD,CRC") != 0);
	CHECK(strstr(e.msg, "pi_chk") && strstr(e.msg, "GUARD, REFTAG, APPTAG"));
	job_free(&j);
	CHECK(JOB(&j, &e, "ioengine", "io_uring_cmd", "apptag", "0x10000") != 0);
	job_free(&j);
	CHECK(JOB(&j, &e, "ioengine", "io_uring_cmd", "fixedbufs", "1", "nonvectored", "0") != 0);
	CHECK(strstr(e.msg, "fixedbufs=1 needs nonvectored=1") != NULL);
	job_free(&j);
	/* its options under another engine: refused by name */
	CHECK(JOB(&j, &e, "ioengine", "io_uring", "pi_act", "0") != 0);
	CHECK(strstr(e.msg, "pi_act") && strstr(e.msg, "io_uring_cmd"));
	job_free(&j);
	CHECK(JOB(&j, &e, "ioengine", "psync", "md_per_io_size", "64") != 0);
	CHECK(strstr(e.msg, "md_per_io_size") && strstr(e.msg, "io_uring_cmd"));
	job_free(&j);
	/* zone append: under zonemode=zbd only; fio's other write modes by name */
	CHECK(JOB(&j, &e, "ioengine", "io_uring_cmd", "write_mode", "zone_append") != 0);
	CHECK(strstr(e.msg, "write_mode=zone_append needs zonemode=zbd") != NULL);
	job_free(&j);
	CHECK(JOB(&j, &e, "ioengine", "io_uring_cmd", "zonemode", "strided", "zonesize", "1m",
		  "write_mode", "zone_append") != 0);
	CHECK(strstr(e.msg, "needs zonemode=zbd") != NULL);
	job_free(&j);
	CHECK(JOB(&j, &e, "ioengine", "io_uring_cmd", "write_mode", "uncor") != 0);
	CHECK(strstr(e.msg, "write_mode") && strstr(e.msg, "uncor") && strstr(e.msg, "not supported"));
	job_free(&j);
	CHECK(JOB(&j, &e, "ioengine", "io_uring_cmd", "write_mode", "append") != 0);
	CHECK(strstr(e.msg, "not one of write, zone_append") != NULL);
	job_free(&j);
	CHECK(JOB(&j, &e, "ioengine", "psync", "zonemode", "zbd", "write_mode", "zone_append") != 0);
	CHECK(strstr(e.msg, "write_mode") && strstr(e.msg, "io_uring_cmd"));
	job_free(&j);
	/* per-I/O priorities are io_uring's, not this engine's (yet) */
	CHECK(JOB(&j, &e, "ioengine", "io_uring_cmd", "cmdprio_percentage", "10") != 0);
	job_free(&j);
}

/* A regular file is no namespace: init says so, naming it, and leaves nothing behind. */
TEST(not_a_namespace)
{
	struct eh h;
	struct err e = { 0 };
	int r = eh_setup(&h, "/tmp", 64 * 1024, 4, 4096, 0);

	CHECK(r == 0);
	if (!r)
		r = eh_opt(&h, "ioengine", "io_uring_cmd");
	if (!r) {
		r = eh_init(&h, OPS, &e);
		CHECK(r == -ENOTTY);
		CHECK(strstr(e.msg, h.path) && strstr(e.msg, "not an NVMe namespace"));
		CHECK(h.ctx.priv == NULL);
	}
	eh_teardown(&h, OPS);
}

int main(void)
{
	RUN(registered_with_shared_rows);
	RUN(options_and_defaults);
	RUN(bad_options_refused);
	RUN(not_a_namespace);
	return CHECK_DONE();
}
