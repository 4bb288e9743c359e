/* Tests for engine_uring: data round trips under each option, fsync, trim, hipri, threads. */
#include <pthread.h>
#include <stdio.h>
#include <sys/sysmacros.h>
#include "check.h"
#include "kernel_probe.h"
#include "engine_harness.h"

extern const struct engine_ops engine_uring_ops;
#define OPS (&engine_uring_ops)

/* Write the file through the engine with @seed, read it back, compare. */
static void roundtrip(const char *dir, unsigned depth, int fixedbufs, int regfiles, int sqpoll,
		      int oflags)
{
	struct eh h;
	struct err e = { 0 };
	int r = eh_setup(&h, dir, 256 * 1024, depth, 4096, oflags);

	if (r) {
		eh_teardown(&h, OPS);
		printf("  setup in %s failed: %s\n", dir, strerror(-r));
		CHECK(r == 0);
		return;
	}
	r = eh_opt(&h, "ioengine", "io_uring");
	r = r ? r : eh_opt(&h, "fixedbufs", fixedbufs ? "1" : "0");
	r = r ? r : eh_opt(&h, "registerfiles", regfiles ? "1" : "0");
	r = r ? r : eh_opt(&h, "sqthread_poll", sqpoll ? "1" : "0");
	r = r ? r : eh_init(&h, OPS, &e);
	if (r)
		printf("  init: %s\n", e.msg);
	CHECK(r == 0);
	if (!r) {
		CHECK(strstr(h.ctx.info, "io_uring setup:") == h.ctx.info);
		CHECK(!fixedbufs == !strstr(h.ctx.info, "fixedbufs"));
		CHECK(!regfiles == !strstr(h.ctx.info, "registerfiles"));
		CHECK(!sqpoll == !strstr(h.ctx.info, "SQPOLL"));
		r = eh_pass(&h, OPS, DDIR_WRITE, 4096, 11);
		if (!r)
			r = eh_pass(&h, OPS, DDIR_READ, 4096, 11);
		if (r)
			printf("  %s\n", h.fail);
		CHECK(r == 0);
	}
	eh_teardown(&h, OPS);
}

TEST(uring_depth1)
{
	roundtrip("/tmp", 1, 0, 0, 0, 0);
}

TEST(uring_depth8)
{
	roundtrip("/tmp", 8, 0, 0, 0, 0);
}

TEST(uring_fixedbufs)
{
	roundtrip("/tmp", 8, 1, 0, 0, 0);
}

TEST(uring_registerfiles)
{
	roundtrip("/tmp", 8, 0, 1, 0, 0);
}

TEST(uring_sqpoll)
{
	roundtrip("/tmp", 8, 0, 0, 1, 0);
	roundtrip("/tmp", 8, 1, 1, 1, 0);
}

/* sqthread_poll_cpu pins the poller: SQ_AFF is used and data still round-trips. */
TEST(uring_sqpoll_cpu)
{
	struct eh h;
	struct err e = { 0 };
	int r = eh_setup(&h, "/tmp", 64 * 1024, 4, 4096, 0);

	CHECK(r == 0);
	if (!r) {
		r = eh_opt(&h, "ioengine", "io_uring");
		r = r ? r : eh_opt(&h, "sqthread_poll", "1");
		r = r ? r : eh_opt(&h, "sqthread_poll_cpu", "0");
		r = r ? r : eh_init(&h, OPS, &e);
		CHECK(r == 0);
		if (!r) {
			CHECK(strstr(h.ctx.info, "SQPOLL SQ_AFF") != NULL);
			CHECK(eh_pass(&h, OPS, DDIR_WRITE, 4096, 4) == 0);
			CHECK(eh_pass(&h, OPS, DDIR_READ, 4096, 4) == 0);
		}
	}
	eh_teardown(&h, OPS);
}

TEST(uring_direct_ext4)
{
	roundtrip("/tmp", 8, 1, 1, 0, O_DIRECT);
}

TEST(uring_direct_tmpfs)
{
	struct eh h;
	int r = eh_setup(&h, "/dev/shm", 4096, 1, 4096, O_DIRECT);

	eh_teardown(&h, OPS);
	if (r == -EINVAL)
		SKIP("tmpfs here refuses O_DIRECT (kernel before 6.6)");
	roundtrip("/dev/shm", 8, 0, 0, 0, O_DIRECT);
}

/* A file opened read-only: writes complete with -EBADF, reported as res. */
TEST(uring_error_res)
{
	struct eh h;
	struct err e = { 0 };
	int r = eh_setup(&h, "/tmp", 8192, 2, 4096, 0);

	CHECK(r == 0);
	if (!r) {
		close(h.file.fd);
		h.file.fd = open(h.path, O_RDONLY);
		CHECK(eh_init(&h, OPS, &e) == 0);
		CHECK(eh_one(&h, OPS, DDIR_WRITE, 0, 4096) == -EBADF);
	}
	eh_teardown(&h, OPS);
}

/* Reading past the end is a short read, reported as is. */
TEST(uring_short_read)
{
	struct eh h;
	struct err e = { 0 };
	int r = eh_setup(&h, "/tmp", 6000, 2, 4096, 0);

	CHECK(r == 0);
	if (!r) {
		CHECK(eh_init(&h, OPS, &e) == 0);
		CHECK(eh_one(&h, OPS, DDIR_READ, 4096, 4096) == 6000 - 4096);
		CHECK(eh_one(&h, OPS, DDIR_READ, 8192, 4096) == 0);
	}
	eh_teardown(&h, OPS);
}

TEST(uring_fsync)
{
	struct eh h;
	struct err e = { 0 };
	int r = eh_setup(&h, "/tmp", 64 * 1024, 4, 4096, 0);

	CHECK(r == 0);
	if (!r) {
		CHECK(eh_opt(&h, "ioengine", "io_uring") == 0);
		CHECK(eh_opt(&h, "registerfiles", NULL) == 0);
		CHECK(eh_init(&h, OPS, &e) == 0);
		CHECK(eh_pass(&h, OPS, DDIR_WRITE, 4096, 3) == 0);
		CHECK(eh_one(&h, OPS, DDIR_SYNC, 0, 0) == 0);
		CHECK(eh_one(&h, OPS, DDIR_DATASYNC, 0, 0) == 0);
	}
	eh_teardown(&h, OPS);
}

/* Trim punches a hole: fewer blocks allocated, zeros read back, size kept. */
TEST(uring_trim)
{
	struct eh h;
	struct err e = { 0 };
	uint8_t buf[4096];
	struct stat st;
	int64_t t;
	uint64_t before;
	int r = eh_setup(&h, "/tmp", 256 * 1024, 4, 4096, 0);

	CHECK(r == 0);
	if (r)
		goto out;
	CHECK(eh_init(&h, OPS, &e) == 0);
	CHECK(eh_pass(&h, OPS, DDIR_WRITE, 4096, 5) == 0);
	fsync(h.file.fd);
	before = eh_allocated(h.path);
	t = eh_one(&h, OPS, DDIR_TRIM, 64 * 1024, 128 * 1024);
	if (t == -EOPNOTSUPP) {
		eh_teardown(&h, OPS);
		SKIP("this filesystem cannot punch holes");
	}
	CHECK(t == 128 * 1024);
	CHECK(eh_allocated(h.path) + 128 * 1024 <= before);
	CHECK(pread(h.file.fd, buf, sizeof(buf), 100 * 1024) == (ssize_t)sizeof(buf));
	CHECK(buf[0] == 0 && buf[4095] == 0 && !memcmp(buf, buf + 1, sizeof(buf) - 1));
	CHECK(pread(h.file.fd, buf, 1, 0) == 1 && buf[0] == eh_pat(0, 5));
	CHECK(fstat(h.file.fd, &st) == 0 && st.st_size == 256 * 1024);
out:
	eh_teardown(&h, OPS);
}

/* hipri on a buffered file: polling cannot work, and init says so plainly. */
TEST(uring_hipri_buffered)
{
	struct eh h;
	struct err e = { 0 };
	int r = eh_setup(&h, "/tmp", 64 * 1024, 4, 4096, 0);

	CHECK(r == 0);
	if (!r) {
		h.job.hipri = 1;
		r = eh_init(&h, OPS, &e);
		CHECK(r == -EOPNOTSUPP);
		CHECK(e.exit_code == EXIT_TARGET);
		CHECK(strstr(e.msg, "hipri: polled I/O is not supported for ") == e.msg);
		CHECK(strstr(e.msg, h.path) != NULL);
		CHECK(strstr(e.msg, "needs direct=1") != NULL);
	}
	eh_teardown(&h, OPS);
}

/* 1 when the device under /tmp has poll queues, 0 when not, -1 unknown. */
static int tmp_can_poll(void)
{
	char path[96];
	struct stat st;
	FILE *f;
	int c;

	if (stat("/tmp", &st))
		return -1;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/io_poll", major(st.st_dev),
		 minor(st.st_dev));
	f = fopen(path, "r");
	if (!f)
		return -1;
	c = fgetc(f);
	fclose(f);
	return c == '0' ? 0 : 1;
}

/*
 * hipri with O_DIRECT on /tmp: where the device has no poll queues (virtio-blk
 * here) init refuses with the reason; where it has, data round-trips polled.
 */
TEST(uring_hipri_direct)
{
	struct eh h;
	struct err e = { 0 };
	int poll = tmp_can_poll();
	int r = eh_setup(&h, "/tmp", 128 * 1024, 4, 4096, O_DIRECT);

	CHECK(r == 0);
	if (r)
		goto out;
	h.job.hipri = 1;
	r = eh_init(&h, OPS, &e);
	if (poll == 0) {
		CHECK(r == -EOPNOTSUPP);
		CHECK(strstr(e.msg, "hipri: polled I/O is not supported for ") == e.msg);
		CHECK(strstr(e.msg, "io_poll is 0") != NULL);
	} else if (r == 0) {
		CHECK(strstr(h.ctx.info, "IOPOLL") != NULL);
		CHECK(eh_pass(&h, OPS, DDIR_WRITE, 4096, 9) == 0);
		CHECK(eh_pass(&h, OPS, DDIR_READ, 4096, 9) == 0);
	} else {
		printf("  %s\n", e.msg);
		CHECK(poll < 0 && r == -EOPNOTSUPP);
	}
out:
	eh_teardown(&h, OPS);
}

/* getevents(min=0) must find completions without blocking (DEFER_TASKRUN, COOP_TASKRUN). */
TEST(uring_poll_min0)
{
	struct eh h;
	struct err e = { 0 };
	unsigned got = 0, spins = 0, i;
	int r = eh_setup(&h, "/tmp", 8 * 4096, 8, 4096, 0);

	CHECK(r == 0);
	if (r)
		goto out;
	CHECK(eh_init(&h, OPS, &e) == 0);
	for (i = 0; i < 8; i++) {
		struct io_u *io = &h.ctx.ios[i];

		io->ddir = DDIR_WRITE;
		io->offset = (uint64_t)i * 4096;
		io->len = 4096;
		CHECK(OPS->queue(&h.ctx, io) == ENGINE_Q_QUEUED);
	}
	CHECK(OPS->commit(&h.ctx) == 8);
	while (got < 8 && spins++ < 10000000) {
		int n = OPS->getevents(&h.ctx, 0, 8, h.out);

		CHECK(n >= 0);
		if (n < 0)
			break;
		for (i = 0; i < (unsigned)n; i++)
			CHECK(h.out[i]->res == 4096);
		got += (unsigned)n;
	}
	CHECK_EQ_U(got, 8);
out:
	eh_teardown(&h, OPS);
}

/*
 * commit_wait(min) submits and waits in one step: afterwards getevents(min=0)
 * must hand back at least @min completions at once, without a wait of its
 * own.  O_DIRECT reads on the root disk take long enough that a commit that
 * did not wait would find none done.
 */
TEST(uring_commit_wait)
{
	struct eh h;
	struct err e = { 0 };
	unsigned i, got = 0;
	int r = eh_setup(&h, "/tmp", 16 * 4096, 8, 4096, O_DIRECT), n;

	CHECK(r == 0);
	if (r)
		goto out;
	CHECK(OPS->commit_wait != NULL);
	CHECK(eh_init(&h, OPS, &e) == 0);
	/* real blocks to read (a hole would be read without the disk) */
	CHECK(eh_pass(&h, OPS, DDIR_WRITE, 4096, 5) == 0);
	CHECK(fdatasync(h.file.fd) == 0);
	for (i = 0; i < 8; i++) {
		struct io_u *io = &h.ctx.ios[i];

		io->ddir = DDIR_READ;
		io->offset = (uint64_t)(15 - i) * 4096;
		io->len = 4096;
		io->res = -9999;
		CHECK(OPS->queue(&h.ctx, io) == ENGINE_Q_QUEUED);
	}
	CHECK(OPS->commit_wait(&h.ctx, 8) == 8);
	n = OPS->getevents(&h.ctx, 0, 8, h.out);
	CHECK_EQ_U(n, 8);
	for (i = 0; n > 0 && i < (unsigned)n; i++)
		got += h.out[i]->res == 4096;
	CHECK_EQ_U(got, 8);
	/* a min above what is in flight is cut to it: no wait forever */
	h.ctx.ios[0].ddir = DDIR_READ;
	CHECK(OPS->queue(&h.ctx, &h.ctx.ios[0]) == ENGINE_Q_QUEUED);
	CHECK(OPS->commit_wait(&h.ctx, 8) == 1);
	CHECK(OPS->getevents(&h.ctx, 0, 8, h.out) == 1);
out:
	eh_teardown(&h, OPS);
}

/* The SQ holds only depth entries: one more queue() is BUSY, not a crash. */
TEST(uring_busy)
{
	struct eh h;
	struct err e = { 0 };
	struct io_u extra;
	unsigned i;
	int r = eh_setup(&h, "/tmp", 8 * 4096, 4, 4096, 0);

	CHECK(r == 0);
	if (r)
		goto out;
	CHECK(eh_init(&h, OPS, &e) == 0);
	for (i = 0; i < 4; i++) {
		struct io_u *io = &h.ctx.ios[i];

		io->ddir = DDIR_READ;
		io->offset = (uint64_t)i * 4096;
		io->len = 4096;
		CHECK(OPS->queue(&h.ctx, io) == ENGINE_Q_QUEUED);
	}
	extra = h.ctx.ios[0];
	CHECK(OPS->queue(&h.ctx, &extra) == ENGINE_Q_BUSY);
	CHECK(OPS->commit(&h.ctx) == 4);
	CHECK(OPS->getevents(&h.ctx, 4, 4, h.out) == 4);
out:
	eh_teardown(&h, OPS);
}

struct thread_arg {
	struct eh *h;
	int ret;
};

static void *io_thread(void *p)
{
	struct thread_arg *a = p;

	a->ret = eh_pass(a->h, OPS, DDIR_WRITE, 4096, 21);
	if (!a->ret)
		a->ret = eh_pass(a->h, OPS, DDIR_READ, 4096, 21);
	return NULL;
}

/* init on one thread, I/O on another: the ring binds to the thread that issues. */
TEST(uring_init_elsewhere)
{
	struct eh h;
	struct err e = { 0 };
	struct thread_arg a = { &h, -1 };
	pthread_t t;
	int r = eh_setup(&h, "/tmp", 64 * 1024, 8, 4096, 0);

	CHECK(r == 0);
	if (r)
		goto out;
	CHECK(eh_init(&h, OPS, &e) == 0);
	CHECK(pthread_create(&t, NULL, io_thread, &a) == 0);
	pthread_join(t, NULL);
	if (a.ret)
		printf("  %s (info: %s)\n", h.fail, h.ctx.info);
	CHECK(a.ret == 0);
out:
	eh_teardown(&h, OPS);
}

/* Report which setup flags this kernel took (for the record, not a check). */
TEST(uring_flags_taken)
{
	struct eh h;
	struct err e = { 0 };
	int r = eh_setup(&h, "/tmp", 4096, 1, 4096, 0);

	CHECK(r == 0);
	if (!r) {
		CHECK(eh_init(&h, OPS, &e) == 0);
		printf("  %s\n", h.ctx.info);
		CHECK(strlen(h.ctx.info) > strlen("io_uring setup:"));
	}
	eh_teardown(&h, OPS);
}

int main(void)
{
	char why[160];

	if (probe_uring_refused(why, sizeof(why))) {
		printf("SKIP engine_uring: %s\n", why);
		return 0;
	}
	RUN(uring_depth1);
	RUN(uring_depth8);
	RUN(uring_fixedbufs);
	RUN(uring_registerfiles);
	RUN(uring_sqpoll);
	RUN(uring_sqpoll_cpu);
	RUN(uring_direct_ext4);
	RUN(uring_direct_tmpfs);
	RUN(uring_error_res);
	RUN(uring_short_read);
	RUN(uring_fsync);
	RUN(uring_trim);
	RUN(uring_hipri_buffered);
	RUN(uring_hipri_direct);
	RUN(uring_poll_min0);
	RUN(uring_commit_wait);
	RUN(uring_busy);
	RUN(uring_init_elsewhere);
	RUN(uring_flags_taken);
	return CHECK_DONE();
}
