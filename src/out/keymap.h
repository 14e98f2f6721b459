/* A map from a pair of 64-bit keys to a dense index (0, 1, 2, ... in the
 * order keys were first seen), for the profile's tables: functions by
 * name pointer, caller/callee pairs, contexts, trap causes. */
#ifndef RVT_OUT_KEYMAP_H
#define RVT_OUT_KEYMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct rvt_keymap {
    struct { uint64_t a, b; } *keys;   /* by index */
    size_t n, cap;
    uint32_t *slot;                    /* open addressing: index + 1, 0 = free */
    size_t slots;                      /* power of two, > 2 * n */
} rvt_keymap;

/* The index of (a, b), added when new: *added says so.  SIZE_MAX when
 * out of memory. */
size_t rvt_keymap_get(rvt_keymap *m, uint64_t a, uint64_t b, int *added);
/* The index of (a, b), or SIZE_MAX if absent. */
size_t rvt_keymap_find(const rvt_keymap *m, uint64_t a, uint64_t b);
void rvt_keymap_free(rvt_keymap *m);

#endif
