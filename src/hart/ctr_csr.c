/* The hart's CTR CSRs (CTR 2.6) and the Smcsrind/Sscsrind indirect
 * interface that reaches the entry registers (CTR 3): miselect/siselect
 * and mireg1-6 / sireg1-6 with *iselect in 0x200..0x2FF.  Other *iselect values
 * name nothing here (no AIA), so *ireg access with them is illegal. */
#include "hart_int.h"

#define ISELECT_W 0xFFFull    /* Smcsrind: at least 0..0xFFF; docs/ctr.md */

/* *ireg number: ireg 1..3 at +1..+3, ireg4..6 at +5..+7 (Smcsrind). */
static unsigned ireg_of(unsigned csr, unsigned base)
{
    unsigned d = csr - base;
    return d >= 1 && d <= 3 ? d : d >= 5 && d <= 7 ? d - 1 : 0;
}

static bool ireg_sel(const rvt_hart *h, unsigned csr, uint64_t *sel, unsigned *reg)
{
    if (csr > 0x350 && csr <= 0x357) {
        *sel = h->miselect;
        *reg = ireg_of(csr, 0x350);
    } else if (csr > 0x150 && csr <= 0x157) {
        *sel = h->siselect;
        *reg = ireg_of(csr, 0x150);
    } else {
        return false;
    }
    return *reg != 0;
}

bool hart_ctr_csr_read(const rvt_hart *h, unsigned csr, uint64_t *v)
{
    uint64_t sel;
    unsigned reg;
    if (csr == 0x350) { *v = h->miselect; return true; }
    if (csr == 0x150) { *v = h->siselect; return true; }
    if (ireg_sel(h, csr, &sel, &reg))
        return rvt_ctr_ireg_read(h->ctr, (unsigned)sel, reg, v) == RVT_OK;
    if (rvt_ctr_is_csr(h->ctr, csr))
        return rvt_ctr_csr_read(h->ctr, csr, v) == RVT_OK;
    return false;
}

bool hart_ctr_csr_write(rvt_hart *h, unsigned csr, uint64_t v)
{
    uint64_t sel;
    unsigned reg;
    if (csr == 0x350) { h->miselect = v & ISELECT_W; return true; }
    if (csr == 0x150) { h->siselect = v & ISELECT_W; return true; }
    if (ireg_sel(h, csr, &sel, &reg))
        return rvt_ctr_ireg_write(h->ctr, (unsigned)sel, reg, v) == RVT_OK;
    if (!rvt_ctr_is_csr(h->ctr, csr))
        return false;
    rvt_ctr_csr_write(h->ctr, csr, v, h->priv, h->cycles);
    hart_obs_update(h);
    return true;
}
