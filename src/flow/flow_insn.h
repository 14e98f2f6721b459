/* Instruction predicates of the flow walk, one copy for the E-Trace and
 * N-Trace decoders: what an instruction does to the path (falls through,
 * branches, jumps with a target the image holds, jumps with one only the
 * trace holds) and to the return stack (call, return).  They read the
 * classification rvt_isa_decode fills in (rvt_insn.jclass: E-Trace 4.1.1,
 * the same x1/x5 convention as N-Trace table 2).
 *
 * Where the two specifications classify differently the difference is a
 * named field of rvt_flow_rules, each protocol passes its constant (below).
 * Internal header: include as "flow/flow_insn.h". */
#ifndef RVT_FLOW_INSN_H
#define RVT_FLOW_INSN_H

#include <stdbool.h>
#include "rvtrace/isa.h"

typedef struct rvt_flow_rules {
    /* E-Trace 11.1 is_inferable_jump: a jalr with rs1 = x0 jumps to the
     * constant in its opcode, so it is inferable (4.1.1: "supplied via a
     * constant embedded within the jump opcode").  N-Trace table 2 gives
     * every jalr an uninferable itype (8, 12, 13 or 14), and its encoder
     * reports the target. */
    bool jalr_x0_inferable;
    /* N-Trace table 4: a co-routine swap (itype 12) pops the return stack
     * and pushes its own link ("Pop,Push").  E-Trace 11.1 takes returns
     * only implicitly (is_implicit_return), so a swap's target is always
     * reported and it leaves the stack alone (is_call of 4.1.1: calls are
     * not swaps). */
    bool swap_pops_pushes;
} rvt_flow_rules;

/* The two protocols' rules (constants, so the predicates fold). */
static const rvt_flow_rules rvt_flow_rules_etrace = { .jalr_x0_inferable = true,
                                                      .swap_pops_pushes = false };
static const rvt_flow_rules rvt_flow_rules_ntrace = { .jalr_x0_inferable = false,
                                                      .swap_pops_pushes = true };

/* A conditional branch (E-Trace 11.1 is_branch; N-Trace itype 4/5). */
static inline bool rvt_flow_is_branch(const rvt_insn *i)
{
    return i->jclass == RVT_JC_BRANCH;
}

/* No control transfer at all: the next instruction follows in memory.
 * ecall/ebreak have no jclass but trap (E-Trace 11.1 is_uninferable_discon,
 * N-Trace table 3 itype 1); an illegal encoding traps too. */
static inline bool rvt_flow_is_plain(const rvt_insn *i)
{
    return i->jclass == RVT_JC_NONE && i->op != RVT_OP_ECALL && i->op != RVT_OP_EBREAK &&
           i->op != RVT_OP_ILLEGAL;
}

/* A jump whose target the image gives (jal, c.jal, c.j; see the rules for
 * jalr with rs1 = x0). */
static inline bool rvt_flow_is_inferable_jump(const rvt_insn *i, const rvt_flow_rules *r)
{
    return i->op == RVT_OP_JAL || (r->jalr_x0_inferable && i->op == RVT_OP_JALR && i->rs1 == 0);
}

/* The target of an inferable jump at pc, before any address-width mask. */
static inline uint64_t rvt_flow_inferable_target(const rvt_insn *i, uint64_t pc)
{
    return i->op == RVT_OP_JAL ? pc + (uint64_t)i->imm : (uint64_t)i->imm & ~1ull;
}

/* A jump whose target only the trace gives (E-Trace 11.1
 * is_uninferable_jump), unless a lui/auipc just before it does
 * (flow_seq.h) or the return stack predicts it. */
static inline bool rvt_flow_is_uninferable_jump(const rvt_insn *i, const rvt_flow_rules *r)
{
    return i->op == RVT_OP_JALR && !(r->jalr_x0_inferable && i->rs1 == 0);
}

/* E-Trace 11.1 is_uninferable_discon: an uninferable jump, a trap return
 * or an instruction that traps (N-Trace table 3: itypes 1, 3 and 6). */
static inline bool rvt_flow_is_uninferable_discon(const rvt_insn *i, const rvt_flow_rules *r)
{
    return rvt_flow_is_uninferable_jump(i, r) || i->op == RVT_OP_MRET || i->op == RVT_OP_SRET ||
           i->op == RVT_OP_ECALL || i->op == RVT_OP_EBREAK;
}

/* Pushes its link (pc + len) on the return stack: a call (4.1.1, N-Trace
 * table 4 itypes 8/9), tail calls excluded; a swap where the rules say so. */
static inline bool rvt_flow_is_call(const rvt_insn *i, const rvt_flow_rules *r)
{
    return i->jclass == RVT_JC_CALL_INF || i->jclass == RVT_JC_CALL_UNINF ||
           (r->swap_pops_pushes && i->jclass == RVT_JC_SWAP);
}

/* Pops the return stack (a target the stack may predict): a return
 * (4.1.1, N-Trace table 4 itype 13); a swap where the rules say so. */
static inline bool rvt_flow_is_return(const rvt_insn *i, const rvt_flow_rules *r)
{
    return i->jclass == RVT_JC_RETURN || (r->swap_pops_pushes && i->jclass == RVT_JC_SWAP);
}

#endif
