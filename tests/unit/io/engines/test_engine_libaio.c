/* Tests for engine_libaio: data round trips (buffered and O_DIRECT), fsync, trim, errors. */
#include <stdio.h>
#include "check.h"
#include "kernel_probe.h"
#include "engine_harness.h"

extern const struct engine_ops engine_libaio_ops;
#define OPS (&engine_libaio_ops)

static void roundtrip(const char *dir, unsigned depth, int oflags)
{
	struct eh h;
	struct err e = { 0 };
	int r = eh_setup(&h, dir, 256 * 1024, depth, 4096, oflags);

	CHECK(r == 0);
	if (!r) {
		r = eh_init(&h, OPS, &e);
		if (r)
			printf("  init: %s\n", e.msg);
		CHECK(r == 0);
	}
	if (!r) {
		r = eh_pass(&h, OPS, DDIR_WRITE, 4096, 17);
		if (!r)
			r = eh_pass(&h, OPS, DDIR_READ, 4096, 17);
		if (r)
			printf("  %s\n", h.fail);
		CHECK(r == 0);
	}
	eh_teardown(&h, OPS);
}

TEST(libaio_depth1)
{
	roundtrip("/tmp", 1, 0);
}

TEST(libaio_depth8)
{
	roundtrip("/tmp", 8, 0);
}

TEST(libaio_direct_depth8)
{
	roundtrip("/tmp", 8, O_DIRECT);
}

TEST(libaio_direct_tmpfs)
{
	struct eh h;
	int r = eh_setup(&h, "/dev/shm", 4096, 1, 4096, O_DIRECT);

	eh_teardown(&h, OPS);
	if (r == -EINVAL)
		SKIP("tmpfs here refuses O_DIRECT (kernel before 6.6)");
	roundtrip("/dev/shm", 8, O_DIRECT);
}

TEST(libaio_fsync)
{
	struct eh h;
	struct err e = { 0 };
	int r = eh_setup(&h, "/tmp", 64 * 1024, 4, 4096, 0);

	CHECK(r == 0);
	if (!r) {
		CHECK(eh_init(&h, OPS, &e) == 0);
		CHECK(eh_pass(&h, OPS, DDIR_WRITE, 4096, 2) == 0);
		CHECK(eh_one(&h, OPS, DDIR_SYNC, 0, 0) == 0);
		CHECK(eh_one(&h, OPS, DDIR_DATASYNC, 0, 0) == 0);
	}
	eh_teardown(&h, OPS);
}

TEST(libaio_trim)
{
	struct eh h;
	struct err e = { 0 };
	uint8_t buf[4096];
	uint64_t before;
	int64_t t;
	int r = eh_setup(&h, "/tmp", 256 * 1024, 4, 4096, 0);

	CHECK(r == 0);
	if (r)
		goto out;
	CHECK(eh_init(&h, OPS, &e) == 0);
	CHECK(eh_pass(&h, OPS, DDIR_WRITE, 4096, 5) == 0);
	fsync(h.file.fd);
	before = eh_allocated(h.path);
	t = eh_one(&h, OPS, DDIR_TRIM, 0, 64 * 1024);
	if (t == -EOPNOTSUPP) {
		eh_teardown(&h, OPS);
		SKIP("this filesystem cannot punch holes");
	}
	CHECK(t == 64 * 1024);
	CHECK(eh_allocated(h.path) + 64 * 1024 <= before);
	CHECK(pread(h.file.fd, buf, sizeof(buf), 4096) == (ssize_t)sizeof(buf));
	CHECK(buf[0] == 0 && !memcmp(buf, buf + 1, sizeof(buf) - 1));
out:
	eh_teardown(&h, OPS);
}

/* A write to a read-only descriptor: the completion carries -EBADF (or submit fails with it). */
TEST(libaio_error_res)
{
	struct eh h;
	struct err e = { 0 };
	struct io_u *io;
	int r = eh_setup(&h, "/tmp", 8192, 2, 4096, 0), q, c;

	CHECK(r == 0);
	if (r)
		goto out;
	close(h.file.fd);
	h.file.fd = open(h.path, O_RDONLY);
	CHECK(eh_init(&h, OPS, &e) == 0);
	io = &h.ctx.ios[0];
	io->ddir = DDIR_WRITE;
	io->offset = 0;
	io->len = 4096;
	q = OPS->queue(&h.ctx, io);
	CHECK(q == ENGINE_Q_QUEUED);
	c = OPS->commit(&h.ctx);
	if (c == 1) {
		CHECK(OPS->getevents(&h.ctx, 1, 2, h.out) == 1);
		CHECK(io->res == -EBADF);
	} else {
		CHECK(c == -EBADF);
	}
out:
	eh_teardown(&h, OPS);
}

/* Short read at the end of the file: res is what the kernel returned. */
TEST(libaio_short_read)
{
	struct eh h;
	struct err e = { 0 };
	int r = eh_setup(&h, "/tmp", 5000, 2, 4096, 0);

	CHECK(r == 0);
	if (!r) {
		CHECK(eh_init(&h, OPS, &e) == 0);
		CHECK(eh_one(&h, OPS, DDIR_READ, 4096, 4096) == 5000 - 4096);
	}
	eh_teardown(&h, OPS);
}

/* The pending list holds depth entries: one more is BUSY. */
TEST(libaio_busy)
{
	struct eh h;
	struct err e = { 0 };
	struct io_u extra;
	unsigned i;
	int r = eh_setup(&h, "/tmp", 4 * 4096, 2, 4096, 0);

	CHECK(r == 0);
	if (r)
		goto out;
	CHECK(eh_init(&h, OPS, &e) == 0);
	for (i = 0; i < 2; i++) {
		h.ctx.ios[i].ddir = DDIR_READ;
		h.ctx.ios[i].offset = (uint64_t)i * 4096;
		h.ctx.ios[i].len = 4096;
		CHECK(OPS->queue(&h.ctx, &h.ctx.ios[i]) == ENGINE_Q_QUEUED);
	}
	extra = h.ctx.ios[0];
	extra.engine_data = h.ctx.ios[1].engine_data;	/* any iocb: it must not be used */
	CHECK(OPS->queue(&h.ctx, &extra) == ENGINE_Q_BUSY);
	CHECK(OPS->commit(&h.ctx) == 2);
	CHECK(OPS->getevents(&h.ctx, 2, 2, h.out) == 2);
	CHECK(h.out[0]->res == 4096 && h.out[1]->res == 4096);
out:
	eh_teardown(&h, OPS);
}

int main(void)
{
	char why[160];

	if (probe_aio_refused(why, sizeof(why))) {
		printf("SKIP engine_libaio: %s\n", why);
		return 0;
	}
	RUN(libaio_depth1);
	RUN(libaio_depth8);
	RUN(libaio_direct_depth8);
	RUN(libaio_direct_tmpfs);
	RUN(libaio_fsync);
	RUN(libaio_trim);
	RUN(libaio_error_res);
	RUN(libaio_short_read);
	RUN(libaio_busy);
	return CHECK_DONE();
}
