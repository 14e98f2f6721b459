/* Reference hart: CSR semantics, privilege transitions, delegation and
 * interrupts (priv 1.12 ch. 2-4). */
#include "test_hart_util.h"

/* WARL behaviour: MPP=2 is reserved (kept), medeleg cannot delegate ecall
 * from M (bit 11), mideleg holds SSIP/STIP/SEIP, sie is mie & mideleg, satp
 * takes Sv39 (MODE 8, issue 15; M-mode does not translate), misa is fixed, mtvec mode 3 is rejected,
 * and the csrr*i forms use the 5-bit immediate. */
static const tinsn csr[] = {
    I4(0x00001337), /* 00000: lui x6,0x1 */
    I4(0x30032073), /* 00004: csrrs x0,mstatus,x6 */
    I4(0x30002573), /* 00008: csrrs x10,mstatus,x0 */
    I4(0xfff00313), /* 0000c: addi x6,x0,-1 */
    I4(0x30231073), /* 00010: csrrw x0,medeleg,x6 */
    I4(0x302025f3), /* 00014: csrrs x11,medeleg,x0 */
    I4(0x30331073), /* 00018: csrrw x0,mideleg,x6 */
    I4(0x30302673), /* 0001c: csrrs x12,mideleg,x0 */
    I4(0x30431073), /* 00020: csrrw x0,mie,x6 */
    I4(0x104026f3), /* 00024: csrrs x13,sie,x0 */
    I4(0x00800393), /* 00028: addi x7,x0,8 */
    I4(0x03c39393), /* 0002c: slli x7,x7,0x3c */
    I4(0x18039073), /* 00030: csrrw x0,satp,x7 */
    I4(0x18002773), /* 00034: csrrs x14,satp,x0 */
    I4(0x30101073), /* 00038: csrrw x0,misa,x0 */
    I4(0x301027f3), /* 0003c: csrrs x15,misa,x0 */
    I4(0x340ad873), /* 00040: csrrwi x16,mscratch,21 */
    I4(0x340568f3), /* 00044: csrrsi x17,mscratch,10 */
    I4(0x34033973), /* 00048: csrrc x18,mscratch,x6 */
    I4(0x340029f3), /* 0004c: csrrs x19,mscratch,x0 */
    I4(0x30531073), /* 00050: csrrw x0,mtvec,x6 */
    I4(0x30502a73), /* 00054: csrrs x20,mtvec,x0 */
    I4(0xf1402af3), /* 00058: csrrs x21,mhartid,x0 */
    I4(0x00200313), /* 0005c: addi x6,x0,2 */
    I4(0x34431073), /* 00060: csrrw x0,mip,x6 */
    I4(0x14402b73), /* 00064: csrrs x22,sip,x0 */
    I4(0x00100fb7), /* 00068: lui x31,0x100 */
    I4(0x00005f37), /* 0006c: lui x30,0x5 */
    I4(0x555f0f13), /* 00070: addi x30,x30,1365 */
    I4(0x01efa023), /* 00074: sw x30,0(x31) */
};

static void test_csr(void)
{
    trun t;
    trun_start(&t, csr, NINSN(csr), NULL);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    CHECK_EQ(treg(&t, 10), 0xa00000000ull);   /* UXL = SXL = 2, MPP still 0 */
    CHECK_EQ(treg(&t, 11), 0xb3ff);
    CHECK_EQ(treg(&t, 12), 0x2222);   /* SSI, STI, SEI and Sscofpmf LCOFI (13) */
    CHECK_EQ(treg(&t, 13), 0x2222);
    CHECK_EQ(treg(&t, 14), 0x8000000000000000ull);   /* Sv39 accepted (test_hart_mmu.c: Sv48 is not) */
    CHECK_EQ(treg(&t, 15), 0x800000000014112dull);   /* A C D F I M S U (issue 15: F and D) */
    CHECK_EQ(treg(&t, 16), 0);
    CHECK_EQ(treg(&t, 17), 21);
    CHECK_EQ(treg(&t, 18), 31);
    CHECK_EQ(treg(&t, 19), 0);
    CHECK_EQ(treg(&t, 20), 0);
    CHECK_EQ(treg(&t, 21), 0);
    CHECK_EQ(treg(&t, 22), 2);
    CHECK_EQ(t.cap->n > 0 ? t.cap->rec[t.cap->n - 1].priv : 9, 3);
    trun_free(&t);
}

/* M -mret-> S -sret-> U; ecall from U is delegated (medeleg bit 8) to the
 * S handler, which does an ecall (cause 9) to M and returns; a CSR access
 * to mstatus from U is illegal and goes to M (not delegated).  The M
 * handler logs (mcause, mstatus) pairs and resumes at mepc + 4. */
static const tinsn privs[] = {
    I4(0x00001a97), /* 00000: auipc x21,0x1 */
    I4(0x00000297), /* 00004: auipc x5,0x0 */
    I4(0x09c28293), /* 00008: addi x5,x5,156 */
    I4(0x30529073), /* 0000c: csrrw x0,mtvec,x5 */
    I4(0x00000297), /* 00010: auipc x5,0x0 */
    I4(0x07828293), /* 00014: addi x5,x5,120 */
    I4(0x10529073), /* 00018: csrrw x0,stvec,x5 */
    I4(0x10000313), /* 0001c: addi x6,x0,256 */
    I4(0x30231073), /* 00020: csrrw x0,medeleg,x6 */
    I4(0x00002337), /* 00024: lui x6,0x2 */
    I4(0x8003031b), /* 00028: addiw x6,x6,-2048 */
    I4(0x30033073), /* 0002c: csrrc x0,mstatus,x6 */
    I4(0x00001337), /* 00030: lui x6,0x1 */
    I4(0x8003031b), /* 00034: addiw x6,x6,-2048 */
    I4(0x30032073), /* 00038: csrrs x0,mstatus,x6 */
    I4(0x00000297), /* 0003c: auipc x5,0x0 */
    I4(0x01028293), /* 00040: addi x5,x5,16 */
    I4(0x34129073), /* 00044: csrrw x0,mepc,x5 */
    I4(0x30200073), /* 00048: mret  */
    I4(0x00100493), /* 0004c: addi x9,x0,1 */
    I4(0x10000313), /* 00050: addi x6,x0,256 */
    I4(0x10033073), /* 00054: csrrc x0,sstatus,x6 */
    I4(0x00000297), /* 00058: auipc x5,0x0 */
    I4(0x01028293), /* 0005c: addi x5,x5,16 */
    I4(0x14129073), /* 00060: csrrw x0,sepc,x5 */
    I4(0x10200073), /* 00064: sret  */
    I4(0x00200513), /* 00068: addi x10,x0,2 */
    I4(0x00000073), /* 0006c: ecall  */
    I4(0x00300593), /* 00070: addi x11,x0,3 */
    I4(0x30002673), /* 00074: csrrs x12,mstatus,x0 */
    I4(0x00100fb7), /* 00078: lui x31,0x100 */
    I4(0x00005f37), /* 0007c: lui x30,0x5 */
    I4(0x555f0f13), /* 00080: addi x30,x30,1365 */
    I4(0x01efa023), /* 00084: sw x30,0(x31) */
    I4(0x142026f3), /* 00088: csrrs x13,scause,x0 */
    I4(0x14102773), /* 0008c: csrrs x14,sepc,x0 */
    I4(0x00470713), /* 00090: addi x14,x14,4 */
    I4(0x14171073), /* 00094: csrrw x0,sepc,x14 */
    I4(0x00000073), /* 00098: ecall  */
    I4(0x10200073), /* 0009c: sret  */
    I4(0x34202a73), /* 000a0: csrrs x20,mcause,x0 */
    I4(0x014ab023), /* 000a4: sd x20,0(x21) */
    I4(0x30002a73), /* 000a8: csrrs x20,mstatus,x0 */
    I4(0x014ab423), /* 000ac: sd x20,8(x21) */
    I4(0x010a8a93), /* 000b0: addi x21,x21,16 */
    I4(0x34102a73), /* 000b4: csrrs x20,mepc,x0 */
    I4(0x004a0a13), /* 000b8: addi x20,x20,4 */
    I4(0x341a1073), /* 000bc: csrrw x0,mepc,x20 */
    I4(0x30200073), /* 000c0: mret  */
};

static void test_privs(void)
{
    trun t;
    trun_start(&t, privs, NINSN(privs), NULL);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    CHECK_EQ(treg(&t, 9), 1);
    CHECK_EQ(treg(&t, 10), 2);
    CHECK_EQ(treg(&t, 11), 3);
    CHECK_EQ(treg(&t, 12), 0);                 /* the csrr trapped */
    CHECK_EQ(treg(&t, 13), 8);                 /* scause: ecall from U */
    CHECK_EQ(treg(&t, 14), TBASE + 0x70);
    CHECK_EQ(treg(&t, 21), TDATA + 32);        /* two M traps logged */
    /* the ingress blocks carry the privilege of their instructions and the
     * traps' causes: ecall U (8, priv 0), ecall S (9, priv 1), illegal (2, priv 0) */
    static const struct { unsigned cause, priv; } want[] = { { 8, 0 }, { 9, 1 }, { 2, 0 } };
    size_t k = 0;
    unsigned xrets = 0;
    for (size_t i = 0; i < t.cap->n; i++) {
        const rvt_irec *r = &t.cap->rec[i];
        if (r->itype == RVT_ITYPE_XRET)
            xrets++;
        if (r->itype != RVT_ITYPE_EXCEPTION || k >= NINSN(want))
            continue;
        CHECK_EQ(r->cause, want[k].cause);
        CHECK_EQ(r->priv, want[k].priv);
        CHECK(r->flags & RVT_IREC_F_CYCLE_END);
        k++;
    }
    CHECK_EQ(k, 3);
    CHECK_EQ(xrets, 5);     /* mret, sret, sret (S handler), mret, mret */
    CHECK_EQ(t.cap->rec[t.cap->n - 1].priv, 0);   /* the finisher store ran in U */
    trun_free(&t);
}

/* CLINT timer: mtimecmp = mtime + 100 where mtime advances by one per
 * retired instruction (docs/hart.md).  The ld of mtime is the 5th
 * instruction (mtime = 4), so the interrupt comes when 104 instructions have
 * retired: 11 before the loop, then 93 of (addi, j): 47 addi, the last
 * retired one is the addi, so mepc is the j at 0x30. */
static const tinsn timer[] = {
    I4(0x00000297), /* 00000: auipc x5,0x0 */
    I4(0x03428293), /* 00004: addi x5,x5,52 */
    I4(0x30529073), /* 00008: csrrw x0,mtvec,x5 */
    I4(0x0200c337), /* 0000c: lui x6,0x200c */
    I4(0xff833383), /* 00010: ld x7,-8(x6) */
    I4(0x06438393), /* 00014: addi x7,x7,100 */
    I4(0x02004337), /* 00018: lui x6,0x2004 */
    I4(0x00733023), /* 0001c: sd x7,0(x6) */
    I4(0x08000313), /* 00020: addi x6,x0,128 */
    I4(0x30431073), /* 00024: csrrw x0,mie,x6 */
    I4(0x30046073), /* 00028: csrrsi x0,mstatus,8 */
    I4(0x00140413), /* 0002c: addi x8,x8,1 */
    I4(0xffdff06f), /* 00030: jal x0,8000002c */
    I4(0x342024f3), /* 00034: csrrs x9,mcause,x0 */
    I4(0x34102573), /* 00038: csrrs x10,mepc,x0 */
    I4(0x00100fb7), /* 0003c: lui x31,0x100 */
    I4(0x00005f37), /* 00040: lui x30,0x5 */
    I4(0x555f0f13), /* 00044: addi x30,x30,1365 */
    I4(0x01efa023), /* 00048: sw x30,0(x31) */
};

static void test_timer(void)
{
    trun t;
    trun_start(&t, timer, NINSN(timer), NULL);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    CHECK_EQ(treg(&t, 8), 47);
    CHECK_EQ(treg(&t, 9), 0x8000000000000007ull);
    CHECK_EQ(treg(&t, 10), TBASE + 0x30);
    /* E-Trace table 4.1 itype 2 on the block of the last retired instruction
     * (the addi at 0x2c), followed by the handler */
    size_t i;
    for (i = 0; i < t.cap->n && t.cap->rec[i].itype != RVT_ITYPE_INTERRUPT; i++)
        ;
    CHECK(i + 1 < t.cap->n);
    if (i + 1 < t.cap->n) {
        CHECK_EQ(t.cap->rec[i].iaddr, TBASE + 0x2c);
        CHECK_EQ(t.cap->rec[i].iretire, 2);
        CHECK_EQ(t.cap->rec[i].cause, 7);
        CHECK_EQ(t.cap->rec[i + 1].iaddr, TBASE + 0x34);
    }
    rvt_hart_stats st;
    rvt_hart_get_stats(t.h, &st);
    CHECK_EQ(st.interrupts, 1);
    trun_free(&t);
}

/* wfi sleeps until mip & mie != 0: time jumps to mtimecmp; the interrupt
 * is then taken with mepc after the wfi. */
static const tinsn wfi[] = {
    I4(0x00000297), /* 00000: auipc x5,0x0 */
    I4(0x03028293), /* 00004: addi x5,x5,48 */
    I4(0x30529073), /* 00008: csrrw x0,mtvec,x5 */
    I4(0x02004337), /* 0000c: lui x6,0x2004 */
    I4(0x000013b7), /* 00010: lui x7,0x1 */
    I4(0x3883839b), /* 00014: addiw x7,x7,904 */
    I4(0x00733023), /* 00018: sd x7,0(x6) */
    I4(0x08000313), /* 0001c: addi x6,x0,128 */
    I4(0x30431073), /* 00020: csrrw x0,mie,x6 */
    I4(0x30046073), /* 00024: csrrsi x0,mstatus,8 */
    I4(0x10500073), /* 00028: wfi  */
    I4(0x0000006f), /* 0002c: jal x0,8000002c */
    I4(0x342024f3), /* 00030: csrrs x9,mcause,x0 */
    I4(0x34102573), /* 00034: csrrs x10,mepc,x0 */
    I4(0xc01025f3), /* 00038: csrrs x11,time,x0 */
    I4(0x00100fb7), /* 0003c: lui x31,0x100 */
    I4(0x00005f37), /* 00040: lui x30,0x5 */
    I4(0x555f0f13), /* 00044: addi x30,x30,1365 */
    I4(0x01efa023), /* 00048: sw x30,0(x31) */
};

static void test_wfi(void)
{
    trun t;
    trun_start(&t, wfi, NINSN(wfi), NULL);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    CHECK_EQ(treg(&t, 9), 0x8000000000000007ull);
    CHECK_EQ(treg(&t, 10), TBASE + 0x2c);
    CHECK(treg(&t, 11) >= 5000);
    trun_free(&t);
}

/* rvt_hart_tv_csr_next visits exactly the CSRs rvt_hart_tv_reg_read
 * accepts (the tandem verifier snapshots a hart through it), on RV64 and
 * RV32 (where the mcycleh/minstreth halves and odd pmpcfg exist). */
static void test_tv_csr_walk(void)
{
    for (unsigned xlen = 32; xlen <= 64; xlen += 32) {
        rvt_hart_cfg cfg = { .xlen = xlen };
        trun t;
        trun_start(&t, csr, NINSN(csr), &cfg);
        unsigned a = 0, visited = 0, accepted = 0;
        for (unsigned r = 0; r < 0x1000; r++) {
            uint64_t v;
            if (rvt_hart_tv_reg_read(t.h, r, &v) != RVT_OK)
                continue;
            accepted++;
            a = rvt_hart_tv_csr_next(t.h, a);
            CHECK_EQ(a, r);
            a++;
        }
        CHECK_EQ(rvt_hart_tv_csr_next(t.h, a), 0x1000);
        for (a = rvt_hart_tv_csr_next(t.h, 0); a < 0x1000; a = rvt_hart_tv_csr_next(t.h, a + 1))
            visited++;
        CHECK_EQ(visited, accepted);
        /* table, pmpaddr0-63, tselect/tdata1-3/tinfo, mcycle/minstret */
        CHECK(accepted >= 22 + 64 + 5 + 2);
        trun_free(&t);
    }
}

/* The tandem verifier reaches the Sdtrig CSRs by number (docs/tv.md
 * "Triggers"): tdata1-3 are views of the trigger tselect names.  Debug
 * spec 1.0, 5.7: tdata1.type is bits XLEN-1:XLEN-4, 6 = mcontrol6, and
 * writing 0 to tdata1 leaves a disabled trigger of that type; tselect is
 * WARL and this hart (docs/hart.md) keeps the old index for 8 or more. */
static void test_tv_trigger_views(void)
{
    trun t;
    trun_start(&t, csr, NINSN(csr), NULL);
    uint64_t v = 0;
    CHECK_EQ(rvt_hart_tv_reg_write(t.h, 0x7A0, 2), RVT_OK);
    CHECK_EQ(rvt_hart_tv_reg_write(t.h, 0x7A2, 0x1234), RVT_OK);
    CHECK_EQ(rvt_hart_tv_reg_write(t.h, 0x7A0, 8), RVT_OK);
    CHECK_EQ(rvt_hart_tv_reg_read(t.h, 0x7A0, &v), RVT_OK);
    CHECK_EQ(v, 2);
    CHECK_EQ(rvt_hart_tv_reg_read(t.h, 0x7A2, &v), RVT_OK);
    CHECK_EQ(v, 0x1234);
    CHECK_EQ(rvt_hart_tv_reg_read(t.h, 0x7A1, &v), RVT_OK);
    CHECK_EQ(v, 6ull << 60);
    CHECK_EQ(rvt_hart_tv_reg_write(t.h, 0x7A0, 1), RVT_OK);
    CHECK_EQ(rvt_hart_tv_reg_read(t.h, 0x7A2, &v), RVT_OK);
    CHECK_EQ(v, 0);                       /* trigger 1's tdata2, untouched */
    CHECK_EQ(rvt_hart_tv_reg_read(t.h, 0x7A5, &v), RVT_ERR_INVAL);
    trun_free(&t);
}

int main(void)
{
    test_tv_csr_walk();
    test_tv_trigger_views();
    test_csr();
    test_privs();
    test_timer();
    test_wfi();
    return TH_DONE();
}
