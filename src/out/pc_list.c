/* What the PC-list writers share (pc_list.h). */
#include <stdlib.h>
#include <string.h>
#include "rvtrace/flow.h"
#include "out/pc_list.h"

rvt_pc_list *rvt_pc_list_new(FILE *f, rvt_image *img, rvt_pc_put put)
{
    rvt_pc_list *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->put = put;
    l->shapes.img = img;
    rvt_obuf_init(&l->b, f);
    return l;
}

void rvt_pc_list_event(void *state, const rvt_flow_event *ev)
{
    rvt_pc_list *l = state;
    if (ev->kind == RVT_EV_INSN)
        l->put(l, &ev->pc, 1);
}

/* The pcs of shape sh from pc, with one put; a copy of what it wrote
 * kept in slot. */
static void put_shape(rvt_pc_list *l, const rvt_shape *sh, uint64_t pc, size_t slot)
{
    uint64_t pcs[RVT_SHAPE_MAX];
    for (unsigned k = 0; k < sh->n; k++) {
        pcs[k] = pc;
        pc = rvt_shape_next(sh, k, pc);
    }
    rvt_obuf_reserve(&l->b, RVT_PCL_BYTES);     /* put writes after `at`, no flush between */
    size_t at = l->b.n;
    l->put(l, pcs, sh->n);
    rvt_pcl_blk *e = &l->blk[slot];
    *e = (rvt_pcl_blk){ .pc = sh->pc, .end = sh->end, .n = sh->n, .len = (uint32_t)(l->b.n - at) };
    memcpy(l->bytes[slot], l->b.buf + at, e->len);
}

/* The bytes of a block not in its slot: walked through its shape (kept
 * in the slot for the next time), else through the image. */
static __attribute__((noinline)) void put_new(rvt_pc_list *l, const rvt_block *b, size_t slot)
{
    const rvt_shape *sh = rvt_shape_get(&l->shapes, b->start_pc, b->ninsn);
    if (sh && sh->end == b->end_pc) {
        put_shape(l, sh, b->start_pc, slot);
        return;
    }
    /* a shape not kept: walked here; the last pc is the block's */
    uint64_t pc = b->start_pc;
    for (uint64_t k = 0; k + 1 < b->ninsn; k++) {
        l->put(l, &pc, 1);
        const rvt_insn *i = l->shapes.img ? rvt_image_insn(l->shapes.img, pc) : NULL;
        pc += i ? i->len : 4;
    }
    l->put(l, &b->end_pc, 1);
}

/* A block seen before: its bytes copied from its slot, in whole 32-byte
 * chunks (RVT_PCL_BYTES is a multiple of 32, and the buffer has that
 * much room): a few vector moves, not a call of memcpy for a length
 * known only here (issue #18: the PC lists at the decoder's speed). */
static inline __attribute__((always_inline)) void block(rvt_pc_list *l, const rvt_block *b)
{
    size_t slot = (b->start_pc >> 1) & (RVT_PCL_SLOTS - 1);
    const rvt_pcl_blk *e = &l->blk[slot];
    if (__builtin_expect(e->pc != b->start_pc || e->n != b->ninsn || e->end != b->end_pc || !e->n, 0)) {
        put_new(l, b, slot);
        return;
    }
    uint32_t len = e->len;
    const char *from = l->bytes[slot];
    char *p = rvt_obuf_reserve(&l->b, RVT_PCL_BYTES);
    for (uint32_t k = 0; k < len; k += 32)
        memcpy(p + k, from + k, 32);
    rvt_obuf_commit(&l->b, p + len);
}

_Static_assert(RVT_PCL_BYTES % 32 == 0, "slots copied in 32-byte chunks");

void rvt_pc_list_block(void *state, const rvt_block *b)
{
    block(state, b);
}

uint64_t rvt_pc_list_blocks(void *state, const rvt_block *b, size_t n)
{
    uint64_t insns = 0;
    for (size_t i = 0; i < n; i++) {
        block(state, &b[i]);
        insns += b[i].ninsn;
    }
    return insns;
}

void rvt_pc_list_finish(void *state)
{
    rvt_pc_list *l = state;
    rvt_obuf_flush(&l->b);
    free(l);            /* the FILE belongs to the caller */
}
