/* Physical memory protection (priv 1.12, 3.7): 16 entries, OFF, TOR, NA4
 * and NAPOT, the L bit, granularity 4 bytes (G = 0).  pmpcfg4-15 and
 * pmpaddr16-63 exist as CSRs hard-wired to zero (3.7.1 allows 0, 16 or 64
 * entries; the unimplemented ones are read-only zero).
 *
 * docs/hart.md "PMP": an access no entry matches succeeds in M-mode and
 * fails in S/U-mode (3.7.1) -- but while every entry is OFF the hart
 * behaves as one with no PMP at all (everything allowed), so bare-metal
 * code that never programs PMP runs in S/U-mode unchanged. */
#include "hart_int.h"

#define PMP_N 16
#define PMP_R 0x01u
#define PMP_W 0x02u
#define PMP_X 0x04u
#define PMP_A 0x18u
#define PMP_L 0x80u
enum { PMP_OFF = 0, PMP_TOR = 1, PMP_NA4 = 2, PMP_NAPOT = 3 };

/* The configuration byte of an entry: 8 per pmpcfg register on RV64 (the
 * even ones), 4 on RV32. */
unsigned hart_pmp_cfg(const rvt_hart *h, unsigned entry)
{
    if (h->xlen == 64)
        return (unsigned)(h->pmpcfg[(entry / 8) * 2] >> (8 * (entry % 8))) & 0xff;
    return (unsigned)(h->pmpcfg[entry / 4] >> (8 * (entry % 4))) & 0xff;
}

static unsigned mode_of(unsigned cfg)
{
    return (cfg & PMP_A) >> 3;
}

void hart_pmp_summary(rvt_hart *h)
{
    memset(h->pmp_pass, 0, sizeof h->pmp_pass);   /* hart_pmp_ok's ranges */
    h->pmp_any = h->pmp_locked = 0;
    for (unsigned i = 0; i < PMP_N; i++) {
        unsigned c = hart_pmp_cfg(h, i);
        if (mode_of(c) != PMP_OFF) {
            h->pmp_any = 1;
            h->pmp_locked |= (c & PMP_L) != 0;
        }
    }
}

static bool cfg_reg_exists(const rvt_hart *h, unsigned idx)
{
    return h->xlen == 64 ? idx == 0 || idx == 2 : idx < 4;
}

uint64_t hart_pmpcfg_read(const rvt_hart *h, unsigned idx)
{
    return cfg_reg_exists(h, idx) ? h->pmpcfg[idx] : 0;
}

/* A locked entry's byte keeps its value (3.7.1.3); bits 6:5 read zero. */
void hart_pmpcfg_write(rvt_hart *h, unsigned idx, uint64_t v)
{
    if (!cfg_reg_exists(h, idx))
        return;
    unsigned bytes = h->xlen / 8;
    uint64_t old = h->pmpcfg[idx], nv = 0;
    for (unsigned b = 0; b < bytes; b++) {
        uint64_t ob = (old >> (8 * b)) & 0xff, vb = (v >> (8 * b)) & 0x9f;
        nv |= ((ob & PMP_L) ? ob : vb) << (8 * b);
    }
    h->pmpcfg[idx] = nv;
    hart_recheck(h);   /* hart_vm_update: the summary and the fast-path flags */
}

/* pmpaddr i is locked by its own L, and by entry i+1's L when that one is
 * TOR (3.7.1.3). */
void hart_pmpaddr_write(rvt_hart *h, unsigned idx, uint64_t v)
{
    if (idx >= PMP_N)
        return;
    if (hart_pmp_cfg(h, idx) & PMP_L)
        return;
    if (idx + 1 < PMP_N) {
        unsigned next = hart_pmp_cfg(h, idx + 1);
        if ((next & PMP_L) && mode_of(next) == PMP_TOR)
            return;
    }
    h->pmpaddr[idx] = v & hart_pmpaddr_mask(h);
}

/* The implemented bits of pmpaddr: PA[33:2] on RV32, PA[55:2] on RV64
 * (priv 3.7.1). */
uint64_t hart_pmpaddr_mask(const rvt_hart *h)
{
    return h->xlen == 32 ? 0xffffffffull : (1ull << 54) - 1;
}

/* [lo, hi) of an entry in bytes; false when OFF. */
static bool entry_range(const rvt_hart *h, unsigned i, unsigned cfg, uint64_t *lo, uint64_t *hi)
{
    uint64_t a = h->pmpaddr[i];
    switch (mode_of(cfg)) {
    case PMP_TOR:
        *lo = i ? h->pmpaddr[i - 1] << 2 : 0;
        *hi = a << 2;
        return true;
    case PMP_NA4:
        *lo = a << 2;
        *hi = *lo + 4;
        return true;
    case PMP_NAPOT: {
        /* 3.7.1.2: trailing ones t give a 2^(t+3)-byte region */
        unsigned t = ~a ? (unsigned)__builtin_ctzll(~a) : 64;
        if (t + 3 >= 64) {   /* the whole address space; 1 << 64 overflows */
            *lo = 0;
            *hi = UINT64_MAX;
            return true;
        }
        uint64_t size = 1ull << (t + 3);
        *lo = (a & ~((1ull << t) - 1)) << 2;
        *hi = *lo + size;
        return true;
    }
    default:
        return false;
    }
}

static bool perm_ok(unsigned cfg, unsigned acc)
{
    unsigned need = acc == HART_ACC_FETCH ? PMP_X : acc == HART_ACC_LOAD ? PMP_R : PMP_W;
    return (cfg & need) != 0;
}

#define NO_ENTRY (-1)
#define PARTIAL (-2)

/* 3.7.1: the lowest-numbered entry that matches any byte of [pa, pa+size)
 * decides, and it must match all of them: its index (and region), or
 * NO_ENTRY, or PARTIAL when it matches only some bytes. */
static int deciding_entry(const rvt_hart *h, uint64_t pa, uint64_t size, uint64_t *lo,
                          uint64_t *hi)
{
    uint64_t end = pa + size;
    for (unsigned i = 0; i < PMP_N; i++) {
        if (!entry_range(h, i, hart_pmp_cfg(h, i), lo, hi) || *lo >= *hi || end <= *lo ||
            pa >= *hi)
            continue;
        return pa < *lo || end > *hi ? PARTIAL : (int)i;
    }
    return NO_ENTRY;
}

/* L makes the entry bind M-mode too; with no entry only M passes. */
static bool entry_passes(const rvt_hart *h, int i, unsigned acc, unsigned priv)
{
    if (i == PARTIAL)
        return false;
    if (i == NO_ENTRY)
        return priv == PRV_M;
    unsigned cfg = hart_pmp_cfg(h, (unsigned)i);
    return (priv == PRV_M && !(cfg & PMP_L)) || perm_ok(cfg, acc);
}

static bool pmp_check(const rvt_hart *h, uint64_t pa, uint64_t size, unsigned acc, unsigned priv)
{
    uint64_t lo, hi;
    return entry_passes(h, deciding_entry(h, pa, size, &lo, &hi), acc, priv);
}

/* Does an entry below i match any byte of [lo, hi)? */
static bool lower_entry_overlaps(const rvt_hart *h, unsigned i, uint64_t lo, uint64_t hi)
{
    for (unsigned j = 0; j < i; j++) {
        uint64_t l, e;
        if (entry_range(h, j, hart_pmp_cfg(h, j), &l, &e) && l < e && l < hi && lo < e)
            return true;
    }
    return false;
}

/* docs/hart.md "PMP": a page whose every byte passes (one entry covers it,
 * or none matches in M-mode) passes for any access inside it -- an entry
 * that matches part of the access matches part of the page, so the page's
 * deciding entry decides the access too.  When no lower-numbered entry
 * overlaps that entry's region, the whole region passes the same way.
 * One such range is remembered per access type and privilege;
 * hart_pmp_summary() forgets them whenever the PMP CSRs may have changed. */
static bool remember_pass(rvt_hart *h, uint64_t pg, unsigned acc, unsigned priv)
{
    uint64_t pa = pg << HART_PAGE_SHIFT, lo, hi;
    int i = deciding_entry(h, pa, HART_PAGE_SIZE, &lo, &hi);
    if (!entry_passes(h, i, acc, priv))
        return false;
    hart_pmp_range *r = &h->pmp_pass[acc][priv];
    if (i < 0 || lower_entry_overlaps(h, (unsigned)i, lo, hi)) {
        lo = pa;
        hi = pa + HART_PAGE_SIZE;
    }
    r->lo = lo;
    r->hi = hi;
    return true;
}

bool hart_pmp_ok(rvt_hart *h, uint64_t pa, unsigned size, unsigned acc, unsigned priv)
{
    if (!h->pmp_any)
        return true;
    const hart_pmp_range *r = &h->pmp_pass[acc][priv];
    if (pa >= r->lo && pa < r->hi && size <= r->hi - pa)
        return true;
    uint64_t pg = pa >> HART_PAGE_SHIFT;
    bool in_page = (pa & (HART_PAGE_SIZE - 1)) + size <= HART_PAGE_SIZE &&
                   pg != UINT64_MAX >> HART_PAGE_SHIFT;   /* the page's end must not wrap */
    if (in_page && remember_pass(h, pg, acc, priv))
        return true;
    return pmp_check(h, pa, size, acc, priv);
}
