/* Memory beside the main RAM (docs/hart.md "Spike's machine"): the extra
 * RAM regions of --mem BASE:SIZE (embench's RAM at 0x20010000) and, with
 * --machine spike, Spike's boot ROM at 0x1000 holding its reset vector
 * (riscv-isa-sim sim.cc: reset_vec, then the start address at 0x1018).
 * They sit behind the main RAM's fast paths: loads and stores come here
 * from mem.c's slow path, fetches from predecode.c's, and instructions
 * here are decoded at every fetch (not cached), so self-modifying code
 * needs no bookkeeping.  Atomics and page-table walks use the main RAM
 * only (an access fault here). */
#include <stdio.h>
#include <stdlib.h>
#include "hart_int.h"

#define SPIKE_ROM_SIZE 0x1000ull
#define SPIKE_ROM_START_ADDR 0x18   /* reset_vec[3]: ld/lw t0, 24(t0) */

hart_region *hart_region_at(const rvt_hart *h, uint64_t addr, uint64_t size)
{
    for (unsigned i = 0; i < h->nregion; i++) {
        hart_region *r = &h->region[i];
        if (addr >= r->base && addr - r->base < r->size && size <= r->size - (addr - r->base))
            return r;
    }
    return NULL;
}

uint8_t *hart_mem_ptr(const rvt_hart *h, uint64_t addr, uint64_t n)
{
    uint64_t off = addr - h->ram_base;
    if (off < h->ram_size && n <= h->ram_size - off)
        return h->ram + off;
    hart_region *r = hart_region_at(h, addr, n);
    return r ? r->mem + (addr - r->base) : NULL;
}

/* Spike's ROM: the five reset-vector words (shared with the decoders,
 * src/image/image_rom.c) and the entry point as an XLEN-wide word. */
static void fill_spike_rom(rvt_hart *h, hart_region *r, uint64_t entry)
{
    uint32_t w[RVT_SPIKE_RESET_VECTOR_WORDS];
    rvt_spike_reset_vector_words(h->xlen, w);
    for (unsigned i = 0; i < RVT_SPIKE_RESET_VECTOR_WORDS; i++)
        for (unsigned b = 0; b < 4; b++)
            r->mem[4 * i + b] = (uint8_t)(w[i] >> (8 * b));   /* little-endian */
    for (unsigned b = 0; b < h->xlen / 8; b++)
        r->mem[SPIKE_ROM_START_ADDR + b] = (uint8_t)(entry >> (8 * b));
}

static bool overlaps(uint64_t b0, uint64_t s0, uint64_t b1, uint64_t s1)
{
    return b0 < b1 + s1 && b1 < b0 + s0;
}

static int add_region(rvt_hart *h, uint64_t base, uint64_t size, bool rom)
{
    bool bad = !size || base + size < base || (h->xlen == 32 && base + size > (1ull << 32)) ||
               overlaps(base, size, h->ram_base, h->ram_size) || hart_region_at(h, base, 1) ||
               hart_region_at(h, base + size - 1, 1);
    if (bad) {
        char msg[160];
        snprintf(msg, sizeof msg, "memory region at 0x%llx, 0x%llx bytes: empty, outside the "
                 "address space or overlapping other memory", (unsigned long long)base,
                 (unsigned long long)size);
        if (h->cfg.diag)
            h->cfg.diag(h->cfg.diag_ctx, RVT_DIAG_ERROR, UINT64_MAX, msg);
        return RVT_ERR_INVAL;
    }
    hart_region *r = &h->region[h->nregion];
    r->mem = calloc(1, size);
    if (!r->mem)
        return RVT_ERR_NOMEM;
    r->base = base;
    r->size = size;
    r->rom = rom;
    h->nregion++;
    return RVT_OK;
}

int hart_regions_new(rvt_hart *h)
{
    if (h->cfg.nmem > RVT_HART_MEM_MAX)
        return RVT_ERR_INVAL;
    h->region = calloc(RVT_HART_MEM_MAX + 1, sizeof *h->region);
    if (!h->region)
        return RVT_ERR_NOMEM;
    int st = RVT_OK;
    if (h->cfg.spike_machine)
        st = add_region(h, RVT_SPIKE_RESET_VECTOR, SPIKE_ROM_SIZE, true);
    for (unsigned i = 0; st >= 0 && i < h->cfg.nmem; i++)
        st = add_region(h, h->cfg.mem[i].base, h->cfg.mem[i].size, false);
    return st;
}

/* Spike starts every hart at its ROM, which jumps to the ELF entry. */
void hart_regions_reset(rvt_hart *h, uint64_t entry)
{
    hart_region *r = h->cfg.spike_machine ? hart_region_at(h, RVT_SPIKE_RESET_VECTOR, 1) : NULL;
    if (!r)
        return;
    fill_spike_rom(h, r, entry);
    h->pc = RVT_SPIKE_RESET_VECTOR;
}

void hart_regions_free(rvt_hart *h)
{
    for (unsigned i = 0; i < h->nregion; i++)
        free(h->region[i].mem);
    free(h->region);
}

int hart_region_load(rvt_hart *h, uint64_t addr, unsigned size, uint64_t *v)
{
    hart_region *r = hart_region_at(h, addr, size);
    if (!r)
        return -1;
    uint64_t t = 0;
    memcpy(&t, r->mem + (addr - r->base), size);
    *v = t;
    return 0;
}

int hart_region_store(rvt_hart *h, uint64_t addr, unsigned size, uint64_t v)
{
    hart_region *r = hart_region_at(h, addr, size);
    if (!r)
        return -1;
    if (r->rom)
        return CAUSE_STORE_ACCESS + 1;   /* Spike: a store to its ROM faults */
    memcpy(r->mem + (addr - r->base), &v, size);
    if ((addr >> 3) == h->resv)
        h->resv = HART_NO_RESV;
    if (addr - h->htif_lo < 15)
        hart_htif_store(h, addr, size);
    return 0;
}

/* Not cached: decoded at every fetch (see the top of this file). */
const hart_op *hart_region_fetch(rvt_hart *h, uint64_t pc)
{
    hart_region *r = hart_region_at(h, pc, 2);
    if (!r || (pc & 1))
        return NULL;
    uint64_t off = pc - r->base;
    uint32_t raw = 0;
    memcpy(&raw, r->mem + off, r->size - off >= 4 ? 4 : 2);
    if (rvt_isa_length((uint16_t)raw) != 2 && r->size - off < 4)
        return NULL;
    return hart_fetch_raw(h, raw);
}
