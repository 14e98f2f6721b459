/* A decoder's own caches over a shared rvt_mem (mem_view.h).
 *
 * Image code: per (entry, segment) the chunked cache of image_insn.c,
 * with a generation per slot so a flush is one increment.  Code from the
 * read callback: decoded into an append-only arena (pointers stay valid
 * until the view is freed) and found through a hash map on (space, pc),
 * emptied at each flush; a space change keeps every space's entries. */
#include <stdlib.h>
#include <string.h>
#include "image/image_internal.h"
#include "image/mem_internal.h"
#include "image/mem_view.h"
#include "util/grow.h"

typedef struct view_ent {
    img_icache *segs;        /* one cache per segment of the entry's image */
    size_t nsegs;
    rvt_insn zero;           /* decode of the zero fill past filesz */
} view_ent;

#define ARENA_INSNS 256
typedef struct arena_blk {
    struct arena_blk *next;
    size_t used;
    rvt_insn insn[ARENA_INSNS];
} arena_blk;

/* The callback's answers by address space and pc: a space change leaves
 * the other spaces' answers in place (the view goes back to them when the
 * trace does, E-Trace format 3 / N-Trace Ownership); only a flush (the
 * code changed) empties the map. */
typedef struct cb_slot {
    uint64_t tag;            /* RVT pc ^ 1: 0 is the empty slot (pc 1 is never code) */
    rvt_space space;         /* the space the callback was asked in */
    const rvt_insn *ins;     /* NULL: the callback has no code there */
} cb_slot;

struct rvt_memv {
    const rvt_mem *mem;
    rvt_space space;
    size_t *order;           /* mem entries matching space, in lookup order */
    size_t norder, nents;
    view_ent *ents;          /* nents, one per mem entry */
    uint32_t gen;            /* current generation, never 0 */
    unsigned xlen;
    cb_slot *cb;             /* open addressing, cb_cap a power of two */
    size_t cb_n, cb_cap;
    arena_blk *arena;
};

/* Entries and the lookup order for the current space (mem entries added
 * after the view was made join here). */
static bool resolve(rvt_memv *v)
{
    const rvt_mem *m = v->mem;
    if (m->n > v->nents) {
        size_t *o = realloc(v->order, m->n * sizeof *o);
        if (o)
            v->order = o;
        view_ent *e = o ? realloc(v->ents, m->n * sizeof *e) : NULL;
        if (!e)
            return false;
        memset(e + v->nents, 0, (m->n - v->nents) * sizeof *e);
        v->ents = e;
        v->nents = m->n;
    }
    v->norder = mem_match(m, &v->space, v->order);
    return true;
}

rvt_memv *rvt_memv_new(const rvt_mem *m)
{
    rvt_memv *v = m ? calloc(1, sizeof *v) : NULL;
    if (!v)
        return NULL;
    v->mem = m;
    v->space = RVT_MEMV_START;
    v->gen = 1;
    v->xlen = rvt_mem_xlen(m);
    if (!resolve(v)) {
        rvt_memv_free(v);
        return NULL;
    }
    return v;
}

static void cb_clear(rvt_memv *v)
{
    if (v->cb)
        memset(v->cb, 0, v->cb_cap * sizeof *v->cb);
    v->cb_n = 0;
}

void rvt_memv_free(rvt_memv *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->nents; i++) {
        for (size_t k = 0; k < v->ents[i].nsegs; k++)
            img_icache_free(&v->ents[i].segs[k]);
        free(v->ents[i].segs);
    }
    while (v->arena) {
        arena_blk *n = v->arena->next;
        free(v->arena);
        v->arena = n;
    }
    free(v->ents);
    free(v->order);
    free(v->cb);
    free(v);
}

bool rvt_memv_set_space(rvt_memv *v, const rvt_space *space)
{
    if (!v || !space || !memcmp(&v->space, space, sizeof *space))
        return false;
    size_t old_n = v->norder;
    size_t old[4];             /* the common case: few entries */
    bool small = old_n <= 4;
    if (small && old_n)
        memcpy(old, v->order, old_n * sizeof *old);
    v->space = *space;
    if (!resolve(v)) {
        v->norder = 0;         /* out of memory: no code, reported as such */
        return true;
    }
    /* The callback sees the space: its answers may change with it (the
     * caller's block cache goes; the view's map is keyed by space). */
    if (v->mem->read)
        return true;
    return !small || old_n != v->norder || (old_n && memcmp(old, v->order, old_n * sizeof *old));
}

void rvt_memv_flush(rvt_memv *v)
{
    if (!v)
        return;
    if (++v->gen == 0)
        v->gen = 1;            /* 2^32 flushes: generation 0 means never decoded */
    cb_clear(v);
}

/* ---- code from the images ---- */

static const rvt_insn *image_insn(rvt_memv *v, view_ent *e, const rvt_image *img,
                                  const img_seg *s, uint64_t pc)
{
    uint64_t off = pc - s->pub.vaddr;
    if (off >= s->pub.filesz) {
        if (!e->zero.len)
            img_decode_at(img, pc, &e->zero);
        return &e->zero;
    }
    size_t si = (size_t)(s - img->segs);
    if (si >= e->nsegs) {      /* the image grew (a segment added since) */
        img_icache *n = realloc(e->segs, img->nsegs * sizeof *n);
        if (!n)
            return NULL;
        memset(n + e->nsegs, 0, (img->nsegs - e->nsegs) * sizeof *n);
        e->segs = n;
        e->nsegs = img->nsegs;
    }
    uint32_t *gen;
    rvt_insn *slot = img_icache_slot(&e->segs[si], s, off, &gen);
    if (slot && *gen != v->gen) {
        img_decode_at(img, pc, slot);
        *gen = v->gen;
    }
    return slot;
}

static const rvt_insn *from_images(rvt_memv *v, uint64_t pc, bool *found)
{
    for (size_t k = 0; k < v->norder; k++) {
        size_t i = v->order[k];
        const rvt_image *img = v->mem->ent[i].img;
        const img_seg *s = img_find(img, pc);
        if (s) {
            *found = true;
            return image_insn(v, &v->ents[i], img, s, pc);
        }
    }
    *found = false;
    return NULL;
}

/* ---- code from the read callback ---- */

static rvt_insn *arena_new(rvt_memv *v)
{
    if (!v->arena || v->arena->used == ARENA_INSNS) {
        arena_blk *b = calloc(1, sizeof *b);
        if (!b)
            return NULL;
        b->next = v->arena;
        v->arena = b;
    }
    return &v->arena->insn[v->arena->used++];
}

static bool same_space(const rvt_space *a, const rvt_space *b)
{
    return a->context == b->context && a->priv == b->priv && a->source == b->source;
}

static cb_slot *cb_find(const rvt_memv *v, const rvt_space *sp, uint64_t pc)
{
    size_t mask = v->cb_cap - 1;
    uint64_t key = (pc >> 1) ^ sp->context * 0xFF51AFD7ED558CCDull ^ ((uint64_t)sp->priv << 56) ^
                   ((uint64_t)sp->source << 40);
    for (size_t h = (size_t)(key * 0x9E3779B97F4A7C15ull) & mask;; h = (h + 1) & mask)
        if (!v->cb[h].tag || (v->cb[h].tag == (pc ^ 1) && same_space(&v->cb[h].space, sp)))
            return &v->cb[h];
}

static bool cb_grow(rvt_memv *v)
{
    if ((v->cb_n + 1) * 2 <= v->cb_cap)
        return true;
    size_t cap = v->cb_cap ? v->cb_cap * 2 : 64;
    cb_slot *old = v->cb;
    size_t oldcap = v->cb_cap;
    v->cb = calloc(cap, sizeof *v->cb);
    if (!v->cb) {
        v->cb = old;
        return false;
    }
    v->cb_cap = cap;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].tag)
            *cb_find(v, &old[i].space, old[i].tag ^ 1) = old[i];
    free(old);
    return true;
}

static const rvt_insn *from_callback(rvt_memv *v, uint64_t pc)
{
    if (v->cb_cap) {
        cb_slot *c = cb_find(v, &v->space, pc);
        if (c->tag)
            return c->ins;
    }
    uint32_t raw;
    rvt_insn *ins = NULL;
    if (mem_read_insn_word(v->mem, &v->space, pc, &raw) && (ins = arena_new(v)))
        rvt_isa_decode(raw, v->xlen, ins);
    if (cb_grow(v)) {          /* no room: answered, just not cached */
        cb_slot *c = cb_find(v, &v->space, pc);
        c->tag = pc ^ 1;
        c->space = v->space;
        c->ins = ins;
        v->cb_n++;
    }
    return ins;
}

const rvt_insn *rvt_memv_insn(void *vp, uint64_t pc)
{
    rvt_memv *v = vp;
    if (pc & 1)                /* no RISC-V pc is odd */
        return NULL;
    bool first = v->mem->read && (v->mem->read_flags & RVT_MEM_READ_FIRST);
    if (first) {
        const rvt_insn *i = from_callback(v, pc);
        if (i)
            return i;
    }
    bool found;
    const rvt_insn *i = from_images(v, pc, &found);
    if (!found && v->mem->read && !first)
        i = from_callback(v, pc);
    return i;
}

/* ---- a decoder's memory (mem_view.h) ---- */

int rvt_dec_mem_open(rvt_dec_mem *dm, const rvt_mem *m, const rvt_image *img)
{
    dm->own = NULL;
    dm->view = NULL;
    if (!m == !img)
        return RVT_ERR_INVAL;
    if (img) {
        if (!(dm->own = rvt_mem_new()) || rvt_mem_add_image(dm->own, NULL, img) < 0) {
            rvt_mem_free(dm->own);
            dm->own = NULL;
            return RVT_ERR_NOMEM;
        }
        m = dm->own;
    }
    dm->space = RVT_MEMV_START;
    dm->number = 0;
    dm->nnumbers = 1;
    dm->nknown = 1;
    dm->known[0] = (rvt_dec_space){ .space = RVT_MEMV_START, .number = 0 };
    if (!(dm->view = rvt_memv_new(m))) {
        rvt_dec_mem_close(dm);
        return RVT_ERR_NOMEM;
    }
    return RVT_OK;
}

void rvt_dec_mem_close(rvt_dec_mem *dm)
{
    rvt_memv_free(dm->view);
    rvt_mem_free(dm->own);
    dm->view = NULL;
    dm->own = NULL;
}

static const rvt_dec_space *known_space(const rvt_dec_mem *dm, const rvt_space *sp)
{
    for (unsigned i = 0; i < dm->nknown; i++)
        if (same_space(&dm->known[i].space, sp))
            return &dm->known[i];
    return NULL;
}

/* Every number in use: start over with one (the cache forgets all). */
static void restart_numbers(rvt_dec_mem *dm, rvt_iblocks *bc)
{
    rvt_iblk_flush(bc);
    dm->nknown = 0;
    dm->nnumbers = 1;
    dm->number = 0;
}

void rvt_dec_mem_switch(rvt_dec_mem *dm, rvt_iblocks *bc, const rvt_space *sp)
{
    /* lookups that agree with the current space's (same images, no read
     * callback) keep its number: its cached blocks serve the new space */
    bool differs = rvt_memv_set_space(dm->view, sp);
    dm->space = *sp;
    const rvt_dec_space *k = known_space(dm, sp);
    if (k) {
        if (differs)
            dm->number = k->number;
    } else if (differs && (dm->nnumbers == RVT_IBLK_SPACES || dm->nknown == RVT_DEC_SPACES)) {
        restart_numbers(dm, bc);
        dm->known[dm->nknown++] = (rvt_dec_space){ .space = *sp, .number = 0 };
    } else {
        if (differs)
            dm->number = dm->nnumbers++;
        if (dm->nknown < RVT_DEC_SPACES)
            dm->known[dm->nknown++] = (rvt_dec_space){ .space = *sp, .number = dm->number };
    }
    rvt_iblk_set_space(bc, dm->number);
}
