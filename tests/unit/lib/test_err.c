/*
 * Tests for err: the first failure wins, and a message is always one line
 * whatever bytes the values in it hold (CR, LF, escape sequences).
 */
#include <errno.h>
#include "lib/err.h"
#include "check.h"

TEST(first_wins)
{
	struct err e;

	err_clear(&e);
	CHECK(err_set(&e, -EINVAL, EXIT_USAGE, "first %d", 1) == -EINVAL);
	CHECK(err_set(&e, -EIO, EXIT_OUTPUT, "second") == -EIO);
	CHECK_STR(e.msg, "first 1");
	CHECK(e.exit_code == EXIT_USAGE);
	CHECK(err_set(NULL, -EIO, EXIT_OUTPUT, "none") == -EIO);
}

TEST(one_line)
{
	struct err e;
	char buf[64];

	err_clear(&e);
	err_set(&e, -EINVAL, EXIT_USAGE, "value '%s' (x)", "a\r\nb\x1b[2J\tc\x7f");
	CHECK_STR(e.msg, "value 'a\\r\\nb\\x1b[2J\tc\\x7f' (x)");
	err_escape(buf, sizeof(buf), "caf\xc3\xa9 ok");	/* UTF-8 is left alone */
	CHECK_STR(buf, "caf\xc3\xa9 ok");
	err_escape(buf, 8, "\n\n\n\n\n");		/* truncated, never overflows */
	CHECK(strlen(buf) < 8);
}

int main(void)
{
	RUN(first_wins);
	RUN(one_line);
	return CHECK_DONE();
}
