/* Traps (priv 3.1.6-3.1.9, 3.3.1): synchronous exceptions, interrupts with
 * delegation and priority, trap entry, and the run loop's event check. */
#include <stdarg.h>
#include <stdio.h>
#include "hart_int.h"

void hart_fatal(rvt_hart *h, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(h->fatal, sizeof h->fatal, fmt, ap);
    va_end(ap);
    h->stop = RVT_HART_FATAL;   /* the message: rvt_hart_fatal_msg() */
    h->event_at = 0;
}

void hart_recheck(rvt_hart *h)
{
    h->event_at = 0;
    hart_vm_update(h);   /* priv, MPRV/MPP, satp or PMP may have changed */
}

uint64_t hart_mip(const rvt_hart *h)
{
    uint64_t ip = h->mip | h->ext_ip;   /* SEIP: software bit OR the PLIC's (3.1.9) */
    if (h->msip & 1)
        ip |= 1ull << IRQ_MSI;
    if (hart_mtime(h) >= h->mtimecmp)
        ip |= 1ull << IRQ_MTI;
    return ip;
}

static uint64_t cause_bits(const rvt_hart *h, bool irq, unsigned cause)
{
    return (irq ? 1ull << (h->xlen - 1) : 0) | cause;
}

static uint64_t tvec_target(uint64_t tvec, bool irq, unsigned cause)
{
    uint64_t base = tvec & ~3ull;
    /* priv 3.1.7: vectored mode sends interrupts to base + 4*cause */
    return (tvec & 1) && irq ? base + 4ull * cause : base;
}

/* priv 3.1.8: traps from S/U with the medeleg/mideleg bit set go to S. */
void hart_trap_enter(rvt_hart *h, bool irq, unsigned cause, uint64_t tval, uint64_t epc)
{
    uint64_t deleg = irq ? h->mideleg : h->medeleg;
    uint64_t st = h->mstatus;
    unsigned from = h->priv;
    if (h->priv <= PRV_S && ((deleg >> cause) & 1)) {
        h->scause = cause_bits(h, irq, cause);
        h->sepc = epc;
        h->stval = tval;
        st = (st & ~(MSTATUS_SPIE | MSTATUS_SIE | MSTATUS_SPP)) |
             ((st & MSTATUS_SIE) ? MSTATUS_SPIE : 0) | (h->priv == PRV_S ? MSTATUS_SPP : 0);
        h->priv = PRV_S;
        h->pc = tvec_target(h->stvec, irq, cause);
    } else {
        h->mcause = cause_bits(h, irq, cause);
        h->mepc = epc;
        h->mtval = tval;
        st = (st & ~(MSTATUS_MPIE | MSTATUS_MIE | MSTATUS_MPP)) |
             ((st & MSTATUS_MIE) ? MSTATUS_MPIE : 0) | ((uint64_t)h->priv << MSTATUS_MPP_SHIFT);
        h->priv = PRV_M;
        h->pc = tvec_target(h->mtvec, irq, cause);
    }
    h->mstatus = st;
    /* docs/hart.md: a trap drops the LR reservation (priv 3.3.2 allows it) */
    h->resv = HART_NO_RESV;
    hart_recheck(h);
    hart_obs_trap(h, irq, cause, epc, from);   /* CTR, PMU (obs.c) */
}

static bool same_trap_again(rvt_hart *h, uint64_t pc)
{
    if (pc == h->last_trap_pc && h->instret == h->last_trap_instret)
        return ++h->trap_streak >= HART_TRAP_LOOP_MAX;
    h->last_trap_pc = pc;
    h->last_trap_instret = h->instret;
    h->trap_streak = 0;
    return false;
}

/* An instruction that does not retire: it faulted (or could not be
 * fetched).  Ingress: itype 1 on the newest block of the cycle. */
void hart_exception(rvt_hart *h, uint64_t pc, unsigned cause, uint64_t tval)
{
    if (cause != CAUSE_FETCH_ACCESS && cause != CAUSE_FETCH_PAGE) {   /* never fetched */
        h->faulted++;
        if (h->cfg.on_pc)
            h->cfg.on_pc(h->cfg.pc_ctx, pc, false);
    }
    h->st.exceptions++;
    h->trig_pend = 0;   /* no retirement, no trigger pulse (E-Trace 4.2.4) */
    if (same_trap_again(h, pc)) {
        hart_fatal(h, "trap loop: exception cause %u at pc 0x%llx repeats with no "
                   "instruction retired (mtvec 0x%llx, stvec 0x%llx)", cause,
                   (unsigned long long)pc, (unsigned long long)h->mtvec,
                   (unsigned long long)h->stvec);
        return;
    }
    hart_trap_block(h, RVT_ITYPE_EXCEPTION, cause, tval, pc);
    hart_trap_enter(h, false, cause, tval, pc);
}

/* priv 3.1.9: M-level interrupts first (MEI, MSI, MTI, SEI, SSI, STI), an
 * M-level one is enabled below M or with MIE; a delegated one below S or
 * in S with SIE, never in M. */
static int pending_irq(const rvt_hart *h)
{
    static const unsigned order[] = { IRQ_MEI, IRQ_MSI, IRQ_MTI, IRQ_SEI, IRQ_SSI, IRQ_STI,
                                      IRQ_LCOFI };
    uint64_t ip = hart_mip(h) & h->mie;
    if (!ip)
        return -1;
    uint64_t m = ip & ~h->mideleg, s = ip & h->mideleg;
    bool m_en = h->priv < PRV_M || (h->mstatus & MSTATUS_MIE);
    bool s_en = h->priv < PRV_S || (h->priv == PRV_S && (h->mstatus & MSTATUS_SIE));
    uint64_t cand = m_en && m ? m : s_en ? s : 0;
    for (unsigned i = 0; cand && i < sizeof order / sizeof order[0]; i++)
        if ((cand >> order[i]) & 1)
            return (int)order[i];
    return -1;
}

/* Called by the run loop when instret reaches event_at: stop requests,
 * the instruction limit, pending interrupts, and the next timer event. */
int hart_event(rvt_hart *h)
{
    if (h->stop)
        return h->stop;
    if (h->instret >= h->stop_at)
        return h->stop_kind;
    if (h->ctx_switch)          /* satp written (mmu.c) */
        hart_context_switch(h);
    if (h->loop_switch) {       /* CTR/PMU turned on or off (obs.c) */
        h->loop_switch = false;
        return HART_SWITCH;
    }
    int irq = pending_irq(h);
    if (irq >= 0) {
        h->st.interrupts++;
        hart_trap_block(h, RVT_ITYPE_INTERRUPT, (unsigned)irq, 0, h->pc);
        hart_trap_enter(h, true, (unsigned)irq, 0, h->pc);
        return 0;   /* event_at is 0: look again before the handler runs */
    }
    h->event_at = h->stop_at;
    uint64_t now = hart_mtime(h);
    if (h->mtimecmp > now && h->mtimecmp - now < h->event_at - h->instret)
        h->event_at = h->instret + (h->mtimecmp - now);
    return 0;
}
