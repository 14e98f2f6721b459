/* Name chunks (image_names.h).  A full chunk is left as it is and a new
 * one started, twice as large up to NAMES_CHUNK_MAX: a vmlinux's tens of
 * thousands of names take a few dozen chunks and at most one chunk's
 * room unused; a name longer than that gets a chunk of its own. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "image/image_names.h"
#include "util/grow.h"

#define NAMES_CHUNK_FIRST 4096u
#define NAMES_CHUNK_MAX (1u << 20)

static img_name_chunk *last_chunk(const img_names *n)
{
    return n->nchunks ? &n->chunks[n->nchunks - 1] : NULL;
}

/* A new chunk with room for at least len bytes, placed past all the room
 * of the last one (what that one left unused is never filled). */
static img_name_chunk *new_chunk(img_names *n, size_t len)
{
    const img_name_chunk *prev = last_chunk(n);
    size_t pos = prev ? prev->pos + prev->cap : 0;
    size_t cap = prev ? prev->cap : NAMES_CHUNK_FIRST / 2;
    cap = cap < NAMES_CHUNK_MAX ? cap * 2 : NAMES_CHUNK_MAX;
    if (cap < len)
        cap = len;
    img_name_chunk *a = rvt_grow(n->chunks, &n->capchunks, n->nchunks + 1, sizeof *a, 8);
    if (!a)
        return NULL;
    n->chunks = a;
    char *base = malloc(cap);
    if (!base)
        return NULL;
    n->chunks[n->nchunks] = (img_name_chunk){ base, 0, cap, pos };
    return &n->chunks[n->nchunks++];
}

const char *img_names_add(img_names *n, const char *name)
{
    size_t len = strlen(name) + 1;
    img_name_chunk *c = last_chunk(n);
    if (!c || c->cap - c->used < len)
        c = new_chunk(n, len);
    if (!c)
        return NULL;
    char *at = c->base + c->used;
    memcpy(at, name, len);
    c->used += len;
    return at;
}

size_t img_names_end(const img_names *n)
{
    const img_name_chunk *c = last_chunk(n);
    return c ? c->pos + c->used : 0;
}

bool img_names_pos(const img_names *n, const char *name, size_t *pos)
{
    /* Compared as integers: the chunks are separate objects. */
    uintptr_t p = (uintptr_t)name;
    for (size_t i = 0; i < n->nchunks; i++) {
        const img_name_chunk *c = &n->chunks[i];
        uintptr_t b = (uintptr_t)c->base;
        if (p >= b && p - b < c->used) {
            *pos = c->pos + (size_t)(p - b);
            return true;
        }
    }
    return false;
}

void img_names_free(img_names *n)
{
    for (size_t i = 0; i < n->nchunks; i++)
        free(n->chunks[i].base);
    free(n->chunks);
    *n = (img_names){ 0 };
}
