/* The reference hart's lifetime, configuration and public accessors. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "hart_int.h"

#define MAX_RAM_SIZE (16ull << 30)

static void diag(const rvt_hart_cfg *cfg, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void diag(const rvt_hart_cfg *cfg, const char *fmt, ...)
{
    if (!cfg->diag)
        return;
    char msg[192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cfg->diag(cfg->diag_ctx, RVT_DIAG_ERROR, UINT64_MAX, msg);
}

static int check_cfg(const rvt_hart_cfg *c, unsigned xlen, uint64_t base, uint64_t size)
{
    if (xlen != 32 && xlen != 64) {
        diag(c, "xlen must be 32 or 64, not %u", xlen);
        return RVT_ERR_INVAL;
    }
    if (c->retire_width > 8) {
        diag(c, "retire width must be 1..8, not %u", c->retire_width);
        return RVT_ERR_INVAL;
    }
    if (c->split_loads > RVT_HART_SPLIT_MAX) {
        diag(c, "split-load window must be 0..%u, not %u", RVT_HART_SPLIT_MAX, c->split_loads);
        return RVT_ERR_INVAL;
    }
    bool bad = size < HART_PAGE_SIZE || size > MAX_RAM_SIZE || (size & (HART_PAGE_SIZE - 1)) ||
               (base & (HART_PAGE_SIZE - 1)) || base < 0x80000000ull || base + size < base ||
               (xlen == 32 && base + size > (1ull << 32));
    if (bad) {
        diag(c, "RAM at 0x%llx, 0x%llx bytes: must be page-aligned, at or above 0x80000000 "
             "and within the address space", (unsigned long long)base, (unsigned long long)size);
        return RVT_ERR_INVAL;
    }
    return RVT_OK;
}

static int load_image(rvt_hart *h, const rvt_image *img)
{
    size_t n = rvt_image_segment_count(img);
    for (size_t i = 0; i < n; i++) {
        const rvt_segment *s = rvt_image_segment(img, i);
        /* RAM or a --mem region (regions.c); not Spike's ROM */
        hart_region *r = hart_region_at(h, s->vaddr, s->memsz ? s->memsz : 1);
        uint8_t *p = r && r->rom ? NULL : hart_mem_ptr(h, s->vaddr, s->memsz);
        if (!p || s->filesz > s->memsz) {
            diag(&h->cfg, "segment at 0x%llx (0x%llx bytes) lies outside RAM",
                 (unsigned long long)s->vaddr, (unsigned long long)s->memsz);
            return RVT_ERR_INVAL;
        }
        if (s->filesz)
            memcpy(p, s->data, s->filesz);
    }
    return RVT_OK;
}

uint64_t rvt_hart_dtb_addr(const rvt_hart_cfg *cfg, size_t len)
{
    uint64_t base = cfg->ram_base ? cfg->ram_base : HART_DEFAULT_RAM_BASE;
    uint64_t size = cfg->ram_size ? cfg->ram_size : HART_DEFAULT_RAM_SIZE;
    uint64_t end = base + size, lim = 3072ull << 20;
    if (base < lim && end > lim)
        end = lim;
    if (len > end - base)
        return 0;
    uint64_t a = (end - len) & ~((2ull << 20) - 1);
    return a >= base ? a : 0;
}

/* QEMU virt: the DTB in RAM, a1 = its address (docs/hart.md "Booting"). */
static int load_dtb(rvt_hart *h)
{
    if (!h->cfg.dtb)
        return RVT_OK;
    uint64_t a = rvt_hart_dtb_addr(&h->cfg, h->cfg.dtb_len);
    if (!a) {
        diag(&h->cfg, "the device tree (%zu bytes) does not fit in RAM", h->cfg.dtb_len);
        return RVT_ERR_INVAL;
    }
    if (!h->shared_mem)
        memcpy(h->ram + (a - h->ram_base), h->cfg.dtb, h->cfg.dtb_len);
    h->x[11] = a;
    return RVT_OK;
}

static void reset(rvt_hart *h, const rvt_image *img)
{
    uint64_t entry = h->cfg.reset_pc ? h->cfg.reset_pc : rvt_image_entry(img);
    h->pc = entry ? entry : h->ram_base;
    h->priv = PRV_M;
    h->x[10] = h->cfg.hartid;   /* a0 = hartid; a1 = the DTB address or 0 (load_dtb) */
    h->resv = HART_NO_RESV;
    h->mtimecmp = UINT64_MAX;
    h->width = h->cfg.retire_width ? h->cfg.retire_width : 1;
    h->sink = h->cfg.sink;
    h->drec_sink = h->cfg.data_records && h->sink;
    h->data_on = h->drec_sink || h->cfg.on_commit;   /* commit.c takes accesses too */
    h->stop_at = UINT64_MAX;
    h->last_trap_pc = UINT64_MAX;
    hart_csr_reset(h);
    hart_regions_reset(h, h->pc);
    hart_htif_init(h, img);
}

/* RAM, the predecode cache, --mem regions: the hart's own, or those of
 * the primary hart of its board (smp.c) */
static int memory_new(rvt_hart *h, rvt_image *img, const rvt_hart *primary)
{
    if (primary) {
        h->shared_mem = true;
        h->ram = primary->ram;
        h->pages = primary->pages;
        h->code = primary->code;
        h->region = primary->region;
        h->nregion = primary->nregion;
        h->dev = primary->dev;
        return RVT_OK;
    }
    h->dev = &h->dev_own;
    h->ram = calloc(1, h->ram_size);
    h->pages = calloc(h->npages, sizeof *h->pages);
    h->code = calloc(h->npages, 1);
    if (!h->ram || !h->pages || !h->code)
        return RVT_ERR_NOMEM;
    int st = hart_regions_new(h);
    return st < 0 ? st : load_image(h, img);
}

static rvt_hart *hart_create(const rvt_hart_cfg *cfg, rvt_image *img, rvt_hart *primary, int *status)
{
    int st = RVT_ERR_INVAL;
    rvt_hart *h = NULL;
    if (!cfg || !img)
        goto fail;
    unsigned xlen = cfg->xlen ? cfg->xlen : rvt_image_xlen(img) ? rvt_image_xlen(img) : 64;
    uint64_t base = cfg->ram_base ? cfg->ram_base : HART_DEFAULT_RAM_BASE;
    uint64_t size = cfg->ram_size ? cfg->ram_size : HART_DEFAULT_RAM_SIZE;
    st = check_cfg(cfg, xlen, base, size);
    if (st < 0)
        goto fail;
    st = RVT_ERR_NOMEM;
    h = calloc(1, sizeof *h);
    if (!h)
        goto fail;
    h->cfg = *cfg;
    h->xlen = xlen;
    h->ram_base = base;
    h->ram_size = size;
    h->npages = size >> HART_PAGE_SHIFT;
    st = memory_new(h, img, primary);
    if (st >= 0)
        st = hart_mmu_new(h);
    if (st < 0)
        goto fail;
    reset(h, img);
    st = load_dtb(h);
    if (st < 0)
        goto fail;
    h->board = &hart_board_virt;
    if (!primary)
        hart_uart_reset(h);
    hart_vm_update(h);
    st = hart_ext_new(h);
    if (st >= 0 && h->cfg.on_commit)
        st = hart_cm_init(h);
    if (st < 0)
        goto fail;
    if (status)
        *status = RVT_OK;
    return h;
fail:
    rvt_hart_free(h);
    if (status)
        *status = st;
    return NULL;
}

rvt_hart *rvt_hart_new(const rvt_hart_cfg *cfg, rvt_image *img, int *status)
{
    return hart_create(cfg, img, NULL, status);
}

rvt_hart *hart_new_peer(const rvt_hart_cfg *cfg, rvt_image *img, rvt_hart *primary, int *status)
{
    return hart_create(cfg, img, primary, status);
}

void rvt_hart_free(rvt_hart *h)
{
    if (!h)
        return;
    if (!h->shared_mem) {
        if (h->pages)
            for (size_t i = 0; i < h->npages; i++)
                free(h->pages[i]);
        free(h->pages);
        free(h->code);
        free(h->ram);
        hart_regions_free(h);
    }
    hart_cm_free(h);
    hart_mmu_free(h);
    hart_ext_free(h);
    free(h);
}

int rvt_hart_run(rvt_hart *h, uint64_t steps)
{
    if (h->stop)
        return h->stop;
    h->stop_at = UINT64_MAX;
    h->stop_kind = RVT_HART_STEP_LIMIT;
    if (h->cfg.max_instr) {
        h->stop_at = h->cfg.max_instr;
        h->stop_kind = RVT_HART_MAX_INSTR;
    }
    if (steps && h->instret + steps < h->stop_at) {
        h->stop_at = h->instret + steps;
        h->stop_kind = RVT_HART_STEP_LIMIT;
    }
    h->event_at = 0;
    int r = hart_exec(h);   /* obs.c: plain, observing or commit loop */
    return h->sink_err ? h->sink_err : r;
}

int rvt_hart_finish(rvt_hart *h)
{
    hart_cycle_end(h);
    int rc = hart_flush(h);
    if (rc >= 0 && h->split_busy) {
        hart_split_finish(h);   /* 4.3: every request gets its response */
        rc = hart_flush(h);
    }
    if (rc >= 0 && h->sink && h->sink->end)
        rc = h->sink->end(h->sink->ctx);
    return rc < 0 ? rc : RVT_OK;
}

int rvt_hart_exit_code(const rvt_hart *h) { return h->exit_code; }
bool rvt_hart_exited(const rvt_hart *h) { return h->stop == RVT_HART_EXITED; }
const char *rvt_hart_fatal_msg(const rvt_hart *h) { return h->fatal[0] ? h->fatal : NULL; }
uint64_t rvt_hart_pc(const rvt_hart *h) { return h->pc; }
uint64_t rvt_hart_reg(const rvt_hart *h, unsigned reg) { return reg < 32 ? h->x[reg] : 0; }

void rvt_hart_get_stats(const rvt_hart *h, rvt_hart_stats *out)
{
    *out = h->st;
    out->instret = h->instret;
    out->executed = h->instret + h->faulted;
    out->cycles = h->cycles;
}
