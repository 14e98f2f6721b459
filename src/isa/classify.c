/* Control-transfer classification, E-Trace 4.1.1 "Jump classification and
 * target inference", and the itype codes of table 4.1.  The calling
 * convention names x1 (ra) and x5 (t0) as link registers. */
#include "isa/isa_internal.h"

static bool is_link(unsigned reg) { return reg == 1 || reg == 5; }

/* jalr rd, rs1 (c.jr rs1 = jalr x0,rs1; c.jalr rs1 = jalr x1,rs1).  Checked
 * in this order so each 4.1.1 rule applies literally:
 *   swap:   jalr x1,x5 / jalr x5,x1 (c.jalr x5)  - both links, different;
 *   call:   jalr x1,rs (rs != x5) / jalr x5,rs (rs != x1) - so jalr x1,x1
 *           and jalr x5,x5 are calls;
 *   return: rs in {x1,x5}, rd not in {x1,x5} (includes jalr x0,x1);
 *   tail:   jalr x0,rs (rs not a link);
 *   other:  the rest. */
static rvt_jclass jalr_class(unsigned rd, unsigned rs1)
{
    if (is_link(rd) && is_link(rs1) && rd != rs1)
        return RVT_JC_SWAP;
    if (is_link(rd))
        return RVT_JC_CALL_UNINF;
    if (is_link(rs1))
        return RVT_JC_RETURN;
    if (rd == 0)
        return RVT_JC_TAIL_UNINF;
    return RVT_JC_JUMP_UNINF;
}

/* jal rd (c.jal = jal x1, c.j = jal x0). */
static rvt_jclass jal_class(unsigned rd)
{
    if (is_link(rd))
        return RVT_JC_CALL_INF;
    if (rd == 0)
        return RVT_JC_TAIL_INF;
    return RVT_JC_JUMP_INF;
}

rvt_jclass rvt_isa_jclass(const rvt_insn *insn)
{
    switch (insn->op) {
    case RVT_OP_JAL: return jal_class(insn->rd);
    case RVT_OP_JALR: return jalr_class(insn->rd, insn->rs1);
    case RVT_OP_BEQ: case RVT_OP_BNE: case RVT_OP_BLT:
    case RVT_OP_BGE: case RVT_OP_BLTU: case RVT_OP_BGEU:
        return RVT_JC_BRANCH;
    case RVT_OP_MRET: case RVT_OP_SRET:
        return RVT_JC_XRET;
    default:
        return RVT_JC_NONE;
    }
}

rvt_itype rvt_isa_itype(const rvt_insn *insn, bool taken)
{
    /* Indexed by rvt_jclass (table 4.1 codes). */
    static const uint8_t code[] = {
        [RVT_JC_NONE] = RVT_ITYPE_NONE,
        [RVT_JC_BRANCH] = RVT_ITYPE_NT_BRANCH,
        [RVT_JC_CALL_INF] = RVT_ITYPE_INF_CALL,
        [RVT_JC_CALL_UNINF] = RVT_ITYPE_UNINF_CALL,
        [RVT_JC_TAIL_INF] = RVT_ITYPE_INF_TAIL,
        [RVT_JC_TAIL_UNINF] = RVT_ITYPE_UNINF_TAIL,
        [RVT_JC_SWAP] = RVT_ITYPE_SWAP,
        [RVT_JC_RETURN] = RVT_ITYPE_RETURN,
        [RVT_JC_JUMP_INF] = RVT_ITYPE_INF_JUMP,
        [RVT_JC_JUMP_UNINF] = RVT_ITYPE_UNINF_JUMP,
        [RVT_JC_XRET] = RVT_ITYPE_XRET,
    };
    unsigned jc = insn->jclass;
    if (jc >= sizeof code)
        return RVT_ITYPE_NONE;
    if (jc == RVT_JC_BRANCH && taken)
        return RVT_ITYPE_T_BRANCH;
    return (rvt_itype)code[jc];
}

/* Table 4.1 with itype_width_p = 3: every uninferable jump (8, 10, 12, 13,
 * 14) is code 6; inferable jumps (9, 11, 15) are not reported (0). */
rvt_itype rvt_isa_itype3(rvt_itype t)
{
    switch (t) {
    case RVT_ITYPE_UNINF_CALL: case RVT_ITYPE_UNINF_TAIL: case RVT_ITYPE_SWAP:
    case RVT_ITYPE_RETURN: case RVT_ITYPE_UNINF_JUMP:
        return RVT_ITYPE_UNINF_JUMP3;
    case RVT_ITYPE_INF_CALL: case RVT_ITYPE_INF_TAIL: case RVT_ITYPE_INF_JUMP:
        return RVT_ITYPE_NONE;
    default:
        return t;
    }
}

bool rvt_isa_is_inferable_jump(const rvt_insn *insn)
{
    return insn->op == RVT_OP_JAL;
}

bool rvt_isa_is_uninferable(const rvt_insn *insn)
{
    return insn->op == RVT_OP_JALR || insn->op == RVT_OP_MRET || insn->op == RVT_OP_SRET;
}

bool rvt_isa_is_branch(const rvt_insn *insn)
{
    return insn->jclass == RVT_JC_BRANCH;
}
