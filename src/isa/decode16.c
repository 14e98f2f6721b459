/* Compressed (C extension) encodings, expanded to the base operation they
 * stand for (unprivileged spec ch. 16 "C" Standard Extension, tables 16.5-16.7
 * opcode map and 16.8 listings).  HINT encodings decode as the base op they
 * expand to (e.g. c.li x0 -> addi x0,x0,imm); reserved encodings, c.unimp
 * (0x0000) and the RV32 "custom" shamt[5]=1 shifts are illegal. */
#include "isa/isa_internal.h"

#define B(hi, lo) rvt_isa_bits(r, hi, lo)

/* rd'/rs1'/rs2' 3-bit fields name x8..x15 (16.2, table 16.2). */
static uint8_t creg(uint32_t v) { return (uint8_t)(v + 8); }

static bool op3(rvt_insn *o, unsigned op, unsigned rd, unsigned rs1, unsigned rs2)
{
    o->op = (uint16_t)op;
    o->rd = (uint8_t)rd;
    o->rs1 = (uint8_t)rs1;
    o->rs2 = (uint8_t)rs2;
    return true;
}

/* CI-format 6-bit signed immediate imm[5] = inst[12], imm[4:0] = inst[6:2]. */
static int64_t ci_imm(uint32_t r) { return rvt_sext((B(12, 12) << 5) | B(6, 2), 6); }
/* CL/CS offsets: word uimm[5:3|2|6], double uimm[5:3|7:6]. */
static int64_t cl_w(uint32_t r) { return (B(12, 10) << 3) | (B(6, 6) << 2) | (B(5, 5) << 6); }
static int64_t cl_d(uint32_t r) { return (B(12, 10) << 3) | (B(6, 5) << 6); }
/* CI sp-relative loads: lwsp uimm[5|4:2|7:6], ldsp uimm[5|4:3|8:6]. */
static int64_t ci_lwsp(uint32_t r) { return (B(12, 12) << 5) | (B(6, 4) << 2) | (B(3, 2) << 6); }
static int64_t ci_ldsp(uint32_t r) { return (B(12, 12) << 5) | (B(6, 5) << 3) | (B(4, 2) << 6); }
/* CSS sp-relative stores: swsp uimm[5:2|7:6], sdsp uimm[5:3|8:6]. */
static int64_t css_w(uint32_t r) { return (B(12, 9) << 2) | (B(8, 7) << 6); }
static int64_t css_d(uint32_t r) { return (B(12, 10) << 3) | (B(9, 7) << 6); }
/* CJ jump offset imm[11|4|9:8|10|6|7|3:1|5]. */
static int64_t cj_imm(uint32_t r)
{
    uint32_t v = (B(12, 12) << 11) | (B(11, 11) << 4) | (B(10, 9) << 8) |
                 (B(8, 8) << 10) | (B(7, 7) << 6) | (B(6, 6) << 7) |
                 (B(5, 3) << 1) | (B(2, 2) << 5);
    return rvt_sext(v, 12);
}
/* CB branch offset imm[8|4:3] in inst[12:10], imm[7:6|2:1|5] in inst[6:2]. */
static int64_t cb_imm(uint32_t r)
{
    uint32_t v = (B(12, 12) << 8) | (B(11, 10) << 3) | (B(6, 5) << 6) |
                 (B(4, 3) << 1) | (B(2, 2) << 5);
    return rvt_sext(v, 9);
}

/* Load (data_reg -> rd) or store (data_reg -> rs2) at base + off. */
static bool mem(rvt_insn *o, unsigned op, unsigned data_reg, unsigned base,
                int64_t off, bool store)
{
    o->imm = off;
    if (store)
        return op3(o, op, 0, base, data_reg);
    return op3(o, op, data_reg, base, 0);
}

static bool quadrant0(uint32_t r, unsigned xlen, rvt_insn *o)
{
    uint8_t rdp = creg(B(4, 2)), rs1p = creg(B(9, 7));
    switch (B(15, 13)) {
    case 0: {  /* c.addi4spn: nzuimm[5:4|9:6|2|3]; nzuimm == 0 reserved */
        int64_t u = (B(12, 11) << 4) | (B(10, 7) << 6) | (B(6, 6) << 2) | (B(5, 5) << 3);
        o->imm = u;
        return u != 0 && op3(o, RVT_OP_ADDI, rdp, 2, 0);
    }
    case 1: return mem(o, RVT_OP_FLD, rdp, rs1p, cl_d(r), false);    /* c.fld */
    case 2: return mem(o, RVT_OP_LW, rdp, rs1p, cl_w(r), false);
    case 3:
        if (xlen == 32)
            return mem(o, RVT_OP_FLW, rdp, rs1p, cl_w(r), false);  /* c.flw */
        return mem(o, RVT_OP_LD, rdp, rs1p, cl_d(r), false);
    case 5: return mem(o, RVT_OP_FSD, rdp, rs1p, cl_d(r), true);     /* c.fsd */
    case 6: return mem(o, RVT_OP_SW, rdp, rs1p, cl_w(r), true);
    case 7:
        if (xlen == 32)
            return mem(o, RVT_OP_FSW, rdp, rs1p, cl_w(r), true);   /* c.fsw */
        return mem(o, RVT_OP_SD, rdp, rs1p, cl_d(r), true);
    default: return false;                                /* 100: reserved */
    }
}

/* c.srli/c.srai/c.andi/c.sub.. (funct3 100, quadrant 1). */
static bool q1_alu(uint32_t r, unsigned xlen, rvt_insn *o)
{
    static const uint16_t rr[8] = {
        RVT_OP_SUB, RVT_OP_XOR, RVT_OP_OR, RVT_OP_AND,
        RVT_OP_SUBW, RVT_OP_ADDW, RVT_OP_ILLEGAL, RVT_OP_ILLEGAL,
    };
    uint8_t rd = creg(B(9, 7));
    unsigned f2 = B(11, 10);
    if (f2 <= 1) {
        /* RV32C: shamt[5] = 1 is reserved for custom use (16.5.2). */
        if (xlen == 32 && B(12, 12))
            return false;
        o->imm = (B(12, 12) << 5) | B(6, 2);
        return op3(o, f2 ? RVT_OP_SRAI : RVT_OP_SRLI, rd, rd, 0);
    }
    if (f2 == 2) {
        o->imm = ci_imm(r);
        return op3(o, RVT_OP_ANDI, rd, rd, 0);
    }
    unsigned op = rr[(B(12, 12) << 2) | B(6, 5)];
    if (op == RVT_OP_ILLEGAL || (B(12, 12) && xlen != 64))
        return false;                       /* c.subw/c.addw are RV64C */
    return op3(o, op, rd, rd, creg(B(4, 2)));
}

static bool quadrant1(uint32_t r, unsigned xlen, rvt_insn *o)
{
    unsigned rd = B(11, 7);
    switch (B(15, 13)) {
    case 0: o->imm = ci_imm(r); return op3(o, RVT_OP_ADDI, rd, rd, 0);    /* c.addi, c.nop */
    case 1:
        if (xlen == 32) {                                                /* c.jal */
            o->imm = cj_imm(r);
            return op3(o, RVT_OP_JAL, 1, 0, 0);
        }
        o->imm = ci_imm(r);                                              /* c.addiw */
        return rd != 0 && op3(o, RVT_OP_ADDIW, rd, rd, 0);
    case 2: o->imm = ci_imm(r); return op3(o, RVT_OP_ADDI, rd, 0, 0);     /* c.li */
    case 3:
        if (rd == 2) {            /* c.addi16sp: nzimm[9|4|6|8:7|5] */
            uint32_t v = (B(12, 12) << 9) | (B(6, 6) << 4) | (B(5, 5) << 6) |
                         (B(4, 3) << 7) | (B(2, 2) << 5);
            o->imm = rvt_sext(v, 10);
            return v != 0 && op3(o, RVT_OP_ADDI, 2, 2, 0);
        }
        o->imm = ci_imm(r) * 4096;                                       /* c.lui */
        return o->imm != 0 && op3(o, RVT_OP_LUI, rd, 0, 0);
    case 4: return q1_alu(r, xlen, o);
    case 5: o->imm = cj_imm(r); return op3(o, RVT_OP_JAL, 0, 0, 0);       /* c.j */
    case 6: o->imm = cb_imm(r); return op3(o, RVT_OP_BEQ, 0, creg(B(9, 7)), 0);
    default: o->imm = cb_imm(r); return op3(o, RVT_OP_BNE, 0, creg(B(9, 7)), 0);
    }
}

/* funct4 100x of quadrant 2: c.jr, c.mv, c.ebreak, c.jalr, c.add. */
static bool q2_jr_mv_add(uint32_t r, rvt_insn *o)
{
    unsigned rs1 = B(11, 7), rs2 = B(6, 2);
    if (B(12, 12) == 0) {
        if (rs2 == 0)
            return rs1 != 0 && op3(o, RVT_OP_JALR, 0, rs1, 0);   /* c.jr; rs1=0 reserved */
        return op3(o, RVT_OP_ADD, rs1, 0, rs2);                  /* c.mv */
    }
    if (rs1 == 0 && rs2 == 0)
        return op3(o, RVT_OP_EBREAK, 0, 0, 0);                  /* c.ebreak */
    if (rs2 == 0)
        return op3(o, RVT_OP_JALR, 1, rs1, 0);                   /* c.jalr */
    return op3(o, RVT_OP_ADD, rs1, rs1, rs2);                    /* c.add */
}

static bool quadrant2(uint32_t r, unsigned xlen, rvt_insn *o)
{
    unsigned rd = B(11, 7);
    switch (B(15, 13)) {
    case 0:                                                       /* c.slli */
        if (xlen == 32 && B(12, 12))
            return false;
        o->imm = (B(12, 12) << 5) | B(6, 2);
        return op3(o, RVT_OP_SLLI, rd, rd, 0);
    case 1: return mem(o, RVT_OP_FLD, rd, 2, ci_ldsp(r), false);     /* c.fldsp */
    case 2: return rd != 0 && mem(o, RVT_OP_LW, rd, 2, ci_lwsp(r), false);
    case 3:
        if (xlen == 32)
            return mem(o, RVT_OP_FLW, rd, 2, ci_lwsp(r), false);  /* c.flwsp */
        return rd != 0 && mem(o, RVT_OP_LD, rd, 2, ci_ldsp(r), false);
    case 4: return q2_jr_mv_add(r, o);
    case 5: return mem(o, RVT_OP_FSD, B(6, 2), 2, css_d(r), true);   /* c.fsdsp */
    case 6: return mem(o, RVT_OP_SW, B(6, 2), 2, css_w(r), true);
    default:
        if (xlen == 32)
            return mem(o, RVT_OP_FSW, B(6, 2), 2, css_w(r), true); /* c.fswsp */
        return mem(o, RVT_OP_SD, B(6, 2), 2, css_d(r), true);
    }
}

bool rvt_isa_decode16(uint32_t r, unsigned xlen, rvt_insn *o)
{
    switch (r & 3) {
    case 0: return quadrant0(r, xlen, o);
    case 1: return quadrant1(r, xlen, o);
    default: return quadrant2(r, xlen, o);
    }
}
