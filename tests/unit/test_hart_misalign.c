/* Misaligned loads and stores (priv 3.6.3.4; docs/hart.md): trapped by
 * default, performed in RAM with cfg.misaligned_emulate (--misaligned
 * emulate, as QEMU 7.2), an access fault on a device. */
#include "test_hart_util.h"

/* RAM at TDATA holds 44 33 22 11 88 77 66 55 after the two sw:
 * lw 1 -> bytes 33 22 11 88 = 0xffffffff88112233 (sign-extended) in x10;
 * sh 0x7788 at 3 -> 44 33 22 88 77 77 66 55, ld 0 = 0x5566777788223344
 * in x11; lw 1 from the test finisher (a device): access fault, x22 = 5,
 * x23 = 0x100001.  The trap handler records mcause/mtval in x22/x23. */
static const tinsn mis[] = {
    I4(0x00001a97), /* 00000: auipc s5,0x1 */
    I4(0x00000297), /* 00004: auipc t0,0x0 */
    I4(0x01028293), /* 00008: addi t0,t0,16 */
    I4(0x30529073), /* 0000c: csrrw zero,mtvec,t0 */
    I4(0x01c0006f), /* 00010: jal zero,2c <start> */
    I4(0x34202b73), /* 00014: csrrs s6,mcause,zero */
    I4(0x34302bf3), /* 00018: csrrs s7,mtval,zero */
    I4(0x34102e73), /* 0001c: csrrs t3,mepc,zero */
    I4(0x004e0e13), /* 00020: addi t3,t3,4 */
    I4(0x341e1073), /* 00024: csrrw zero,mepc,t3 */
    I4(0x30200073), /* 00028: mret */
    I4(0x112232b7), /* 0002c: lui t0,0x11223 */
    I4(0x3442829b), /* 00030: addiw t0,t0,836 */
    I4(0x005aa023), /* 00034: sw t0,0(s5) */
    I4(0x556672b7), /* 00038: lui t0,0x55667 */
    I4(0x7882829b), /* 0003c: addiw t0,t0,1928 */
    I4(0x005aa223), /* 00040: sw t0,4(s5) */
    I4(0x001aa503), /* 00044: lw a0,1(s5) */
    I4(0x005a91a3), /* 00048: sh t0,3(s5) */
    I4(0x000ab583), /* 0004c: ld a1,0(s5) */
    I4(0x00100fb7), /* 00050: lui t6,0x100 */
    I4(0x001fa603), /* 00054: lw a2,1(t6) */
    I4(0x00005f37), /* 00058: lui t5,0x5 */
    I4(0x555f0f13), /* 0005c: addi t5,t5,1365 */
    I4(0x01efa023), /* 00060: sw t5,0(t6) */
};

static void test_emulate(void)
{
    rvt_hart_cfg cfg = { .misaligned_emulate = true };
    trun t;
    trun_start(&t, mis, NINSN(mis), &cfg);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    CHECK_EQ(treg(&t, 10), 0xffffffff88112233ull);
    CHECK_EQ(treg(&t, 11), 0x5566777788223344ull);
    CHECK_EQ(treg(&t, 22), 5);
    CHECK_EQ(treg(&t, 23), 0x100001);
    trun_free(&t);
}

/* The default: the first misaligned lw traps (cause 4, tval = address);
 * the handler skips each access, so x22/x23 end with the last trap: the
 * device lw is misaligned too (cause 4, before any access check). */
static void test_trap(void)
{
    trun t;
    trun_start(&t, mis, NINSN(mis), NULL);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    CHECK_EQ(treg(&t, 10), 0);
    CHECK_EQ(treg(&t, 22), 4);
    CHECK_EQ(treg(&t, 23), 0x100001);
    trun_free(&t);
}

int main(void)
{
    test_emulate();
    test_trap();
    return TH_DONE();
}
