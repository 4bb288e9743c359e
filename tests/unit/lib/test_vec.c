/*
 * vec: the shared array growth and string-array free.  Leaks and double frees
 * in vec_free_strings show under `make SANITIZE=1 check T=test_vec`.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "lib/vec.h"

TEST(grow_doubles_from_first)
{
	int *v = NULL;
	size_t cap = 0;

	CHECK_EQ_U(vec_grow((void **)&v, &cap, 1, sizeof(*v), 4), 0);
	CHECK_EQ_U(cap, 4);
	CHECK(v != NULL);
	v[3] = 7;
	CHECK_EQ_U(vec_grow((void **)&v, &cap, 4, sizeof(*v), 4), 0);
	CHECK_EQ_U(cap, 4);		/* already enough: no realloc */
	CHECK_EQ_U(vec_grow((void **)&v, &cap, 5, sizeof(*v), 4), 0);
	CHECK_EQ_U(cap, 8);
	CHECK_EQ_U(v[3], 7);		/* contents kept */
	CHECK_EQ_U(vec_grow((void **)&v, &cap, 33, sizeof(*v), 4), 0);
	CHECK_EQ_U(cap, 64);
	free(v);
}

TEST(grow_first_zero_starts_at_one)
{
	char *v = NULL;
	size_t cap = 0;

	CHECK_EQ_U(vec_grow((void **)&v, &cap, 1, 1, 0), 0);
	CHECK_EQ_U(cap, 1);
	CHECK_EQ_U(vec_grow((void **)&v, &cap, 3, 1, 0), 0);
	CHECK_EQ_U(cap, 4);
	free(v);
}

TEST(grow_absurd_fails_unchanged)
{
	int *v = NULL;
	size_t cap = 0;

	CHECK_EQ_U(vec_grow((void **)&v, &cap, 2, sizeof(*v), 2), 0);
	int *old = v;

	CHECK(vec_grow((void **)&v, &cap, SIZE_MAX, sizeof(*v), 2) == -ENOMEM);
	CHECK(v == old);
	CHECK_EQ_U(cap, 2);
	CHECK(vec_grow((void **)&v, &cap, SIZE_MAX / 2, sizeof(*v), 2) == -ENOMEM);
	CHECK(v == old);
	CHECK_EQ_U(cap, 2);
	free(v);
}

TEST(free_strings_all_shapes)
{
	char **v = calloc(3, sizeof(*v));

	vec_free_strings(NULL, 0);
	vec_free_strings(NULL, 5);	/* no array: nothing to read */
	CHECK(v != NULL);
	if (!v)
		return;
	v[0] = strdup("a");
	v[2] = strdup("c");		/* v[1] left NULL: a half-filled array on an error path */
	vec_free_strings(v, 3);
	vec_free_strings(calloc(1, sizeof(char *)), 0);
}

int main(void)
{
	RUN(grow_doubles_from_first);
	RUN(grow_first_zero_starts_at_one);
	RUN(grow_absurd_fails_unchanged);
	RUN(free_strings_all_shapes);
	return CHECK_DONE();
}
