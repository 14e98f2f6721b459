/* ACLINT in the SiFive CLINT layout of QEMU's virt board (ACLINT spec
 * 1.0: MSWI msip of hart i at +4i, MTIMER mtimecmp of hart i at
 * +0x4000 + 8i, mtime at +0xBFF8), one register each per hart of the
 * board.  Any access size; RV32 uses the 32-bit halves. */
#include "hart_int.h"

#define CLINT_MSIP 0x0ull
#define CLINT_MTIMECMP 0x4000ull
#define CLINT_MTIME 0xBFF8ull

/* The hart whose register of `stride` bytes in the array at `base` the
 * access [off, off+size) lies wholly inside; NULL otherwise. */
static rvt_hart *reg_hart(rvt_hart *h, uint64_t off, unsigned size, uint64_t base, unsigned stride,
                          uint64_t *reg_off)
{
    if (off < base)
        return NULL;
    uint64_t i = (off - base) / stride;
    *reg_off = base + i * stride;
    if (i >= hart_count(h) || !hart_reg_in(off, size, *reg_off, stride))
        return NULL;
    return hart_peer(h, (unsigned)i);
}

bool hart_aclint_read(rvt_hart *h, uint64_t off, unsigned size, uint64_t *v)
{
    uint64_t r;
    rvt_hart *t;
    if ((t = reg_hart(h, off, size, CLINT_MSIP, 4, &r)))
        *v = hart_reg_get(t->msip, off, r, size);
    else if ((t = reg_hart(h, off, size, CLINT_MTIMECMP, 8, &r)))
        *v = hart_reg_get(t->mtimecmp, off, r, size);
    else if (hart_reg_in(off, size, CLINT_MTIME, 8))
        *v = hart_reg_get(hart_mtime(h), off, CLINT_MTIME, size);
    else
        *v = 0;   /* unused space reads 0, as QEMU */
    return true;
}

bool hart_aclint_write(rvt_hart *h, uint64_t off, unsigned size, uint64_t v)
{
    uint64_t r;
    rvt_hart *t;
    if ((t = reg_hart(h, off, size, CLINT_MSIP, 4, &r)))
        t->msip = (uint32_t)hart_reg_put(t->msip, off, r, size, v) & 1;
    else if ((t = reg_hart(h, off, size, CLINT_MTIMECMP, 8, &r)))
        t->mtimecmp = hart_reg_put(t->mtimecmp, off, r, size, v);
    else if (hart_reg_in(off, size, CLINT_MTIME, 8))
        h->mtime_off = hart_reg_put(hart_mtime(h), off, CLINT_MTIME, size, v) - h->instret;
    if (t && t != h)
        hart_recheck(t);   /* an IPI or another hart's timer: seen when it runs next */
    hart_recheck(h);
    return true;
}
