/*
 * utf8: validation and U+FFFD replacement (see utf8.h).
 */
#include "lib/utf8.h"

#include <stdlib.h>	/* malloc */
#include <string.h>	/* strlen */

/* Length of the valid UTF-8 sequence starting at @s (at most @n bytes), 0 if invalid. */
static size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0], cp;
	size_t len, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07;
	else
		return 0;	/* a continuation byte, 0xc0/0xc1 (overlong) or > 0xf4 */
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;	/* overlong, beyond Unicode, or a UTF-16 surrogate */
	return len;
}

int utf8_valid(const char *s)
{
	size_t n = strlen(s), i = 0, l;

	while (i < n) {
		l = utf8_seq_len((const unsigned char *)s + i, n - i);
		if (!l)
			return 0;
		i += l;
	}
	return 1;
}

char *utf8_fix(const char *s)
{
	size_t n = strlen(s), i = 0, o = 0, l;
	char *c = malloc(3 * n + 1);	/* one byte becomes at most 3 (EF BF BD) */

	if (!c)
		return NULL;
	while (i < n) {
		l = utf8_seq_len((const unsigned char *)s + i, n - i);
		if (l) {
			memcpy(c + o, s + i, l);
			o += l;
			i += l;
		} else {
			memcpy(c + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	c[o] = '\0';
	return c;
}

json_t *utf8_json(const char *s)
{
	json_t *v;
	char *c;

	if (!s)
		return json_null();
	if (utf8_valid(s))
		return json_string(s);
	c = utf8_fix(s);
	v = c ? json_string(c) : NULL;
	free(c);
	return v;
}
