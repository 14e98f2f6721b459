/* rvt_isa_decode for the C extension: every compressed instruction decodes
 * to the base op it expands to (unprivileged spec 16.8, table 16.x "RVC
 * instruction listings"), len 2, RVT_INSN_F_COMPRESSED.  The 16-bit words
 * come from GNU as (-march=rv64gc / rv32gc); the expected expansions are
 * written from the spec: the field layout of each format is given in the
 * comment next to the word. */
#include "tharness.h"
#include "rvtrace/isa.h"
#include "rvtrace/status.h"

struct ccase {
    uint16_t raw;
    unsigned xlen;      /* 0: both */
    unsigned op;
    unsigned rd, rs1, rs2;
    int64_t imm;
    const char *what;
};

static const struct ccase cases[] = {
    /* Quadrant 0.  CIW: 000 nzuimm[5:4|9:6|2|3] rd' 00 */
    { 0x1fe0, 0, RVT_OP_ADDI, 8, 2, 0, 1020, "c.addi4spn s0,sp,1020" },
    { 0x005c, 0, RVT_OP_ADDI, 15, 2, 0, 4, "c.addi4spn a5,sp,4" },
    /* CL: 010 uimm[5:3] rs1' uimm[2|6] rd' 00 */
    { 0x5fe8, 0, RVT_OP_LW, 10, 15, 0, 124, "c.lw a0,124(a5)" },
    /* CL: 011 uimm[5:3] rs1' uimm[7:6] rd' 00 (RV64) */
    { 0x7c6c, 64, RVT_OP_LD, 11, 8, 0, 248, "c.ld a1,248(s0)" },
    /* CS: 110 uimm[5:3] rs1' uimm[2|6] rs2' 00 */
    { 0xc2b0, 0, RVT_OP_SW, 0, 13, 12, 64, "c.sw a2,64(a3)" },
    { 0xe498, 64, RVT_OP_SD, 0, 9, 14, 8, "c.sd a4,8(s1)" },
    /* Quadrant 1.  CI: 000 nzimm[5] rd nzimm[4:0] 01 */
    { 0x0001, 0, RVT_OP_ADDI, 0, 0, 0, 0, "c.nop" },
    { 0x1501, 0, RVT_OP_ADDI, 10, 10, 0, -32, "c.addi a0,-32" },
    { 0x057d, 0, RVT_OP_ADDI, 10, 10, 0, 31, "c.addi a0,31" },
    { 0x35fd, 64, RVT_OP_ADDIW, 11, 11, 0, -1, "c.addiw a1,-1" },
    { 0x5601, 0, RVT_OP_ADDI, 12, 0, 0, -32, "c.li a2,-32" },
    { 0x4015, 0, RVT_OP_ADDI, 0, 0, 0, 5, "c.li zero,5 (HINT)" },
    /* 011 nzimm[9] 00010 nzimm[4|6|8:7|5] 01 */
    { 0x7101, 0, RVT_OP_ADDI, 2, 2, 0, -512, "c.addi16sp -512" },
    { 0x617d, 0, RVT_OP_ADDI, 2, 2, 0, 496, "c.addi16sp 496" },
    /* 011 nzimm[17] rd nzimm[16:12] 01: imm is the shifted value */
    { 0x7681, 0, RVT_OP_LUI, 13, 0, 0, -0x20000, "c.lui a3,0xfffe0" },
    { 0x647d, 0, RVT_OP_LUI, 8, 0, 0, 0x1f000, "c.lui s0,0x1f" },
    /* CB: 100 shamt[5] 00 rd' shamt[4:0] 01 */
    { 0x917d, 64, RVT_OP_SRLI, 10, 10, 0, 63, "c.srli a0,63" },
    { 0x817d, 0, RVT_OP_SRLI, 10, 10, 0, 31, "c.srli a0,31" },
    { 0x8585, 0, RVT_OP_SRAI, 11, 11, 0, 1, "c.srai a1,1" },
    { 0x9a7d, 0, RVT_OP_ANDI, 12, 12, 0, -1, "c.andi a2,-1" },
    /* CA: 100 0 11 rd' funct2 rs2' 01 */
    { 0x8c05, 0, RVT_OP_SUB, 8, 8, 9, 0, "c.sub s0,s1" },
    { 0x8d2d, 0, RVT_OP_XOR, 10, 10, 11, 0, "c.xor a0,a1" },
    { 0x8e55, 0, RVT_OP_OR, 12, 12, 13, 0, "c.or a2,a3" },
    { 0x8f7d, 0, RVT_OP_AND, 14, 14, 15, 0, "c.and a4,a5" },
    { 0x9d0d, 64, RVT_OP_SUBW, 10, 10, 11, 0, "c.subw a0,a1" },
    { 0x9e35, 64, RVT_OP_ADDW, 12, 12, 13, 0, "c.addw a2,a3" },
    /* CJ: 101 imm[11|4|9:8|10|6|7|3:1|5] 01 */
    { 0xb001, 0, RVT_OP_JAL, 0, 0, 0, -2048, "c.j -2048" },
    { 0xaffd, 0, RVT_OP_JAL, 0, 0, 0, 2046, "c.j +2046" },
    { 0x3001, 32, RVT_OP_JAL, 1, 0, 0, -2048, "c.jal -2048 (RV32)" },
    { 0x2019, 32, RVT_OP_JAL, 1, 0, 0, 6, "c.jal +6 (RV32)" },
    /* CB: 110 imm[8|4:3] rs1' imm[7:6|2:1|5] 01 */
    { 0xd001, 0, RVT_OP_BEQ, 0, 8, 0, -256, "c.beqz s0,-256" },
    { 0xeffd, 0, RVT_OP_BNE, 0, 15, 0, 254, "c.bnez a5,+254" },
    /* Quadrant 2.  CI: 000 shamt[5] rd shamt[4:0] 10 */
    { 0x157e, 64, RVT_OP_SLLI, 10, 10, 0, 63, "c.slli a0,63" },
    { 0x0506, 0, RVT_OP_SLLI, 10, 10, 0, 1, "c.slli a0,1" },
    /* 010 uimm[5] rd uimm[4:2|7:6] 10 */
    { 0x557e, 0, RVT_OP_LW, 10, 2, 0, 252, "c.lwsp a0,252(sp)" },
    /* 011 uimm[5] rd uimm[4:3|8:6] 10 */
    { 0x70fe, 64, RVT_OP_LD, 1, 2, 0, 504, "c.ldsp ra,504(sp)" },
    /* CR: 1000 rs1 00000 10 = c.jr; 1000 rd rs2 10 = c.mv */
    { 0x8082, 0, RVT_OP_JALR, 0, 1, 0, 0, "c.jr ra" },
    { 0x8282, 0, RVT_OP_JALR, 0, 5, 0, 0, "c.jr t0" },
    { 0x8502, 0, RVT_OP_JALR, 0, 10, 0, 0, "c.jr a0" },
    { 0x852e, 0, RVT_OP_ADD, 10, 0, 11, 0, "c.mv a0,a1" },
    /* 1001 00000 00000 10 = c.ebreak; 1001 rs1 00000 10 = c.jalr; else c.add */
    { 0x9002, 0, RVT_OP_EBREAK, 0, 0, 0, 0, "c.ebreak" },
    { 0x9282, 0, RVT_OP_JALR, 1, 5, 0, 0, "c.jalr t0" },
    { 0x9782, 0, RVT_OP_JALR, 1, 15, 0, 0, "c.jalr a5" },
    { 0x9082, 0, RVT_OP_JALR, 1, 1, 0, 0, "c.jalr ra" },
    { 0x942a, 0, RVT_OP_ADD, 8, 8, 10, 0, "c.add s0,a0" },
    /* CSS: 110 uimm[5:2|7:6] rs2 10 ; 111 uimm[5:3|8:6] rs2 10 */
    { 0xdfaa, 0, RVT_OP_SW, 0, 2, 10, 252, "c.swsp a0,252(sp)" },
    { 0xff86, 64, RVT_OP_SD, 0, 2, 1, 504, "c.sdsp ra,504(sp)" },
};

static const struct { uint16_t raw; unsigned xlen; const char *what; } illegal[] = {
    { 0x0000, 0, "c.unimp (c.addi4spn nzuimm=0, all zeros)" },
    { 0x0010, 0, "c.addi4spn nzuimm=0 rd'!=0 (reserved)" },
    { 0x8000, 0, "quadrant 0 funct3 100 (reserved)" },
    { 0x2001, 64, "c.addiw rd=0 (reserved)" },
    { 0x6101, 0, "c.addi16sp nzimm=0 (reserved)" },
    { 0x6681, 0, "c.lui nzimm=0 (reserved)" },
    { 0x917d, 32, "c.srli shamt[5]=1 on RV32 (custom)" },
    { 0x957d, 32, "c.srai shamt[5]=1 on RV32 (custom)" },
    { 0x157e, 32, "c.slli shamt[5]=1 on RV32 (custom)" },
    { 0x9d0d, 32, "c.subw on RV32" },
    { 0x9e35, 32, "c.addw on RV32" },
    { 0x9c41, 0, "CA funct 1 10 (reserved)" },
    { 0x9c61, 0, "CA funct 1 11 (reserved)" },
    { 0x4002, 0, "c.lwsp rd=0 (reserved)" },
    { 0x6002, 64, "c.ldsp rd=0 (reserved)" },
    { 0x8002, 0, "c.jr rs1=0 (reserved)" },
};

int main(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct ccase *c = &cases[i];
        for (unsigned xlen = 32; xlen <= 64; xlen += 32) {
            if (c->xlen && c->xlen != xlen)
                continue;
            rvt_insn in;
            int rc = rvt_isa_decode(c->raw, xlen, &in);
            if (rc != 0 || in.op != c->op || in.rd != c->rd || in.rs1 != c->rs1 ||
                in.rs2 != c->rs2 || in.imm != c->imm || in.len != 2 ||
                !(in.flags & RVT_INSN_F_COMPRESSED) || in.raw != c->raw)
                TH_FAIL("%s (0x%04x rv%u): rc %d op %s rd %u rs1 %u rs2 %u imm %lld",
                        c->what, c->raw, xlen, rc, rvt_isa_op_name(in.op), in.rd,
                        in.rs1, in.rs2, (long long)in.imm);
            else
                th_passed++;
        }
    }
    for (size_t i = 0; i < sizeof illegal / sizeof illegal[0]; i++) {
        for (unsigned xlen = 32; xlen <= 64; xlen += 32) {
            if (illegal[i].xlen && illegal[i].xlen != xlen)
                continue;
            rvt_insn in;
            int rc = rvt_isa_decode(illegal[i].raw, xlen, &in);
            if (rc != RVT_ERR_FORMAT || in.op != RVT_OP_ILLEGAL || in.len != 2)
                TH_FAIL("%s (0x%04x rv%u) decoded as %s", illegal[i].what,
                        illegal[i].raw, xlen, rvt_isa_op_name(in.op));
            else
                th_passed++;
        }
    }
    /* The same quadrant-1 funct3 001 word is c.jal on RV32, c.addiw on RV64:
     * 0x2019 = 001 0 00000 00110 01 -> RV64 c.addiw with rd=0: reserved. */
    rvt_insn in;
    CHECK_EQ(rvt_isa_decode(0x2019, 64, &in), RVT_ERR_FORMAT);
    /* 0x35fd = c.addiw a1,-1 on RV64 is c.jal on RV32.  Bits 15..0 =
     * 001 1 0 10 1 1 1 111 1 01: imm[11]=1 imm[4]=0 imm[9:8]=10 imm[10]=1
     * imm[6]=1 imm[7]=1 imm[3:1]=111 imm[5]=1 -> 0b1110_1110_1110 = 0xeee,
     * sign-extended from 12 bits = -0x112. */
    CHECK_EQ(rvt_isa_decode(0x35fd, 32, &in), 0);
    CHECK_EQ(in.op, RVT_OP_JAL);
    CHECK_EQ(in.rd, 1);
    CHECK_EQ(in.imm, -0x112);
    /* c.ld on RV64 is c.flw on RV32 (quadrant 0 funct3 011): never LD. */
    rvt_isa_decode(0x7c6c, 32, &in);
    CHECK(in.op != RVT_OP_LD);
    return TH_DONE();
}
