/* ddir: the one spelling of direction names, used for JSON keys and messages. */
#include "check.h"
#include "lib/ddir.h"

TEST(names_in_fio_order)
{
	CHECK_STR(ddir_name(DDIR_READ), "read");
	CHECK_STR(ddir_name(DDIR_WRITE), "write");
	CHECK_STR(ddir_name(DDIR_TRIM), "trim");
}

TEST(out_of_range_is_named_not_read)
{
	/* a corrupt index must not index past the table or print garbage */
	CHECK_STR(ddir_name(DDIR_NR), "unknown");
	CHECK_STR(ddir_name((enum ddir)-1), "unknown");
	CHECK_STR(ddir_name((enum ddir)1000), "unknown");
}

int main(void)
{
	RUN(names_in_fio_order);
	RUN(out_of_range_is_named_not_read);
	return CHECK_DONE();
}
