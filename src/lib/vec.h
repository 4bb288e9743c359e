/*
 * vec: growing a heap array by doubling, the one allocation pattern the
 * per-interval and logging code shares.  Never used per I/O, except by fio's
 * per-I/O logs, which the user asked for.
 */
#ifndef IOTRIAL_VEC_H
#define IOTRIAL_VEC_H

#include <stddef.h>

/*
 * Make *@p (with *@cap elements of @elem bytes) hold at least @need elements,
 * doubling from @first.  Returns 0, or -ENOMEM leaving *@p and *@cap as they
 * were.  Also fails, rather than overflowing, for absurd sizes.
 */
int vec_grow(void **p, size_t *cap, size_t need, size_t elem, size_t first);

/*
 * Free @n heap strings of @v, then @v itself: the one owner-frees-all rule
 * for every allocated array of allocated strings (paths, argv, names).
 * @v may be NULL; NULL entries are fine.
 */
void vec_free_strings(char **v, size_t n);

#endif
