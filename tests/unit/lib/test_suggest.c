/*
 * Tests for suggest (suggest.h): the one "did you mean" rule of options,
 * engines and value lists.
 */
#include "check.h"
#include "lib/suggest.h"

static const char *const names[] = { "io_uring", "libaio", "psync", "iodepth", NULL };

static const char *at(size_t i, const void *ctx)
{
	(void)ctx;
	return names[i];
}

TEST(nearest)
{
	CHECK_STR(suggest_nearest("uring", at, NULL), "io_uring");	/* the end of it */
	CHECK_STR(suggest_nearest("libaoi", at, NULL), "libaio");	/* two edits */
	CHECK_STR(suggest_nearest("iodpeth", at, NULL), "iodepth");
	CHECK_STR(suggest_nearest("depth", at, NULL), "iodepth");
	CHECK(suggest_nearest("xyz", at, NULL) == NULL);		/* nothing near */
	CHECK(suggest_nearest("io", at, NULL) == NULL);			/* too short to be a part */
	CHECK(suggest_nearest(NULL, at, NULL) == NULL);
	CHECK_EQ_U(suggest_distance("kitten", "sitting"), 3);
}

int main(void)
{
	RUN(nearest);
	return CHECK_DONE();
}
