/*
 * suggest: the "did you mean" of every name iotrial looks up (options,
 * engines, closed value lists): the candidate nearest a misspelt name, by
 * edit distance, or by being a longer name that starts or ends with it
 * ("uring" -> "io_uring").  A leaf: it knows no list, it is given one.
 */
#ifndef IOTRIAL_SUGGEST_H
#define IOTRIAL_SUGGEST_H

#include <stddef.h>

/* Edit distance of @a and @b, capped (99 for names of 63 bytes or more). */
size_t suggest_distance(const char *a, const char *b);

/*
 * The candidate nearest @s within 2 edits (or a longer one that @s of 3
 * bytes or more starts or ends), or NULL.  @at(i, @ctx) gives the i-th
 * candidate, NULL past the end; a NULL-returning skip is not possible, so
 * give only candidates that may be suggested.
 */
const char *suggest_nearest(const char *s, const char *(*at)(size_t i, const void *ctx),
			    const void *ctx);

#endif
