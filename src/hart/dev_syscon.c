/* SiFive test finisher / syscon at 0x100000 (QEMU hw/misc/sifive_test.c;
 * the DTB's syscon-poweroff and syscon-reboot write it): 0x5555 pass
 * (poweroff), (code << 16) | 0x3333 fail with code, 0x7777 reset (the run
 * ends with code 0).  Other values are ignored; reads return 0. */
#include "hart_int.h"

bool hart_syscon_read(rvt_hart *h, uint64_t off, unsigned size, uint64_t *v)
{
    (void)h, (void)off, (void)size;
    *v = 0;
    return true;
}

bool hart_syscon_write(rvt_hart *h, uint64_t off, unsigned size, uint64_t v)
{
    (void)size;
    if (off != 0)
        return true;
    unsigned kind = (unsigned)(v & 0xffff);
    if (kind != 0x5555 && kind != 0x3333 && kind != 0x7777)
        return true;
    h->exit_code = kind == 0x3333 ? (int)((v >> 16) & 0xffff) : 0;
    h->stop = RVT_HART_EXITED;
    hart_recheck(h);
    return true;
}
