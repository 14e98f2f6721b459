/* The SBI PMU firmware inside the hart (cfg.sbi_pmu): an ecall from S-mode
 * with a7 = 0x504D55 is served by src/pmu/sbi.c as M-mode firmware would,
 * and returns to pc + 4 with a0 = error, a1 = value.  The firmware runs no
 * guest instructions: the ingress records show the ecall as an exception
 * (itype 1, cause 9) whose next instruction is pc + 4 in S-mode, as a
 * trace that filters out M-mode would; CTR records nothing (docs/pmu.md). */
#include "hart_int.h"

static int env_csr_read(void *ctx, unsigned csr, uint64_t *v)
{
    return hart_csr_access(ctx, csr, false, v) ? RVT_OK : RVT_ERR_INVAL;
}

static int env_csr_write(void *ctx, unsigned csr, uint64_t v)
{
    return hart_csr_access(ctx, csr, true, &v) ? RVT_OK : RVT_ERR_INVAL;
}

static bool in_ram(const rvt_hart *h, uint64_t addr, size_t n)
{
    uint64_t off = addr - h->ram_base;
    return off < h->ram_size && n <= h->ram_size - off;
}

static int env_mem_read(void *ctx, uint64_t addr, void *buf, size_t n)
{
    rvt_hart *h = ctx;
    if (!in_ram(h, addr, n))
        return RVT_ERR_INVAL;
    memcpy(buf, h->ram + (addr - h->ram_base), n);
    return RVT_OK;
}

static int env_mem_write(void *ctx, uint64_t addr, const void *buf, size_t n)
{
    rvt_hart *h = ctx;
    if (!in_ram(h, addr, n))
        return RVT_ERR_INVAL;
    uint64_t off = addr - h->ram_base;
    memcpy(h->ram + off, buf, n);
    hart_store_hook(h, addr, off, (unsigned)n);
    return RVT_OK;
}

int hart_sbi_new(rvt_hart *h)
{
    rvt_sbi_env env = { h, h->xlen, env_csr_read, env_csr_write, env_mem_read, env_mem_write };
    h->sbi = rvt_sbi_pmu_new(&env);
    return h->sbi ? RVT_OK : RVT_ERR_NOMEM;
}

bool hart_sbi_ecall(rvt_hart *h, const hart_op *o, uint64_t pc)
{
    uint64_t xm = h->xlen == 32 ? 0xffffffffull : UINT64_MAX;
    if ((h->x[17] & xm) != RVT_SBI_EXT_PMU)
        return false;
    rvt_sbiret r = rvt_sbi_pmu_call(h->sbi, (unsigned long)(h->x[16] & xm), &h->x[10]);
    h->x[10] = (uint64_t)r.error & xm;
    h->x[11] = r.value & xm;
    h->pc = (pc + o->len) & xm;
    hart_retire_add(h, pc, o->len, 0);
    hart_block_end(h, RVT_ITYPE_EXCEPTION, CAUSE_ECALL_S, 0, false);
    hart_cycle_end(h);
    return true;
}
