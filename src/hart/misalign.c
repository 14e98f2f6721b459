/* Misaligned loads and stores (priv 3.6.3.4: they may trap or be
 * performed): `--misaligned trap` (the default, like Spike) raises
 * address-misaligned; `--misaligned emulate` (cfg.misaligned_emulate, like
 * QEMU 7.2) performs an access that lies wholly in RAM, and raises an
 * access fault for one that touches a device ("if a misaligned access
 * should not be emulated, e.g. to I/O, an access-fault exception can be
 * raised instead").  LR/SC/AMOs always trap (amo.c). */
#include "hart_int.h"

static bool in_ram(const rvt_hart *h, uint64_t addr, unsigned size)
{
    uint64_t off = addr - h->ram_base;
    return off < h->ram_size && h->ram_size - off >= size;
}

int hart_load_misaligned(rvt_hart *h, uint64_t addr, unsigned size, uint64_t *v)
{
    if (!h->cfg.misaligned_emulate)
        return CAUSE_MISALIGNED_LOAD + 1;
    if (!in_ram(h, addr, size))
        return CAUSE_LOAD_ACCESS + 1;
    uint64_t t = 0;
    memcpy(&t, h->ram + (addr - h->ram_base), size);
    *v = t;
    return 0;
}

int hart_store_misaligned(rvt_hart *h, uint64_t addr, unsigned size, uint64_t v)
{
    if (!h->cfg.misaligned_emulate)
        return CAUSE_MISALIGNED_STORE + 1;
    if (!in_ram(h, addr, size))
        return CAUSE_STORE_ACCESS + 1;
    uint64_t off = addr - h->ram_base;
    memcpy(h->ram + off, &v, size);
    /* the bytes may reach into the next page and the next 8-byte granule:
     * drop decodes and the reservation on both sides */
    hart_code_store(h, off, size);
    if ((addr >> 3) == h->resv || ((addr + size - 1) >> 3) == h->resv)
        h->resv = HART_NO_RESV;
    return 0;
}
