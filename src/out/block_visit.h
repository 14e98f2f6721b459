/* A block's instructions for the writers that follow the call stack
 * (block_visit.c: folded stacks, profile, timeline): when the block lies
 * in one function, the stack moved over all of it in one step
 * (rvt_cs_block: its instructions before the last neither change the
 * function nor the stack, only the last one transferring control,
 * rvt_block in rvtrace/flow.h); else one instruction at a time. */
#ifndef RVT_OUT_BLOCK_VISIT_H
#define RVT_OUT_BLOCK_VISIT_H

#include "rvtrace/flow.h"
#include "out/callstack.h"

typedef struct rvt_block_visitor {
    /* The whole block in function leaf, cs already past it. */
    void (*block)(void *ctx, const char *leaf, const rvt_block *b);
    /* One instruction (the visitor moves cs: rvt_cs_insn). */
    void (*insn)(void *ctx, uint64_t pc);
    void *ctx;
} rvt_block_visitor;

/* Internal to rvt_block_visit: a block that crosses a symbol, one
 * instruction at a time (cs's image gives their lengths). */
void rvt_block_visit_each(const rvt_block *b, rvt_callstack *cs, rvt_block_visitor v);

/* cs: the stack the visitor follows.  Inline, v by value, so that the
 * writers' calls through it are direct (once per block: the hot path of
 * issue #17). */
static inline void rvt_block_visit(const rvt_block *b, rvt_callstack *cs, rvt_block_visitor v)
{
    const char *leaf = rvt_cs_block(cs, b->start_pc, b->end_pc);
    if (leaf)
        v.block(v.ctx, leaf, b);
    else
        rvt_block_visit_each(b, cs, v);
}

#endif
