/* Reference hart: Sv39 and Sv32 translation (priv 1.12 ch. 4) against page
 * tables built by hand.  Every PTE is derived in its comment:
 * PTE = PPN << 10 | D A G U X W R V (bits 7..0). */
#include "test_hart_vm.h"

#define LD HART_ACC_LOAD
#define ST HART_ACC_STORE
#define FE HART_ACC_FETCH

/* Sv39 tables (PPN = PA >> 12):
 *   root 0x80010000 (satp = 8 << 60 | 0x80010)
 *   root[1] -> L1 0x80011000: 0x80011 << 10 | V = 0x20004401
 *   L1[0]   -> L0 0x80012000: 0x80012 << 10 | V = 0x20004801
 *   L0[5]  VA 0x40005000 -> 0x80020000, R W V (no A, D): 0x20008007
 *   L0[6]  VA 0x40006000 -> 0x80021000, U R W A D V:    0x200084d7
 *   L0[7]  VA 0x40007000 -> 0x80022000, X A V:          0x20008849
 *   L0[8]  VA 0x40008000: W V (reserved W=1 R=0):       0x20008c05
 *   L0[9]  VA 0x40009000: 0 (invalid)
 *   L0[10] VA 0x4000a000 -> 0x80024000, R A V:          0x20009043
 *   root[2] -> L1b 0x80013000: 0x80013 << 10 | V = 0x20004c01
 *   L1b[3] VA 0x80600000 (2 MiB) -> 0x80200000, X R A V:     0x2008004b
 *   L1b[4] VA 0x80800000 -> PPN 0x80201 (not 2 MiB aligned): 0x20080443
 *   root[3] VA 0xc0000000 (1 GiB) -> 0x80000000, D A X W R V: 0x200000cf */
static void sv39_tables(rvt_hart *h)
{
    tvm_put(h, 0x80010000 + 1 * 8, 0x20004401, 8);
    tvm_put(h, 0x80011000 + 0 * 8, 0x20004801, 8);
    tvm_put(h, 0x80012000 + 5 * 8, 0x20008007, 8);
    tvm_put(h, 0x80012000 + 6 * 8, 0x200084d7, 8);
    tvm_put(h, 0x80012000 + 7 * 8, 0x20008849, 8);
    tvm_put(h, 0x80012000 + 8 * 8, 0x20008c05, 8);
    tvm_put(h, 0x80012000 + 10 * 8, 0x20009043, 8);
    tvm_put(h, 0x80010000 + 2 * 8, 0x20004c01, 8);
    tvm_put(h, 0x80013000 + 3 * 8, 0x2008004b, 8);
    tvm_put(h, 0x80013000 + 4 * 8, 0x20080443, 8);
    tvm_put(h, 0x80010000 + 3 * 8, 0x200000cf, 8);
}

static rvt_hart *sv39_hart(tvm *t)
{
    rvt_hart *h = tvm_new(t, 64);
    if (!h)
        return NULL;
    sv39_tables(h);
    CHECK_EQ(tvm_csr(h, 0x180, 8ull << 60 | 0x80010), 8ull << 60 | 0x80010);
    tvm_mode(h, PRV_S, 0);
    return h;
}

/* A 4 KiB page: the walk sets A on a load, A and D on a store (QEMU). */
static void test_sv39_4k_ad(void)
{
    tvm t;
    rvt_hart *h = sv39_hart(&t);
    if (!h)
        return;
    uint64_t pa;
    CHECK(h->xl_data && h->xl_fetch);
    CHECK_EQ(tvm_xl(h, 0x40005123, LD, &pa), 0);
    CHECK_EQ(pa, 0x80020123);
    CHECK_EQ(tvm_get(h, 0x80012028, 8), 0x20008047);   /* + A (0x40) */
    CHECK_EQ(tvm_xl(h, 0x40005ff8, ST, &pa), 0);
    CHECK_EQ(pa, 0x80020ff8);
    CHECK_EQ(tvm_get(h, 0x80012028, 8), 0x200080c7);   /* + D (0x80) */
    /* through the load/store paths of the execute loop */
    uint64_t v = 0;
    CHECK_EQ(hart_store(h, 0x40005010, 8, 0x1122334455667788ull), 0);
    CHECK_EQ(tvm_get(h, 0x80020010, 8), 0x1122334455667788ull);
    CHECK_EQ(hart_load(h, 0x40005014, 4, &v), 0);
    CHECK_EQ(v, 0x11223344);
    /* W only with R: a read-only page faults a store (cause 15) */
    CHECK_EQ(tvm_xl(h, 0x4000a000, ST, &pa), CAUSE_STORE_PAGE + 1);
    CHECK_EQ(tvm_xl(h, 0x4000a000, LD, &pa), 0);
    CHECK_EQ(pa, 0x80024000);
    tvm_free(&t);
}

/* Invalid, reserved (W=1 R=0), non-canonical: page faults of the access
 * type (12 fetch, 13 load, 15 store). */
static void test_sv39_faults(void)
{
    tvm t;
    rvt_hart *h = sv39_hart(&t);
    if (!h)
        return;
    uint64_t pa;
    CHECK_EQ(tvm_xl(h, 0x40009000, LD, &pa), CAUSE_LOAD_PAGE + 1);
    CHECK_EQ(tvm_xl(h, 0x40009000, ST, &pa), CAUSE_STORE_PAGE + 1);
    CHECK_EQ(tvm_xl(h, 0x40009000, FE, &pa), CAUSE_FETCH_PAGE + 1);
    CHECK_EQ(tvm_xl(h, 0x40008000, LD, &pa), CAUSE_LOAD_PAGE + 1);
    /* root[0] is 0: the walk stops at level 2 */
    CHECK_EQ(tvm_xl(h, 0x1000, LD, &pa), CAUSE_LOAD_PAGE + 1);
    /* bit 39 set, bit 38 clear: bits 63:39 differ from bit 38 (4.4.1) */
    CHECK_EQ(tvm_xl(h, 0x8040005000ull, LD, &pa), CAUSE_LOAD_PAGE + 1);
    /* fetch from a page without X */
    CHECK_EQ(tvm_xl(h, 0x40005000, FE, &pa), CAUSE_FETCH_PAGE + 1);
    /* a PTE outside RAM: access fault of the access type (4.3.2 step 2);
     * root[4] -> L1 at PPN 0x1000 (PA 0x1000000, below RAM) */
    tvm_put(h, 0x80010000 + 4 * 8, 0x1000 << 10 | 1, 8);
    CHECK_EQ(tvm_xl(h, 0x100000000ull, LD, &pa), CAUSE_LOAD_ACCESS + 1);
    CHECK_EQ(tvm_xl(h, 0x100000000ull, ST, &pa), CAUSE_STORE_ACCESS + 1);
    /* the execute loop's load path (its xtval is the virtual address:
     * programs/src/paging.c checks it against QEMU) */
    uint64_t v;
    CHECK_EQ(hart_load(h, 0x40009ab8, 8, &v), CAUSE_LOAD_PAGE + 1);
    CHECK_EQ(hart_load(h, 0x40009abc, 8, &v), CAUSE_MISALIGNED_LOAD + 1);   /* first (3.7 table) */
    tvm_free(&t);
}

/* Superpages: 2 MiB and 1 GiB; a leaf whose PPN is not aligned to its
 * level is a page fault (4.3.2 step 6). */
static void test_sv39_superpages(void)
{
    tvm t;
    rvt_hart *h = sv39_hart(&t);
    if (!h)
        return;
    uint64_t pa;
    CHECK_EQ(tvm_xl(h, 0x80612345, LD, &pa), 0);
    CHECK_EQ(pa, 0x80212345);                     /* 0x80200000 + 0x12345 */
    CHECK_EQ(tvm_xl(h, 0x807ffffe, FE, &pa), 0);
    CHECK_EQ(pa, 0x803ffffe);
    CHECK_EQ(tvm_xl(h, 0x80612345, ST, &pa), CAUSE_STORE_PAGE + 1);   /* no W */
    CHECK_EQ(tvm_xl(h, 0x80800000, LD, &pa), CAUSE_LOAD_PAGE + 1);    /* misaligned */
    CHECK_EQ(tvm_xl(h, 0xc0001234, ST, &pa), 0);
    CHECK_EQ(pa, 0x80001234);
    CHECK_EQ(tvm_xl(h, 0xfffffff8, LD, &pa), 0);
    CHECK_EQ(pa, 0xbffffff8);                     /* 0x80000000 + 0x3ffffff8 */
    tvm_free(&t);
}

/* U bit, SUM and MXR (priv 4.3.1, 3.1.6.3). */
static void test_sv39_sum_mxr(void)
{
    tvm t;
    rvt_hart *h = sv39_hart(&t);
    if (!h)
        return;
    uint64_t pa;
    CHECK_EQ(tvm_xl(h, 0x40006000, LD, &pa), CAUSE_LOAD_PAGE + 1);   /* S, U page, no SUM */
    tvm_mode(h, PRV_S, MSTATUS_SUM);
    CHECK_EQ(tvm_xl(h, 0x40006008, LD, &pa), 0);
    CHECK_EQ(pa, 0x80021008);
    CHECK_EQ(tvm_xl(h, 0x40006008, ST, &pa), 0);
    CHECK_EQ(tvm_xl(h, 0x40006000, FE, &pa), CAUSE_FETCH_PAGE + 1);  /* never, even with SUM */
    tvm_mode(h, PRV_U, 0);
    CHECK_EQ(tvm_xl(h, 0x40006000, FE, &pa), CAUSE_FETCH_PAGE + 1);  /* no X */
    CHECK_EQ(tvm_xl(h, 0x40006010, ST, &pa), 0);
    CHECK_EQ(tvm_xl(h, 0x40005000, LD, &pa), CAUSE_LOAD_PAGE + 1);   /* U, not a U page */
    /* execute-only page: loads need MXR */
    tvm_mode(h, PRV_S, 0);
    CHECK_EQ(tvm_xl(h, 0x40007004, LD, &pa), CAUSE_LOAD_PAGE + 1);
    CHECK_EQ(tvm_xl(h, 0x40007004, FE, &pa), 0);
    CHECK_EQ(pa, 0x80022004);
    tvm_mode(h, PRV_S, MSTATUS_MXR);
    CHECK_EQ(tvm_xl(h, 0x40007004, LD, &pa), 0);
    CHECK_EQ(tvm_xl(h, 0x40007004, ST, &pa), CAUSE_STORE_PAGE + 1);
    tvm_free(&t);
}

/* MPRV in M-mode: loads and stores use MPP's privilege and translation,
 * fetches stay untranslated (priv 3.1.6.3). */
static void test_mprv(void)
{
    tvm t;
    rvt_hart *h = sv39_hart(&t);
    if (!h)
        return;
    uint64_t pa;
    tvm_mode(h, PRV_M, 0);
    CHECK(!h->xl_data && !h->xl_fetch);
    CHECK_EQ(tvm_xl(h, 0x40005123, LD, &pa), 0);
    CHECK_EQ(pa, 0x40005123);
    tvm_mode(h, PRV_M, MSTATUS_MPRV | (uint64_t)PRV_S << MSTATUS_MPP_SHIFT);
    CHECK(h->xl_data && !h->xl_fetch);
    CHECK_EQ(tvm_xl(h, 0x40005123, LD, &pa), 0);
    CHECK_EQ(pa, 0x80020123);
    CHECK_EQ(tvm_xl(h, 0x40005123, FE, &pa), 0);
    CHECK_EQ(pa, 0x40005123);
    /* MPP = U: the U page is reachable, the S page not */
    tvm_mode(h, PRV_M, MSTATUS_MPRV | (uint64_t)PRV_U << MSTATUS_MPP_SHIFT);
    CHECK_EQ(tvm_xl(h, 0x40006000, LD, &pa), 0);
    CHECK_EQ(tvm_xl(h, 0x40005000, LD, &pa), CAUSE_LOAD_PAGE + 1);
    tvm_mode(h, PRV_M, MSTATUS_MPRV | (uint64_t)PRV_M << MSTATUS_MPP_SHIFT);
    CHECK(!h->xl_data);
    tvm_free(&t);
}

/* The TLB keeps a translation until sfence.vma (4.2.1): software that
 * changes a PTE without it may see either; after it, the new one. */
static void test_sfence(void)
{
    tvm t;
    rvt_hart *h = sv39_hart(&t);
    if (!h)
        return;
    uint64_t pa;
    CHECK_EQ(tvm_xl(h, 0x40005123, LD, &pa), 0);
    CHECK_EQ(pa, 0x80020123);
    tvm_put(h, 0x80012028, 0x200094c7, 8);   /* -> PPN 0x80025, R W A D V */
    CHECK_EQ(tvm_xl(h, 0x40005123, LD, &pa), 0);
    CHECK_EQ(pa, 0x80020123);                /* cached */
    /* sfence.vma x0, a1 with another ASID leaves ASID 0 entries */
    hart_tlb_flush(h, false, 0, true, 5);
    CHECK_EQ(tvm_xl(h, 0x40005123, LD, &pa), 0);
    CHECK_EQ(pa, 0x80020123);
    hart_tlb_flush(h, false, 0x40005000, false, 0);   /* sfence.vma a0, x0 */
    CHECK_EQ(tvm_xl(h, 0x40005123, LD, &pa), 0);
    CHECK_EQ(pa, 0x80025123);
    /* an ASID switch keeps entries tagged with the old ASID out of use */
    tvm_put(h, 0x80012028, 0x200080c7, 8);   /* back to 0x80020 */
    CHECK_EQ(tvm_csr(h, 0x180, 8ull << 60 | 7ull << 44 | 0x80010), 8ull << 60 | 7ull << 44 | 0x80010);
    CHECK_EQ(tvm_xl(h, 0x40005123, LD, &pa), 0);
    CHECK_EQ(pa, 0x80020123);
    tvm_free(&t);
}

/* --misaligned emulate: an access across a page boundary is translated
 * per page; a fault in the second page writes nothing.  0x40005ffc..
 * 0x40006003: 4 bytes in L0[5] (PA 0x80020ffc), 4 in the U page L0[6]
 * (PA 0x80021000). */
static void test_misaligned_split(void)
{
    tvm t;
    rvt_hart *h = sv39_hart(&t);
    if (!h)
        return;
    h->cfg.misaligned_emulate = true;
    CHECK_EQ(hart_store(h, 0x40005ffc, 8, 0x8877665544332211ull), CAUSE_STORE_PAGE + 1);
    CHECK_EQ(tvm_get(h, 0x80020ffc, 4), 0);
    tvm_mode(h, PRV_S, MSTATUS_SUM);
    CHECK_EQ(hart_store(h, 0x40005ffc, 8, 0x8877665544332211ull), 0);
    CHECK_EQ(tvm_get(h, 0x80020ffc, 4), 0x44332211);
    CHECK_EQ(tvm_get(h, 0x80021000, 4), 0x88776655);
    uint64_t v = 0;
    CHECK_EQ(hart_load(h, 0x40005ffe, 4, &v), 0);
    CHECK_EQ(v, 0x66554433);
    tvm_free(&t);
}

/* satp (4.1.11): MODE WARL; Sv48 (9), Sv57 (10) and reserved modes leave
 * satp unchanged; ASIDLEN 16 (every ASID bit writable). */
static void test_satp_warl(void)
{
    tvm t;
    rvt_hart *h = tvm_new(&t, 64);
    if (!h)
        return;
    CHECK_EQ(tvm_csr(h, 0x180, 8ull << 60 | 0xffffull << 44 | 0x80010), 8ull << 60 | 0xffffull << 44 | 0x80010);
    CHECK_EQ(tvm_csr(h, 0x180, 9ull << 60 | 0x123), 8ull << 60 | 0xffffull << 44 | 0x80010);
    CHECK_EQ(tvm_csr(h, 0x180, 10ull << 60 | 0x123), 8ull << 60 | 0xffffull << 44 | 0x80010);
    CHECK_EQ(tvm_csr(h, 0x180, 1ull << 60), 8ull << 60 | 0xffffull << 44 | 0x80010);
    CHECK_EQ(tvm_csr(h, 0x180, 0), 0);
    tvm_free(&t);
    /* RV32: MODE is bit 31 (Sv32), ASID 30:22 (ASIDLEN 9), PPN 21:0 */
    h = tvm_new(&t, 32);
    if (!h)
        return;
    CHECK_EQ(tvm_csr(h, 0x180, 0xffffffff), 0xffffffff);
    tvm_free(&t);
}

/* Sv32 (4.3): 4-byte PTEs, two levels, 4 MiB megapages.
 *   satp = 1 << 31 | 0x80010; root 0x80010000
 *   root[1] -> L0 0x80011000: 0x80011 << 10 | V = 0x20004401
 *   L0[5]  VA 0x00405000 -> 0x80020000, D A W R V: 0x200080c7
 *   root[2] VA 0x00800000 (4 MiB) -> 0x80400000, R A V: 0x20100043
 *   root[3] VA 0x00c00000 -> PPN 0x80401 (misaligned): 0x20100443 */
static void test_sv32(void)
{
    tvm t;
    rvt_hart *h = tvm_new(&t, 32);
    if (!h)
        return;
    tvm_put(h, 0x80010000 + 1 * 4, 0x20004401, 4);
    tvm_put(h, 0x80011000 + 5 * 4, 0x200080c7, 4);
    tvm_put(h, 0x80010000 + 2 * 4, 0x20100043, 4);
    tvm_put(h, 0x80010000 + 3 * 4, 0x20100443, 4);
    CHECK_EQ(tvm_csr(h, 0x180, 1ull << 31 | 0x80010), 1ull << 31 | 0x80010);
    tvm_mode(h, PRV_S, 0);
    uint64_t pa;
    CHECK_EQ(tvm_xl(h, 0x00405123, ST, &pa), 0);
    CHECK_EQ(pa, 0x80020123);
    CHECK_EQ(tvm_xl(h, 0x00812345, LD, &pa), 0);
    CHECK_EQ(pa, 0x80412345);
    CHECK_EQ(tvm_xl(h, 0x00812345, ST, &pa), CAUSE_STORE_PAGE + 1);
    CHECK_EQ(tvm_xl(h, 0x00c00000, LD, &pa), CAUSE_LOAD_PAGE + 1);
    CHECK_EQ(tvm_xl(h, 0x00406000, LD, &pa), CAUSE_LOAD_PAGE + 1);   /* L0[6] = 0 */
    tvm_free(&t);
}

/* The remembered fetch page (docs/hart.md "Paging"): a hit serves the
 * same page only while its translation and PMP outcome cannot have
 * changed.  VA 0x40007000 is L0[7] -> PA 0x80022000, X A V (no U); the
 * instructions: addi x1,x0,1 = 0x00100093 at 0x80022000 and 0x80022800,
 * addi x1,x0,2 = 0x00200093 at 0x80024000. */
static void test_fetch_page(void)
{
    tvm t;
    rvt_hart *h = sv39_hart(&t);
    if (!h)
        return;
    tvm_put(h, 0x80022000, 0x00100093, 4);
    tvm_put(h, 0x80022800, 0x00100093, 4);
    tvm_put(h, 0x80024000, 0x00200093, 4);
    const hart_op *o = hart_fetch(h, 0x40007000);
    CHECK(o && o->imm == 1);
    CHECK_EQ(h->fetch_vpage, 0x40007);
    /* remapped to 0x80024000 (X A V: 0x20009049): sfence.vma drops it */
    tvm_put(h, 0x80012038, 0x20009049, 8);
    hart_tlb_flush(h, false, 0x40007000, false, 0);
    o = hart_fetch(h, 0x40007000);
    CHECK(o && o->imm == 2);
    /* U-mode may not fetch from an S page: the page of S is not reused */
    tvm_mode(h, PRV_U, 0);
    CHECK(hart_fetch(h, 0x40007000) == NULL);
    CHECK_EQ(h->ifault_cause, CAUSE_FETCH_PAGE);
    tvm_mode(h, PRV_S, 0);
    CHECK(hart_fetch(h, 0x40007000) != NULL);
    /* a new root: the page is unmapped there (satp write, not sfence) */
    CHECK_EQ(tvm_csr(h, 0x180, 8ull << 60 | 0x80030), 8ull << 60 | 0x80030);
    CHECK(hart_fetch(h, 0x40007000) == NULL);
    CHECK_EQ(h->ifault_cause, CAUSE_FETCH_PAGE);
    /* PMP that lets S fetch only the first half of PA page 0x80024000:
     * entry 0 NAPOT 2 KiB at 0x80024000, X (pmpaddr 0x200090ff, cfg 0x1c);
     * entry 1 NAPOT everything, R W (2^54 - 1, cfg 0x1b).  The page is not
     * remembered, so its second half still faults. */
    CHECK_EQ(tvm_csr(h, 0x180, 8ull << 60 | 0x80010), 8ull << 60 | 0x80010);
    tvm_put(h, 0x80024800, 0x00200093, 4);
    tvm_csr(h, 0x3b0, 0x200090ff);
    tvm_csr(h, 0x3b1, (1ull << 54) - 1);
    tvm_csr(h, 0x3a0, 0x1b1c);
    tvm_mode(h, PRV_S, 0);
    o = hart_fetch(h, 0x40007000);
    CHECK(o && o->imm == 2);
    CHECK(hart_fetch(h, 0x40007800) == NULL);
    CHECK_EQ(h->ifault_cause, CAUSE_FETCH_ACCESS);
    tvm_free(&t);
}

int main(void)
{
    test_fetch_page();
    test_sv39_4k_ad();
    test_sv39_faults();
    test_sv39_superpages();
    test_sv39_sum_mxr();
    test_mprv();
    test_sfence();
    test_misaligned_split();
    test_satp_warl();
    test_sv32();
    return TH_DONE();
}
