/* Growing arrays: the one doubling rule every module's dynamic arrays use
 * (image segments and symbols, folded-stack entries, decoder queues). */
#ifndef RVT_UTIL_GROW_H
#define RVT_UTIL_GROW_H

#include <stdint.h>
#include <stdlib.h>

/* Room for `need` elements of `elem` bytes in arr (capacity *cap, first
 * allocation `first` elements, then doubling).  Returns the array, moved
 * or not, with *cap updated; NULL when out of memory (or the size would
 * overflow), leaving arr and *cap as they were. */
static inline void *rvt_grow(void *arr, size_t *cap, size_t need, size_t elem, size_t first)
{
    if (need <= *cap)
        return arr;
    size_t c = *cap ? *cap : first;
    while (c < need) {
        if (c > SIZE_MAX / 2 / elem)
            return NULL;
        c *= 2;
    }
    void *n = realloc(arr, c * elem);
    if (n)
        *cap = c;
    return n;
}

#endif
