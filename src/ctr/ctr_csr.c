/* CTR chapter 2 and 3: the control/status CSRs and the entry registers
 * behind *ireg (WARL legalisation, S-mode views, RV32 halves, CLR). */
#include <stdlib.h>
#include <string.h>
#include "ctr_int.h"

#define LO32 0xffffffffull
/* Implemented ctrcontrol fields (CTR 2.1): everything the draft defines. */
#define CTL_FILTERS (0xFF00ull << 32 | 0x7Eull << 32)   /* bits 47:40 and 38:33 */
#define CTL_COMMON (RVT_CTRCTL_RASEMU | RVT_CTRCTL_BPFRZ | RVT_CTRCTL_LCOFIFRZ | \
                    RVT_CTRCTL_DEPTH | CTL_FILTERS)
/* CTR 3.3: ctrdata TYPE, CCV and CC */
#define DATA_W (RVT_CTRDATA_TYPE | RVT_CTRDATA_CCV | (0xFFFFull << RVT_CTRDATA_CC_SHIFT))

rvt_ctr *rvt_ctr_new(const rvt_ctr_cfg *cfg)
{
    rvt_ctr *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    if (cfg)
        c->cfg = *cfg;
    if (c->cfg.mxlen != 32)
        c->cfg.mxlen = 64;
    c->xmask = c->cfg.mxlen == 32 ? LO32 : UINT64_MAX;
    return c;
}

void rvt_ctr_free(rvt_ctr *c)
{
    free(c);
}

/* Fields writable through mctrcontrol. */
static uint64_t m_mask(const rvt_ctr *c)
{
    uint64_t m = CTL_COMMON | RVT_CTRCTL_M | RVT_CTRCTL_MTE;
    if (!c->cfg.no_smode)
        m |= RVT_CTRCTL_S | RVT_CTRCTL_STE;
    if (!c->cfg.no_umode)
        m |= RVT_CTRCTL_U;
    return m;
}

/* CTR 2.2: sctrcontrol reads M and MTE as 0 and cannot write them. */
static uint64_t s_mask(const rvt_ctr *c)
{
    return m_mask(c) & ~(RVT_CTRCTL_M | RVT_CTRCTL_MTE);
}

bool rvt_ctr_is_csr(const rvt_ctr *c, unsigned csr)
{
    bool rv32 = c->cfg.mxlen == 32;
    switch (csr) {
    case RVT_CSR_SCTRCONTROL: case RVT_CSR_SCTRSTATUS:
        return !c->cfg.no_smode;
    case RVT_CSR_SCTRCONTROLH:
        return rv32 && !c->cfg.no_smode;
    case RVT_CSR_MCTRCONTROL: case RVT_CSR_MCTRSTATUS:
        return true;
    case RVT_CSR_MCTRCONTROLH:
        return rv32;
    default:
        return false;   /* vsctrcontrol(h): no H extension (CTR 2.3) */
    }
}

/* The view of ctrcontrol a CSR number gives: mask and RV32 half. */
static uint64_t view_mask(const rvt_ctr *c, unsigned csr, unsigned *shift)
{
    bool hi = csr == RVT_CSR_MCTRCONTROLH || csr == RVT_CSR_SCTRCONTROLH;
    bool s = csr == RVT_CSR_SCTRCONTROL || csr == RVT_CSR_SCTRCONTROLH;
    *shift = hi ? 32 : 0;
    uint64_t m = s ? s_mask(c) : m_mask(c);
    if (c->cfg.mxlen == 32)
        m &= hi ? ~LO32 : LO32;
    return m;
}

int rvt_ctr_csr_read(const rvt_ctr *c, unsigned csr, uint64_t *v)
{
    if (!rvt_ctr_is_csr(c, csr))
        return RVT_ERR_INVAL;
    if (csr == RVT_CSR_MCTRSTATUS || csr == RVT_CSR_SCTRSTATUS) {
        *v = c->status;
        return RVT_OK;
    }
    unsigned shift;
    uint64_t m = view_mask(c, csr, &shift);
    *v = (c->control & m) >> shift;
    return RVT_OK;
}

/* CTR 2.1 DEPTH is WARL over 0000/0001/0011/0111/1111: docs/ctr.md, a
 * written value keeps its run of ones from bit 0 (0010 -> 0000, 1011 -> 0011). */
static uint64_t legal_depth(uint64_t control)
{
    unsigned d = (unsigned)((control & RVT_CTRCTL_DEPTH) >> RVT_CTRCTL_DEPTH_SHIFT);
    unsigned ones = (unsigned)__builtin_ctz(~d);
    return (control & ~RVT_CTRCTL_DEPTH) | ((uint64_t)((1u << ones) - 1u) << RVT_CTRCTL_DEPTH_SHIFT);
}

void ctr_clear(rvt_ctr *c)
{
    memset(c->e, 0, sizeof c->e);
    memset(c->elapsed, 0, sizeof c->elapsed);
    c->status = 0;
}

static void write_control(rvt_ctr *c, unsigned csr, uint64_t v)
{
    unsigned shift;
    uint64_t m = view_mask(c, csr, &shift);
    uint64_t nv = (c->control & ~m) | ((v << shift) & m);
    c->control = legal_depth(nv) & ~RVT_CTRCTL_CLR;
    /* CTR 2.4: WRPTR bits above depth-1 are read-only 0 */
    c->status &= ~(uint64_t)(RVT_CTRSTS_WRPTR & ~(uint64_t)(ctr_depth_of(c->control) - 1));
    /* CTR 2.1: CLR zeroes the entries and mctrstatus */
    if (((v << shift) & RVT_CTRCTL_CLR) && !(csr == RVT_CSR_MCTRCONTROLH || csr == RVT_CSR_SCTRCONTROLH))
        ctr_clear(c);
    /* CTR 5.3: a write to ctrcontrol clears CCV of the next record */
    c->ccv_lost = true;
}

int rvt_ctr_csr_write(rvt_ctr *c, unsigned csr, uint64_t v, unsigned priv, uint64_t now)
{
    if (!rvt_ctr_is_csr(c, csr))
        return RVT_ERR_INVAL;
    ctr_account(c, priv, now);
    if (csr == RVT_CSR_MCTRSTATUS || csr == RVT_CSR_SCTRSTATUS) {
        uint64_t w = RVT_CTRSTS_WRAP | RVT_CTRSTS_FROZEN | (ctr_depth_of(c->control) - 1u);
        c->status = v & w;
        return RVT_OK;
    }
    write_control(c, csr, v);
    return RVT_OK;
}

unsigned rvt_ctr_depth(const rvt_ctr *c)
{
    return ctr_depth_of(c->control);
}

uint64_t rvt_ctr_control(const rvt_ctr *c) { return c->control; }
uint64_t rvt_ctr_status(const rvt_ctr *c) { return c->status; }

/* Physical entry of logical entry i (i < depth): WRPTR-1-i mod depth. */
static unsigned phys(const rvt_ctr *c, unsigned i)
{
    unsigned depth = ctr_depth_of(c->control);
    return ((unsigned)(c->status & RVT_CTRSTS_WRPTR) - 1u - i) & (depth - 1u);
}

int rvt_ctr_get(const rvt_ctr *c, unsigned i, rvt_ctr_entry *out)
{
    if (i >= ctr_depth_of(c->control))
        return RVT_ERR_INVAL;
    *out = c->e[phys(c, i)];
    return (int)(out->source & 1);
}

int rvt_ctr_ireg_read(const rvt_ctr *c, unsigned sel, unsigned reg, uint64_t *v)
{
    if (sel < RVT_CTR_ISEL_FIRST || sel > RVT_CTR_ISEL_LAST || reg < 1 || reg > 6)
        return RVT_ERR_INVAL;
    unsigned i = sel - RVT_CTR_ISEL_FIRST;
    *v = 0;
    if (i >= ctr_depth_of(c->control) || reg > 3)
        return RVT_OK;   /* CTR 2.1 / 3: read-only 0 */
    const rvt_ctr_entry *e = &c->e[phys(c, i)];
    *v = reg == 1 ? e->source : reg == 2 ? e->target : e->data;
    return RVT_OK;
}

int rvt_ctr_ireg_write(rvt_ctr *c, unsigned sel, unsigned reg, uint64_t v)
{
    if (sel < RVT_CTR_ISEL_FIRST || sel > RVT_CTR_ISEL_LAST || reg < 1 || reg > 6)
        return RVT_ERR_INVAL;
    unsigned i = sel - RVT_CTR_ISEL_FIRST;
    if (i >= ctr_depth_of(c->control) || reg > 3)
        return RVT_OK;
    unsigned p = phys(c, i);
    rvt_ctr_entry *e = &c->e[p];
    if (reg == 1)
        e->source = v & c->xmask;
    else if (reg == 2)
        e->target = v & c->xmask & ~1ull;    /* MISP reads 0: no predictor */
    else
        e->data = v & DATA_W;
    c->elapsed[p] = rvt_ctr_cc_decode((unsigned)(e->data >> RVT_CTRDATA_CC_SHIFT));
    return RVT_OK;
}
