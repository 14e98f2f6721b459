/* Counter CSR writes (priv 3.1.11, Zicntr): "any CSR write takes effect
 * after the writing instruction has otherwise completed", so a write to
 * minstret/mcycle (and the RV32 high halves) suppresses the writing
 * instruction's own increment: `csrwi minstret, 0; csrr a0, minstret`
 * reads 0 (riscv-tests rv64mi-p-instret_overflow). */
#include "test_hart_util.h"

/* x10 = minstret right after the write (0), x11 one instruction later
 * (1), x12 = mcycle right after its write (0, retire width 1). */
static const tinsn c64[] = {
    I4(0xb0205073), /* 00000: csrrwi zero,minstret,0 */
    I4(0xb0202573), /* 00004: csrrs a0,minstret,zero */
    I4(0xb02025f3), /* 00008: csrrs a1,minstret,zero */
    I4(0xb0005073), /* 0000c: csrrwi zero,mcycle,0 */
    I4(0xb0002673), /* 00010: csrrs a2,mcycle,zero */
    I4(0x00100fb7), /* 00014: lui t6,0x100 */
    I4(0x00005f37), /* 00018: lui t5,0x5 */
    I4(0x555f0f13), /* 0001c: addi t5,t5,1365 */
    I4(0x01efa023), /* 00020: sw t5,0(t6) */
};

static void test_write_suppresses_increment(void)
{
    trun t;
    trun_start(&t, c64, NINSN(c64), NULL);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    CHECK_EQ(treg(&t, 10), 0);
    CHECK_EQ(treg(&t, 11), 1);
    CHECK_EQ(treg(&t, 12), 0);
    trun_free(&t);
}

/* RV32: minstret = 0xffffffff, then minstreth = 3: with the increment of
 * the minstreth write suppressed nothing carries, so minstreth reads 3
 * (4 if the write's own retirement counted); the csrr of minstreth
 * retires and the low half wraps to 0.  mcycleh = 7 reads 7; a write of 0
 * to minstret reads back 0. */
static const tinsn c32[] = {
    I4(0xfff00293), /* 00000: addi t0,zero,-1 */
    I4(0xb0229073), /* 00004: csrrw zero,minstret,t0 */
    I4(0xb821d073), /* 00008: csrrwi zero,minstreth,3 */
    I4(0xb8202573), /* 0000c: csrrs a0,minstreth,zero */
    I4(0xb02025f3), /* 00010: csrrs a1,minstret,zero */
    I4(0xb803d073), /* 00014: csrrwi zero,mcycleh,7 */
    I4(0xb8002673), /* 00018: csrrs a2,mcycleh,zero */
    I4(0xb0205073), /* 0001c: csrrwi zero,minstret,0 */
    I4(0xb02026f3), /* 00020: csrrs a3,minstret,zero */
    I4(0x00100fb7), /* 00024: lui t6,0x100 */
    I4(0x00005f37), /* 00028: lui t5,0x5 */
    I4(0x555f0f13), /* 0002c: addi t5,t5,1365 */
    I4(0x01efa023), /* 00030: sw t5,0(t6) */
};

static void test_rv32_halves(void)
{
    rvt_hart_cfg cfg = { .xlen = 32 };
    trun t;
    trun_start(&t, c32, NINSN(c32), &cfg);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    CHECK_EQ(treg(&t, 10), 3);
    CHECK_EQ(treg(&t, 11), 0);
    CHECK_EQ(treg(&t, 12), 7);
    CHECK_EQ(treg(&t, 13), 0);
    trun_free(&t);
}

int main(void)
{
    test_write_suppresses_increment();
    test_rv32_halves();
    return TH_DONE();
}
