/* Tests for file: names, regions, creation and layout, open flags, errors, block devices. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "io/file.h"
#include "loop_harness.h"

static char tmpdir[64];

static void fjob(struct job *j, unsigned rw)
{
	int d;

	memset(j, 0, sizeof(*j));
	snprintf(j->name, sizeof(j->name), "job");
	snprintf(j->origin, sizeof(j->origin), "test.fio:3");
	j->rw = rw;
	j->nrfiles = 1;
	j->allow_file_create = 1;
	j->invalidate = 1;
	j->directory = tmpdir;
	for (d = 0; d < DDIR_NR; d++)
		j->bs[d] = j->bs_min[d] = j->bs_max[d] = 4096;
}

/* Make @path hold @size bytes of @byte, on disk (fsynced). */
static int put_file(const char *path, uint64_t size, int byte)
{
	char buf[4096];
	uint64_t done;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return -1;
	memset(buf, byte, sizeof(buf));
	for (done = 0; done < size; done += sizeof(buf))
		if (pwrite(fd, buf, size - done < sizeof(buf) ? size - done : sizeof(buf),
			   (off_t)done) < 0)
			break;
	fsync(fd);
	close(fd);
	return done >= size ? 0 : -1;
}

static uint64_t fsize(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : (uint64_t)st.st_size;
}

static void rm_path(const char *name)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", tmpdir, name);
	unlink(p);
}

TEST(names_default)
{
	struct job j;
	struct err e = { 0 };
	char **n;
	unsigned nr;

	fjob(&j, RW_READ);
	j.directory = NULL;
	j.nrfiles = 3;
	CHECK(file_names(&j, 2, &n, &nr, &e) == 0);
	CHECK_EQ_U(nr, 3);
	if (nr == 3) {
		CHECK_STR(n[0], "job.2.0");
		CHECK_STR(n[1], "job.2.1");
		CHECK_STR(n[2], "job.2.2");
	}
	file_names_free(n, nr);
	j.directory = "/data/";
	j.nrfiles = 1;
	CHECK(file_names(&j, 0, &n, &nr, &e) == 0);
	CHECK(nr == 1 && !strcmp(n[0], "/data/job.0.0"));
	file_names_free(n, nr);
	/* generated names spread clones over a directory list */
	j.directory = "/d0:/d\\:1";
	CHECK(file_names(&j, 1, &n, &nr, &e) == 0);
	CHECK(nr == 1 && !strcmp(n[0], "/d:1/job.1.0"));
	file_names_free(n, nr);
	CHECK(file_names(&j, 2, &n, &nr, &e) == 0);
	CHECK(nr == 1 && !strcmp(n[0], "/d0/job.2.0"));
	file_names_free(n, nr);
	/* MPI with several ranks: generated names carry the rank */
	j.directory = NULL;
	j.rank = 2;
	j.nranks = 3;
	CHECK(file_names(&j, 1, &n, &nr, &e) == 0);
	CHECK(nr == 1 && !strcmp(n[0], "job.1.0.rank2"));
	file_names_free(n, nr);
	j.filename = "shared";	/* a given name is shared on purpose */
	CHECK(file_names(&j, 1, &n, &nr, &e) == 0);
	CHECK(nr == 1 && !strcmp(n[0], "shared"));
	file_names_free(n, nr);
	j.filename = NULL;
	j.rank = 0;
	j.nranks = 1;	/* one rank: exactly the plain names */
	CHECK(file_names(&j, 1, &n, &nr, &e) == 0);
	CHECK(nr == 1 && !strcmp(n[0], "job.1.0"));
	file_names_free(n, nr);
}

TEST(names_given)
{
	struct job j;
	struct err e = { 0 };
	char **n;
	unsigned nr;

	fjob(&j, RW_READ);
	j.directory = "dir:other";
	j.nrfiles = 5;	/* ignored when filename is given */
	j.filename = "a:b\\:c::/abs/x";
	CHECK(file_names(&j, 1, &n, &nr, &e) == 0);
	CHECK_EQ_U(nr, 3);
	if (nr == 3) {
		CHECK_STR(n[0], "dir/a");
		CHECK_STR(n[1], "dir/b:c");
		CHECK_STR(n[2], "/abs/x");
	}
	file_names_free(n, nr);
	j.directory = NULL;
	j.filename = "only";
	CHECK(file_names(&j, 0, &n, &nr, &e) == 0);
	CHECK(nr == 1 && !strcmp(n[0], "only"));
	file_names_free(n, nr);
}

TEST(names_bad)
{
	struct job j;
	struct err e = { 0 };
	char **n;
	unsigned nr;

	fjob(&j, RW_READ);
	j.filename = "-";
	CHECK(file_names(&j, 0, &n, &nr, &e) == -EINVAL);
	CHECK(e.exit_code == EXIT_USAGE);
	CHECK(strstr(e.msg, "test.fio:3") && strstr(e.msg, "filename=-"));
	err_clear(&e);
	j.filename = ":";
	CHECK(file_names(&j, 0, &n, &nr, &e) == -EINVAL);
	CHECK(strstr(e.msg, "names no file") != NULL);
}

/* A write job creates its files, splits size across them, preallocates, opens O_RDWR. */
TEST(setup_write_creates)
{
	struct job j;
	struct err e = { 0 };
	struct engine_file *f = NULL;
	unsigned nr = 0, i;
	char path[256];

	fjob(&j, RW_WRITE);
	j.size = 1 << 20;
	j.nrfiles = 2;
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == 0);
	CHECK_EQ_U(nr, 2);
	for (i = 0; i < nr; i++) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/job.0.%u", tmpdir, i);
		CHECK_STR(f[i].path, path);
		CHECK_EQ_U(f[i].offset, 0);
		CHECK_EQ_U(f[i].size, 512 * 1024);
		CHECK(!f[i].is_blk);
		CHECK((fcntl(f[i].fd, F_GETFL) & O_ACCMODE) == O_RDWR);
		CHECK(fstat(f[i].fd, &st) == 0 && st.st_size == 512 * 1024);
		CHECK((uint64_t)st.st_blocks * 512 >= 512 * 1024);	/* space reserved */
	}
	file_teardown(&j, f, nr);
	rm_path("job.0.0");
	rm_path("job.0.1");
}

/* fallocate=none and truncate only set the size; keep reserves space too. */
TEST(setup_fallocate_modes)
{
	static const struct { int mode; int reserved; } m[] = {
		{ JOB_FALLOC_NONE, 0 }, { JOB_FALLOC_TRUNCATE, 0 }, { JOB_FALLOC_KEEP, 1 },
		{ JOB_FALLOC_POSIX, 1 },
	};
	unsigned k;

	for (k = 0; k < sizeof(m) / sizeof(m[0]); k++) {
		struct job j;
		struct err e = { 0 };
		struct engine_file *f = NULL;
		unsigned nr = 0;
		struct stat st;

		fjob(&j, RW_WRITE);
		j.size = 1 << 20;
		j.fallocate = m[k].mode;
		CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == 0);
		CHECK(nr == 1 && fstat(f[0].fd, &st) == 0 && st.st_size == 1 << 20);
		if (m[k].reserved)
			CHECK((uint64_t)st.st_blocks * 512 >= 1 << 20);
		else
			CHECK_EQ_U(st.st_blocks, 0);
		file_teardown(&j, f, nr);
		rm_path("job.0.0");
	}
}

/* file_plan_only: the names and regions file_setup would use, nothing on disk. */
TEST(plan_only)
{
	struct job j;
	struct err e = { 0 };
	struct engine_file *f = NULL;
	unsigned nr = 0, i;
	char path[256];

	fjob(&j, RW_READ);
	j.nrfiles = 3;
	j.filesize_min = j.filesize_max = 8192;
	CHECK(file_plan_only(&j, 1, 0, &f, &nr, &e) == 0);
	CHECK_EQ_U(nr, 3);
	for (i = 0; i < nr; i++) {
		snprintf(path, sizeof(path), "%s/job.1.%u", tmpdir, i);
		CHECK_STR(f[i].path, path);
		CHECK(f[i].fd == -1);
		CHECK_EQ_U(f[i].offset, 0);
		CHECK_EQ_U(f[i].size, 8192);
		CHECK(access(path, F_OK) != 0);	/* nothing created */
	}
	file_teardown(&j, f, nr);
	/* no size: the same error as file_setup's */
	fjob(&j, RW_READ);
	f = NULL;
	CHECK(file_plan_only(&j, 0, 0, &f, &nr, &e) == -ENOENT);
	CHECK(strstr(e.msg, "set size= or filesize=") != NULL);
	CHECK(f == NULL);
}

/*
 * file_plan_only with a size known to the engine (an rbd image of 1 MiB):
 * size=, offset= and their percentages apply to it as to an existing file,
 * and a size past it is kept (the I/O there fails, as fio's).
 */
TEST(plan_only_sized)
{
	struct job j;
	struct err e = { 0 };
	struct engine_file *f = NULL;
	unsigned nr = 0;

	fjob(&j, RW_READ);		/* no size: the whole target */
	CHECK(file_plan_only(&j, 0, 1 << 20, &f, &nr, &e) == 0);
	CHECK_EQ_U(nr, 1);
	CHECK_EQ_U(f[0].offset, 0);
	CHECK_EQ_U(f[0].size, 1 << 20);
	file_teardown(&j, f, nr);
	fjob(&j, RW_READ);		/* from offset= to the end */
	j.offset = 256 << 10;
	CHECK(file_plan_only(&j, 0, 1 << 20, &f, &nr, &e) == 0);
	CHECK_EQ_U(f[0].offset, 256 << 10);
	CHECK_EQ_U(f[0].size, 768 << 10);
	file_teardown(&j, f, nr);
	fjob(&j, RW_READ);		/* size=50% of the target */
	j.size_pct = 50;
	CHECK(file_plan_only(&j, 0, 1 << 20, &f, &nr, &e) == 0);
	CHECK_EQ_U(f[0].size, 512 << 10);
	file_teardown(&j, f, nr);
	fjob(&j, RW_READ);		/* larger than the target: kept */
	j.size = 2 << 20;
	CHECK(file_plan_only(&j, 0, 1 << 20, &f, &nr, &e) == 0);
	CHECK_EQ_U(f[0].size, 2 << 20);
	file_teardown(&j, f, nr);
	fjob(&j, RW_READ);		/* offset at the end, no size: nothing to do */
	j.offset = 1 << 20;
	f = NULL;
	CHECK(file_plan_only(&j, 0, 1 << 20, &f, &nr, &e) == -EINVAL);
	CHECK(strstr(e.msg, "at or past the end") != NULL);
	CHECK(f == NULL);
}

/* A read job's new file is filled with data, different from block to block. */
TEST(setup_read_lays_out)
{
	struct job j;
	struct err e = { 0 };
	struct engine_file *f = NULL;
	unsigned nr = 0;
	char a[4096], b[4096], zero[4096] = { 0 };

	fjob(&j, RW_READ | RW_RAND);
	j.size = 3 << 20;	/* more than one layout chunk */
	CHECK(file_setup(&j, 1, 0, &f, &nr, &e) == 0);
	CHECK_EQ_U(nr, 1);
	if (nr == 1) {
		CHECK((fcntl(f[0].fd, F_GETFL) & O_ACCMODE) == O_RDONLY);
		CHECK_EQ_U(fsize(f[0].path), 3 << 20);
		CHECK(pread(f[0].fd, a, 4096, 0) == 4096);
		CHECK(pread(f[0].fd, b, 4096, (3 << 20) - 4096) == 4096);
		CHECK(memcmp(a, zero, 4096) && memcmp(b, zero, 4096) && memcmp(a, b, 4096));
		CHECK(pread(f[0].fd, b, 4096, 1 << 20) == 4096);
		CHECK(memcmp(a, b, 4096) != 0);	/* chunks differ too */
	}
	file_teardown(&j, f, nr);
	rm_path("job.1.0");
}

/* A short existing file is extended: its data kept, the rest filled. */
TEST(setup_read_extends_keeps_data)
{
	struct job j;
	struct err e = { 0 };
	struct engine_file *f = NULL;
	unsigned nr = 0;
	char path[256], buf[4096], ones[4096], zero[4096] = { 0 };

	fjob(&j, RW_READ);
	snprintf(path, sizeof(path), "%s/short", tmpdir);
	CHECK(put_file(path, 64 * 1024, 1) == 0);
	j.filename = "short";
	j.size = 256 * 1024;
	memset(ones, 1, sizeof(ones));
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == 0);
	if (nr == 1) {
		CHECK_EQ_U(fsize(path), 256 * 1024);
		CHECK(pread(f[0].fd, buf, 4096, 60 * 1024) == 4096 && !memcmp(buf, ones, 4096));
		CHECK(pread(f[0].fd, buf, 4096, 64 * 1024) == 4096 && memcmp(buf, zero, 4096));
		CHECK(memcmp(buf, ones, 4096) != 0);
	}
	file_teardown(&j, f, nr);
	unlink(path);
}

/* An existing file large enough is used as is; no size means all of it, from offset. */
TEST(setup_regions)
{
	struct job j;
	struct err e = { 0 };
	struct engine_file *f = NULL;
	unsigned nr = 0;
	char path[256];

	snprintf(path, sizeof(path), "%s/big", tmpdir);
	CHECK(put_file(path, 1 << 20, 7) == 0);
	fjob(&j, RW_READ);
	j.filename = "big";
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == 0);
	CHECK(nr == 1 && f[0].offset == 0 && f[0].size == 1 << 20);
	file_teardown(&j, f, nr);

	j.offset = 4096;
	j.offset_increment = 8192;
	CHECK(file_setup(&j, 2, 0, &f, &nr, &e) == 0);	/* clone 2: 4096 + 2 * 8192 */
	CHECK(nr == 1 && f[0].offset == 20480 && f[0].size == (1 << 20) - 20480);
	file_teardown(&j, f, nr);

	fjob(&j, RW_READ);
	j.filename = "big";
	j.size_pct = 25;
	j.offset_pct = 30;	/* 314572.8 -> aligned down to the 64k block: 262144 */
	j.bs[DDIR_READ] = j.bs_min[DDIR_READ] = 65536;
	j.bs[DDIR_WRITE] = j.bs_min[DDIR_WRITE] = 65536;
	j.bs[DDIR_TRIM] = j.bs_min[DDIR_TRIM] = 65536;
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == 0);
	CHECK(nr == 1 && f[0].offset == 262144 && f[0].size == 262144);
	file_teardown(&j, f, nr);
	CHECK_EQ_U(fsize(path), 1 << 20);	/* nothing grew */

	/* size + offset past the end: the file grows to offset + size */
	fjob(&j, RW_WRITE);
	j.filename = "big";
	j.offset = 1 << 20;
	j.size = 1 << 20;
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == 0);
	CHECK(nr == 1 && f[0].offset == 1 << 20 && f[0].size == 1 << 20);
	file_teardown(&j, f, nr);
	CHECK_EQ_U(fsize(path), 2 << 20);
	unlink(path);
}

/* filesize=lo-hi: each file gets a size in range, the same on every run. */
TEST(setup_filesize_range)
{
	struct job j;
	struct err e = { 0 };
	struct engine_file *f = NULL, *g = NULL;
	unsigned nr = 0, nr2 = 0, i, distinct = 0;

	fjob(&j, RW_WRITE);
	j.nrfiles = 4;
	j.filesize_min = 64 * 1024;
	j.filesize_max = 128 * 1024;
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == 0);
	CHECK(file_setup(&j, 0, 0, &g, &nr2, &e) == 0);
	CHECK(nr == 4 && nr2 == 4);
	for (i = 0; i < nr && i < nr2; i++) {
		CHECK(f[i].size >= 64 * 1024 && f[i].size <= 128 * 1024);
		CHECK_EQ_U(f[i].size, g[i].size);
		distinct += i && f[i].size != f[0].size;
	}
	CHECK(distinct > 0);
	file_teardown(&j, g, nr2);
	j.unlink = 1;
	file_teardown(&j, f, nr);
	for (i = 0; i < 4; i++) {
		char p[256];

		snprintf(p, sizeof(p), "%s/job.0.%u", tmpdir, i);
		CHECK(access(p, F_OK) != 0);	/* unlink=1 removed them */
	}
}

TEST(setup_open_flags)
{
	struct job j;
	struct err e = { 0 };
	struct engine_file *f = NULL;
	unsigned nr = 0;
	int fl;

	fjob(&j, RW_WRITE);
	j.size = 64 * 1024;
	j.direct = 1;
	j.sync = SYNC_DSYNC;
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == 0);
	if (nr == 1) {
		fl = fcntl(f[0].fd, F_GETFL);
		CHECK(fl & O_DIRECT);
		CHECK((fl & O_DSYNC) == O_DSYNC);
		CHECK((fl & O_SYNC) != O_SYNC);
	}
	file_teardown(&j, f, nr);
	j.sync = SYNC_SYNC;
	j.direct = 0;
	j.directory = "/dev/shm";
	j.unlink = 1;
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == 0);
	if (nr == 1) {
		fl = fcntl(f[0].fd, F_GETFL);
		CHECK(!(fl & O_DIRECT));
		CHECK((fl & O_SYNC) == O_SYNC);
	}
	file_teardown(&j, f, nr);
	rm_path("job.0.0");
}

/* A filesystem without O_DIRECT (ramfs): direct=1 fails with a message that says so. */
TEST(setup_direct_refused)
{
	struct job j;
	struct err e = { 0 };
	struct engine_file *f = NULL;
	unsigned nr = 0;
	char mnt[128];

	if (geteuid() != 0)
		SKIP("not root: mounting a ramfs needs CAP_SYS_ADMIN");
	snprintf(mnt, sizeof(mnt), "%s/ramfs", tmpdir);
	if (mkdir(mnt, 0700) || lh_sh("mount -t ramfs none %s", mnt)) {
		rmdir(mnt);
		SKIP("could not mount a ramfs");
	}
	fjob(&j, RW_WRITE);
	j.directory = mnt;
	j.size = 64 * 1024;
	j.direct = 1;
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == -EINVAL);
	CHECK(e.exit_code == EXIT_TARGET);
	CHECK(strstr(e.msg, "/ramfs/job.0.0: direct=1 but the filesystem does not support O_DIRECT"));
	lh_sh("umount %s", mnt);
	rmdir(mnt);
}

TEST(setup_no_create)
{
	struct job j;
	struct err e = { 0 };
	struct engine_file *f = NULL;
	unsigned nr = 0;

	fjob(&j, RW_WRITE);
	j.size = 64 * 1024;
	j.allow_file_create = 0;
	j.filename = "missing";
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == -ENOENT);
	CHECK(e.exit_code == EXIT_TARGET);
	CHECK(strstr(e.msg, "/missing: does not exist and allow_file_create=0") != NULL);
	CHECK(access("missing", F_OK) != 0);
}

TEST(setup_errors)
{
	struct job j;
	struct err e = { 0 };
	struct engine_file *f = NULL;
	unsigned nr = 0;
	char path[256];

	/* no size for a file that does not exist */
	fjob(&j, RW_READ);
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == -ENOENT);
	CHECK(e.exit_code == EXIT_TARGET && strstr(e.msg, "set size="));
	CHECK(strstr(e.msg, "/job.0.0") != NULL);

	/* a path under a regular file: cannot even be looked up */
	err_clear(&e);
	snprintf(path, sizeof(path), "%s/plain", tmpdir);
	CHECK(put_file(path, 4096, 0) == 0);
	j.filename = "plain/f";
	j.size = 4096;
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == -ENOTDIR);
	CHECK(e.exit_code == EXIT_TARGET);
	CHECK(strstr(e.msg, "plain/f: Not a directory") != NULL);

	/* a directory is not a target */
	err_clear(&e);
	j.filename = ".";
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == -EINVAL);
	CHECK(strstr(e.msg, "not a regular file or a device") != NULL);

	/* a second file failing closes the first: nothing leaks, nothing returned */
	err_clear(&e);
	j.filename = "plain:nonexistent-dir/x";
	f = NULL;
	nr = 0;
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == -ENOENT);
	CHECK(f == NULL && nr == 0);
	CHECK(strstr(e.msg, "nonexistent-dir/x: cannot create") != NULL);
	unlink(path);
}

TEST(setup_readonly)
{
	struct job j;
	struct err e = { 0 };
	struct engine_file *f = NULL;
	unsigned nr = 0;
	char path[256];

	fjob(&j, RW_WRITE);
	j.size = 4096;
	CHECK(file_setup(&j, 0, 1, &f, &nr, &e) == -EPERM);
	CHECK(e.exit_code == EXIT_UNSAFE && strstr(e.msg, "--readonly"));

	err_clear(&e);
	fjob(&j, RW_READ);
	j.size = 4096;
	CHECK(file_setup(&j, 0, 1, &f, &nr, &e) == -EPERM);	/* would create a file */
	CHECK(e.exit_code == EXIT_UNSAFE && strstr(e.msg, "would have to be created"));

	err_clear(&e);
	snprintf(path, sizeof(path), "%s/ro", tmpdir);
	CHECK(put_file(path, 8192, 3) == 0);
	j.filename = "ro";
	CHECK(file_setup(&j, 0, 1, &f, &nr, &e) == 0);
	file_teardown(&j, f, nr);
	unlink(path);
}

/* A trim job on a regular file: hole punching works on ext4 and tmpfs. */
TEST(setup_trim_file)
{
	struct job j;
	struct err e = { 0 };
	struct engine_file *f = NULL;
	unsigned nr = 0;

	fjob(&j, RW_TRIM);
	j.size = 64 * 1024;
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == 0);
	if (nr == 1) {
		CHECK((fcntl(f[0].fd, F_GETFL) & O_ACCMODE) == O_RDWR);
		CHECK(file_trim(&f[0], 0, 8192) == 8192);
	}
	file_teardown(&j, f, nr);
	rm_path("job.0.0");
}

/* A trim job where holes cannot be punched: a clear error naming the file. */
TEST(setup_trim_unsupported)
{
	struct job j;
	struct err e = { 0 };
	struct engine_file *f = NULL;
	unsigned nr = 0;

	fjob(&j, RW_TRIM);
	j.directory = NULL;
	j.filename = "/dev/null";	/* a character device */
	j.size = 4096;
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == -EOPNOTSUPP);
	CHECK(e.exit_code == EXIT_TARGET);
	CHECK_STR(e.msg, "/dev/null: trim is not supported on a character device");
}

/* invalidate=1 drops the file's cached pages before I/O. */
TEST(setup_invalidate)
{
	struct job j;
	struct err e = { 0 };
	struct engine_file *f = NULL;
	unsigned nr = 0, i, resident = 0;
	unsigned char vec[64];
	char path[256];
	void *m;
	int fd;

	snprintf(path, sizeof(path), "%s/cached", tmpdir);
	CHECK(put_file(path, 64 * 4096, 9) == 0);
	fd = open(path, O_RDONLY);
	m = mmap(NULL, 64 * 4096, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(m != MAP_FAILED);
	if (m == MAP_FAILED)
		goto out;
	CHECK(mincore(m, 64 * 4096, vec) == 0);
	for (i = 0; i < 64; i++)
		resident += vec[i] & 1;
	if (resident == 0) {
		munmap(m, 64 * 4096);
		close(fd);
		unlink(path);
		SKIP("the written file was not in the page cache to begin with");
	}
	fjob(&j, RW_READ);
	j.filename = "cached";
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == 0);
	CHECK(mincore(m, 64 * 4096, vec) == 0);
	for (i = 0, resident = 0; i < 64; i++)
		resident += vec[i] & 1;
	CHECK_EQ_U(resident, 0);
	file_teardown(&j, f, nr);
	munmap(m, 64 * 4096);
out:
	close(fd);
	unlink(path);
}

/* A block device is sized with BLKGETSIZE64; a region past its end is clamped. */
TEST(setup_block_device)
{
	const char *why = lh_unavailable();
	struct loopdev l;
	struct job j;
	struct err e = { 0 };
	struct engine_file *f = NULL;
	unsigned nr = 0;

	if (why)
		SKIP("%s", why);
	if (lh_create(&l, "file-blk", 4, 0))
		SKIP("could not set up a loop device");
	fjob(&j, RW_READ);
	j.directory = NULL;
	j.filename = l.dev;
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == 0);
	CHECK(nr == 1 && f[0].is_blk && f[0].size == 4 << 20 && f[0].offset == 0);
	file_teardown(&j, f, nr);

	j.offset = 1 << 20;
	j.size = 8 << 20;	/* more than the device: clamped, as fio does */
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == 0);
	CHECK(nr == 1 && f[0].offset == 1 << 20 && f[0].size == 3 << 20);
	file_teardown(&j, f, nr);

	j.offset = 4 << 20;
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == -EINVAL);
	CHECK(strstr(e.msg, "past the end of the device") != NULL);

	/* a blank device may be written and trimmed; the data goes where asked */
	err_clear(&e);
	fjob(&j, RW_WRITE | RW_TRIM);
	j.directory = NULL;
	j.filename = l.dev;
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == 0);
	if (nr == 1) {
		char buf[4096], back[4096];

		memset(buf, 0x5a, sizeof(buf));
		CHECK(pwrite(f[0].fd, buf, 4096, 8192) == 4096);
		CHECK(file_trim(&f[0], 0, 4096) == 4096);
		CHECK(pread(f[0].fd, back, 4096, 8192) == 4096 && !memcmp(buf, back, 4096));
	}
	file_teardown(&j, f, nr);
	CHECK(access(l.img, F_OK) == 0);
	lh_destroy(&l);
}

/* A device that cannot discard (a loop over a ramfs file): a trim job is refused up front. */
TEST(setup_block_no_discard)
{
	const char *why = lh_unavailable();
	struct loopdev ram, l;
	struct job j;
	struct err e = { 0 };
	struct engine_file *f = NULL;
	unsigned nr = 0;
	char want[256];

	if (why)
		SKIP("%s", why);
	memset(&ram, 0, sizeof(ram));
	if (lh_mount(&ram, "ramfs"))
		SKIP("could not mount a ramfs");
	if (lh_create_at(&l, ram.mnt, "nodiscard", 4, 0)) {
		lh_destroy(&ram);
		SKIP("could not set up a loop device on a ramfs file");
	}
	fjob(&j, RW_TRIM);
	j.directory = NULL;
	j.filename = l.dev;
	snprintf(want, sizeof(want), "%s: trim is not supported by the device (discard_max_bytes is 0)",
		 l.dev);
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == -EOPNOTSUPP);
	CHECK(e.exit_code == EXIT_TARGET);
	CHECK_STR(e.msg, want);
	lh_destroy(&l);
	lh_destroy(&ram);
}

/* Writing to a device with a filesystem goes through safety_check first. */
TEST(setup_block_safety)
{
	const char *why = lh_unavailable();
	struct loopdev l;
	struct job j;
	struct err e = { 0 };
	struct engine_file *f = NULL;
	unsigned nr = 0;

	if (why)
		SKIP("%s", why);
	if (lh_create(&l, "file-safe", 8, 0))
		SKIP("could not set up a loop device");
	CHECK(lh_mkfs(l.dev) == 0);
	fjob(&j, RW_WRITE);
	j.directory = NULL;
	j.filename = l.dev;
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == -EPERM);
	CHECK(e.exit_code == EXIT_UNSAFE && strstr(e.msg, "ext4"));
	fjob(&j, RW_READ);
	j.directory = NULL;
	j.filename = l.dev;
	err_clear(&e);
	CHECK(file_setup(&j, 0, 0, &f, &nr, &e) == 0);	/* reading is always fine */
	file_teardown(&j, f, nr);
	lh_destroy(&l);
}

int main(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/iotrial-file.XXXXXX");
	if (!mkdtemp(tmpdir)) {
		printf("FAIL setup: mkdtemp\n");
		return 1;
	}
	if (!lh_unavailable())
		lh_reap_stale();
	RUN(names_default);
	RUN(names_given);
	RUN(names_bad);
	RUN(setup_write_creates);
	RUN(setup_fallocate_modes);
	RUN(plan_only);
	RUN(plan_only_sized);
	RUN(setup_read_lays_out);
	RUN(setup_read_extends_keeps_data);
	RUN(setup_regions);
	RUN(setup_filesize_range);
	RUN(setup_open_flags);
	RUN(setup_direct_refused);
	RUN(setup_no_create);
	RUN(setup_errors);
	RUN(setup_readonly);
	RUN(setup_trim_file);
	RUN(setup_trim_unsupported);
	RUN(setup_invalidate);
	RUN(setup_block_device);
	RUN(setup_block_no_discard);
	RUN(setup_block_safety);
	lh_sh("rm -rf '%s'", tmpdir);
	return CHECK_DONE();
}
