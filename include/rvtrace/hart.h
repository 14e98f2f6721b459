/* rvtrace reference hart: an instruction-set simulator for RV64IMAC and
 * RV32IMAC + Zicsr + Zifencei with M/S/U modes, on QEMU's virt memory map.
 * Each retirement produces E-Trace ingress records (4.2, 4.4). */
#ifndef RVTRACE_HART_H
#define RVTRACE_HART_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "rvtrace/image.h"
#include "rvtrace/ingress.h"
#include "rvtrace/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rvt_hart rvt_hart;

typedef struct rvt_hart_cfg {
    unsigned xlen;            /* 32 or 64; 0 = from the image's ELF class */
    bool no_compressed;       /* --isa without C: 2-byte encodings are illegal */
    uint64_t ram_base;        /* 0 = 0x80000000 */
    uint64_t ram_size;        /* 0 = 128 MiB */
    uint64_t max_instr;       /* 0 = no limit */
    unsigned retire_width;    /* instructions per cycle, 1..8; 0 = 1 (4.2.2) */
    uint64_t hartid;
    const rvt_irec_sink *sink;   /* NULL = no ingress records */
    bool data_records;        /* also emit rvt_drec for loads/stores/AMOs/CSRs */
    /* Console (UART THR) output; NULL = discard. */
    void (*console)(void *ctx, const char *buf, size_t n);
    void *console_ctx;
    /* Every executed instruction in order, including one that faults
     * (retired=false) -- QEMU's exec-log view; NULL = off. */
    void (*on_pc)(void *ctx, uint64_t pc, bool retired);
    void *pc_ctx;
    rvt_diag_fn diag;
    void *diag_ctx;
    /* SBI PMU firmware model: an S-mode ecall with a7 = 0x504D55 is served
     * by rvtrace's M-mode firmware, not trapped (docs/pmu.md). */
    bool sbi_pmu;
    /* Count every PMU event per mode for the tool (rvtrace stat); read
     * with rvt_pmu_tally(rvt_hart_pmu(h), ...). */
    bool pmu_tally;
    /* mctrcontrol at reset (0 = CTR off until the program writes it), for
     * recording programs that do not configure CTR themselves. */
    uint64_t ctr_control;
} rvt_hart_cfg;

/* Why rvt_hart_run() returned. */
typedef enum rvt_hart_stop {
    RVT_HART_EXITED = 1,      /* test finisher written: see exit_code */
    RVT_HART_MAX_INSTR = 2,   /* cfg.max_instr reached */
    RVT_HART_STEP_LIMIT = 3,  /* the `steps` budget of this call ran out */
    RVT_HART_FATAL = 4,       /* e.g. fetch outside memory with no trap vector */
} rvt_hart_stop;

typedef struct rvt_hart_stats {
    uint64_t instret;         /* instructions retired */
    uint64_t executed;        /* instructions executed (retired + faulted) */
    uint64_t cycles;
    uint64_t exceptions;
    uint64_t interrupts;
    uint64_t records;         /* ingress blocks emitted */
    uint64_t data_records;
} rvt_hart_stats;

/* The image must outlive the hart; its loadable segments are copied into
 * the hart's RAM.  Returns NULL with *status set on error. */
rvt_hart *rvt_hart_new(const rvt_hart_cfg *cfg, rvt_image *img, int *status);
void rvt_hart_free(rvt_hart *h);

/* Run at most `steps` instructions (0 = until exit/limit).  Returns an
 * rvt_hart_stop (positive) or a negative rvt_status from the sink. */
int rvt_hart_run(rvt_hart *h, uint64_t steps);
/* Flush records and call sink->end(). */
int rvt_hart_finish(rvt_hart *h);

int rvt_hart_exit_code(const rvt_hart *h);      /* finisher code (0 = pass) */
const char *rvt_hart_fatal_msg(const rvt_hart *h);
void rvt_hart_get_stats(const rvt_hart *h, rvt_hart_stats *out);
uint64_t rvt_hart_pc(const rvt_hart *h);
uint64_t rvt_hart_reg(const rvt_hart *h, unsigned reg);

/* The hart's CTR state (Smctr, rvtrace/ctr.h) and PMU counters
 * (rvtrace/pmu.h), for reading after or between runs. */
struct rvt_ctr;
struct rvt_pmu;
const struct rvt_ctr *rvt_hart_ctr(const rvt_hart *h);
const struct rvt_pmu *rvt_hart_pmu(const rvt_hart *h);

#ifdef __cplusplus
}
#endif
#endif
