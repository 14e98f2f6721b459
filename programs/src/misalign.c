/* misalign: misaligned accesses emulated by the trap handler, byte by byte
 * (privileged spec 3.1.15: cause 4 = load address misaligned, 6 = store/AMO
 * address misaligned).  The handler decodes the faulting instruction at
 * mepc (all accesses here are 32-bit encodings), performs it one byte at a
 * time, writes rd and skips it.  Covered: lh lhu lw lwu ld, sh sw sd,
 * lr.w lr.d, and the nine AMOs in .w and .d.
 * Platforms differ: the rvtrace hart traps on every misaligned access;
 * QEMU 7.2 performs plain loads and stores itself and traps only the
 * atomics.  The data checks are the same either way, and the trap count
 * must be either "atomics only" or "everything". */
#include "rt.h"

static uint8_t mem[64] __attribute__((aligned(16)));
static unsigned traps;

static uint64_t get_bytes(ureg addr, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)((volatile uint8_t *)addr)[i] << (8 * i);
    return v;
}

static void put_bytes(ureg addr, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        ((volatile uint8_t *)addr)[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t sext(uint64_t v, unsigned bytes)
{
    unsigned sh = 64 - 8 * bytes;
    return (uint64_t)((int64_t)(v << sh) >> sh);
}

/* funct5 of an AMO (unprivileged spec, "A" extension table) */
static uint64_t amo_op(unsigned f5, uint64_t old, uint64_t src, unsigned n)
{
    int64_t so = (int64_t)sext(old, n), ss = (int64_t)sext(src, n);
    uint64_t uo = old, us = n == 4 ? (uint32_t)src : src;
    switch (f5) {
    case 0x00: return old + src;                        /* amoadd */
    case 0x01: return src;                              /* amoswap */
    case 0x04: return old ^ src;                        /* amoxor */
    case 0x0c: return old & src;                        /* amoand */
    case 0x08: return old | src;                        /* amoor */
    case 0x10: return (uint64_t)(so < ss ? so : ss);    /* amomin */
    case 0x14: return (uint64_t)(so > ss ? so : ss);    /* amomax */
    case 0x18: return uo < us ? uo : us;                /* amominu */
    default:   return uo > us ? uo : us;                /* amomaxu */
    }
}

void rt_trap(struct rt_frame *f)
{
    ureg cause = rt_csr_read(mcause);
    uint32_t insn = (uint32_t)get_bytes(f->epc, 4);
    unsigned op = insn & 0x7f, f3 = (insn >> 12) & 7, rd = (insn >> 7) & 31;
    ureg base = f->x[(insn >> 15) & 31], src = f->x[(insn >> 20) & 31];
    uint64_t result = 0;
    if (cause != 4 && cause != 6)
        rt_exit(rt_report("misalign unexpected trap", cause, 0x70));
    if (op == 0x03) {                                   /* loads */
        ureg addr = base + (ureg)((int32_t)insn >> 20);
        unsigned n = 1u << (f3 & 3);
        result = get_bytes(addr, n);
        if (!(f3 & 4))
            result = sext(result, n);
    } else if (op == 0x23) {                            /* stores */
        int32_t imm = ((int32_t)(insn & 0xfe000000u) >> 20) |
                      (int32_t)((insn >> 7) & 31);
        put_bytes(base + (ureg)imm, src, 1u << (f3 & 3));
        rd = 0;
    } else if (op == 0x2f) {                            /* lr / AMOs */
        unsigned n = f3 == 2 ? 4 : 8, f5 = insn >> 27;
        uint64_t old = get_bytes(base, n);
        if (f5 != 0x02)                                 /* not lr */
            put_bytes(base, amo_op(f5, old, src, n), n);
        result = sext(old, n);
    } else {
        rt_exit(rt_report("misalign unknown insn", insn, 0x71));
    }
    if (rd)
        f->x[rd] = (ureg)result;
    traps++;
    f->epc += 4;
}

/* 32-bit encodings only, so the handler can always step 4 bytes */
#define LD(insn, off, p) __extension__({ ureg v_; __asm__ volatile( \
    ".option push\n.option norvc\n" insn " %0, " #off "(%1)\n.option pop" \
    : "=r"(v_) : "r"(p) : "memory"); v_; })
#define ST(insn, off, v, p) __asm__ volatile( \
    ".option push\n.option norvc\n" insn " %0, " #off "(%1)\n.option pop" \
    :: "r"(v), "r"(p) : "memory")
#define AMO(insn, v, p) __extension__({ ureg r_; __asm__ volatile( \
    ".option push\n.option norvc\n" insn " %0, %1, (%2)\n.option pop" \
    : "=r"(r_) : "r"(v), "r"(p) : "memory"); r_; })
#define LR(insn, p) __extension__({ ureg r_; __asm__ volatile( \
    ".option push\n.option norvc\n" insn " %0, (%1)\n.option pop" \
    : "=r"(r_) : "r"(p) : "memory"); r_; })

static void fill(void)
{
    for (unsigned i = 0; i < sizeof mem; i++)
        mem[i] = (uint8_t)(i * 37 + 0x85);      /* high bits set often */
}

#define M(off) ((ureg)mem + (off))
#define WANT(off, n) get_bytes(M(off), n)

static int plain(void)
{
    ureg p = M(8);
    int err = rt_expect(LD("lh", 1, p), sext(WANT(9, 2), 2), 1);
    if (!err) err = rt_expect(LD("lhu", 3, p), WANT(11, 2), 2);
    if (!err) err = rt_expect(LD("lw", 1, p), sext(WANT(9, 4), 4), 3);
    if (!err) err = rt_expect(LD("lw", 2, p), sext(WANT(10, 4), 4), 4);
    if (!err) err = rt_expect(LD("lwu", 3, p), WANT(11, 4), 5);
    if (!err) err = rt_expect(LD("ld", 5, p), WANT(13, 8), 6);
    if (!err) err = rt_expect(LD("ld", -3, p), WANT(5, 8), 7);
    ST("sh", 1, 0xbeef, p);
    ST("sw", 7, 0xcafef00d, p);
    ST("sd", 13, 0x0123456789abcdefull, p);
    if (!err) err = rt_expect(WANT(9, 2), 0xbeef, 8);
    if (!err) err = rt_expect(WANT(15, 4), 0xcafef00d, 9);
    if (!err) err = rt_expect(WANT(21, 8), 0x0123456789abcdefull, 10);
    return err;
}

static const char *const amo_names[9] = { "amoadd", "amoswap", "amoxor",
    "amoand", "amoor", "amomin", "amomax", "amominu", "amomaxu" };
static const unsigned amo_f5[9] = { 0x00, 0x01, 0x04, 0x0c, 0x08, 0x10,
                                    0x14, 0x18, 0x1c };

/* one AMO of each kind and width */
static ureg amo_one(unsigned k, int dbl, ureg v, ureg p)
{
#define CASE(i, name) case i: return dbl ? AMO(name ".d", v, p) \
                                          : AMO(name ".w", v, p)
    switch (k) {
    CASE(0, "amoadd"); CASE(1, "amoswap"); CASE(2, "amoxor");
    CASE(3, "amoand"); CASE(4, "amoor"); CASE(5, "amomin");
    CASE(6, "amomax"); CASE(7, "amominu"); default: break;
    }
    return dbl ? AMO("amomaxu.d", v, p) : AMO("amomaxu.w", v, p);
#undef CASE
}

static int atomics(void)
{
    int err = rt_expect(LR("lr.w", M(2)), sext(WANT(2, 4), 4), 20);
    if (!err) err = rt_expect(LR("lr.d", M(4)), WANT(4, 8), 21);
    for (unsigned k = 0; k < 9 && !err; k++)
        for (int dbl = 0; dbl < 2 && !err; dbl++) {
            unsigned n = dbl ? 8 : 4;
            unsigned off = 1 + 2 * k + 24 * (unsigned)dbl;   /* odd */
            ureg p = M(off);
            ureg v = 0x8000000180000003ull ^ ((ureg)k << 29);
            uint64_t old = WANT(off, n);
            uint64_t want_mem = amo_op(amo_f5[k], old, v, n);
            if (n == 4)
                want_mem = (uint32_t)want_mem;
            ureg got = amo_one(k, dbl, v, p);
            err = rt_expect(got, sext(old, n), 22 + k);
            if (!err) err = rt_expect(get_bytes(p, n), want_mem, 40 + k);
            if (err) {
                rt_puts(amo_names[k]);
                rt_putc('\n');
            }
        }
    return err;
}

/* The plain load/store path of the handler, exercised on any platform by
 * handing it a fake trap: mcause is written by hand and mepc (the frame's
 * epc) points at one of these assembled, never executed, instructions with
 * a0 = base, a1 = store value / load result. */
__asm__(".section .rodata\n.balign 4\n.option push\n.option norvc\n"
        "fake_insns:\n"
        "lh a1, 1(a0)\n lhu a1, 3(a0)\n lw a1, -1(a0)\n lwu a1, 2(a0)\n"
        "ld a1, 5(a0)\n sh a1, 3(a0)\n sw a1, -3(a0)\n sd a1, 7(a0)\n"
        ".option pop\n.text\n");
extern const uint32_t fake_insns[8];

static int fake_traps(void)
{
    static const signed char off[8] = { 1, 3, -1, 2, 5, 3, -3, 7 };
    static const unsigned char size[8] = { 2, 2, 4, 4, 8, 2, 4, 8 };
    struct rt_frame f = { { 0 }, 0, 0 };
    int err = 0;
    for (unsigned i = 0; i < 8 && !err; i++) {
        ureg at = M(24 + off[i]);
        int store = i >= 5;
        uint64_t v = 0xfedcba9876543210ull >> i, want;
        f.x[10] = M(24);
        f.x[11] = store ? v : 0;
        f.epc = (ureg)&fake_insns[i];
        want = store ? v & (~0ull >> (64 - 8 * size[i])) : WANT(24 + off[i],
                                                              size[i]);
        if (!store && (i == 0 || i == 2))
            want = sext(want, size[i]);                 /* lh, lw */
        rt_csr_write(mcause, store ? 6 : 4);
        rt_trap(&f);
        err = rt_expect(store ? get_bytes(at, size[i]) : f.x[11], want,
                        70 + i);
        if (!err) err = rt_expect(f.epc, (ureg)&fake_insns[i + 1], 80 + i);
    }
    return err;
}

int main(void)
{
    fill();
    int err = fake_traps();
    traps = 0;
    if (!err) err = plain();
    unsigned plain_traps = traps;
    if (!err) err = atomics();
    unsigned atomic_traps = traps - plain_traps;
    /* 7 loads + 3 stores; 2 lr + 18 AMOs */
    if (!err) err = rt_expect(atomic_traps, 20, 60);
    if (!err) err = rt_expect(plain_traps == 0 || plain_traps == 10, 1, 61);
    uint64_t sum = 0;
    for (unsigned i = 0; i < sizeof mem; i++)
        sum = sum * 31 + mem[i];
    return rt_report("misalign", sum, err);
}
