/* Mnemonics of rvt_op and ABI register names (unprivileged spec ch. 35
 * "RISC-V Assembly Programmer's Handbook", table 35.1). */
#include "isa/isa_internal.h"

/* Indexed by rvt_op: the enum spelling lower-cased with '_' -> '.'
 * (test_isa_names checks this against RVT_ISA_OPS). */
static const char *const lower_names[] = {
    "illegal",
    "lui", "auipc", "jal", "jalr",
    "beq", "bne", "blt", "bge", "bltu", "bgeu",
    "lb", "lh", "lw", "ld", "lbu", "lhu", "lwu",
    "sb", "sh", "sw", "sd",
    "addi", "slti", "sltiu", "xori", "ori", "andi", "slli", "srli", "srai",
    "add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and",
    "addiw", "slliw", "srliw", "sraiw", "addw", "subw", "sllw", "srlw", "sraw",
    "fence", "fence.i", "ecall", "ebreak",
    "mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu",
    "mulw", "divw", "divuw", "remw", "remuw",
    "lr.w", "sc.w", "amoswap.w", "amoadd.w", "amoxor.w", "amoand.w", "amoor.w",
    "amomin.w", "amomax.w", "amominu.w", "amomaxu.w",
    "lr.d", "sc.d", "amoswap.d", "amoadd.d", "amoxor.d", "amoand.d", "amoor.d",
    "amomin.d", "amomax.d", "amominu.d", "amomaxu.d",
    "csrrw", "csrrs", "csrrc", "csrrwi", "csrrsi", "csrrci",
    "mret", "sret", "wfi", "sfence.vma",
};
_Static_assert(sizeof lower_names / sizeof lower_names[0] == RVT_OP_BASE_COUNT,
               "lower_names follows RVT_ISA_OPS");

/* Indexed by op - RVT_OP_FLW, following RVT_ISA_FP_OPS. */
static const char *const fp_names[] = {
    "flw", "fsw", "fmadd.s", "fmsub.s", "fnmsub.s", "fnmadd.s",
    "fadd.s", "fsub.s", "fmul.s", "fdiv.s", "fsqrt.s",
    "fsgnj.s", "fsgnjn.s", "fsgnjx.s", "fmin.s", "fmax.s",
    "fcvt.w.s", "fcvt.wu.s", "fcvt.l.s", "fcvt.lu.s", "fmv.x.w",
    "feq.s", "flt.s", "fle.s", "fclass.s",
    "fcvt.s.w", "fcvt.s.wu", "fcvt.s.l", "fcvt.s.lu", "fmv.w.x", "fcvt.s.d",
    "fld", "fsd", "fmadd.d", "fmsub.d", "fnmsub.d", "fnmadd.d",
    "fadd.d", "fsub.d", "fmul.d", "fdiv.d", "fsqrt.d",
    "fsgnj.d", "fsgnjn.d", "fsgnjx.d", "fmin.d", "fmax.d",
    "fcvt.w.d", "fcvt.wu.d", "fcvt.l.d", "fcvt.lu.d", "fmv.x.d",
    "feq.d", "flt.d", "fle.d", "fclass.d",
    "fcvt.d.w", "fcvt.d.wu", "fcvt.d.l", "fcvt.d.lu", "fmv.d.x", "fcvt.d.s",
};
_Static_assert(sizeof fp_names / sizeof fp_names[0] == RVT_OP_COUNT - RVT_OP_FLW,
               "fp_names follows RVT_ISA_FP_OPS");

const char *rvt_isa_op_name(unsigned op)
{
    if (op < RVT_OP_BASE_COUNT)
        return lower_names[op];
    if (op >= RVT_OP_FLW && op < RVT_OP_COUNT)
        return fp_names[op - RVT_OP_FLW];
    return "illegal";
}

const char *rvt_isa_reg_name(unsigned reg)
{
    static const char *const abi[32] = {
        "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
        "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
        "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
        "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
    };
    return reg < 32 ? abi[reg] : "?";
}

/* FP ABI names (table 35.1), used by the disassembler. */
const char *rvt_isa_freg_name(unsigned reg)
{
    static const char *const abi[32] = {
        "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7",
        "fs0", "fs1", "fa0", "fa1", "fa2", "fa3", "fa4", "fa5",
        "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7",
        "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
    };
    return reg < 32 ? abi[reg] : "?";
}
