/* PMU counters (Sscofpmf overflow, mode inhibits) and the SBI PMU firmware
 * (sbi-pmu-extension.txt): every function and its error codes, against a
 * fake M-mode CSR file built on rvt_pmu and 8 KiB of "RAM". */
#include "rvtrace/pmu.h"
#include "tharness.h"

#define RAM 0x80000000ull
#define RAMSZ 8192u

typedef struct fake {
    rvt_pmu *pmu;
    uint64_t inhibit, counteren, mideleg, cycle, instret;
    uint8_t ram[RAMSZ];
} fake;

static int f_read(void *ctx, unsigned csr, uint64_t *v)
{
    fake *f = ctx;
    unsigned n = csr & 31;
    if (csr == 0x320) *v = f->inhibit;
    else if (csr == 0x306) *v = f->counteren;
    else if (csr == 0x303) *v = f->mideleg;
    else if (csr == 0xB00) *v = f->cycle;
    else if (csr == 0xB02) *v = f->instret;
    else if ((csr & ~31u) == 0xB00) return rvt_pmu_counter_read(f->pmu, n, v);
    else if ((csr & ~31u) == 0x320) return rvt_pmu_event_read(f->pmu, n, v);
    else return RVT_ERR_INVAL;
    return 0;
}

static int f_write(void *ctx, unsigned csr, uint64_t v)
{
    fake *f = ctx;
    unsigned n = csr & 31;
    if (csr == 0x320) { f->inhibit = v; rvt_pmu_set_inhibit(f->pmu, (uint32_t)v); }
    else if (csr == 0x306) f->counteren = v;
    else if (csr == 0x303) f->mideleg = v;
    else if (csr == 0xB00) f->cycle = v;
    else if (csr == 0xB02) f->instret = v;
    else if ((csr & ~31u) == 0xB00) return rvt_pmu_counter_write(f->pmu, n, v);
    else if ((csr & ~31u) == 0x320) return rvt_pmu_event_write(f->pmu, n, v);
    else return RVT_ERR_INVAL;
    return 0;
}

static int f_mread(void *ctx, uint64_t a, void *buf, size_t n)
{
    fake *f = ctx;
    if (a < RAM || a - RAM > RAMSZ || n > RAMSZ - (a - RAM)) return RVT_ERR_INVAL;
    memcpy(buf, f->ram + (a - RAM), n);
    return 0;
}

static int f_mwrite(void *ctx, uint64_t a, const void *buf, size_t n)
{
    fake *f = ctx;
    if (a < RAM || a - RAM > RAMSZ || n > RAMSZ - (a - RAM)) return RVT_ERR_INVAL;
    memcpy(f->ram + (a - RAM), buf, n);
    return 0;
}

static rvt_sbiret call(rvt_sbi_pmu *s, unsigned fid, uint64_t a0, uint64_t a1, uint64_t a2,
                       uint64_t a3, uint64_t a4)
{
    uint64_t a[6] = { a0, a1, a2, a3, a4, 0 };
    return rvt_sbi_pmu_call(s, fid, a);
}

#define EV_HW(code) (code)
#define EV_CACHE(code) ((1u << 16) | (code))
#define EV_RAW2 (2u << 16)
#define EV_RAW3 (3u << 16)
#define EV_FW(code) ((15u << 16) | (code))
#define ALL 0xFFFFFFFFull

static void test_counters(void)
{
    rvt_pmu *p = rvt_pmu_new(NULL);
    uint64_t v;
    CHECK(!rvt_pmu_active(p));
    rvt_pmu_event_write(p, 3, 0x106 | RVT_MHPMEVENT_UINH);   /* loads, not in U */
    CHECK(rvt_pmu_active(p));
    uint32_t ld = rvt_pmu_op_events(0, 0) | (1u << RVT_PMU_EV_LOADS);
    rvt_pmu_count(p, 3, ld, 1);
    rvt_pmu_count(p, 0, ld, 1);
    rvt_pmu_count(p, 1, 1u << RVT_PMU_EV_STORES, 1);
    rvt_pmu_counter_read(p, 3, &v);
    CHECK_EQ(v, 1);
    /* Sscofpmf: wrap sets OF and asks for the LCOFI once */
    rvt_pmu_counter_write(p, 3, UINT64_MAX);
    CHECK(rvt_pmu_count(p, 3, ld, 1));
    CHECK_EQ(rvt_pmu_overflow_bits(p), 1u << 3);
    rvt_pmu_counter_write(p, 3, UINT64_MAX);
    CHECK(!rvt_pmu_count(p, 3, ld, 1));
    rvt_pmu_set_inhibit(p, 1u << 3);
    CHECK(!rvt_pmu_active(p));
    CHECK_EQ(rvt_pmu_counter_read(p, 2, &v), RVT_ERR_INVAL);
    CHECK_EQ(rvt_pmu_event_by_name("branches-taken"), RVT_PMU_EV_BRANCHES_TAKEN);
    CHECK_EQ(rvt_pmu_event_by_name("nope"), RVT_ERR_INVAL);
    rvt_pmu_free(p);
}

static void test_sbi(void)
{
    static fake f;
    f.pmu = rvt_pmu_new(NULL);
    rvt_sbi_env env = { &f, 64, f_read, f_write, f_mread, f_mwrite };
    rvt_sbi_pmu *s = rvt_sbi_pmu_new(&env);
    /* boot: hpm counters inhibited, S may read all, LCOFI delegated */
    CHECK_EQ(f.inhibit, 0xFFFFFFF8ull);
    CHECK_EQ(f.counteren, ALL);
    CHECK_EQ(f.mideleg, 1u << 13);

    rvt_sbiret r = call(s, 0, 0, 0, 0, 0, 0);
    CHECK_EQ(r.error, 0);
    CHECK_EQ(r.value, 48);
    r = call(s, 1, 2, 0, 0, 0, 0);                      /* get_info(instret) */
    CHECK_EQ(r.value, 0xC02 | (63u << 12));
    r = call(s, 1, 40, 0, 0, 0, 0);
    CHECK_EQ(r.value, 1ull << 63);
    CHECK_EQ(call(s, 1, 48, 0, 0, 0, 0).error, RVT_SBI_ERR_INVALID_PARAM);

    /* config_matching */
    CHECK_EQ(call(s, 2, 0, ALL, 1u << 8, EV_HW(2), 0).error, RVT_SBI_ERR_INVALID_PARAM);
    CHECK_EQ(call(s, 2, 40, 0x1FF, 0, EV_HW(2), 0).error, RVT_SBI_ERR_INVALID_PARAM);
    CHECK_EQ(call(s, 2, 0, ALL, 0, EV_CACHE(0), 0).error, RVT_SBI_ERR_NOT_SUPPORTED);
    CHECK_EQ(call(s, 2, 0, ALL, 0, EV_HW(6), 0).error, RVT_SBI_ERR_NOT_SUPPORTED);
    CHECK_EQ(call(s, 2, 0, ALL, 0, EV_HW(2), 1).error, RVT_SBI_ERR_NOT_SUPPORTED);
    CHECK_EQ(call(s, 2, 0, ALL, 0, EV_RAW2 | 1, 0x106).error, RVT_SBI_ERR_NOT_SUPPORTED);
    /* instret (2) is running, so the first free counter that can is 3 */
    r = call(s, 2, 0, ALL, 2 | 4 | (1u << 5), EV_HW(2), 0);   /* CLEAR, AUTO_START, UINH */
    CHECK_EQ(r.error, 0);
    CHECK_EQ(r.value, 3);
    uint64_t e;
    rvt_pmu_event_read(f.pmu, 3, &e);
    CHECK_EQ(e, 2 | RVT_MHPMEVENT_UINH);
    CHECK_EQ(f.inhibit & 8, 0);
    r = call(s, 2, 0, ALL, 0, EV_RAW3, 0x106);               /* raw v2: loads */
    CHECK_EQ(r.value, 4);
    rvt_pmu_event_read(f.pmu, 4, &e);
    CHECK_EQ(e, 0x106);
    r = call(s, 2, 3, 1, 1, EV_HW(5), 0);                    /* SKIP_MATCH: 3 even if started */
    CHECK_EQ(r.value, 3);

    /* start / stop */
    CHECK_EQ(call(s, 3, 3, 1, 0, 0, 0).error, RVT_SBI_ERR_ALREADY_STARTED);
    CHECK_EQ(call(s, 3, 5, 1, 0, 0, 0).error, RVT_SBI_ERR_INVALID_PARAM);   /* not configured */
    CHECK_EQ(call(s, 3, 4, 1, 4, 0, 0).error, RVT_SBI_ERR_INVALID_PARAM);   /* reserved flag */
    CHECK_EQ(call(s, 3, 4, 1, 3, 0, 0).error, RVT_SBI_ERR_INVALID_PARAM);   /* both init flags */
    CHECK_EQ(call(s, 3, 4, 1, 2, 0, 0).error, RVT_SBI_ERR_NO_SHMEM);
    CHECK_EQ(call(s, 3, 4, 1, 1, 1000, 0).error, 0);
    uint64_t v;
    rvt_pmu_counter_read(f.pmu, 4, &v);
    CHECK_EQ(v, 1000);
    CHECK_EQ(f.inhibit & 16, 0);
    CHECK_EQ(call(s, 4, 3, 3, 0, 0, 0).error, 0);                           /* stop 3, 4 */
    CHECK_EQ(f.inhibit & 0x18, 0x18);
    CHECK_EQ(call(s, 4, 3, 1, 0, 0, 0).error, RVT_SBI_ERR_ALREADY_STOPPED);
    CHECK_EQ(call(s, 4, 3, 1, 2, 0, 0).error, RVT_SBI_ERR_NO_SHMEM);
    CHECK_EQ(call(s, 4, 4, 1, 1, 0, 0).error, RVT_SBI_ERR_ALREADY_STOPPED);

    /* snapshot shared memory */
    CHECK_EQ(call(s, 7, RAM + 8, 0, 0, 0, 0).error, RVT_SBI_ERR_INVALID_PARAM);
    CHECK_EQ(call(s, 7, RAM, 0, 1, 0, 0).error, RVT_SBI_ERR_INVALID_PARAM);
    CHECK_EQ(call(s, 7, RAM + 8192, 0, 0, 0, 0).error, RVT_SBI_ERR_INVALID_ADDRESS);
    CHECK_EQ(call(s, 7, RAM, 1, 0, 0, 0).error, RVT_SBI_ERR_INVALID_ADDRESS);
    CHECK_EQ(call(s, 7, RAM, 0, 0, 0, 0).error, 0);
    CHECK_EQ(call(s, 3, 3, 3, 0, 0, 0).error, 0);        /* start 3, 4 again */
    rvt_pmu_counter_write(f.pmu, 4, 77);
    rvt_pmu_event_write(f.pmu, 4, 0x106 | RVT_MHPMEVENT_OF);
    CHECK_EQ(call(s, 4, 3, 3, 2 | 1, 0, 0).error, 0);    /* stop + snapshot + reset */
    uint64_t snap[3];
    memcpy(snap, f.ram, sizeof snap);
    CHECK_EQ(snap[0], 2);             /* overflow bitmap: counter 4 = base 3 + bit 1 */
    CHECK_EQ(snap[2], 77);            /* counter_values[1] */
    rvt_pmu_event_read(f.pmu, 4, &e);
    CHECK_EQ(e, 0);                   /* RESET unmapped it */
    CHECK_EQ(call(s, 3, 4, 1, 0, 0, 0).error, RVT_SBI_ERR_INVALID_PARAM);
    CHECK_EQ(call(s, 7, UINT64_MAX, UINT64_MAX, 0, 0, 0).error, 0);   /* disable */
    CHECK_EQ(call(s, 4, 2, 1, 2, 0, 0).error, RVT_SBI_ERR_NO_SHMEM);   /* instret */

    /* firmware counters */
    CHECK_EQ(call(s, 2, 0, UINT64_MAX, 0, EV_FW(4), 0).error, RVT_SBI_ERR_INVALID_PARAM);
    r = call(s, 2, 0, (1ull << 48) - 1, 0, EV_FW(4), 0);   /* illegal-insn traps */
    CHECK_EQ(r.value, 32);
    CHECK_EQ(call(s, 2, 0, 0x7, 0, EV_FW(4), 0).error, RVT_SBI_ERR_NOT_SUPPORTED);
    CHECK_EQ(call(s, 2, 32, 1, 0, EV_FW(22), 0).error, RVT_SBI_ERR_NOT_SUPPORTED);
    rvt_sbi_pmu_fw_event(s, 4);                          /* not started: not counted */
    CHECK_EQ(call(s, 3, 32, 1, 0, 0, 0).error, 0);
    rvt_sbi_pmu_fw_event(s, 4);
    rvt_sbi_pmu_fw_event(s, 4);
    rvt_sbi_pmu_fw_event(s, 0);
    r = call(s, 5, 32, 0, 0, 0, 0);
    CHECK_EQ(r.error, 0);
    CHECK_EQ(r.value, 2);
    CHECK_EQ(call(s, 6, 32, 0, 0, 0, 0).value, 0);       /* RV64: high part 0 */
    CHECK_EQ(call(s, 5, 3, 0, 0, 0, 0).error, RVT_SBI_ERR_INVALID_PARAM);
    CHECK_EQ(call(s, 6, 48, 0, 0, 0, 0).error, RVT_SBI_ERR_INVALID_PARAM);

    /* event_get_info: 3 entries of 16 bytes at RAM + 4096 */
    uint32_t ent[12] = { EV_HW(1), 7, 0, 0, EV_CACHE(1), 7, 0, 0, EV_RAW3, 7, 0x105, 0 };
    memcpy(f.ram + 4096, ent, sizeof ent);
    CHECK_EQ(call(s, 8, RAM + 4096 + 8, 0, 3, 0, 0).error, RVT_SBI_ERR_INVALID_PARAM);
    CHECK_EQ(call(s, 8, RAM + 4096, 0, 3, 1, 0).error, RVT_SBI_ERR_INVALID_PARAM);
    CHECK_EQ(call(s, 8, RAM + 8192 - 16, 0, 2, 0, 0).error, RVT_SBI_ERR_INVALID_ADDRESS);
    CHECK_EQ(call(s, 8, RAM + 4096, 0, 3, 0, 0).error, 0);
    memcpy(ent, f.ram + 4096, sizeof ent);
    CHECK_EQ(ent[1], 1);
    CHECK_EQ(ent[5], 0);
    CHECK_EQ(ent[9], 1);
    CHECK_EQ(call(s, 9, 0, 0, 0, 0, 0).error, RVT_SBI_ERR_NOT_SUPPORTED);
    rvt_sbi_pmu_free(s);
    rvt_pmu_free(f.pmu);
}

int main(void)
{
    test_counters();
    test_sbi();
    return TH_DONE();
}
