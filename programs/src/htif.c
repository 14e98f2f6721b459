/* Spike's HTIF (host-target interface) as a program built for Spike uses
 * it (riscv-tests' env, riscv-pk, the benchmarks' syscalls.c):
 *   - tohost/fromhost: 64-bit words the host finds by ELF symbol;
 *     tohost = device << 56 | command << 48 | payload
 *   - device 1 (bcd) command 1: putchar, answered on fromhost
 *   - device 0 (syscall proxy): payload = the address of magic_mem
 *     {SYS_write = 64, fd, buf, len, ...}; the result comes back in
 *     magic_mem[0] and fromhost says done
 *   - exit: tohost = (code << 1) | 1
 * It also checks what Spike's reset vector leaves at entry: a0 = mhartid
 * (0) and a1 = the device tree address 0x1020 (the ROM's start + 32).
 * Output (HTIF only, never the UART): "bcd: ok", "write: ok", then the
 * exit code is the number of the first failed check (0 = all passed). */
#include "rt.h"

volatile uint64_t tohost __attribute__((aligned(64)));
volatile uint64_t fromhost __attribute__((aligned(64)));

#define HTIF(dev, cmd, payload) (((uint64_t)(dev) << 56) | ((uint64_t)(cmd) << 48) | (payload))
#define SYS_WRITE 64

static void set_tohost(uint64_t v)
{
    while (tohost)
        ;
    tohost = v;
}

/* riscv-pk's do_tohost_fromhost: wait (boundedly here) for the answer. */
static uint64_t wait_fromhost(void)
{
    for (int i = 0; i < 1000; i++) {
        uint64_t f = fromhost;
        if (f) {
            fromhost = 0;
            return f;
        }
    }
    return 0;
}

static int bcd_puts(const char *s)
{
    for (; *s; s++) {
        set_tohost(HTIF(1, 1, (uint8_t)*s));
        if (wait_fromhost() != HTIF(1, 1, 0x100 | (uint8_t)*s))
            return 1;
    }
    return 0;
}

static int sys_write(const char *s, size_t n)
{
    static volatile uint64_t magic_mem[8] __attribute__((aligned(64)));
    magic_mem[0] = SYS_WRITE;
    magic_mem[1] = 1;
    magic_mem[2] = (uintptr_t)s;
    magic_mem[3] = n;
    __asm__ volatile("fence" ::: "memory");
    set_tohost((uintptr_t)magic_mem);
    if (wait_fromhost() != 1)
        return 1;
    return magic_mem[0] != n;
}

__attribute__((noreturn)) static void htif_exit(int code)
{
    set_tohost(((uint64_t)code << 1) | 1);
    for (;;)
        ;
}

int main(ureg a0, ureg a1)
{
    static const char msg[] = "write: ok\n";
    int bad = 0;
    if (bcd_puts("bcd: ok\n"))
        bad = 1;
    else if (sys_write(msg, sizeof msg - 1))
        bad = 2;
    else if (a0 != 0)
        bad = 3;
    else if (a1 != 0x1020)
        bad = 4;
    htif_exit(bad);
}
