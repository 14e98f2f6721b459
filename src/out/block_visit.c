/* A block's instructions for the call-stack writers (block_visit.h). */
#include "out/block_visit.h"

void rvt_block_visit_each(const rvt_block *b, rvt_callstack *cs, rvt_block_visitor v)
{
    uint64_t pc = b->start_pc;
    for (uint64_t k = 1; k < b->ninsn; k++) {
        v.insn(v.ctx, pc);
        const rvt_insn *i = cs->img ? rvt_image_insn(cs->img, pc) : NULL;
        pc += i ? i->len : 4;
    }
    v.insn(v.ctx, b->end_pc);
}
