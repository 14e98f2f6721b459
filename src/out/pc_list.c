/* What the PC-list writers share (pc_list.h). */
#include <stdlib.h>
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

void rvt_pc_list_block(void *state, const rvt_block *b)
{
    rvt_pc_list *l = state;
    const rvt_shape *sh = rvt_shape_get(&l->shapes, b->start_pc, b->ninsn);
    uint64_t pc = b->start_pc;
    if (sh && sh->end == b->end_pc) {      /* the pcs, then one put */
        uint64_t pcs[RVT_SHAPE_MAX];
        for (unsigned k = 0; k < sh->n; k++) {
            pcs[k] = pc;
            pc = rvt_shape_next(sh, k, pc);
        }
        l->put(l, pcs, sh->n);
        return;
    }
    /* a shape not kept: walked here; the last pc is the block's */
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
