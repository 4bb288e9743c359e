/* schedstat: see schedstat.h. */
#include "env/schedstat.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

int schedstat_parse(const char *line, uint64_t *wait_ns)
{
	uint64_t run, wait;

	*wait_ns = 0;
	if (sscanf(line, "%" SCNu64 " %" SCNu64, &run, &wait) != 2)
		return -EINVAL;
	*wait_ns = wait;
	return 0;
}

int schedstat_thread_wait(uint64_t *wait_ns)
{
	char buf[128];
	ssize_t n;
	int fd;

	*wait_ns = 0;
	fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EINVAL;
	buf[n] = '\0';
	return schedstat_parse(buf, wait_ns);
}
