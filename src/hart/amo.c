/* The A extension (unpriv ch. 8): LR/SC with a one-granule reservation and
 * the nine AMOs in .w and .d.  Atomics work on RAM only; a misaligned
 * address always traps (LR: load misaligned, SC/AMO: store/AMO misaligned). */
#include "hart_int.h"

static uint64_t sext32(uint64_t v)
{
    return (uint64_t)(int64_t)(int32_t)(uint32_t)v;
}

static void wr(rvt_hart *h, unsigned rd, uint64_t v)
{
    if (rd)
        h->x[rd] = h->xlen == 32 ? (uint32_t)v : v;
}

static bool is_word(unsigned op)
{
    return op <= RVT_OP_AMOMAXU_W;
}

/* The new memory value of an AMO and its E-Trace data type (table 4.9). */
static uint64_t amo_apply(unsigned op, bool word, uint64_t mem, uint64_t src, unsigned *dtype)
{
    int64_t a = word ? (int32_t)mem : (int64_t)mem, b = word ? (int32_t)src : (int64_t)src;
    uint64_t ua = word ? (uint32_t)mem : mem, ub = word ? (uint32_t)src : src;
    unsigned base = word ? RVT_OP_AMOSWAP_W : RVT_OP_AMOSWAP_D;
    switch (op - base) {
    case 0: *dtype = RVT_DTYPE_AMO_SWAP; return src;
    case 1: *dtype = RVT_DTYPE_AMO_ADD; return mem + src;
    case 2: *dtype = RVT_DTYPE_AMO_XOR; return mem ^ src;
    case 3: *dtype = RVT_DTYPE_AMO_AND; return mem & src;
    case 4: *dtype = RVT_DTYPE_AMO_OR; return mem | src;
    case 5: *dtype = RVT_DTYPE_AMO_MIN; return a < b ? mem : src;
    case 6: *dtype = RVT_DTYPE_AMO_MAX; return a > b ? mem : src;
    case 7: *dtype = RVT_DTYPE_AMO_MIN; return ua < ub ? mem : src;
    default: *dtype = RVT_DTYPE_AMO_MAX; return ua > ub ? mem : src;
    }
}

static uint8_t *ram_at(rvt_hart *h, uint64_t addr, unsigned size)
{
    uint64_t off = addr - h->ram_base;
    return off < h->ram_size && off + size <= h->ram_size ? h->ram + off : NULL;
}

int hart_amo(rvt_hart *h, const hart_op *o, uint64_t pc, uint64_t *tval)
{
    unsigned op = o->op;
    bool word = is_word(op);
    unsigned size = word ? 4 : 8;
    bool lr = op == RVT_OP_LR_W || op == RVT_OP_LR_D;
    uint64_t addr = h->x[o->rs1], src = h->x[o->rs2];
    *tval = addr;
    /* Debug spec 1.0, 5.5.1: LR is a load, SC a store, an AMO both; the
     * address match comes before the alignment check (5.3) */
    unsigned kinds = lr ? HART_TRIG_LOAD : o->op == RVT_OP_SC_W || o->op == RVT_OP_SC_D
                                               ? HART_TRIG_STORE
                                               : HART_TRIG_LOAD | HART_TRIG_STORE;
    if (((kinds & HART_TRIG_LOAD) && h->trig_ld) || ((kinds & HART_TRIG_STORE) && h->trig_st)) {
        if (hart_trig_mem(h, kinds, addr, size)) {
            *tval = h->trig_tval;
            return CAUSE_BREAKPOINT + 1;
        }
    }
    if (addr & (size - 1))
        return (lr ? CAUSE_MISALIGNED_LOAD : CAUSE_MISALIGNED_STORE) + 1;
    /* paging/PMP (mmu.c): LR translates as a load, SC and AMOs as stores
     * (page fault 13 / 15); the reservation holds the physical address */
    uint64_t pa = addr;
    if (h->xl_data) {
        int r = hart_xlate(h, addr, size, lr ? HART_ACC_LOAD : HART_ACC_STORE, &pa);
        if (r)
            return r;
    }
    uint8_t *p = ram_at(h, pa, size);
    if (!p)
        return (lr ? CAUSE_LOAD_ACCESS : CAUSE_STORE_ACCESS) + 1;
    uint64_t mem = 0;
    memcpy(&mem, p, size);
    uint64_t off = pa - h->ram_base;
    if (lr) {
        h->resv = pa >> 3;
        h->resv_addr = pa;
        wr(h, o->rd, word ? sext32(mem) : mem);
        if (h->data_on)
            hart_drec(h, pc, RVT_DTYPE_LOAD, addr, size, mem, 0, 0);
        return 0;
    }
    if (op == RVT_OP_SC_W || op == RVT_OP_SC_D) {
        /* unpriv 8.2: succeeds only with a valid reservation for this
         * address; every SC clears the reservation */
        bool ok = h->resv != HART_NO_RESV && h->resv_addr == pa;
        h->resv = HART_NO_RESV;
        if (ok) {
            memcpy(p, &src, size);
            hart_store_hook(h, pa, off, size);
        }
        wr(h, o->rd, !ok);
        if (h->data_on)
            hart_drec(h, pc, RVT_DTYPE_STORE, addr, size,
                      word ? (uint32_t)src : src, 0, ok ? 0 : 1);
        return 0;
    }
    unsigned dtype;
    uint64_t nv = amo_apply(op, word, mem, src, &dtype);
    memcpy(p, &nv, size);
    hart_store_hook(h, pa, off, size);
    wr(h, o->rd, word ? sext32(mem) : mem);
    if (h->data_on)
        hart_drec(h, pc, dtype, addr, size, word ? (uint32_t)src : src, mem, 0);
    return 0;
}
