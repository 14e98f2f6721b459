/* SBI PMU extension (EID 0x504D55), firmware side: every function of
 * sbi-pmu-extension.txt with its error codes.  docs/pmu.md states the
 * choices (counter numbering, events offered, error precedence). */
#include <stdlib.h>
#include "sbi_int.h"

#define LO32 0xffffffffull
#define CFG_SKIP_MATCH (1ul << 0)
#define CFG_CLEAR_VALUE (1ul << 1)
#define CFG_AUTO_START (1ul << 2)
#define CFG_FLAGS 0xFFul
#define START_SET_INIT_VALUE (1ul << 0)
#define START_INIT_SNAPSHOT (1ul << 1)
#define STOP_RESET (1ul << 0)
#define STOP_TAKE_SNAPSHOT (1ul << 1)
#define SHMEM_SIZE 4096u
#define FW_LAST_STD 21u       /* SBI_PMU_FW_HFENCE_VVMA_ASID_RECEIVED */
#define IRQ_LCOFI 13

rvt_sbi_pmu *rvt_sbi_pmu_new(const rvt_sbi_env *env)
{
    if (!env || !env->csr_read || !env->csr_write || !env->mem_read || !env->mem_write)
        return NULL;
    rvt_sbi_pmu *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->env = *env;
    /* boot firmware: programmable counters stopped, S may read every
     * counter, the LCOFI goes to S (docs/pmu.md) */
    uint64_t v = 0;
    env->csr_read(env->ctx, CSR_MCOUNTINHIBIT, &v);
    env->csr_write(env->ctx, CSR_MCOUNTINHIBIT, v | 0xFFFFFFF8ull);
    env->csr_write(env->ctx, CSR_MCOUNTEREN, 0xFFFFFFFFull);
    env->csr_read(env->ctx, CSR_MIDELEG, &v);
    env->csr_write(env->ctx, CSR_MIDELEG, v | (1ull << IRQ_LCOFI));
    return s;
}

void rvt_sbi_pmu_free(rvt_sbi_pmu *s)
{
    free(s);
}

static rvt_sbiret ok(uint64_t v) { return (rvt_sbiret){ RVT_SBI_SUCCESS, v }; }
static rvt_sbiret err(int64_t e) { return (rvt_sbiret){ e, 0 }; }

static uint64_t xmask(const rvt_sbi_pmu *s)
{
    return s->env.xlen == 32 ? LO32 : UINT64_MAX;
}

/* A 64-bit argument: one register on RV64, a lo/hi pair on RV32. */
static uint64_t arg64(const rvt_sbi_pmu *s, const uint64_t *a)
{
    return s->env.xlen == 32 ? (a[0] & LO32) | (a[1] << 32) : a[0];
}

/* SBI PMU event_idx / event_data -> what the hart can count. */
bool sbi_event_decode(unsigned long event_idx, uint64_t event_data, sbi_event *out)
{
    unsigned type = (unsigned)(event_idx >> 16) & 0xF, code = (unsigned)event_idx & 0xFFFF;
    *out = (sbi_event){ 0 };
    if (event_idx >> 20)
        return false;
    switch (type) {
    case 0:   /* hardware general: cycles, instructions, branch instructions */
        out->sel = code;
        return event_data == 0 && (code == 1 || code == 2 || code == 5);
    case 2:   /* raw: event_data[47:0] is the mhpmevent value */
    case 3:   /* raw v2: event_data[55:0] */
        out->sel = event_data & (type == 2 ? (1ull << 48) - 1 : RVT_MHPMEVENT_SEL);
        return code == 0 && rvt_pmu_event_by_selector(out->sel) >= 0;
    case 15:  /* firmware: the standard codes */
        out->fw = true;
        out->code = code;
        return event_data == 0 && code <= FW_LAST_STD;
    default:  /* 1 cache events: the hart models no cache */
        return false;
    }
}

/* Every counter of base + set bits of mask must exist. */
static bool set_valid(unsigned long base, unsigned long mask)
{
    for (unsigned i = 0; mask >> i; i++)
        if (((mask >> i) & 1) && (base >= SBI_NUM || i >= SBI_NUM - base))
            return false;
    return true;
}

static rvt_sbiret get_info(rvt_sbi_pmu *s, unsigned long idx)
{
    if (idx >= SBI_NUM)
        return err(RVT_SBI_ERR_INVALID_PARAM);
    if (idx >= RVT_SBI_PMU_NUM_HW)
        return ok(1ull << (s->env.xlen - 1));
    return ok((0xC00 + idx) | (63ull << 12));   /* 64-bit counters */
}

static rvt_sbiret config_matching(rvt_sbi_pmu *s, const uint64_t *a)
{
    unsigned long base = a[0], mask = a[1], flags = a[2], event_idx = a[3];
    if ((flags & ~CFG_FLAGS) || !set_valid(base, mask))
        return err(RVT_SBI_ERR_INVALID_PARAM);
    sbi_event ev;
    if (!sbi_event_decode(event_idx, arg64(s, a + 4), &ev))
        return err(RVT_SBI_ERR_NOT_SUPPORTED);
    for (unsigned i = 0; mask >> i; i++) {
        unsigned idx = (unsigned)(base + i);
        if (!((mask >> i) & 1))
            continue;
        bool skip = flags & CFG_SKIP_MATCH;
        if (!skip && sbi_started(s, idx))
            continue;
        if (!sbi_can_monitor(idx, &ev)) {
            if (skip)
                break;   /* the first counter is taken unconditionally */
            continue;
        }
        sbi_configure(s, idx, &ev, flags);
        if (flags & CFG_CLEAR_VALUE)
            sbi_set_value(s, idx, 0);
        if (flags & CFG_AUTO_START)
            sbi_set_started(s, idx, true);
        return ok(idx);
    }
    return err(RVT_SBI_ERR_NOT_SUPPORTED);
}

/* Validation common to start and stop: the set exists and is configured. */
static bool set_usable(const rvt_sbi_pmu *s, unsigned long base, unsigned long mask)
{
    if (!set_valid(base, mask))
        return false;
    for (unsigned i = 0; mask >> i; i++)
        if (((mask >> i) & 1) && !sbi_configured(s, (unsigned)(base + i)))
            return false;
    return true;
}

/* True if some counter of the set is (want_started ? started : stopped). */
static bool any_in_state(rvt_sbi_pmu *s, unsigned long base, unsigned long mask, bool started)
{
    for (unsigned i = 0; mask >> i; i++)
        if (((mask >> i) & 1) && sbi_started(s, (unsigned)(base + i)) == started)
            return true;
    return false;
}

static rvt_sbiret start(rvt_sbi_pmu *s, const uint64_t *a)
{
    unsigned long base = a[0], mask = a[1], flags = a[2];
    uint64_t init = arg64(s, a + 3);
    bool both = (flags & START_SET_INIT_VALUE) && (flags & START_INIT_SNAPSHOT);
    if ((flags & ~3ul) || both || !set_usable(s, base, mask))
        return err(RVT_SBI_ERR_INVALID_PARAM);
    if ((flags & START_INIT_SNAPSHOT) && !s->shmem_on)
        return err(RVT_SBI_ERR_NO_SHMEM);
    if (any_in_state(s, base, mask, true))
        return err(RVT_SBI_ERR_ALREADY_STARTED);
    for (unsigned i = 0; mask >> i; i++) {
        unsigned idx = (unsigned)(base + i);
        if (!((mask >> i) & 1))
            continue;
        if (flags & START_SET_INIT_VALUE)
            sbi_set_value(s, idx, init);
        if (flags & START_INIT_SNAPSHOT) {
            uint64_t v = 0;
            s->env.mem_read(s->env.ctx, s->shmem + 8 + 8ull * i, &v, 8);
            sbi_set_value(s, idx, v);
        }
        sbi_set_started(s, idx, true);
    }
    return ok(0);
}

static rvt_sbiret stop(rvt_sbi_pmu *s, const uint64_t *a)
{
    unsigned long base = a[0], mask = a[1], flags = a[2];
    if ((flags & ~3ul) || !set_usable(s, base, mask))
        return err(RVT_SBI_ERR_INVALID_PARAM);
    if ((flags & STOP_TAKE_SNAPSHOT) && !s->shmem_on)
        return err(RVT_SBI_ERR_NO_SHMEM);
    if (any_in_state(s, base, mask, false))
        return err(RVT_SBI_ERR_ALREADY_STOPPED);
    uint64_t ovf = 0;
    for (unsigned i = 0; mask >> i; i++) {
        unsigned idx = (unsigned)(base + i);
        if (!((mask >> i) & 1))
            continue;
        sbi_set_started(s, idx, false);
        if (flags & STOP_TAKE_SNAPSHOT) {
            uint64_t v = sbi_value(s, idx);
            s->env.mem_write(s->env.ctx, s->shmem + 8 + 8ull * i, &v, 8);
            if (sbi_overflowed(s, idx))
                ovf |= 1ull << i;
        }
        if (flags & STOP_RESET)
            sbi_unconfigure(s, idx);
    }
    if (flags & STOP_TAKE_SNAPSHOT)
        s->env.mem_write(s->env.ctx, s->shmem, &ovf, 8);
    return ok(0);
}

static rvt_sbiret fw_read(rvt_sbi_pmu *s, unsigned long idx, bool hi)
{
    if (idx < RVT_SBI_PMU_NUM_HW || idx >= SBI_NUM)
        return err(RVT_SBI_ERR_INVALID_PARAM);
    uint64_t v = s->fw_val[idx - RVT_SBI_PMU_NUM_HW];
    if (hi)
        return ok(s->env.xlen == 32 ? v >> 32 : 0);
    return ok(v & xmask(s));
}

/* Both ends of [addr, addr+n) must be RAM. */
static bool mem_ok(rvt_sbi_pmu *s, uint64_t addr, uint64_t n)
{
    uint8_t b;
    return n && addr + n > addr && s->env.mem_read(s->env.ctx, addr, &b, 1) >= 0 &&
           s->env.mem_read(s->env.ctx, addr + n - 1, &b, 1) >= 0;
}

/* The shared-memory physical address from the lo/hi pair. */
static bool phys_addr(const rvt_sbi_pmu *s, uint64_t lo, uint64_t hi, uint64_t *addr)
{
    if (s->env.xlen == 32) {
        *addr = (lo & LO32) | (hi << 32);
        return true;
    }
    *addr = lo;
    return hi == 0;
}

static rvt_sbiret set_shmem(rvt_sbi_pmu *s, const uint64_t *a)
{
    uint64_t lo = a[0] & xmask(s), hi = a[1] & xmask(s), addr;
    if (a[2])
        return err(RVT_SBI_ERR_INVALID_PARAM);
    if (lo == xmask(s) && hi == xmask(s)) {
        s->shmem_on = false;
        return ok(0);
    }
    if (lo & (SHMEM_SIZE - 1))
        return err(RVT_SBI_ERR_INVALID_PARAM);
    if (!phys_addr(s, lo, hi, &addr) || !mem_ok(s, addr, SHMEM_SIZE))
        return err(RVT_SBI_ERR_INVALID_ADDRESS);
    s->shmem = addr;
    s->shmem_on = true;
    return ok(0);
}

/* Entries of 16 bytes: u32 event_idx, u32 output (bit 0 = supported),
 * u64 event_data. */
static rvt_sbiret event_get_info(rvt_sbi_pmu *s, const uint64_t *a)
{
    uint64_t lo = a[0] & xmask(s), hi = a[1] & xmask(s), n = a[2] & xmask(s), addr;
    if (a[3] || (lo & 15))
        return err(RVT_SBI_ERR_INVALID_PARAM);
    if (!phys_addr(s, lo, hi, &addr) || n > (UINT64_MAX >> 4) || !mem_ok(s, addr, n * 16))
        return err(RVT_SBI_ERR_INVALID_ADDRESS);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t e = addr + 16 * i, data = 0;
        uint32_t idx = 0, out;
        sbi_event ev;
        s->env.mem_read(s->env.ctx, e, &idx, 4);
        s->env.mem_read(s->env.ctx, e + 8, &data, 8);
        out = sbi_event_decode(idx, data, &ev) ? 1u : 0u;
        s->env.mem_write(s->env.ctx, e + 4, &out, 4);
    }
    return ok(0);
}

rvt_sbiret rvt_sbi_pmu_call(rvt_sbi_pmu *s, unsigned long fid, const uint64_t a_in[6])
{
    uint64_t a[6];
    for (unsigned i = 0; i < 6; i++)
        a[i] = a_in[i] & xmask(s);
    switch (fid) {
    case RVT_SBI_PMU_NUM_COUNTERS: return ok(SBI_NUM);
    case RVT_SBI_PMU_COUNTER_GET_INFO: return get_info(s, a[0]);
    case RVT_SBI_PMU_COUNTER_CONFIG_MATCHING: return config_matching(s, a);
    case RVT_SBI_PMU_COUNTER_START: return start(s, a);
    case RVT_SBI_PMU_COUNTER_STOP: return stop(s, a);
    case RVT_SBI_PMU_COUNTER_FW_READ: return fw_read(s, a[0], false);
    case RVT_SBI_PMU_COUNTER_FW_READ_HI: return fw_read(s, a[0], true);
    case RVT_SBI_PMU_SNAPSHOT_SET_SHMEM: return set_shmem(s, a);
    case RVT_SBI_PMU_EVENT_GET_INFO: return event_get_info(s, a);
    default: return err(RVT_SBI_ERR_NOT_SUPPORTED);
    }
}
