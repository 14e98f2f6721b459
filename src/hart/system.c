/* SYSTEM and fence instructions (unpriv 2.8, priv 3.3): ecall, ebreak,
 * mret, sret, wfi, sfence.vma, fence.i. */
#include "hart_int.h"

/* ecall/ebreak retire and end their block with itype 1 (the ingress
 * convention in rvtrace/ingress.h); xepc is the instruction itself. */
static void retire_trap(rvt_hart *h, const hart_op *o, uint64_t pc, unsigned cause, uint64_t tval)
{
    hart_retire_add(h, pc, o->len, 0);
    hart_block_end(h, RVT_ITYPE_EXCEPTION, cause, tval, false);
    h->st.exceptions++;
    hart_trap_enter(h, false, cause, tval, pc);
    hart_cycle_end(h);
}

/* mret/sret (priv 3.3.2): block ends with itype 3; the cycle ends too since
 * the privilege may change.  The reservation is dropped like on a trap. */
static void xret(rvt_hart *h, const hart_op *o, uint64_t pc, bool m)
{
    hart_retire(h, pc, o->len, 0, RVT_ITYPE_XRET, false);
    uint64_t st = h->mstatus;
    unsigned to, from = h->priv;
    if (m) {
        to = (unsigned)((st & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT);
        st = (st & ~(MSTATUS_MIE | MSTATUS_MPP)) | MSTATUS_MPIE |
             ((st & MSTATUS_MPIE) ? MSTATUS_MIE : 0);
        h->pc = h->mepc;
    } else {
        to = (st & MSTATUS_SPP) ? PRV_S : PRV_U;
        st = (st & ~(MSTATUS_SIE | MSTATUS_SPP)) | MSTATUS_SPIE |
             ((st & MSTATUS_SPIE) ? MSTATUS_SIE : 0);
        h->pc = h->sepc;
    }
    if (to != PRV_M)
        st &= ~MSTATUS_MPRV;
    h->pc &= h->cfg.no_compressed ? ~3ull : ~1ull;
    if (h->xlen == 32)
        h->pc = (uint32_t)h->pc;
    h->mstatus = st;
    h->priv = to;
    h->resv = HART_NO_RESV;
    hart_cycle_end(h);
    hart_recheck(h);
    hart_obs_xret(h, pc, from);   /* CTR (obs.c) */
}

/* wfi (priv 3.3.3): the hart sleeps until (mip & mie) != 0.  One of
 * several harts is parked until then (smp.c).  A hart alone: only the
 * CLINT timer can change mip while it sleeps, so time jumps to mtimecmp. */
static void wfi_sleep(rvt_hart *h, uint64_t pc)
{
    if ((hart_mip(h) & h->mie) || hart_smp_park(h))
        return;
    uint64_t now = hart_mtime(h);
    if (!((h->mie >> IRQ_MTI) & 1) || h->mtimecmp <= now) {
        hart_fatal(h, "wfi at 0x%llx: no enabled interrupt can ever wake the hart "
                   "(mie 0x%llx)", (unsigned long long)pc,
                   (unsigned long long)h->mie);
        return;
    }
    uint64_t d = h->mtimecmp - now;
    h->mtime_off += d;
    h->cycles += d;
}

int hart_system(rvt_hart *h, const hart_op *o, uint64_t pc)
{
    unsigned priv = h->priv;
    uint64_t npc = pc + o->len;
    if (h->xlen == 32)
        npc = (uint32_t)npc;
    switch (o->op) {
    case RVT_OP_ECALL:
        if (h->sbi && priv == PRV_S && hart_sbi_ecall(h, o, pc))
            return 0;
        retire_trap(h, o, pc, priv == PRV_U ? CAUSE_ECALL_U : priv == PRV_S ? CAUSE_ECALL_S
                                                                            : CAUSE_ECALL_M, 0);
        return 0;
    case RVT_OP_EBREAK:
        retire_trap(h, o, pc, CAUSE_BREAKPOINT, pc);   /* xtval = pc, as Spike and QEMU */
        return 0;
    case RVT_OP_MRET:
        if (priv != PRV_M)
            return CAUSE_ILLEGAL + 1;
        xret(h, o, pc, true);
        return 0;
    case RVT_OP_SRET:
        if (priv == PRV_U || (priv == PRV_S && (h->mstatus & MSTATUS_TSR)))
            return CAUSE_ILLEGAL + 1;
        xret(h, o, pc, false);
        return 0;
    case RVT_OP_WFI:
        /* U-mode wfi traps when S exists; TW traps it below M (priv 3.1.6.5) */
        if (priv == PRV_U || (priv < PRV_M && (h->mstatus & MSTATUS_TW)))
            return CAUSE_ILLEGAL + 1;
        h->pc = npc;
        hart_retire(h, pc, o->len, 0, RVT_ITYPE_NONE, false);
        wfi_sleep(h, pc);
        hart_recheck(h);
        return 0;
    case RVT_OP_SFENCE_VMA:
        if (priv == PRV_U || (priv == PRV_S && (h->mstatus & MSTATUS_TVM)))
            return CAUSE_ILLEGAL + 1;
        /* priv 4.2.1: rs1 = x0 all addresses, rs2 = x0 all ASIDs (mmu.c) */
        hart_tlb_flush(h, o->rs1 == 0 && o->rs2 == 0, h->x[o->rs1], o->rs2 != 0,
                       h->x[o->rs2] & (h->xlen == 64 ? 0xffff : 0x1ff));
        break;
    case RVT_OP_FENCE_I:
        h->pc = npc;
        hart_retire(h, pc, o->len, 0, RVT_ITYPE_NONE, false);
        hart_flush_icache(h);   /* o is gone from here on */
        return 0;
    default:
        return CAUSE_ILLEGAL + 1;
    }
    h->pc = npc;
    hart_retire(h, pc, o->len, 0, RVT_ITYPE_NONE, false);
    return 0;
}
