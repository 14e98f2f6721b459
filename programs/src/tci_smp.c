/* tci_smp: a bare-metal Trace Control Interface driver for two harts
 * (rvtrace run --harts 2 --tci; docs/tci.md "Several harts").  Hart 0
 * discovers the RAM sink, the funnel and both harts' Trace Encoders
 * (0x18000000 and 0x18001000), puts the sink in SMEM mode over a 64 KiB
 * buffer in .bss (large enough not to wrap), enables sink and funnel,
 * then each encoder with its own srcID (trTeInstFeatures: trTeSrcID =
 * hartid, trTeSrcBits = 1) and trTeInstTracing; it wakes hart 1 with an
 * IPI, both run a workload of their own (bubble passes over an LCG sequence
 * and fib(10 + hartid)), hart 1 reports back (amoadd + IPI), and hart 0
 * disables the encoders, the funnel and the sink, each to Empty.  The
 * buffer stays in RAM (run --dump-sink F); decode F --src I gives hart
 * I's traced PCs.  The result line carries trRamWPLow (no wrap: bit 0
 * clear). */
#include "tci_regs.h"
#include "smp_rt.h"

#define NHARTS 2
#define N 64

static uint32_t tbuf[16384] __attribute__((aligned(4096)));   /* 64 KiB trace buffer */
static uint32_t data[NHARTS][N];
static volatile uint32_t result[NHARTS];
static volatile uint32_t done;

static int setup_sink(void)
{
    if (!(*reg(RAMSINK, 4) & (1u << 13)))      /* trRamHasSMEM */
        return 2;
    uint32_t ram = ACTIVE | RAM_SMEM;
    set_wait(RAMSINK, ram, RAM_SMEM, RAM_SMEM);
    ureg start = (ureg)tbuf, limit = start + sizeof tbuf - 4;
    *reg(RAMSINK, 0x10) = (uint32_t)start;
    *reg(RAMSINK, 0x14) = (uint32_t)((uint64_t)start >> 32);
    *reg(RAMSINK, 0x18) = (uint32_t)limit;
    *reg(RAMSINK, 0x1C) = (uint32_t)((uint64_t)limit >> 32);
    *reg(RAMSINK, 0x20) = (uint32_t)start;
    *reg(RAMSINK, 0x24) = (uint32_t)((uint64_t)start >> 32);
    if (*reg(RAMSINK, 0x10) != (uint32_t)start || *reg(RAMSINK, 0x18) != (uint32_t)limit)
        return 3;
    set_wait(RAMSINK, ram | ENABLE, ENABLE, ENABLE);
    return 0;
}

/* Hart h's encoder: optimized mode (6), a sync every 2^(2+4) packets
 * (mode 1), srcID h of 1 bit, then enabled and tracing. */
static int setup_encoder(unsigned h)
{
    uint32_t te = ACTIVE | 6u << 4 | 1u << 16 | 2u << 20;
    *reg(TE_OF(h), 0) = te;
    *reg(TE_OF(h), 8) = h << 16 | 1u << 28;
    if (*reg(TE_OF(h), 8) >> 16 != (h | 1u << 12))
        return 5;
    set_wait(TE_OF(h), te | ENABLE, ENABLE, ENABLE);
    *reg(TE_OF(h), 0) = te | ENABLE | INST_TRACING;
    return 0;
}

static int setup(void)
{
    if (discover(RAMSINK, 9) || discover(FUNNEL, 8))
        return 1;
    for (unsigned h = 0; h < NHARTS; h++)
        if (discover(TE_OF(h), 1))
            return 4;
    int err = setup_sink();
    if (err)
        return err;
    set_wait(FUNNEL, ACTIVE | ENABLE, ENABLE, ENABLE);
    for (unsigned h = 0; h < NHARTS && !err; h++)
        err = setup_encoder(h);
    return err;
}

/* "Disabling the trace": encoders, the funnel, then the sink */
static void teardown(void)
{
    for (unsigned h = 0; h < NHARTS; h++)
        stop_encoder(TE_OF(h));
    stop_funnel_and_ram_sink();
}

__attribute__((noinline)) static uint32_t fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

/* Bubble passes over an LCG sequence until no swap is left: 1 when it is
 * in order then, plus fib(10 + hart). */
__attribute__((noinline)) static uint32_t work(ureg hart)
{
    uint32_t *d = data[hart], x = 12345 + (uint32_t)hart;
    for (unsigned i = 0; i < N; i++)
        d[i] = (x = x * 1664525u + 1013904223u) >> 12;
    for (unsigned swapped = 1; swapped;) {
        swapped = 0;
        for (unsigned i = 1; i < N; i++)
            if (d[i - 1] > d[i]) {
                uint32_t t = d[i];
                d[i] = d[i - 1];
                d[i - 1] = t;
                swapped = 1;
            }
    }
    return (d[0] <= d[N - 1]) + fib(10 + (unsigned)hart);
}

void smp_secondary(ureg hart)
{
    rt_csr_set(mie, 1UL << RT_IRQ_MSI);
    wait_ipi(hart);
    result[hart] = work(hart);
    amo_add(&done, 1);
    send_ipi(0);
}

int main(void)
{
    int err = rt_expect(setup(), 0, 1);
    rt_csr_set(mie, 1UL << RT_IRQ_MSI);
    for (unsigned h = 1; h < NHARTS && !err; h++)
        send_ipi(h);
    result[0] = err ? 0 : work(0);
    while (!err && done != NHARTS - 1)
        wait_ipi(0);
    if (!err)
        teardown();
    if (!err) err = rt_expect(result[0], 1 + 55, 2);     /* fib(10) */
    if (!err) err = rt_expect(result[1], 1 + 89, 3);     /* fib(11) */
    uint32_t wp = *reg(RAMSINK, 0x20);
    if (!err) err = rt_expect(wp & 1, 0, 4);             /* no wrap */
    return rt_report("tci_smp", wp, err);
}
