/* SBI PMU firmware model: one logical counter at a time.  Hardware
 * counters are driven the way M-mode firmware drives them, through
 * mcountinhibit, mhpmeventN and mhpmcounterN (the env callbacks);
 * firmware counters live here. */
#include "sbi_int.h"

#define LO32 0xffffffffull
#define FLAG_SET_UINH (1ul << 5)
#define FLAG_SET_SINH (1ul << 6)
#define FLAG_SET_MINH (1ul << 7)

static uint64_t rd(rvt_sbi_pmu *s, unsigned csr)
{
    uint64_t v = 0;
    if (s->env.csr_read(s->env.ctx, csr, &v) < 0)
        return 0;
    return v;
}

static void wr(rvt_sbi_pmu *s, unsigned csr, uint64_t v)
{
    s->env.csr_write(s->env.ctx, csr, v);
}

/* A 64-bit CSR pair: RV32 keeps the high half at csr + hi_off (priv 3.1.10). */
static uint64_t rd64(rvt_sbi_pmu *s, unsigned csr, unsigned hi_off)
{
    if (s->env.xlen != 32)
        return rd(s, csr);
    return (rd(s, csr) & LO32) | (rd(s, csr + hi_off) << 32);
}

static void wr64(rvt_sbi_pmu *s, unsigned csr, unsigned hi_off, uint64_t v)
{
    if (s->env.xlen != 32) {
        wr(s, csr, v);
        return;
    }
    wr(s, csr, v & LO32);
    wr(s, csr + hi_off, v >> 32);
}

static bool is_fw(unsigned idx) { return idx >= RVT_SBI_PMU_NUM_HW; }
static unsigned fw(unsigned idx) { return idx - RVT_SBI_PMU_NUM_HW; }

bool sbi_started(rvt_sbi_pmu *s, unsigned idx)
{
    if (is_fw(idx))
        return s->fw_started[fw(idx)];
    return !((rd(s, CSR_MCOUNTINHIBIT) >> idx) & 1);
}

void sbi_set_started(rvt_sbi_pmu *s, unsigned idx, bool on)
{
    if (is_fw(idx)) {
        s->fw_started[fw(idx)] = on;
        return;
    }
    uint64_t inh = rd(s, CSR_MCOUNTINHIBIT);
    wr(s, CSR_MCOUNTINHIBIT, on ? inh & ~(1ull << idx) : inh | (1ull << idx));
}

uint64_t sbi_value(rvt_sbi_pmu *s, unsigned idx)
{
    if (is_fw(idx))
        return s->fw_val[fw(idx)];
    return rd64(s, 0xB00 + idx, 0x80);
}

void sbi_set_value(rvt_sbi_pmu *s, unsigned idx, uint64_t v)
{
    if (is_fw(idx))
        s->fw_val[fw(idx)] = v;
    else
        wr64(s, 0xB00 + idx, 0x80, v);
}

/* Sscofpmf OF of mhpmeventN (mhpmeventNh bit 31 on RV32). */
bool sbi_overflowed(rvt_sbi_pmu *s, unsigned idx)
{
    if (is_fw(idx) || idx < 3)
        return false;
    return (rd64(s, 0x320 + idx, 0x400) & RVT_MHPMEVENT_OF) != 0;
}

/* cycle and instret always count their fixed event; time none. */
bool sbi_configured(const rvt_sbi_pmu *s, unsigned idx)
{
    if (is_fw(idx))
        return s->fw_cfg[fw(idx)];
    return idx == 0 || idx == 2 || (idx > 2 && s->hw_cfg[idx]);
}

bool sbi_can_monitor(unsigned idx, const sbi_event *ev)
{
    if (is_fw(idx))
        return ev->fw;
    if (ev->fw || idx == 1)
        return false;
    if (idx == 0 || idx == 2)
        return ev->sel == (idx == 0 ? 0x001u : 0x002u);
    return true;
}

/* config_flags[7:5] become mhpmevent's MINH/SINH/UINH (Sscofpmf); the
 * VS/VU hints are ignored (no H), as the SBI note allows. */
void sbi_configure(rvt_sbi_pmu *s, unsigned idx, const sbi_event *ev, unsigned long flags)
{
    if (is_fw(idx)) {
        s->fw_cfg[fw(idx)] = true;
        s->fw_code[fw(idx)] = ev->code;
        return;
    }
    if (idx < 3)
        return;
    uint64_t e = ev->sel;
    if (flags & FLAG_SET_UINH) e |= RVT_MHPMEVENT_UINH;
    if (flags & FLAG_SET_SINH) e |= RVT_MHPMEVENT_SINH;
    if (flags & FLAG_SET_MINH) e |= RVT_MHPMEVENT_MINH;
    wr64(s, 0x320 + idx, 0x400, e);
    s->hw_cfg[idx] = true;
}

void sbi_unconfigure(rvt_sbi_pmu *s, unsigned idx)
{
    if (is_fw(idx)) {
        s->fw_cfg[fw(idx)] = false;
        return;
    }
    if (idx < 3)
        return;
    wr64(s, 0x320 + idx, 0x400, 0);
    s->hw_cfg[idx] = false;
}

void rvt_sbi_pmu_fw_event(rvt_sbi_pmu *s, unsigned code)
{
    for (unsigned i = 0; i < RVT_SBI_PMU_NUM_FW; i++)
        if (s->fw_cfg[i] && s->fw_started[i] && s->fw_code[i] == code)
            s->fw_val[i]++;
}
