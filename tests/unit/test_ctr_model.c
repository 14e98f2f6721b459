/* CTR model (src/ctr) against the Smctr/Ssctr v0.1.4 draft: CC encoding
 * (5.3), recording and the privilege-transition table (5.1), type filters
 * (5.2), external traps (5.2.1), RAS emulation (5.4), freeze (5.5), depth,
 * WRPTR/WRAP (2.4), CLR, the S-mode view (2.2) and the entry registers (3). */
#include "rvtrace/ctr.h"
#include "tharness.h"

enum { U = 0, S = 1, M = 3 };

static rvt_ctr *mk(uint64_t control)
{
    rvt_ctr *c = rvt_ctr_new(NULL);
    rvt_ctr_csr_write(c, RVT_CSR_MCTRCONTROL, control, M, 0);
    return c;
}

static void xfer(rvt_ctr *c, unsigned type, unsigned sp, unsigned tp, uint64_t src, uint64_t tgt,
                 unsigned cause, uint64_t now)
{
    rvt_ctr_xfer x = { src, tgt, type, sp, tp, cause };
    rvt_ctr_transfer(c, &x, now);
}

static uint64_t ireg(const rvt_ctr *c, unsigned entry, unsigned reg)
{
    uint64_t v = 0xdead;
    CHECK_EQ(rvt_ctr_ireg_read(c, 0x200 + entry, reg, &v), RVT_OK);
    return v;
}

/* 5.3: value = CCM if CCE = 0, else (2^12 + CCM) << (CCE - 1).
 *   4095 -> CCE 0, CCM 0xFFF = 0x0FFF
 *   4096 = 2^12 -> CCE 1, CCM 0 = 0x1000
 *   8191 = 2^12 + 4095 -> CCE 1, CCM 0xFFF = 0x1FFF
 *   8192 = (2^12 + 0) << 1 -> CCE 2, CCM 0 = 0x2000
 *   CCE 3 "bottom 2 bits not reported": 16384+7 = (4096+1)<<2 + 3 -> 0x3001,
 *     decoding gives 16388 (undercount 3)
 *   saturation: CCE 15, CCM 0xFFF = 8191 << 14 = 134201344; more stays 0xFFFF */
static void test_cc(void)
{
    CHECK_EQ(rvt_ctr_cc_encode(0), 0);
    CHECK_EQ(rvt_ctr_cc_encode(4095), 0x0FFF);
    CHECK_EQ(rvt_ctr_cc_encode(4096), 0x1000);
    CHECK_EQ(rvt_ctr_cc_encode(8191), 0x1FFF);
    CHECK_EQ(rvt_ctr_cc_encode(8192), 0x2000);
    CHECK_EQ(rvt_ctr_cc_encode(16384 + 7), 0x3001);
    CHECK_EQ(rvt_ctr_cc_decode(0x3001), 16388);
    CHECK_EQ(rvt_ctr_cc_decode(0xFFFF), 134201344);
    CHECK_EQ(rvt_ctr_cc_encode(134201344), 0xFFFF);
    CHECK_EQ(rvt_ctr_cc_encode(UINT64_MAX), 0xFFFF);
    for (uint64_t n = 1; n < (1ull << 27); n = n * 3 + 1) {
        uint64_t d = rvt_ctr_cc_decode(rvt_ctr_cc_encode(n));
        CHECK(d <= n && n - d < (n >> 12) + 1);
    }
    CHECK_STR(rvt_ctr_type_name(13), "return");
    CHECK_STR(rvt_ctr_type_name(6), "reserved");
}

/* 2.1: DEPTH encodings; 2.2: sctrcontrol hides M and MTE; 2.1 CLR reads 0. */
static void test_csrs(void)
{
    rvt_ctr *c = rvt_ctr_new(NULL);
    uint64_t v;
    CHECK_EQ(rvt_ctr_depth(c), 16);
    rvt_ctr_csr_write(c, RVT_CSR_MCTRCONTROL, 0xFull << 16, M, 0);
    CHECK_EQ(rvt_ctr_depth(c), 256);
    rvt_ctr_csr_write(c, RVT_CSR_MCTRCONTROL, 0x3ull << 16, M, 0);
    CHECK_EQ(rvt_ctr_depth(c), 64);
    rvt_ctr_csr_write(c, RVT_CSR_MCTRCONTROL, 0x2ull << 16, M, 0);   /* 0010 -> 0000 */
    CHECK_EQ(rvt_ctr_depth(c), 16);
    rvt_ctr_csr_write(c, RVT_CSR_MCTRCONTROL, UINT64_MAX, M, 0);
    rvt_ctr_csr_read(c, RVT_CSR_MCTRCONTROL, &v);
    /* 47:40, 38:33, DEPTH 19:16, 12:8, 2:0 (CLR reads 0, bit 39 and 63:48 are 0) */
    CHECK_EQ(v, 0x0000FF7E000F1F07ull);
    rvt_ctr_csr_read(c, RVT_CSR_SCTRCONTROL, &v);
    CHECK_EQ(v, 0x0000FF7E000F1E06ull);
    rvt_ctr_csr_write(c, RVT_CSR_SCTRCONTROL, 0, S, 0);   /* M and MTE survive */
    rvt_ctr_csr_read(c, RVT_CSR_MCTRCONTROL, &v);
    CHECK_EQ(v, 0x101);
    CHECK(!rvt_ctr_is_csr(c, RVT_CSR_VSCTRCONTROL));   /* no H */
    CHECK(!rvt_ctr_is_csr(c, RVT_CSR_MCTRCONTROLH));   /* RV64 */
    CHECK_EQ(rvt_ctr_csr_read(c, RVT_CSR_VSCTRCONTROL, &v), RVT_ERR_INVAL);
    /* 2.4: WRPTR is WARL to depth-1; FROZEN and WRAP writable */
    rvt_ctr_csr_write(c, RVT_CSR_SCTRSTATUS, 0xFFFFFFFF, S, 0);
    rvt_ctr_csr_read(c, RVT_CSR_MCTRSTATUS, &v);
    CHECK_EQ(v, 0xC00F);
    rvt_ctr_free(c);

    rvt_ctr_cfg c32 = { .mxlen = 32 };
    c = rvt_ctr_new(&c32);
    CHECK(rvt_ctr_is_csr(c, RVT_CSR_MCTRCONTROLH));
    rvt_ctr_csr_write(c, RVT_CSR_MCTRCONTROLH, 1u << (45 - 32), M, 0);   /* RETINH */
    CHECK_EQ(rvt_ctr_control(c), RVT_CTRCTL_RETINH);
    rvt_ctr_free(c);
}

/* Default filtering: everything but not-taken branches, in enabled modes. */
static void test_record_and_wrap(void)
{
    rvt_ctr *c = mk(RVT_CTRCTL_U);
    xfer(c, RVT_CTR_NT_BRANCH, U, U, 0x100, 0x104, 0, 1);     /* not recorded */
    xfer(c, RVT_CTR_T_BRANCH, M, M, 0x200, 0x240, 0, 2);      /* M not enabled */
    xfer(c, RVT_CTR_T_BRANCH, U, U, 0x300, 0x340, 0, 3);
    CHECK_EQ(rvt_ctr_status(c), 1);                           /* WRPTR 1 */
    CHECK_EQ(ireg(c, 0, 1), 0x301);                           /* V */
    CHECK_EQ(ireg(c, 0, 2), 0x340);
    /* the control write at cycle 0 cleared CCV; CC = 2 qualified cycles:
     * 0..1 and 2..3 in U, 1..2 in M (the M branch's source mode) */
    CHECK_EQ(ireg(c, 0, 3), (2u << 16) | RVT_CTR_T_BRANCH);
    CHECK_EQ(ireg(c, 1, 1), 0);
    for (unsigned i = 0; i < 16; i++)
        xfer(c, RVT_CTR_DIR_CALL, U, U, 0x1000 + 4 * i, 0x2000, 0, 10 + i);
    /* 17 records at depth 16: WRPTR wrapped to 1 and WRAP is set */
    CHECK_EQ(rvt_ctr_status(c), RVT_CTRSTS_WRAP | 1);
    CHECK_EQ(ireg(c, 0, 1), 0x103C | 1);
    CHECK_EQ(ireg(c, 15, 1), 0x1000 | 1);
    CHECK_EQ(ireg(c, 0, 3), RVT_CTRDATA_CCV | (1u << 16) | RVT_CTR_DIR_CALL);
    CHECK_EQ(ireg(c, 16, 1), 0);                              /* past depth: 0 */
    rvt_ctr_entry e;
    CHECK_EQ(rvt_ctr_get(c, 1, &e), 1);
    CHECK_EQ(e.source, 0x1038 | 1);
    /* CLR zeroes entries and status */
    rvt_ctr_csr_write(c, RVT_CSR_MCTRCONTROL, RVT_CTRCTL_U | RVT_CTRCTL_CLR, M, 30);
    CHECK_EQ(rvt_ctr_status(c), 0);
    CHECK_EQ(rvt_ctr_get(c, 0, &e), 0);
    CHECK_EQ(rvt_ctr_control(c) & RVT_CTRCTL_CLR, 0);
    rvt_ctr_free(c);
}

/* 5.2 inhibit bits and NTBREN. */
static void test_filters(void)
{
    rvt_ctr *c = mk(RVT_CTRCTL_M | RVT_CTRCTL_NTBREN | RVT_CTRCTL_RETINH | RVT_CTRCTL_EXCINH);
    xfer(c, RVT_CTR_NT_BRANCH, M, M, 0x10, 0x14, 0, 1);
    xfer(c, RVT_CTR_RETURN, M, M, 0x20, 0x30, 0, 2);
    xfer(c, RVT_CTR_EXCEPTION, M, M, 0x40, 0x50, 2, 3);
    xfer(c, RVT_CTR_INTERRUPT, M, M, 0x60, 0x70, 7, 4);
    CHECK_EQ(rvt_ctr_status(c), 2);
    CHECK_EQ(ireg(c, 0, 1), 0x61);
    CHECK_EQ(ireg(c, 0, 3) & 15, RVT_CTR_INTERRUPT);
    CHECK_EQ(ireg(c, 1, 2), 0x14);
    rvt_ctr_free(c);
}

/* 5.1 table and 5.2.1: S enabled, U and M inhibited. */
static void test_priv_table(void)
{
    rvt_ctr *c = mk(RVT_CTRCTL_S);
    xfer(c, RVT_CTR_EXCEPTION, U, S, 0x100, 0x800, 8, 1);   /* inhibited -> enabled: src 0 */
    CHECK_EQ(ireg(c, 0, 1), 1);
    CHECK_EQ(ireg(c, 0, 2), 0x800);
    xfer(c, RVT_CTR_TRAP_RETURN, S, U, 0x810, 0x104, 0, 2); /* enabled -> inhibited: tgt 0 */
    CHECK_EQ(ireg(c, 0, 1), 0x811);
    CHECK_EQ(ireg(c, 0, 2), 0);
    xfer(c, RVT_CTR_TRAP_RETURN, M, S, 0x900, 0x820, 0, 3); /* from inhibited: no */
    xfer(c, RVT_CTR_EXCEPTION, S, M, 0x820, 0x900, 9, 4);   /* external, ETEN=0: no */
    CHECK_EQ(rvt_ctr_status(c), 2);
    /* ETEN + MTE: recorded with target 0 even with EXCINH (5.2.1) */
    rvt_ctr_csr_write(c, RVT_CSR_MCTRCONTROL, RVT_CTRCTL_S | RVT_CTRCTL_ETEN | RVT_CTRCTL_MTE |
                      RVT_CTRCTL_EXCINH, M, 5);
    xfer(c, RVT_CTR_EXCEPTION, S, M, 0x820, 0x900, 9, 6);
    CHECK_EQ(rvt_ctr_status(c), 3);
    CHECK_EQ(ireg(c, 0, 1), 0x821);
    CHECK_EQ(ireg(c, 0, 2), 0);
    /* ETEN without STE: U -> S is not an external trap here (S enabled) but
     * with S inhibited and U enabled, it needs STE */
    rvt_ctr_csr_write(c, RVT_CSR_MCTRCONTROL, RVT_CTRCTL_U | RVT_CTRCTL_ETEN | RVT_CTRCTL_MTE, M, 7);
    xfer(c, RVT_CTR_EXCEPTION, U, S, 0x104, 0x800, 8, 8);
    CHECK_EQ(rvt_ctr_status(c), 3);
    rvt_ctr_free(c);
}

/* 5.4: calls push, returns pop (WRPTR back, V cleared, WRAP cleared on
 * the wrap below 0), swaps overwrite, others ignored despite filters. */
static void test_rasemu(void)
{
    rvt_ctr *c = mk(RVT_CTRCTL_M | RVT_CTRCTL_RASEMU | RVT_CTRCTL_DIRCALLINH);
    xfer(c, RVT_CTR_DIR_CALL, M, M, 0x100, 0x1000, 0, 10);   /* A: filter ignored */
    xfer(c, RVT_CTR_T_BRANCH, M, M, 0x1004, 0x1010, 0, 12);  /* not recorded */
    xfer(c, RVT_CTR_IND_CALL, M, M, 0x1010, 0x2000, 0, 20);  /* B */
    CHECK_EQ(rvt_ctr_status(c), 2);
    xfer(c, RVT_CTR_RETURN, M, M, 0x2004, 0x1014, 0, 25);    /* pop B */
    CHECK_EQ(rvt_ctr_status(c), 1);
    CHECK_EQ(ireg(c, 0, 1), 0x101);
    CHECK_EQ(ireg(c, 15, 1), 0x1010);                        /* B invalid at depth-1 */
    /* C: its CC spans from A: 10 (B's CC) + 5 + 5 = 20 */
    xfer(c, RVT_CTR_DIR_CALL, M, M, 0x1018, 0x3000, 0, 30);
    CHECK_EQ(ireg(c, 0, 3), RVT_CTRDATA_CCV | (20u << 16) | RVT_CTR_DIR_CALL);
    xfer(c, RVT_CTR_CO_SWAP, M, M, 0x3004, 0x4000, 0, 31);
    CHECK_EQ(rvt_ctr_status(c), 2);
    CHECK_EQ(ireg(c, 0, 1), 0x3005);
    CHECK_EQ(ireg(c, 0, 3) & 15, RVT_CTR_CO_SWAP);
    xfer(c, RVT_CTR_RETURN, M, M, 0, 0, 0, 32);
    xfer(c, RVT_CTR_RETURN, M, M, 0, 0, 0, 33);
    xfer(c, RVT_CTR_RETURN, M, M, 0, 0, 0, 34);   /* below 0: wraps to 15 */
    CHECK_EQ(rvt_ctr_status(c), 15);
    rvt_ctr_free(c);
}

/* 5.5: BPFRZ / LCOFIFRZ freeze, the trap itself is not recorded, nothing
 * is recorded while FROZEN, and frozen cycles are not counted. */
static void test_freeze(void)
{
    rvt_ctr *c = mk(RVT_CTRCTL_M | RVT_CTRCTL_BPFRZ);
    xfer(c, RVT_CTR_EXCEPTION, M, M, 0x100, 0x800, 3, 5);
    CHECK_EQ(rvt_ctr_status(c), RVT_CTRSTS_FROZEN);
    xfer(c, RVT_CTR_T_BRANCH, M, M, 0x800, 0x810, 0, 6);
    CHECK_EQ(rvt_ctr_status(c), RVT_CTRSTS_FROZEN);
    rvt_ctr_csr_write(c, RVT_CSR_MCTRSTATUS, 0, M, 100);          /* unfreeze at 100 */
    xfer(c, RVT_CTR_T_BRANCH, M, M, 0x820, 0x830, 0, 107);
    CHECK_EQ(ireg(c, 0, 3) >> 16, 5 + 7);   /* 0..5 and 100..107 */
    rvt_ctr_free(c);
    c = mk(RVT_CTRCTL_M | RVT_CTRCTL_LCOFIFRZ);
    xfer(c, RVT_CTR_INTERRUPT, M, M, 0x100, 0x800, 7, 1);   /* MTI: recorded */
    xfer(c, RVT_CTR_INTERRUPT, M, M, 0x104, 0x800, 13, 2);  /* LCOFI: freezes */
    CHECK_EQ(rvt_ctr_status(c), RVT_CTRSTS_FROZEN | 1);
    rvt_ctr_free(c);
}

int main(void)
{
    test_cc();
    test_csrs();
    test_record_and_wrap();
    test_filters();
    test_priv_table();
    test_rasemu();
    test_freeze();
    return TH_DONE();
}
