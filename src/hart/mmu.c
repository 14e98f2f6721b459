/* Virtual memory (priv 1.12 ch. 4): Sv39 on RV64 (4.4) and Sv32 on RV32
 * (4.3), with a direct-mapped TLB in front of the page walk.
 *
 * docs/hart.md "Paging": ASIDLEN is 16 on RV64 and 9 on RV32 (every ASID
 * bit is writable); A and D are set by the walk in the PTE itself, as
 * QEMU does (priv 4.3.1 allows it); a misaligned superpage, a reserved
 * encoding (W=1 R=0), a set reserved bit (63:54 on Sv39) or a walk below
 * level 0 is a page fault; a PTE outside RAM or denied by PMP is an access
 * fault of the original access type (4.3.2 step 2).  The fast RAM path
 * is only left when h->xl_data / h->xl_fetch say so (hart_vm_update). */
#include <stdlib.h>
#include "hart_int.h"

#define PTE_V (1u << 0)
#define PTE_R (1u << 1)
#define PTE_W (1u << 2)
#define PTE_X (1u << 3)
#define PTE_U (1u << 4)
#define PTE_G (1u << 5)
#define PTE_A (1u << 6)
#define PTE_D (1u << 7)
#define TLB_SIZE 256          /* direct-mapped, 4 KiB entries */

typedef struct hart_tlb_e {
    uint64_t vpn;             /* va >> 12; UINT64_MAX: empty */
    uint64_t ppn;             /* pa >> 12 of this 4 KiB page */
    uint16_t asid;
    uint8_t pte;              /* the leaf's bits 7:0 as last written */
} hart_tlb_e;

struct hart_tlb {
    hart_tlb_e e[TLB_SIZE];
};

/* One paging mode's geometry (priv 4.3.1, 4.4.1). */
typedef struct vm_mode {
    unsigned levels, pte_size, vpn_bits, va_bits;
    uint64_t ppn_mask;        /* PPN field of a PTE, shifted down by 10 */
} vm_mode;

static const vm_mode SV32 = { 2, 4, 10, 32, (1ull << 22) - 1 };
static const vm_mode SV39 = { 3, 8, 9, 39, (1ull << 44) - 1 };

static bool satp_on(const rvt_hart *h)
{
    return h->xlen == 64 ? (h->satp >> 60) == 8 : (h->satp >> 31) & 1;
}

static uint64_t satp_asid(const rvt_hart *h)
{
    return h->xlen == 64 ? (h->satp >> 44) & 0xffff : (h->satp >> 22) & 0x1ff;
}

static uint64_t satp_ppn(const rvt_hart *h)
{
    return h->xlen == 64 ? h->satp & ((1ull << 44) - 1) : h->satp & ((1ull << 22) - 1);
}

/* priv 3.1.6.3: with MPRV in M-mode, loads and stores use MPP's privilege. */
static unsigned data_priv(const rvt_hart *h)
{
    if (h->priv == PRV_M && (h->mstatus & MSTATUS_MPRV))
        return (unsigned)((h->mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT);
    return h->priv;
}

static bool needs_slow_path(const rvt_hart *h, unsigned priv)
{
    if (priv == PRV_M)
        return h->pmp_locked;   /* priv 3.7.1: only locked entries bind M */
    return satp_on(h) || h->pmp_any;
}

static void fetch_page_forget(rvt_hart *h)
{
    h->fetch_vpage = UINT64_MAX;
}

void hart_vm_update(rvt_hart *h)
{
    fetch_page_forget(h);
    hart_pmp_summary(h);
    h->xl_fetch = needs_slow_path(h, h->priv);
    h->xl_data = needs_slow_path(h, data_priv(h));
}

int hart_mmu_new(rvt_hart *h)
{
    h->tlb = malloc(sizeof *h->tlb);
    if (!h->tlb)
        return RVT_ERR_NOMEM;
    hart_tlb_flush(h, true, 0, false, 0);
    return RVT_OK;
}

void hart_mmu_free(rvt_hart *h)
{
    free(h->tlb);
    h->tlb = NULL;
}

/* sfence.vma (priv 4.2.1).  Flushing more than asked is always allowed:
 * an address (rs1 != x0) flushes every entry of the ASID condition, since
 * a superpage's 4 KiB entries are spread over the table. */
void hart_tlb_flush(rvt_hart *h, bool all, uint64_t va, bool by_asid, uint64_t asid)
{
    (void)va;
    fetch_page_forget(h);
    for (unsigned i = 0; i < TLB_SIZE; i++) {
        hart_tlb_e *e = &h->tlb->e[i];
        if (all || !by_asid || (e->asid == asid && !(e->pte & PTE_G)))
            e->vpn = UINT64_MAX;
    }
}

/* satp (priv 4.1.11): MODE is WARL, Bare or Sv39 (RV64) / Sv32 (RV32); any
 * other mode leaves the register unchanged (Linux probes Sv57/Sv48 that
 * way).  A change of root or mode flushes the TLB; an ASID-only change
 * keeps the entries, which carry their ASID. */
bool hart_satp_write(rvt_hart *h, uint64_t v)
{
    uint64_t mode = h->xlen == 64 ? v >> 60 : (v >> 31) & 1;
    if (h->xlen == 64 && mode != 0 && mode != 8)
        return false;
    uint64_t old_ppn = satp_ppn(h);
    bool old_on = satp_on(h);
    h->satp = v;
    fetch_page_forget(h);   /* a new ASID may map the page elsewhere */
    uint64_t ctx = satp_on(h) ? satp_asid(h) : 0;
    if (ctx != (h->ctx_switch ? h->ctx_next : h->trace_ctx)) {
        h->ctx_next = ctx;
        h->ctx_switch = true;
        h->event_at = 0;    /* hart_event applies it before the next instruction */
    }
    if (satp_ppn(h) != old_ppn || satp_on(h) != old_on)
        hart_tlb_flush(h, true, 0, false, 0);
    return true;
}

static unsigned page_fault(unsigned acc)
{
    return acc == HART_ACC_FETCH ? CAUSE_FETCH_PAGE : acc == HART_ACC_LOAD ? CAUSE_LOAD_PAGE
                                                                           : CAUSE_STORE_PAGE;
}

static unsigned access_fault(unsigned acc)
{
    return acc == HART_ACC_FETCH ? CAUSE_FETCH_ACCESS : acc == HART_ACC_LOAD ? CAUSE_LOAD_ACCESS
                                                                             : CAUSE_STORE_ACCESS;
}

/* priv 4.3.2 step 5 with 3.1.6.3 (SUM, MXR): may this leaf serve the access? */
static bool leaf_allows(const rvt_hart *h, unsigned pte, unsigned acc, unsigned priv)
{
    if (priv == PRV_U && !(pte & PTE_U))
        return false;
    if (priv == PRV_S && (pte & PTE_U) && (acc == HART_ACC_FETCH || !(h->mstatus & MSTATUS_SUM)))
        return false;
    if (acc == HART_ACC_FETCH)
        return pte & PTE_X;
    if (acc == HART_ACC_LOAD)
        return (pte & PTE_R) || ((h->mstatus & MSTATUS_MXR) && (pte & PTE_X));
    return pte & PTE_W;
}

static uint8_t *ram_ptr(rvt_hart *h, uint64_t pa, unsigned size)
{
    uint64_t off = pa - h->ram_base;
    return off < h->ram_size && h->ram_size - off >= size ? h->ram + off : NULL;
}

static uint64_t pte_get(const uint8_t *p, unsigned size)
{
    return hart_bytes_get(p, size);
}

/* The page walk (priv 4.3.2).  On success the TLB entry for va's 4 KiB
 * page is filled and returned. */
static int walk(rvt_hart *h, uint64_t va, unsigned acc, unsigned priv, hart_tlb_e **out)
{
    const vm_mode *m = h->xlen == 64 ? &SV39 : &SV32;
    unsigned pf = page_fault(acc) + 1;
    if (h->xlen == 64 && (uint64_t)((int64_t)(va << 25) >> 25) != va)
        return pf;   /* 4.4.1: bits 63:39 must equal bit 38 */
    uint64_t a = satp_ppn(h) << HART_PAGE_SHIFT, pte = 0;
    uint8_t *p = NULL;
    int i = (int)m->levels - 1;
    for (;; i--) {
        if (i < 0)
            return pf;
        uint64_t vpn_i = (va >> (HART_PAGE_SHIFT + i * m->vpn_bits)) & ((1u << m->vpn_bits) - 1);
        uint64_t pte_pa = a + vpn_i * m->pte_size;
        /* 3.7.1: page-table accesses are checked as S-mode reads */
        p = ram_ptr(h, pte_pa, m->pte_size);
        if (!p || !hart_pmp_ok(h, pte_pa, m->pte_size, HART_ACC_LOAD, PRV_S))
            return access_fault(acc) + 1;
        pte = pte_get(p, m->pte_size);
        if (!(pte & PTE_V) || ((pte & PTE_W) && !(pte & PTE_R)))
            return pf;
        if (m->pte_size == 8 && (pte >> 54))
            return pf;   /* reserved bits (no Svpbmt/Svnapot) */
        if (pte & (PTE_R | PTE_X))
            break;
        a = ((pte >> 10) & m->ppn_mask) << HART_PAGE_SHIFT;
    }
    if (!leaf_allows(h, (unsigned)pte, acc, priv))
        return pf;
    uint64_t ppn = (pte >> 10) & m->ppn_mask;
    uint64_t low = (1ull << (i * m->vpn_bits)) - 1;   /* 4.3.2 step 6 */
    if (ppn & low)
        return pf;
    uint64_t want = PTE_A | (acc == HART_ACC_STORE ? PTE_D : 0);
    if ((pte & want) != want) {
        /* QEMU: A (and D for a store) set atomically in the PTE */
        pte |= want;
        hart_bytes_put(p, m->pte_size, pte);
        hart_store_hook(h, (uint64_t)(p - h->ram) + h->ram_base, (uint64_t)(p - h->ram), m->pte_size);
    }
    uint64_t vpn = va >> HART_PAGE_SHIFT;
    hart_tlb_e *e = &h->tlb->e[vpn & (TLB_SIZE - 1)];
    *e = (hart_tlb_e){ .vpn = vpn, .ppn = ppn | (vpn & low), .asid = (uint16_t)satp_asid(h),
                       .pte = (uint8_t)pte };
    *out = e;
    return 0;
}

static int translate(rvt_hart *h, uint64_t va, unsigned acc, unsigned priv, uint64_t *pa)
{
    uint64_t vpn = va >> HART_PAGE_SHIFT;
    hart_tlb_e *e = &h->tlb->e[vpn & (TLB_SIZE - 1)];
    bool hit = e->vpn == vpn && ((e->pte & PTE_G) || e->asid == satp_asid(h)) &&
               leaf_allows(h, e->pte, acc, priv) && (acc != HART_ACC_STORE || (e->pte & PTE_D));
    if (!hit) {
        int r = walk(h, va, acc, priv, &e);
        if (r)
            return r;
    }
    *pa = (e->ppn << HART_PAGE_SHIFT) | (va & (HART_PAGE_SIZE - 1));
    return 0;
}

int hart_xlate(rvt_hart *h, uint64_t va, unsigned size, unsigned acc, uint64_t *pa)
{
    unsigned priv = acc == HART_ACC_FETCH ? h->priv : data_priv(h);
    *pa = va;
    if (priv != PRV_M && satp_on(h)) {
        int r = translate(h, va, acc, priv, pa);
        if (r)
            return r;
    }
    if (!hart_pmp_ok(h, *pa, size, acc, priv))
        return access_fault(acc) + 1;
    return 0;
}

int hart_load_phys(rvt_hart *h, uint64_t pa, unsigned size, uint64_t *v)
{
    uint8_t *p = ram_ptr(h, pa, size);
    if (!p)
        return hart_load_slow(h, pa, size, v);
    *v = pte_get(p, size);
    return 0;
}

int hart_store_phys(rvt_hart *h, uint64_t pa, unsigned size, uint64_t v)
{
    uint8_t *p = ram_ptr(h, pa, size);
    if (!p)
        return hart_store_slow(h, pa, size, v);
    hart_bytes_put(p, size, v);
    hart_store_hook(h, pa, pa - h->ram_base, size);
    return 0;
}

/* Aligned accesses of a mode with translation or PMP (hart_int.h). */
int hart_load_vm(rvt_hart *h, uint64_t addr, unsigned size, uint64_t *v)
{
    uint64_t pa;
    int r = hart_xlate(h, addr, size, HART_ACC_LOAD, &pa);
    return r ? r : hart_load_phys(h, pa, size, v);
}

int hart_store_vm(rvt_hart *h, uint64_t addr, unsigned size, uint64_t v)
{
    uint64_t pa;
    int r = hart_xlate(h, addr, size, HART_ACC_STORE, &pa);
    return r ? r : hart_store_phys(h, pa, size, v);
}

static const hart_op *fetch_fault(rvt_hart *h, int r, uint64_t va)
{
    h->ifault_cause = (unsigned)r - 1;
    h->ifault_tval = va;
    return NULL;
}

static int fetch_half(rvt_hart *h, uint64_t va, uint64_t *pa, uint16_t *half)
{
    int r = hart_xlate(h, va, 2, HART_ACC_FETCH, pa);
    if (r)
        return r;
    uint8_t *p = ram_ptr(h, *pa, 2);
    if (!p)
        return CAUSE_FETCH_ACCESS + 1;
    memcpy(half, p, 2);
    return 0;
}

/* The fetch page is remembered only when PMP passes the whole physical
 * page: then every half-word of it passes as the one just fetched did. */
static void remember_fetch_page(rvt_hart *h, uint64_t va, uint64_t pa)
{
    uint64_t pbase = pa & ~(uint64_t)(HART_PAGE_SIZE - 1);
    if (hart_pmp_ok(h, pbase, HART_PAGE_SIZE, HART_ACC_FETCH, h->priv)) {
        h->fetch_vpage = va >> HART_PAGE_SHIFT;
        h->fetch_pbase = pbase;
    }
}

/* A fetch with translation or PMP.  An instruction in the last half-word
 * of a page takes its upper half from the next page, translated on its
 * own; a fault there reports that half's address (priv 3.1.16). */
const hart_op *hart_fetch_vm(rvt_hart *h, uint64_t pc)
{
    uint64_t pa, pa2, in_page = pc & (HART_PAGE_SIZE - 1);
    uint16_t lo, hi;
    int r = fetch_half(h, pc, &pa, &lo);
    if (r)
        return fetch_fault(h, r, pc);
    remember_fetch_page(h, pc, pa);
    if (in_page != HART_PAGE_SIZE - 2 || rvt_isa_length(lo) == 2)
        return hart_fetch_pa(h, pa);
    uint64_t pc2 = h->xlen == 32 ? (uint32_t)(pc + 2) : pc + 2;
    r = fetch_half(h, pc2, &pa2, &hi);
    if (r)
        return fetch_fault(h, r, pc2);
    return hart_fetch_raw(h, lo | (uint32_t)hi << 16);
}
