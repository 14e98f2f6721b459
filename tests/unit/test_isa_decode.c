/* rvt_isa_decode for the 32-bit base encodings (I, M, A, Zicsr, Zifencei,
 * privileged) on RV32 and RV64, and rvt_isa_length.  Each encoding is
 * assembled here from the instruction formats of the unprivileged spec
 * (2.2 figure 2.2: R/I/S/B/U/J) with the opcode/funct values of the
 * chapter 34 listings written in the table.  The packing macros
 * (test_isa_enc.h) are the formats, written independently of the decoder. */
#include "tharness.h"
#include "rvtrace/isa.h"
#include "rvtrace/status.h"
#include "test_isa_enc.h"


struct dcase {
    uint32_t raw;
    unsigned xlen;      /* 0: both 32 and 64 */
    unsigned op;
    unsigned rd, rs1, rs2;
    int64_t imm;
    const char *what;
};

#define W 2  /* funct3 of .w AMOs */
#define D 3  /* funct3 of .d AMOs */

static const struct dcase cases[] = {
    { U(0x12345000, 10, 0x37), 0, RVT_OP_LUI, 10, 0, 0, 0x12345000, "lui a0,0x12345" },
    { U(0xfffff000, 1, 0x37), 0, RVT_OP_LUI, 1, 0, 0, -4096, "lui ra,0xfffff (sext)" },
    { U(0x00001000, 3, 0x17), 0, RVT_OP_AUIPC, 3, 0, 0, 0x1000, "auipc gp,0x1" },
    { J(-2048, 1), 0, RVT_OP_JAL, 1, 0, 0, -2048, "jal ra,-2048" },
    { J(0xffffe, 0), 0, RVT_OP_JAL, 0, 0, 0, 0xffffe, "jal x0,max" },
    { J(-0x100000, 5), 0, RVT_OP_JAL, 5, 0, 0, -0x100000, "jal t0,min" },
    { I(-4, 5, 0, 1, 0x67), 0, RVT_OP_JALR, 1, 5, 0, -4, "jalr ra,-4(t0)" },
    { BR(-4096, 2, 1, 0), 0, RVT_OP_BEQ, 0, 1, 2, -4096, "beq min" },
    { BR(4094, 2, 1, 1), 0, RVT_OP_BNE, 0, 1, 2, 4094, "bne max" },
    { BR(8, 4, 3, 4), 0, RVT_OP_BLT, 0, 3, 4, 8, "blt" },
    { BR(-8, 4, 3, 5), 0, RVT_OP_BGE, 0, 3, 4, -8, "bge" },
    { BR(2048, 31, 30, 6), 0, RVT_OP_BLTU, 0, 30, 31, 2048, "bltu imm[11]" },
    { BR(16, 0, 30, 7), 0, RVT_OP_BGEU, 0, 30, 0, 16, "bgeu" },
    { I(-1, 2, 0, 10, 0x03), 0, RVT_OP_LB, 10, 2, 0, -1, "lb" },
    { I(2047, 2, 1, 10, 0x03), 0, RVT_OP_LH, 10, 2, 0, 2047, "lh" },
    { I(-2048, 2, 2, 10, 0x03), 0, RVT_OP_LW, 10, 2, 0, -2048, "lw" },
    { I(8, 2, 3, 10, 0x03), 64, RVT_OP_LD, 10, 2, 0, 8, "ld" },
    { I(1, 2, 4, 10, 0x03), 0, RVT_OP_LBU, 10, 2, 0, 1, "lbu" },
    { I(2, 2, 5, 10, 0x03), 0, RVT_OP_LHU, 10, 2, 0, 2, "lhu" },
    { I(4, 2, 6, 10, 0x03), 64, RVT_OP_LWU, 10, 2, 0, 4, "lwu" },
    { S(-1, 11, 2, 0, 0x23), 0, RVT_OP_SB, 0, 2, 11, -1, "sb" },
    { S(2047, 11, 2, 1, 0x23), 0, RVT_OP_SH, 0, 2, 11, 2047, "sh" },
    { S(-2048, 11, 2, 2, 0x23), 0, RVT_OP_SW, 0, 2, 11, -2048, "sw" },
    { S(24, 1, 2, 3, 0x23), 64, RVT_OP_SD, 0, 2, 1, 24, "sd" },
    { I(-16, 2, 0, 2, 0x13), 0, RVT_OP_ADDI, 2, 2, 0, -16, "addi sp,sp,-16" },
    { I(5, 6, 2, 7, 0x13), 0, RVT_OP_SLTI, 7, 6, 0, 5, "slti" },
    { I(-1, 6, 3, 7, 0x13), 0, RVT_OP_SLTIU, 7, 6, 0, -1, "sltiu" },
    { I(-1, 6, 4, 7, 0x13), 0, RVT_OP_XORI, 7, 6, 0, -1, "xori (not)" },
    { I(0x7ff, 6, 6, 7, 0x13), 0, RVT_OP_ORI, 7, 6, 0, 0x7ff, "ori" },
    { I(255, 6, 7, 7, 0x13), 0, RVT_OP_ANDI, 7, 6, 0, 255, "andi" },
    /* shifts: imm[11:5] (RV32) / imm[11:6] (RV64) is funct7/funct6; imm = shamt */
    { I(31, 6, 1, 7, 0x13), 0, RVT_OP_SLLI, 7, 6, 0, 31, "slli 31" },
    { I(63, 6, 1, 7, 0x13), 64, RVT_OP_SLLI, 7, 6, 0, 63, "slli 63 (rv64)" },
    { I(1, 6, 5, 7, 0x13), 0, RVT_OP_SRLI, 7, 6, 0, 1, "srli" },
    { I(0x400 | 31, 6, 5, 7, 0x13), 0, RVT_OP_SRAI, 7, 6, 0, 31, "srai 31" },
    { I(0x400 | 33, 6, 5, 7, 0x13), 64, RVT_OP_SRAI, 7, 6, 0, 33, "srai 33" },
    { R(0, 3, 2, 0, 1, 0x33), 0, RVT_OP_ADD, 1, 2, 3, 0, "add" },
    { R(0x20, 3, 2, 0, 1, 0x33), 0, RVT_OP_SUB, 1, 2, 3, 0, "sub" },
    { R(0, 3, 2, 1, 1, 0x33), 0, RVT_OP_SLL, 1, 2, 3, 0, "sll" },
    { R(0, 3, 2, 2, 1, 0x33), 0, RVT_OP_SLT, 1, 2, 3, 0, "slt" },
    { R(0, 3, 2, 3, 1, 0x33), 0, RVT_OP_SLTU, 1, 2, 3, 0, "sltu" },
    { R(0, 3, 2, 4, 1, 0x33), 0, RVT_OP_XOR, 1, 2, 3, 0, "xor" },
    { R(0, 3, 2, 5, 1, 0x33), 0, RVT_OP_SRL, 1, 2, 3, 0, "srl" },
    { R(0x20, 3, 2, 5, 1, 0x33), 0, RVT_OP_SRA, 1, 2, 3, 0, "sra" },
    { R(0, 3, 2, 6, 1, 0x33), 0, RVT_OP_OR, 1, 2, 3, 0, "or" },
    { R(0, 3, 2, 7, 1, 0x33), 0, RVT_OP_AND, 1, 2, 3, 0, "and" },
    { I(-1, 10, 0, 10, 0x1b), 64, RVT_OP_ADDIW, 10, 10, 0, -1, "addiw" },
    { I(31, 10, 1, 10, 0x1b), 64, RVT_OP_SLLIW, 10, 10, 0, 31, "slliw" },
    { I(3, 10, 5, 10, 0x1b), 64, RVT_OP_SRLIW, 10, 10, 0, 3, "srliw" },
    { I(0x400 | 3, 10, 5, 10, 0x1b), 64, RVT_OP_SRAIW, 10, 10, 0, 3, "sraiw" },
    { R(0, 3, 2, 0, 1, 0x3b), 64, RVT_OP_ADDW, 1, 2, 3, 0, "addw" },
    { R(0x20, 3, 2, 0, 1, 0x3b), 64, RVT_OP_SUBW, 1, 2, 3, 0, "subw" },
    { R(0, 3, 2, 1, 1, 0x3b), 64, RVT_OP_SLLW, 1, 2, 3, 0, "sllw" },
    { R(0, 3, 2, 5, 1, 0x3b), 64, RVT_OP_SRLW, 1, 2, 3, 0, "srlw" },
    { R(0x20, 3, 2, 5, 1, 0x3b), 64, RVT_OP_SRAW, 1, 2, 3, 0, "sraw" },
    /* fence iorw,iorw: fm=0 pred=1111 succ=1111 -> imm[11:0] = 0x0ff */
    { 0x0ff0000f, 0, RVT_OP_FENCE, 0, 0, 0, 0x0ff, "fence" },
    /* fence.tso: fm=1000 pred=rw(0011) succ=rw(0011) -> 0x833 */
    { 0x8330000f, 0, RVT_OP_FENCE, 0, 0, 0, 0x833, "fence.tso" },
    { 0x0000100f, 0, RVT_OP_FENCE_I, 0, 0, 0, 0, "fence.i" },
    { 0x00000073, 0, RVT_OP_ECALL, 0, 0, 0, 0, "ecall" },
    { 0x00100073, 0, RVT_OP_EBREAK, 0, 0, 0, 0, "ebreak" },
    { R(1, 3, 2, 0, 1, 0x33), 0, RVT_OP_MUL, 1, 2, 3, 0, "mul" },
    { R(1, 3, 2, 1, 1, 0x33), 0, RVT_OP_MULH, 1, 2, 3, 0, "mulh" },
    { R(1, 3, 2, 2, 1, 0x33), 0, RVT_OP_MULHSU, 1, 2, 3, 0, "mulhsu" },
    { R(1, 3, 2, 3, 1, 0x33), 0, RVT_OP_MULHU, 1, 2, 3, 0, "mulhu" },
    { R(1, 3, 2, 4, 1, 0x33), 0, RVT_OP_DIV, 1, 2, 3, 0, "div" },
    { R(1, 3, 2, 5, 1, 0x33), 0, RVT_OP_DIVU, 1, 2, 3, 0, "divu" },
    { R(1, 3, 2, 6, 1, 0x33), 0, RVT_OP_REM, 1, 2, 3, 0, "rem" },
    { R(1, 3, 2, 7, 1, 0x33), 0, RVT_OP_REMU, 1, 2, 3, 0, "remu" },
    { R(1, 3, 2, 0, 1, 0x3b), 64, RVT_OP_MULW, 1, 2, 3, 0, "mulw" },
    { R(1, 3, 2, 4, 1, 0x3b), 64, RVT_OP_DIVW, 1, 2, 3, 0, "divw" },
    { R(1, 3, 2, 5, 1, 0x3b), 64, RVT_OP_DIVUW, 1, 2, 3, 0, "divuw" },
    { R(1, 3, 2, 6, 1, 0x3b), 64, RVT_OP_REMW, 1, 2, 3, 0, "remw" },
    { R(1, 3, 2, 7, 1, 0x3b), 64, RVT_OP_REMUW, 1, 2, 3, 0, "remuw" },
    /* A, funct5 per table 8.x: lr 00010 sc 00011 swap 00001 add 00000
     * xor 00100 and 01100 or 01000 min 10000 max 10100 minu 11000 maxu 11100 */
    { AMO(0x02, 2, 0, 10, W, 11), 0, RVT_OP_LR_W, 11, 10, 0, 0, "lr.w.aq" },
    { AMO(0x03, 1, 12, 10, W, 11), 0, RVT_OP_SC_W, 11, 10, 12, 0, "sc.w.rl" },
    { AMO(0x01, 3, 12, 10, W, 11), 0, RVT_OP_AMOSWAP_W, 11, 10, 12, 0, "amoswap.w.aqrl" },
    { AMO(0x00, 0, 12, 10, W, 11), 0, RVT_OP_AMOADD_W, 11, 10, 12, 0, "amoadd.w" },
    { AMO(0x04, 0, 12, 10, W, 11), 0, RVT_OP_AMOXOR_W, 11, 10, 12, 0, "amoxor.w" },
    { AMO(0x0c, 0, 12, 10, W, 11), 0, RVT_OP_AMOAND_W, 11, 10, 12, 0, "amoand.w" },
    { AMO(0x08, 0, 12, 10, W, 11), 0, RVT_OP_AMOOR_W, 11, 10, 12, 0, "amoor.w" },
    { AMO(0x10, 0, 12, 10, W, 11), 0, RVT_OP_AMOMIN_W, 11, 10, 12, 0, "amomin.w" },
    { AMO(0x14, 0, 12, 10, W, 11), 0, RVT_OP_AMOMAX_W, 11, 10, 12, 0, "amomax.w" },
    { AMO(0x18, 0, 12, 10, W, 11), 0, RVT_OP_AMOMINU_W, 11, 10, 12, 0, "amominu.w" },
    { AMO(0x1c, 0, 12, 10, W, 11), 0, RVT_OP_AMOMAXU_W, 11, 10, 12, 0, "amomaxu.w" },
    { AMO(0x02, 0, 0, 10, D, 11), 64, RVT_OP_LR_D, 11, 10, 0, 0, "lr.d" },
    { AMO(0x03, 0, 12, 10, D, 11), 64, RVT_OP_SC_D, 11, 10, 12, 0, "sc.d" },
    { AMO(0x01, 0, 12, 10, D, 11), 64, RVT_OP_AMOSWAP_D, 11, 10, 12, 0, "amoswap.d" },
    { AMO(0x00, 0, 12, 10, D, 11), 64, RVT_OP_AMOADD_D, 11, 10, 12, 0, "amoadd.d" },
    { AMO(0x04, 0, 12, 10, D, 11), 64, RVT_OP_AMOXOR_D, 11, 10, 12, 0, "amoxor.d" },
    { AMO(0x0c, 0, 12, 10, D, 11), 64, RVT_OP_AMOAND_D, 11, 10, 12, 0, "amoand.d" },
    { AMO(0x08, 0, 12, 10, D, 11), 64, RVT_OP_AMOOR_D, 11, 10, 12, 0, "amoor.d" },
    { AMO(0x10, 0, 12, 10, D, 11), 64, RVT_OP_AMOMIN_D, 11, 10, 12, 0, "amomin.d" },
    { AMO(0x14, 0, 12, 10, D, 11), 64, RVT_OP_AMOMAX_D, 11, 10, 12, 0, "amomax.d" },
    { AMO(0x18, 0, 12, 10, D, 11), 64, RVT_OP_AMOMINU_D, 11, 10, 12, 0, "amominu.d" },
    { AMO(0x1c, 0, 12, 10, D, 11), 64, RVT_OP_AMOMAXU_D, 11, 10, 12, 0, "amomaxu.d" },
    /* Zicsr: csr[31:20] rs1/zimm[19:15] funct3 rd 1110011 */
    { I(0x300, 5, 1, 0, 0x73), 0, RVT_OP_CSRRW, 0, 5, 0, 0, "csrw mstatus,t0" },
    { I(0xc00, 0, 2, 10, 0x73), 0, RVT_OP_CSRRS, 10, 0, 0, 0, "rdcycle a0" },
    { I(0x341, 6, 3, 7, 0x73), 0, RVT_OP_CSRRC, 7, 6, 0, 0, "csrrc" },
    { I(0x305, 31, 5, 1, 0x73), 0, RVT_OP_CSRRWI, 1, 31, 0, 31, "csrrwi zimm 31" },
    { I(0x344, 8, 6, 0, 0x73), 0, RVT_OP_CSRRSI, 0, 8, 0, 8, "csrsi mip,8" },
    { I(0x304, 1, 7, 0, 0x73), 0, RVT_OP_CSRRCI, 0, 1, 0, 1, "csrci mie,1" },
    /* privileged: mret 0011000 00010 00000 000 00000 1110011 etc. */
    { 0x30200073, 0, RVT_OP_MRET, 0, 0, 0, 0, "mret" },
    { 0x10200073, 0, RVT_OP_SRET, 0, 0, 0, 0, "sret" },
    { 0x10500073, 0, RVT_OP_WFI, 0, 0, 0, 0, "wfi" },
    { R(0x09, 11, 10, 0, 0, 0x73), 0, RVT_OP_SFENCE_VMA, 0, 10, 11, 0, "sfence.vma a0,a1" },
};

/* Encodings that must not decode (on the given XLEN; 0 = both). */
static const struct { uint32_t raw; unsigned xlen; const char *what; } illegal[] = {
    { 0x00000000, 0, "all zeros (16-bit c.unimp)" },
    { 0xffffffff, 0, "all ones (>= 80-bit, reserved)" },
    { I(8, 2, 3, 10, 0x03), 32, "ld on RV32" },
    { I(4, 2, 6, 10, 0x03), 32, "lwu on RV32" },
    { I(0, 2, 7, 10, 0x03), 0, "load funct3 111" },
    { S(24, 1, 2, 3, 0x23), 32, "sd on RV32" },
    { S(0, 1, 2, 4, 0x23), 0, "store funct3 100" },
    { I(-1, 10, 0, 10, 0x1b), 32, "addiw on RV32" },
    { R(0, 3, 2, 0, 1, 0x3b), 32, "addw on RV32" },
    { R(1, 3, 2, 0, 1, 0x3b), 32, "mulw on RV32" },
    { I(32, 6, 1, 7, 0x13), 32, "slli shamt[5]=1 on RV32" },
    { I(0x400 | 32, 6, 5, 7, 0x13), 32, "srai shamt[5]=1 on RV32" },
    { I(32, 10, 1, 10, 0x1b), 64, "slliw shamt[5]=1" },
    { I(0x200, 6, 1, 7, 0x13), 0, "slli funct6 != 0" },
    { I(0x800, 6, 5, 7, 0x13), 0, "srli bad funct" },
    { BR(8, 4, 3, 2), 0, "branch funct3 010" },
    { I(0, 1, 1, 0, 0x67), 0, "jalr funct3 001" },
    { R(0x20, 3, 2, 1, 1, 0x33), 0, "sll with funct7 0x20" },
    { R(0x02, 3, 2, 0, 1, 0x33), 0, "op funct7 0x02" },
    { R(0x20, 3, 2, 1, 1, 0x3b), 64, "op-32 funct7 0x20 funct3 1" },
    { R(0, 3, 2, 2, 1, 0x3b), 64, "op-32 funct3 2" },
    { AMO(0x02, 0, 1, 10, W, 11), 0, "lr.w with rs2 != 0" },
    { AMO(0x02, 0, 0, 10, D, 11), 32, "lr.d on RV32" },
    { AMO(0x00, 0, 12, 10, 4, 11), 0, "amo funct3 100" },
    { AMO(0x1e, 0, 12, 10, W, 11), 0, "amo funct5 11110" },
    { I(0x300, 5, 4, 0, 0x73), 0, "system funct3 100" },
    { 0x00200073, 0, "uret (N extension, not decoded)" },
    { R(0x09, 11, 10, 0, 1, 0x73), 0, "sfence.vma rd != 0" },
    { I(0, 0, 2, 0, 0x0f), 0, "misc-mem funct3 010" },
    { 0x0000007f, 0, "opcode 1111111 (>= 80 bits)" },
    { 0x0000000b, 0, "custom-0" },
    { 0x0000001f, 0, "48-bit encoding" },
    { 0x0000003f, 0, "64-bit encoding" },
};

static void check_case(const struct dcase *c, unsigned xlen)
{
    rvt_insn in;
    int rc = rvt_isa_decode(c->raw, xlen, &in);
    if (rc != 0 || in.op != c->op || in.rd != c->rd || in.rs1 != c->rs1 ||
        in.rs2 != c->rs2 || in.imm != c->imm || in.len != 4 || (in.flags & RVT_INSN_F_COMPRESSED) ||
        !(in.flags & RVT_INSN_F_RV32) != (xlen == 64) ||
        in.raw != c->raw) {
        TH_FAIL("%s (0x%08x, rv%u): rc %d op %u rd %u rs1 %u rs2 %u imm %lld len %u",
                c->what, c->raw, xlen, rc, in.op, in.rd, in.rs1, in.rs2,
                (long long)in.imm, in.len);
        return;
    }
    th_passed++;
}

static void check_illegal(uint32_t raw, unsigned xlen, const char *what)
{
    rvt_insn in;
    int rc = rvt_isa_decode(raw, xlen, &in);
    if (rc != RVT_ERR_FORMAT || in.op != RVT_OP_ILLEGAL)
        TH_FAIL("%s (0x%08x, rv%u) decoded as op %u rc %d", what, raw, xlen, in.op, rc);
    else
        th_passed++;
}

static void test_length(void)
{
    /* Unprivileged spec 1.5 figure 1.1 */
    CHECK_EQ(rvt_isa_length(0x0000), 2);   /* aa = 00 */
    CHECK_EQ(rvt_isa_length(0x0001), 2);
    CHECK_EQ(rvt_isa_length(0x0002), 2);
    CHECK_EQ(rvt_isa_length(0x0003), 4);   /* bbb11, bbb != 111 */
    CHECK_EQ(rvt_isa_length(0x0073), 4);
    CHECK_EQ(rvt_isa_length(0xff7b), 4);
    CHECK_EQ(rvt_isa_length(0x001f), 6);   /* 011111 */
    CHECK_EQ(rvt_isa_length(0xffdf), 6);
    CHECK_EQ(rvt_isa_length(0x003f), 8);   /* 0111111 */
    CHECK_EQ(rvt_isa_length(0x007f), 0);   /* 1111111: >= 80 bits */
    CHECK_EQ(rvt_isa_length(0x7fff), 0);   /* nnn=111: reserved >= 192 */
}

static void test_misc(void)
{
    rvt_insn in;
    /* A 32-bit word whose low parcel is 16-bit: only the low half is used. */
    CHECK_EQ(rvt_isa_decode(0xdeadc2b0u, 64, &in), 0);   /* c.sw a2,64(a3) */
    CHECK_EQ(in.raw, 0xc2b0);
    CHECK_EQ(in.len, 2);
    /* Illegal keeps len so a caller can skip; 48-bit reports 6. */
    CHECK_EQ(rvt_isa_decode(0x0000001f, 64, &in), RVT_ERR_FORMAT);
    CHECK_EQ(in.len, 6);
    CHECK_EQ(rvt_isa_decode(0x00000013, 16, &in), RVT_ERR_INVAL);
    /* aq/rl and csr fields */
    CHECK_EQ(rvt_isa_decode(AMO(0x01, 3, 12, 10, W, 11), 32, &in), 0);
    CHECK_EQ(in.aqrl, 3);
    CHECK_EQ(rvt_isa_decode(AMO(0x03, 1, 12, 10, D, 11), 64, &in), 0);
    CHECK_EQ(in.aqrl, 1);
    CHECK_EQ(rvt_isa_decode(I(0xc00, 0, 2, 10, 0x73), 32, &in), 0);
    CHECK_EQ(in.csr, 0xc00);
    CHECK_EQ(rvt_isa_decode(I(0x344, 8, 6, 0, 0x73), 64, &in), 0);
    CHECK_EQ(in.csr, 0x344);
    CHECK_EQ(rvt_isa_decode(I(0xfff, 8, 6, 0, 0x73), 64, &in), 0);
    CHECK_EQ(in.csr, 0xfff);
    /* Words observed in the interop ELFs (objdump): */
    CHECK_EQ(rvt_isa_decode(0x00001197, 64, &in), 0);     /* auipc gp,0x1 */
    CHECK(in.op == RVT_OP_AUIPC && in.rd == 3 && in.imm == 0x1000);
    CHECK_EQ(rvt_isa_decode(0xe3018193, 64, &in), 0);     /* addi gp,gp,-464 */
    CHECK(in.op == RVT_OP_ADDI && in.rd == 3 && in.rs1 == 3 && in.imm == -464);
    CHECK_EQ(rvt_isa_decode(0xff5ff06f, 64, &in), 0);     /* j -12 */
    CHECK(in.op == RVT_OP_JAL && in.rd == 0 && in.imm == -12);
    CHECK_EQ(rvt_isa_decode(0x0cb05c63, 64, &in), 0);     /* blez a1,+0xd8 = bge x0,a1 */
    CHECK(in.op == RVT_OP_BGE && in.rs1 == 0 && in.rs2 == 11 && in.imm == 0xd8);
}

int main(void)
{
    test_length();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].xlen != 64)
            check_case(&cases[i], 32);
        if (cases[i].xlen != 32)
            check_case(&cases[i], 64);
    }
    for (size_t i = 0; i < sizeof illegal / sizeof illegal[0]; i++) {
        if (illegal[i].xlen != 64)
            check_illegal(illegal[i].raw, 32, illegal[i].what);
        if (illegal[i].xlen != 32)
            check_illegal(illegal[i].raw, 64, illegal[i].what);
    }
    test_misc();
    /* Every base op appears in the table at least once. */
    bool seen[RVT_OP_BASE_COUNT] = { false };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        seen[cases[i].op] = true;
    for (unsigned op = 1; op < RVT_OP_BASE_COUNT; op++)
        if (!seen[op])
            TH_FAIL("op %s has no decode case", rvt_isa_op_name(op));
    return TH_DONE();
}
