/*
 * utf8: text from users and file systems made safe for JSON.
 *
 * A Linux file name, a job name or a ${VAR} expansion is any byte string,
 * but JSON (and jansson) takes only valid UTF-8.  Rather than lose a whole
 * run's report over one Latin-1 file name, every invalid byte is replaced by
 * U+FFFD (the Unicode replacement character, "\uFFFD" in JSON); valid UTF-8,
 * including multi-byte characters, is kept as is.  Overlong forms, UTF-16
 * surrogates and code points above U+10FFFF count as invalid (as in jansson).
 */
#ifndef IOTRIAL_UTF8_H
#define IOTRIAL_UTF8_H

#include <jansson.h>
#include <stddef.h>

/* Is the NUL-terminated @s valid UTF-8? */
int utf8_valid(const char *s);

/* A malloc'd copy of @s with each invalid byte replaced by U+FFFD; NULL when out of memory. */
char *utf8_fix(const char *s);

/* A JSON string of @s (NULL: JSON null), invalid bytes replaced; NULL when out of memory. */
json_t *utf8_json(const char *s);

#endif
