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

const char *rvt_isa_op_name(unsigned op)
{
    if (op < RVT_OP_BASE_COUNT)
        return lower_names[op];
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
