/* The hart's counters (priv 3.1.10-3.1.12): mcycle/minstret with
 * mcountinhibit, mhpmcounter3..31 and mhpmevent3..31 (+ the RV32 high
 * halves, Sscofpmf mhpmeventNh) through src/pmu, and scountovf. */
#include "hart_int.h"

#define CY 0
#define IR 2
#define LO32 0xffffffffull

static bool inhibited(const rvt_hart *h, unsigned idx)
{
    return (h->mcountinhibit >> idx) & 1;
}

uint64_t hart_counter_get(const rvt_hart *h, unsigned idx)
{
    uint64_t v = 0;
    if (idx == CY)
        return inhibited(h, CY) ? h->cy_frozen : h->cycles + h->cycle_off;
    if (idx == IR)
        return inhibited(h, IR) ? h->ir_frozen : h->instret + h->instret_off;
    rvt_pmu_counter_read(h->pmu, idx, &v);
    return v;
}

void hart_counter_set(rvt_hart *h, unsigned idx, uint64_t v)
{
    if (idx == CY) {
        if (inhibited(h, CY))
            h->cy_frozen = v;
        else
            h->cycle_off = v - h->cycles;
    } else if (idx == IR) {
        if (inhibited(h, IR))
            h->ir_frozen = v;
        else
            h->instret_off = v - h->instret;
    } else {
        rvt_pmu_counter_write(h->pmu, idx, v);
    }
}

/* priv 3.1.11 (Zicntr): a CSR write takes effect after the writing
 * instruction has otherwise completed, so the instruction that writes
 * mcycle/minstret (or an RV32 high half) does not increment it: the offset
 * absorbs the one increment its retirement adds (for mcycle: the end of
 * its cycle, docs/hart.md).  The PMU counters (src/pmu) count events of
 * other instructions only. */
void hart_counter_written(rvt_hart *h, unsigned idx)
{
    if (idx == CY && !inhibited(h, CY))
        h->cycle_off--;
    else if (idx == IR && !inhibited(h, IR))
        h->instret_off--;
}

/* priv 3.1.12: an inhibited counter keeps its value; bit 1 (TM) is 0. */
void hart_inhibit_write(rvt_hart *h, uint64_t v)
{
    uint64_t cy = hart_counter_get(h, CY), ir = hart_counter_get(h, IR);
    h->mcountinhibit = v & 0xfffffffdull;
    hart_counter_set(h, CY, cy);
    hart_counter_set(h, IR, ir);
    rvt_pmu_set_inhibit(h->pmu, (uint32_t)h->mcountinhibit);
    hart_obs_update(h);
}

/* mhpmevent3..31 (0x323..) and, on RV32, mhpmevent3h..31h (0x723..). */
static bool is_event_csr(const rvt_hart *h, unsigned csr)
{
    unsigned n = csr & 31;
    bool lo = (csr & ~31u) == 0x320, hi = (csr & ~31u) == 0x720 && h->xlen == 32;
    return (lo || hi) && n >= 3;
}

bool hart_ext_csr_read(const rvt_hart *h, unsigned csr, uint64_t *v)
{
    if (is_event_csr(h, csr)) {
        uint64_t e = 0;
        rvt_pmu_event_read(h->pmu, csr & 31, &e);
        *v = csr >= 0x720 ? e >> 32 : e;
        return true;
    }
    if (csr == 0xDA0) {   /* Sscofpmf scountovf: S sees what mcounteren allows */
        uint32_t of = rvt_pmu_overflow_bits(h->pmu);
        *v = h->priv == PRV_M ? of : of & (uint32_t)h->mcounteren;
        return true;
    }
    return hart_ctr_csr_read(h, csr, v);
}

bool hart_ext_csr_write(rvt_hart *h, unsigned csr, uint64_t v)
{
    if (!is_event_csr(h, csr))
        return hart_ctr_csr_write(h, csr, v);
    unsigned n = csr & 31;
    uint64_t e = 0;
    rvt_pmu_event_read(h->pmu, n, &e);
    if (h->xlen == 32)
        e = csr >= 0x720 ? (e & LO32) | (v << 32) : (e & ~LO32) | (v & LO32);
    else
        e = v;
    rvt_pmu_event_write(h->pmu, n, e);
    hart_obs_update(h);
    return true;
}
