/* Reference hart: PMP (priv 1.12, 3.7) through the CSRs.  Addresses are
 * pmpaddr = PA >> 2; NAPOT adds (size / 8) - 1 trailing ones (3.7.1.2);
 * pmpcfg byte = L . . A(4:3) X W R, A: 1 TOR, 2 NA4, 3 NAPOT. */
#include "test_hart_vm.h"

#define LD HART_ACC_LOAD
#define ST HART_ACC_STORE
#define FE HART_ACC_FETCH

static int acc_s(rvt_hart *h, unsigned priv, uint64_t pa, unsigned size, unsigned acc)
{
    tvm_mode(h, priv, 0);
    uint64_t out;
    return hart_xlate(h, pa, size, acc, &out);
}

/* Every entry OFF: no PMP at all (docs/hart.md), the fast paths stay. */
static void test_all_off(void)
{
    tvm t;
    rvt_hart *h = tvm_new(&t, 64);
    if (!h)
        return;
    tvm_mode(h, PRV_U, 0);
    CHECK(!h->xl_data && !h->xl_fetch);
    CHECK_EQ(acc_s(h, PRV_U, 0x80000000, 8, ST), 0);
    tvm_free(&t);
}

/* entry 0 NAPOT 64 KiB at 0x80000000, R:   pmpaddr0 = 0x20000000 | 0x1fff, cfg 0x19
 * entry 2 OFF, its pmpaddr the TOR base:   pmpaddr2 = 0x80100000 >> 2 = 0x20040000
 * entry 3 TOR [0x80100000, 0x80200000), RW: pmpaddr3 = 0x20080000, cfg 0x0b
 * entry 4 NA4 at 0x80300000, X:            pmpaddr4 = 0x200c0000, cfg 0x14
 * entry 5 NAPOT everything, RWX:           pmpaddr5 = 2^54 - 1, cfg 0x1f
 * pmpcfg0 = 0x1f_14_0b_00_00_19 (bytes 5..0) */
static rvt_hart *four_entries(tvm *t)
{
    rvt_hart *h = tvm_new(t, 64);
    if (!h)
        return NULL;
    tvm_csr(h, 0x3b0, 0x20001fff);
    tvm_csr(h, 0x3b2, 0x20040000);
    tvm_csr(h, 0x3b3, 0x20080000);
    tvm_csr(h, 0x3b4, 0x200c0000);
    CHECK_EQ(tvm_csr(h, 0x3b5, UINT64_MAX), (1ull << 54) - 1);
    CHECK_EQ(tvm_csr(h, 0x3a0, 0x1f140b000019ull), 0x1f140b000019ull);
    return h;
}

static void test_modes(void)
{
    tvm t;
    rvt_hart *h = four_entries(&t);
    if (!h)
        return;
    /* NAPOT, R only; the lowest entry wins over entry 5 */
    CHECK_EQ(acc_s(h, PRV_S, 0x80000010, 8, LD), 0);
    CHECK_EQ(acc_s(h, PRV_S, 0x80000010, 8, ST), CAUSE_STORE_ACCESS + 1);
    CHECK_EQ(acc_s(h, PRV_U, 0x8000fffc, 4, FE), CAUSE_FETCH_ACCESS + 1);
    /* an access over the NAPOT end matches only partly: fails (3.7.1) */
    CHECK_EQ(acc_s(h, PRV_S, 0x8000fffc, 8, LD), CAUSE_LOAD_ACCESS + 1);
    /* TOR: [pmpaddr2 << 2, pmpaddr3 << 2) */
    CHECK_EQ(acc_s(h, PRV_S, 0x80100000, 8, ST), 0);
    CHECK_EQ(acc_s(h, PRV_S, 0x801ffff8, 8, ST), 0);
    CHECK_EQ(acc_s(h, PRV_S, 0x801ffff8, 8, FE), CAUSE_FETCH_ACCESS + 1);
    CHECK_EQ(acc_s(h, PRV_S, 0x801ffffc, 8, LD), CAUSE_LOAD_ACCESS + 1);   /* partial */
    /* NA4: 4 bytes */
    CHECK_EQ(acc_s(h, PRV_S, 0x80300000, 4, FE), 0);
    CHECK_EQ(acc_s(h, PRV_S, 0x80300000, 4, LD), CAUSE_LOAD_ACCESS + 1);
    /* past the NA4 word: entry 5 */
    CHECK_EQ(acc_s(h, PRV_S, 0x80300004, 4, ST), 0);
    /* M-mode: unlocked entries do not apply */
    CHECK_EQ(acc_s(h, PRV_M, 0x80000010, 8, ST), 0);
    CHECK(!h->xl_data);
    tvm_free(&t);
}

/* No matching entry: M succeeds, S/U fail (3.7.1). */
static void test_no_match(void)
{
    tvm t;
    rvt_hart *h = tvm_new(&t, 64);
    if (!h)
        return;
    tvm_csr(h, 0x3b0, 0x20001fff);
    tvm_csr(h, 0x3a0, 0x1f);            /* entry 0 NAPOT 64 KiB RWX */
    CHECK_EQ(acc_s(h, PRV_S, 0x80000000, 4, LD), 0);
    CHECK_EQ(acc_s(h, PRV_S, 0x80010000, 4, LD), CAUSE_LOAD_ACCESS + 1);
    CHECK_EQ(acc_s(h, PRV_U, 0x80010000, 4, ST), CAUSE_STORE_ACCESS + 1);
    CHECK_EQ(acc_s(h, PRV_M, 0x80010000, 4, ST), 0);
    tvm_free(&t);
}

/* L (3.7.1.3): the entry binds M-mode, its cfg byte and pmpaddr ignore
 * writes, and a locked TOR entry locks the pmpaddr below it too. */
static void test_lock(void)
{
    tvm t;
    rvt_hart *h = four_entries(&t);
    if (!h)
        return;
    /* byte 0: 0x99 (L, NAPOT, R); byte 3: 0x8b (L, TOR, RW) */
    CHECK_EQ(tvm_csr(h, 0x3a0, 0x1f148b000099ull), 0x1f148b000099ull);
    CHECK(h->pmp_locked);
    CHECK_EQ(acc_s(h, PRV_M, 0x80000010, 8, ST), CAUSE_STORE_ACCESS + 1);
    CHECK_EQ(acc_s(h, PRV_M, 0x80000010, 8, LD), 0);
    CHECK_EQ(acc_s(h, PRV_M, 0x80100000, 4, FE), CAUSE_FETCH_ACCESS + 1);
    CHECK(h->xl_data && h->xl_fetch);
    /* writes: locked bytes 0 and 3 keep their values, byte 1 changes */
    CHECK_EQ(tvm_csr(h, 0x3a0, 0x1f1400001f1full), 0x1f148b001f99ull);
    CHECK_EQ(tvm_csr(h, 0x3b0, 0), 0x20001fff);
    CHECK_EQ(tvm_csr(h, 0x3b3, 0), 0x20080000);   /* its own L */
    CHECK_EQ(tvm_csr(h, 0x3b2, 0), 0x20040000);   /* entry 3's TOR base */
    CHECK_EQ(tvm_csr(h, 0x3b4, 0x200c0001), 0x200c0001);   /* unlocked */
    tvm_free(&t);
}

/* RV64 has pmpcfg0 and pmpcfg2 (8 entries each); RV32 pmpcfg0-3 (4 each);
 * pmpcfg4+ and pmpaddr16+ are read-only zero (16 entries). */
static void test_layout(void)
{
    tvm t;
    rvt_hart *h = tvm_new(&t, 64);
    if (!h)
        return;
    CHECK_EQ(tvm_csr(h, 0x3a2, 0x1b00), 0x1b00);   /* entry 9: NAPOT RW */
    CHECK_EQ(hart_pmp_cfg(h, 9), 0x1b);
    CHECK_EQ(tvm_csr(h, 0x3a4, 0xff), 0);
    CHECK_EQ(tvm_csr(h, 0x3c0, 0x1234), 0);         /* pmpaddr16 */
    CHECK_EQ(tvm_csr(h, 0x3a0, 0xff), 0x9f);       /* bits 6:5 read 0 */
    tvm_free(&t);
    h = tvm_new(&t, 32);
    if (!h)
        return;
    CHECK_EQ(tvm_csr(h, 0x3a1, 0x1f), 0x1f);       /* entry 4 */
    CHECK_EQ(hart_pmp_cfg(h, 4), 0x1f);
    CHECK_EQ(tvm_csr(h, 0x3b4, 0xffffffff), 0xffffffff);
    /* NAPOT with pmpaddr all ones on RV32: the whole 34-bit space */
    CHECK_EQ(acc_s(h, PRV_U, 0x3fffffff8ull, 8, ST), 0);
    tvm_free(&t);
}

/* Page-table reads are PMP-checked as S-mode loads; a denied PTE read is
 * an access fault of the original access (priv 4.3.2 step 2).
 * Sv39 gigapage: root 0x80010000, root[1] VA 0x40000000 -> 0x80000000,
 * D A X W R V = 0x80000 << 10 | 0xcf = 0x200000cf.
 * entry 0 NAPOT 4 KiB over the root, no permission: 0x20004000 | 0x1ff, cfg 0x18
 * entry 1 NAPOT everything, RWX. */
static void test_walk_checked(void)
{
    tvm t;
    rvt_hart *h = tvm_new(&t, 64);
    if (!h)
        return;
    tvm_put(h, 0x80010008, 0x200000cf, 8);
    tvm_csr(h, 0x180, 8ull << 60 | 0x80010);
    tvm_csr(h, 0x3b1, UINT64_MAX);
    tvm_csr(h, 0x3a0, 0x1f00);
    CHECK_EQ(acc_s(h, PRV_S, 0x40000100, 8, LD), 0);
    tvm_csr(h, 0x3b0, 0x200041ff);
    tvm_csr(h, 0x3a0, 0x1f18);
    hart_tlb_flush(h, true, 0, false, 0);
    CHECK_EQ(acc_s(h, PRV_S, 0x40000100, 8, LD), CAUSE_LOAD_ACCESS + 1);
    CHECK_EQ(acc_s(h, PRV_S, 0x40000100, 8, ST), CAUSE_STORE_ACCESS + 1);
    CHECK_EQ(acc_s(h, PRV_S, 0x40000100, 4, FE), CAUSE_FETCH_ACCESS + 1);
    /* the translated address is checked too: 0x40010000 -> 0x80010000 */
    tvm_csr(h, 0x3a0, 0x1f1f);
    CHECK_EQ(acc_s(h, PRV_S, 0x40010000, 8, LD), 0);
    tvm_csr(h, 0x3a0, 0x1f18);
    CHECK_EQ(acc_s(h, PRV_S, 0x40010000, 8, LD), CAUSE_LOAD_ACCESS + 1);
    tvm_free(&t);
}

/* A tandem-verification state copy (rvt_hart_tv_reg_write) of an all-ones
 * pmpaddr keeps the 54 implemented bits, as a CSR write does: NAPOT over
 * everything, so a high address matches (before: ctz(0), an undefined
 * shift, and a region of 8 bytes). */
static void test_tv_write_masked(void)
{
    tvm t;
    rvt_hart *h = tvm_new(&t, 64);
    if (!h)
        return;
    CHECK_EQ(rvt_hart_tv_reg_write(h, 0x3b0, UINT64_MAX), RVT_OK);
    uint64_t v = 0;
    CHECK_EQ(rvt_hart_tv_reg_read(h, 0x3b0, &v), RVT_OK);
    CHECK_EQ(v, (1ull << 54) - 1);
    CHECK_EQ(rvt_hart_tv_reg_write(h, 0x3a0, 0x1f), RVT_OK);
    CHECK_EQ(acc_s(h, PRV_S, 0x80000000, 8, ST), 0);
    CHECK_EQ(acc_s(h, PRV_U, 0x00ff00000000ull, 8, LD), 0);
    tvm_free(&t);
}

int main(void)
{
    test_tv_write_masked();
    test_all_off();
    test_modes();
    test_no_match();
    test_lock();
    test_layout();
    test_walk_checked();
    return TH_DONE();
}
