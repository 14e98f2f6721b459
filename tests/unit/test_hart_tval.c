/* Illegal-instruction mtval for a reserved >= 80-bit encoding (parcel
 * 0xffff): priv 1.12 3.1.16, "mtval will contain the shortest of: the
 * actual faulting instruction, the first ILEN bits of the faulting
 * instruction, the first MXLEN bits": the hart's ILEN is 32, so the first
 * 32 bits, 0xffffffff (found comparing with QEMU register by register:
 * the hart reported 16 bits).  Encodings by hand. */
#include "test_hart_util.h"

static void reserved_long_encoding(unsigned xlen)
{
    static const tinsn p[] = {
        I4(0x00000297),   /* 0x00 auipc t0, 0 */
        I4(0x01028293),   /* 0x04 addi  t0, t0, 16 */
        I4(0x30529073),   /* 0x08 csrw  mtvec, t0 */
        I4(0xffffffff),   /* 0x0c reserved >= 192-bit encoding: illegal */
        I4(0x34302573),   /* 0x10 handler: csrr a0, mtval */
        I4(0x342025f3),   /* 0x14 csrr a1, mcause */
        I4(0x001002b7), I4(0x00005e37), I4(0x555e0e13), I4(0x01c2a023),   /* finisher */
    };
    rvt_hart_cfg cfg = { .xlen = xlen };
    trun t;
    trun_start(&t, p, NINSN(p), &cfg);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    CHECK_EQ(treg(&t, 11), 2);            /* illegal instruction */
    CHECK_EQ(treg(&t, 10), 0xffffffff);   /* the first 32 bits, not 0xffff */
    trun_free(&t);
}

int main(void)
{
    reserved_long_encoding(64);
    reserved_long_encoding(32);
    return TH_DONE();
}
