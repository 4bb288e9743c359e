/* Tests for engine_sync (sync, psync, pvsync2): round trips, fsync, trim, short and failed I/O. */
#include <stdio.h>
#include "check.h"
#include "engine_harness.h"

extern const struct engine_ops engine_sync_ops, engine_psync_ops, engine_pvsync2_ops;
static const struct engine_ops *const all[] = { &engine_sync_ops, &engine_psync_ops, &engine_pvsync2_ops };
#define NR_OPS (sizeof(all) / sizeof(all[0]))

static int roundtrip(const struct engine_ops *ops, const char *dir, int oflags, int hipri)
{
	struct eh h;
	struct err e = { 0 };
	int r = eh_setup(&h, dir, 128 * 1024, 1, 4096, oflags);

	if (!r) {
		h.job.hipri = hipri;
		r = eh_init(&h, ops, &e);
	}
	if (!r)
		r = eh_pass(&h, ops, DDIR_WRITE, 4096, 23);
	if (!r)
		r = eh_pass(&h, ops, DDIR_READ, 4096, 23);
	if (r)
		printf("  %s: %s %s\n", ops->name, h.fail, e.msg);
	eh_teardown(&h, ops);
	return r;
}

TEST(sync_flags)
{
	unsigned i;

	for (i = 0; i < NR_OPS; i++)
		CHECK(engine_traits(all[i]->name) & ENGINE_F_SYNC);
}

TEST(sync_roundtrip)
{
	unsigned i;

	for (i = 0; i < NR_OPS; i++)
		CHECK(roundtrip(all[i], "/tmp", 0, 0) == 0);
}

TEST(sync_roundtrip_direct)
{
	unsigned i;

	for (i = 0; i < NR_OPS; i++) {
		CHECK(roundtrip(all[i], "/tmp", O_DIRECT, 0) == 0);
		CHECK(roundtrip(all[i], "/dev/shm", O_DIRECT, 0) == 0);
	}
}

/* pvsync2 with hipri: RWF_HIPRI is a hint; I/O still completes, and info says it was asked. */
TEST(pvsync2_hipri)
{
	struct eh h;
	struct err e = { 0 };
	int r = eh_setup(&h, "/tmp", 4096, 1, 4096, O_DIRECT);

	CHECK(r == 0);
	if (!r) {
		h.job.hipri = 1;
		CHECK(eh_init(&h, &engine_pvsync2_ops, &e) == 0);
		CHECK_STR(h.ctx.info, "pvsync2: RWF_HIPRI");
	}
	eh_teardown(&h, &engine_pvsync2_ops);
	CHECK(roundtrip(&engine_pvsync2_ops, "/tmp", O_DIRECT, 1) == 0);
}

TEST(sync_fsync_and_trim)
{
	unsigned i;

	for (i = 0; i < NR_OPS; i++) {
		const struct engine_ops *ops = all[i];
		struct eh h;
		struct err e = { 0 };
		uint8_t buf[4096];
		uint64_t before;
		int64_t t;
		int r = eh_setup(&h, "/tmp", 128 * 1024, 1, 4096, 0);

		CHECK(r == 0);
		if (!r) {
			CHECK(eh_init(&h, ops, &e) == 0);
			CHECK(eh_pass(&h, ops, DDIR_WRITE, 4096, 8) == 0);
			CHECK(eh_one(&h, ops, DDIR_SYNC, 0, 0) == 0);
			CHECK(eh_one(&h, ops, DDIR_DATASYNC, 0, 0) == 0);
			before = eh_allocated(h.path);
			t = eh_one(&h, ops, DDIR_TRIM, 32768, 32768);
			CHECK(t == 32768 || t == -EOPNOTSUPP);
			if (t == 32768) {
				CHECK(eh_allocated(h.path) + 32768 <= before);
				CHECK(pread(h.file.fd, buf, sizeof(buf), 32768) == (ssize_t)sizeof(buf));
				CHECK(buf[0] == 0 && !memcmp(buf, buf + 1, sizeof(buf) - 1));
			}
		}
		eh_teardown(&h, ops);
	}
}

/* A read past the end is short, a write to a read-only descriptor fails: both reported in res. */
TEST(sync_short_and_error)
{
	unsigned i;

	for (i = 0; i < NR_OPS; i++) {
		const struct engine_ops *ops = all[i];
		struct eh h;
		struct err e = { 0 };
		int r = eh_setup(&h, "/tmp", 6000, 1, 4096, 0);

		CHECK(r == 0);
		if (!r) {
			CHECK(eh_init(&h, ops, &e) == 0);
			CHECK(eh_one(&h, ops, DDIR_READ, 4096, 4096) == 6000 - 4096);
			CHECK(eh_one(&h, ops, DDIR_READ, 8192, 4096) == 0);
			close(h.file.fd);
			h.file.fd = open(h.path, O_RDONLY);
			CHECK(eh_one(&h, ops, DDIR_WRITE, 0, 4096) == -EBADF);
		}
		eh_teardown(&h, ops);
	}
}

/* The sync engine seeks: a read after a write elsewhere still lands at its own offset. */
TEST(sync_seeks)
{
	struct eh h;
	struct err e = { 0 };
	int r = eh_setup(&h, "/tmp", 16384, 1, 4096, 0);

	CHECK(r == 0);
	if (!r) {
		CHECK(eh_init(&h, &engine_sync_ops, &e) == 0);
		CHECK(eh_pass(&h, &engine_sync_ops, DDIR_WRITE, 4096, 31) == 0);
		lseek(h.file.fd, 0, SEEK_END);
		CHECK(eh_pass(&h, &engine_sync_ops, DDIR_READ, 4096, 31) == 0);
	}
	eh_teardown(&h, &engine_sync_ops);
}

int main(void)
{
	RUN(sync_flags);
	RUN(sync_roundtrip);
	RUN(sync_roundtrip_direct);
	RUN(pvsync2_hipri);
	RUN(sync_fsync_and_trim);
	RUN(sync_short_and_error);
	RUN(sync_seeks);
	return CHECK_DONE();
}
