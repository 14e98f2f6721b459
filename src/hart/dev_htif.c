/* Spike's host-target interface (riscv-isa-sim fesvr: htif.cc, device.cc,
 * syscall.cc), for binaries built for Spike (riscv-tests, its benchmarks,
 * riscv-pk programs).  The program's ELF symbols `tohost` and `fromhost`
 * name two 64-bit words in memory; a store that completes tohost (the one
 * writing its byte 7: `sd`, or on RV32 the upper `sw` that follows the
 * lower one, as GCC and riscv-tests' env write it) is a command:
 *   bits 63:56 device, 55:48 command, 47:0 payload.
 * Device 0 (syscall proxy): payload bit 0 set = exit with code payload>>1
 * (riscv-tests: 1 = pass, (TESTNUM << 1) | 1 = fail); otherwise payload is
 * the address of `magic_mem`, eight 64-bit words {syscall number, args...}:
 * write(64) to fd 1/2 goes to the console, exit(93) exits, anything else
 * returns -ENOSYS; the result goes to magic_mem[0] and fromhost gets the
 * response 1.  Device 1 (bcd, console) command 1: putchar(payload & 0xff),
 * response 0x100 | char.  The command is consumed at once: tohost reads 0
 * again (Spike polls between instruction batches; here the store that
 * issues the command is the point, so the run stops exactly there). */
#include "hart_int.h"

#define HTIF_DEV(v) ((unsigned)((v) >> 56))
#define HTIF_CMD(v) ((unsigned)((v) >> 48) & 0xff)
#define HTIF_PAYLOAD(v) ((v) & 0xffffffffffffull)
#define SYS_WRITE 64
#define SYS_EXIT 93
#define ENOSYS 38
#define EBADF 9
#define EFAULT 14

void hart_htif_init(rvt_hart *h, const rvt_image *img)
{
    uint64_t to, from;
    h->htif_lo = 0;
    if (!rvt_image_lookup(img, "tohost", &to) || !hart_mem_ptr(h, to, 8))
        return;
    h->htif_tohost = to;
    h->htif_fromhost = rvt_image_lookup(img, "fromhost", &from) && hart_mem_ptr(h, from, 8)
                           ? from : 0;
    h->htif_lo = to - 7;
    h->htif_on = true;
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static void put64(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, 8);
}

static void htif_exit(rvt_hart *h, uint64_t code)
{
    h->exit_code = (int)code;
    h->stop = RVT_HART_EXITED;
    hart_recheck(h);
}

/* Spike queues responses while fromhost is busy; one is enough here (a
 * program waits for each response before its next command). */
static void respond(rvt_hart *h, uint64_t cmd_bits, uint64_t resp)
{
    uint8_t *f = h->htif_fromhost ? hart_mem_ptr(h, h->htif_fromhost, 8) : NULL;
    if (f && get64(f) == 0)
        put64(f, (cmd_bits & ~0xffffffffffffull) | HTIF_PAYLOAD(resp));
}

static void console(rvt_hart *h, const char *buf, size_t n)
{
    if (h->cfg.console)
        h->cfg.console(h->cfg.console_ctx, buf, n);
}

static int64_t sys_write(rvt_hart *h, uint64_t fd, uint64_t buf, uint64_t len)
{
    if (fd != 1 && fd != 2)
        return -EBADF;
    const uint8_t *p = hart_mem_ptr(h, buf, len);
    if (!p)
        return -EFAULT;
    console(h, (const char *)p, (size_t)len);
    return (int64_t)len;
}

static void syscall_proxy(rvt_hart *h, uint64_t cmd)
{
    uint64_t payload = HTIF_PAYLOAD(cmd);
    if (payload & 1) {
        htif_exit(h, payload >> 1);
        return;
    }
    uint8_t *m = hart_mem_ptr(h, payload, 64);
    if (!m)
        return;   /* Spike would fault the host; nothing to answer */
    uint64_t n = get64(m), a0 = get64(m + 8), a1 = get64(m + 16), a2 = get64(m + 24);
    int64_t ret = -ENOSYS;
    if (n == SYS_WRITE)
        ret = sys_write(h, a0, a1, a2);
    else if (n == SYS_EXIT) {
        htif_exit(h, a0);
        return;
    }
    put64(m, (uint64_t)ret);
    respond(h, cmd, 1);
}

void hart_htif_store(rvt_hart *h, uint64_t addr, unsigned size)
{
    uint64_t last = h->htif_tohost + 7;
    if (!h->htif_on || addr > last || addr + size <= last)
        return;   /* no HTIF (htif_lo 0 matches stores at 0..14), or not the store completing tohost */
    uint8_t *t = hart_mem_ptr(h, h->htif_tohost, 8);
    uint64_t cmd = get64(t);
    if (!cmd)
        return;
    put64(t, 0);
    if (HTIF_DEV(cmd) == 0 && HTIF_CMD(cmd) == 0) {
        syscall_proxy(h, cmd);
    } else if (HTIF_DEV(cmd) == 1 && HTIF_CMD(cmd) == 1) {
        char c = (char)(cmd & 0xff);
        console(h, &c, 1);
        respond(h, cmd, 0x100 | (uint8_t)c);
    }
    /* other devices and commands (bcd read, disks): ignored, no response */
}
