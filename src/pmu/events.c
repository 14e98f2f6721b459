/* The hart's PMU events: names, mhpmevent selectors, and the events of
 * one retired instruction.  Selectors 1, 2 and 5 are the SBI hardware
 * general event codes (the SBI note allows the zero-extended event_idx as
 * the mhpmevent value); 0x101.. are rvtrace raw events (SBI raw types 2/3
 * pass them through event_data). */
#include <string.h>
#include "rvtrace/pmu.h"
#include "rvtrace/isa.h"

static const rvt_pmu_event_info events[RVT_PMU_EV_COUNT] = {
    [RVT_PMU_EV_CYCLES] = { "cycles", 0x001, "hart cycles (mcycle's clock; retire width per cycle)" },
    [RVT_PMU_EV_INSTRUCTIONS] = { "instructions", 0x002, "instructions retired" },
    [RVT_PMU_EV_BRANCHES] = { "branches", 0x005, "conditional branches retired" },
    [RVT_PMU_EV_BRANCHES_TAKEN] = { "branches-taken", 0x101, "conditional branches retired taken" },
    [RVT_PMU_EV_BRANCHES_NOT_TAKEN] = { "branches-not-taken", 0x102, "conditional branches retired not taken" },
    [RVT_PMU_EV_JUMPS] = { "jumps", 0x103, "jal/jalr retired (calls and returns included)" },
    [RVT_PMU_EV_CALLS] = { "calls", 0x104, "calls retired (E-Trace itype 8, 9)" },
    [RVT_PMU_EV_RETURNS] = { "returns", 0x105, "function returns retired (itype 13)" },
    [RVT_PMU_EV_LOADS] = { "loads", 0x106, "loads retired (lr included)" },
    [RVT_PMU_EV_STORES] = { "stores", 0x107, "stores retired (sc included)" },
    [RVT_PMU_EV_AMOS] = { "amos", 0x108, "atomics retired: lr, sc, amo*" },
    [RVT_PMU_EV_EXCEPTIONS] = { "exceptions", 0x109, "synchronous exceptions taken (ecall, ebreak included)" },
    [RVT_PMU_EV_INTERRUPTS] = { "interrupts", 0x10A, "interrupts taken" },
    [RVT_PMU_EV_CSR_ACCESSES] = { "csr-accesses", 0x10B, "Zicsr instructions retired" },
    [RVT_PMU_EV_FENCE_I] = { "fence-i", 0x10C, "fence.i retired" },
    [RVT_PMU_EV_FENCES] = { "fences", 0x10D, "fence and sfence.vma retired" },
    [RVT_PMU_EV_ECALLS] = { "ecalls", 0x10E, "ecall instructions retired" },
    [RVT_PMU_EV_TRAP_RETURNS] = { "trap-returns", 0x10F, "mret/sret retired" },
    [RVT_PMU_EV_WFI] = { "wfi", 0x110, "wfi retired" },
};

const rvt_pmu_event_info *rvt_pmu_event_get(unsigned ev)
{
    return ev < RVT_PMU_EV_COUNT ? &events[ev] : NULL;
}

int rvt_pmu_event_by_name(const char *name)
{
    for (unsigned i = 0; name && i < RVT_PMU_EV_COUNT; i++)
        if (!strcmp(events[i].name, name))
            return (int)i;
    return RVT_ERR_INVAL;
}

int rvt_pmu_event_by_selector(uint64_t selector)
{
    for (unsigned i = 0; i < RVT_PMU_EV_COUNT; i++)
        if (events[i].selector == selector)
            return (int)i;
    return RVT_ERR_INVAL;
}

#define B(e) (1u << RVT_PMU_EV_##e)

static uint32_t op_class(unsigned op)
{
    switch (op) {
    case RVT_OP_BEQ: case RVT_OP_BNE: case RVT_OP_BLT: case RVT_OP_BGE:
    case RVT_OP_BLTU: case RVT_OP_BGEU:
        return B(BRANCHES);
    case RVT_OP_JAL: case RVT_OP_JALR:
        return B(JUMPS);
    case RVT_OP_LB: case RVT_OP_LH: case RVT_OP_LW: case RVT_OP_LD:
    case RVT_OP_LBU: case RVT_OP_LHU: case RVT_OP_LWU:
        return B(LOADS);
    case RVT_OP_SB: case RVT_OP_SH: case RVT_OP_SW: case RVT_OP_SD:
        return B(STORES);
    case RVT_OP_LR_W: case RVT_OP_LR_D:
        return B(LOADS) | B(AMOS);
    case RVT_OP_SC_W: case RVT_OP_SC_D:
        return B(STORES) | B(AMOS);
    case RVT_OP_CSRRW: case RVT_OP_CSRRS: case RVT_OP_CSRRC:
    case RVT_OP_CSRRWI: case RVT_OP_CSRRSI: case RVT_OP_CSRRCI:
        return B(CSR_ACCESSES);
    case RVT_OP_FENCE_I: return B(FENCE_I);
    case RVT_OP_FENCE: case RVT_OP_SFENCE_VMA: return B(FENCES);
    case RVT_OP_ECALL: return B(ECALLS);
    case RVT_OP_MRET: case RVT_OP_SRET: return B(TRAP_RETURNS);
    case RVT_OP_WFI: return B(WFI);
    default:
        return op >= RVT_OP_AMOSWAP_W && op <= RVT_OP_AMOMAXU_D ? B(AMOS) : 0;
    }
}

uint32_t rvt_pmu_op_events(unsigned op, unsigned itype)
{
    uint32_t m = B(INSTRUCTIONS) | op_class(op);
    switch (itype) {
    case RVT_ITYPE_T_BRANCH: m |= B(BRANCHES_TAKEN); break;
    case RVT_ITYPE_NT_BRANCH: m |= B(BRANCHES_NOT_TAKEN); break;
    case RVT_ITYPE_UNINF_CALL: case RVT_ITYPE_INF_CALL: m |= B(CALLS); break;
    case RVT_ITYPE_RETURN: m |= B(RETURNS); break;
    default: break;
    }
    return m;
}
