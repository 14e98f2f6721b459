/* CTR and PMU inside the hart: the objects' lifetime, the choice between
 * the plain and the observing exec loop, and the hooks the loop, the trap
 * path and xRET call.  Disabled, they cost the plain loop nothing (it has
 * no hooks) and the trap path one call. */
#include "hart_int.h"

int hart_ext_new(rvt_hart *h)
{
    rvt_ctr_cfg cc = { .mxlen = h->xlen };
    rvt_pmu_cfg pc = { .tally = h->cfg.pmu_tally };
    h->ctr = rvt_ctr_new(&cc);
    h->pmu = rvt_pmu_new(&pc);
    if (!h->ctr || !h->pmu)
        return RVT_ERR_NOMEM;
    rvt_pmu_set_inhibit(h->pmu, (uint32_t)h->mcountinhibit);
    if (h->cfg.ctr_control)
        rvt_ctr_csr_write(h->ctr, RVT_CSR_MCTRCONTROL, h->cfg.ctr_control, PRV_M, 0);
    if (h->cfg.sbi_pmu) {
        int st = hart_sbi_new(h);
        if (st < 0)
            return st;
    }
    hart_obs_update(h);
    h->loop_switch = false;   /* hart_exec picks the loop at the start */
    return RVT_OK;
}

void hart_ext_free(rvt_hart *h)
{
    rvt_ctr_free(h->ctr);
    rvt_pmu_free(h->pmu);
    rvt_sbi_pmu_free(h->sbi);
}

bool rvt_hart_wants_sbi(const rvt_image *img)
{
    uint64_t a;
    return img && rvt_image_lookup(img, "rvtrace_sbi_firmware", &a);
}

const struct rvt_ctr *rvt_hart_ctr(const rvt_hart *h) { return h->ctr; }
const struct rvt_pmu *rvt_hart_pmu(const rvt_hart *h) { return h->pmu; }

/* After any CTR/PMU/trigger configuration change: pick the loop. */
void hart_obs_update(rvt_hart *h)
{
    bool pmu_was = h->pmu_on;
    h->ctr_on = rvt_ctr_active(h->ctr);
    h->pmu_on = rvt_pmu_active(h->pmu);
    if (h->pmu_on && !pmu_was)
        h->pmu_cycles = h->cycles;
    /* an armed trigger (trigger.c) needs the loop with the trigger checks */
    bool obs = h->ctr_on || h->pmu_on || (h->trig_x | h->trig_ld | h->trig_st);
    if (obs != h->obs) {
        h->obs = obs;
        h->loop_switch = true;
        hart_recheck(h);
    }
}

int hart_exec(rvt_hart *h)
{
    for (;;) {
        int r;
        if (h->cfg.on_commit)   /* the commit loop observes too (HART_OBS) */
            r = h->xlen == 32 ? hart_exec32c(h) : hart_exec64c(h);
        else if (h->obs)
            r = h->xlen == 32 ? hart_exec32_obs(h) : hart_exec64_obs(h);
        else
            r = h->xlen == 32 ? hart_exec32(h) : hart_exec64(h);
        if (r != HART_SWITCH)
            return r;
    }
}

/* Sscofpmf: an overflow with OF clear makes the LCOFI pending. */
static void pmu_count(rvt_hart *h, unsigned priv, uint32_t mask)
{
    uint64_t cyc = h->cycles - h->pmu_cycles;
    h->pmu_cycles = h->cycles;
    if (rvt_pmu_count(h->pmu, priv, mask, cyc)) {
        h->mip |= 1ull << IRQ_LCOFI;
        hart_recheck(h);
    }
}

/* A retired instruction other than a SYSTEM one (observing loop). */
void hart_obs_retire(rvt_hart *h, unsigned op, unsigned itype, uint64_t pc, uint64_t npc)
{
    if (itype && h->ctr_on) {
        rvt_ctr_xfer x = { pc, npc, itype, h->priv, h->priv, 0 };
        rvt_ctr_transfer(h->ctr, &x, h->cycles);
    }
    if (h->pmu_on)
        pmu_count(h, h->priv, rvt_pmu_op_events(op, itype));
}

/* A retired SYSTEM instruction; its traps and xRETs reach CTR through
 * hart_obs_trap / hart_obs_xret. */
void hart_obs_sys(rvt_hart *h, unsigned op, unsigned priv)
{
    if (h->pmu_on)
        pmu_count(h, priv, rvt_pmu_op_events(op, 0));
}

/* SBI PMU firmware events 0-4 (sbi-pmu-extension.txt): the exceptions that
 * reach M-mode firmware from S or U. */
static int fw_event_of(unsigned cause)
{
    switch (cause) {
    case CAUSE_MISALIGNED_LOAD: return 0;
    case CAUSE_MISALIGNED_STORE: return 1;
    case CAUSE_LOAD_ACCESS: return 2;
    case CAUSE_STORE_ACCESS: return 3;
    case CAUSE_ILLEGAL: return 4;
    default: return -1;
    }
}

void hart_obs_trap(rvt_hart *h, bool irq, unsigned cause, uint64_t epc, unsigned from)
{
    if (h->pmu_on)
        pmu_count(h, from, 1u << (irq ? RVT_PMU_EV_INTERRUPTS : RVT_PMU_EV_EXCEPTIONS));
    /* CTR 5.5: traps can freeze CTR even while it records nothing */
    rvt_ctr_xfer x = { epc, h->pc, irq ? RVT_CTR_INTERRUPT : RVT_CTR_EXCEPTION, from, h->priv,
                       cause };
    rvt_ctr_transfer(h->ctr, &x, h->cycles);
    int fw = irq ? -1 : fw_event_of(cause);
    if (h->sbi && fw >= 0 && from != PRV_M && h->priv == PRV_M)
        rvt_sbi_pmu_fw_event(h->sbi, (unsigned)fw);
}

void hart_obs_xret(rvt_hart *h, uint64_t pc, unsigned from)
{
    if (!h->ctr_on)
        return;
    rvt_ctr_xfer x = { pc, h->pc, RVT_CTR_TRAP_RETURN, from, h->priv, 0 };
    rvt_ctr_transfer(h->ctr, &x, h->cycles);
}
