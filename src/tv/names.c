/* Names of opcodes, additional-state identifiers, memory operations and
 * registers (TV ch. 2 tables), for dumps and divergence reports. */
#include <stdio.h>
#include "rvtrace/tv.h"

const char *rvt_tv_op_name(unsigned op)
{
    switch (op) {
    case RVT_TV_BEGIN: return "begin";
    case RVT_TV_END: return "end";
    case RVT_TV_INCR_PC: return "incr_pc";
    case RVT_TV_FULL_REG: return "full_reg";
    case RVT_TV_INCR_REG: return "incr_reg";
    case RVT_TV_OR_REG: return "or_reg";
    case RVT_TV_STATE: return "state";
    case RVT_TV_MEM_REQ: return "mem_req";
    case RVT_TV_MEM_RSP: return "mem_rsp";
    case RVT_TV_RESET: return "reset";
    case RVT_TV_INIT: return "init";
    case RVT_TV_INSN16: return "insn16";
    case RVT_TV_INSN32: return "insn32";
    default: return "?";
    }
}

const char *rvt_tv_state_name(unsigned id)
{
    static const char *const n[] = {
        "?", "priv", "paddr", "eaddr", "data8", "data16", "data32", "data64",
        "mtime", "pc_paddr", "pc",
    };
    return id < sizeof n / sizeof n[0] ? n[id] : "?";
}

const char *rvt_tv_mem_op_name(unsigned op)
{
    static const char *const n[] = {
        "load", "store", "lr", "sc", "amoswap", "amoadd", "amoxor", "amoand",
        "amoor", "amomin", "amomax", "amominu", "amomaxu", "fetch",
    };
    return op < sizeof n / sizeof n[0] ? n[op] : "?";
}

static const struct { uint16_t addr; const char *name; } csr_names[] = {
    { 0x001, "fflags" }, { 0x002, "frm" }, { 0x003, "fcsr" },
    { 0x100, "sstatus" }, { 0x104, "sie" }, { 0x105, "stvec" }, { 0x106, "scounteren" },
    { 0x10A, "senvcfg" }, { 0x140, "sscratch" }, { 0x141, "sepc" }, { 0x142, "scause" },
    { 0x143, "stval" }, { 0x144, "sip" }, { 0x180, "satp" },
    { 0x300, "mstatus" }, { 0x301, "misa" }, { 0x302, "medeleg" }, { 0x303, "mideleg" },
    { 0x304, "mie" }, { 0x305, "mtvec" }, { 0x306, "mcounteren" }, { 0x30A, "menvcfg" },
    { 0x320, "mcountinhibit" }, { 0x340, "mscratch" }, { 0x341, "mepc" },
    { 0x342, "mcause" }, { 0x343, "mtval" }, { 0x344, "mip" },
    { 0x7A0, "tselect" }, { 0x7A1, "tdata1" }, { 0x7A2, "tdata2" }, { 0x7A3, "tdata3" },
    { 0x7A4, "tinfo" },
    { 0xB00, "mcycle" }, { 0xB02, "minstret" }, { 0xB80, "mcycleh" }, { 0xB82, "minstreth" },
};

const char *rvt_tv_reg_name(unsigned reg, char *buf, size_t n)
{
    if (reg >= RVT_TV_REG_GPR(0) && reg <= RVT_TV_REG_GPR(31))
        snprintf(buf, n, "x%u", reg - RVT_TV_REG_GPR(0));
    else if (reg >= RVT_TV_REG_FPR(0) && reg <= RVT_TV_REG_FPR(31))
        snprintf(buf, n, "f%u", reg - RVT_TV_REG_FPR(0));
    else if (reg < 0x1000) {
        for (size_t i = 0; i < sizeof csr_names / sizeof csr_names[0]; i++)
            if (csr_names[i].addr == reg) {
                snprintf(buf, n, "%s", csr_names[i].name);
                return buf;
            }
        snprintf(buf, n, "csr0x%03x", reg);
    } else {
        snprintf(buf, n, "reg0x%04x", reg);
    }
    return buf;
}
