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
 * kept in e. */
static void put_shape(rvt_pc_list *l, const rvt_shape *sh, uint64_t pc, rvt_pcl_blk *e)
{
    uint64_t pcs[RVT_SHAPE_MAX];
    for (unsigned k = 0; k < sh->n; k++) {
        pcs[k] = pc;
        pc = rvt_shape_next(sh, k, pc);
    }
    rvt_obuf_reserve(&l->b, RVT_PCL_BYTES);     /* put writes after `at`, no flush between */
    size_t at = l->b.n;
    l->put(l, pcs, sh->n);
    *e = (rvt_pcl_blk){ .pc = sh->pc, .end = sh->end, .n = sh->n, .len = (uint32_t)(l->b.n - at) };
    memcpy(e->bytes, l->b.buf + at, e->len);
}

void rvt_pc_list_block(void *state, const rvt_block *b)
{
    rvt_pc_list *l = state;
    rvt_pcl_blk *e = &l->blk[(b->start_pc >> 1) & (RVT_PCL_SLOTS - 1)];
    if (e->pc == b->start_pc && e->n == b->ninsn && e->end == b->end_pc && e->n) {
        char *p = rvt_obuf_reserve(&l->b, RVT_PCL_BYTES);   /* seen before: its bytes */
        memcpy(p, e->bytes, e->len);
        rvt_obuf_commit(&l->b, p + e->len);
        return;
    }
    const rvt_shape *sh = rvt_shape_get(&l->shapes, b->start_pc, b->ninsn);
    if (sh && sh->end == b->end_pc) {
        put_shape(l, sh, b->start_pc, e);
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

void rvt_pc_list_finish(void *state)
{
    rvt_pc_list *l = state;
    rvt_obuf_flush(&l->b);
    free(l);            /* the FILE belongs to the caller */
}
