/* Sequentially inferable jumps, one copy for both flow decoders (E-Trace
 * 3.2.4 and 4.1.1, 11.1 is_sequential_jump / sequential_jump_target;
 * N-Trace 9.1): a jalr whose base register the lui, c.lui or auipc retired
 * just before it wrote has a target the image gives.  Whether the mode is
 * on, and which instruction retired before, is the caller's to know.
 * Internal header: include as "flow/flow_seq.h". */
#ifndef RVT_FLOW_SEQ_H
#define RVT_FLOW_SEQ_H

#include <stdbool.h>
#include <stdint.h>
#include "rvtrace/isa.h"

/* prev (at prev_pc; NULL: none) retired just before jump.  True, with the
 * target masked to `mask` and bit 0 cleared (jalr), when prev is a
 * lui/c.lui/auipc writing jump's rs1.  rd = x0 writes nothing (a hint),
 * so it gives no target.  On RV32 the lui/auipc immediate is sign-extended
 * and the sum wraps at the mask (XLEN-wide addresses). */
static inline bool rvt_flow_seq_target(const rvt_insn *prev, uint64_t prev_pc, const rvt_insn *jump,
                                       uint64_t mask, uint64_t *target)
{
    if (!prev || jump->op != RVT_OP_JALR || prev->rd == 0 || prev->rd != jump->rs1)
        return false;
    uint64_t base;
    if (prev->op == RVT_OP_LUI)            /* c.lui decodes as lui */
        base = (uint64_t)prev->imm;
    else if (prev->op == RVT_OP_AUIPC)
        base = prev_pc + (uint64_t)prev->imm;
    else
        return false;
    *target = (base + (uint64_t)jump->imm) & ~1ull & mask;
    return true;
}

#endif
