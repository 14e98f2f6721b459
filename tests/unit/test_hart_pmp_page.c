/* hart_pmp_ok's remembered verdicts (src/hart/pmp.c, docs/hart.md "PMP"): a
 * page is remembered as passing only when every byte passes (the deciding
 * entry's whole region when no lower entry overlaps it), and forgotten
 * when the PMP CSRs change.  Entries hand-encoded from priv 1.12
 * 3.7.1: NA4 (A = 2) cfg 0x10, NAPOT (A = 3) 0x18 | RWX; NAPOT pmpaddr =
 * (base >> 2) | (size / 8 - 1). */
#include "hart/hart_int.h"
#include "test_hart_util.h"

#define CFG0 0x3A0u
#define ADDR(i) (0x3B0u + (i))

int main(void)
{
    static const tinsn loop[] = { I4(0x0000006f) };   /* j . */
    rvt_image *img = timage(loop, 1);
    rvt_hart_cfg cfg = { .xlen = 64 };
    int st;
    rvt_hart *h = rvt_hart_new(&cfg, img, &st);
    CHECK(h != NULL);
    if (!h)
        return TH_DONE();
    /* entry 0: NA4 at 0x80001008, no permissions; entry 1: NAPOT over
     * 128 MiB of RAM at 0x80000000, RWX */
    CHECK_EQ(rvt_hart_tv_reg_write(h, ADDR(0), 0x80001008ull >> 2), 0);
    CHECK_EQ(rvt_hart_tv_reg_write(h, ADDR(1), 0x20000000ull | 0xffffff), 0);
    CHECK_EQ(rvt_hart_tv_reg_write(h, CFG0, 0x1f10), 0);
    CHECK(hart_pmp_ok(h, 0x80001000, 8, HART_ACC_LOAD, PRV_S));    /* below entry 0 */
    CHECK(!hart_pmp_ok(h, 0x80001008, 4, HART_ACC_LOAD, PRV_S));   /* entry 0 decides */
    CHECK(!hart_pmp_ok(h, 0x80001004, 8, HART_ACC_LOAD, PRV_S));   /* partial match */
    CHECK(hart_pmp_ok(h, 0x80001010, 8, HART_ACC_LOAD, PRV_S));
    CHECK(!hart_pmp_ok(h, 0x80001008, 4, HART_ACC_LOAD, PRV_S));   /* still, after a pass */
    CHECK(hart_pmp_ok(h, 0x80001008, 4, HART_ACC_LOAD, PRV_M));    /* M: entry not locked */
    CHECK(hart_pmp_ok(h, 0x80002000, 8, HART_ACC_STORE, PRV_S));   /* page 0x80002 passes */
    CHECK(hart_pmp_ok(h, 0x80002ff8, 8, HART_ACC_STORE, PRV_S));
    CHECK(hart_pmp_ok(h, 0x80002ff8, 8, HART_ACC_LOAD, PRV_U));    /* U: same entry */
    /* entry 1 becomes read-only: the remembered store page must go */
    CHECK_EQ(rvt_hart_tv_reg_write(h, CFG0, 0x1910), 0);
    CHECK(!hart_pmp_ok(h, 0x80002000, 8, HART_ACC_STORE, PRV_S));
    CHECK(hart_pmp_ok(h, 0x80002000, 8, HART_ACC_LOAD, PRV_S));
    /* entry 1 shrinks to 64 MiB (pmpaddr only): 0x84000000 is outside */
    CHECK(hart_pmp_ok(h, 0x84000000, 8, HART_ACC_LOAD, PRV_S));
    CHECK_EQ(rvt_hart_tv_reg_write(h, ADDR(1), 0x20000000ull | 0x7fffff), 0);
    CHECK(!hart_pmp_ok(h, 0x84000000, 8, HART_ACC_LOAD, PRV_S));   /* no entry: S fails */
    CHECK(hart_pmp_ok(h, 0x84000000, 8, HART_ACC_LOAD, PRV_M));    /* ... M passes */
    /* entry 0 OFF: nothing below entry 1 overlaps it, so its whole region
     * [0x80000000, 0x84000000) is remembered, not only the page */
    CHECK_EQ(rvt_hart_tv_reg_write(h, CFG0, 0x1900), 0);
    CHECK(hart_pmp_ok(h, 0x80002000, 8, HART_ACC_LOAD, PRV_S));
    CHECK_EQ(h->pmp_pass[HART_ACC_LOAD][PRV_S].lo, 0x80000000);
    CHECK_EQ(h->pmp_pass[HART_ACC_LOAD][PRV_S].hi, 0x84000000);
    CHECK(hart_pmp_ok(h, 0x83fffff8, 8, HART_ACC_LOAD, PRV_S));
    CHECK(!hart_pmp_ok(h, 0x83fffffc, 8, HART_ACC_LOAD, PRV_S));   /* over the end */
    /* entry 0 back (no permissions): the range is forgotten */
    CHECK_EQ(rvt_hart_tv_reg_write(h, CFG0, 0x1910), 0);
    CHECK(!hart_pmp_ok(h, 0x80001008, 4, HART_ACC_LOAD, PRV_S));
    CHECK(hart_pmp_ok(h, 0x80002000, 8, HART_ACC_LOAD, PRV_S));
    CHECK_EQ(h->pmp_pass[HART_ACC_LOAD][PRV_S].hi, 0x80003000);   /* the page only */
    rvt_hart_free(h);
    rvt_image_free(img);
    return TH_DONE();
}
