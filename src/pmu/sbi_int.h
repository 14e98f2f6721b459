/* Internal state of the SBI PMU firmware model (sbi.c, sbi_counters.c). */
#ifndef RVT_SBI_INT_H
#define RVT_SBI_INT_H

#include "rvtrace/pmu.h"

#define SBI_NUM (RVT_SBI_PMU_NUM_HW + RVT_SBI_PMU_NUM_FW)
#define CSR_MCOUNTINHIBIT 0x320u
#define CSR_MCOUNTEREN 0x306u
#define CSR_MIDELEG 0x303u

/* What a (supported) event maps to. */
typedef struct sbi_event {
    bool fw;                  /* firmware event: code; else hardware: selector */
    uint64_t sel;
    unsigned code;
} sbi_event;

struct rvt_sbi_pmu {
    rvt_sbi_env env;
    bool hw_cfg[RVT_SBI_PMU_NUM_HW];
    bool fw_cfg[RVT_SBI_PMU_NUM_FW], fw_started[RVT_SBI_PMU_NUM_FW];
    unsigned fw_code[RVT_SBI_PMU_NUM_FW];
    uint64_t fw_val[RVT_SBI_PMU_NUM_FW];
    uint64_t shmem;
    bool shmem_on;
};

/* sbi_counters.c: one logical counter */
bool sbi_started(rvt_sbi_pmu *s, unsigned idx);
void sbi_set_started(rvt_sbi_pmu *s, unsigned idx, bool on);
uint64_t sbi_value(rvt_sbi_pmu *s, unsigned idx);
void sbi_set_value(rvt_sbi_pmu *s, unsigned idx, uint64_t v);
bool sbi_overflowed(rvt_sbi_pmu *s, unsigned idx);
bool sbi_configured(const rvt_sbi_pmu *s, unsigned idx);
bool sbi_can_monitor(unsigned idx, const sbi_event *ev);
void sbi_configure(rvt_sbi_pmu *s, unsigned idx, const sbi_event *ev, unsigned long flags);
void sbi_unconfigure(rvt_sbi_pmu *s, unsigned idx);
/* sbi.c */
bool sbi_event_decode(unsigned long event_idx, uint64_t event_data, sbi_event *out);

#endif
