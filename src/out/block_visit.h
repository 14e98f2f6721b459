/* A block's instructions for the writers that follow the call stack
 * (block_visit.c: folded stacks, profile, timeline): the first and the
 * last one by one; those in between, when the block lies in one function
 * symbol, in one step -- they neither change the function nor the stack,
 * only the block's last instruction transferring control (rvt_block,
 * rvtrace/flow.h) -- else one by one as well. */
#ifndef RVT_OUT_BLOCK_VISIT_H
#define RVT_OUT_BLOCK_VISIT_H

#include "rvtrace/flow.h"
#include "out/sym_span.h"

typedef struct rvt_block_visitor {
    void (*insn)(void *ctx, uint64_t pc);   /* one instruction */
    void (*skip)(void *ctx, uint64_t n);    /* n in between, none at a call or return */
    void *ctx;
} rvt_block_visitor;

/* img: the lengths when the block crosses a symbol; span: the caller's
 * symbol-span cache. */
void rvt_block_visit(const rvt_block *b, rvt_image *img, rvt_sym_span *span, const rvt_block_visitor *v);

#endif
