/* Pieces of the several-hart programs (smp.c, tci_smp.c; entry
 * smp_start.S): the device tree address hart 0 saw at reset, IPIs through
 * the CLINT's msip (ACLINT MSWI), an amoadd.w. */
#ifndef SMP_RT_H
#define SMP_RT_H

#include "rt.h"

void smp_secondary(ureg hart);
/* a1 at reset, kept by smp_start.S before .bss is cleared (so in .data) */
__attribute__((section(".data"))) const uint8_t *smp_fdt;

static inline void amo_add(volatile uint32_t *p, uint32_t v)
{
    __asm__ volatile("amoadd.w zero, %1, (%0)" :: "r"(p), "r"(v) : "memory");
}

static inline void send_ipi(ureg hart)
{
    RT_CLINT_MSIP[hart] = 1;
}

/* Wait for this hart's msip (MSIE set, mstatus.MIE clear: wfi wakes, no
 * trap), then clear it. */
static inline void wait_ipi(ureg hart)
{
    while (!(rt_csr_read(mip) & (1UL << RT_IRQ_MSI)))
        __asm__ volatile("wfi" ::: "memory");
    RT_CLINT_MSIP[hart] = 0;
}

#endif
