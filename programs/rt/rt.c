/* rvtrace workloads: shared runtime (printing, checks, trap defaults). */
#include "rt.h"

void rt_putc(char c)
{
    *RT_UART_THR = (uint8_t)c;
}

void rt_puts(const char *s)
{
    while (*s)
        rt_putc(*s++);
}

void rt_putdec(uint64_t v)
{
    char buf[24];
    int n = 0;
    do {
        buf[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        rt_putc(buf[--n]);
}

void rt_puthex(uint64_t v)
{
    int shift = 60;
    rt_puts("0x");
    while (shift > 0 && ((v >> shift) & 15) == 0)
        shift -= 4;
    for (; shift >= 0; shift -= 4)
        rt_putc("0123456789abcdef"[(v >> shift) & 15]);
}

int rt_expect(uint64_t got, uint64_t want, int code)
{
    if (got == want)
        return 0;
    rt_puts("check ");
    rt_putdec((uint64_t)code);
    rt_puts(": got ");
    rt_puthex(got);
    rt_puts(" want ");
    rt_puthex(want);
    rt_putc('\n');
    return code;
}

int rt_report(const char *name, uint64_t value, int err)
{
    rt_puts(name);
    if (err) {
        rt_puts(": FAIL code=");
        rt_putdec((uint64_t)err);
    } else {
        rt_puts(": PASS value=");
        rt_puthex(value);
    }
    rt_putc('\n');
    return err;
}

unsigned rt_insn_len(ureg pc)
{
    uint16_t lo = *(const volatile uint16_t *)pc;
    return (lo & 3) == 3 ? 4 : 2;
}

void rt_pmp_open(void)
{
    /* Privileged spec 3.7: pmpaddr of all ones with A=NAPOT covers the
     * whole address space; cfg 0x1f = R|W|X|NAPOT. */
    rt_csr_write(pmpaddr0, ~0UL);
    rt_csr_write(pmpcfg0, 0x1f);
}

uint64_t rt_mtime(void)
{
#if __riscv_xlen == 64
    return *(volatile uint64_t *)RT_CLINT_MTIME;
#else
    volatile uint32_t *t = (volatile uint32_t *)RT_CLINT_MTIME;
    uint32_t hi, lo;
    do {
        hi = t[1];
        lo = t[0];
    } while (hi != t[1]);
    return ((uint64_t)hi << 32) | lo;
#endif
}

void rt_set_mtimecmp(uint64_t v)
{
#if __riscv_xlen == 64
    *(volatile uint64_t *)RT_CLINT_MTIMECMP = v;
#else
    /* Privileged spec 3.2.1: raise the low word first so no spurious
     * interrupt fires between the two stores. */
    volatile uint32_t *c = (volatile uint32_t *)RT_CLINT_MTIMECMP;
    c[0] = 0xffffffffu;
    c[1] = (uint32_t)(v >> 32);
    c[0] = (uint32_t)v;
#endif
}

static void rt_trap_fail(const char *who, ureg cause, ureg epc, ureg tval,
                         int code)
{
    rt_puts(who);
    rt_puts(" trap: cause=");
    rt_puthex(cause);
    rt_puts(" epc=");
    rt_puthex(epc);
    rt_puts(" tval=");
    rt_puthex(tval);
    rt_putc('\n');
    rt_exit(code);
}

__attribute__((weak)) void rt_trap(struct rt_frame *f)
{
    rt_trap_fail("unexpected M", rt_csr_read(mcause), f->epc,
                 rt_csr_read(mtval), 0x7f);
}

__attribute__((weak)) void rt_strap(struct rt_frame *f)
{
    rt_trap_fail("unexpected S", rt_csr_read(scause), f->epc,
                 rt_csr_read(stval), 0x7e);
}

/* GCC may emit calls to these for struct copies and initialisers even in
 * freestanding code, and no libc is linked. */
void *memset(void *d, int c, size_t n)
{
    volatile unsigned char *p = d;       /* volatile: not turned into memset */
    while (n--)
        *p++ = (unsigned char)c;
    return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
    volatile unsigned char *p = d;
    const unsigned char *q = s;
    while (n--)
        *p++ = *q++;
    return d;
}
