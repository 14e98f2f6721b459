/* A block's instructions for the call-stack writers (block_visit.h). */
#include "out/block_visit.h"

void rvt_block_visit(const rvt_block *b, rvt_image *img, rvt_sym_span *span, const rvt_block_visitor *v)
{
    uint64_t pc = b->start_pc, off;
    v->insn(v->ctx, pc);
    if (b->ninsn < 2)
        return;
    rvt_sym_span_at(span, img, pc, &off);
    if (rvt_sym_span_holds(span, pc, b->end_pc)) {
        if (b->ninsn > 2)
            v->skip(v->ctx, b->ninsn - 2);
    } else {
        for (uint64_t k = 1; k + 1 < b->ninsn; k++) {  /* crosses a symbol: each one */
            const rvt_insn *i = rvt_image_insn(img, pc);
            pc += i ? i->len : 4;
            v->insn(v->ctx, pc);
        }
    }
    v->insn(v->ctx, b->end_pc);
}
