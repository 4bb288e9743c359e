/*
 * test_outfile: a document replaces its target atomically or not at all;
 * stdout receives it in one piece on commit; errors name the path.
 */
#include "check.h"
#include "lib/outfile.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The whole content of @path into @buf ("" if unreadable). */
static const char *slurp(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	size_t got = 0;

	if (f) {
		got = fread(buf, 1, n - 1, f);
		fclose(f);
	}
	buf[got] = '\0';
	return buf;
}

/* Number of entries in @dir besides . and .. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		n += de->d_name[0] != '.' || (de->d_name[1] && strcmp(de->d_name, ".."));
	if (d)
		closedir(d);
	return n;
}

static void rm_rf(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "chmod -R u+w '%s'; rm -rf '%s'", dir, dir);
	CHECK(system(cmd) == 0);
}

TEST(commit_replaces_atomically)
{
	char dir[] = "/tmp/iotrial-of-XXXXXX", path[256], buf[256];
	struct outfile o;
	struct err e = { 0 };
	struct stat before, after;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/out.json", dir);
	put(path, "old\n");
	CHECK(chmod(path, 0640) == 0);
	CHECK(stat(path, &before) == 0);
	CHECK(outfile_open(&o, path, &e) == 0);
	fputs("{\"new\": ", o.f);
	fputs("1}\n", o.f);
	fflush(o.f);
	/* until commit, readers see the old file; the new one is a temp beside it */
	CHECK_STR(slurp(path, buf, sizeof(buf)), "old\n");
	CHECK_EQ_U(entries(dir), 2);
	CHECK(outfile_commit(&o, &e) == 0);
	CHECK_STR(slurp(path, buf, sizeof(buf)), "{\"new\": 1}\n");
	CHECK_EQ_U(entries(dir), 1);	/* no temp left */
	CHECK(stat(path, &after) == 0);
	CHECK(after.st_ino != before.st_ino);	/* renamed over, not rewritten */
	CHECK_EQ_U(after.st_mode & 07777, 0640);	/* the old file's mode kept */
	CHECK(o.f == NULL && o.tmp == NULL);
	rm_rf(dir);
}

TEST(new_file_gets_umask_mode)
{
	char dir[] = "/tmp/iotrial-of-XXXXXX", path[256], buf[64];
	struct outfile o;
	struct err e = { 0 };
	struct stat st;
	mode_t old = umask(027);

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/new.txt", dir);
	CHECK(outfile_open(&o, path, &e) == 0);
	fputs("hello\n", o.f);
	CHECK(outfile_commit(&o, &e) == 0);
	umask(old);
	CHECK(stat(path, &st) == 0);
	CHECK_EQ_U(st.st_mode & 07777, 0640);
	CHECK_STR(slurp(path, buf, sizeof(buf)), "hello\n");
	rm_rf(dir);
}

TEST(abort_leaves_old_file)
{
	char dir[] = "/tmp/iotrial-of-XXXXXX", path[256], buf[64];
	struct outfile o;
	struct err e = { 0 };

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/out.json", dir);
	put(path, "old\n");
	CHECK(outfile_open(&o, path, &e) == 0);
	fputs("half a docu", o.f);
	outfile_abort(&o);
	outfile_abort(&o);	/* idempotent */
	CHECK_STR(slurp(path, buf, sizeof(buf)), "old\n");
	CHECK_EQ_U(entries(dir), 1);
	rm_rf(dir);
}

TEST(symlink_target_is_followed)
{
	char dir[] = "/tmp/iotrial-of-XXXXXX", real[256], link[256], buf[64];
	struct outfile o;
	struct err e = { 0 };
	struct stat st;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(real, sizeof(real), "%s/real.json", dir);
	snprintf(link, sizeof(link), "%s/link.json", dir);
	put(real, "old\n");
	CHECK(symlink("real.json", link) == 0);
	CHECK(outfile_open(&o, link, &e) == 0);
	fputs("new\n", o.f);
	CHECK(outfile_commit(&o, &e) == 0);
	CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	CHECK_STR(slurp(real, buf, sizeof(buf)), "new\n");
	rm_rf(dir);
}

TEST(unwritable_places_give_clean_errors)
{
	char dir[] = "/tmp/iotrial-of-XXXXXX", path[256];
	struct outfile o;
	struct err e = { 0 };

	CHECK(mkdtemp(dir) != NULL);
	/* a directory that does not exist */
	snprintf(path, sizeof(path), "%s/no/such/dir/out.json", dir);
	CHECK(outfile_open(&o, path, &e) < 0);
	CHECK_EQ_U(e.exit_code, EXIT_OUTPUT);
	CHECK(strstr(e.msg, path) != NULL);
	CHECK(strstr(e.msg, "No such file or directory") != NULL);
	CHECK(o.f == NULL);
	/* an empty name */
	err_clear(&e);
	CHECK(outfile_open(&o, "", &e) < 0);
	CHECK_EQ_U(e.exit_code, EXIT_OUTPUT);
	/* the target is a directory */
	err_clear(&e);
	CHECK(outfile_open(&o, dir, &e) < 0);
	CHECK(strstr(e.msg, "Is a directory") != NULL);
	/* a directory without write permission (root ignores it: skip that part) */
	if (geteuid() != 0) {
		err_clear(&e);
		CHECK(chmod(dir, 0500) == 0);
		snprintf(path, sizeof(path), "%s/out.json", dir);
		CHECK(outfile_open(&o, path, &e) < 0);
		CHECK(strstr(e.msg, "Permission denied") != NULL);
	}
	/* a read-only filesystem refuses even root */
	if (!access("/proc/sys", F_OK)) {
		err_clear(&e);
		CHECK(outfile_open(&o, "/proc/iotrial-out.json", &e) < 0);
		CHECK_EQ_U(e.exit_code, EXIT_OUTPUT);
		CHECK(strstr(e.msg, "/proc/iotrial-out.json") != NULL);
	}
	CHECK_EQ_U(entries(dir), 0);
	rm_rf(dir);
}

TEST(device_targets_are_written_not_replaced)
{
	struct outfile o;
	struct err e = { 0 };
	struct stat st;

	/* /dev/null must stay a device, even when we run as root */
	CHECK(outfile_open(&o, "/dev/null", &e) == 0);
	fputs("discarded\n", o.f);
	CHECK(outfile_commit(&o, &e) == 0);
	CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
	/* a failing device: the error names it */
	if (access("/dev/full", W_OK))
		return;
	CHECK(outfile_open(&o, "/dev/full", &e) == 0);
	fputs("no room\n", o.f);
	CHECK(outfile_commit(&o, &e) < 0);
	CHECK_EQ_U(e.exit_code, EXIT_OUTPUT);
	CHECK(strstr(e.msg, "/dev/full") != NULL);
	CHECK(strstr(e.msg, "No space left") != NULL);
}

/* Run the stdout path with fd 1 sent to a file; returns what reached it. */
static int stdout_capture(const char *path, int commit, char *got, size_t n,
			  long *size_before_commit, int *rc)
{
	char tmpl[] = "/tmp/iotrial-of-stdout-XXXXXX";
	int fd = mkstemp(tmpl), saved;
	struct outfile o;
	struct err e = { 0 };
	struct stat st;

	if (fd < 0)
		return -1;
	fflush(stdout);
	saved = dup(1);
	dup2(fd, 1);
	*rc = outfile_open(&o, path, &e);
	if (!*rc) {
		for (int i = 0; i < 100; i++)
			fprintf(o.f, "line %d\n", i);
		fflush(o.f);
		fstat(fd, &st);
		*size_before_commit = (long)st.st_size;
		if (commit)
			*rc = outfile_commit(&o, &e);
		else
			outfile_abort(&o);
	}
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fd);
	slurp(tmpl, got, n);
	unlink(tmpl);
	return 0;
}

TEST(stdout_gets_the_whole_document_once)
{
	static char got[8192], want[8192];
	size_t w = 0;
	long before = -1;
	int rc = -1;

	for (int i = 0; i < 100; i++)
		w += (size_t)snprintf(want + w, sizeof(want) - w, "line %d\n", i);
	CHECK(stdout_capture(NULL, 1, got, sizeof(got), &before, &rc) == 0);
	CHECK(rc == 0);
	CHECK_EQ_U(before, 0);		/* nothing reached stdout before commit */
	CHECK_STR(got, want);		/* then all of it, exactly once */
	CHECK(stdout_capture("-", 1, got, sizeof(got), &before, &rc) == 0);
	CHECK(rc == 0);
	CHECK_STR(got, want);
	CHECK(stdout_capture("-", 0, got, sizeof(got), &before, &rc) == 0);
	CHECK_STR(got, "");		/* abort: nothing at all */
}

TEST(commit_without_open_is_an_error)
{
	struct outfile o = { 0 };
	struct err e = { 0 };

	CHECK(outfile_commit(&o, &e) < 0);
	CHECK(e.code < 0);
}

int main(void)
{
	RUN(commit_replaces_atomically);
	RUN(new_file_gets_umask_mode);
	RUN(abort_leaves_old_file);
	RUN(symlink_target_is_followed);
	RUN(unwritable_places_give_clean_errors);
	RUN(device_targets_are_written_not_replaced);
	RUN(stdout_gets_the_whole_document_once);
	RUN(commit_without_open_is_an_error);
	return CHECK_DONE();
}
