/* ACLINT in the SiFive CLINT layout of QEMU's virt board (ACLINT spec
 * 1.0: MSWI at +0, MTIMER mtimecmp at +0x4000, mtime at +0xBFF8), one
 * hart.  Any access size; RV32 uses the 32-bit halves. */
#include "hart_int.h"

#define CLINT_MSIP 0x0ull
#define CLINT_MTIMECMP 0x4000ull
#define CLINT_MTIME 0xBFF8ull

bool hart_aclint_read(rvt_hart *h, uint64_t off, unsigned size, uint64_t *v)
{
    if (hart_reg_in(off, size, CLINT_MSIP, 4))
        *v = hart_reg_get(h->msip, off, CLINT_MSIP, size);
    else if (hart_reg_in(off, size, CLINT_MTIMECMP, 8))
        *v = hart_reg_get(h->mtimecmp, off, CLINT_MTIMECMP, size);
    else if (hart_reg_in(off, size, CLINT_MTIME, 8))
        *v = hart_reg_get(hart_mtime(h), off, CLINT_MTIME, size);
    else
        *v = 0;   /* unused space reads 0, as QEMU */
    return true;
}

bool hart_aclint_write(rvt_hart *h, uint64_t off, unsigned size, uint64_t v)
{
    if (hart_reg_in(off, size, CLINT_MSIP, 4))
        h->msip = (uint32_t)hart_reg_put(h->msip, off, CLINT_MSIP, size, v) & 1;
    else if (hart_reg_in(off, size, CLINT_MTIMECMP, 8))
        h->mtimecmp = hart_reg_put(h->mtimecmp, off, CLINT_MTIMECMP, size, v);
    else if (hart_reg_in(off, size, CLINT_MTIME, 8))
        h->mtime_off = hart_reg_put(hart_mtime(h), off, CLINT_MTIME, size, v) - h->instret;
    hart_recheck(h);
    return true;
}
