/* Reference hart: the Sdtrig trigger module (trigger.c), checked against
 * the RISC-V Debug spec 1.0 ch. 5 (mcontrol6 in 5.7) and E-Trace 4.2.4
 * table 4.7.  Part 1 drives the trigger unit directly (CSR access with
 * M-mode rights, then hart_trig_exec / hart_trig_mem as the exec loop
 * calls them); part 2 runs a program and checks the breakpoint exception
 * and the trigger pulses on the ingress blocks. */
#include "test_hart_util.h"
#include "hart/hart_int.h"

/* mcontrol6 fields (Debug spec 1.0, 5.7 mcontrol6) */
#define LD (1ull << 0)
#define ST (1ull << 1)
#define EX (1ull << 2)
#define MU (1ull << 3)
#define MS (1ull << 4)
#define MM (1ull << 6)
#define MATCH(m) ((uint64_t)(m) << 7)
#define CHAIN (1ull << 11)
#define ACTION(a) ((uint64_t)(a) << 12)
#define SIZE(s) ((uint64_t)(s) << 16)
#define HIT0 (1ull << 22)
#define T6_64 (6ull << 60)
#define T6_32 (6ull << 28)

static const tinsn stop[] = {
    I4(0x00100fb7), /* 00000: lui x31,0x100 */
    I4(0x00005f37), /* 00004: lui x30,0x5 */
    I4(0x555f0f13), /* 00008: addi x30,x30,1365 */
    I4(0x01efa023), /* 0000c: sw x30,0(x31) */
};

static uint64_t rd(rvt_hart *h, unsigned csr)
{
    uint64_t v = 0xdead;
    CHECK(hart_csr_access(h, csr, false, &v));
    return v;
}

static void wr(rvt_hart *h, unsigned csr, uint64_t v)
{
    CHECK(hart_csr_access(h, csr, true, &v));
}

/* Program trigger i: disable, tdata2, then tdata1 (a debugger's order). */
static void set(rvt_hart *h, unsigned i, uint64_t tdata1, uint64_t tdata2)
{
    wr(h, 0x7a0, i);
    wr(h, 0x7a1, 0);
    wr(h, 0x7a2, tdata2);
    wr(h, 0x7a1, tdata1);
}

static rvt_hart *mk(trun *t, unsigned xlen)
{
    rvt_hart_cfg cfg = { .xlen = xlen };
    trun_start(t, stop, NINSN(stop), &cfg);
    return t->h;
}

/* 5.7 tinfo, tselect, tdata1/2/3 WARL read-back (the choices in docs/hart.md). */
static void test_warl(unsigned xlen)
{
    trun t;
    rvt_hart *h = mk(&t, xlen);
    if (!h)
        return;
    uint64_t T6 = xlen == 64 ? T6_64 : T6_32;
    /* tinfo: version 1 in 31:24, info bit 6 (mcontrol6 only) */
    CHECK_EQ(rd(h, 0x7a4), 0x01000040);
    /* reset: every trigger is a disabled type 6 (type in XLEN-1:XLEN-4) */
    CHECK_EQ(rd(h, 0x7a1), T6);
    /* tselect: 0..7 exist; 8 and above are not taken */
    wr(h, 0x7a0, 7);
    CHECK_EQ(rd(h, 0x7a0), 7);
    wr(h, 0x7a0, 8);
    CHECK_EQ(rd(h, 0x7a0), 7);
    /* chain on the last trigger has nothing to chain with: cleared */
    wr(h, 0x7a1, T6 | CHAIN | EX | MM);
    CHECK_EQ(rd(h, 0x7a1), T6 | EX | MM);
    wr(h, 0x7a0, 2);
    /* action 1 needs dmode 1 (5.2, action table): cleared to 0; dmode,
     * uncertain(26), vs(24), vu(23), select(21), uncertainen(5) read 0 */
    uint64_t dmode = 1ull << (xlen - 5);
    wr(h, 0x7a1, T6 | dmode | ACTION(1) | (1ull << 26) | (1ull << 24) | (1ull << 23) |
                 (1ull << 21) | (1ull << 5) | LD | MU);
    CHECK_EQ(rd(h, 0x7a1), T6 | LD | MU);
    /* actions 5, 8, 15 are not supported: 0; 2, 3, 4 stay */
    for (unsigned a = 0; a < 16; a++) {
        wr(h, 0x7a1, T6 | ACTION(a) | ST | MS);
        uint64_t want = T6 | ST | MS | (a == 2 || a == 3 || a == 4 ? ACTION(a) : 0);
        CHECK_EQ(rd(h, 0x7a1), want);
    }
    /* match: 0-5, 8, 9, 12, 13 stay; 6, 7, 10, 11, 14, 15 are reserved */
    for (unsigned m = 0; m < 16; m++) {
        wr(h, 0x7a1, T6 | MATCH(m) | EX | MM);
        bool ok = m <= 5 || m == 8 || m == 9 || m == 12 || m == 13;
        CHECK_EQ(rd(h, 0x7a1), T6 | EX | MM | (ok ? MATCH(m) : 0));
    }
    /* size: 0, 1, 2, 3, 5 stay; 4 (48-bit), 6 (128-bit), 7 read 0 */
    for (unsigned s = 0; s < 8; s++) {
        wr(h, 0x7a1, T6 | SIZE(s) | LD | MM);
        bool ok = s <= 3 || s == 5;
        CHECK_EQ(rd(h, 0x7a1), T6 | LD | MM | (ok ? SIZE(s) : 0));
    }
    /* hit0/hit1 are writable (a debugger clears them) */
    wr(h, 0x7a1, T6 | HIT0 | (1ull << 25));
    CHECK_EQ(rd(h, 0x7a1), T6 | HIT0 | (1ull << 25));
    /* a type other than 6 (2 = mcontrol, 15 = disabled) leaves a disabled
     * type 6; writing 0 disables (5.7 tdata1) */
    wr(h, 0x7a1, (2ull << (xlen - 4)) | EX | MM);
    CHECK_EQ(rd(h, 0x7a1), T6);
    wr(h, 0x7a1, 0);
    CHECK_EQ(rd(h, 0x7a1), T6);
    /* tdata2 holds any XLEN value; with NAPOT, all ones in bits XLEN-2:0
     * clears bit XLEN-2 (maskmax6 = XLEN-1) */
    uint64_t ones = xlen == 64 ? UINT64_MAX : 0xffffffffull;
    wr(h, 0x7a2, ones);
    CHECK_EQ(rd(h, 0x7a2), ones);
    wr(h, 0x7a1, T6 | MATCH(1));
    CHECK_EQ(rd(h, 0x7a2), ones & ~(1ull << (xlen - 2)));
    wr(h, 0x7a2, 0x80001007);
    CHECK_EQ(rd(h, 0x7a2), 0x80001007);
    /* tdata3 (textra) reads 0; a tinfo write is ignored; tcontrol (0x7a5)
     * does not exist */
    wr(h, 0x7a3, 123);
    CHECK_EQ(rd(h, 0x7a3), 0);
    wr(h, 0x7a4, 0);
    CHECK_EQ(rd(h, 0x7a4), 0x01000040);
    uint64_t v;
    CHECK(!hart_csr_access(h, 0x7a5, false, &v));
    /* nothing armed: the plain loop runs (no per-instruction checks) */
    for (unsigned i = 0; i < HART_NTRIG; i++)
        set(h, i, 0, 0);
    CHECK_EQ(h->trig_x | h->trig_ld | h->trig_st, 0);
    CHECK(!h->obs);
    set(h, 3, T6 | EX | MU, 0x80000000);
    CHECK_EQ(h->trig_x, 1u << 3);
    CHECK(h->obs);
    set(h, 3, T6 | EX, 0x80000000);   /* no mode bit: cannot fire */
    CHECK_EQ(h->trig_x, 0);
    trun_free(&t);
}

/* Fire trigger 0 alone on a load (or the kinds given) and report whether
 * it pulsed trace-notify. */
static bool fires(rvt_hart *h, uint64_t tdata1, uint64_t tdata2, unsigned kinds, uint64_t a,
                  unsigned size)
{
    set(h, 0, tdata1, tdata2);
    h->trig_pend = 0;
    bool bp = hart_trig_mem(h, kinds, a, size);
    bool n = (h->trig_pend & RVT_IREC_F_TRIG_NOTIFY) != 0;
    h->trig_pend = 0;
    CHECK(!bp);
    return n;
}

/* 5.7 mcontrol6.match with select 0: the compare values are every byte
 * address of the access; 8+ negates. */
static void test_match(void)
{
    trun t;
    rvt_hart *h = mk(&t, 64);
    if (!h)
        return;
    const uint64_t N = T6_64 | ACTION(4) | MM | LD;
    const unsigned L = HART_TRIG_LOAD;
    /* equal: 0x1003 is the last byte of a 4-byte load at 0x1000 */
    CHECK(fires(h, N | MATCH(0), 0x1003, L, 0x1000, 4));
    CHECK(!fires(h, N | MATCH(0), 0x1003, L, 0x1000, 2));
    CHECK(fires(h, N | MATCH(0), 0x1003, L, 0x1003, 1));
    /* not equal */
    CHECK(!fires(h, N | MATCH(8), 0x1003, L, 0x1000, 4));
    CHECK(fires(h, N | MATCH(8), 0x1003, L, 0x2000, 4));
    /* NAPOT 0x1007: M = 63 - 3, the 16 bytes 0x1000..0x100f */
    CHECK(fires(h, N | MATCH(1), 0x1007, L, 0x100f, 1));
    CHECK(fires(h, N | MATCH(1), 0x1007, L, 0x1000, 8));
    CHECK(!fires(h, N | MATCH(1), 0x1007, L, 0x1010, 8));
    CHECK(!fires(h, N | MATCH(1), 0x1007, L, 0x0ff8, 8));
    CHECK(fires(h, N | MATCH(1), 0x1007, L, 0x0ffc, 8));   /* bytes 0x1000..0x1003 */
    CHECK(fires(h, N | MATCH(9), 0x1007, L, 0x1010, 8));
    CHECK(!fires(h, N | MATCH(9), 0x1007, L, 0x1008, 4));
    /* >= (unsigned): any byte at or above 0x2000 */
    CHECK(!fires(h, N | MATCH(2), 0x2000, L, 0x1ffc, 4));
    CHECK(fires(h, N | MATCH(2), 0x2000, L, 0x1ffc, 8));
    CHECK(fires(h, N | MATCH(2), 0x2000, L, 0xffffffff00000000ull, 1));
    /* < (unsigned) */
    CHECK(!fires(h, N | MATCH(3), 0x2000, L, 0x2000, 8));
    CHECK(fires(h, N | MATCH(3), 0x2000, L, 0x1fff, 1));
    /* mask low: tdata2 63:32 = 0xff00 masks the low half, which must then
     * equal 0x1200: 0x80001234 & 0xff00 = 0x1200 */
    CHECK(fires(h, N | MATCH(4), 0x0000ff0000001200ull, L, 0x80001234, 1));
    CHECK(!fires(h, N | MATCH(4), 0x0000ff0000001200ull, L, 0x80002234, 1));
    CHECK(fires(h, N | MATCH(12), 0x0000ff0000001200ull, L, 0x80002234, 1));
    /* mask high: bits 63:32 & 0xffff must equal 1 */
    CHECK(fires(h, N | MATCH(5), 0x0000ffff00000001ull, L, 0x180000000ull, 4));
    CHECK(!fires(h, N | MATCH(5), 0x0000ffff00000001ull, L, 0x80000000ull, 4));
    CHECK(fires(h, N | MATCH(13), 0x0000ffff00000001ull, L, 0x80000000ull, 4));
    /* access kind: a load trigger ignores stores; an AMO (both) is seen */
    CHECK(!fires(h, N, 0x1000, HART_TRIG_STORE, 0x1000, 4));
    CHECK(fires(h, N, 0x1000, HART_TRIG_LOAD | HART_TRIG_STORE, 0x1000, 4));
    /* size 3 (32-bit accesses only), size 5 (64-bit only) */
    CHECK(fires(h, N | SIZE(3), 0x1000, L, 0x1000, 4));
    CHECK(!fires(h, N | SIZE(3), 0x1000, L, 0x1000, 8));
    CHECK(fires(h, N | SIZE(5), 0x1000, L, 0x1000, 8));
    CHECK(!fires(h, N | SIZE(1), 0x1000, L, 0x1000, 2));
    /* hit: 1 ("before") after a fire */
    CHECK_EQ(rd(h, 0x7a1) & (HIT0 | (1ull << 25)), 0);
    fires(h, N, 0x1000, L, 0x1000, 1);
    wr(h, 0x7a0, 0);
    CHECK_EQ(rd(h, 0x7a1), N | HIT0);
    set(h, 0, 0, 0);
    trun_free(&t);
}

/* m/s/u (5.7), execute with size, chains, actions 0 and 2-4, and the
 * 5.4 re-entrancy rule for action 0. */
static void test_modes_actions(void)
{
    trun t;
    rvt_hart *h = mk(&t, 64);
    if (!h)
        return;
    const uint64_t pc = 0x80000100;
    /* S-mode only, trace-on */
    set(h, 0, T6_64 | EX | MS | ACTION(2), pc);
    unsigned privs[] = { PRV_U, PRV_S, PRV_M };
    uint8_t want[] = { 0, RVT_IREC_F_TRIG_START, 0 };
    for (unsigned k = 0; k < 3; k++) {
        h->priv = privs[k];
        CHECK(!hart_trig_exec(h, pc, 4));
        CHECK_EQ(h->trig_pend, want[k]);
    }
    h->priv = PRV_M;
    /* execute size 2 (16-bit instructions) */
    set(h, 0, T6_64 | EX | MM | SIZE(2) | ACTION(3), pc);
    CHECK(!hart_trig_exec(h, pc, 4));
    CHECK_EQ(h->trig_pend, 0);
    CHECK(!hart_trig_exec(h, pc, 2));
    CHECK_EQ(h->trig_pend, RVT_IREC_F_TRIG_STOP);
    /* chain 0 (>= 0x1000) + 1 (< 0x2000), notify: only inside the range;
     * hit on both members when it fires */
    set(h, 0, T6_64 | ST | MM | MATCH(2) | CHAIN, 0x1000);
    set(h, 1, T6_64 | ST | MM | MATCH(3) | ACTION(4), 0x2000);
    uint64_t addrs[] = { 0x800, 0x2800, 0x1800 };
    for (unsigned k = 0; k < 3; k++) {
        h->trig_pend = 0;
        CHECK(!hart_trig_mem(h, HART_TRIG_STORE, addrs[k], 8));
        CHECK_EQ(h->trig_pend, k == 2 ? RVT_IREC_F_TRIG_NOTIFY : 0);
    }
    wr(h, 0x7a0, 0);
    CHECK(rd(h, 0x7a1) & HIT0);
    wr(h, 0x7a0, 1);
    CHECK(rd(h, 0x7a1) & HIT0);
    set(h, 0, 0, 0);
    set(h, 1, 0, 0);
    /* action 0: breakpoint with tval = the address; in M-mode only while
     * mstatus.MIE = 1 (5.4 solution 1); not masked in U */
    set(h, 2, T6_64 | EX | MM | MU, pc);
    h->trig_pend = 0;
    h->mstatus &= ~MSTATUS_MIE;
    CHECK(!hart_trig_exec(h, pc, 4));
    wr(h, 0x7a0, 2);
    CHECK_EQ(rd(h, 0x7a1) & HIT0, 0);
    h->mstatus |= MSTATUS_MIE;
    h->trig_tval = 0;
    CHECK(hart_trig_exec(h, pc, 4));
    CHECK_EQ(h->trig_tval, pc);
    CHECK(rd(h, 0x7a1) & HIT0);
    h->mstatus &= ~MSTATUS_MIE;
    h->priv = PRV_U;
    CHECK(hart_trig_exec(h, pc, 4));
    h->priv = PRV_M;
    set(h, 2, 0, 0);
    trun_free(&t);
}

/* A program that arms, with mstatus.MIE = 1 (mie = 0): trigger 0 =
 * execute trace-off (6<<60 | 0x3044: action 3, m, execute) on 0x98;
 * trigger 1 = load trace-notify (0x4041: action 4, m, load), equal to the
 * word at 0xcc; trigger 2 = execute breakpoint (0x44: action 0) on 0x9c.
 * The handler records mcause/mtval and steps over the instruction.
 * Encodings: binutils 2.40, linked at 0x80000000. */
static const tinsn prog[] = {
    I4(0x00000297), /* 00000: auipc x5,0x0 */
    I4(0x0b428293), /* 00004: addi x5,x5,180 */
    I4(0x30529073), /* 00008: csrrw x0,mtvec,x5 */
    I4(0x30046073), /* 0000c: csrrsi x0,mstatus,8 */
    I4(0x7a001073), /* 00010: csrrw x0,tselect,x0 */
    I4(0x00000297), /* 00014: auipc x5,0x0 */
    I4(0x08428293), /* 00018: addi x5,x5,132 */
    I4(0x7a229073), /* 0001c: csrrw x0,tdata2,x5 */
    I4(0x00600313), /* 00020: addi x6,x0,6 */
    I4(0x03c31313), /* 00024: slli x6,x6,0x3c */
    I4(0x000033b7), /* 00028: lui x7,0x3 */
    I4(0x04438393), /* 0002c: addi x7,x7,68 */
    I4(0x00736333), /* 00030: or x6,x6,x7 */
    I4(0x7a131073), /* 00034: csrrw x0,tdata1,x6 */
    I4(0x00100293), /* 00038: addi x5,x0,1 */
    I4(0x7a029073), /* 0003c: csrrw x0,tselect,x5 */
    I4(0x00000297), /* 00040: auipc x5,0x0 */
    I4(0x08c28293), /* 00044: addi x5,x5,140 */
    I4(0x7a229073), /* 00048: csrrw x0,tdata2,x5 */
    I4(0x00600313), /* 0004c: addi x6,x0,6 */
    I4(0x03c31313), /* 00050: slli x6,x6,0x3c */
    I4(0x000043b7), /* 00054: lui x7,0x4 */
    I4(0x04138393), /* 00058: addi x7,x7,65 */
    I4(0x00736333), /* 0005c: or x6,x6,x7 */
    I4(0x7a131073), /* 00060: csrrw x0,tdata1,x6 */
    I4(0x00200293), /* 00064: addi x5,x0,2 */
    I4(0x7a029073), /* 00068: csrrw x0,tselect,x5 */
    I4(0x00000297), /* 0006c: auipc x5,0x0 */
    I4(0x03028293), /* 00070: addi x5,x5,48 */
    I4(0x7a229073), /* 00074: csrrw x0,tdata2,x5 */
    I4(0x00600313), /* 00078: addi x6,x0,6 */
    I4(0x03c31313), /* 0007c: slli x6,x6,0x3c */
    I4(0x04430313), /* 00080: addi x6,x6,68 */
    I4(0x7a131073), /* 00084: csrrw x0,tdata1,x6 */
    I4(0x0002a503), /* 00088: lw x10,0(x5) */
    I4(0x00000297), /* 0008c: auipc x5,0x0 */
    I4(0x04028293), /* 00090: addi x5,x5,64 */
    I4(0x0002a503), /* 00094: lw x10,0(x5) */
    I4(0x00100593), /* 00098: addi x11,x0,1 */
    I4(0x00500613), /* 0009c: addi x12,x0,5 */
    I4(0x00700693), /* 000a0: addi x13,x0,7 */
    I4(0x00100fb7), /* 000a4: lui x31,0x100 */
    I4(0x00005f37), /* 000a8: lui x30,0x5 */
    I4(0x555f0f13), /* 000ac: addi x30,x30,1365 */
    I4(0x01efa023), /* 000b0: sw x30,0(x31) */
    I4(0x34202773), /* 000b4: csrrs x14,mcause,x0 */
    I4(0x343027f3), /* 000b8: csrrs x15,mtval,x0 */
    I4(0x341022f3), /* 000bc: csrrs x5,mepc,x0 */
    I4(0x00428293), /* 000c0: addi x5,x5,4 */
    I4(0x34129073), /* 000c4: csrrw x0,mepc,x5 */
    I4(0x30200073), /* 000c8: mret  */
    I4(0x12345678), /* 000cc: .word 0x12345678 */
};

static void test_program(void)
{
    trun t;
    trun_start(&t, prog, NINSN(prog), NULL);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    const tcap *c = t.cap;
    const uint8_t E = RVT_IREC_F_CYCLE_END;
    /* 38 instructions 0x00..0x94 retire first, one block each (width 1) */
    CHECK(c->n > 46);
    if (c->n <= 46) {
        trun_free(&t);
        return;
    }
    /* the lw at 0x88 reads 0x9c: no notify; the lw at 0x94 reads 0xcc */
    CHECK_EQ(c->rec[34].iaddr, TBASE + 0x88);
    CHECK_EQ(c->rec[34].flags, E);
    CHECK_EQ(c->rec[37].iaddr, TBASE + 0x94);
    CHECK_EQ(c->rec[37].flags, E | RVT_IREC_F_TRIG_NOTIFY);
    /* trace-off: the pulse comes with the retirement of 0x98 (E-Trace 4.2.4) */
    CHECK_EQ(c->rec[38].iaddr, TBASE + 0x98);
    CHECK_EQ(c->rec[38].iretire, 2);
    CHECK_EQ(c->rec[38].flags, E | RVT_IREC_F_TRIG_STOP);
    /* breakpoint before 0x9c executes: nothing retires, cause 3, tval =
     * the address (Debug spec 1.0, 5.2 action 0 and 5.7 mcontrol6) */
    CHECK_EQ(c->rec[39].iaddr, TBASE + 0x9c);
    CHECK_EQ(c->rec[39].iretire, 0);
    CHECK_EQ(c->rec[39].itype, RVT_ITYPE_EXCEPTION);
    CHECK_EQ(c->rec[39].cause, 3);
    CHECK_EQ(c->rec[39].tval, TBASE + 0x9c);
    CHECK_EQ(c->rec[39].flags, E);
    CHECK_EQ(c->rec[40].iaddr, TBASE + 0xb4);   /* the handler */
    /* no other block carries a pulse */
    unsigned pulses = 0;
    for (size_t i = 0; i < c->n; i++)
        pulses += (c->rec[i].flags & (RVT_IREC_F_TRIG_START | RVT_IREC_F_TRIG_STOP |
                                      RVT_IREC_F_TRIG_NOTIFY)) != 0;
    CHECK_EQ(pulses, 2);
    CHECK_EQ(treg(&t, 14), 3);               /* mcause */
    CHECK_EQ(treg(&t, 15), TBASE + 0x9c);    /* mtval */
    CHECK_EQ(treg(&t, 11), 1);
    CHECK_EQ(treg(&t, 12), 0);               /* stepped over */
    CHECK_EQ(treg(&t, 13), 7);
    CHECK_EQ(treg(&t, 10), 0x12345678);
    trun_free(&t);
}

/* The same with retire width 4: the pulses go on the block that holds
 * the instruction (4.2.2), which may hold others too. */
static void test_program_width4(void)
{
    trun t;
    rvt_hart_cfg cfg = { .retire_width = 4 };
    trun_start(&t, prog, NINSN(prog), &cfg);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    const tcap *c = t.cap;
    bool notify = false, stop = false;
    for (size_t i = 0; i < c->n; i++) {
        const rvt_irec *r = &c->rec[i];
        uint64_t end = r->iaddr + 2ull * r->iretire;
        bool has94 = r->iaddr <= TBASE + 0x94 && TBASE + 0x94 < end;
        bool has98 = r->iaddr <= TBASE + 0x98 && TBASE + 0x98 < end;
        if (r->flags & RVT_IREC_F_TRIG_NOTIFY)
            notify = has94;
        if (r->flags & RVT_IREC_F_TRIG_STOP)
            stop = has98;
    }
    CHECK(notify);
    CHECK(stop);
    trun_free(&t);
}

int main(void)
{
    test_warl(64);
    test_warl(32);
    test_match();
    test_modes_actions();
    test_program();
    test_program_width4();
    return TH_DONE();
}
