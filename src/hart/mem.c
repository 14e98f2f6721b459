/* The devices of QEMU's virt board that bare-metal programs use (docs/hart.md):
 * NS16550 UART, CLINT (msip, mtimecmp, mtime) and the SiFive test finisher.
 * RAM accesses take the inline fast path in hart_int.h; everything else
 * comes here.  Any other address is an access fault (priv 3.6). */
#include "hart_int.h"

#define UART_BASE 0x10000000ull
#define UART_SIZE 0x100ull
#define CLINT_BASE 0x2000000ull
#define CLINT_SIZE 0x10000ull
#define CLINT_MSIP 0x0ull
#define CLINT_MTIMECMP 0x4000ull
#define CLINT_MTIME 0xBFF8ull
#define TEST_BASE 0x100000ull
#define TEST_SIZE 0x1000ull

/* docs/hart.md: mtime advances by one per retired instruction. */
uint64_t hart_mtime(const rvt_hart *h)
{
    return h->instret + h->mtime_off;
}

static uint64_t size_mask(unsigned size)
{
    return size >= 8 ? UINT64_MAX : (1ull << (8 * size)) - 1;
}

/* Bytes [off, off+size) of a little-endian register at reg_off. */
static bool reg_overlap(uint64_t off, unsigned size, uint64_t reg_off, unsigned reg_size)
{
    return off >= reg_off && off + size <= reg_off + reg_size;
}

static uint64_t reg_get(uint64_t reg, uint64_t off, uint64_t reg_off, unsigned size)
{
    return (reg >> (8 * (off - reg_off))) & size_mask(size);
}

static uint64_t reg_put(uint64_t reg, uint64_t off, uint64_t reg_off, unsigned size, uint64_t v)
{
    unsigned sh = (unsigned)(8 * (off - reg_off));
    uint64_t m = size_mask(size) << sh;
    return (reg & ~m) | ((v << sh) & m);
}

static uint64_t clint_read(rvt_hart *h, uint64_t off, unsigned size)
{
    if (reg_overlap(off, size, CLINT_MSIP, 4))
        return reg_get(h->msip, off, CLINT_MSIP, size);
    if (reg_overlap(off, size, CLINT_MTIMECMP, 8))
        return reg_get(h->mtimecmp, off, CLINT_MTIMECMP, size);
    if (reg_overlap(off, size, CLINT_MTIME, 8))
        return reg_get(hart_mtime(h), off, CLINT_MTIME, size);
    return 0;
}

static void clint_write(rvt_hart *h, uint64_t off, unsigned size, uint64_t v)
{
    if (reg_overlap(off, size, CLINT_MSIP, 4))
        h->msip = (uint32_t)reg_put(h->msip, off, CLINT_MSIP, size, v) & 1;
    else if (reg_overlap(off, size, CLINT_MTIMECMP, 8))
        h->mtimecmp = reg_put(h->mtimecmp, off, CLINT_MTIMECMP, size, v);
    else if (reg_overlap(off, size, CLINT_MTIME, 8))
        h->mtime_off = reg_put(hart_mtime(h), off, CLINT_MTIME, size, v) - h->instret;
    hart_recheck(h);
}

/* NS16550: LSR reads 0x60 (THR and transmitter empty) so polling code
 * proceeds; THR writes go to the console unless LCR.DLAB selects the
 * divisor latch.  No receive data. */
static uint8_t uart_read8(const rvt_hart *h, unsigned reg)
{
    switch (reg) {
    case 1: return (h->uart_lcr & 0x80) ? 0 : h->uart_ier;
    case 2: return 0x01;          /* IIR: no interrupt pending */
    case 3: return h->uart_lcr;
    case 5: return 0x60;
    case 7: return h->uart_scr;
    default: return 0;
    }
}

static void uart_write8(rvt_hart *h, unsigned reg, uint8_t b)
{
    bool dlab = h->uart_lcr & 0x80;
    if (reg == 0 && !dlab) {
        char c = (char)b;
        if (h->cfg.console)
            h->cfg.console(h->cfg.console_ctx, &c, 1);
    } else if (reg == 1 && !dlab) {
        h->uart_ier = b & 0x0f;
    } else if (reg == 3) {
        h->uart_lcr = b;
    } else if (reg == 7) {
        h->uart_scr = b;
    }
}

/* SiFive test finisher: 0x5555 pass, (code << 16) | 0x3333 fail, 0x7777
 * reset (treated as an exit with code 0). */
static void finisher_write(rvt_hart *h, uint64_t off, uint64_t v)
{
    if (off != 0)
        return;
    unsigned kind = (unsigned)(v & 0xffff);
    if (kind != 0x5555 && kind != 0x3333 && kind != 0x7777)
        return;
    h->exit_code = kind == 0x3333 ? (int)((v >> 16) & 0xffff) : 0;
    h->stop = RVT_HART_EXITED;
    hart_recheck(h);
}

static bool in(uint64_t addr, unsigned size, uint64_t base, uint64_t len)
{
    return addr >= base && addr - base + size <= len;
}

int hart_load_slow(rvt_hart *h, uint64_t addr, unsigned size, uint64_t *v)
{
    if (h->nregion && hart_region_at(h, addr, size))
        return hart_region_load(h, addr, size, v);   /* regions.c: --mem, Spike's ROM */
    if (in(addr, size, UART_BASE, UART_SIZE)) {
        uint64_t r = 0;
        for (unsigned i = 0; i < size; i++)
            r |= (uint64_t)uart_read8(h, (unsigned)(addr - UART_BASE + i) & 7) << (8 * i);
        *v = r;
        return 0;
    }
    if (in(addr, size, CLINT_BASE, CLINT_SIZE)) {
        *v = clint_read(h, addr - CLINT_BASE, size);
        return 0;
    }
    if (in(addr, size, TEST_BASE, TEST_SIZE)) {
        *v = 0;
        return 0;
    }
    return CAUSE_LOAD_ACCESS + 1;
}

int hart_store_slow(rvt_hart *h, uint64_t addr, unsigned size, uint64_t v)
{
    if (h->nregion && hart_region_at(h, addr, size))
        return hart_region_store(h, addr, size, v);
    if (in(addr, size, UART_BASE, UART_SIZE)) {
        for (unsigned i = 0; i < size; i++)
            uart_write8(h, (unsigned)(addr - UART_BASE + i) & 7, (uint8_t)(v >> (8 * i)));
        return 0;
    }
    if (in(addr, size, CLINT_BASE, CLINT_SIZE)) {
        clint_write(h, addr - CLINT_BASE, size, v);
        return 0;
    }
    if (in(addr, size, TEST_BASE, TEST_SIZE)) {
        finisher_write(h, addr - TEST_BASE, v & size_mask(size));
        return 0;
    }
    return CAUSE_STORE_ACCESS + 1;
}
