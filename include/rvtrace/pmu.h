/* Performance monitoring: the hart's event list, the programmable counters
 * mhpmcounter3..31 / mhpmevent3..31 with Sscofpmf overflow, a tool-side
 * tally of every event (what `rvtrace stat` prints), and the SBI PMU
 * extension's firmware side (sbi-pmu-extension.txt).  docs/pmu.md lists
 * the events and every choice. */
#ifndef RVTRACE_PMU_H
#define RVTRACE_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rvtrace/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- events ---- */

/* Event numbers (bit positions in an event mask).  The mhpmevent selector
 * of each is in rvt_pmu_event_get(); docs/pmu.md has the table. */
typedef enum rvt_pmu_ev {
    RVT_PMU_EV_CYCLES, RVT_PMU_EV_INSTRUCTIONS, RVT_PMU_EV_BRANCHES,
    RVT_PMU_EV_BRANCHES_TAKEN, RVT_PMU_EV_BRANCHES_NOT_TAKEN, RVT_PMU_EV_JUMPS,
    RVT_PMU_EV_CALLS, RVT_PMU_EV_RETURNS, RVT_PMU_EV_LOADS, RVT_PMU_EV_STORES,
    RVT_PMU_EV_AMOS, RVT_PMU_EV_EXCEPTIONS, RVT_PMU_EV_INTERRUPTS,
    RVT_PMU_EV_CSR_ACCESSES, RVT_PMU_EV_FENCE_I, RVT_PMU_EV_FENCES,
    RVT_PMU_EV_ECALLS, RVT_PMU_EV_TRAP_RETURNS, RVT_PMU_EV_WFI,
    RVT_PMU_EV_COUNT
} rvt_pmu_ev;

typedef struct rvt_pmu_event_info {
    const char *name;         /* perf-style name: "instructions", "branch-taken" */
    uint32_t selector;        /* mhpmevent[55:0] value that counts it */
    const char *desc;
} rvt_pmu_event_info;

const rvt_pmu_event_info *rvt_pmu_event_get(unsigned ev);   /* NULL past the end */
int rvt_pmu_event_by_name(const char *name);                 /* ev or RVT_ERR_INVAL */
int rvt_pmu_event_by_selector(uint64_t selector);            /* ev or RVT_ERR_INVAL */
/* Events of one retired instruction: its rvt_op and E-Trace itype. */
uint32_t rvt_pmu_op_events(unsigned op, unsigned itype);

/* ---- the counter bank ---- */

/* mhpmevent (Sscofpmf): OF and the mode inhibits; selector in 55:0. */
#define RVT_MHPMEVENT_OF (1ull << 63)
#define RVT_MHPMEVENT_MINH (1ull << 62)
#define RVT_MHPMEVENT_SINH (1ull << 61)
#define RVT_MHPMEVENT_UINH (1ull << 60)
#define RVT_MHPMEVENT_SEL ((1ull << 56) - 1)

typedef struct rvt_pmu rvt_pmu;

typedef struct rvt_pmu_cfg {
    bool tally;               /* count every event per mode for the tool (stat) */
} rvt_pmu_cfg;

rvt_pmu *rvt_pmu_new(const rvt_pmu_cfg *cfg);
void rvt_pmu_free(rvt_pmu *p);

/* mhpmcounterN / mhpmeventN, N = 3..31 (64-bit values). */
int rvt_pmu_counter_read(const rvt_pmu *p, unsigned n, uint64_t *v);
int rvt_pmu_counter_write(rvt_pmu *p, unsigned n, uint64_t v);
int rvt_pmu_event_read(const rvt_pmu *p, unsigned n, uint64_t *v);
int rvt_pmu_event_write(rvt_pmu *p, unsigned n, uint64_t v);
/* mcountinhibit (bits 3..31 matter here). */
void rvt_pmu_set_inhibit(rvt_pmu *p, uint32_t mcountinhibit);
/* Sscofpmf scountovf: bit N = mhpmeventN.OF. */
uint32_t rvt_pmu_overflow_bits(const rvt_pmu *p);
/* True when counting needs the hart's observing loop. */
bool rvt_pmu_active(const rvt_pmu *p);

/* Count the events in `mask` once (RVT_PMU_EV_CYCLES: `cycles` times) in
 * privilege mode `priv` (0 U, 1 S, 3 M).  Returns true when a counter
 * overflowed with OF clear: the hart raises the LCOFI (Sscofpmf). */
bool rvt_pmu_count(rvt_pmu *p, unsigned priv, uint32_t mask, uint64_t cycles);

/* The tool-side tally (cfg.tally): event `ev` in the modes of `privmask`
 * (bit 0 U, bit 1 S, bit 3 M). */
uint64_t rvt_pmu_tally(const rvt_pmu *p, unsigned ev, unsigned privmask);

/* ---- SBI PMU extension, firmware side ---- */

#define RVT_SBI_EXT_PMU 0x504D55u
enum {
    RVT_SBI_SUCCESS = 0, RVT_SBI_ERR_FAILED = -1, RVT_SBI_ERR_NOT_SUPPORTED = -2,
    RVT_SBI_ERR_INVALID_PARAM = -3, RVT_SBI_ERR_DENIED = -4,
    RVT_SBI_ERR_INVALID_ADDRESS = -5, RVT_SBI_ERR_ALREADY_AVAILABLE = -6,
    RVT_SBI_ERR_ALREADY_STARTED = -7, RVT_SBI_ERR_ALREADY_STOPPED = -8,
    RVT_SBI_ERR_NO_SHMEM = -9,
};
enum {
    RVT_SBI_PMU_NUM_COUNTERS = 0, RVT_SBI_PMU_COUNTER_GET_INFO = 1,
    RVT_SBI_PMU_COUNTER_CONFIG_MATCHING = 2, RVT_SBI_PMU_COUNTER_START = 3,
    RVT_SBI_PMU_COUNTER_STOP = 4, RVT_SBI_PMU_COUNTER_FW_READ = 5,
    RVT_SBI_PMU_COUNTER_FW_READ_HI = 6, RVT_SBI_PMU_SNAPSHOT_SET_SHMEM = 7,
    RVT_SBI_PMU_EVENT_GET_INFO = 8,
};
/* Logical counters: 0..31 the hardware CSRs cycle, time, instret,
 * hpmcounter3..31; 32..47 firmware counters. */
#define RVT_SBI_PMU_NUM_HW 32u
#define RVT_SBI_PMU_NUM_FW 16u

/* What the firmware may touch: CSRs with M-mode rights, and memory for
 * the snapshot / event-info areas.  Callbacks return 0 or a negative
 * rvt_status. */
typedef struct rvt_sbi_env {
    void *ctx;
    unsigned xlen;
    int (*csr_read)(void *ctx, unsigned csr, uint64_t *v);
    int (*csr_write)(void *ctx, unsigned csr, uint64_t v);
    int (*mem_read)(void *ctx, uint64_t addr, void *buf, size_t n);
    int (*mem_write)(void *ctx, uint64_t addr, const void *buf, size_t n);
} rvt_sbi_env;

typedef struct rvt_sbiret {
    int64_t error;
    uint64_t value;
} rvt_sbiret;

typedef struct rvt_sbi_pmu rvt_sbi_pmu;

/* Also initialises the hardware like boot firmware: hpmcounter3..31
 * inhibited, S-mode reads of all counters enabled (mcounteren). */
rvt_sbi_pmu *rvt_sbi_pmu_new(const rvt_sbi_env *env);
void rvt_sbi_pmu_free(rvt_sbi_pmu *s);
/* One call: fid and the argument registers a0..a5 (XLEN values). */
rvt_sbiret rvt_sbi_pmu_call(rvt_sbi_pmu *s, unsigned long fid, const uint64_t a[6]);
/* A firmware event (SBI_PMU_FW_* code) happened. */
void rvt_sbi_pmu_fw_event(rvt_sbi_pmu *s, unsigned code);

#ifdef __cplusplus
}
#endif
#endif
