/* --mem regions and Spike's machine in the hart (docs/hart.md "Spike's
 * machine"): a region at address 0 is plain RAM (a store to its first
 * bytes is no HTIF command when the program has no `tohost`), and the
 * spike machine's ROM holds Spike's reset vector and the entry address.
 * Encodings by hand (unpriv 2.4-2.6 formats). */
#include "test_hart_util.h"

/* finisher: lui t0,0x100; lui t3,5; addi t3,t3,0x555; sw t3,0(t0) */
#define FINISH I4(0x001002b7), I4(0x00005e37), I4(0x555e0e13), I4(0x01c2a023)

static void region_at_zero(void)
{
    static const tinsn p[] = {
        I4(0x00300313),   /* addi t1, x0, 3 */
        I4(0x00603023),   /* sd   t1, 0(x0) */
        I4(0x00003383),   /* ld   t2, 0(x0) */
        FINISH,
    };
    rvt_hart_cfg cfg = { .nmem = 1, .mem = { { 0, 4096 } } };
    trun t;
    trun_start(&t, p, NINSN(p), &cfg);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    CHECK_EQ(rvt_hart_exit_code(t.h), 0);   /* not HTIF's exit(3 >> 1) */
    CHECK_EQ(treg(&t, 7), 3);
    trun_free(&t);
}

static void spike_rom(void)
{
    static const tinsn p[] = {
        I4(0x00028693),   /* addi a3, t0, 0    t0 as the ROM left it */
        I4(0x00001337),   /* lui  t1, 1        (0x1000) */
        I4(0x00032383),   /* lw   t2, 0(t1)    the ROM's first word */
        I4(0x01833603),   /* ld   a2, 24(t1)   the start address */
        FINISH,
    };
    rvt_hart_cfg cfg = { .spike_machine = true };
    trun t;
    trun_start(&t, p, NINSN(p), &cfg);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    CHECK_EQ(treg(&t, 7), 0x00000297);      /* auipc t0, 0 */
    CHECK_EQ(treg(&t, 12), 0x80000000);     /* the ELF entry */
    CHECK_EQ(treg(&t, 11), 0x1020);         /* a1: addi a1, t0, 32 */
    CHECK_EQ(treg(&t, 13), 0x80000000);     /* t0: the jr target */
    trun_free(&t);
}

int main(void)
{
    region_at_zero();
    spike_rom();
    return TH_DONE();
}
