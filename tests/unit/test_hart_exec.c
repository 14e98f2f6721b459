/* Reference hart: integer, M and A semantics, LR/SC, memory faults, the
 * test finisher and the UART (unpriv ch. 2, 7, 8; priv 3.1.15-3.1.16). */
#include "test_hart_util.h"


/* unpriv 13.2 table: x/0 = all ones, x%0 = x, MIN/-1 = MIN, MIN%-1 = 0. */
static const tinsn arith[] = {
    I4(0xff900293), /*   0: addi x5,x0,-7 */
    I4(0x00200313), /*   4: addi x6,x0,2 */
    I4(0x0262c533), /*   8: div x10,x5,x6 */
    I4(0x0262e5b3), /*   c: rem x11,x5,x6 */
    I4(0x0202d633), /*  10: divu x12,x5,x0 */
    I4(0x0202e6b3), /*  14: rem x13,x5,x0 */
    I4(0xfff00393), /*  18: addi x7,x0,-1 */
    I4(0x03f39413), /*  1c: slli x8,x7,0x3f */
    I4(0x02744733), /*  20: div x14,x8,x7 */
    I4(0x027467b3), /*  24: rem x15,x8,x7 */
    I4(0x02841833), /*  28: mulh x16,x8,x8 */
    I4(0x0273b8b3), /*  2c: mulhu x17,x7,x7 */
    I4(0x0273a933), /*  30: mulhsu x18,x7,x7 */
    I4(0x800004b7), /*  34: lui x9,0x80000 */
    I4(0x0274c9bb), /*  38: divw x19,x9,x7 */
    I4(0x0274ea3b), /*  3c: remw x20,x9,x7 */
    I4(0x00948abb), /*  40: addw x21,x9,x9 */
    I4(0xfff48b1b), /*  44: addiw x22,x9,-1 # 7fffffff <.text+0x7fffffff> */
    I4(0x4044db9b), /*  48: sraiw x23,x9,0x4 */
    I4(0x03c3dc13), /*  4c: srli x24,x7,0x3c */
    I4(0x00703cb3), /*  50: sltu x25,x0,x7 */
    I4(0x0003ad33), /*  54: slt x26,x7,x0 */
    I4(0x0203ddbb), /*  58: divuw x27,x7,x0 */
    I4(0x0202fe33), /*  5c: remu x28,x5,x0 */
    I4(0x02628eb3), /*  60: mul x29,x5,x6 */
    I4(0x00100fb7), /*  64: lui x31,0x100 */
    I4(0x00005f37), /*  68: lui x30,0x5 */
    I4(0x555f0f13), /*  6c: addi x30,x30,1365 # 5555 <.text+0x5555> */
    I4(0x01efa023), /*  70: sw x30,0(x31) # 100000 <.text+0x100000> */
};

static void test_arith(void)
{
    trun t;
    trun_start(&t, arith, NINSN(arith), NULL);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    CHECK_EQ(rvt_hart_exit_code(t.h), 0);
    CHECK_EQ(treg(&t, 10), (uint64_t)-3);          /* -7 / 2 truncates */
    CHECK_EQ(treg(&t, 11), (uint64_t)-1);          /* -7 % 2 */
    CHECK_EQ(treg(&t, 12), UINT64_MAX);            /* divu by 0 */
    CHECK_EQ(treg(&t, 13), (uint64_t)-7);          /* rem by 0 = dividend */
    CHECK_EQ(treg(&t, 14), 0x8000000000000000ull); /* MIN / -1 */
    CHECK_EQ(treg(&t, 15), 0);                     /* MIN % -1 */
    CHECK_EQ(treg(&t, 16), 0x4000000000000000ull); /* (-2^63)^2 >> 64 = 2^62 */
    CHECK_EQ(treg(&t, 17), 0xfffffffffffffffeull); /* (2^64-1)^2 >> 64 */
    CHECK_EQ(treg(&t, 18), UINT64_MAX);            /* -1 * (2^64-1) >> 64 = -1 */
    CHECK_EQ(treg(&t, 9), 0xffffffff80000000ull);  /* lui sign-extends on RV64 */
    CHECK_EQ(treg(&t, 19), 0xffffffff80000000ull); /* divw MIN / -1 */
    CHECK_EQ(treg(&t, 20), 0);                     /* remw MIN % -1 */
    CHECK_EQ(treg(&t, 21), 0);                     /* addw wraps to 0 */
    CHECK_EQ(treg(&t, 22), 0x7fffffff);            /* addiw MIN - 1 */
    CHECK_EQ(treg(&t, 23), 0xfffffffff8000000ull); /* sraiw */
    CHECK_EQ(treg(&t, 24), 0xf);
    CHECK_EQ(treg(&t, 25), 1);
    CHECK_EQ(treg(&t, 26), 1);
    CHECK_EQ(treg(&t, 27), UINT64_MAX);            /* divuw by 0: sext(0xffffffff) */
    CHECK_EQ(treg(&t, 28), (uint64_t)-7);          /* remu by 0 */
    CHECK_EQ(treg(&t, 29), (uint64_t)-14);
    rvt_hart_stats st;
    rvt_hart_get_stats(t.h, &st);
    CHECK_EQ(st.instret, NINSN(arith));            /* the finisher store retires */
    trun_free(&t);
}

/* Every AMO in .d then .w; the memory value after each step is in the
 * comment: mem=10; add 3 -> 13; swap 3 -> 3; min -5 -> -5; minu 3 -> 3;
 * max -5 -> 3; maxu -5 -> -5; and 3 -> 3; or 10 -> 11; xor 3 -> 8.
 * .w: -1; add 3 -> 2; maxu -5 -> 0xfffffffb; min 3 -> -5; swap 3 -> 3;
 * and -1 -> 3; or -5 -> -5; minu 3 -> 3; max -5 -> 3; xor 3 -> 0. */
static const tinsn amo[] = {
    I4(0x00001517), /*   0: auipc x10,0x1 */
    I4(0x00a00293), /*   4: addi x5,x0,10 */
    I4(0x00553023), /*   8: sd x5,0(x10) # 1000 <.text+0x1000> */
    I4(0x00300313), /*   c: addi x6,x0,3 */
    I4(0xffb00393), /*  10: addi x7,x0,-5 */
    I4(0x006535af), /*  14: amoadd.d x11,x6,(x10) */
    I4(0x0865362f), /*  18: amoswap.d x12,x6,(x10) */
    I4(0x807536af), /*  1c: amomin.d x13,x7,(x10) */
    I4(0xc065372f), /*  20: amominu.d x14,x6,(x10) */
    I4(0xa07537af), /*  24: amomax.d x15,x7,(x10) */
    I4(0xe075382f), /*  28: amomaxu.d x16,x7,(x10) */
    I4(0x606538af), /*  2c: amoand.d x17,x6,(x10) */
    I4(0x4055392f), /*  30: amoor.d x18,x5,(x10) */
    I4(0x206539af), /*  34: amoxor.d x19,x6,(x10) */
    I4(0x00053a03), /*  38: ld x20,0(x10) */
    I4(0x00850a93), /*  3c: addi x21,x10,8 */
    I4(0xfff00293), /*  40: addi x5,x0,-1 */
    I4(0x005aa023), /*  44: sw x5,0(x21) */
    I4(0x006aab2f), /*  48: amoadd.w x22,x6,(x21) */
    I4(0xe07aabaf), /*  4c: amomaxu.w x23,x7,(x21) */
    I4(0x806aac2f), /*  50: amomin.w x24,x6,(x21) */
    I4(0x086aacaf), /*  54: amoswap.w x25,x6,(x21) */
    I4(0x605aad2f), /*  58: amoand.w x26,x5,(x21) */
    I4(0x407aadaf), /*  5c: amoor.w x27,x7,(x21) */
    I4(0xc06aae2f), /*  60: amominu.w x28,x6,(x21) */
    I4(0xa07aaeaf), /*  64: amomax.w x29,x7,(x21) */
    I4(0x206aa4af), /*  68: amoxor.w x9,x6,(x21) */
    I4(0x000aa403), /*  6c: lw x8,0(x21) */
    I4(0x00100fb7), /*  70: lui x31,0x100 */
    I4(0x00005f37), /*  74: lui x30,0x5 */
    I4(0x555f0f13), /*  78: addi x30,x30,1365 # 5555 <.text+0x5555> */
    I4(0x01efa023), /*  7c: sw x30,0(x31) # 100000 <.text+0x100000> */
};

static void test_amo(void)
{
    trun t;
    trun_start(&t, amo, NINSN(amo), NULL);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    static const uint64_t want[][2] = {
        { 11, 10 }, { 12, 13 }, { 13, 3 }, { 14, (uint64_t)-5 }, { 15, 3 }, { 16, 3 },
        { 17, (uint64_t)-5 }, { 18, 3 }, { 19, 11 }, { 20, 8 },
        { 22, UINT64_MAX }, { 23, 2 }, { 24, (uint64_t)-5 }, { 25, (uint64_t)-5 },
        { 26, 3 }, { 27, 3 }, { 28, (uint64_t)-5 }, { 29, 3 }, { 9, 3 }, { 8, 0 },
    };
    for (size_t i = 0; i < NINSN(want); i++) {
        if (treg(&t, (unsigned)want[i][0]) != want[i][1])
            TH_FAIL("amo: x%u = 0x%" PRIx64 ", want 0x%" PRIx64, (unsigned)want[i][0],
                    treg(&t, (unsigned)want[i][0]), want[i][1]);
        else
            th_passed++;
    }
    trun_free(&t);
}

/* unpriv 8.2: SC without reservation fails (1); LR/SC succeeds (0); a store
 * to the reserved granule kills it; SC to another address fails and clears
 * the reservation, so the next SC fails too. */
static const tinsn lrsc[] = {
    I4(0x00001517), /*   0: auipc x10,0x1 */
    I4(0x00300313), /*   4: addi x6,x0,3 */
    I4(0xfff00293), /*   8: addi x5,x0,-1 */
    I4(0x00053023), /*   c: sd x0,0(x10) */
    I4(0x186530af), /*  10: sc.d x1,x6,(x10) */
    I4(0x1005312f), /*  14: lr.d x2,(x10) */
    I4(0x186531af), /*  18: sc.d x3,x6,(x10) */
    I4(0x1005322f), /*  1c: lr.d x4,(x10) */
    I4(0x00553023), /*  20: sd x5,0(x10) */
    I4(0x186533af), /*  24: sc.d x7,x6,(x10) */
    I4(0x00450593), /*  28: addi x11,x10,4 */
    I4(0x1005242f), /*  2c: lr.w x8,(x10) */
    I4(0x1865a4af), /*  30: sc.w x9,x6,(x11) */
    I4(0x1865272f), /*  34: sc.w x14,x6,(x10) */
    I4(0x160527af), /*  38: lr.w.aqrl x15,(x10) */
    I4(0x1a05282f), /*  3c: sc.w.rl x16,x0,(x10) */
    I4(0x00053883), /*  40: ld x17,0(x10) */
    I4(0x00100fb7), /*  44: lui x31,0x100 */
    I4(0x00005f37), /*  48: lui x30,0x5 */
    I4(0x555f0f13), /*  4c: addi x30,x30,1365 */
    I4(0x01efa023), /*  50: sw x30,0(x31) */
};

static void test_lrsc(void)
{
    trun t;
    trun_start(&t, lrsc, NINSN(lrsc), NULL);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    CHECK_EQ(treg(&t, 1), 1);
    CHECK_EQ(treg(&t, 2), 0);
    CHECK_EQ(treg(&t, 3), 0);
    CHECK_EQ(treg(&t, 4), 3);
    CHECK_EQ(treg(&t, 7), 1);
    CHECK_EQ(treg(&t, 8), UINT64_MAX);     /* lr.w sign-extends */
    CHECK_EQ(treg(&t, 9), 1);
    CHECK_EQ(treg(&t, 14), 1);
    CHECK_EQ(treg(&t, 15), UINT64_MAX);
    CHECK_EQ(treg(&t, 16), 0);
    CHECK_EQ(treg(&t, 17), 0xffffffff00000000ull);
    trun_free(&t);
}

/* Each faulting instruction traps to a handler that logs (mcause, mtval,
 * mepc) at 0x80001000 and resumes at mepc + 4.  Loads/stores/AMOs that are
 * misaligned trap (a choice, docs/conformance-hart.md); tval is the address;
 * illegal instructions give their bits; ebreak gives the pc, ecall 0. */
static const tinsn faults[] = {
    I4(0x00001a97), /* 00000: auipc x21,0x1 */
    I4(0x00000297), /* 00004: auipc x5,0x0 */
    I4(0x05428293), /* 00008: addi x5,x5,84 */
    I4(0x30529073), /* 0000c: csrrw x0,mtvec,x5 */
    I4(0x002a8393), /* 00010: addi x7,x21,2 */
    I4(0x001aa303), /* 00014: lw x6,1(x21) */
    I4(0x006aa123), /* 00018: sw x6,2(x21) */
    I4(0x1003a32f), /* 0001c: lr.w x6,(x7) */
    I4(0x0063a32f), /* 00020: amoadd.w x6,x6,(x7) */
    I4(0x00002303), /* 00024: lw x6,0(x0) */
    I4(0x00602023), /* 00028: sw x6,0(x0) */
    I4(0x0000000b), /* 0002c: .word 0x0000000b */
    I4(0xf1431073), /* 00030: csrrw x0,mhartid,x6 */
    I4(0x7c002373), /* 00034: csrrs x6,0x7c0,x0 */
    I4(0x00100073), /* 00038: ebreak  */
    I4(0x00000073), /* 0003c: ecall  */
    I2(0x0000), /* 00040: .short 0x0000 */
    I2(0x0001), /* 00042: c.addi x0,0 */
    I4(0x00803303), /* 00044: ld x6,8(x0) */
    I4(0x00100fb7), /* 00048: lui x31,0x100 */
    I4(0x00005f37), /* 0004c: lui x30,0x5 */
    I4(0x555f0f13), /* 00050: addi x30,x30,1365 */
    I4(0x01efa023), /* 00054: sw x30,0(x31) */
    I4(0x34202a73), /* 00058: csrrs x20,mcause,x0 */
    I4(0x014ab023), /* 0005c: sd x20,0(x21) */
    I4(0x34302a73), /* 00060: csrrs x20,mtval,x0 */
    I4(0x014ab423), /* 00064: sd x20,8(x21) */
    I4(0x34102a73), /* 00068: csrrs x20,mepc,x0 */
    I4(0x014ab823), /* 0006c: sd x20,16(x21) */
    I4(0x018a8a93), /* 00070: addi x21,x21,24 */
    I4(0x34102a73), /* 00074: csrrs x20,mepc,x0 */
    I4(0x004a0a13), /* 00078: addi x20,x20,4 */
    I4(0x341a1073), /* 0007c: csrrw x0,mepc,x20 */
    I4(0x30200073), /* 00080: mret  */
};

static void test_faults(void)
{
    trun t;
    trun_start(&t, faults, NINSN(faults), NULL);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    /* the log is in guest RAM: read it back through the image-free path of
     * a second program would be long, so check it via the handler's x21 and
     * the ingress records instead */
    CHECK_EQ(treg(&t, 21), TDATA + 24 * 13);     /* 13 traps logged */
    static const struct { uint64_t pc; unsigned cause; uint64_t tval; } want[] = {
        { 0x14, 4, TDATA + 1 }, { 0x18, 6, TDATA + 24 + 2 },   /* x21 moved by 24 */ { 0x1c, 4, TDATA + 2 },
        { 0x20, 6, TDATA + 2 }, { 0x24, 5, 0 }, { 0x28, 7, 0 }, { 0x2c, 2, 0xb },
        { 0x30, 2, 0xf1431073 }, { 0x34, 2, 0x7c002373 }, { 0x38, 3, TBASE + 0x38 },
        { 0x3c, 11, 0 }, { 0x40, 2, 0 }, { 0x44, 5, 8 },
    };
    size_t k = 0;
    for (size_t i = 0; i < t.cap->n && k < NINSN(want); i++) {
        const rvt_irec *r = &t.cap->rec[i];
        if (r->itype != RVT_ITYPE_EXCEPTION)
            continue;
        uint64_t last = r->iaddr + 2ull * r->iretire - (r->ilastsize ? 4 : 2);
        bool retired = want[k].cause == 3 || want[k].cause == 11;
        CHECK_EQ(r->cause, want[k].cause);
        CHECK_EQ(r->tval, want[k].tval);
        if (retired)     /* ecall/ebreak retire and end their block */
            CHECK_EQ(last, TBASE + want[k].pc);
        else             /* faulting instructions do not retire */
            CHECK(r->iretire == 0 && r->iaddr == TBASE + want[k].pc);
        k++;
    }
    CHECK_EQ(k, NINSN(want));
    rvt_hart_stats st;
    rvt_hart_get_stats(t.h, &st);
    CHECK_EQ(st.exceptions, 13);
    CHECK_EQ(st.executed - st.instret, 11);     /* all but ecall/ebreak */
    trun_free(&t);
}

static const tinsn fail42[] = {
    I4(0x00100fb7), /* 00000: lui x31,0x100 */
    I4(0x002a3f37), /* 00004: lui x30,0x2a3 */
    I4(0x333f0f13), /* 00008: addi x30,x30,819 */
    I4(0x01efa023), /* 0000c: sw x30,0(x31) */
};
static const tinsn reset[] = {
    I4(0x00100fb7), /* 00000: lui x31,0x100 */
    I4(0x00007f37), /* 00004: lui x30,0x7 */
    I4(0x777f0f13), /* 00008: addi x30,x30,1911 */
    I4(0x01efa023), /* 0000c: sw x30,0(x31) */
};

/* SiFive test finisher: (code << 16) | 0x3333 fails with code; 0x7777 resets. */
static void test_finisher(void)
{
    trun t;
    trun_start(&t, fail42, NINSN(fail42), NULL);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    CHECK_EQ(rvt_hart_exit_code(t.h), 42);
    trun_free(&t);
    trun_start(&t, reset, NINSN(reset), NULL);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    CHECK_EQ(rvt_hart_exit_code(t.h), 0);
    trun_free(&t);
}

/* UART: THR writes reach the console, LSR reads 0x60, THR writes with
 * LCR.DLAB set go to the divisor latch.  The program then runs into zeroed
 * RAM (c.unimp, illegal) with mtvec = 0: the fetch fault at 0 repeats with
 * nothing retired, which must end in RVT_HART_FATAL, not a hang. */
static const tinsn uart[] = {
    I4(0x100002b7), /* 00000: lui x5,0x10000 */
    I4(0x04800313), /* 00004: addi x6,x0,72 */
    I4(0x00628023), /* 00008: sb x6,0(x5) */
    I4(0x0052c383), /* 0000c: lbu x7,5(x5) */
    I4(0x08000313), /* 00010: addi x6,x0,128 */
    I4(0x006281a3), /* 00014: sb x6,3(x5) */
    I4(0x00628023), /* 00018: sb x6,0(x5) */
    I4(0x000281a3), /* 0001c: sb x0,3(x5) */
    I4(0x06900313), /* 00020: addi x6,x0,105 */
    I4(0x00628023), /* 00024: sb x6,0(x5) */
};

static void test_uart_and_trap_loop(void)
{
    trun t;
    trun_start(&t, uart, NINSN(uart), NULL);
    CHECK_STR(t.cap->console, "Hi");
    CHECK_EQ(treg(&t, 7), 0x60);
    CHECK_EQ(t.why, RVT_HART_FATAL);
    CHECK(rvt_hart_fatal_msg(t.h) != NULL);
    trun_free(&t);
}

static const tinsn inf[] = {
    I4(0x00128293), /* 00000: addi x5,x5,1 */
    I4(0xffdff06f), /* 00004: jal x0,80000000 */
};
static const tinsn wfi[] = {
    I4(0x10500073), /* 00000: wfi  */
};

static void test_limits(void)
{
    rvt_hart_cfg cfg = { .max_instr = 1001 };
    trun t;
    trun_start(&t, inf, NINSN(inf), &cfg);
    CHECK_EQ(t.why, RVT_HART_MAX_INSTR);
    CHECK_EQ(treg(&t, 5), 501);
    trun_free(&t);
    /* wfi with nothing enabled in mie would sleep forever */
    trun_start(&t, wfi, NINSN(wfi), NULL);
    CHECK_EQ(t.why, RVT_HART_FATAL);
    trun_free(&t);
    /* bad configurations */
    rvt_image *img = timage(inf, NINSN(inf));
    int st = 0;
    rvt_hart_cfg bad = { .xlen = 48 };
    CHECK(rvt_hart_new(&bad, img, &st) == NULL && st == RVT_ERR_INVAL);
    rvt_hart_cfg bad2 = { .ram_size = 12345 };
    CHECK(rvt_hart_new(&bad2, img, &st) == NULL && st == RVT_ERR_INVAL);
    rvt_hart_cfg small = { .ram_size = 4096, .ram_base = 0x90000000ull };
    CHECK(rvt_hart_new(&small, img, &st) == NULL && st == RVT_ERR_INVAL);   /* segment outside RAM */
    rvt_image_free(img);
}

/* RV32: 32-bit wrap-around and sign rules; an RV64-only encoding (ld) is
 * illegal; misa says MXL=1 with A C D F I M S U. */
static const tinsn rv32[] = {
    I4(0x00000297), /* 00000: auipc x5,0x0 */
    I4(0x06028293), /* 00004: addi x5,x5,96 */
    I4(0x30529073), /* 00008: csrrw x0,mtvec,x5 */
    I4(0x80000437), /* 0000c: lui x8,0x80000 */
    I4(0xfff00393), /* 00010: addi x7,x0,-1 */
    I4(0x02744533), /* 00014: div x10,x8,x7 */
    I4(0x027465b3), /* 00018: rem x11,x8,x7 */
    I4(0x02841633), /* 0001c: mulh x12,x8,x8 */
    I4(0x0273b6b3), /* 00020: mulhu x13,x7,x7 */
    I4(0x40445713), /* 00024: srai x14,x8,0x4 */
    I4(0x008407b3), /* 00028: add x15,x8,x8 */
    I4(0x00743833), /* 0002c: sltu x16,x8,x7 */
    I4(0x00001897), /* 00030: auipc x17,0x1 */
    I4(0x0078a023), /* 00034: sw x7,0(x17) */
    I4(0x00089903), /* 00038: lh x18,0(x17) */
    I4(0x0008d983), /* 0003c: lhu x19,0(x17) */
    I4(0x0002b303), /* 00040: .word 0x0002b303 */
    I4(0x30102af3), /* 00044: csrrs x21,misa,x0 */
    I4(0xb0002b73), /* 00048: csrrs x22,mcycle,x0 */
    I4(0xb8202bf3), /* 0004c: csrrs x23,minstreth,x0 */
    I4(0x00100fb7), /* 00050: lui x31,0x100 */
    I4(0x00005f37), /* 00054: lui x30,0x5 */
    I4(0x555f0f13), /* 00058: addi x30,x30,1365 */
    I4(0x01efa023), /* 0005c: sw x30,0(x31) */
    I4(0x34202a73), /* 00060: csrrs x20,mcause,x0 */
    I4(0x34102c73), /* 00064: csrrs x24,mepc,x0 */
    I4(0x004c0c13), /* 00068: addi x24,x24,4 */
    I4(0x341c1073), /* 0006c: csrrw x0,mepc,x24 */
    I4(0x30200073), /* 00070: mret  */
};

static void test_rv32(void)
{
    rvt_hart_cfg cfg = { .xlen = 32 };
    trun t;
    trun_start(&t, rv32, NINSN(rv32), &cfg);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    CHECK_EQ(treg(&t, 8), 0x80000000);
    CHECK_EQ(treg(&t, 10), 0x80000000);   /* MIN / -1 */
    CHECK_EQ(treg(&t, 11), 0);
    CHECK_EQ(treg(&t, 12), 0x40000000);   /* 2^62 >> 32 */
    CHECK_EQ(treg(&t, 13), 0xfffffffe);
    CHECK_EQ(treg(&t, 14), 0xf8000000);
    CHECK_EQ(treg(&t, 15), 0);
    CHECK_EQ(treg(&t, 16), 1);
    CHECK_EQ(treg(&t, 18), 0xffffffff);
    CHECK_EQ(treg(&t, 19), 0xffff);
    CHECK_EQ(treg(&t, 20), 2);            /* ld is illegal on RV32 */
    CHECK_EQ(treg(&t, 21), 0x4014112d);  /* MXL=1; A C D F I M S U (issue 15: F and D) */
    CHECK_EQ(treg(&t, 23), 0);
    trun_free(&t);
}

int main(void)
{
    test_arith();
    test_amo();
    test_lrsc();
    test_faults();
    test_finisher();
    test_uart_and_trap_loop();
    test_limits();
    test_rv32();
    return TH_DONE();
}
