/* Tandem-verifier access to the hart (TV spec Appendix A: read and write
 * state, registers and memory).  Registers are addressed as in the TV
 * trace (TV spec ch. 3 notes: the debug-spec space, CSRs 0x000-0xfff and
 * GPRs 0x1000-0x101f).  The CSR table is shared with commit.c, which
 * reports the CSRs whose storage changed. */
#include <stddef.h>
#include "hart_int.h"
#include "tvif.h"

#define F(a, f) { a, offsetof(struct rvt_hart, f) }
/* docs/tv.md: sstatus/sie/sip are views of mstatus/mie/mip and are not
 * listed; mip is its software-writable part (the timer and software
 * interrupt bits come from the CLINT). */
const hart_tv_csr hart_tv_csrs[] = {
    F(0x300, mstatus), F(0x301, misa), F(0x302, medeleg), F(0x303, mideleg),
    F(0x304, mie), F(0x305, mtvec), F(0x306, mcounteren), F(0x30A, menvcfg),
    F(0x320, mcountinhibit), F(0x340, mscratch), F(0x341, mepc), F(0x342, mcause),
    F(0x343, mtval), F(0x344, mip), F(0x105, stvec), F(0x106, scounteren),
    F(0x10A, senvcfg), F(0x140, sscratch), F(0x141, sepc), F(0x142, scause),
    F(0x143, stval), F(0x180, satp),
};
const size_t hart_tv_ncsrs = sizeof hart_tv_csrs / sizeof hart_tv_csrs[0];
#undef F

static uint64_t *field(rvt_hart *h, size_t i)
{
    return (uint64_t *)((char *)h + hart_tv_csrs[i].off);
}

static int table_index(unsigned addr)
{
    for (size_t i = 0; i < hart_tv_ncsrs; i++)
        if (hart_tv_csrs[i].addr == addr)
            return (int)i;
    return -1;
}

/* mcycle/minstret (and their RV32 high halves): a counter plus an offset. */
static bool counter_ref(rvt_hart *h, unsigned addr, uint64_t **off, uint64_t *base)
{
    unsigned lo = addr >= 0xB80 ? addr - 0x80 : addr;
    if (addr >= 0xB80 && h->xlen != 32)
        return false;
    if (lo == 0xB00) { *off = &h->cycle_off; *base = h->cycles; return true; }
    if (lo == 0xB02) { *off = &h->instret_off; *base = h->instret; return true; }
    return false;
}

static uint64_t *pmp_ref(rvt_hart *h, unsigned addr)
{
    if (addr >= 0x3A0 && addr <= 0x3AF && (h->xlen == 32 || !(addr & 1)))
        return &h->pmpcfg[addr - 0x3A0];
    if (addr >= 0x3B0 && addr <= 0x3EF)
        return &h->pmpaddr[addr - 0x3B0];
    return NULL;
}

static uint64_t xmask(const rvt_hart *h)
{
    return h->xlen == 32 ? 0xffffffffull : UINT64_MAX;
}

/* The Sdtrig CSRs (Debug spec 1.0, 5.7) go through trigger.c: tdata1-3
 * are views of the trigger tselect names, and writes are WARL
 * (docs/tv.md "Triggers"). */
static bool is_trig_csr(unsigned addr)
{
    return addr >= HART_TV_TRIG_LO && addr <= HART_TV_TRIG_HI;
}

int rvt_hart_tv_reg_read(const rvt_hart *hc, unsigned addr, uint64_t *v)
{
    rvt_hart *h = (rvt_hart *)hc;   /* the helpers only read through it here */
    uint64_t *p, *off, base;
    int i;
    if (addr >= 0x1000 && addr < 0x1020)
        *v = h->x[addr - 0x1000];
    else if (addr >= 0x1020 && addr < 0x1040 && !h->cfg.no_fp)
        *v = h->f[addr - 0x1020];   /* FLEN 64, singles NaN-boxed */
    else if ((i = table_index(addr)) >= 0)
        *v = *field(h, (size_t)i);
    else if ((p = pmp_ref(h, addr)) != NULL)
        *v = *p;
    else if (counter_ref(h, addr, &off, &base))
        *v = addr >= 0xB80 ? (base + *off) >> 32 : (base + *off) & xmask(h);
    else if (!is_trig_csr(addr) || !hart_trig_csr_read(h, addr, v))
        return RVT_ERR_INVAL;
    return RVT_OK;
}

/* Outside the table, what rvt_hart_tv_reg_read accepts lies in these
 * ranges: the PMP CSRs, the trigger CSRs and the mcycle/minstret halves. */
static const struct { unsigned lo, hi; } tv_csr_ranges[] = {
    { 0x3A0, 0x3EF }, { HART_TV_TRIG_LO, HART_TV_TRIG_HI }, { 0xB00, 0xB02 }, { 0xB80, 0xB82 },
};

unsigned rvt_hart_tv_csr_next(const rvt_hart *h, unsigned from)
{
    unsigned best = 0x1000;
    uint64_t v;
    for (size_t i = 0; i < hart_tv_ncsrs; i++)
        if (hart_tv_csrs[i].addr >= from && hart_tv_csrs[i].addr < best)
            best = hart_tv_csrs[i].addr;
    for (size_t r = 0; r < sizeof tv_csr_ranges / sizeof tv_csr_ranges[0]; r++)
        for (unsigned a = from > tv_csr_ranges[r].lo ? from : tv_csr_ranges[r].lo;
             a <= tv_csr_ranges[r].hi && a < best; a++)
            if (rvt_hart_tv_reg_read(h, a, &v) == RVT_OK) {
                best = a;
                break;
            }
    return best;
}

int rvt_hart_tv_reg_write(rvt_hart *h, unsigned addr, uint64_t v)
{
    uint64_t *p, *off, base;
    int i;
    if (addr >= 0x1020 && addr < 0x1040 && !h->cfg.no_fp) {
        h->f[addr - 0x1020] = v;   /* FLEN bits, not XLEN */
        return RVT_OK;
    }
    v &= xmask(h);
    if (addr >= 0x1000 && addr < 0x1020) {
        if (addr > 0x1000)
            h->x[addr - 0x1000] = v;
    } else if ((i = table_index(addr)) >= 0) {
        *field(h, (size_t)i) = v;
    } else if ((p = pmp_ref(h, addr)) != NULL) {
        /* A state copy, so no lock rules; but pmpaddr keeps only its
         * implemented bits (priv 3.7.1: 54 on RV64), as a CSR write would,
         * so every value the PMP check sees is one the hart could hold. */
        *p = addr >= 0x3B0 ? v & hart_pmpaddr_mask(h) : v;
    } else if (counter_ref(h, addr, &off, &base)) {
        uint64_t cur = base + *off;
        uint64_t nv = addr >= 0xB80 ? (cur & 0xffffffffull) | (v << 32)
                    : h->xlen == 32 ? (cur & ~0xffffffffull) | v : v;
        *off = nv - base;
    } else if (!is_trig_csr(addr) || !hart_trig_csr_write(h, addr, v)) {
        return RVT_ERR_INVAL;
    }
    hart_recheck(h);   /* interrupt enables may have changed */
    return RVT_OK;
}

unsigned rvt_hart_priv(const rvt_hart *h) { return h->priv; }
uint64_t rvt_hart_tv_mtime(const rvt_hart *h) { return hart_mtime(h); }

void rvt_hart_tv_set_pc(rvt_hart *h, uint64_t pc)
{
    h->pc = pc & xmask(h);
}

void rvt_hart_tv_set_priv(rvt_hart *h, unsigned priv)
{
    h->priv = priv & 3;
    hart_recheck(h);
}

void rvt_hart_tv_set_mtime(rvt_hart *h, uint64_t mtime)
{
    h->mtime_off = mtime - h->instret;
    hart_recheck(h);
}

static uint8_t *ram_span(const rvt_hart *h, uint64_t addr, size_t n)
{
    uint64_t off = addr - h->ram_base;
    if (off >= h->ram_size || n > h->ram_size - off)
        return NULL;
    return h->ram + off;
}

int rvt_hart_tv_mem_read(const rvt_hart *h, uint64_t addr, void *buf, size_t n)
{
    const uint8_t *p = ram_span(h, addr, n);
    if (!p)
        return RVT_ERR_RANGE;
    memcpy(buf, p, n);
    return RVT_OK;
}

int rvt_hart_tv_mem_write(rvt_hart *h, uint64_t addr, const void *buf, size_t n)
{
    uint8_t *p = ram_span(h, addr, n);
    if (!p)
        return RVT_ERR_RANGE;
    memcpy(p, buf, n);
    /* predecoded code may change */
    if (n <= 8)
        hart_store_hook(h, addr, addr - h->ram_base, (unsigned)n);
    else
        hart_flush_icache(h);
    return RVT_OK;
}
