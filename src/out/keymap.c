/* Pair-keyed index map (keymap.h). */
#include <stdbool.h>
#include <stdlib.h>
#include "util/grow.h"
#include "out/keymap.h"

static size_t hash(uint64_t a, uint64_t b)
{
    uint64_t h = (a ^ (b * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull;
    return (size_t)(h ^ (h >> 29));
}

static bool rehash(rvt_keymap *m)
{
    size_t slots = m->slots ? m->slots * 2 : 64;
    uint32_t *s = calloc(slots, sizeof *s);
    if (!s)
        return false;
    for (size_t i = 0; i < m->n; i++) {
        size_t k = hash(m->keys[i].a, m->keys[i].b) & (slots - 1);
        while (s[k])
            k = (k + 1) & (slots - 1);
        s[k] = (uint32_t)(i + 1);
    }
    free(m->slot);
    m->slot = s;
    m->slots = slots;
    return true;
}

size_t rvt_keymap_find(const rvt_keymap *m, uint64_t a, uint64_t b)
{
    if (!m->slots)
        return SIZE_MAX;
    for (size_t k = hash(a, b) & (m->slots - 1); m->slot[k]; k = (k + 1) & (m->slots - 1)) {
        size_t i = m->slot[k] - 1;
        if (m->keys[i].a == a && m->keys[i].b == b)
            return i;
    }
    return SIZE_MAX;
}

size_t rvt_keymap_get(rvt_keymap *m, uint64_t a, uint64_t b, int *added)
{
    *added = 0;
    size_t i = rvt_keymap_find(m, a, b);
    if (i != SIZE_MAX)
        return i;
    if ((2 * (m->n + 1) > m->slots && !rehash(m)) || m->n >= UINT32_MAX - 1)
        return SIZE_MAX;
    void *k = rvt_grow(m->keys, &m->cap, m->n + 1, sizeof m->keys[0], 16);
    if (!k)
        return SIZE_MAX;
    m->keys = k;
    m->keys[m->n].a = a;
    m->keys[m->n].b = b;
    size_t s = hash(a, b) & (m->slots - 1);
    while (m->slot[s])
        s = (s + 1) & (m->slots - 1);
    m->slot[s] = (uint32_t)(m->n + 1);
    *added = 1;
    return m->n++;
}

void rvt_keymap_free(rvt_keymap *m)
{
    free(m->keys);
    free(m->slot);
    m->keys = NULL;
    m->slot = NULL;
    m->n = m->cap = m->slots = 0;
}
