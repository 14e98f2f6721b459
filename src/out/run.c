/* Runs of instructions gathered from RVT_EV_INSN events (run.h). */
#include "out/run.h"

void rvt_out_run_init(rvt_out_run *r, rvt_image *img)
{
    *r = (rvt_out_run){ .img = img };
}

bool rvt_out_run_add(rvt_out_run *r, const rvt_flow_event *ev)
{
    rvt_block *b = &r->b;
    if (b->ninsn && (r->closed || ev->pc != r->next || ev->priv != b->priv || ev->src != b->src))
        return false;
    const rvt_insn *i = r->img ? rvt_image_insn(r->img, ev->pc) : NULL;
    if (!b->ninsn)
        *b = (rvt_block){ .start_pc = ev->pc, .offset = ev->offset, .priv = ev->priv, .src = ev->src,
                          .context = r->context };
    b->end_pc = ev->pc;
    b->ninsn++;
    r->last = i;
    r->closed = !i || i->jclass != RVT_JC_NONE;
    r->next = i ? ev->pc + i->len : 0;
    return true;
}

void rvt_out_run_event(rvt_out_run *r, const rvt_flow_event *ev)
{
    if (ev->kind == RVT_EV_CONTEXT)
        r->context = ev->aux;
}

/* Why the run went elsewhere than its next address, from its last
 * instruction's class. */
static uint8_t transfer_end(const rvt_out_run *r, uint64_t next_pc)
{
    switch (r->last ? r->last->jclass : RVT_JC_NONE) {
    case RVT_JC_NONE: return RVT_BLK_DISCON;
    case RVT_JC_BRANCH: return next_pc == r->next ? RVT_BLK_BRANCH_NOT_TAKEN : RVT_BLK_BRANCH_TAKEN;
    case RVT_JC_CALL_INF:
    case RVT_JC_CALL_UNINF: return RVT_BLK_CALL;
    case RVT_JC_RETURN: return RVT_BLK_RETURN;
    default: return RVT_BLK_JUMP;
    }
}

bool rvt_out_run_take(rvt_out_run *r, uint8_t end, uint64_t next_pc, rvt_block *b)
{
    if (!r->b.ninsn)
        return false;
    *b = r->b;
    if (end == RVT_BLK_DISCON) {
        b->end = transfer_end(r, next_pc);
        b->next_pc = next_pc;
    } else {
        b->end = end;
        b->next_pc = b->end_pc;
    }
    r->b.ninsn = 0;
    return true;
}

uint8_t rvt_out_run_end_of(uint8_t ev_kind)
{
    switch (ev_kind) {
    case RVT_EV_TRAP: return RVT_BLK_TRAP;
    case RVT_EV_INTERRUPT: return RVT_BLK_INTERRUPT;
    case RVT_EV_SYNC: return RVT_BLK_RESYNC;
    case RVT_EV_LOST:
    case RVT_EV_ERROR: return RVT_BLK_LOSS;
    case RVT_EV_STOP: return RVT_BLK_STOP;
    case RVT_EV_END: return RVT_BLK_END;
    default: return RVT_BLK_EVENT;
    }
}
