/* illegal: emulating instructions the hart does not implement.  Three
 * made-up R-type instructions in the custom-0 opcode space (0x0b, which
 * the base ISA reserves for extensions) trap as illegal (cause 2); the
 * handler decodes them, writes rd and skips them:
 *   funct3 0  cpop.add  rd = popcount(rs1) + rs2
 *   funct3 1  rotl32    rd = rs1[31:0] rotated left by rs2[4:0] (zero-ext.)
 *   funct3 2  minu      rd = min(rs1, rs2) unsigned
 * Also skipped: the 16-bit all-zero parcel (defined illegal) and `unimp`
 * (csrrw x0, cycle, x0: a write to a read-only CSR). */
#include "rt.h"

#define ROUNDS 300
static unsigned emulated, skipped;

static ureg popcount(ureg x)
{
    ureg n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

static ureg rotl32(ureg x, ureg s)
{
    uint32_t v = (uint32_t)x;
    s &= 31;
    return s ? (uint32_t)((v << s) | (v >> (32 - s))) : v;
}

void rt_trap(struct rt_frame *f)
{
    ureg cause = rt_csr_read(mcause);
    if (cause != 2)
        rt_exit(rt_report("illegal unexpected trap", cause, 0x70));
    uint16_t lo = *(volatile uint16_t *)f->epc;
    if (lo == 0) {                      /* c.unimp-style zero parcel */
        skipped++;
        f->epc += 2;
        return;
    }
    uint32_t insn = lo | (uint32_t)*(volatile uint16_t *)(f->epc + 2) << 16;
    if (insn == 0xc0001073u) {          /* unimp */
        skipped++;
        f->epc += 4;
        return;
    }
    if ((insn & 0x7f) != 0x0b)
        rt_exit(rt_report("illegal unknown insn", insn, 0x71));
    unsigned rd = (insn >> 7) & 31, f3 = (insn >> 12) & 7;
    ureg a = f->x[(insn >> 15) & 31], b = f->x[(insn >> 20) & 31], r;
    if (f3 == 0) r = popcount(a) + b;
    else if (f3 == 1) r = rotl32(a, b);
    else r = a < b ? a : b;
    if (rd)
        f->x[rd] = r;
    emulated++;
    f->epc += 4;
}

#define CUSTOM(f3, a, b) __extension__({ ureg r_; \
    __asm__ volatile(".insn r 0x0b, " #f3 ", 0, %0, %1, %2" \
                     : "=r"(r_) : "r"(a), "r"(b)); r_; })

int main(void)
{
    int err = 0;
    ureg x = 0x12345678, acc = 0;
    for (unsigned i = 0; i < ROUNDS && !err; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        ureg p = CUSTOM(0, x, i), q = CUSTOM(1, x, i), m = CUSTOM(2, x, acc);
        err = rt_expect(p, popcount(x) + i, 1);
        if (!err) err = rt_expect(q, rotl32(x, i), 2);
        if (!err) err = rt_expect(m, x < acc ? x : acc, 3);
        acc += p ^ q ^ m;
    }
    __asm__ volatile(".option push\n.option norvc\nunimp\n.option pop\n"
                     ".2byte 0\n" ::: "memory");
    if (!err) err = rt_expect(emulated, 3 * ROUNDS, 4);
    if (!err) err = rt_expect(skipped, 2, 5);
    return rt_report("illegal", acc, err);
}
