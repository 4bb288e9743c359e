/*
 * Tests for safety_check_output: which output paths pass and which are
 * refused (EXIT_UNSAFE, one line naming the path and what it resolves to).
 * Only stat() is involved, so a block device is tested without root and
 * without touching it.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include "io/safety.h"
#include "check.h"

static char dir[] = "/tmp/iotrial-so.XXXXXX";

static int ok(const char *path, int allow)
{
	struct err e;

	err_clear(&e);
	return safety_check_output(path, "--output", allow, &e) == 0;
}

/* Refused with EXIT_UNSAFE and a one-line message holding @what. */
static void refused(const char *path, int allow, const char *what)
{
	struct err e;

	err_clear(&e);
	CHECK(safety_check_output(path, "--output", allow, &e) == -EPERM);
	CHECK(e.exit_code == EXIT_UNSAFE);
	CHECK(strstr(e.msg, "--output=") == e.msg);
	CHECK(strstr(e.msg, what) != NULL);
	CHECK(strchr(e.msg, '\n') == NULL);
	if (!strstr(e.msg, what))
		printf("  wanted '%s' in: %s\n", what, e.msg);
}

TEST(allowed_kinds)
{
	char p[256];
	FILE *f;

	CHECK(ok(NULL, 0));
	CHECK(ok("-", 0));
	snprintf(p, sizeof(p), "%s/new.json", dir);
	CHECK(ok(p, 0));			/* does not exist yet */
	f = fopen(p, "w");
	CHECK(f != NULL);
	if (f)
		fclose(f);
	CHECK(ok(p, 0));			/* a regular file */
	CHECK(ok("/dev/null", 0));		/* a character device */
	snprintf(p, sizeof(p), "%s/fifo", dir);
	CHECK(mkfifo(p, 0600) == 0);
	CHECK(ok(p, 0));
	snprintf(p, sizeof(p), "%s/null-link", dir);
	CHECK(symlink("/dev/null", p) == 0);
	CHECK(ok(p, 0));
	CHECK(ok(dir, 0));			/* a directory: the writer says why */
}

TEST(socket_refused)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(a.sun_path, sizeof(a.sun_path), "%s/sock", dir);
	CHECK(fd >= 0);
	CHECK(bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0);
	refused(a.sun_path, 0, "a socket");
	refused(a.sun_path, 1, "a socket");	/* the override is for block devices only */
	close(fd);
}

TEST(block_device_refused)
{
	char dev[300] = "", link[300];
	struct dirent *de;
	struct stat st;
	DIR *d = opendir("/sys/class/block");

	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(dev, sizeof(dev), "/dev/%s", de->d_name);
		if (!stat(dev, &st) && S_ISBLK(st.st_mode))
			break;
		dev[0] = '\0';
	}
	if (d)
		closedir(d);
	if (!dev[0]) {
		SKIP("no block device node under /dev");
		return;
	}
	refused(dev, 0, "is a block device");
	refused(dev, 0, "--allow-output-device");
	CHECK(ok(dev, 1));
	snprintf(link, sizeof(link), "%s/disk-link", dir);
	CHECK(symlink(dev, link) == 0);
	refused(link, 0, dev);			/* names what the symlink resolves to */
}

int main(void)
{
	char cmd[300];
	int rc;

	if (!mkdtemp(dir))
		return 1;
	RUN(allowed_kinds);
	RUN(socket_refused);
	RUN(block_device_refused);
	rc = CHECK_DONE();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		rc = 1;
	return rc;
}
