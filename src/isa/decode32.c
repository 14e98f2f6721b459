/* 32-bit base encodings: RV32I/RV64I, M, A, Zicsr, Zifencei and the
 * privileged instructions (unprivileged spec ch. 2, 4, 5, 6, 7, 8 and the
 * opcode map in ch. 34 "RV32/64G Instruction Set Listings"; privileged spec
 * 3.3 and 10.2 for mret/sret/wfi/sfence.vma). */
#include "isa/isa_internal.h"

/* Immediate formats, unprivileged spec 2.3 figure 2.4. */
static int64_t imm_i(uint32_t r) { return rvt_sext(r >> 20, 12); }
static int64_t imm_s(uint32_t r)
{
    return rvt_sext((rvt_isa_bits(r, 31, 25) << 5) | rvt_isa_bits(r, 11, 7), 12);
}
static int64_t imm_b(uint32_t r)
{
    uint32_t v = (rvt_isa_bits(r, 31, 31) << 12) | (rvt_isa_bits(r, 7, 7) << 11) |
                 (rvt_isa_bits(r, 30, 25) << 5) | (rvt_isa_bits(r, 11, 8) << 1);
    return rvt_sext(v, 13);
}
static int64_t imm_u(uint32_t r) { return rvt_sext(r & 0xfffff000u, 32); }
static int64_t imm_j(uint32_t r)
{
    uint32_t v = (rvt_isa_bits(r, 31, 31) << 20) | (rvt_isa_bits(r, 19, 12) << 12) |
                 (rvt_isa_bits(r, 20, 20) << 11) | (rvt_isa_bits(r, 30, 21) << 1);
    return rvt_sext(v, 21);
}

/* Store the op; false when a lookup table yielded RVT_OP_ILLEGAL (0). */
static bool set(rvt_insn *o, unsigned op)
{
    o->op = (uint16_t)op;
    return op != RVT_OP_ILLEGAL;
}

static bool dec_branch(uint32_t r, rvt_insn *o)
{
    static const uint16_t ops[8] = {
        RVT_OP_BEQ, RVT_OP_BNE, RVT_OP_ILLEGAL, RVT_OP_ILLEGAL,
        RVT_OP_BLT, RVT_OP_BGE, RVT_OP_BLTU, RVT_OP_BGEU,
    };
    o->rd = 0;
    o->imm = imm_b(r);
    return set(o, ops[rvt_isa_bits(r, 14, 12)]);
}

static bool dec_load(uint32_t r, unsigned xlen, rvt_insn *o)
{
    static const uint16_t ops[8] = {
        RVT_OP_LB, RVT_OP_LH, RVT_OP_LW, RVT_OP_LD,
        RVT_OP_LBU, RVT_OP_LHU, RVT_OP_LWU, RVT_OP_ILLEGAL,
    };
    unsigned f3 = rvt_isa_bits(r, 14, 12);
    if (xlen == 32 && (f3 == 3 || f3 == 6))
        return false;              /* LD/LWU are RV64I only */
    o->rs2 = 0;
    o->imm = imm_i(r);
    return set(o, ops[f3]);
}

static bool dec_store(uint32_t r, unsigned xlen, rvt_insn *o)
{
    static const uint16_t ops[4] = { RVT_OP_SB, RVT_OP_SH, RVT_OP_SW, RVT_OP_SD };
    unsigned f3 = rvt_isa_bits(r, 14, 12);
    if (f3 > 3 || (xlen == 32 && f3 == 3))
        return false;
    o->rd = 0;
    o->imm = imm_s(r);
    return set(o, ops[f3]);
}

/* Shift-immediate: the shamt is 5 bits on RV32 (and for the *W forms) and 6
 * bits on RV64; funct6/funct7 selects logical vs arithmetic (2.4.1). */
static bool dec_shift_imm(uint32_t r, unsigned shbits, unsigned sll, unsigned srl,
                          unsigned sra, rvt_insn *o)
{
    unsigned f3 = rvt_isa_bits(r, 14, 12);
    unsigned hi = r >> (20 + shbits);          /* bits above the shamt */
    unsigned arith = 1u << (30 - 20 - shbits);   /* inst[30] within `hi` */
    o->rs2 = 0;
    o->imm = rvt_isa_bits(r, 20 + shbits - 1, 20);
    if (f3 == 1)
        return hi == 0 && set(o, sll);
    if (hi == 0)
        return set(o, srl);
    return hi == arith && set(o, sra);
}

static bool dec_op_imm(uint32_t r, unsigned xlen, rvt_insn *o)
{
    static const uint16_t ops[8] = {
        RVT_OP_ADDI, RVT_OP_ILLEGAL, RVT_OP_SLTI, RVT_OP_SLTIU,
        RVT_OP_XORI, RVT_OP_ILLEGAL, RVT_OP_ORI, RVT_OP_ANDI,
    };
    unsigned f3 = rvt_isa_bits(r, 14, 12);
    if (f3 == 1 || f3 == 5)
        return dec_shift_imm(r, xlen == 64 ? 6 : 5, RVT_OP_SLLI, RVT_OP_SRLI,
                             RVT_OP_SRAI, o);
    o->rs2 = 0;
    o->imm = imm_i(r);
    return set(o, ops[f3]);
}

static bool dec_op_imm32(uint32_t r, unsigned xlen, rvt_insn *o)
{
    unsigned f3 = rvt_isa_bits(r, 14, 12);
    if (xlen != 64)
        return false;
    if (f3 == 1 || f3 == 5)
        return dec_shift_imm(r, 5, RVT_OP_SLLIW, RVT_OP_SRLIW, RVT_OP_SRAIW, o);
    o->rs2 = 0;
    o->imm = imm_i(r);
    return f3 == 0 && set(o, RVT_OP_ADDIW);
}

/* OP / OP-32: funct7 0 (base), 0x20 (sub/sra), 1 (M extension). */
static bool dec_op(uint32_t r, rvt_insn *o)
{
    static const uint16_t base[8] = {
        RVT_OP_ADD, RVT_OP_SLL, RVT_OP_SLT, RVT_OP_SLTU,
        RVT_OP_XOR, RVT_OP_SRL, RVT_OP_OR, RVT_OP_AND,
    };
    static const uint16_t mul[8] = {
        RVT_OP_MUL, RVT_OP_MULH, RVT_OP_MULHSU, RVT_OP_MULHU,
        RVT_OP_DIV, RVT_OP_DIVU, RVT_OP_REM, RVT_OP_REMU,
    };
    unsigned f3 = rvt_isa_bits(r, 14, 12), f7 = r >> 25;
    if (f7 == 0)
        return set(o, base[f3]);
    if (f7 == 1)
        return set(o, mul[f3]);
    if (f7 == 0x20 && f3 == 0)
        return set(o, RVT_OP_SUB);
    if (f7 == 0x20 && f3 == 5)
        return set(o, RVT_OP_SRA);
    return false;
}

static bool dec_op32(uint32_t r, unsigned xlen, rvt_insn *o)
{
    static const uint16_t base[8] = {
        RVT_OP_ADDW, RVT_OP_SLLW, 0, 0, 0, RVT_OP_SRLW, 0, 0,
    };
    static const uint16_t mul[8] = {
        RVT_OP_MULW, 0, 0, 0, RVT_OP_DIVW, RVT_OP_DIVUW, RVT_OP_REMW, RVT_OP_REMUW,
    };
    unsigned f3 = rvt_isa_bits(r, 14, 12), f7 = r >> 25;
    if (xlen != 64)
        return false;
    if (f7 == 0)
        return set(o, base[f3]);
    if (f7 == 1)
        return set(o, mul[f3]);
    if (f7 == 0x20 && f3 == 0)
        return set(o, RVT_OP_SUBW);
    if (f7 == 0x20 && f3 == 5)
        return set(o, RVT_OP_SRAW);
    return false;
}

/* MISC-MEM: fence keeps fm/pred/succ (inst[31:20]) zero-extended in imm. */
static bool dec_misc_mem(uint32_t r, rvt_insn *o)
{
    unsigned f3 = rvt_isa_bits(r, 14, 12);
    o->rs2 = 0;
    o->imm = r >> 20;
    if (f3 == 0)
        return set(o, RVT_OP_FENCE);
    return f3 == 1 && set(o, RVT_OP_FENCE_I);
}

/* AMO (chapter 8): funct5 in inst[31:27], aq/rl in inst[26:25]. */
static bool dec_amo(uint32_t r, unsigned xlen, rvt_insn *o)
{
    static const uint16_t w[32] = {
        [0x00] = RVT_OP_AMOADD_W, [0x01] = RVT_OP_AMOSWAP_W, [0x02] = RVT_OP_LR_W,
        [0x03] = RVT_OP_SC_W, [0x04] = RVT_OP_AMOXOR_W, [0x0c] = RVT_OP_AMOAND_W,
        [0x08] = RVT_OP_AMOOR_W, [0x10] = RVT_OP_AMOMIN_W, [0x14] = RVT_OP_AMOMAX_W,
        [0x18] = RVT_OP_AMOMINU_W, [0x1c] = RVT_OP_AMOMAXU_W,
    };
    /* The .D ops follow the .W ops in the same order in rvt_op. */
    unsigned f3 = rvt_isa_bits(r, 14, 12), f5 = r >> 27;
    unsigned op = w[f5];
    if (op == 0 || (f3 != 2 && f3 != 3) || (f3 == 3 && xlen != 64))
        return false;
    if (op == RVT_OP_LR_W && o->rs2 != 0)
        return false;
    if (f3 == 3)
        op += RVT_OP_LR_D - RVT_OP_LR_W;
    o->aqrl = (uint8_t)rvt_isa_bits(r, 26, 25);
    return set(o, op);
}

/* SYSTEM funct3 == 0: fixed encodings (privileged spec table 2.x listing). */
static bool dec_priv(uint32_t r, rvt_insn *o)
{
    o->rd = o->rs1 = o->rs2 = 0;
    switch (r) {
    case 0x00000073u: return set(o, RVT_OP_ECALL);
    case 0x00100073u: return set(o, RVT_OP_EBREAK);
    case 0x10200073u: return set(o, RVT_OP_SRET);
    case 0x30200073u: return set(o, RVT_OP_MRET);
    case 0x10500073u: return set(o, RVT_OP_WFI);
    default: break;
    }
    if ((r >> 25) == 0x09 && rvt_isa_bits(r, 11, 7) == 0) {
        o->rs1 = (uint8_t)rvt_isa_bits(r, 19, 15);
        o->rs2 = (uint8_t)rvt_isa_bits(r, 24, 20);
        return set(o, RVT_OP_SFENCE_VMA);
    }
    return false;
}

/* Zicsr (chapter 7): csr = inst[31:20]; the immediate forms keep the 5-bit
 * zimm both in imm and in rs1 (the field it occupies), so "rs1 == 0" means
 * "no write" for csrrs/csrrc and their i forms alike. */
static bool dec_system(uint32_t r, rvt_insn *o)
{
    static const uint16_t ops[8] = {
        0, RVT_OP_CSRRW, RVT_OP_CSRRS, RVT_OP_CSRRC,
        0, RVT_OP_CSRRWI, RVT_OP_CSRRSI, RVT_OP_CSRRCI,
    };
    unsigned f3 = rvt_isa_bits(r, 14, 12);
    if (f3 == 0)
        return dec_priv(r, o);
    if (ops[f3] == 0)
        return false;
    o->csr = (uint16_t)(r >> 20);
    o->rs2 = 0;
    if (f3 >= 5)
        o->imm = o->rs1;
    return set(o, ops[f3]);
}

bool rvt_isa_decode32(uint32_t r, unsigned xlen, rvt_insn *o)
{
    o->rd = (uint8_t)rvt_isa_bits(r, 11, 7);
    o->rs1 = (uint8_t)rvt_isa_bits(r, 19, 15);
    o->rs2 = (uint8_t)rvt_isa_bits(r, 24, 20);
    switch (rvt_isa_bits(r, 6, 0)) {
    case 0x37: o->rs1 = o->rs2 = 0; o->imm = imm_u(r); return set(o, RVT_OP_LUI);
    case 0x17: o->rs1 = o->rs2 = 0; o->imm = imm_u(r); return set(o, RVT_OP_AUIPC);
    case 0x6f: o->rs1 = o->rs2 = 0; o->imm = imm_j(r); return set(o, RVT_OP_JAL);
    case 0x67:
        o->rs2 = 0;
        o->imm = imm_i(r);
        return rvt_isa_bits(r, 14, 12) == 0 && set(o, RVT_OP_JALR);
    case 0x63: return dec_branch(r, o);
    case 0x03: return dec_load(r, xlen, o);
    case 0x23: return dec_store(r, xlen, o);
    case 0x13: return dec_op_imm(r, xlen, o);
    case 0x1b: return dec_op_imm32(r, xlen, o);
    case 0x33: return dec_op(r, o);
    case 0x3b: return dec_op32(r, xlen, o);
    case 0x0f: return dec_misc_mem(r, o);
    case 0x2f: return dec_amo(r, xlen, o);
    case 0x73: return dec_system(r, o);
    default: return rvt_isa_decode_fp(r, xlen, o);
    }
}
