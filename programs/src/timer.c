/* timer: M-mode timer interrupts from the CLINT (privileged spec 3.2.1:
 * MTIP is pending while mtime >= mtimecmp; writing mtimecmp clears it).
 * Each interrupt re-arms mtimecmp = mtime + INTERVAL until K have been
 * taken, then parks it at the maximum.  One machine software interrupt
 * (CLINT msip) is raised as well.  A fixed computation runs meanwhile; its
 * result must not depend on where the interrupts land.  Interrupt timing
 * varies (QEMU's mtime follows the host clock, the rvtrace hart's counts
 * retired instructions), so the instruction count does too; the output
 * line does not. */
#include "rt.h"

#define INTERVAL 3000
#define K 20
#define WORK 20000
/* sum of WORK xorshift64 (13, 7, 17) states from seed 88172645463325252,
 * computed with Python */
#define WANT_WORK 0x1b886584d696d7f0ull

static volatile unsigned ticks, soft;

void rt_trap(struct rt_frame *f)
{
    ureg cause = rt_csr_read(mcause);
    (void)f;
    if (cause == (RT_MCAUSE_IRQ | RT_IRQ_MTI)) {
        ticks++;
        rt_set_mtimecmp(ticks < K ? rt_mtime() + INTERVAL : ~0ull);
    } else if (cause == (RT_MCAUSE_IRQ | RT_IRQ_MSI)) {
        *RT_CLINT_MSIP = 0;
        soft++;
    } else {
        rt_exit(rt_report("timer unexpected trap", cause, 0x70));
    }
}

static uint64_t work(void)
{
    uint64_t x = 88172645463325252ull, sum = 0;
    for (int i = 0; i < WORK; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        sum += x;
    }
    return sum;
}

int main(void)
{
    rt_set_mtimecmp(rt_mtime() + INTERVAL);
    rt_csr_set(mie, (1UL << RT_IRQ_MTI) | (1UL << RT_IRQ_MSI));
    rt_csr_set(mstatus, RT_MSTATUS_MIE);
    *RT_CLINT_MSIP = 1;
    uint64_t sum = work();
    while (ticks < K)
        ;
    rt_csr_clear(mstatus, RT_MSTATUS_MIE);
    rt_csr_clear(mie, (1UL << RT_IRQ_MTI) | (1UL << RT_IRQ_MSI));
    int err = rt_expect(sum, WANT_WORK, 1);
    if (!err) err = rt_expect(ticks, K, 2);
    if (!err) err = rt_expect(soft, 1, 3);
    return rt_report("timer", ticks, err);
}
