/* Internal state of the reference hart, shared by the files of src/hart/.
 * The execute loop (exec_tmpl.h) is compiled once per XLEN; everything
 * off the hot path (CSRs, traps, atomics, devices) is XLEN-generic. */
#ifndef RVT_HART_INT_H
#define RVT_HART_INT_H

#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include "rvtrace/hart.h"
#include "rvtrace/isa.h"
#include "rvtrace/ctr.h"
#include "rvtrace/pmu.h"
#include "rvtrace/smp.h"
#include "board.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the hart keeps guest RAM in host byte order: little-endian hosts only"
#endif

#define HART_DEFAULT_RAM_BASE 0x80000000ull   /* virt's DRAM (docs/hart.md) */
#define HART_DEFAULT_RAM_SIZE (128ull << 20)
#define HART_PAGE_SHIFT 12
#define HART_PAGE_SIZE (1u << HART_PAGE_SHIFT)
#define HART_OPS_PER_PAGE (HART_PAGE_SIZE / 2)
#define HART_BATCH 256          /* ingress blocks per sink->put() */
#define HART_DBATCH 256         /* data records buffered */
#define HART_NO_RESV UINT64_MAX
#define HART_TRAP_LOOP_MAX 16   /* identical back-to-back traps before FATAL */
#define HART_NTRIG 8            /* Sdtrig triggers (trigger.c) */

/* Priv 1.12 table 3.6: exception codes. */
enum {
    CAUSE_MISALIGNED_FETCH = 0, CAUSE_FETCH_ACCESS = 1, CAUSE_ILLEGAL = 2,
    CAUSE_BREAKPOINT = 3, CAUSE_MISALIGNED_LOAD = 4, CAUSE_LOAD_ACCESS = 5,
    CAUSE_MISALIGNED_STORE = 6, CAUSE_STORE_ACCESS = 7, CAUSE_ECALL_U = 8,
    CAUSE_ECALL_S = 9, CAUSE_ECALL_M = 11,
    CAUSE_FETCH_PAGE = 12, CAUSE_LOAD_PAGE = 13, CAUSE_STORE_PAGE = 15,
};
/* Interrupt codes (priv 3.1.9). */
enum { IRQ_SSI = 1, IRQ_MSI = 3, IRQ_STI = 5, IRQ_MTI = 7, IRQ_SEI = 9, IRQ_MEI = 11 };
enum { PRV_U = 0, PRV_S = 1, PRV_M = 3 };
enum { IRQ_LCOFI = 13 };   /* Sscofpmf */
#define HART_SWITCH 100        /* exec loop return: change loops (obs.c) */

/* mstatus fields (priv 3.1.6). */
#define MSTATUS_SIE  (1ull << 1)
#define MSTATUS_MIE  (1ull << 3)
#define MSTATUS_SPIE (1ull << 5)
#define MSTATUS_MPIE (1ull << 7)
#define MSTATUS_SPP  (1ull << 8)
#define MSTATUS_MPP_SHIFT 11
#define MSTATUS_MPP  (3ull << MSTATUS_MPP_SHIFT)
#define MSTATUS_MPRV (1ull << 17)
#define MSTATUS_SUM  (1ull << 18)
#define MSTATUS_MXR  (1ull << 19)
#define MSTATUS_TVM  (1ull << 20)
#define MSTATUS_TW   (1ull << 21)
#define MSTATUS_TSR  (1ull << 22)
#define MSTATUS_UXL  (3ull << 32)
#define MSTATUS_SXL  (3ull << 34)
#define MSTATUS_FS   (3ull << 13)   /* priv 3.1.6.6: Off, Initial, Clean, Dirty */

/* One predecoded instruction.  len == 0 marks an empty cache slot. */
typedef struct hart_op {
    int64_t imm;
    uint32_t raw;
    uint16_t op;          /* rvt_op; RVT_OP_ILLEGAL for anything we reject */
    uint16_t csr;
    uint8_t len, rd, rs1, rs2;
    uint8_t itype_t;      /* E-Trace itype when taken (or the only one) */
    uint8_t itype_n;      /* itype when a branch is not taken */
    uint8_t uninf;        /* jalr-type: candidate for sijump (4.1.1) */
    uint8_t si_writer;    /* lui/c.lui/auipc: rd holds a sequential target */
} hart_op;
/* F/D ops have no CSR: `csr` holds rs3 (bits 4:0) and the rm field
 * (bits 10:8), keeping hart_op at 24 bytes for the integer loop. */
#define HOP_RS3(o) ((unsigned)(o)->csr & 31)
#define HOP_RM(o) ((unsigned)(o)->csr >> 8)

/* [lo, hi) of physical addresses (pmp.c); lo == hi: empty */
typedef struct hart_pmp_range {
    uint64_t lo, hi;
} hart_pmp_range;

struct rvt_hart {
    uint64_t x[32];
    uint64_t pc;
    unsigned xlen;
    unsigned priv;
    unsigned width;             /* retire width, 1..8 */
    uint64_t instret;           /* retired instructions */
    uint64_t event_at;          /* run loop calls hart_event() at this instret */
    uint64_t stop_at;           /* instret at which this run() call stops */
    int stop_kind;              /* rvt_hart_stop for stop_at */
    int stop;                   /* set when the hart must stop (exit, fatal) */

    /* memory */
    uint8_t *ram;
    uint64_t ram_base, ram_size;
    hart_op **pages;            /* predecode cache, one slot per half-word */
    uint8_t *code;              /* per page: the cache holds decodes */
    size_t npages;
    hart_op tmp_op;             /* decode of a page-crossing instruction */
    uint64_t resv;              /* LR reservation: 8-byte granule, or HART_NO_RESV */
    uint64_t resv_addr;
    /* paging and PMP (mmu.c, pmp.c): the loads/stores resp. fetches of the
     * current mode need translation or PMP checks (0: the RAM fast path) */
    uint8_t xl_data, xl_fetch;
    uint8_t pmp_any, pmp_locked;      /* an entry is active / locked and active */
    hart_pmp_range pmp_pass[3][4];    /* pmp.c: a range that passes, per access and priv */
    /* mmu.c: the last translated fetch page, whose every half-word passed
     * translation and PMP for the current privilege (UINT64_MAX: none);
     * forgotten by hart_vm_update, sfence.vma and satp writes */
    uint64_t fetch_vpage, fetch_pbase;
    /* retire.c: the context records carry (satp.ASID, docs/hart.md
     * "Context"), the ctype of the next record (E-Trace table 4.4), and a
     * context a satp write made, applied before the next instruction */
    uint64_t trace_ctx, ctx_next;
    uint8_t trace_ctype;
    bool ctx_switch;
    unsigned ifault_cause;            /* hart_fetch() returned NULL: why */
    uint64_t ifault_tval;
    struct hart_tlb *tlb;

    /* CSRs (priv ch. 3/4) */
    uint64_t mstatus, misa, medeleg, mideleg, mie, mip;   /* mip: SSIP/STIP/SEIP */
    uint64_t mtvec, stvec, mepc, sepc, mcause, scause, mtval, stval;
    uint64_t mscratch, sscratch, mcounteren, scounteren, mcountinhibit;
    uint64_t menvcfg, senvcfg, satp;
    uint64_t pmpcfg[16], pmpaddr[64];
    uint64_t cycle_off, instret_off;  /* mcycle/minstret = counter + off */
    uint64_t mtime_off;               /* mtime = instret + mtime_off */

    /* devices (board.h): ACLINT state here, the rest in dev */
    const hart_board *board;
    uint32_t msip;
    uint64_t mtimecmp;
    int exit_code;

    /* ingress (E-Trace 4.2): the open block and the current cycle */
    const rvt_irec_sink *sink;
    bool data_on;
    uint64_t cycles;
    uint64_t blk_addr;
    uint32_t blk_hw, blk_n;
    uint8_t blk_last_len;
    uint8_t si_rd;              /* rd of an lui/auipc retired just before, else 0 */
    unsigned cyc_n;             /* instructions retired in this cycle */
    unsigned cyc_blocks;        /* blocks pushed in this cycle */
    bool last_mergeable;        /* buf[nbuf-1] may still take an interrupt */
    rvt_irec buf[HART_BATCH];
    size_t nbuf;
    rvt_drec dbuf[HART_DBATCH];
    size_t ndbuf, dpushed;      /* dbuf[0..dpushed) belong to buf[nbuf-1] */
    int sink_err;
    /* split data interface (split.c, E-Trace 4.3): pending responses */
    rvt_drec split_pend[RVT_HART_SPLIT_MAX];
    uint32_t split_busy;        /* bit i: ID i outstanding */
    uint32_t split_rng;         /* response order, reproducible */

    /* extra RAM regions and Spike's boot ROM (regions.c); HTIF (dev_htif.c):
     * htif_lo = tohost - 7 (0 = no HTIF), so hart_store_hook needs one
     * compare to see a store that may touch tohost */
    struct hart_region *region;
    unsigned nregion;
    uint64_t htif_lo, htif_tohost, htif_fromhost;
    bool htif_on;

    /* trap-loop detection */
    uint64_t last_trap_pc, last_trap_instret;
    unsigned trap_streak;

    /* commit hook (commit.c): the record being built and the state before */
    bool drec_sink;             /* data records go to the ingress sink */
    rvt_hart_commit cm;
    struct hart_cm_snap *cm_snap;

    rvt_hart_cfg cfg;
    rvt_hart_stats st;
    uint64_t faulted;           /* executed but not retired */
    char fatal[192];

    /* CTR, PMU and the SBI PMU firmware (ctr_csr.c, pmu_csr.c, obs.c, sbi_ecall.c) */
    rvt_ctr *ctr;
    rvt_pmu *pmu;
    rvt_sbi_pmu *sbi;
    uint64_t miselect, siselect;      /* Smcsrind / Sscsrind */
    uint64_t cy_frozen, ir_frozen;    /* mcycle / minstret while inhibited */
    uint64_t pmu_cycles;              /* h->cycles at the last PMU count */
    bool obs;                         /* the observing exec loop is selected */
    bool ctr_on, pmu_on, loop_switch;

    /* Sdtrig trigger module (trigger.c, Debug spec 1.0 ch. 5): mcontrol6
     * fields 26:0 per trigger (type and dmode are implied), tdata2, and
     * which triggers watch executes / loads / stores (0: nothing armed,
     * the plain loop runs). */
    uint64_t tselect;
    uint32_t tctl[HART_NTRIG];
    uint64_t tdata2[HART_NTRIG];
    uint8_t trig_x, trig_ld, trig_st;
    uint8_t trig_pend;           /* RVT_IREC_F_TRIG_* of the executing instruction */
    uint8_t blk_flags;           /* RVT_IREC_F_TRIG_* of the open block (retire.c) */
    uint64_t trig_tval;          /* xtval of a breakpoint (action 0) */

    /* F and D (fpu.c), last: the integer loop's fields keep their offsets */
    uint64_t f[32];             /* FLEN = 64; single values NaN-boxed (12.2) */
    uint64_t fcsr;              /* frm (7:5) and fflags (4:0) */

    /* PLIC, UART (dev_plic.c, dev_uart.c): dev_own, or hart 0's when this
     * hart is one of several (smp.c) */
    hart_devices *dev;
    hart_devices dev_own;
    uint64_t ext_ip;            /* MEIP/SEIP as the PLIC drives them (dev_plic.c) */

    /* several harts (smp.c): the board's harts, this one's index, parked
     * in wfi; peer_resv: another hart holds a reservation a store of this
     * one must break (unpriv 8.2) */
    struct hart_smp *smp;
    unsigned idx;
    bool parked, peer_resv, shared_mem;
};

/* ---- predecode.c ---- */
const hart_op *hart_fetch_slow(rvt_hart *h, uint64_t pc);
void hart_code_store(rvt_hart *h, uint64_t off, unsigned size);
void hart_flush_icache(rvt_hart *h);

const hart_op *hart_fetch_vm(rvt_hart *h, uint64_t pc);
/* A decode of raw instruction bits, not cached (page-crossing fetches). */
const hart_op *hart_fetch_raw(rvt_hart *h, uint32_t raw);

/* The predecode cache is indexed by physical address (docs/hart.md), so
 * satp writes and sfence.vma never leave stale decodes behind. */
static inline const hart_op *hart_fetch_pa(rvt_hart *h, uint64_t pc)
{
    uint64_t off = pc - h->ram_base;
    if (off < h->ram_size) {
        hart_op *pg = h->pages[off >> HART_PAGE_SHIFT];
        if (pg) {
            hart_op *o = &pg[(off & (HART_PAGE_SIZE - 1)) >> 1];
            if (o->len)
                return o;
        }
    }
    return hart_fetch_slow(h, pc);
}

static inline const hart_op *hart_fetch(rvt_hart *h, uint64_t pc)
{
    if (__builtin_expect(h->xl_fetch, 0)) {
        /* mmu.c: the remembered fetch page (not its last half-word, where
         * an instruction may cross into the next page) */
        uint64_t in_page = pc & (HART_PAGE_SIZE - 1);
        if (pc >> HART_PAGE_SHIFT == h->fetch_vpage && in_page != HART_PAGE_SIZE - 2)
            return hart_fetch_pa(h, h->fetch_pbase | in_page);
        return hart_fetch_vm(h, pc);
    }
    return hart_fetch_pa(h, pc);
}

/* ---- mem.c: device loads/stores (board.h); return 0 or an exception cause + 1 ---- */
int hart_load_slow(rvt_hart *h, uint64_t addr, unsigned size, uint64_t *v);
int hart_store_slow(rvt_hart *h, uint64_t addr, unsigned size, uint64_t v);
uint64_t hart_mtime(const rvt_hart *h);
void hart_drec(rvt_hart *h, uint64_t pc, unsigned dtype, uint64_t addr,
               unsigned size, uint64_t data, uint64_t data2, unsigned flags);
/* A free data record slot in the current block (NULL when full). */
rvt_drec *hart_dslot(rvt_hart *h);
/* Split interface (split.c): make an ID free before a request; turn the
 * record just filled into a request; deliver every pending response. */
void hart_split_make_room(rvt_hart *h);
void hart_split_issue(rvt_hart *h, rvt_drec *d);
void hart_split_finish(rvt_hart *h);

/* ---- regions.c: --mem RAM regions and Spike's boot ROM (docs/hart.md) ---- */
typedef struct hart_region {
    uint64_t base, size;
    uint8_t *mem;
    bool rom;                   /* stores are access faults */
} hart_region;
int hart_regions_new(rvt_hart *h);
void hart_regions_free(rvt_hart *h);
void hart_regions_reset(rvt_hart *h, uint64_t entry);   /* Spike's ROM: start there */
hart_region *hart_region_at(const rvt_hart *h, uint64_t addr, uint64_t size);
/* Bytes [addr, addr+n) of RAM or a region, NULL if not wholly in one */
uint8_t *hart_mem_ptr(const rvt_hart *h, uint64_t addr, uint64_t n);
int hart_region_load(rvt_hart *h, uint64_t addr, unsigned size, uint64_t *v);
int hart_region_store(rvt_hart *h, uint64_t addr, unsigned size, uint64_t v);
const hart_op *hart_region_fetch(rvt_hart *h, uint64_t pc);

/* ---- smp.c: several harts on one board (rvtrace/smp.h) ---- */
typedef struct hart_smp {
    rvt_hart *hart[RVT_SMP_MAX_HARTS];
    unsigned n, cur;
    uint64_t quantum, left;     /* instructions per turn; left of this turn */
    uint64_t time;              /* mtime between turns */
} hart_smp;
/* hart.c: a hart sharing RAM, the predecode cache, regions and devices
 * with `primary` (which must outlive it) */
rvt_hart *hart_new_peer(const rvt_hart_cfg *cfg, rvt_image *img, rvt_hart *primary, int *status);
/* Hart idx of h's board (h itself alone: index 0), NULL past the last. */
rvt_hart *hart_peer(const rvt_hart *h, unsigned idx);
unsigned hart_count(const rvt_hart *h);
/* A store to physical [pa, pa+size) breaks other harts' reservations. */
void hart_smp_store(rvt_hart *h, uint64_t pa, unsigned size);
/* wfi with nothing pending: park h (one of several) until something is;
 * false when h is alone. */
bool hart_smp_park(rvt_hart *h);

/* ---- dev_htif.c: Spike's host-target interface (tohost/fromhost) ---- */
void hart_htif_init(rvt_hart *h, const rvt_image *img);
void hart_htif_store(rvt_hart *h, uint64_t addr, unsigned size);

static inline void hart_store_hook(rvt_hart *h, uint64_t addr, uint64_t off, unsigned size)
{
    /* an instruction starting up to 2 bytes before the store may overlap it */
    if (h->code[off >> HART_PAGE_SHIFT] ||
        ((off & (HART_PAGE_SIZE - 2)) == 0 && off >= 2 && h->code[(off - 2) >> HART_PAGE_SHIFT]))
        hart_code_store(h, off, size);
    if ((addr >> 3) == h->resv)
        h->resv = HART_NO_RESV;
    if (__builtin_expect(h->peer_resv, 0))
        hart_smp_store(h, addr, size);
    if (__builtin_expect(addr - h->htif_lo < 15, 0))
        hart_htif_store(h, addr, size);
}

/* ---- mmu.c: Sv39/Sv32 (priv 4.3, 4.4) and pmp.c (priv 3.7) ---- */
enum { HART_ACC_FETCH = 0, HART_ACC_LOAD = 1, HART_ACC_STORE = 2 };
/* Virtual to physical for one access of the current mode: 0 or an
 * exception cause + 1 (page fault, or access fault from PMP/a walk). */
int hart_xlate(rvt_hart *h, uint64_t va, unsigned size, unsigned acc, uint64_t *pa);
int hart_load_vm(rvt_hart *h, uint64_t addr, unsigned size, uint64_t *v);
int hart_store_vm(rvt_hart *h, uint64_t addr, unsigned size, uint64_t v);
int hart_load_phys(rvt_hart *h, uint64_t pa, unsigned size, uint64_t *v);
int hart_store_phys(rvt_hart *h, uint64_t pa, unsigned size, uint64_t v);
void hart_vm_update(rvt_hart *h);     /* priv, mstatus, satp or PMP changed */
void hart_tlb_flush(rvt_hart *h, bool all, uint64_t va, bool by_asid, uint64_t asid);
bool hart_satp_write(rvt_hart *h, uint64_t v);
int hart_mmu_new(rvt_hart *h);
void hart_mmu_free(rvt_hart *h);
/* pmp.c */
bool hart_pmp_ok(rvt_hart *h, uint64_t pa, unsigned size, unsigned acc, unsigned priv);
uint64_t hart_pmpcfg_read(const rvt_hart *h, unsigned idx);
void hart_pmpcfg_write(rvt_hart *h, unsigned idx, uint64_t v);
void hart_pmpaddr_write(rvt_hart *h, unsigned idx, uint64_t v);
unsigned hart_pmp_cfg(const rvt_hart *h, unsigned entry);
uint64_t hart_pmpaddr_mask(const rvt_hart *h);
void hart_pmp_summary(rvt_hart *h);   /* pmp_any, pmp_locked */

/* misalign.c: a misaligned access traps or is performed (--misaligned) */
int hart_load_misaligned(rvt_hart *h, uint64_t addr, unsigned size, uint64_t *v);
int hart_store_misaligned(rvt_hart *h, uint64_t addr, unsigned size, uint64_t v);

/* Little-endian RAM bytes of a run-time size 1, 2, 4 or 8, without a
 * library memcpy call (the translated paths' sizes are not constants). */
static inline uint64_t hart_bytes_get(const uint8_t *p, unsigned size)
{
    uint8_t b; uint16_t hw; uint32_t w; uint64_t d;
    switch (size) {
    case 1: memcpy(&b, p, 1); return b;
    case 2: memcpy(&hw, p, 2); return hw;
    case 4: memcpy(&w, p, 4); return w;
    default: memcpy(&d, p, 8); return d;
    }
}

static inline void hart_bytes_put(uint8_t *p, unsigned size, uint64_t v)
{
    uint8_t b = (uint8_t)v; uint16_t hw = (uint16_t)v; uint32_t w = (uint32_t)v;
    switch (size) {
    case 1: memcpy(p, &b, 1); break;
    case 2: memcpy(p, &hw, 2); break;
    case 4: memcpy(p, &w, 4); break;
    default: memcpy(p, &v, 8); break;
    }
}

/* Fast RAM paths; misaligned accesses go to misalign.c (priv 3.6.3.4). */
static inline int hart_load(rvt_hart *h, uint64_t addr, unsigned size, uint64_t *v)
{
    if (addr & (size - 1))
        return hart_load_misaligned(h, addr, size, v);
    if (__builtin_expect(h->xl_data, 0))
        return hart_load_vm(h, addr, size, v);
    uint64_t off = addr - h->ram_base;
    if (off < h->ram_size) {
        uint64_t t = 0;
        memcpy(&t, h->ram + off, size);
        *v = t;
        return 0;
    }
    return hart_load_slow(h, addr, size, v);
}

static inline int hart_store(rvt_hart *h, uint64_t addr, unsigned size, uint64_t v)
{
    if (addr & (size - 1))
        return hart_store_misaligned(h, addr, size, v);
    if (__builtin_expect(h->xl_data, 0))
        return hart_store_vm(h, addr, size, v);
    uint64_t off = addr - h->ram_base;
    if (off < h->ram_size) {
        memcpy(h->ram + off, &v, size);
        hart_store_hook(h, addr, off, size);
        return 0;
    }
    return hart_store_slow(h, addr, size, v);
}

/* ---- amo.c ---- */
int hart_amo(rvt_hart *h, const hart_op *o, uint64_t pc, uint64_t *tval);

/* ---- csr.c ---- */
int hart_csr_op(rvt_hart *h, const hart_op *o, uint64_t pc);
void hart_csr_reset(rvt_hart *h);

/* ---- system.c: ecall/ebreak/xret/wfi/sfence.vma/fence.i.  Retires the
 * instruction itself and sets h->pc; returns 0 or an exception cause + 1
 * (the instruction then did not retire). ---- */
int hart_system(rvt_hart *h, const hart_op *o, uint64_t pc);

/* ---- fpu.c: an F/D instruction (unpriv ch. 11, 12); 0 or an exception
 * cause + 1 with *tval ---- */
int hart_fp(rvt_hart *h, const hart_op *o, uint64_t pc, uint64_t *tval);
bool hart_fp_writes_x(unsigned op);   /* result in an x register (fcvt.w, feq, ...) */

/* priv 3.1.6.6: any FP state write makes FS Dirty; SD (the top bit)
 * summarises FS (VS and XS are always Off). */
static inline uint64_t hart_sd_bit(const rvt_hart *h)
{
    return h->xlen == 64 ? 1ull << 63 : 1ull << 31;
}
static inline void hart_fs_dirty(rvt_hart *h)
{
    h->mstatus |= MSTATUS_FS | hart_sd_bit(h);
}

/* ---- trap.c ---- */
void hart_exception(rvt_hart *h, uint64_t pc, unsigned cause, uint64_t tval);
void hart_trap_enter(rvt_hart *h, bool irq, unsigned cause, uint64_t tval, uint64_t epc);
int hart_event(rvt_hart *h);
void hart_recheck(rvt_hart *h);
uint64_t hart_mip(const rvt_hart *h);
void hart_fatal(rvt_hart *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- retire.c: E-Trace 4.2 blocks ---- */
void hart_block_end(rvt_hart *h, unsigned itype, unsigned cause, uint64_t tval, bool sij);
void hart_cycle_end(rvt_hart *h);
void hart_context_switch(rvt_hart *h);
void hart_trap_block(rvt_hart *h, unsigned itype, unsigned cause, uint64_t tval, uint64_t pc);
int hart_flush(rvt_hart *h);

/* Add one retired instruction to the open block. */
static inline void hart_retire_add(rvt_hart *h, uint64_t pc, unsigned len, unsigned si_rd)
{
    if (h->cfg.on_pc)
        h->cfg.on_pc(h->cfg.pc_ctx, pc, true);
    if (h->blk_n == 0)
        h->blk_addr = pc;
    h->blk_n++;
    h->blk_hw += len >> 1;
    h->blk_last_len = (uint8_t)len;
    h->instret++;
    h->si_rd = (uint8_t)si_rd;
    h->cyc_n++;
}

/* retire_width 1 (E-Trace 4.2.1): every instruction is its own block and
 * cycle, written straight into the batch. */
static inline void hart_retire1(rvt_hart *h, uint64_t pc, unsigned len, unsigned si_rd,
                                unsigned itype, bool sij)
{
    if (h->cfg.on_pc)
        h->cfg.on_pc(h->cfg.pc_ctx, pc, true);
    rvt_irec *r = &h->buf[h->nbuf++];
    *r = (rvt_irec){ .iaddr = pc, .time = h->cycles, .iretire = len >> 1, .ninstr = 1,
                     .itype = (uint8_t)itype, .ilastsize = len == 4, .priv = (uint8_t)h->priv,
                     .sijump = sij, .flags = RVT_IREC_F_CYCLE_END, .context = h->trace_ctx,
                     .ctype = h->trace_ctype };
    h->trace_ctype = 0;
    h->instret++;
    h->cycles++;
    h->si_rd = (uint8_t)si_rd;
    h->last_mergeable = itype == 0;
    h->dpushed = h->ndbuf;
    h->st.records++;
}

/* Retire one instruction; a block ends at any itype != 0 and at the end of
 * the cycle (retire_width instructions), E-Trace 4.2 / 4.2.5. */
static inline void hart_retire(rvt_hart *h, uint64_t pc, unsigned len, unsigned si_rd,
                               unsigned itype, bool sij)
{
    if (h->width == 1 && h->nbuf < HART_BATCH && !h->dpushed) {
        hart_retire1(h, pc, len, si_rd, itype, sij);
        return;
    }
    hart_retire_add(h, pc, len, si_rd);
    if (itype | (h->cyc_n >= h->width))
        hart_block_end(h, itype, 0, 0, sij);
}

/* ---- exec32.c / exec64.c; exec_obs32.c / exec_obs64.c (HART_OBS: per
 * retirement hooks for CTR and PMU) ---- */
int hart_exec32(rvt_hart *h);
int hart_exec64(rvt_hart *h);
int hart_exec32_obs(rvt_hart *h);
int hart_exec64_obs(rvt_hart *h);

/* ---- csr.c: a CSR access with M-mode rights (firmware); false if none ---- */
bool hart_csr_access(rvt_hart *h, unsigned csr, bool write, uint64_t *v);

/* ---- ctr_csr.c / pmu_csr.c: CSRs outside csr.c's table; false if none ---- */
bool hart_ext_csr_read(const rvt_hart *h, unsigned csr, uint64_t *v);
bool hart_ext_csr_write(rvt_hart *h, unsigned csr, uint64_t v);
bool hart_ctr_csr_read(const rvt_hart *h, unsigned csr, uint64_t *v);
bool hart_ctr_csr_write(rvt_hart *h, unsigned csr, uint64_t v);
uint64_t hart_counter_get(const rvt_hart *h, unsigned idx);   /* 0, 2, 3..31 */
void hart_counter_set(rvt_hart *h, unsigned idx, uint64_t v);
void hart_counter_written(rvt_hart *h, unsigned idx);   /* after a CSR write */
void hart_inhibit_write(rvt_hart *h, uint64_t v);

/* ---- obs.c: CTR/PMU hooks and the loop choice ---- */
int hart_ext_new(rvt_hart *h);
void hart_ext_free(rvt_hart *h);
void hart_obs_update(rvt_hart *h);
int hart_exec(rvt_hart *h);
void hart_obs_retire(rvt_hart *h, unsigned op, unsigned itype, uint64_t pc, uint64_t npc);
void hart_obs_sys(rvt_hart *h, unsigned op, unsigned priv);
void hart_obs_trap(rvt_hart *h, bool irq, unsigned cause, uint64_t epc, unsigned from);
void hart_obs_xret(rvt_hart *h, uint64_t pc, unsigned from);

/* ---- trigger.c: the Sdtrig trigger module (Debug spec 1.0 ch. 5) ---- */
bool hart_trig_csr_read(const rvt_hart *h, unsigned csr, uint64_t *v);
bool hart_trig_csr_write(rvt_hart *h, unsigned csr, uint64_t v);
/* Kinds of access a trigger watches (mcontrol6 load/store/execute bits). */
enum { HART_TRIG_LOAD = 1, HART_TRIG_STORE = 2, HART_TRIG_EXEC = 4 };
/* An instruction about to execute / an access about to happen: true when a
 * trigger with action 0 fires (breakpoint, xtval in h->trig_tval); trace
 * actions accumulate in h->trig_pend until the instruction retires. */
bool hart_trig_exec(rvt_hart *h, uint64_t pc, unsigned len);
bool hart_trig_mem(rvt_hart *h, unsigned kinds, uint64_t addr, unsigned size);
/* The instruction retired: its block carries the pending pulses (E-Trace 4.2.4). */
void hart_trig_retired(rvt_hart *h);

/* ---- sbi_ecall.c: true if the SBI PMU firmware served this ecall ---- */
bool hart_sbi_ecall(rvt_hart *h, const hart_op *o, uint64_t pc);
int hart_sbi_new(rvt_hart *h);

/* exec32c.c / exec64c.c: the loops with the commit hook (HART_COMMIT,
 * with the HART_OBS hooks too) */
int hart_exec32c(rvt_hart *h);
int hart_exec64c(rvt_hart *h);

/* ---- commit.c ---- */
int hart_cm_init(rvt_hart *h);
void hart_cm_free(rvt_hart *h);
void hart_cm_begin(rvt_hart *h);
void hart_cm_insn(rvt_hart *h, const hart_op *o);
void hart_cm_mem(rvt_hart *h, unsigned dtype, uint64_t addr, unsigned size,
                 uint64_t data, uint64_t data2, unsigned flags);
int hart_cm_end(rvt_hart *h);

#endif
