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

/* With paging or PMP (mmu.c) the access is split at the page boundary and
 * each part translated; both translations come before any byte moves, so
 * a fault leaves memory untouched.  The parts must be RAM. */
static int split_xlate(rvt_hart *h, uint64_t addr, unsigned size, unsigned acc,
                       uint64_t pa[2], unsigned *n0)
{
    uint64_t in_page = HART_PAGE_SIZE - (addr & (HART_PAGE_SIZE - 1));
    *n0 = in_page < size ? (unsigned)in_page : size;
    int r = hart_xlate(h, addr, *n0, acc, &pa[0]);
    if (!r && *n0 < size)
        r = hart_xlate(h, addr + *n0, size - *n0, acc, &pa[1]);
    if (r)
        return r;
    unsigned fault = (acc == HART_ACC_LOAD ? CAUSE_LOAD_ACCESS : CAUSE_STORE_ACCESS) + 1;
    if (!in_ram(h, pa[0], *n0) || (*n0 < size && !in_ram(h, pa[1], size - *n0)))
        return (int)fault;
    return 0;
}

static int load_vm(rvt_hart *h, uint64_t addr, unsigned size, uint64_t *v)
{
    uint64_t pa[2];
    unsigned n0;
    int r = split_xlate(h, addr, size, HART_ACC_LOAD, pa, &n0);
    if (r)
        return r;
    uint8_t b[8] = { 0 };
    memcpy(b, h->ram + (pa[0] - h->ram_base), n0);
    if (n0 < size)
        memcpy(b + n0, h->ram + (pa[1] - h->ram_base), size - n0);
    uint64_t t = 0;
    memcpy(&t, b, size);
    *v = t;
    return 0;
}

/* The bytes may reach into the next page and the next 8-byte granule:
 * drop decodes and the reservation on both sides. */
static void store_part(rvt_hart *h, uint64_t pa, const uint8_t *b, unsigned n)
{
    uint64_t off = pa - h->ram_base;
    memcpy(h->ram + off, b, n);
    hart_code_store(h, off, n);
    if ((pa >> 3) == h->resv || ((pa + n - 1) >> 3) == h->resv)
        h->resv = HART_NO_RESV;
    if (h->peer_resv)
        hart_smp_store(h, pa, n);
}

static int store_vm(rvt_hart *h, uint64_t addr, unsigned size, uint64_t v)
{
    uint64_t pa[2];
    unsigned n0;
    int r = split_xlate(h, addr, size, HART_ACC_STORE, pa, &n0);
    if (r)
        return r;
    uint8_t b[8];
    memcpy(b, &v, sizeof b);
    store_part(h, pa[0], b, n0);
    if (n0 < size)
        store_part(h, pa[1], b + n0, size - n0);
    return 0;
}

int hart_load_misaligned(rvt_hart *h, uint64_t addr, unsigned size, uint64_t *v)
{
    if (!h->cfg.misaligned_emulate)
        return CAUSE_MISALIGNED_LOAD + 1;
    if (h->xl_data)
        return load_vm(h, addr, size, v);
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
    if (h->xl_data)
        return store_vm(h, addr, size, v);
    if (!in_ram(h, addr, size))
        return CAUSE_STORE_ACCESS + 1;
    uint8_t b[8];
    memcpy(b, &v, sizeof b);
    store_part(h, addr, b, size);
    return 0;
}
