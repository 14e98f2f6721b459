/* From a retired instruction (and where execution went next) to an
 * E-Trace single-retirement block (4.2, table 4.3), shared by the Spike
 * and PC-list importers. */
#include <string.h>
#include "ingress/import_internal.h"

void imp_decode(const imp *m, uint32_t raw, rvt_insn *in)
{
    memset(in, 0, sizeof *in);
    rvt_isa_decode(raw, m->xlen, in);
    if (in->len < 2)
        in->len = 4;   /* reserved >= 80-bit encodings: assume a word */
}

static unsigned lastsize(const rvt_insn *in)
{
    /* ilastsize: the instruction is 2^ilastsize half-words */
    return in->len >= 8 ? 2 : in->len >= 4 ? 1 : 0;
}

/* E-Trace 4.1.1: a jump whose target comes from the register an
 * immediately preceding lui/c.lui/auipc wrote is sequentially inferable. */
static bool seq_inferable(const imp_flow *fl, const rvt_insn *in, unsigned itype)
{
    bool uninf = itype == RVT_ITYPE_UNINF_JUMP3 || (itype >= RVT_ITYPE_UNINF_CALL &&
                 itype <= RVT_ITYPE_UNINF_JUMP && itype != RVT_ITYPE_INF_CALL &&
                 itype != RVT_ITYPE_INF_TAIL);
    return uninf && fl->have_prev && (fl->prev.op == RVT_OP_LUI || fl->prev.op == RVT_OP_AUIPC) &&
           fl->prev.rd != 0 && fl->prev.rd == in->rs1;
}

static void base_block(const rvt_insn *in, uint64_t pc, unsigned priv, rvt_irec *r)
{
    memset(r, 0, sizeof *r);
    r->iaddr = pc;
    r->priv = (uint8_t)priv;
    r->iretire = in->len / 2u;
    r->ninstr = 1;
    r->ilastsize = (uint8_t)lastsize(in);
}

void imp_block(imp_flow *fl, const rvt_insn *in, uint64_t pc, unsigned priv, bool has_next,
               uint64_t next, rvt_irec *r)
{
    base_block(in, pc, priv, r);
    bool taken = has_next && next != pc + in->len;
    r->itype = (uint8_t)rvt_isa_itype(in, taken);
    r->sijump = seq_inferable(fl, in, r->itype);
    fl->prev = *in;
    fl->have_prev = true;
}

bool imp_retires_on_trap(const rvt_insn *in)
{
    return in->op == RVT_OP_ECALL || in->op == RVT_OP_EBREAK;
}

void imp_trap_block(imp_flow *fl, const rvt_insn *in, uint64_t pc, unsigned priv, bool retired,
                    bool interrupt, uint64_t cause, uint64_t tval, rvt_irec *r)
{
    base_block(in, pc, priv, r);
    if (!retired) {
        r->iretire = 0;
        r->ninstr = 0;
    }
    r->itype = interrupt ? RVT_ITYPE_INTERRUPT : RVT_ITYPE_EXCEPTION;
    r->cause = (uint16_t)cause;
    r->tval = tval;
    fl->have_prev = false;   /* the handler does not continue a lui/auipc pair */
}
