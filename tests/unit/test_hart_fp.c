/* The hart's F and D extensions (unpriv 20191213 ch. 11, 12; priv 3.1.6.6
 * mstatus.FS): the rounding core (fp_round.c) against values derived by
 * hand, and programs that exercise FS = Off, saturating conversions, NaN
 * boxing, static and dynamic rounding modes, an invalid frm, Dirty/SD and
 * a compressed FP load; and the same hart without F/D (--isa rv64imac). */
#include "test_hart_util.h"
#include "hart/fp_round.h"

/* round_pack: 2^24 + 1 needs 25 bits: a tie between 2^24 (even) and
 * 2^24 + 2 in binary32 (unpriv 11.2 table 11.1 modes). */
static void test_round_modes(void)
{
    unsigned fl = 0;
    uint64_t m = (1u << 24) + 1;
    CHECK_EQ(fp_round_pack(false, false, m, 0, RM_RNE, &fl), 0x4b800000);
    CHECK_EQ(fl, FPF_NX);
    CHECK_EQ(fp_round_pack(false, false, m, 0, RM_RMM, &fl), 0x4b800001);   /* away */
    CHECK_EQ(fp_round_pack(false, false, m, 0, RM_RUP, &fl), 0x4b800001);
    CHECK_EQ(fp_round_pack(false, false, m, 0, RM_RTZ, &fl), 0x4b800000);
    CHECK_EQ(fp_round_pack(false, true, m, 0, RM_RDN, &fl), 0xcb800001);    /* -(2^24+2) */
    CHECK_EQ(fp_round_pack(false, true, m, 0, RM_RUP, &fl), 0xcb800000);
    /* 2^24 + 3: above the tie, RNE goes up to 2^24 + 4 */
    CHECK_EQ(fp_round_pack(false, false, m + 2, 0, RM_RNE, &fl), 0x4b800002);
    fl = 0;
    CHECK_EQ(fp_round_pack(true, false, 3, -1, RM_RNE, &fl), 0x3ff8000000000000ull);   /* 1.5 exact */
    CHECK_EQ(fl, 0);
}

/* IEEE 754 7.4: 2^128 overflows binary32: inf or the largest finite
 * number depending on the mode and sign. */
static void test_round_overflow(void)
{
    unsigned fl = 0;
    CHECK_EQ(fp_round_pack(false, false, 1, 128, RM_RNE, &fl), 0x7f800000);
    CHECK_EQ(fl, FPF_OF | FPF_NX);
    CHECK_EQ(fp_round_pack(false, false, 1, 128, RM_RTZ, &fl), 0x7f7fffff);
    CHECK_EQ(fp_round_pack(false, false, 1, 128, RM_RDN, &fl), 0x7f7fffff);
    CHECK_EQ(fp_round_pack(false, true, 1, 128, RM_RDN, &fl), 0xff800000);
    CHECK_EQ(fp_round_pack(false, true, 1, 128, RM_RUP, &fl), 0xff7fffff);
    CHECK_EQ(fp_round_pack(true, false, 1, 1024, RM_RMM, &fl), 0x7ff0000000000000ull);
}

/* 11.2: tininess is detected after rounding.  (2^26 - 1) 2^-152 =
 * 2^-126 (1 - 2^-26) rounds to 2^-126 with 24 bits and an unbounded
 * exponent: not tiny in RNE (NX only); in RTZ it stays below 2^-126
 * (tiny and inexact: UF). */
static void test_round_tiny(void)
{
    unsigned fl = 0;
    uint64_t m = (1u << 26) - 1;
    CHECK_EQ(fp_round_pack(false, false, m, -152, RM_RNE, &fl), 0x00800000);
    CHECK_EQ(fl, FPF_NX);
    fl = 0;
    CHECK_EQ(fp_round_pack(false, false, m, -152, RM_RTZ, &fl), 0x007fffff);
    CHECK_EQ(fl, FPF_UF | FPF_NX);
    /* 2^-150: half the smallest subnormal, a tie: RNE 0, RMM and RUP 2^-149 */
    fl = 0;
    CHECK_EQ(fp_round_pack(false, false, 1, -150, RM_RNE, &fl), 0);
    CHECK_EQ(fl, FPF_UF | FPF_NX);
    CHECK_EQ(fp_round_pack(false, false, 1, -150, RM_RMM, &fl), 1);
    CHECK_EQ(fp_round_pack(false, true, 1, -150, RM_RUP, &fl), 0x80000000);   /* -0 */
    /* an exact subnormal raises nothing */
    fl = 0;
    CHECK_EQ(fp_round_pack(true, false, 3, -1074, RM_RNE, &fl), 3);
    CHECK_EQ(fl, 0);
}

static void test_class(void)
{
    CHECK_EQ(fp_class(0xff800000, false), 1u << 0);              /* -inf */
    CHECK_EQ(fp_class(0x807fffff, false), 1u << 2);              /* -subnormal */
    CHECK_EQ(fp_class(0x80000000, false), 1u << 3);              /* -0 */
    CHECK_EQ(fp_class(0x0000000000000001ull, true), 1u << 5);    /* +subnormal */
    CHECK_EQ(fp_class(0x7ff4000000000000ull, true), 1u << 8);    /* signaling NaN */
    CHECK_EQ(fp_class(0x7ff8000000000000ull, true), 1u << 9);    /* quiet NaN */
}

/* Registers (program below, binutils 2.40 encodings):
 * x26/x27  mcause/mtval of fadd.d while FS = Off: 2, its bits
 * x6       mstatus after FS = Initial: UXL = SXL = 2, FS = 1, SD = 0 (and
 *          MPIE = 1: the trap handler returned with mret)
 * x7/x10   fcvt.l.d of 2^63 (rtz): 2^63 - 1 saturated, NV (table 11.4)
 * x11/x12  fcvt.lu.d of -1.0: 0, NV
 * x14      fadd.s of an improperly boxed 1.0f: the canonical NaN, boxed (12.2)
 * x15      mstatus after FP writes: FS = Dirty, SD set
 * x16/x17  fcvt.w.d of 2.5 in rmm / rne: 3 / 2
 * x18      mcause of fadd.d (dynamic rm) with frm = 5: illegal
 * x19/x25  fdiv.s 1/3 (rne) = 0x3eaaaaab; fcsr = frm 0, NX
 * x24      c.fld of the double stored at TDATA */
static const tinsn fp1[] = {
    I4(0x00001a97), /* 00000: auipc s5,0x1 */
    I4(0x00000297), /* 00004: auipc t0,0x0 */
    I4(0x01028293), /* 00008: addi t0,t0,16 # 14 <handler> */
    I4(0x30529073), /* 0000c: csrrw zero,mtvec,t0 */
    I4(0x01c0006f), /* 00010: jal zero,2c <start> */
    I4(0x34202b73), /* 00014: csrrs s6,mcause,zero */
    I4(0x34302bf3), /* 00018: csrrs s7,mtval,zero */
    I4(0x34102e73), /* 0001c: csrrs t3,mepc,zero */
    I4(0x004e0e13), /* 00020: addi t3,t3,4 */
    I4(0x341e1073), /* 00024: csrrw zero,mepc,t3 */
    I4(0x30200073), /* 00028: mret */
    I4(0x0220f053), /* 0002c: fadd.d ft0,ft1,ft2 */
    I4(0x000b0d13), /* 00030: addi s10,s6,0 */
    I4(0x000b8d93), /* 00034: addi s11,s7,0 */
    I4(0x000022b7), /* 00038: lui t0,0x2 */
    I4(0x3002a073), /* 0003c: csrrs zero,mstatus,t0 */
    I4(0x30002373), /* 00040: csrrs t1,mstatus,zero */
    I4(0x43e00413), /* 00044: addi s0,zero,1086 */
    I4(0x03441413), /* 00048: slli s0,s0,0x34 */
    I4(0xf20400d3), /* 0004c: fmv.d.x ft1,s0 */
    I4(0xc22093d3), /* 00050: fcvt.l.d t2,ft1,rtz */
    I4(0x00101573), /* 00054: csrrw a0,fflags,zero */
    I4(0x00001437), /* 00058: lui s0,0x1 */
    I4(0xbff4041b), /* 0005c: addiw s0,s0,-1025 # bff <start+0xbd3> */
    I4(0x03441413), /* 00060: slli s0,s0,0x34 */
    I4(0xf2040153), /* 00064: fmv.d.x ft2,s0 */
    I4(0xc23115d3), /* 00068: fcvt.lu.d a1,ft2,rtz */
    I4(0x00101673), /* 0006c: csrrw a2,fflags,zero */
    I4(0x3f8006b7), /* 00070: lui a3,0x3f800 */
    I4(0xf20681d3), /* 00074: fmv.d.x ft3,a3 */
    I4(0x0031f253), /* 00078: fadd.s ft4,ft3,ft3 */
    I4(0xe2020753), /* 0007c: fmv.x.d a4,ft4 */
    I4(0x300027f3), /* 00080: csrrs a5,mstatus,zero */
    I4(0x00004437), /* 00084: lui s0,0x4 */
    I4(0x0044041b), /* 00088: addiw s0,s0,4 # 4004 <start+0x3fd8> */
    I4(0x03041413), /* 0008c: slli s0,s0,0x30 */
    I4(0xf20402d3), /* 00090: fmv.d.x ft5,s0 */
    I4(0xc202c853), /* 00094: fcvt.w.d a6,ft5,rmm */
    I4(0xc20288d3), /* 00098: fcvt.w.d a7,ft5,rne */
    I4(0x0022d073), /* 0009c: csrrwi zero,frm,5 */
    I4(0x0210f353), /* 000a0: fadd.d ft6,ft1,ft1 */
    I4(0x000b0913), /* 000a4: addi s2,s6,0 */
    I4(0x00205073), /* 000a8: csrrwi zero,frm,0 */
    I4(0x3f800437), /* 000ac: lui s0,0x3f800 */
    I4(0xf00403d3), /* 000b0: fmv.w.x ft7,s0 */
    I4(0x40400437), /* 000b4: lui s0,0x40400 */
    I4(0xf0040453), /* 000b8: fmv.w.x fs0,s0 */
    I4(0x1883f4d3), /* 000bc: fdiv.s fs1,ft7,fs0 */
    I4(0xe00489d3), /* 000c0: fmv.x.w s3,fs1 */
    I4(0x00302cf3), /* 000c4: csrrs s9,fcsr,zero */
    I4(0x00101a73), /* 000c8: csrrw s4,fflags,zero */
    I4(0x008ab023), /* 000cc: sd s0,0(s5) # 1000 <start+0xfd4> */
    I4(0x000a8493), /* 000d0: addi s1,s5,0 */
    I2(0x2088), /* 000d4: c.fld fa0,0(s1) */
    I4(0xe2050c53), /* 000d6: fmv.x.d s8,fa0 */
    I4(0x00100fb7), /* 000da: lui t6,0x100 */
    I4(0x00005f37), /* 000de: lui t5,0x5 */
    I4(0x555f0f13), /* 000e2: addi t5,t5,1365 # 5555 <start+0x5529> */
    I4(0x01efa023), /* 000e6: sw t5,0(t6) # 100000 <start+0xfffd4> */
};

static void test_fp_program(void)
{
    trun t;
    trun_start(&t, fp1, NINSN(fp1), NULL);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    CHECK_EQ(treg(&t, 26), 2);
    CHECK_EQ(treg(&t, 27), 0x0220f053);
    CHECK_EQ(treg(&t, 6), 0xa00002080ull);   /* MPIE = 1 after the mret */
    CHECK_EQ(treg(&t, 7), 0x7fffffffffffffffull);
    CHECK_EQ(treg(&t, 10), 0x10);
    CHECK_EQ(treg(&t, 11), 0);
    CHECK_EQ(treg(&t, 12), 0x10);
    CHECK_EQ(treg(&t, 14), 0xffffffff7fc00000ull);
    CHECK_EQ(treg(&t, 15), 0x8000000a00006080ull);
    CHECK_EQ(treg(&t, 16), 3);
    CHECK_EQ(treg(&t, 17), 2);
    CHECK_EQ(treg(&t, 18), 2);
    CHECK_EQ(treg(&t, 19), 0x3eaaaaab);
    CHECK_EQ(treg(&t, 25), 0x01);
    CHECK_EQ(treg(&t, 24), 0x40400000);
    trun_free(&t);
}

/* Without F/D (cfg.no_fp, --isa rv64imac): fflags and fadd.d are illegal
 * (x25 counts traps), misa has no F or D, and FS is read-only zero. */
static const tinsn nofp[] = {
    I4(0x00001a97), /* 00000: auipc s5,0x1 */
    I4(0x00000297), /* 00004: auipc t0,0x0 */
    I4(0x01028293), /* 00008: addi t0,t0,16 # 14 <handler> */
    I4(0x30529073), /* 0000c: csrrw zero,mtvec,t0 */
    I4(0x0200006f), /* 00010: jal zero,30 <start> */
    I4(0x34202b73), /* 00014: csrrs s6,mcause,zero */
    I4(0x34302bf3), /* 00018: csrrs s7,mtval,zero */
    I4(0x001c8c93), /* 0001c: addi s9,s9,1 */
    I4(0x34102e73), /* 00020: csrrs t3,mepc,zero */
    I4(0x004e0e13), /* 00024: addi t3,t3,4 */
    I4(0x341e1073), /* 00028: csrrw zero,mepc,t3 */
    I4(0x30200073), /* 0002c: mret */
    I4(0x001022f3), /* 00030: csrrs t0,fflags,zero */
    I4(0x0220f053), /* 00034: fadd.d ft0,ft1,ft2 */
    I4(0x30102373), /* 00038: csrrs t1,misa,zero */
    I4(0x000022b7), /* 0003c: lui t0,0x2 */
    I4(0x3002a073), /* 00040: csrrs zero,mstatus,t0 */
    I4(0x300023f3), /* 00044: csrrs t2,mstatus,zero */
    I4(0x00100fb7), /* 00048: lui t6,0x100 */
    I4(0x00005f37), /* 0004c: lui t5,0x5 */
    I4(0x555f0f13), /* 00050: addi t5,t5,1365 # 5555 <start+0x5525> */
    I4(0x01efa023), /* 00054: sw t5,0(t6) # 100000 <start+0xfffd0> */
};

static void test_no_fp(void)
{
    rvt_hart_cfg cfg = { .no_fp = true };
    trun t;
    trun_start(&t, nofp, NINSN(nofp), &cfg);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    CHECK_EQ(treg(&t, 25), 2);
    CHECK_EQ(treg(&t, 6), 0x8000000000141105ull);
    CHECK_EQ(treg(&t, 7), 0xa00000080ull);   /* FS stays 0; MPIE = 1 after mret */
    trun_free(&t);
}

int main(void)
{
    test_round_modes();
    test_round_overflow();
    test_round_tiny();
    test_class();
    test_fp_program();
    test_no_fp();
    return TH_DONE();
}
