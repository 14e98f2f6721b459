/* rvtrace reference hart: an instruction-set simulator for RV64GC and
 * RV32GC + Zicsr + Zifencei with M/S/U modes, paging and PMP, on QEMU's
 * virt board (PLIC, ACLINT, UART, syscon; device tree).  Each retirement
 * produces E-Trace ingress records (4.2, 4.4).  docs/hart.md. */
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

/* Memory side of one commit (TV spec ch. 2 memory-request ops). */
enum rvt_hart_mem_kind {
    RVT_HART_MEM_NONE = 0, RVT_HART_MEM_LOAD = 1, RVT_HART_MEM_STORE = 2,
    RVT_HART_MEM_LR = 3, RVT_HART_MEM_SC = 4, RVT_HART_MEM_AMO = 5,
};
enum { RVT_HART_COMMIT_MAX_CSR = 8 };

/* One commit: a retired instruction, an instruction that trapped, or an
 * interrupt taken, with every architectural side effect (the state the
 * tandem-verification trace carries, TV spec 3.1).  Register and CSR
 * changes are found by comparing the state before and after, so an
 * erroneous side effect shows up too. */
typedef struct rvt_hart_commit {
    uint64_t pc;              /* the instruction's address (interrupt: the interrupted pc) */
    uint64_t npc;             /* pc after the commit */
    uint32_t insn;            /* instruction bits; len 0 = none (interrupt, fetch fault) */
    uint8_t len;              /* 2 or 4, or 0 */
    bool retired;
    uint8_t trap;             /* 0 none, 1 exception (incl. ecall/ebreak), 2 interrupt */
    uint8_t priv_before, priv;
    uint8_t rd;               /* GPR written (0 = none) */
    uint64_t rd_val;
    uint64_t cause, tval, epc;   /* the trap's xcause/xtval/xepc when trap != 0 */
    uint8_t mem_kind;         /* enum rvt_hart_mem_kind */
    uint8_t amo_op;           /* AMO: 0 swap 1 add 2 xor 3 and 4 or 5 min 6 max 7 minu 8 maxu */
    uint8_t mem_size;         /* bytes: 1, 2, 4, 8 */
    bool sc_fail;
    uint64_t mem_addr;
    uint64_t mem_wdata;       /* store / SC / AMO source data */
    uint64_t mem_rdata;       /* load / LR / AMO old memory value */
    bool mtime_set;           /* mtime changed other than by counting (CLINT write, wfi) */
    uint64_t mtime;
    unsigned ncsr;
    struct { uint16_t addr; uint64_t value; } csr[RVT_HART_COMMIT_MAX_CSR];
} rvt_hart_commit;

enum { RVT_HART_MEM_MAX = 8 };

typedef struct rvt_hart_cfg {
    unsigned xlen;            /* 32 or 64; 0 = from the image's ELF class */
    bool no_compressed;       /* --isa without C: 2-byte encodings are illegal */
    bool no_fp;               /* --isa without F and D: FP instructions and CSRs are illegal */
    /* --misaligned emulate: misaligned loads/stores in RAM are performed
     * (QEMU 7.2) instead of trapping (Spike, the default); docs/hart.md */
    bool misaligned_emulate;
    uint64_t ram_base;        /* 0 = 0x80000000 */
    uint64_t ram_size;        /* 0 = 128 MiB */
    uint64_t max_instr;       /* 0 = no limit */
    unsigned retire_width;    /* instructions per cycle, 1..8; 0 = 1 (4.2.2) */
    uint64_t hartid;
    /* Harts on the board (rvtrace/smp.h sets it; 0 = 1): the device tree's
     * /cpus, the ACLINT's and PLIC's per-hart registers. */
    unsigned nharts;
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
    /* Every commit (see rvt_hart_commit); NULL = off, and then costs
     * nothing: rvt_hart_run() picks a loop compiled without the hook.
     * Return 0 to go on, > 0 to make rvt_hart_run() return
     * RVT_HART_STEP_LIMIT after this commit (single-stepping), < 0 to
     * stop with that status. */
    int (*on_commit)(void *ctx, const rvt_hart_commit *c);
    void *commit_ctx;
    /* SBI PMU firmware model: an S-mode ecall with a7 = 0x504D55 is served
     * by rvtrace's M-mode firmware, not trapped (docs/pmu.md). */
    bool sbi_pmu;
    /* Count every PMU event per mode for the tool (rvtrace stat); read
     * with rvt_pmu_tally(rvt_hart_pmu(h), ...). */
    bool pmu_tally;
    /* mctrcontrol at reset (0 = CTR off until the program writes it), for
     * recording programs that do not configure CTR themselves. */
    uint64_t ctr_control;
    /* Split data interface (E-Trace 4.3, table 4.9; with data_records):
     * 0 = unified records; N = 1..RVT_HART_SPLIT_MAX IDs.  Each load and
     * atomic is a request record at retirement and a response record
     * later: when all N IDs are outstanding, half of them (rounded up)
     * respond in a fixed pseudo-random order before the next request;
     * rvt_hart_finish() delivers the rest.  docs/hart.md. */
    unsigned split_loads;
    /* Booting like QEMU's virt board (docs/hart.md "Booting"):
     * reset_pc: where the hart starts (0 = the image's entry; with -bios,
     * QEMU jumps to the start of RAM).  dtb: a flattened device tree
     * (rvt_hart_dtb_build, or a file) copied into RAM at
     * rvt_hart_dtb_addr(), with a1 = that address at reset; NULL = none,
     * a1 = 0.  uart_in: the UART's receive line, read one byte at a time
     * (must outlive the hart). */
    uint64_t reset_pc;
    const void *dtb;
    size_t dtb_len;
    const uint8_t *uart_in;
    size_t uart_in_len;
    /* Spike's machine (--machine spike, docs/hart.md): a boot ROM at
     * 0x1000 holding Spike's reset vector and the entry address; the hart
     * starts there, as Spike does. */
    bool spike_machine;
    /* Extra RAM regions (--mem BASE:SIZE), beside the main RAM: loads,
     * stores and fetches (ELF segments may lie there too). */
    unsigned nmem;
    struct { uint64_t base, size; } mem[RVT_HART_MEM_MAX];
    /* The Trace Control Interface on the board (rvtrace/tci.h, docs/tci.md):
     * its registers at 0x18000000 and nodes for them in the device tree;
     * not owned.  NULL = none (accesses there fault). */
    struct rvt_tci *tci;
} rvt_hart_cfg;

/* What the generated device tree describes beyond the hart itself. */
typedef struct rvt_hart_dtb_opts {
    const char *bootargs;         /* /chosen/bootargs; NULL = none */
    uint64_t initrd_start, initrd_end;   /* /chosen linux,initrd-*; end 0 = none */
} rvt_hart_dtb_opts;

/* A device tree blob describing exactly what a hart with `cfg` (xlen 32 or
 * 64) models: the hart (riscv,isa, mmu-type, timebase), RAM, PLIC, CLINT,
 * UART, the test finisher as syscon poweroff/reboot, /chosen.  *out is
 * malloc()ed.  RVT_ERR_INVAL / RVT_ERR_NOMEM on failure. */
int rvt_hart_dtb_build(const rvt_hart_cfg *cfg, unsigned xlen, const rvt_hart_dtb_opts *opt,
                       uint8_t **out, size_t *len);
/* Where rvt_hart_new() puts a DTB of `len` bytes: as QEMU 7.2
 * (riscv_load_fdt), 2 MiB-aligned below min(end of RAM, 3 GiB); 0 when it
 * does not fit. */
uint64_t rvt_hart_dtb_addr(const rvt_hart_cfg *cfg, size_t len);
#define RVT_HART_SPLIT_MAX 32

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
/* docs/pmu.md: a program that defines the function symbol
 * rvtrace_sbi_firmware asks for the SBI PMU firmware model (cfg.sbi_pmu);
 * every tool that runs it (run, verify, bench) honours that. */
bool rvt_hart_wants_sbi(const rvt_image *img);
void rvt_hart_free(rvt_hart *h);

/* Run at most `steps` instructions (0 = until exit/limit).  Returns an
 * rvt_hart_stop (positive) or a negative rvt_status from the sink. */
int rvt_hart_run(rvt_hart *h, uint64_t steps);
/* Flush records and call sink->end(). */
int rvt_hart_finish(rvt_hart *h);

int rvt_hart_exit_code(const rvt_hart *h);      /* finisher code (0 = pass) */
/* The test finisher was written (also when the commit hook stopped the
 * run in the same step, so rvt_hart_run() returned another reason). */
bool rvt_hart_exited(const rvt_hart *h);
const char *rvt_hart_fatal_msg(const rvt_hart *h);
void rvt_hart_get_stats(const rvt_hart *h, rvt_hart_stats *out);
uint64_t rvt_hart_pc(const rvt_hart *h);
uint64_t rvt_hart_reg(const rvt_hart *h, unsigned reg);

/* Tandem-verifier access (TV spec Appendix A: read and write state).
 * Registers use the debug-spec address space of the TV trace: CSRs
 * 0x0000-0x0fff, GPRs 0x1000-0x101f.  Writes store the raw value (no
 * WARL legalisation) so a shadow state can be copied in exactly.
 * RVT_ERR_INVAL for a register the hart does not have. */
int rvt_hart_tv_reg_read(const rvt_hart *h, unsigned addr, uint64_t *v);
int rvt_hart_tv_reg_write(rvt_hart *h, unsigned addr, uint64_t v);
/* The smallest CSR number >= from that rvt_hart_tv_reg_read accepts, or
 * 0x1000 past the last: walks the hart's CSRs without probing all 4096. */
unsigned rvt_hart_tv_csr_next(const rvt_hart *h, unsigned from);
unsigned rvt_hart_priv(const rvt_hart *h);
void rvt_hart_tv_set_pc(rvt_hart *h, uint64_t pc);
void rvt_hart_tv_set_priv(rvt_hart *h, unsigned priv);
uint64_t rvt_hart_tv_mtime(const rvt_hart *h);
void rvt_hart_tv_set_mtime(rvt_hart *h, uint64_t mtime);
/* Guest RAM bytes [addr, addr+n); RVT_ERR_RANGE outside RAM. */
int rvt_hart_tv_mem_read(const rvt_hart *h, uint64_t addr, void *buf, size_t n);
int rvt_hart_tv_mem_write(rvt_hart *h, uint64_t addr, const void *buf, size_t n);
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
