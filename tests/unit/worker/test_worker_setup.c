/*
 * test_worker_setup: worker_fail_op's message for the job's first error.
 * fio's hint for a first I/O failing with EIO/EREMOTEIO outside zonemode=zbd
 * (a zoned drive refusing a write off its write pointer) is given on fio's
 * terms only: the first I/O, those errors, zonemode not zbd.
 */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "model/job.h"
#include "worker/worker.h"
#include "worker/worker_int.h"

struct fail_fix {
	struct worker w;
	struct job j;
	struct engine_file f;
	struct io_u io;
};

static void fix_fini(struct fail_fix *x)
{
	job_free(&x->j);
}

/* Each call starts a fresh fixture: the one before it is freed by fix_fini. */
static void fix_init(struct fail_fix *x, int zonemode, uint64_t issued)
{
	memset(x, 0, sizeof(*x));
	job_init(&x->j);
	x->j.zonemode = zonemode;
	x->f.path = (char *)"/dev/nvme0n2";
	x->w.job = &x->j;
	x->w.files = &x->f;
	x->w.nr_files = 1;
	x->w.nr_ios_issued = issued;
	x->io.ddir = DDIR_WRITE;
	x->io.offset = 8192;
	x->io.len = 4096;
}

#define HINT "fio: first I/O failed. If /dev/nvme0n2 is a zoned block device, consider --zonemode=zbd"

TEST(first_io_eio_gets_fio_hint)
{
	struct fail_fix x;

	fix_init(&x, JOB_ZONE_NONE, 1);
	worker_fail_op(&x.w, EIO, &x.io, NULL);
	CHECK(strstr(x.w.first_error, "write on /dev/nvme0n2 at offset 8192, length 4096") != NULL);
	CHECK(strstr(x.w.first_error, HINT) != NULL);
	fix_fini(&x);
	fix_init(&x, JOB_ZONE_STRIDED, 1);
	worker_fail_op(&x.w, EREMOTEIO, &x.io, NULL);
	CHECK(strstr(x.w.first_error, HINT) != NULL);
	fix_fini(&x);
}

TEST(no_hint_off_fio_terms)
{
	struct fail_fix x;

	fix_init(&x, JOB_ZONE_ZBD, 1);		/* zonemode=zbd already */
	worker_fail_op(&x.w, EIO, &x.io, NULL);
	CHECK(strstr(x.w.first_error, "first I/O failed") == NULL);
	fix_fini(&x);
	fix_init(&x, JOB_ZONE_NONE, 2);		/* not the first I/O */
	worker_fail_op(&x.w, EIO, &x.io, NULL);
	CHECK(strstr(x.w.first_error, "first I/O failed") == NULL);
	fix_fini(&x);
	fix_init(&x, JOB_ZONE_NONE, 1);		/* another error */
	worker_fail_op(&x.w, ENOSPC, &x.io, NULL);
	CHECK(strstr(x.w.first_error, "first I/O failed") == NULL);
	CHECK(strstr(x.w.first_error, "No space left on device") != NULL);
	fix_fini(&x);
}

int main(void)
{
	RUN(first_io_eio_gets_fio_hint);
	RUN(no_hint_off_fio_terms);
	return CHECK_DONE();
}
