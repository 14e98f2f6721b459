/* wfi: waiting for timer interrupts (privileged spec 3.3.3: wfi may
 * resume when an interrupt is pending even if it is globally disabled,
 * and may also resume for no reason, so every wait is a loop).
 *   phase 1: mstatus.MIE = 1; arm mtimecmp, wfi until the handler ran
 *   phase 2: mstatus.MIE = 0; arm mtimecmp, wfi until mip.MTIP is set;
 *            the interrupt is never taken, it is observed and cleared by
 *            re-arming mtimecmp
 * Interrupt timing dependent: how many wfi each wait takes varies; the
 * output line does not. */
#include "rt.h"

#define INTERVAL 2500
#define K 8

static volatile unsigned taken;
static unsigned waits;

void rt_trap(struct rt_frame *f)
{
    ureg cause = rt_csr_read(mcause);
    (void)f;
    if (cause != (RT_MCAUSE_IRQ | RT_IRQ_MTI))
        rt_exit(rt_report("wfi unexpected trap", cause, 0x70));
    taken++;
    rt_set_mtimecmp(~0ull);
}

static void wfi(void)
{
    __asm__ volatile("wfi" ::: "memory");
    waits++;
}

int main(void)
{
    int err = 0;
    rt_set_mtimecmp(~0ull);
    rt_csr_set(mie, 1UL << RT_IRQ_MTI);
    rt_csr_set(mstatus, RT_MSTATUS_MIE);
    for (unsigned i = 0; i < K; i++) {
        unsigned before = taken;
        rt_set_mtimecmp(rt_mtime() + INTERVAL);
        while (taken == before)
            wfi();
    }
    rt_csr_clear(mstatus, RT_MSTATUS_MIE);
    unsigned polled = 0;
    for (unsigned i = 0; i < K; i++) {
        rt_set_mtimecmp(rt_mtime() + INTERVAL);
        do
            wfi();
        while (!(rt_csr_read(mip) & (1UL << RT_IRQ_MTI)));
        polled++;
        rt_set_mtimecmp(~0ull);
        if (rt_csr_read(mip) & (1UL << RT_IRQ_MTI))
            err = rt_expect(1, 0, 1);       /* re-arming must clear MTIP */
    }
    rt_csr_clear(mie, 1UL << RT_IRQ_MTI);
    if (!err) err = rt_expect(taken, K, 2);
    if (!err) err = rt_expect(polled, K, 3);
    if (!err) err = rt_expect(waits >= 2 * K, 1, 4);
    return rt_report("wfi", taken + polled, err);
}
