/*
 * Tests for zonesrc without a zoned device: what a target is taken for.  A
 * regular file is not zoned (zbd_dev.c emulates zones on it) and keeps its size;
 * a pipe, and a char device that is not an NVMe namespace, are refused with
 * one message naming the job and file (exit 2).  The zoned kinds run in the
 * guest (tests/e2e/vm_zbd.sh: block device, vm_zbd_cmd.sh: char device).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>	/* mkstemp */
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "io/zonesrc.h"

TEST(regular_file_is_not_zoned)
{
	char path[] = "/tmp/test_zonesrc.XXXXXX";
	struct zonesrc s;
	struct err e = { 0 };
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	unlink(path);
	CHECK(ftruncate(fd, 3 << 20) == 0);
	memset(&s, 0xa5, sizeof(s));
	CHECK(zonesrc_probe(&s, fd, path, "j", &e) == 0);
	CHECK_EQ_U(s.kind, ZONESRC_NONE);
	CHECK_EQ_U(s.model, BLKZONED_NONE);
	CHECK(s.size == 3u << 20);
	CHECK(s.max_open == 0 && s.max_active == 0);
	close(fd);
}

TEST(pipes_and_other_char_devices_refused)
{
	struct zonesrc s;
	struct err e = { 0 };
	int p[2], fd;

	CHECK(pipe(p) == 0);
	CHECK(zonesrc_probe(&s, p[0], "fifo", "j", &e) == -EINVAL);
	CHECK_EQ_U(e.exit_code, EXIT_USAGE);
	CHECK(strstr(e.msg, "job 'j'") && strstr(e.msg, "pipes (fifo)"));
	close(p[0]);
	close(p[1]);
	fd = open("/dev/null", O_RDONLY);
	CHECK(fd >= 0);
	memset(&e, 0, sizeof(e));
	CHECK(zonesrc_probe(&s, fd, "/dev/null", "j", &e) == -EINVAL);
	CHECK_EQ_U(e.exit_code, EXIT_USAGE);
	CHECK(strstr(e.msg, "other than an NVMe namespace's (/dev/ngXnY) (/dev/null)") != NULL);
	close(fd);
	CHECK(!strcmp(zonesrc_report_name(&(struct zonesrc){ .kind = ZONESRC_NVME }),
		      "Zone Management Receive"));
	CHECK(!strcmp(zonesrc_report_name(&(struct zonesrc){ .kind = ZONESRC_BLK }), "BLKREPORTZONE"));
}

int main(void)
{
	RUN(regular_file_is_not_zoned);
	RUN(pipes_and_other_char_devices_refused);
	return CHECK_DONE();
}
