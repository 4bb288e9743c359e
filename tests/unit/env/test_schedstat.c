/* test_schedstat: the run-queue wait parsed from a schedstat line. */
#include "check.h"
#include "env/schedstat.h"

#include <errno.h>
#include <stdint.h>

TEST(parse_takes_the_second_field)
{
	uint64_t w = 1;

	CHECK(schedstat_parse("194472825 186508123 173\n", &w) == 0);
	CHECK(w == 186508123ull);
	CHECK(schedstat_parse("18446744073709551615 18446744073709551615 1", &w) == 0);
	CHECK(w == UINT64_MAX);
}

TEST(parse_rejects_garbage)
{
	uint64_t w = 1;

	CHECK(schedstat_parse("", &w) == -EINVAL);
	CHECK(w == 0);
	CHECK(schedstat_parse("12", &w) == -EINVAL);
	CHECK(schedstat_parse("x y z", &w) == -EINVAL);
}

TEST(this_thread_reads)
{
	uint64_t w = 0;
	int r = schedstat_thread_wait(&w);

	/* a kernel without CONFIG_SCHED_INFO has no file: that is -ENOENT */
	CHECK(r == 0 || r == -ENOENT);
}

int main(void)
{
	RUN(parse_takes_the_second_field);
	RUN(parse_rejects_garbage);
	RUN(this_thread_reads);
	return CHECK_DONE();
}
