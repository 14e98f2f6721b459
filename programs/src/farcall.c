/* farcall: calls that a jal cannot reach.  far_mix and far_leaf live in
 * .fartext, 16 MiB above the rest (link.ld), so every call between the two
 * regions is a two-instruction pair:
 *   - compiler `call` (medany): auipc ra + jalr ra, both directions
 *   - explicit auipc + jalr with %pcrel_hi/%pcrel_lo
 *   - a tail jump (`tail` = auipc t1 + jr t1) from a near trampoline
 *   - RV32 only: absolute lui + jalr with %hi/%lo (on RV64 lui sign-extends
 *     bit 31, so no lui value reaches 0x81000000)
 * Near code is called back from far code the same ways (auipc reaches
 * -16 MiB). */
#include "rt.h"

#define FAR __attribute__((section(".fartext"), noinline))

uint32_t far_mix(uint32_t x);
uint32_t far_tail_entry(uint32_t x);

static volatile unsigned near_calls;

__attribute__((noinline)) uint32_t near_step(uint32_t x)
{
    near_calls++;
    return x * 2654435761u + 1;
}

FAR static uint32_t far_leaf(uint32_t x)
{
    return (x << 7) ^ (x >> 3);
}

FAR uint32_t far_mix(uint32_t x)
{
    return far_leaf(near_step(x)) + 17;     /* far->near, far->far */
}

/* near trampoline that leaves by a tail jump to far code */
__asm__(".text\n"
        ".globl far_tail_entry\n"
        "far_tail_entry:\n"
        "    tail far_mix\n");

#define CALL_CLOBBERS "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", \
    "a1", "a2", "a3", "a4", "a5", "a6", "a7", "memory"

static uint32_t via_auipc(uint32_t x)
{
    register ureg a0 __asm__("a0") = x;
    __asm__ volatile("1: auipc ra, %%pcrel_hi(far_mix)\n"
                     "   jalr ra, %%pcrel_lo(1b)(ra)\n"
                     : "+r"(a0) : : CALL_CLOBBERS);
    return (uint32_t)a0;
}

#if __riscv_xlen == 32
static uint32_t via_lui(uint32_t x)
{
    register ureg a0 __asm__("a0") = x;
    __asm__ volatile("lui t0, %%hi(far_mix)\n"
                     "jalr ra, %%lo(far_mix)(t0)\n"
                     : "+r"(a0) : : CALL_CLOBBERS);
    return (uint32_t)a0;
}
#endif

static uint32_t ref(uint32_t x)
{
    x = x * 2654435761u + 1;
    return ((x << 7) ^ (x >> 3)) + 17;
}

int main(void)
{
    int err = rt_expect((ureg)far_mix - (ureg)main > (1u << 20), 1, 1);
    uint32_t a = 1, b = 1, c = 1, d = 1, r = 1;
    unsigned rounds = 200, per_round = 3;
    for (unsigned i = 0; i < rounds && !err; i++) {
        a = far_mix(a);
        b = via_auipc(b);
        c = far_tail_entry(c);
#if __riscv_xlen == 32
        d = via_lui(d);
#else
        d = ref(d);
#endif
        r = ref(r);
        err = rt_expect(a, r, 2);
        if (!err) err = rt_expect(b, r, 3);
        if (!err) err = rt_expect(c, r, 4);
        if (!err) err = rt_expect(d, r, 5);
    }
#if __riscv_xlen == 32
    per_round = 4;
#endif
    if (!err) err = rt_expect(near_calls, rounds * per_round, 6);
    return rt_report("farcall", r, err);
}
