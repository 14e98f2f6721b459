/* Accesses outside RAM: the board's device table (board.h).  RAM accesses
 * take the inline fast path in hart_int.h; an address no device claims is
 * an access fault (priv 3.6). */
#include "hart_int.h"

/* docs/hart.md: mtime advances by one per retired instruction. */
uint64_t hart_mtime(const rvt_hart *h)
{
    return h->instret + h->mtime_off;
}

static uint64_t size_mask(unsigned size)
{
    return size >= 8 ? UINT64_MAX : (1ull << (8 * size)) - 1;
}

bool hart_reg_in(uint64_t off, unsigned size, uint64_t reg_off, unsigned reg_size)
{
    return off >= reg_off && off + size <= reg_off + reg_size;
}

uint64_t hart_reg_get(uint64_t reg, uint64_t off, uint64_t reg_off, unsigned size)
{
    return (reg >> (8 * (off - reg_off))) & size_mask(size);
}

uint64_t hart_reg_put(uint64_t reg, uint64_t off, uint64_t reg_off, unsigned size, uint64_t v)
{
    unsigned sh = (unsigned)(8 * (off - reg_off));
    uint64_t m = size_mask(size) << sh;
    return (reg & ~m) | ((v << sh) & m);
}

static const hart_dev *find_dev(const rvt_hart *h, uint64_t addr, unsigned size)
{
    const hart_board *b = h->board;
    for (size_t i = 0; i < b->ndevs; i++) {
        const hart_dev *d = &b->devs[i];
        if (addr >= d->base && addr - d->base + size <= d->size)
            return d;
    }
    return NULL;
}

int hart_load_slow(rvt_hart *h, uint64_t addr, unsigned size, uint64_t *v)
{
    if (h->nregion && hart_region_at(h, addr, size))
        return hart_region_load(h, addr, size, v);   /* regions.c: --mem, Spike's ROM */
    const hart_dev *d = find_dev(h, addr, size);
    uint64_t r = 0;
    if (!d || !d->read || !d->read(h, addr - d->base, size, &r))
        return CAUSE_LOAD_ACCESS + 1;
    *v = r & size_mask(size);
    return 0;
}

int hart_store_slow(rvt_hart *h, uint64_t addr, unsigned size, uint64_t v)
{
    if (h->nregion && hart_region_at(h, addr, size))
        return hart_region_store(h, addr, size, v);
    const hart_dev *d = find_dev(h, addr, size);
    if (!d || !d->write || !d->write(h, addr - d->base, size, v & size_mask(size)))
        return CAUSE_STORE_ACCESS + 1;
    return 0;
}
