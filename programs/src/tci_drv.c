/* tci_drv: a bare-metal Trace Control Interface driver (TCI 1.0; rvtrace's
 * board has the components at 0x18000000, docs/tci.md).  It discovers the
 * encoder, funnel and RAM sink through tr??Impl, resets and releases
 * them ("Reset and Discovery"), programs a 4 KiB circular buffer in system
 * memory (SMEM mode), enables sink, funnel, encoder in that order and
 * sets trTeInstTracing ("Enabling and Disabling"), runs a workload that
 * fills the buffer several times over, then stops tracing and disables
 * encoder, funnel and sink, waiting for each to be empty.  The buffer
 * stays in RAM (run --dump-sink F saves it).  The result line carries the
 * sink's final trRamWPLow (the wrap bit in bit 0).
 *
 * Built with -DTCI_SRAM (tci_drv_sram.elf): the sink in SRAM mode, trimmed
 * to 4 KiB, with trRamStopOnWrap, and the PIB sink (4-bit parallel) on the
 * funnel's output too; after the disable sequence it checks that the sink
 * stopped itself, reads the SRAM back through trRamRP/trRamData and
 * reports the sum of its 32-bit words as the value.
 *
 * Built with -DTCI_WINDOW (tci_window.elf): instead of the workload, one
 * store sets trTeInstTracing, 10 uncompressed addi follow, and one store
 * clears it (tci_window_on / tci_window_off); the program prints
 * tci_window_on's address.  The trace holds exactly the enabling store and
 * the 10 addi (docs/tci.md "Per-instruction enable").
 *
 * Built with -DTCI_NTRACE (tci_drv_nt.elf): the SMEM driver selecting
 * N-Trace (trTeFormat 1, trTeImpl then says N-Trace 1.0): the buffer holds
 * MSEO messages, not encapsulated (docs/tci.md "N-Trace").
 *
 * Built with -DTCI_DATA (tci_drv_data.elf): the SMEM driver with data
 * trace on (trTeDataControl: trTeDataTracing, differential addresses):
 * te_data packets beside te_inst, encapsulation type 1 (docs/tci.md
 * "Data trace").
 *
 * Built with -DTCI_TS (tci_drv_ts.elf): the SMEM driver with the encoder's
 * Timestamp unit counting the core clock and trTsEnable set, so every
 * encapsulated packet carries the counter (docs/tci.md "Timestamps").
 *
 * Where the components are: the device tree's nodes (compatible
 * "riscv,trace-encoder", "riscv,trace-funnel", "riscv,trace-ram-sink",
 * "riscv,trace-pib-sink") when the hart was given a tree (a1: with
 * firmware, as sbi/tci_drv.elf, an S-mode payload of OpenSBI), else the
 * board's fixed window at 0x18000000. */
#include "tci_regs.h"
#include "fdt.h"

#ifndef TCI_SRAM
static uint32_t tbuf[1024] __attribute__((aligned(4096)));   /* the trace buffer */
#endif
static uint32_t data[128];

#ifdef TCI_SRAM
static ureg PIB = TCI + 0x12000;
/* SRAM: trRamStart fixed at 0, trRamLimit trimmed to 4 KiB; stop on wrap */
static int setup_sink(void)
{
    if (!(*reg(RAMSINK, 4) & (1u << 12)))      /* trRamHasSRAM */
        return 2;
    uint32_t ram = ACTIVE | 1u << 8 | 1u << 12;
    set_wait(RAMSINK, ram, RAM_SMEM, 0);
    *reg(RAMSINK, 0x18) = 0xffc;
    *reg(RAMSINK, 0x20) = 0;
    *reg(RAMSINK, 0x28) = 0xffc;               /* RP settable: trRamData reads the trace */
    if (*reg(RAMSINK, 0x18) != 0xffc || *reg(RAMSINK, 0x28) != 0xffc)
        return 3;
    set_wait(RAMSINK, ram | ENABLE, ENABLE, ENABLE);
    if (discover(PIB, 0xA))
        return 5;
    uint32_t pib = ACTIVE | 10u << 4 | 1u << 12;   /* TRC_CLK + 4 TRC_DATA */
    set_wait(PIB, pib, 0xf0, 10u << 4);
    set_wait(PIB, pib | ENABLE, ENABLE, ENABLE);
    return 0;
}
#else
/* SMEM: a 4 KiB buffer in .bss, async every 2^(7+1) bytes, no stop on wrap */
static int setup_sink(void)
{
    if (!(*reg(RAMSINK, 4) & (1u << 13)))      /* trRamHasSMEM */
        return 2;
    uint32_t ram = ACTIVE | RAM_SMEM | 1u << 12;
    set_wait(RAMSINK, ram, RAM_SMEM, RAM_SMEM);   /* the mode first */
    ureg start = (ureg)tbuf, limit = start + sizeof tbuf - 4;
    *reg(RAMSINK, 0x10) = (uint32_t)start;
    *reg(RAMSINK, 0x14) = (uint32_t)((uint64_t)start >> 32);
    *reg(RAMSINK, 0x18) = (uint32_t)limit;
    *reg(RAMSINK, 0x1C) = (uint32_t)((uint64_t)limit >> 32);
    *reg(RAMSINK, 0x20) = (uint32_t)start;     /* WP = start, wrap bit 0 */
    *reg(RAMSINK, 0x24) = (uint32_t)((uint64_t)start >> 32);
    if (*reg(RAMSINK, 0x10) != (uint32_t)start || *reg(RAMSINK, 0x18) != (uint32_t)limit)
        return 3;
    set_wait(RAMSINK, ram | ENABLE, ENABLE, ENABLE);
    return 0;
}
#endif

static int setup(void)
{
    if (discover(RAMSINK, 9) || discover(FUNNEL, 8) || discover(TE, 1))
        return 1;
    int err = setup_sink();
    if (err)
        return err;
    set_wait(FUNNEL, ACTIVE | ENABLE, ENABLE, ENABLE);
    /* encoder: optimized mode (6), sync every 2^(2+4) packets (mode 1) */
    uint32_t te = ACTIVE | 6u << 4 | 1u << 16 | 2u << 20;
#ifdef TCI_NTRACE
    te |= 1u << 24;                            /* trTeFormat 1: N-Trace */
#endif
    *reg(TE, 0) = te;
#ifdef TCI_DATA
    /* data trace: trTeDataImplemented, then trTeDataTracing (differential
     * addresses, trTeDataAddrCompress 2) */
    if (!(*reg(TE, 0x10) & 1u))
        return 8;
    *reg(TE, 0x10) = 1u << 1 | 2u << 18;
    if ((*reg(TE, 0x10) & (1u << 1 | 3u << 18)) != (1u << 1 | 2u << 18))
        return 9;
#endif
#ifdef TCI_NTRACE
    if (((*reg(TE, 0) >> 24) & 7) != 1 || ((*reg(TE, 4) >> 16) & 15) != 1)
        return 7;                              /* trTeImpl: N-Trace 1.0 */
#endif
#ifdef TCI_TS
    /* the encoder's Timestamp unit: released, then counting the core
     * clock (mode 3, Internal Core) into every packet (trTsEnable) */
    *reg(TE, 0x40) = ACTIVE;
    *reg(TE, 0x40) = ACTIVE | 1u << 1 | 3u << 4 | 1u << 15;
    if (!(*reg(TE, 0x40) & (1u << 15)))
        return 6;
#endif
    if (((*reg(TE, 0) >> 4) & 7) == 0)
        return 4;
    set_wait(TE, te | ENABLE, ENABLE, ENABLE);
#ifndef TCI_WINDOW
    *reg(TE, 0) = te | ENABLE | INST_TRACING;
#endif
    return 0;
}

#ifdef TCI_WINDOW
extern char tci_window_on[];
/* The traced window: the store that sets trTeInstTracing, 10 addi, the
 * store that clears it; returns the addi's sum (10). */
__attribute__((noinline)) static uint32_t window(void)
{
    uint32_t on = *reg(TE, 0) | INST_TRACING, off = on & ~INST_TRACING;
    ureg x = 0;
    __asm__ volatile(".option push\n.option norvc\n"
                     ".globl tci_window_on\ntci_window_on:\n"
                     "sw %[on], 0(%[r])\n"
                     ".rept 10\naddi %[x], %[x], 1\n.endr\n"
                     ".globl tci_window_off\ntci_window_off:\n"
                     "sw %[off], 0(%[r])\n"
                     ".option pop"
                     : [x] "+r"(x)
                     : [on] "r"(on & ~EMPTY), [off] "r"(off & ~EMPTY), [r] "r"(reg(TE, 0))
                     : "memory");
    return (uint32_t)x;
}
#endif

/* "Disabling the trace": encoders, funnels, then sinks; each Enable 0 and Empty 1 */
static void teardown(void)
{
    stop_encoder(TE);
    stop_funnel_and_ram_sink();
#ifdef TCI_SRAM
    set_wait(PIB, *reg(PIB, 0) & ~(EMPTY | ENABLE), ENABLE | EMPTY, EMPTY);
#endif
}

#ifdef TCI_SRAM
/* "set trRamRP and read trRamData multiple times" */
static uint32_t sram_sum(void)
{
    uint32_t sum = 0;
    *reg(RAMSINK, 0x28) = 0;
    for (unsigned i = 0; i < 1024; i++)
        sum += *reg(RAMSINK, 0x40);
    return sum;
}
#endif

__attribute__((noinline)) static uint32_t fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline, unused)) static uint32_t work(void)
{
    uint32_t x = 12345;
    for (unsigned i = 0; i < 128; i++) {
        x = x * 1103515245u + 12345u;
        data[i] = x >> 8;
    }
    for (unsigned i = 1; i < 128; i++) {       /* insertion sort */
        uint32_t v = data[i];
        unsigned j = i;
        for (; j > 0 && data[j - 1] > v; j--)
            data[j] = data[j - 1];
        data[j] = v;
    }
    uint32_t sorted = 1;
    for (unsigned i = 1; i < 128; i++)
        sorted &= data[i - 1] <= data[i];
    return sorted + fib(15);
}

/* The components' addresses from the device tree, all or none. */
static void locate(ureg dtb)
{
    ureg te = rt_fdt_reg_by_compatible((const void *)dtb, "riscv,trace-encoder");
    ureg funnel = rt_fdt_reg_by_compatible((const void *)dtb, "riscv,trace-funnel");
    ureg ram = rt_fdt_reg_by_compatible((const void *)dtb, "riscv,trace-ram-sink");
    if (!te || !funnel || !ram)
        return;
    TE = te, FUNNEL = funnel, RAMSINK = ram;
#ifdef TCI_SRAM
    ureg pib = rt_fdt_reg_by_compatible((const void *)dtb, "riscv,trace-pib-sink");
    if (pib)
        PIB = pib;
#endif
    rt_puts("tci_drv: components from the device tree, encoder at ");
    rt_puthex(te);
    rt_putc('\n');
}

int main(ureg hartid, ureg dtb)
{
    (void)hartid;
    locate(dtb);
    int err = rt_expect(setup(), 0, 1);
#ifdef TCI_SRAM
    uint32_t stopped = 0;
#endif
#ifdef TCI_WINDOW
    rt_puts("tci_window_on ");
    rt_puthex((ureg)tci_window_on);
    rt_putc('\n');
    uint32_t r = err ? 0 : window() + 601;     /* 10 + 601: the check below */
#else
    uint32_t r = err ? 0 : work();
#endif
#ifdef TCI_SRAM
    stopped = !(*reg(RAMSINK, 0) & ENABLE);    /* trRamStopOnWrap: the sink stopped itself */
#endif
    if (!err)
        teardown();
    if (!err) err = rt_expect(r, 1 + 610, 2);
#ifdef TCI_SRAM
    if (!err) err = rt_expect(stopped, 1, 4);
    if (!err) err = rt_expect(*reg(RAMSINK, 0x20), 1, 3);   /* WP back at 0, wrap bit */
    return rt_report("tci_drv_sram", sram_sum(), err);
#endif
    uint32_t wp = *reg(RAMSINK, 0x20);
#ifndef TCI_WINDOW
    /* the buffer went round: the wrap bit is set */
    if (!err) err = rt_expect(wp & 1, 1, 3);
#endif
    return rt_report("tci_drv", wp, err);
}
