/* Fuzz target: the PMU counter bank (rvt_pmu_*) and the SBI PMU firmware
 * (rvt_sbi_pmu_call, rvt_sbi_pmu_fw_event; sbi-pmu-extension.txt) over a
 * fake M-mode CSR file built on rvt_pmu (RV32: the high halves at +0x80
 * for counters, +0x400 for mhpmevent, as priv 3.1.10 and Sscofpmf place
 * them) and 16 KiB of RAM.
 * Input: 1 configuration byte (bit 0 XLEN 32, bit 1 tally), then
 * operations: an SBI call (function id, six argument registers, each
 * 0 / one byte / a RAM address / an event index / all ones / 8 bytes),
 * a counted event (mode, event mask, cycles) or a firmware event
 * (fuzz/fuzz_ops.h; seeds: fuzz/tools/mkops.c).
 * Checked against a shadow model of the logical counters (configured,
 * started, firmware value and event):
 * - every sbiret.error is one the spec lists for that function, and the
 *   value of a successful call fits XLEN;
 * - num_counters is stable; counter_get_info succeeds exactly below it,
 *   with type 1 for firmware counters and the CSR/width of a hardware one;
 * - config_matching returns a counter of the set that was not running
 *   (unless SKIP_MATCH), firmware events on firmware counters only, a
 *   hardware counter's mhpmevent then selects a known event with the
 *   inhibits of config_flags[7:5]; start succeeds only on configured stopped
 *   counters and ALREADY_STARTED needs a running one (stop likewise);
 * - firmware counters read back (fw_read, fw_read_hi, the stop snapshot)
 *   exactly the value the model computes from the configuration, the
 *   initial values and the firmware events;
 * - a stopped hardware counter does not move when events are counted;
 * - shared memory is only accepted 4 KiB aligned inside RAM.
 * FUZZ_ARGS: -max_len=2048 */
#include "../fuzz_ops.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

#define RAM RVT_FUZZ_PMU_RAM
#define RAMSZ RVT_FUZZ_PMU_RAMSZ
#define NUM (RVT_SBI_PMU_NUM_HW + RVT_SBI_PMU_NUM_FW)
#define CSR_MCOUNTINHIBIT 0x320u

typedef struct fake {
    rvt_pmu *pmu;
    unsigned xlen;
    uint64_t inhibit, counteren, mideleg, cycle, instret;
    uint8_t ram[RAMSZ];
} fake;

/* Which 64-bit register a CSR number names, and whether it is the RV32
 * high half: mhpmcounterN(h) 0xB00/0xB80, mhpmeventN(h) 0x320/0x720. */
static int f_reg(fake *f, unsigned csr, uint64_t **reg, bool *hi, unsigned *n)
{
    *hi = false;
    *reg = NULL;
    *n = csr & 31;
    if (f->xlen == 32 && ((csr & ~31u) == 0xB80 || (csr & ~31u) == 0x720)) {
        *hi = true;
        csr -= (csr & ~31u) == 0xB80 ? 0x80 : 0x400;
    }
    if (csr == CSR_MCOUNTINHIBIT && !*hi) *reg = &f->inhibit;
    else if (csr == 0x306) *reg = &f->counteren;
    else if (csr == 0x303) *reg = &f->mideleg;
    else if (csr == 0xB00) *reg = &f->cycle;
    else if (csr == 0xB02) *reg = &f->instret;
    else if ((csr & ~31u) == 0xB00 && *n >= 3) return 1;    /* rvt_pmu counter */
    else if ((csr & ~31u) == 0x320 && *n >= 3) return 2;    /* rvt_pmu event */
    else return RVT_ERR_INVAL;
    return 0;
}

/* The whole 64-bit register f_reg found (kind k, as f_reg returns). */
static uint64_t f_full(const fake *f, int k, const uint64_t *reg, unsigned n)
{
    uint64_t full = 0;
    if (k == 0) full = *reg;
    else if (k == 1) rvt_pmu_counter_read(f->pmu, n, &full);
    else rvt_pmu_event_read(f->pmu, n, &full);
    return full;
}

static int f_read(void *ctx, unsigned csr, uint64_t *v)
{
    fake *f = ctx;
    uint64_t *reg;
    bool hi;
    unsigned n;
    int k = f_reg(f, csr, &reg, &hi, &n);
    if (k < 0)
        return k;
    uint64_t full = f_full(f, k, reg, n);
    *v = f->xlen == 32 ? (hi ? full >> 32 : full & 0xffffffffull) : full;
    return 0;
}

static int f_write(void *ctx, unsigned csr, uint64_t v)
{
    fake *f = ctx;
    uint64_t *reg;
    bool hi;
    unsigned n;
    int k = f_reg(f, csr, &reg, &hi, &n);
    if (k < 0)
        return k;
    uint64_t full = f_full(f, k, reg, n);
    if (f->xlen == 32)
        full = hi ? (full & 0xffffffffull) | (v << 32) : (full & ~0xffffffffull) | (v & 0xffffffffull);
    else
        full = v;
    if (k == 0) {
        *reg = full;
        if (reg == &f->inhibit)
            rvt_pmu_set_inhibit(f->pmu, (uint32_t)full);
    } else if (k == 1) {
        rvt_pmu_counter_write(f->pmu, n, full);
    } else {
        rvt_pmu_event_write(f->pmu, n, full);
    }
    return 0;
}

static bool in_ram(uint64_t a, size_t n)
{
    return a >= RAM && a - RAM <= RAMSZ && n <= RAMSZ - (a - RAM);
}

static int f_mread(void *ctx, uint64_t a, void *buf, size_t n)
{
    fake *f = ctx;
    if (!in_ram(a, n))
        return RVT_ERR_INVAL;
    memcpy(buf, f->ram + (a - RAM), n);
    return 0;
}

static int f_mwrite(void *ctx, uint64_t a, const void *buf, size_t n)
{
    fake *f = ctx;
    if (!in_ram(a, n))
        return RVT_ERR_INVAL;
    memcpy(f->ram + (a - RAM), buf, n);
    return 0;
}

/* The shadow model of the logical counters. */
typedef struct model {
    bool cfg[NUM], run[NUM];
    unsigned code[NUM];          /* firmware event of a firmware counter */
    uint64_t fwval[NUM];
    bool shmem;
    uint64_t shmem_addr;
    uint64_t num;
} model;

typedef struct fz {
    fake f;
    rvt_sbi_pmu *s;
    model m;
    uint64_t xmask;
} fz;

/* Errors each function may return (sbi-pmu-extension.txt, the error tables). */
static bool error_allowed(unsigned long fid, int64_t e)
{
    if (e == RVT_SBI_SUCCESS)
        return fid <= RVT_SBI_PMU_EVENT_GET_INFO;
    switch (fid) {
    case RVT_SBI_PMU_NUM_COUNTERS: return false;
    case RVT_SBI_PMU_COUNTER_GET_INFO: return e == RVT_SBI_ERR_INVALID_PARAM;
    case RVT_SBI_PMU_COUNTER_CONFIG_MATCHING:
        return e == RVT_SBI_ERR_INVALID_PARAM || e == RVT_SBI_ERR_NOT_SUPPORTED;
    case RVT_SBI_PMU_COUNTER_START:
        return e == RVT_SBI_ERR_INVALID_PARAM || e == RVT_SBI_ERR_ALREADY_STARTED ||
               e == RVT_SBI_ERR_NO_SHMEM;
    case RVT_SBI_PMU_COUNTER_STOP:
        return e == RVT_SBI_ERR_INVALID_PARAM || e == RVT_SBI_ERR_ALREADY_STOPPED ||
               e == RVT_SBI_ERR_NO_SHMEM;
    case RVT_SBI_PMU_COUNTER_FW_READ: case RVT_SBI_PMU_COUNTER_FW_READ_HI:
        return e == RVT_SBI_ERR_INVALID_PARAM;
    case RVT_SBI_PMU_SNAPSHOT_SET_SHMEM: case RVT_SBI_PMU_EVENT_GET_INFO:
        return e == RVT_SBI_ERR_NOT_SUPPORTED || e == RVT_SBI_ERR_INVALID_PARAM ||
               e == RVT_SBI_ERR_INVALID_ADDRESS || e == RVT_SBI_ERR_FAILED;
    default:
        return e == RVT_SBI_ERR_NOT_SUPPORTED;
    }
}

/* The counters of counter_idx_base + the set bits of counter_idx_mask
 * (XLEN-wide registers); false when one does not exist. */
static bool set_of(const fz *z, uint64_t base, uint64_t mask, bool out[NUM])
{
    memset(out, 0, NUM);
    base &= z->xmask;
    mask &= z->xmask;
    for (unsigned i = 0; i < 64; i++) {
        if (!((mask >> i) & 1))
            continue;
        if (base >= NUM || i >= NUM - base)
            return false;
        out[base + i] = true;
    }
    return true;
}

static uint64_t arg64(const fz *z, const uint64_t *a)
{
    return z->f.xlen == 32 ? (a[0] & 0xffffffffull) | (a[1] << 32) : a[0];
}

static void after_config(fz *z, const uint64_t *a, rvt_sbiret r)
{
    if (r.error)
        return;
    bool set[NUM];
    RVT_FUZZ_ASSERT(set_of(z, a[0], a[1], set));
    RVT_FUZZ_ASSERT(r.value < NUM && set[r.value]);
    unsigned idx = (unsigned)r.value;
    uint64_t flags = a[2] & z->xmask;
    if (!(flags & 1))                               /* SKIP_MATCH */
        RVT_FUZZ_ASSERT(!z->m.run[idx]);
    uint64_t ev = a[3] & z->xmask;
    /* firmware events (type 15) only on firmware counters and back */
    RVT_FUZZ_ASSERT(((ev >> 16) == 15) == (idx >= RVT_SBI_PMU_NUM_HW));
    if (idx >= 3 && idx < RVT_SBI_PMU_NUM_HW) {
        /* config_flags[7:5] SET_UINH/SINH/MINH become mhpmevent's inhibits */
        uint64_t e = 0;
        RVT_FUZZ_ASSERT(rvt_pmu_event_read(z->f.pmu, idx, &e) == 0);
        RVT_FUZZ_ASSERT(!!(e & RVT_MHPMEVENT_UINH) == !!(flags & 0x20));
        RVT_FUZZ_ASSERT(!!(e & RVT_MHPMEVENT_SINH) == !!(flags & 0x40));
        RVT_FUZZ_ASSERT(!!(e & RVT_MHPMEVENT_MINH) == !!(flags & 0x80));
        RVT_FUZZ_ASSERT(rvt_pmu_event_by_selector(e & RVT_MHPMEVENT_SEL) >= 0);
    }
    z->m.cfg[idx] = true;
    z->m.code[idx] = (unsigned)(ev & 0xffff);
    if (flags & 2)                                  /* CLEAR_VALUE */
        z->m.fwval[idx] = 0;
    if (flags & 4)                                  /* AUTO_START */
        z->m.run[idx] = true;
}

static void after_start_stop(fz *z, const uint64_t *a, rvt_sbiret r, bool start)
{
    bool set[NUM];
    bool valid = set_of(z, a[0], a[1], set);
    bool any_run = false, any_stop = false, all_cfg = true;
    for (unsigned i = 0; i < NUM; i++) {
        if (!set[i])
            continue;
        any_run |= z->m.run[i];
        any_stop |= !z->m.run[i];
        all_cfg &= z->m.cfg[i];
    }
    if (r.error == RVT_SBI_ERR_ALREADY_STARTED)
        RVT_FUZZ_ASSERT(start && any_run);
    if (r.error == RVT_SBI_ERR_ALREADY_STOPPED)
        RVT_FUZZ_ASSERT(!start && any_stop);
    if (r.error == RVT_SBI_ERR_NO_SHMEM)
        RVT_FUZZ_ASSERT(!z->m.shmem);
    if (r.error)
        return;
    RVT_FUZZ_ASSERT(valid && all_cfg && !(start ? any_run : any_stop));
    uint64_t flags = a[2] & z->xmask, base = a[0] & z->xmask;
    for (unsigned i = 0; i < NUM; i++) {
        if (!set[i])
            continue;
        uint64_t slot = z->m.shmem_addr + 8 + 8 * (i - base) - RAM;
        if (start) {
            z->m.run[i] = true;
            if (flags & 1)
                z->m.fwval[i] = arg64(z, a + 3);
            uint64_t hv = 0;
            if ((flags & 1) && i >= 3 && i < RVT_SBI_PMU_NUM_HW) {    /* SET_INIT_VALUE */
                RVT_FUZZ_ASSERT(rvt_pmu_counter_read(z->f.pmu, i, &hv) == 0);
                RVT_FUZZ_ASSERT(hv == arg64(z, a + 3));
            }
            if (flags & 2)
                memcpy(&z->m.fwval[i], z->f.ram + slot, 8);
        } else {
            z->m.run[i] = false;
            if (flags & 2) {
                uint64_t v;
                memcpy(&v, z->f.ram + slot, 8);
                if (i >= RVT_SBI_PMU_NUM_HW)
                    RVT_FUZZ_ASSERT(v == z->m.fwval[i]);
            }
            if ((flags & 1) && i >= 3)              /* RESET */
                z->m.cfg[i] = false;
        }
    }
}

static void after_other(fz *z, unsigned long fid, const uint64_t *a, rvt_sbiret r)
{
    uint64_t idx = a[0] & z->xmask;
    switch (fid) {
    case RVT_SBI_PMU_NUM_COUNTERS:
        RVT_FUZZ_ASSERT(r.value == z->m.num);
        break;
    case RVT_SBI_PMU_COUNTER_GET_INFO:
        RVT_FUZZ_ASSERT((r.error == 0) == (idx < z->m.num));
        if (r.error)
            break;
        if (idx >= RVT_SBI_PMU_NUM_HW) {
            RVT_FUZZ_ASSERT(r.value >> (z->f.xlen - 1) == 1);
        } else {
            RVT_FUZZ_ASSERT(r.value >> (z->f.xlen - 1) == 0);
            RVT_FUZZ_ASSERT((r.value & 0xfff) == 0xC00 + idx);
            RVT_FUZZ_ASSERT(((r.value >> 12) & 63) >= 31);      /* at least 32 bits */
        }
        break;
    case RVT_SBI_PMU_COUNTER_FW_READ: case RVT_SBI_PMU_COUNTER_FW_READ_HI:
        RVT_FUZZ_ASSERT((r.error == 0) == (idx >= RVT_SBI_PMU_NUM_HW && idx < NUM));
        if (r.error)
            break;
        if (fid == RVT_SBI_PMU_COUNTER_FW_READ)
            RVT_FUZZ_ASSERT(r.value == (z->m.fwval[idx] & z->xmask));
        else
            RVT_FUZZ_ASSERT(r.value == (z->f.xlen == 32 ? z->m.fwval[idx] >> 32 : 0));
        break;
    case RVT_SBI_PMU_SNAPSHOT_SET_SHMEM: {
        uint64_t lo = a[0] & z->xmask, hi = a[1] & z->xmask;
        if (r.error)
            break;
        if (lo == z->xmask && hi == z->xmask) {
            z->m.shmem = false;
            break;
        }
        uint64_t addr = z->f.xlen == 32 ? lo | hi << 32 : lo;
        RVT_FUZZ_ASSERT(!(addr & 4095) && in_ram(addr, 4096));
        z->m.shmem = true;
        z->m.shmem_addr = addr;
        break;
    }
    case RVT_SBI_PMU_EVENT_GET_INFO:
        if (!r.error)
            RVT_FUZZ_ASSERT(!((a[0] & z->xmask) & 15));
        break;
    default:
        break;
    }
}

static void op_call(fz *z, rvt_fuzz_in *in)
{
    uint8_t b = rvt_fuzz_u8(in);
    unsigned long fid = b < 0xF0 ? b % 10u : (unsigned long)rvt_fuzz_bytes(in, 8);
    uint64_t a[6];
    for (unsigned i = 0; i < 6; i++)
        a[i] = rvt_fuzz_pmu_arg(in);
    /* The event_get_info entries and snapshot come from the caller. */
    rvt_sbiret r = rvt_sbi_pmu_call(z->s, fid, a);
    RVT_FUZZ_ASSERT(error_allowed(fid, r.error));
    if (r.error == 0)
        RVT_FUZZ_ASSERT(r.value <= z->xmask);
    if (fid == RVT_SBI_PMU_COUNTER_CONFIG_MATCHING)
        after_config(z, a, r);
    else if (fid == RVT_SBI_PMU_COUNTER_START || fid == RVT_SBI_PMU_COUNTER_STOP)
        after_start_stop(z, a, r, fid == RVT_SBI_PMU_COUNTER_START);
    else
        after_other(z, fid, a, r);
}

static void op_count(fz *z, rvt_fuzz_in *in)
{
    unsigned priv = rvt_fuzz_privs[rvt_fuzz_u8(in) & 3];
    uint32_t mask = (uint32_t)rvt_fuzz_bytes(in, 3) & ((1u << RVT_PMU_EV_COUNT) - 1);
    uint64_t cycles = rvt_fuzz_bytes(in, 2);
    uint64_t before[32] = { 0 }, after[32] = { 0 };
    for (unsigned n = 3; n < 32; n++)
        rvt_pmu_counter_read(z->f.pmu, n, &before[n]);
    rvt_pmu_count(z->f.pmu, priv, mask, cycles);
    for (unsigned n = 3; n < 32; n++) {
        rvt_pmu_counter_read(z->f.pmu, n, &after[n]);
        if (!z->m.run[n] || (z->f.inhibit >> n) & 1)
            RVT_FUZZ_ASSERT(after[n] == before[n]);
    }
    RVT_FUZZ_ASSERT(!(rvt_pmu_overflow_bits(z->f.pmu) & 7));
}

static void op_fw_event(fz *z, rvt_fuzz_in *in)
{
    unsigned code = rvt_fuzz_u8(in) & 31;
    rvt_sbi_pmu_fw_event(z->s, code);
    for (unsigned i = RVT_SBI_PMU_NUM_HW; i < NUM; i++)
        if (z->m.cfg[i] && z->m.run[i] && z->m.code[i] == code)
            z->m.fwval[i]++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rvt_fuzz_in in = { data, size };
    uint8_t cb = rvt_fuzz_u8(&in);
    static fz z;       /* 16 KiB of RAM: static, cleared per input */
    memset(&z, 0, sizeof z);
    z.f.xlen = (cb & 1) ? 32 : 64;
    z.xmask = z.f.xlen == 32 ? 0xffffffffull : UINT64_MAX;
    rvt_pmu_cfg pc = { .tally = (cb >> 1) & 1 };
    z.f.pmu = rvt_pmu_new(&pc);
    RVT_FUZZ_ASSERT(z.f.pmu != NULL);
    rvt_sbi_env env = { &z.f, z.f.xlen, f_read, f_write, f_mread, f_mwrite };
    z.s = rvt_sbi_pmu_new(&env);
    RVT_FUZZ_ASSERT(z.s != NULL);
    /* Boot state (rvt_sbi_pmu_new): cycle and instret run with their
     * fixed events, hpmcounter3..31 are inhibited, nothing is configured. */
    z.m.cfg[0] = z.m.cfg[2] = true;
    z.m.run[0] = z.m.run[2] = true;
    z.m.run[1] = true;                  /* time: mcountinhibit has no bit for it */
    RVT_FUZZ_ASSERT((z.f.inhibit & 0xFFFFFFF8ull) == 0xFFFFFFF8ull);
    uint64_t a0[6] = { 0 };
    rvt_sbiret r = rvt_sbi_pmu_call(z.s, RVT_SBI_PMU_NUM_COUNTERS, a0);
    RVT_FUZZ_ASSERT(r.error == 0 && r.value >= 3 && r.value <= NUM);
    z.m.num = r.value;
    unsigned ops = 0;
    while (in.n && ops++ < 256) {
        uint8_t op = rvt_fuzz_u8(&in);
        if (op < RVT_FUZZ_PMU_COUNT)
            op_call(&z, &in);
        else if (op < RVT_FUZZ_PMU_FW)
            op_count(&z, &in);
        else
            op_fw_event(&z, &in);
        /* the model's running state is the hardware's */
        for (unsigned n = 0; n < RVT_SBI_PMU_NUM_HW; n++)
            if (n != 1)
                RVT_FUZZ_ASSERT(z.m.run[n] == !((z.f.inhibit >> n) & 1));
    }
    rvt_sbi_pmu_free(z.s);
    rvt_pmu_free(z.f.pmu);
    return 0;
}
