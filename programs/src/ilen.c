/* ilen: instructions that trap without retiring, one of each length
 * encoding (unprivileged spec 1.5, "Base Instruction-Length Encoding"):
 *   16-bit  the all-zero parcel (defined illegal)
 *   32-bit  custom-0 (opcode 0x0b, rd = x0) and `unimp` (csrrw x0, cycle,
 *           x0: a legal encoding that traps, a write to a read-only CSR)
 *   48-bit  xxxxxxxxxx011111           64-bit  xxxxxxxxx0111111
 *   80-bit  nnn = 000 of x..xnnnxxxxx1111111 (>= 80 bits, the hart knows
 *           no such instruction)
 *   reserved  .word 0xffffffff: nnn = 111 is reserved for >= 192 bits; its
 *           length is unknown, so this program defines it as the 4-byte
 *           word it is (the handler cannot read a length from it).
 * The M-mode handler skips each by that length (mepc += len) and counts
 * it.  The traps sit where a trace encoder and decoder are busiest: first
 * instruction of a called function (implicit return after the trap), right
 * after a taken branch, two back to back, between lui/auipc and the jalr
 * they make sequentially inferable, and in loops whose branch history
 * repeats (HTM repeated history), each checked by a value computed around
 * it. */
#include "rt.h"

#define ROUNDS 40
enum { L16, L32, L48, L64, L80, LRSV, NLEN };
static unsigned seen[NLEN];

/* 1.5: the length from the first parcel; >= 192 bits: this program's word */
static unsigned trap_len(uint16_t lo, unsigned *kind)
{
    unsigned nnn = (lo >> 12) & 7;
    if ((lo & 3) != 3) return *kind = L16, 2;
    if ((lo & 0x1c) != 0x1c) return *kind = L32, 4;
    if (!(lo & 0x20)) return *kind = L48, 6;
    if (!(lo & 0x40)) return *kind = L64, 8;
    if (nnn != 7) return *kind = L80, 10 + 2 * nnn;
    return *kind = LRSV, 4;
}

void rt_trap(struct rt_frame *f)
{
    ureg cause = rt_csr_read(mcause);
    if (cause != 2)
        rt_exit(rt_report("ilen unexpected trap", cause, 0x70));
    unsigned kind;
    f->epc += trap_len(*(volatile uint16_t *)f->epc, &kind);
    seen[kind]++;
}

#define T16  ".2byte 0x0000\n"
#define T32  ".4byte 0x0000000b\n"
#define TUNIMP ".4byte 0xc0001073\n"
#define T48  ".2byte 0x001f, 0x0000, 0x0000\n"
#define T64  ".2byte 0x003f, 0x0000, 0x0000, 0x0000\n"
#define T80  ".2byte 0x007f, 0x0000, 0x0000, 0x0000, 0x0000\n"
#define TRSV ".4byte 0xffffffff\n"

/* Traps first thing in a function: the return after it is implicit. */
#define TRAP_FN(name, word) \
    __attribute__((noinline)) static ureg name(ureg x) \
    { __asm__ volatile(word ::: "memory"); return x * 3 + 1; }
TRAP_FN(f16, T16)
TRAP_FN(f32, T32)
TRAP_FN(f48, T48)
TRAP_FN(f64, T64)
TRAP_FN(f80, T80)
TRAP_FN(frsv, TRSV)

/* A trap after a taken branch (the beqz over the addi) and one right after
 * it: back to back, nothing retires in between. */
__attribute__((noinline)) static ureg after_branch(ureg x)
{
    __asm__ volatile("beqz %0, 1f\n addi %0, %0, 5\n1:\n" T48 TRSV "addi %0, %0, 7\n"
                     : "+r"(x) :: "memory");
    return x;
}

/* lui/auipc, a trap, then the jalr: the jump is no longer sequentially
 * inferable from the auipc across the trap (9.1 needs both in one span). */
__attribute__((noinline)) static ureg seq_jump(ureg x)
{
    __asm__ volatile("auipc t0, 0\n" T64 "jalr t1, 20(t0)\n"
                     ".2byte 0x0001, 0x0001\n"        /* c.nop x2, jumped over */
                     "addi %0, %0, 11\n"
                     : "+r"(x) :: "t0", "t1", "memory");
    return x;
}

/* A loop whose branch history repeats, a trap of each length inside. */
__attribute__((noinline)) static ureg loop(ureg x)
{
    for (unsigned i = 0; i < 8; i++) {
        x = x * 5 + i;
        if (i & 1)
            __asm__ volatile(T16 TUNIMP ::: "memory");
        else
            __asm__ volatile(T32 T80 ::: "memory");
    }
    return x;
}

int main(void)
{
    ureg acc = 1, want = 1;
    for (unsigned r = 0; r < ROUNDS; r++) {
        acc = f16(acc) ^ f32(r);
        acc += f48(acc) + f64(r) + f80(acc) + frsv(r);
        acc = after_branch(acc & 1) + seq_jump(acc) + loop(acc);
        want = (want * 3 + 1) ^ (r * 3 + 1);
        want += (want * 3 + 1) + (r * 3 + 1) + (want * 3 + 1) + (r * 3 + 1);
        ureg w = want, l = w;
        for (unsigned i = 0; i < 8; i++)
            l = l * 5 + i;
        want = ((w & 1) ? (w & 1) + 5 + 7 : 7) + (w + 11) + l;
    }
    int err = rt_expect(acc, want, 1);
    static const unsigned per_round[NLEN] = { 1 + 4, 1 + 8, 1 + 1, 1 + 1, 1 + 4, 1 + 1 };
    for (unsigned k = 0; k < NLEN && !err; k++)
        err = rt_expect(seen[k], per_round[k] * ROUNDS, 2 + (int)k);
    return rt_report("ilen", acc, err);
}
