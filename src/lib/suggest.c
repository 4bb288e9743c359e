/*
 * suggest: nearest names for "did you mean" (suggest.h).
 */
#include "lib/suggest.h"

#include <string.h>

size_t suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, k, prev[64], cur[64];

	if (la >= 63 || lb >= 63)
		return 99;
	for (k = 0; k <= lb; k++)
		prev[k] = k;
	for (i = 1; i <= la; i++) {
		cur[0] = i;
		for (k = 1; k <= lb; k++) {
			size_t sub = prev[k - 1] + (a[i - 1] != b[k - 1]);
			size_t del = prev[k] + 1, ins = cur[k - 1] + 1;

			cur[k] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, cur, (lb + 1) * sizeof(prev[0]));
	}
	return prev[lb];
}

/* Is @s (3 bytes or more) the start or the end of the longer @v? */
static int part_of(const char *s, const char *v)
{
	size_t ls = strlen(s), lv = strlen(v);

	return ls >= 3 && lv > ls && (!strncmp(v, s, ls) || !strcmp(v + lv - ls, s));
}

const char *suggest_nearest(const char *s, const char *(*at)(size_t i, const void *ctx),
			    const void *ctx)
{
	size_t best = 3, dist, i;
	const char *v, *hit = NULL;

	for (i = 0; s && (v = at(i, ctx)) != NULL; i++) {
		dist = part_of(s, v) ? 1 : suggest_distance(s, v);
		if (dist < best) {
			best = dist;
			hit = v;
		}
	}
	return hit;
}
