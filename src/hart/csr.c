/* Zicsr and the machine/supervisor CSRs (priv 1.12 ch. 2-4).  A CSR that
 * does not exist, is above the current privilege, or is read-only and
 * written raises an illegal-instruction exception (priv 2.1). */
#include "hart_int.h"

#define SSTATUS_W (MSTATUS_SIE | MSTATUS_SPIE | MSTATUS_SPP | MSTATUS_SUM | MSTATUS_MXR)
#define MSTATUS_W (SSTATUS_W | MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP | MSTATUS_MPRV | \
                   MSTATUS_TVM | MSTATUS_TW | MSTATUS_TSR)
#define MEDELEG_W 0xB3FFull   /* causes 0-9, 12, 13, 15; not ecall from M (priv 3.1.8) */
#define S_IRQS 0x2222ull      /* SSIP, STIP, SEIP, LCOFIP (Sscofpmf) */
#define ALL_IRQS 0x2AAAull
#define ENVCFG_W 1ull         /* FIOM: the only field without a matching extension */
#define LO32 0xffffffffull

void hart_csr_reset(rvt_hart *h)
{
    bool rv64 = h->xlen == 64;
    /* misa: MXL, extensions A, C, I, M, S, U (priv 3.1.1) */
    uint64_t ext = (1u << 0) | (1u << 8) | (1u << 12) | (1u << 18) | (1u << 20);
    if (!h->cfg.no_compressed)
        ext |= 1u << 2;
    if (!h->cfg.no_fp)
        ext |= (1u << 3) | (1u << 5);                 /* D, F */
    h->misa = rv64 ? (2ull << 62) | ext : (1ull << 30) | ext;
    h->mstatus = rv64 ? (2ull << 32) | (2ull << 34) : 0;   /* UXL = SXL = 64 */
    h->satp = 0;
}

/* FS is writable only with F (priv 3.1.6.6: read-only 0 otherwise is a
 * legal choice); SD is read-only: FS == Dirty. */
static uint64_t fs_mask(const rvt_hart *h)
{
    return h->cfg.no_fp ? 0 : MSTATUS_FS;
}

static uint64_t with_sd(const rvt_hart *h, uint64_t st)
{
    st &= ~hart_sd_bit(h);
    return (st & MSTATUS_FS) == MSTATUS_FS ? st | hart_sd_bit(h) : st;
}

/* fflags/frm/fcsr exist with F and are illegal while FS is Off (11.2). */
static bool fp_csr_on(const rvt_hart *h)
{
    return !h->cfg.no_fp && (h->mstatus & MSTATUS_FS);
}

static bool fp_csr_read(const rvt_hart *h, unsigned csr, uint64_t *v)
{
    if (!fp_csr_on(h))
        return false;
    *v = csr == 0x001 ? h->fcsr & 0x1f : csr == 0x002 ? (h->fcsr >> 5) & 7 : h->fcsr & 0xff;
    return true;
}

static bool fp_csr_write(rvt_hart *h, unsigned csr, uint64_t v)
{
    if (!fp_csr_on(h))
        return false;
    if (csr == 0x001)
        h->fcsr = (h->fcsr & ~0x1full) | (v & 0x1f);
    else if (csr == 0x002)
        h->fcsr = (h->fcsr & 0x1f) | ((v & 7) << 5);
    else
        h->fcsr = v & 0xff;
    hart_fs_dirty(h);
    return true;
}

static uint64_t epc_mask(const rvt_hart *h)
{
    return h->cfg.no_compressed ? ~3ull : ~1ull;
}

static bool counter_enabled(const rvt_hart *h, unsigned csr)
{
    unsigned bit = csr & 31;
    if (h->priv == PRV_M)
        return true;
    if (!((h->mcounteren >> bit) & 1))
        return false;
    return h->priv == PRV_S || ((h->scounteren >> bit) & 1);
}

static uint64_t counter_value(const rvt_hart *h, unsigned idx)
{
    return idx == 1 ? hart_mtime(h) : hart_counter_get(h, idx);   /* pmu_csr.c */
}

static bool tvm_trap(const rvt_hart *h)
{
    return h->priv == PRV_S && (h->mstatus & MSTATUS_TVM);
}

/* Returns false when the CSR does not exist for this hart / privilege. */
static bool csr_read(const rvt_hart *h, unsigned csr, uint64_t *v)
{
    bool rv32 = h->xlen == 32;
    if ((csr >= 0xC00 && csr <= 0xC1F) || (rv32 && csr >= 0xC80 && csr <= 0xC9F)) {
        if (!counter_enabled(h, csr))
            return false;
        uint64_t c = counter_value(h, csr & 31);
        *v = csr >= 0xC80 ? c >> 32 : c;
        return true;
    }
    if ((csr >= 0xB00 && csr <= 0xB1F) || (rv32 && csr >= 0xB80 && csr <= 0xB9F)) {
        if ((csr & 31) == 1)
            return false;   /* there is no mtime CSR */
        uint64_t c = counter_value(h, csr & 31);
        *v = csr >= 0xB80 ? c >> 32 : c;
        return true;
    }
    if (csr >= 0x3A0 && csr <= 0x3AF) {
        if (!rv32 && (csr & 1))
            return false;
        *v = hart_pmpcfg_read(h, csr - 0x3A0);   /* pmp.c */
        return true;
    }
    if (csr >= 0x3B0 && csr <= 0x3EF) { *v = h->pmpaddr[csr - 0x3B0]; return true; }
    switch (csr) {
    case 0x001: case 0x002: case 0x003: return fp_csr_read(h, csr, v);
    case 0x100: *v = h->mstatus & (SSTATUS_W | MSTATUS_UXL | MSTATUS_FS | hart_sd_bit(h)); return true;
    case 0x104: *v = h->mie & h->mideleg; return true;
    case 0x105: *v = h->stvec; return true;
    case 0x106: *v = h->scounteren; return true;
    case 0x10A: *v = h->senvcfg; return true;
    case 0x140: *v = h->sscratch; return true;
    case 0x141: *v = h->sepc & epc_mask(h); return true;
    case 0x142: *v = h->scause; return true;
    case 0x143: *v = h->stval; return true;
    case 0x144: *v = hart_mip(h) & h->mideleg; return true;
    case 0x180: if (tvm_trap(h)) return false; *v = h->satp; return true;
    case 0xF11: case 0xF12: case 0xF13: case 0xF15: *v = 0; return true;
    case 0xF14: *v = h->cfg.hartid; return true;
    case 0x300: *v = h->mstatus; return true;
    case 0x301: *v = h->misa; return true;
    case 0x302: *v = h->medeleg; return true;
    case 0x303: *v = h->mideleg; return true;
    case 0x304: *v = h->mie; return true;
    case 0x305: *v = h->mtvec; return true;
    case 0x306: *v = h->mcounteren; return true;
    case 0x30A: *v = h->menvcfg; return true;
    case 0x310: case 0x31A: if (!rv32) return false; *v = 0; return true;   /* mstatush, menvcfgh */
    case 0x320: *v = h->mcountinhibit; return true;
    case 0x340: *v = h->mscratch; return true;
    case 0x341: *v = h->mepc & epc_mask(h); return true;
    case 0x342: *v = h->mcause; return true;
    case 0x343: *v = h->mtval; return true;
    case 0x344: *v = hart_mip(h); return true;
    default:   /* Sdtrig (trigger.c), CTR, Sscsrind, PMU */
        return hart_trig_csr_read(h, csr, v) || hart_ext_csr_read(h, csr, v);
    }
}

/* WARL: modes 0 (direct) and 1 (vectored) only (priv 3.1.7). */
static uint64_t tvec_legal(uint64_t old, uint64_t v)
{
    return (v & 3) >= 2 ? old : v;
}

/* A counter write: low/high half on RV32 (priv 3.1.11). */
static uint64_t counter_write(const rvt_hart *h, unsigned csr, uint64_t cur, uint64_t v)
{
    if (h->xlen == 64)
        return v;
    return csr >= 0xB80 ? (cur & LO32) | (v << 32) : (cur & ~LO32) | (v & LO32);
}

static bool csr_write_counters(rvt_hart *h, unsigned csr, uint64_t v)
{
    unsigned idx = csr & 31;
    if (idx == 1)
        return false;
    hart_counter_set(h, idx, counter_write(h, csr, counter_value(h, idx), v));
    return true;
}

static uint64_t mstatus_write(const rvt_hart *h, uint64_t v)
{
    uint64_t old = h->mstatus;
    if (((v & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT) == 2)     /* reserved: keep */
        v = (v & ~MSTATUS_MPP) | (old & MSTATUS_MPP);
    uint64_t w = MSTATUS_W | fs_mask(h);
    return with_sd(h, (old & ~w) | (v & w));
}

static bool csr_write(rvt_hart *h, unsigned csr, uint64_t v)
{
    bool rv32 = h->xlen == 32;
    if ((csr >= 0xB00 && csr <= 0xB1F) || (rv32 && csr >= 0xB80 && csr <= 0xB9F))
        return csr_write_counters(h, csr, v);
    if (csr >= 0x3A0 && csr <= 0x3AF) {
        if (!rv32 && (csr & 1))
            return false;
        hart_pmpcfg_write(h, csr - 0x3A0, v);   /* pmp.c: enforced, L bit */
        return true;
    }
    if (csr >= 0x3B0 && csr <= 0x3EF) {
        hart_pmpaddr_write(h, csr - 0x3B0, v);
        return true;
    }
    switch (csr) {
    case 0x001: case 0x002: case 0x003: return fp_csr_write(h, csr, v);
    case 0x100: {
        uint64_t w = SSTATUS_W | fs_mask(h);
        h->mstatus = with_sd(h, (h->mstatus & ~w) | (v & w));
        return true;
    }
    case 0x104: h->mie = (h->mie & ~h->mideleg) | (v & h->mideleg & ALL_IRQS); return true;
    case 0x105: h->stvec = tvec_legal(h->stvec, v); return true;
    case 0x106: h->scounteren = v & LO32; return true;
    case 0x10A: h->senvcfg = v & ENVCFG_W; return true;
    case 0x140: h->sscratch = v; return true;
    case 0x141: h->sepc = v & epc_mask(h); return true;
    case 0x142: h->scause = v; return true;
    case 0x143: h->stval = v; return true;
    case 0x144: {
        uint64_t m = h->mideleg & ((1ull << IRQ_SSI) | (1ull << IRQ_LCOFI));   /* SSIP, LCOFIP via sip */
        h->mip = (h->mip & ~m) | (v & m);
        return true;
    }
    case 0x180:
        if (tvm_trap(h))
            return false;
        hart_satp_write(h, v);      /* mmu.c: WARL MODE, TLB */
        return true;
    case 0x300: h->mstatus = mstatus_write(h, v); return true;
    case 0x301: return true;        /* misa: WARL, fixed */
    case 0x302: h->medeleg = v & MEDELEG_W; return true;
    case 0x303: h->mideleg = v & S_IRQS; return true;
    case 0x304: h->mie = v & ALL_IRQS; return true;
    case 0x305: h->mtvec = tvec_legal(h->mtvec, v); return true;
    case 0x306: h->mcounteren = v & LO32; return true;
    case 0x30A: h->menvcfg = v & ENVCFG_W; return true;
    case 0x310: case 0x31A: return rv32;
    case 0x320: hart_inhibit_write(h, v); return true;   /* pmu_csr.c */
    case 0x340: h->mscratch = v; return true;
    case 0x341: h->mepc = v & epc_mask(h); return true;
    case 0x342: h->mcause = v; return true;
    case 0x343: h->mtval = v; return true;
    case 0x344: h->mip = (h->mip & ~S_IRQS) | (v & S_IRQS); return true;
    default:   /* Sdtrig (trigger.c), CTR, Sscsrind, PMU */
        return hart_trig_csr_write(h, csr, v) || hart_ext_csr_write(h, csr, v);
    }
}

bool hart_csr_access(rvt_hart *h, unsigned csr, bool write, uint64_t *v)
{
    if (!write)
        return csr_read(h, csr, v);
    bool ok = csr_write(h, csr, *v);
    hart_recheck(h);
    return ok;
}

/* csrrw/csrrs/csrrc and the immediate forms (Zicsr 9.1): rs1=x0 / uimm=0
 * set/clear forms do not write, so they may read read-only CSRs. */
int hart_csr_op(rvt_hart *h, const hart_op *o, uint64_t pc)
{
    unsigned csr = o->csr, op = o->op;
    bool imm = op >= RVT_OP_CSRRWI;
    unsigned kind = imm ? op - RVT_OP_CSRRWI : op - RVT_OP_CSRRW;   /* 0 rw, 1 rs, 2 rc */
    uint64_t xmask = h->xlen == 32 ? LO32 : UINT64_MAX;
    uint64_t src = imm ? (uint64_t)o->imm & 31 : h->x[o->rs1];
    bool writes = kind == 0 || (imm ? src != 0 : o->rs1 != 0);
    if (((csr >> 8) & 3) > h->priv || (writes && (csr >> 10) == 3))
        return CAUSE_ILLEGAL + 1;
    uint64_t old;
    if (!csr_read(h, csr, &old))
        return CAUSE_ILLEGAL + 1;
    old &= xmask;
    uint64_t base = old;
    if (csr == 0x344)   /* priv 3.1.9: only the software SEIP bit takes part in csrrs/csrrc */
        base = (old & ~(1ull << IRQ_SEI)) | (h->mip & (1ull << IRQ_SEI));
    uint64_t nv = kind == 0 ? src : kind == 1 ? (base | src) : (base & ~src);
    if (writes) {
        if (!csr_write(h, csr, nv & xmask))
            return CAUSE_ILLEGAL + 1;
        if ((csr & ~0x80u) == 0xB00 || (csr & ~0x80u) == 0xB02)
            hart_counter_written(h, csr & 31);   /* pmu_csr.c: not counting itself */
        hart_recheck(h);
    }
    if (o->rd)
        h->x[o->rd] = old;
    if (h->data_on)
        hart_drec(h, pc, RVT_DTYPE_CSR_RW + kind, csr, h->xlen / 8,
                  writes ? nv & xmask : old, old, 0);
    return 0;
}
