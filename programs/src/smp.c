/* smp: several harts (rvtrace run --harts N; QEMU -smp N).  Hart 0 counts
 * the harts in the device tree (/cpus/cpu@*), wakes the others with an
 * IPI (CLINT msip, ACLINT MSWI), and every hart then does K rounds of
 *   - a spinlock taken with amoswap.w.aq and released with amoswap.w.rl
 *     around a plain read-modify-write of a shared counter, and its own
 *     sum (hart i adds i+1 per round) into sums[i],
 * then K LR/SC adds to a second counter (retried when another hart's
 * store broke the reservation, unpriv 8.2), then K amoadd.w to a third.  A hart that
 * is done says so with amoadd on `done` and an IPI to hart 0, which waits
 * for them in wfi, then checks every counter: N*K each, sums[i] =
 * K*(i+1).  Timing: the interleaving depends on the scheduler; the
 * output line does not. */
#include "smp_rt.h"

#define K 300
#define MAX_HARTS 8


static volatile uint32_t lock;
static volatile uint64_t locked_count;
static volatile uint32_t lrsc_count;
static volatile uint32_t amo_count;
static volatile uint32_t done;
static volatile uint64_t sums[MAX_HARTS];

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Devicetree spec 5.4: count the nodes named cpu@... (FDT_BEGIN_NODE = 1,
 * END_NODE = 2, PROP = 3, NOP = 4, END = 9; names and values padded to 4). */
static unsigned count_cpus(const uint8_t *fdt)
{
    if (!fdt || be32(fdt) != 0xd00dfeed)
        return 1;
    const uint8_t *p = fdt + be32(fdt + 8);
    unsigned n = 0;
    for (;;) {
        uint32_t tok = be32(p);
        p += 4;
        if (tok == 1) {
            const char *name = (const char *)p;
            if (name[0] == 'c' && name[1] == 'p' && name[2] == 'u' && name[3] == '@')
                n++;
            unsigned len = 0;
            while (name[len])
                len++;
            p += (len + 4) & ~3u;
        } else if (tok == 3) {
            p += 8 + ((be32(p) + 3) & ~3u);
        } else if (tok != 2 && tok != 4) {
            break;
        }
    }
    return n ? n : 1;
}

static void spin_lock(void)
{
    uint32_t old;
    do
        __asm__ volatile("amoswap.w.aq %0, %1, (%2)" : "=r"(old) : "r"(1), "r"(&lock) : "memory");
    while (old);
}

static void spin_unlock(void)
{
    uint32_t old;
    __asm__ volatile("amoswap.w.rl %0, zero, (%1)" : "=r"(old) : "r"(&lock) : "memory");
}

static void lrsc_add(volatile uint32_t *p, uint32_t v)
{
    uint32_t old, fail;
    do
        __asm__ volatile("lr.w %0, (%2)\n\t"
                         "add %0, %0, %3\n\t"
                         "sc.w %1, %0, (%2)"
                         : "=&r"(old), "=&r"(fail) : "r"(p), "r"(v) : "memory");
    while (fail);
}

/* Three phases, so that the harts run the same tight loop together and
 * their LR/SC windows overlap (the lock keeps their first phases in step). */
static void work(ureg hart)
{
    for (unsigned i = 0; i < K; i++) {
        spin_lock();
        uint64_t c = locked_count;    /* not atomic: the lock keeps it right */
        locked_count = c + 1;
        spin_unlock();
        sums[hart] += hart + 1;
    }
    for (unsigned i = 0; i < K; i++)
        lrsc_add(&lrsc_count, 1);
    for (unsigned i = 0; i < K; i++)
        amo_add(&amo_count, 1);
}

void smp_secondary(ureg hart)
{
    rt_csr_set(mie, 1UL << RT_IRQ_MSI);   /* wfi wakes on it; MIE stays 0 */
    wait_ipi(hart);
    work(hart);
    amo_add(&done, 1);
    send_ipi(0);
}

int main(void)
{
    const ureg hart = 0;
    unsigned n = count_cpus(smp_fdt);
    if (n > MAX_HARTS)
        n = MAX_HARTS;
    rt_csr_set(mie, 1UL << RT_IRQ_MSI);
    for (unsigned i = 1; i < n; i++)
        send_ipi(i);
    work(hart);
    while (done != n - 1)
        wait_ipi(0);
    rt_csr_clear(mie, 1UL << RT_IRQ_MSI);
    int err = rt_expect(locked_count, (uint64_t)n * K, 1);
    if (!err) err = rt_expect(lrsc_count, n * K, 2);
    if (!err) err = rt_expect(amo_count, n * K, 3);
    for (unsigned i = 0; i < n && !err; i++)
        err = rt_expect(sums[i], (uint64_t)K * (i + 1), 4 + (int)i);
    return rt_report("smp", n << 16 | locked_count, err);
}
