/*
 * Tests for utf8: valid text kept byte for byte, each invalid byte (Latin-1,
 * overlong, surrogate, beyond U+10FFFF, truncated) replaced by U+FFFD, and the
 * result always accepted by jansson.
 */
#include <stdlib.h>
#include "lib/utf8.h"
#include "check.h"

#define FFFD "\xef\xbf\xbd"

static void fixed(const char *in, const char *want)
{
	char *c = utf8_fix(in);
	json_t *v = utf8_json(in);

	CHECK(c != NULL);
	if (c)
		CHECK_STR(c, want);
	CHECK(utf8_valid(want));
	CHECK(v != NULL);
	if (v)
		CHECK_STR(json_string_value(v), want);
	json_decref(v);
	free(c);
}

TEST(valid_kept)
{
	CHECK(utf8_valid(""));
	CHECK(utf8_valid("plain ascii"));
	CHECK(utf8_valid("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
	fixed("caf\xc3\xa9", "caf\xc3\xa9");
	fixed("\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf");	/* U+10FFFF */
}

TEST(invalid_replaced)
{
	CHECK(!utf8_valid("caf\xe9"));
	fixed("caf\xe9", "caf" FFFD);			/* Latin-1 */
	fixed("\xe9t\xe9", FFFD "t" FFFD);
	fixed("\xc0\xaf", FFFD FFFD);			/* overlong '/' */
	fixed("\xe0\x80\xaf", FFFD FFFD FFFD);		/* overlong, 3 bytes */
	fixed("\xed\xa0\x80", FFFD FFFD FFFD);		/* a UTF-16 surrogate */
	fixed("\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD);	/* beyond U+10FFFF */
	fixed("ab\xe2\x82", "ab" FFFD FFFD);		/* truncated at the end */
	fixed("\x80", FFFD);				/* a lone continuation byte */
	fixed("\r\n\x01", "\r\n\x01");			/* control bytes are valid UTF-8 */
	CHECK(json_is_null(utf8_json(NULL)));
}

int main(void)
{
	RUN(valid_kept);
	RUN(invalid_replaced);
	return CHECK_DONE();
}
