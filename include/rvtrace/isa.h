/* rvtrace ISA layer: instruction length, decode, classification (E-Trace
 * 4.1.1, tables 4.1/4.4/4.5; N-Trace ch. 2), disassembly. */
#ifndef RVTRACE_ISA_H
#define RVTRACE_ISA_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every operation the decoder knows.  Compressed instructions decode to the
 * base operation they expand to (c.addi -> RVT_OP_ADDI, c.j -> RVT_OP_JAL
 * with rd=0) with insn.len == 2 and RVT_INSN_F_COMPRESSED set. */
#define RVT_ISA_OPS(X) \
    X(ILLEGAL) \
    /* RV32I / RV64I */ \
    X(LUI) X(AUIPC) X(JAL) X(JALR) \
    X(BEQ) X(BNE) X(BLT) X(BGE) X(BLTU) X(BGEU) \
    X(LB) X(LH) X(LW) X(LD) X(LBU) X(LHU) X(LWU) \
    X(SB) X(SH) X(SW) X(SD) \
    X(ADDI) X(SLTI) X(SLTIU) X(XORI) X(ORI) X(ANDI) X(SLLI) X(SRLI) X(SRAI) \
    X(ADD) X(SUB) X(SLL) X(SLT) X(SLTU) X(XOR) X(SRL) X(SRA) X(OR) X(AND) \
    X(ADDIW) X(SLLIW) X(SRLIW) X(SRAIW) X(ADDW) X(SUBW) X(SLLW) X(SRLW) X(SRAW) \
    X(FENCE) X(FENCE_I) X(ECALL) X(EBREAK) \
    /* M */ \
    X(MUL) X(MULH) X(MULHSU) X(MULHU) X(DIV) X(DIVU) X(REM) X(REMU) \
    X(MULW) X(DIVW) X(DIVUW) X(REMW) X(REMUW) \
    /* A */ \
    X(LR_W) X(SC_W) X(AMOSWAP_W) X(AMOADD_W) X(AMOXOR_W) X(AMOAND_W) X(AMOOR_W) \
    X(AMOMIN_W) X(AMOMAX_W) X(AMOMINU_W) X(AMOMAXU_W) \
    X(LR_D) X(SC_D) X(AMOSWAP_D) X(AMOADD_D) X(AMOXOR_D) X(AMOAND_D) X(AMOOR_D) \
    X(AMOMIN_D) X(AMOMAX_D) X(AMOMINU_D) X(AMOMAXU_D) \
    /* Zicsr */ \
    X(CSRRW) X(CSRRS) X(CSRRC) X(CSRRWI) X(CSRRSI) X(CSRRCI) \
    /* privileged */ \
    X(MRET) X(SRET) X(WFI) X(SFENCE_VMA)

/* F and D (unprivileged spec ch. 11, 12): the D block repeats the F block
 * in the same order, so op_D = op_S + RVT_OP_FP_FMT_STRIDE.  The last entry
 * of each block converts from the other format (fcvt.s.d / fcvt.d.s).
 * rd/rs1/rs2/rs3 hold f-register numbers where the operand is an FP
 * register; insn.aqrl holds the rounding mode (inst[14:12]). */
#define RVT_ISA_FP_OPS(X) \
    X(FLW) X(FSW) X(FMADD_S) X(FMSUB_S) X(FNMSUB_S) X(FNMADD_S) \
    X(FADD_S) X(FSUB_S) X(FMUL_S) X(FDIV_S) X(FSQRT_S) \
    X(FSGNJ_S) X(FSGNJN_S) X(FSGNJX_S) X(FMIN_S) X(FMAX_S) \
    X(FCVT_W_S) X(FCVT_WU_S) X(FCVT_L_S) X(FCVT_LU_S) X(FMV_X_W) \
    X(FEQ_S) X(FLT_S) X(FLE_S) X(FCLASS_S) \
    X(FCVT_S_W) X(FCVT_S_WU) X(FCVT_S_L) X(FCVT_S_LU) X(FMV_W_X) X(FCVT_S_D) \
    X(FLD) X(FSD) X(FMADD_D) X(FMSUB_D) X(FNMSUB_D) X(FNMADD_D) \
    X(FADD_D) X(FSUB_D) X(FMUL_D) X(FDIV_D) X(FSQRT_D) \
    X(FSGNJ_D) X(FSGNJN_D) X(FSGNJX_D) X(FMIN_D) X(FMAX_D) \
    X(FCVT_W_D) X(FCVT_WU_D) X(FCVT_L_D) X(FCVT_LU_D) X(FMV_X_D) \
    X(FEQ_D) X(FLT_D) X(FLE_D) X(FCLASS_D) \
    X(FCVT_D_W) X(FCVT_D_WU) X(FCVT_D_L) X(FCVT_D_LU) X(FMV_D_X) X(FCVT_D_S)

#define RVT_OP_FP_FMT_STRIDE (RVT_OP_FLD - RVT_OP_FLW)

#define RVT_ISA_OP_ENUM(name) RVT_OP_##name,
typedef enum rvt_op {
    RVT_ISA_OPS(RVT_ISA_OP_ENUM)
    RVT_OP_BASE_COUNT,
    /* F/D operations are appended here by the ISA layer (decoded and
     * disassembled; the hart treats them as illegal until it has an FPU). */
    RVT_OP_FP_BEFORE_ = RVT_OP_BASE_COUNT - 1,
    RVT_ISA_FP_OPS(RVT_ISA_OP_ENUM)
    RVT_OP_COUNT
} rvt_op;
#undef RVT_ISA_OP_ENUM

/* insn.flags */
#define RVT_INSN_F_COMPRESSED 0x01u   /* 16-bit encoding */
#define RVT_INSN_F_RV32       0x02u   /* decoded for XLEN 32 (disassembly wraps targets) */

/* A decoded instruction.  Register numbers are architectural (x0..x31, or
 * f0..f31 for FP operands).  imm is sign-extended where the encoding says so
 * (branch/jal offsets are byte offsets; CSR ops keep the 5-bit zimm in imm). */
typedef struct rvt_insn {
    uint32_t raw;      /* the encoding (16 or 32 bits; low bits for longer) */
    uint16_t op;       /* rvt_op */
    uint8_t len;       /* bytes: 2, 4, 6 or 8 */
    uint8_t rd, rs1, rs2, rs3;
    uint8_t flags;     /* RVT_INSN_F_* */
    uint8_t aqrl;      /* A: bit 1 = aq, bit 0 = rl; FP: rounding mode */
    uint8_t jclass;    /* rvt_jclass, filled by decode */
    uint16_t csr;      /* CSR number for Zicsr ops */
    int64_t imm;
} rvt_insn;

/* Control-transfer class of an instruction, from its encoding alone
 * (E-Trace 4.1.1 calling-convention rules on x1/x5). */
typedef enum rvt_jclass {
    RVT_JC_NONE = 0,        /* not a control transfer */
    RVT_JC_BRANCH,          /* conditional branch */
    RVT_JC_CALL_INF,        /* jal x1/x5, c.jal */
    RVT_JC_CALL_UNINF,      /* jalr x1/x5 (not a swap), c.jalr */
    RVT_JC_TAIL_INF,        /* jal x0, c.j */
    RVT_JC_TAIL_UNINF,      /* jalr x0, rs!=x1,x5; c.jr rs!=x1,x5 */
    RVT_JC_SWAP,            /* jalr x1,x5 / jalr x5,x1 / c.jalr x5 */
    RVT_JC_RETURN,          /* jalr rd!=x1,x5 from x1/x5; c.jr x1/x5 */
    RVT_JC_JUMP_INF,        /* other jal */
    RVT_JC_JUMP_UNINF,      /* other jalr */
    RVT_JC_XRET,            /* mret, sret: exception return */
} rvt_jclass;

/* E-Trace itype (table 4.1), always carried in its 4-bit form. */
typedef enum rvt_itype {
    RVT_ITYPE_NONE = 0,
    RVT_ITYPE_EXCEPTION = 1,
    RVT_ITYPE_INTERRUPT = 2,
    RVT_ITYPE_XRET = 3,
    RVT_ITYPE_NT_BRANCH = 4,
    RVT_ITYPE_T_BRANCH = 5,
    RVT_ITYPE_UNINF_JUMP3 = 6,   /* 3-bit itype: every uninferable jump */
    RVT_ITYPE_RESERVED7 = 7,
    RVT_ITYPE_UNINF_CALL = 8,
    RVT_ITYPE_INF_CALL = 9,
    RVT_ITYPE_UNINF_TAIL = 10,
    RVT_ITYPE_INF_TAIL = 11,
    RVT_ITYPE_SWAP = 12,
    RVT_ITYPE_RETURN = 13,
    RVT_ITYPE_UNINF_JUMP = 14,
    RVT_ITYPE_INF_JUMP = 15,
} rvt_itype;

/* Length in bytes of the instruction whose first 16-bit parcel is `lo16`
 * (2, 4, 6 or 8; 0 for the reserved >=80-bit encodings). */
unsigned rvt_isa_length(uint16_t lo16);

/* Decode `raw` (the instruction's low 32 bits) for XLEN 32 or 64.  Returns 0,
 * or RVT_ERR_FORMAT for an illegal/unknown encoding (out->op = RVT_OP_ILLEGAL,
 * out->len still valid). */
int rvt_isa_decode(uint32_t raw, unsigned xlen, rvt_insn *out);

/* The 4-bit itype of a retired instruction given whether it was taken
 * (branches) -- exceptions/interrupts are reported by the hart, not here. */
rvt_itype rvt_isa_itype(const rvt_insn *insn, bool taken);

/* 4-bit itype -> 3-bit itype (table 4.1: 8..14 become 6, 15 and 9/11 inferable
 * jumps become 0). */
rvt_itype rvt_isa_itype3(rvt_itype itype4);

/* True for jumps whose target is in the encoding (jal, c.j, c.jal). */
bool rvt_isa_is_inferable_jump(const rvt_insn *insn);
/* True for jumps whose target is not in the encoding (jalr, c.jr, c.jalr)
 * and for mret/sret. */
bool rvt_isa_is_uninferable(const rvt_insn *insn);
bool rvt_isa_is_branch(const rvt_insn *insn);

/* objdump-style disassembly (pseudo-instructions included), e.g.
 * "addi    sp,sp,-16" or "jal     ra,80000100 <main>" when sym is given.
 * Returns the string length (truncated to n-1). */
typedef const char *(*rvt_isa_symbolizer)(void *ctx, uint64_t addr, uint64_t *off);
int rvt_isa_disasm(const rvt_insn *insn, uint64_t pc, char *buf, size_t n,
                   rvt_isa_symbolizer sym, void *sym_ctx);

const char *rvt_isa_op_name(unsigned op);
const char *rvt_isa_reg_name(unsigned reg);

#ifdef __cplusplus
}
#endif
#endif
