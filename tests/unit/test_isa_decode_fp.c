/* rvt_isa_decode for F and D (unprivileged spec ch. 11, 12; listings in
 * ch. 34).  OP-FP = 1010011 with funct7 = funct5[31:27] fmt[26:25]
 * (fmt 00 = S, 01 = D); rm in funct3. */
#include "tharness.h"
#include "rvtrace/isa.h"
#include "rvtrace/status.h"
#include "test_isa_enc.h"

#define OPFP(f5, fmt, rs2, rs1, rm, rd) R(((f5) << 2) | (fmt), rs2, rs1, rm, rd, 0x53)
#define DYN 7

struct fcase {
    uint32_t raw;
    unsigned xlen;      /* 0: both */
    unsigned op;
    unsigned rd, rs1, rs2, rs3;
    int64_t imm;
    const char *what;
};

static const struct fcase cases[] = {
    /* LOAD-FP 0000111 width 010 (W) / 011 (D); STORE-FP 0100111 */
    { I(-8, 2, 2, 10, 0x07), 0, RVT_OP_FLW, 10, 2, 0, 0, -8, "flw fa0,-8(sp)" },
    { I(16, 2, 3, 11, 0x07), 0, RVT_OP_FLD, 11, 2, 0, 0, 16, "fld fa1,16(sp)" },
    { S(-4, 8, 2, 2, 0x27), 0, RVT_OP_FSW, 0, 2, 8, 0, -4, "fsw fs0,-4(sp)" },
    { S(2047, 9, 10, 3, 0x27), 0, RVT_OP_FSD, 0, 10, 9, 0, 2047, "fsd fs1,2047(a0)" },
    /* R4: FMADD 1000011 FMSUB 1000111 FNMSUB 1001011 FNMADD 1001111 */
    { R4(4, 0, 3, 2, DYN, 1, 0x43), 0, RVT_OP_FMADD_S, 1, 2, 3, 4, 0, "fmadd.s" },
    { R4(4, 0, 3, 2, DYN, 1, 0x47), 0, RVT_OP_FMSUB_S, 1, 2, 3, 4, 0, "fmsub.s" },
    { R4(4, 0, 3, 2, DYN, 1, 0x4b), 0, RVT_OP_FNMSUB_S, 1, 2, 3, 4, 0, "fnmsub.s" },
    { R4(4, 0, 3, 2, DYN, 1, 0x4f), 0, RVT_OP_FNMADD_S, 1, 2, 3, 4, 0, "fnmadd.s" },
    { R4(31, 1, 3, 2, 0, 1, 0x43), 0, RVT_OP_FMADD_D, 1, 2, 3, 31, 0, "fmadd.d rne" },
    { R4(4, 1, 3, 2, DYN, 1, 0x47), 0, RVT_OP_FMSUB_D, 1, 2, 3, 4, 0, "fmsub.d" },
    { R4(4, 1, 3, 2, DYN, 1, 0x4b), 0, RVT_OP_FNMSUB_D, 1, 2, 3, 4, 0, "fnmsub.d" },
    { R4(4, 1, 3, 2, DYN, 1, 0x4f), 0, RVT_OP_FNMADD_D, 1, 2, 3, 4, 0, "fnmadd.d" },
    /* funct5: add 00000 sub 00001 mul 00010 div 00011 sqrt 01011 */
    { OPFP(0x00, 0, 3, 2, DYN, 1), 0, RVT_OP_FADD_S, 1, 2, 3, 0, 0, "fadd.s" },
    { OPFP(0x01, 0, 3, 2, DYN, 1), 0, RVT_OP_FSUB_S, 1, 2, 3, 0, 0, "fsub.s" },
    { OPFP(0x02, 0, 3, 2, DYN, 1), 0, RVT_OP_FMUL_S, 1, 2, 3, 0, 0, "fmul.s" },
    { OPFP(0x03, 0, 3, 2, DYN, 1), 0, RVT_OP_FDIV_S, 1, 2, 3, 0, 0, "fdiv.s" },
    { OPFP(0x0b, 0, 0, 2, DYN, 1), 0, RVT_OP_FSQRT_S, 1, 2, 0, 0, 0, "fsqrt.s" },
    { OPFP(0x00, 1, 3, 2, DYN, 1), 0, RVT_OP_FADD_D, 1, 2, 3, 0, 0, "fadd.d" },
    { OPFP(0x01, 1, 3, 2, DYN, 1), 0, RVT_OP_FSUB_D, 1, 2, 3, 0, 0, "fsub.d" },
    { OPFP(0x02, 1, 3, 2, DYN, 1), 0, RVT_OP_FMUL_D, 1, 2, 3, 0, 0, "fmul.d" },
    { OPFP(0x03, 1, 3, 2, DYN, 1), 0, RVT_OP_FDIV_D, 1, 2, 3, 0, 0, "fdiv.d" },
    { OPFP(0x0b, 1, 0, 2, DYN, 1), 0, RVT_OP_FSQRT_D, 1, 2, 0, 0, 0, "fsqrt.d" },
    /* sgnj 00100 (rm 000 j, 001 jn, 010 jx); min/max 00101 (000/001) */
    { OPFP(0x04, 0, 3, 2, 0, 1), 0, RVT_OP_FSGNJ_S, 1, 2, 3, 0, 0, "fsgnj.s" },
    { OPFP(0x04, 0, 3, 2, 1, 1), 0, RVT_OP_FSGNJN_S, 1, 2, 3, 0, 0, "fsgnjn.s" },
    { OPFP(0x04, 0, 3, 2, 2, 1), 0, RVT_OP_FSGNJX_S, 1, 2, 3, 0, 0, "fsgnjx.s" },
    { OPFP(0x05, 0, 3, 2, 0, 1), 0, RVT_OP_FMIN_S, 1, 2, 3, 0, 0, "fmin.s" },
    { OPFP(0x05, 0, 3, 2, 1, 1), 0, RVT_OP_FMAX_S, 1, 2, 3, 0, 0, "fmax.s" },
    { OPFP(0x04, 1, 3, 2, 0, 1), 0, RVT_OP_FSGNJ_D, 1, 2, 3, 0, 0, "fsgnj.d" },
    { OPFP(0x04, 1, 3, 2, 1, 1), 0, RVT_OP_FSGNJN_D, 1, 2, 3, 0, 0, "fsgnjn.d" },
    { OPFP(0x04, 1, 3, 2, 2, 1), 0, RVT_OP_FSGNJX_D, 1, 2, 3, 0, 0, "fsgnjx.d" },
    { OPFP(0x05, 1, 3, 2, 0, 1), 0, RVT_OP_FMIN_D, 1, 2, 3, 0, 0, "fmin.d" },
    { OPFP(0x05, 1, 3, 2, 1, 1), 0, RVT_OP_FMAX_D, 1, 2, 3, 0, 0, "fmax.d" },
    /* fcvt.int.fmt 11000, rs2 = 0 w, 1 wu, 2 l, 3 lu */
    { OPFP(0x18, 0, 0, 2, 1, 10), 0, RVT_OP_FCVT_W_S, 10, 2, 0, 0, 0, "fcvt.w.s rtz" },
    { OPFP(0x18, 0, 1, 2, DYN, 10), 0, RVT_OP_FCVT_WU_S, 10, 2, 0, 0, 0, "fcvt.wu.s" },
    { OPFP(0x18, 0, 2, 2, DYN, 10), 64, RVT_OP_FCVT_L_S, 10, 2, 0, 0, 0, "fcvt.l.s" },
    { OPFP(0x18, 0, 3, 2, DYN, 10), 64, RVT_OP_FCVT_LU_S, 10, 2, 0, 0, 0, "fcvt.lu.s" },
    { OPFP(0x18, 1, 0, 2, DYN, 10), 0, RVT_OP_FCVT_W_D, 10, 2, 0, 0, 0, "fcvt.w.d" },
    { OPFP(0x18, 1, 1, 2, DYN, 10), 0, RVT_OP_FCVT_WU_D, 10, 2, 0, 0, 0, "fcvt.wu.d" },
    { OPFP(0x18, 1, 2, 2, DYN, 10), 64, RVT_OP_FCVT_L_D, 10, 2, 0, 0, 0, "fcvt.l.d" },
    { OPFP(0x18, 1, 3, 2, DYN, 10), 64, RVT_OP_FCVT_LU_D, 10, 2, 0, 0, 0, "fcvt.lu.d" },
    /* fcvt.fmt.int 11010 */
    { OPFP(0x1a, 0, 0, 10, DYN, 2), 0, RVT_OP_FCVT_S_W, 2, 10, 0, 0, 0, "fcvt.s.w" },
    { OPFP(0x1a, 0, 1, 10, DYN, 2), 0, RVT_OP_FCVT_S_WU, 2, 10, 0, 0, 0, "fcvt.s.wu" },
    { OPFP(0x1a, 0, 2, 10, DYN, 2), 64, RVT_OP_FCVT_S_L, 2, 10, 0, 0, 0, "fcvt.s.l" },
    { OPFP(0x1a, 0, 3, 10, DYN, 2), 64, RVT_OP_FCVT_S_LU, 2, 10, 0, 0, 0, "fcvt.s.lu" },
    { OPFP(0x1a, 1, 0, 10, DYN, 2), 0, RVT_OP_FCVT_D_W, 2, 10, 0, 0, 0, "fcvt.d.w" },
    { OPFP(0x1a, 1, 1, 10, DYN, 2), 0, RVT_OP_FCVT_D_WU, 2, 10, 0, 0, 0, "fcvt.d.wu" },
    { OPFP(0x1a, 1, 2, 10, DYN, 2), 64, RVT_OP_FCVT_D_L, 2, 10, 0, 0, 0, "fcvt.d.l" },
    { OPFP(0x1a, 1, 3, 10, DYN, 2), 64, RVT_OP_FCVT_D_LU, 2, 10, 0, 0, 0, "fcvt.d.lu" },
    /* fcvt.s.d: 01000 fmt=S rs2=00001; fcvt.d.s: 01000 fmt=D rs2=00000 */
    { OPFP(0x08, 0, 1, 2, DYN, 1), 0, RVT_OP_FCVT_S_D, 1, 2, 0, 0, 0, "fcvt.s.d" },
    { OPFP(0x08, 1, 0, 2, DYN, 1), 0, RVT_OP_FCVT_D_S, 1, 2, 0, 0, 0, "fcvt.d.s" },
    /* compares 10100 (rm 010 eq, 001 lt, 000 le) */
    { OPFP(0x14, 0, 3, 2, 2, 10), 0, RVT_OP_FEQ_S, 10, 2, 3, 0, 0, "feq.s" },
    { OPFP(0x14, 0, 3, 2, 1, 10), 0, RVT_OP_FLT_S, 10, 2, 3, 0, 0, "flt.s" },
    { OPFP(0x14, 0, 3, 2, 0, 10), 0, RVT_OP_FLE_S, 10, 2, 3, 0, 0, "fle.s" },
    { OPFP(0x14, 1, 3, 2, 2, 10), 0, RVT_OP_FEQ_D, 10, 2, 3, 0, 0, "feq.d" },
    { OPFP(0x14, 1, 3, 2, 1, 10), 0, RVT_OP_FLT_D, 10, 2, 3, 0, 0, "flt.d" },
    { OPFP(0x14, 1, 3, 2, 0, 10), 0, RVT_OP_FLE_D, 10, 2, 3, 0, 0, "fle.d" },
    /* fmv.x.w 11100 rm 000; fclass 11100 rm 001; fmv.w.x 11110 rm 000 */
    { OPFP(0x1c, 0, 0, 2, 0, 10), 0, RVT_OP_FMV_X_W, 10, 2, 0, 0, 0, "fmv.x.w" },
    { OPFP(0x1c, 0, 0, 2, 1, 10), 0, RVT_OP_FCLASS_S, 10, 2, 0, 0, 0, "fclass.s" },
    { OPFP(0x1e, 0, 0, 10, 0, 2), 0, RVT_OP_FMV_W_X, 2, 10, 0, 0, 0, "fmv.w.x" },
    { OPFP(0x1c, 1, 0, 2, 0, 10), 64, RVT_OP_FMV_X_D, 10, 2, 0, 0, 0, "fmv.x.d" },
    { OPFP(0x1c, 1, 0, 2, 1, 10), 0, RVT_OP_FCLASS_D, 10, 2, 0, 0, 0, "fclass.d" },
    { OPFP(0x1e, 1, 0, 10, 0, 2), 64, RVT_OP_FMV_D_X, 2, 10, 0, 0, 0, "fmv.d.x" },
    /* compressed (words from GNU as): c.fld/c.fsd CL/CS uimm[5:3|7:6] */
    { 0x2508, 0, RVT_OP_FLD, 10, 10, 0, 0, 8, "c.fld fa0,8(a0)" },
    { 0xbdec, 0, RVT_OP_FSD, 0, 11, 11, 0, 248, "c.fsd fa1,248(a1)" },
    { 0x357e, 0, RVT_OP_FLD, 10, 2, 0, 0, 504, "c.fldsp fa0,504(sp)" },
    { 0xbfa2, 0, RVT_OP_FSD, 0, 2, 8, 0, 504, "c.fsdsp fs0,504(sp)" },
    /* RV32 only: c.flw/c.fsw uimm[5:3|2|6]; c.flwsp uimm[5|4:2|7:6]; c.fswsp uimm[5:2|7:6] */
    { 0x7d68, 32, RVT_OP_FLW, 10, 10, 0, 0, 124, "c.flw fa0,124(a0)" },
    { 0xe1cc, 32, RVT_OP_FSW, 0, 11, 11, 0, 4, "c.fsw fa1,4(a1)" },
    { 0x747e, 32, RVT_OP_FLW, 8, 2, 0, 0, 252, "c.flwsp fs0,252(sp)" },
    { 0xe226, 32, RVT_OP_FSW, 0, 2, 9, 0, 4, "c.fswsp fs1,4(sp)" },
};

static const struct { uint32_t raw; unsigned xlen; const char *what; } illegal[] = {
    { OPFP(0x18, 0, 2, 2, DYN, 10), 32, "fcvt.l.s on RV32" },
    { OPFP(0x1a, 1, 3, 10, DYN, 2), 32, "fcvt.d.lu on RV32" },
    { OPFP(0x1c, 1, 0, 2, 0, 10), 32, "fmv.x.d on RV32" },
    { OPFP(0x1e, 1, 0, 10, 0, 2), 32, "fmv.d.x on RV32" },
    { OPFP(0x18, 0, 4, 2, DYN, 10), 0, "fcvt.int rs2 = 4" },
    { OPFP(0x00, 2, 3, 2, DYN, 1), 0, "fadd with fmt 10 (H not decoded)" },
    { OPFP(0x00, 3, 3, 2, DYN, 1), 0, "fadd.q" },
    { OPFP(0x00, 0, 3, 2, 5, 1), 0, "fadd.s rm 101 (reserved)" },
    { OPFP(0x00, 0, 3, 2, 6, 1), 0, "fadd.s rm 110 (reserved)" },
    { OPFP(0x0b, 0, 1, 2, DYN, 1), 0, "fsqrt rs2 != 0" },
    { OPFP(0x04, 0, 3, 2, 3, 1), 0, "fsgnj rm 011" },
    { OPFP(0x05, 0, 3, 2, 2, 1), 0, "fmin rm 010" },
    { OPFP(0x14, 0, 3, 2, 3, 10), 0, "fcmp rm 011" },
    { OPFP(0x1c, 0, 0, 2, 2, 10), 0, "fmv.x.w rm 010" },
    { OPFP(0x1c, 0, 1, 2, 0, 10), 0, "fmv.x.w rs2 != 0" },
    { OPFP(0x1e, 0, 0, 10, 1, 2), 0, "fmv.w.x rm 001" },
    { OPFP(0x08, 0, 0, 2, DYN, 1), 0, "fcvt.s.s" },
    { OPFP(0x08, 1, 1, 2, DYN, 1), 0, "fcvt.d.d" },
    { OPFP(0x1f, 0, 0, 2, 0, 1), 0, "funct5 11111" },
    { I(0, 2, 1, 10, 0x07), 0, "load-fp width 001" },
    { I(0, 2, 6, 10, 0x07), 0, "load-fp width 110 (vector)" },
    { S(0, 8, 2, 4, 0x27), 0, "store-fp width 100" },
    { R4(4, 2, 3, 2, DYN, 1, 0x43), 0, "fmadd fmt 10" },
    { R4(4, 0, 3, 2, 5, 1, 0x43), 0, "fmadd rm 101" },
};

int main(void)
{
    bool seen[RVT_OP_COUNT] = { false };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct fcase *c = &cases[i];
        seen[c->op] = true;
        for (unsigned xlen = 32; xlen <= 64; xlen += 32) {
            if (c->xlen && c->xlen != xlen)
                continue;
            rvt_insn in;
            int rc = rvt_isa_decode(c->raw, xlen, &in);
            unsigned len = c->raw <= 0xffff ? 2 : 4;
            if (rc != 0 || in.op != c->op || in.rd != c->rd || in.rs1 != c->rs1 ||
                in.rs2 != c->rs2 || in.rs3 != c->rs3 || in.imm != c->imm || in.len != len)
                TH_FAIL("%s (0x%08x rv%u): rc %d op %s rd %u rs1 %u rs2 %u rs3 %u imm %lld",
                        c->what, c->raw, xlen, rc, rvt_isa_op_name(in.op), in.rd, in.rs1,
                        in.rs2, in.rs3, (long long)in.imm);
            else
                th_passed++;
        }
    }
    for (unsigned op = RVT_OP_FLW; op < RVT_OP_COUNT; op++)
        if (!seen[op])
            TH_FAIL("FP op %s has no decode case", rvt_isa_op_name(op));
    for (size_t i = 0; i < sizeof illegal / sizeof illegal[0]; i++) {
        for (unsigned xlen = 32; xlen <= 64; xlen += 32) {
            if (illegal[i].xlen && illegal[i].xlen != xlen)
                continue;
            rvt_insn in;
            if (rvt_isa_decode(illegal[i].raw, xlen, &in) != RVT_ERR_FORMAT)
                TH_FAIL("%s (0x%08x rv%u) decoded as %s", illegal[i].what, illegal[i].raw,
                        xlen, rvt_isa_op_name(in.op));
            else
                th_passed++;
        }
    }
    /* Rounding mode travels in aqrl: fmadd.d with rm = 000 (rne), fcvt.w.s rtz (001). */
    rvt_insn in;
    CHECK_EQ(rvt_isa_decode(R4(31, 1, 3, 2, 0, 1, 0x43), 64, &in), 0);
    CHECK_EQ(in.aqrl, 0);
    CHECK_EQ(rvt_isa_decode(OPFP(0x18, 0, 0, 2, 1, 10), 64, &in), 0);
    CHECK_EQ(in.aqrl, 1);
    CHECK_EQ(rvt_isa_decode(OPFP(0x00, 1, 3, 2, DYN, 1), 32, &in), 0);
    CHECK_EQ(in.aqrl, 7);
    /* FP ops are not control transfers. */
    CHECK_EQ(in.jclass, RVT_JC_NONE);
    return TH_DONE();
}
