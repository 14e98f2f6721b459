/* F and D encodings (unprivileged spec ch. 11 "F" and ch. 12 "D", opcode
 * map ch. 34): LOAD-FP, STORE-FP, the fused multiply-add opcodes and OP-FP.
 * inst[26:25] (fmt) selects S (00) or D (01); H and Q are not decoded. */
#include "isa/isa_internal.h"

/* Rounding mode inst[14:12]: 101 and 110 are reserved (11.2). */
static bool rm_ok(unsigned rm) { return rm != 5 && rm != 6; }

static bool fp_set(rvt_insn *o, unsigned op_s, unsigned fmt)
{
    o->op = (uint16_t)(op_s + fmt * RVT_OP_FP_FMT_STRIDE);
    return true;
}

static bool dec_fp_mem(uint32_t r, rvt_insn *o, bool store)
{
    unsigned w = rvt_isa_bits(r, 14, 12);
    if (w != 2 && w != 3)           /* other widths are the V extension */
        return false;
    if (store) {
        o->rd = 0;
        o->imm = rvt_sext((rvt_isa_bits(r, 31, 25) << 5) | rvt_isa_bits(r, 11, 7), 12);
        return fp_set(o, RVT_OP_FSW, w - 2);
    }
    o->rs2 = 0;
    o->imm = rvt_sext(r >> 20, 12);
    return fp_set(o, RVT_OP_FLW, w - 2);
}

/* R4: rs3[31:27] fmt[26:25] rs2 rs1 rm rd opcode */
static bool dec_fma(uint32_t r, rvt_insn *o)
{
    static const uint16_t ops[4] = {
        RVT_OP_FMADD_S, RVT_OP_FMSUB_S, RVT_OP_FNMSUB_S, RVT_OP_FNMADD_S,
    };
    unsigned fmt = rvt_isa_bits(r, 26, 25);
    if (fmt > 1 || !rm_ok(o->aqrl))
        return false;
    o->rs3 = (uint8_t)rvt_isa_bits(r, 31, 27);
    return fp_set(o, ops[rvt_isa_bits(r, 3, 2)], fmt);
}

/* fcvt between integer and FP: rs2 selects w/wu/l/lu; l/lu are RV64. */
static bool dec_fcvt_int(rvt_insn *o, unsigned xlen, unsigned first_s, unsigned fmt)
{
    unsigned sel = o->rs2;
    if (sel > 3 || (sel > 1 && xlen != 64) || !rm_ok(o->aqrl))
        return false;
    o->rs2 = 0;
    return fp_set(o, first_s + sel, fmt);
}

/* fmv.x.w/fclass (funct5 11100) and fmv.w.x (11110): rs2 = 0, rm fixed. */
static bool dec_fmv_class(rvt_insn *o, unsigned xlen, unsigned f5, unsigned fmt)
{
    unsigned rm = o->aqrl;
    if (o->rs2 != 0 || (fmt == 1 && rm == 0 && xlen != 64))
        return false;               /* fmv.x.d / fmv.d.x are RV64 */
    o->aqrl = 0;
    if (f5 == 0x1c && rm == 0)
        return fp_set(o, RVT_OP_FMV_X_W, fmt);
    if (f5 == 0x1c && rm == 1)
        return fp_set(o, RVT_OP_FCLASS_S, fmt);
    return f5 == 0x1e && rm == 0 && fp_set(o, RVT_OP_FMV_W_X, fmt);
}

/* funct3-selected ops (sign injection, min/max, compares): rm is funct3. */
static bool dec_fp_f3(rvt_insn *o, unsigned f5, unsigned fmt)
{
    static const uint16_t sgnj[3] = { RVT_OP_FSGNJ_S, RVT_OP_FSGNJN_S, RVT_OP_FSGNJX_S };
    static const uint16_t minmax[2] = { RVT_OP_FMIN_S, RVT_OP_FMAX_S };
    static const uint16_t cmp[3] = { RVT_OP_FLE_S, RVT_OP_FLT_S, RVT_OP_FEQ_S };
    unsigned f3 = o->aqrl;
    o->aqrl = 0;
    if (f5 == 0x04 && f3 < 3)
        return fp_set(o, sgnj[f3], fmt);
    if (f5 == 0x05 && f3 < 2)
        return fp_set(o, minmax[f3], fmt);
    return f5 == 0x14 && f3 < 3 && fp_set(o, cmp[f3], fmt);
}

static bool dec_op_fp(uint32_t r, unsigned xlen, rvt_insn *o)
{
    static const uint16_t arith[4] = { RVT_OP_FADD_S, RVT_OP_FSUB_S, RVT_OP_FMUL_S, RVT_OP_FDIV_S };
    unsigned f5 = r >> 27, fmt = rvt_isa_bits(r, 26, 25);
    if (fmt > 1)
        return false;
    switch (f5) {
    case 0x00: case 0x01: case 0x02: case 0x03:
        return rm_ok(o->aqrl) && fp_set(o, arith[f5], fmt);
    case 0x0b:
        if (o->rs2 != 0 || !rm_ok(o->aqrl))
            return false;
        return fp_set(o, RVT_OP_FSQRT_S, fmt);
    case 0x08:                      /* fcvt.s.d (fmt S, rs2 = 1) / fcvt.d.s */
        if (o->rs2 != (fmt ^ 1) || !rm_ok(o->aqrl))
            return false;
        o->rs2 = 0;
        return fp_set(o, RVT_OP_FCVT_S_D, fmt);
    case 0x18: return dec_fcvt_int(o, xlen, RVT_OP_FCVT_W_S, fmt);
    case 0x1a: return dec_fcvt_int(o, xlen, RVT_OP_FCVT_S_W, fmt);
    case 0x1c: case 0x1e: return dec_fmv_class(o, xlen, f5, fmt);
    default: return dec_fp_f3(o, f5, fmt);
    }
}

bool rvt_isa_decode_fp(uint32_t r, unsigned xlen, rvt_insn *o)
{
    o->aqrl = (uint8_t)rvt_isa_bits(r, 14, 12);
    switch (rvt_isa_bits(r, 6, 0)) {
    case 0x07: o->aqrl = 0; return dec_fp_mem(r, o, false);
    case 0x27: o->aqrl = 0; return dec_fp_mem(r, o, true);
    case 0x43: case 0x47: case 0x4b: case 0x4f: return dec_fma(r, o);
    case 0x53: return dec_op_fp(r, xlen, o);
    default: return false;
    }
}

/* Which operands of an op are f registers (for the disassembler). */
unsigned rvt_isa_fp_operands(unsigned op)
{
    if (op < RVT_OP_FLW || op >= RVT_OP_COUNT)
        return 0;
    unsigned s = (op - RVT_OP_FLW) % RVT_OP_FP_FMT_STRIDE + RVT_OP_FLW;
    switch (s) {
    case RVT_OP_FLW: return RVT_FPR_RD;
    case RVT_OP_FSW: return RVT_FPR_RS2;
    case RVT_OP_FMADD_S: case RVT_OP_FMSUB_S: case RVT_OP_FNMSUB_S: case RVT_OP_FNMADD_S:
        return RVT_FPR_RD | RVT_FPR_RS1 | RVT_FPR_RS2 | RVT_FPR_RS3;
    case RVT_OP_FCVT_W_S: case RVT_OP_FCVT_WU_S: case RVT_OP_FCVT_L_S:
    case RVT_OP_FCVT_LU_S: case RVT_OP_FMV_X_W: case RVT_OP_FCLASS_S:
        return RVT_FPR_RS1;
    case RVT_OP_FEQ_S: case RVT_OP_FLT_S: case RVT_OP_FLE_S:
        return RVT_FPR_RS1 | RVT_FPR_RS2;
    case RVT_OP_FCVT_S_W: case RVT_OP_FCVT_S_WU: case RVT_OP_FCVT_S_L:
    case RVT_OP_FCVT_S_LU: case RVT_OP_FMV_W_X:
        return RVT_FPR_RD;
    case RVT_OP_FSQRT_S: case RVT_OP_FCVT_S_D:
        return RVT_FPR_RD | RVT_FPR_RS1;
    default:
        return RVT_FPR_RD | RVT_FPR_RS1 | RVT_FPR_RS2;
    }
}
