/* stimer: supervisor timer interrupts the way an SBI firmware provides
 * them without Sstc.  M-mode owns the CLINT: on a machine timer interrupt
 * it sets mip.STIP and masks MTIE (privileged spec 3.1.9: STIP is writable
 * by M-mode to deliver timer interrupts to S); mideleg delegates STI, so
 * the S-mode handler takes it (scause = interrupt 5).  S asks for the next
 * one with an ecall (SET_TIMER: M writes mtimecmp, clears STIP, unmasks
 * MTIE).  After K interrupts S reports and exits through another ecall.
 * The first interrupt is requested for time 0, so it arrives at a fixed
 * point; the later ones are interrupt timing dependent (see timer.c).
 * The output is not. */
#include "rt.h"

#define INTERVAL 4000
#define K 12
#define WORK 15000
/* sum over i < WORK of (i * i) ^ (i >> 3), computed with Python */
#define WANT_WORK 0x105e8924c94ull

enum { SBI_SET_TIMER, SBI_GET_TIME, SBI_EXIT };
static volatile unsigned s_ticks, m_ticks, set_calls;

static ureg sbi(ureg fn, ureg arg)
{
    register ureg a0 __asm__("a0") = arg;
    register ureg a7 __asm__("a7") = fn;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
    return a0;
}

void rt_trap(struct rt_frame *f)
{
    ureg cause = rt_csr_read(mcause);
    if (cause == (RT_MCAUSE_IRQ | RT_IRQ_MTI)) {
        m_ticks++;
        rt_csr_clear(mie, 1UL << RT_IRQ_MTI);
        rt_csr_set(mip, 1UL << RT_IRQ_STI);
        return;
    }
    if (cause != 9)
        rt_exit(rt_report("stimer unexpected M trap", cause, 0x70));
    switch (f->x[17]) {
    case SBI_SET_TIMER:
        set_calls++;
        rt_set_mtimecmp(f->x[10]);
        rt_csr_clear(mip, 1UL << RT_IRQ_STI);
        rt_csr_set(mie, 1UL << RT_IRQ_MTI);
        break;
    case SBI_GET_TIME:
        f->x[10] = (ureg)rt_mtime();
        break;
    default:
        rt_exit((int)f->x[10]);
    }
    f->epc += 4;
}

void rt_strap(struct rt_frame *f)
{
    ureg cause = rt_csr_read(scause);
    (void)f;
    if (cause != (RT_MCAUSE_IRQ | RT_IRQ_STI))
        rt_exit(rt_report("stimer unexpected S trap", cause, 0x71));
    s_ticks++;
    sbi(SBI_SET_TIMER, s_ticks < K ? sbi(SBI_GET_TIME, 0) + INTERVAL : ~0UL);
}

static void s_main(ureg arg)
{
    (void)arg;
    rt_csr_set(sstatus, RT_MSTATUS_SIE);
    /* time 0 has passed: the first interrupt is taken right after this
     * ecall returns, at the same instruction on every platform */
    sbi(SBI_SET_TIMER, 0);
    uint64_t sum = 0;
    for (uint64_t i = 0; i < WORK; i++)
        sum += (i * i) ^ (i >> 3);
    while (s_ticks < K)
        ;
    rt_csr_clear(sstatus, RT_MSTATUS_SIE);
    int err = rt_expect(sum, WANT_WORK, 1);
    if (!err) err = rt_expect(s_ticks, K, 2);
    if (!err) err = rt_expect(m_ticks, K, 3);
    if (!err) err = rt_expect(set_calls, K + 1, 4);
    sbi(SBI_EXIT, (ureg)rt_report("stimer", s_ticks, err));
}

static uint8_t s_stack[8192] __attribute__((aligned(16)));

int main(void)
{
    rt_pmp_open();
    rt_set_mtimecmp(~0ull);
    rt_csr_write(stvec, (ureg)rt_strap_entry);
    rt_csr_write(mideleg, 1UL << RT_IRQ_STI);
    rt_csr_set(mie, (1UL << RT_IRQ_MTI) | (1UL << RT_IRQ_STI));
    rt_csr_clear(mstatus, RT_MSTATUS_MPP);
    rt_csr_set(mstatus, 1UL << 11);                     /* MPP = S */
    rt_mret_to(0, s_main, (ureg)s_stack + sizeof s_stack);
}
