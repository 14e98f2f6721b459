/* fpu: F and D corner cases (unpriv ch. 11, 12), for comparing the hart
 * with QEMU.  Every operation runs over a table of special operands
 * (signed zeros, subnormals, the extremes, infinities, quiet and
 * signaling NaNs with payloads) in every rounding mode (dynamic, through
 * frm; the static encodings are checked against the dynamic ones); each
 * result and the fflags it raised go into a per-group FNV-1a hash that is
 * printed, so QEMU's output and the hart's must agree line by line.
 * Conversions run over values at the integer limits; a "random" group
 * runs fma/div/sqrt/conversions on random subnormal, tiny and huge
 * operands.  Also: NaN boxing
 * (an improperly boxed single reads as the canonical NaN; flw boxes),
 * mstatus.FS (Off: FP instructions and fcsr accesses are illegal; a write
 * makes it Dirty and sets SD), an invalid frm with a dynamic rm
 * (illegal), misa F and D.  A few results are checked against values
 * derived by hand from the spec (hand_checks). */
#include "rt.h"

#define FS_MASK (3UL << 13)
#define SD_BIT (1UL << (__riscv_xlen - 1))

static uint64_t group, total;
static volatile unsigned illegal_traps;
static volatile uint64_t illegal_tval;

/* FNV-1a style, one 64-bit word at a time (cheap on RV32 too) */
static void mix(uint64_t v)
{
    group = (group ^ v) * 0x100000001b3ull;
    group ^= group >> 29;
}

static void group_start(void) { group = 0xcbf29ce484222325ull; }

static void group_end(const char *name)
{
    rt_puts(name);
    rt_putc(' ');
    rt_puthex(group);
    rt_putc('\n');
    total ^= group;
    total *= 0x100000001b3ull;
}

/* Illegal instructions (FS off, frm invalid) are counted and skipped. */
void rt_trap(struct rt_frame *f)
{
    ureg cause = rt_csr_read(mcause);
    if (cause != 2)
        rt_exit(rt_report("fpu unexpected trap", cause, 0x70));
    illegal_traps++;
    illegal_tval = rt_csr_read(mtval);
    f->epc += rt_insn_len(f->epc);
}

static inline ureg fflags_take(void)
{
    ureg v;
    __asm__ volatile("csrrw %0, fflags, zero" : "=r"(v));
    return v;
}

static inline void set_frm(ureg rm) { __asm__ volatile("fsrm %0" :: "r"(rm)); }

static double bd(uint64_t b) { double d; __builtin_memcpy(&d, &b, 8); return d; }
static uint64_t db(double d) { uint64_t b; __builtin_memcpy(&b, &d, 8); return b; }
static float bs(uint32_t b) { float f; __builtin_memcpy(&f, &b, 4); return f; }
static uint32_t sb(float f) { uint32_t b; __builtin_memcpy(&b, &f, 4); return b; }

static const uint64_t dvals[] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff8000000000000ull,
    0x3fd5555555555555ull, 0x0000000000000001ull, 0x800fffffffffffffull, 0x0010000000000000ull,
    0x7fefffffffffffffull, 0xffefffffffffffffull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
    0x7ff8000000000000ull, 0x7ff4000000000123ull, 0xfff8000000000abcull, 0x001fffffff800000ull,
    0x3fe0000000400000ull, 0x3fefffffffffffffull,
};
static const uint32_t svals[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbfc00000, 0x3eaaaaab, 0x00000001, 0x807fffff, 0x00800000,
    0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00123, 0xffc00abc, 0x00fff800,
    0x3f000400, 0x4b800001,
};
/* conversion inputs: the integer limits and the rounding ties */
static const uint64_t cvals[] = {
    0x3fe0000000000000ull, 0x3ff8000000000000ull, 0x4004000000000000ull, 0xbfe0000000000000ull,
    0xbfe8000000000000ull, 0xc004000000000000ull, 0x41dfffffffc00000ull, 0x41dfffffffe00000ull,
    0x41e0000000000000ull, 0xc1e0000000000000ull, 0xc1e0000000200000ull, 0xc1e0000000100000ull,
    0x41efffffffe00000ull, 0x41f0000000000000ull, 0x43dfffffffffffffull, 0x43e0000000000000ull,
    0xc3e0000000000000ull, 0xc3e0000000000001ull, 0x43efffffffffffffull, 0x43f0000000000000ull,
    0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull, 0x7ff4000000000000ull,
    0x0000000000000001ull, 0x8000000000000001ull, 0x0000000000000000ull, 0x8000000000000000ull,
};
static const uint64_t ivals[] = {
    0, 1, (uint64_t)-1, 0x7fffffff, 0x80000000, 0xffffffff, 0x01000001, 0x7fffffffffffffffull,
    0x8000000000000000ull, 0x8000000000000001ull, 0xffffffffffffffffull, 0x0020000000000001ull,
    0x0020000000000003ull, 0x00ffffff80000000ull, 0x123456789abcdef1ull, 0xfedcba9876543210ull,
};
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- one instruction each, dynamic rounding ---- */
#define D2(fn, insn) static uint64_t fn(uint64_t a, uint64_t b) { double r; \
    __asm__ volatile(insn " %0, %1, %2" : "=f"(r) : "f"(bd(a)), "f"(bd(b))); return db(r); }
#define S2(fn, insn) static uint64_t fn(uint64_t a, uint64_t b) { float r; \
    __asm__ volatile(insn " %0, %1, %2" : "=f"(r) : "f"(bs(a)), "f"(bs(b))); return sb(r); }
#define D2X(fn, insn) static uint64_t fn(uint64_t a, uint64_t b) { ureg r; \
    __asm__ volatile(insn " %0, %1, %2" : "=r"(r) : "f"(bd(a)), "f"(bd(b))); return r; }
#define S2X(fn, insn) static uint64_t fn(uint64_t a, uint64_t b) { ureg r; \
    __asm__ volatile(insn " %0, %1, %2" : "=r"(r) : "f"(bs(a)), "f"(bs(b))); return r; }
D2(fadd_d, "fadd.d") D2(fsub_d, "fsub.d") D2(fmul_d, "fmul.d") D2(fdiv_d, "fdiv.d")
D2(fmin_d, "fmin.d") D2(fmax_d, "fmax.d") D2(fsgnj_d, "fsgnj.d") D2(fsgnjn_d, "fsgnjn.d")
D2(fsgnjx_d, "fsgnjx.d")
S2(fadd_s, "fadd.s") S2(fsub_s, "fsub.s") S2(fmul_s, "fmul.s") S2(fdiv_s, "fdiv.s")
S2(fmin_s, "fmin.s") S2(fmax_s, "fmax.s") S2(fsgnj_s, "fsgnj.s") S2(fsgnjn_s, "fsgnjn.s")
S2(fsgnjx_s, "fsgnjx.s")
D2X(feq_d, "feq.d") D2X(flt_d, "flt.d") D2X(fle_d, "fle.d")
S2X(feq_s, "feq.s") S2X(flt_s, "flt.s") S2X(fle_s, "fle.s")

#define D3(fn, insn) static uint64_t fn(uint64_t a, uint64_t b, uint64_t c) { double r; \
    __asm__ volatile(insn " %0, %1, %2, %3" : "=f"(r) : "f"(bd(a)), "f"(bd(b)), "f"(bd(c))); return db(r); }
#define S3(fn, insn) static uint64_t fn(uint64_t a, uint64_t b, uint64_t c) { float r; \
    __asm__ volatile(insn " %0, %1, %2, %3" : "=f"(r) : "f"(bs(a)), "f"(bs(b)), "f"(bs(c))); return sb(r); }
D3(fmadd_d, "fmadd.d") D3(fmsub_d, "fmsub.d") D3(fnmsub_d, "fnmsub.d") D3(fnmadd_d, "fnmadd.d")
S3(fmadd_s, "fmadd.s") S3(fmsub_s, "fmsub.s") S3(fnmsub_s, "fnmsub.s") S3(fnmadd_s, "fnmadd.s")

#define D1(fn, insn, out, ot, in, it, conv) static uint64_t fn(uint64_t a) { ot r; \
    __asm__ volatile(insn " %0, %1" : out(r) : in((it)conv(a))); return (uint64_t)from_##ot(r); }
static uint64_t from_double(double d) { return db(d); }
static uint64_t from_float(float f) { return sb(f); }
static uint64_t from_ureg(ureg r) { return r; }
#define ID(x) (x)
D1(fsqrt_d, "fsqrt.d", "=f", double, "f", double, bd)
D1(fsqrt_s, "fsqrt.s", "=f", float, "f", float, bs)
D1(fclass_d, "fclass.d", "=r", ureg, "f", double, bd)
D1(fclass_s, "fclass.s", "=r", ureg, "f", float, bs)
D1(fcvt_s_d, "fcvt.s.d", "=f", float, "f", double, bd)
D1(fcvt_d_s, "fcvt.d.s", "=f", double, "f", float, bs)
D1(fcvt_w_d, "fcvt.w.d", "=r", ureg, "f", double, bd)
D1(fcvt_wu_d, "fcvt.wu.d", "=r", ureg, "f", double, bd)
D1(fcvt_w_s, "fcvt.w.s", "=r", ureg, "f", float, bs)
D1(fcvt_wu_s, "fcvt.wu.s", "=r", ureg, "f", float, bs)
D1(fcvt_d_w, "fcvt.d.w", "=f", double, "r", ureg, ID)
D1(fcvt_d_wu, "fcvt.d.wu", "=f", double, "r", ureg, ID)
D1(fcvt_s_w, "fcvt.s.w", "=f", float, "r", ureg, ID)
D1(fcvt_s_wu, "fcvt.s.wu", "=f", float, "r", ureg, ID)
D1(fmv_x_w, "fmv.x.w", "=r", ureg, "f", float, bs)
D1(fmv_w_x, "fmv.w.x", "=f", float, "r", ureg, ID)
#if __riscv_xlen == 64
D1(fcvt_l_d, "fcvt.l.d", "=r", ureg, "f", double, bd)
D1(fcvt_lu_d, "fcvt.lu.d", "=r", ureg, "f", double, bd)
D1(fcvt_l_s, "fcvt.l.s", "=r", ureg, "f", float, bs)
D1(fcvt_lu_s, "fcvt.lu.s", "=r", ureg, "f", float, bs)
D1(fcvt_d_l, "fcvt.d.l", "=f", double, "r", ureg, ID)
D1(fcvt_d_lu, "fcvt.d.lu", "=f", double, "r", ureg, ID)
D1(fcvt_s_l, "fcvt.s.l", "=f", float, "r", ureg, ID)
D1(fcvt_s_lu, "fcvt.s.lu", "=f", float, "r", ureg, ID)
#endif

typedef uint64_t (*op1)(uint64_t);
typedef uint64_t (*op2)(uint64_t, uint64_t);
typedef uint64_t (*op3)(uint64_t, uint64_t, uint64_t);

static void record(uint64_t r)
{
    mix(r ^ ((uint64_t)fflags_take() << 59));
}

static void run2(const char *name, op2 f, const uint64_t *v, unsigned n, int rms)
{
    group_start();
    for (int rm = 0; rm < rms; rm++) {
        set_frm((ureg)rm);
        for (unsigned i = 0; i < n; i++)
            for (unsigned j = 0; j < n; j++)
                record(f(v[i], v[j]));
    }
    set_frm(0);
    group_end(name);
}

static void run1(const char *name, op1 f, const uint64_t *v, unsigned n, int rms)
{
    group_start();
    for (int rm = 0; rm < rms; rm++) {
        set_frm((ureg)rm);
        for (unsigned i = 0; i < n; i++)
            record(f(v[i]));
    }
    set_frm(0);
    group_end(name);
}

/* fused multiply-add over 8 operands (0, -0, 1, -1.5, 1/3, the smallest
 * subnormal, the smallest normal, max) in every mode; the negated forms
 * give the other signs */
static const unsigned fma_idx[] = { 0, 1, 2, 3, 4, 5, 7, 8 };

static void run3(const char *name, op3 f, const uint64_t *v)
{
    group_start();
    for (int rm = 0; rm < 5; rm++) {
        set_frm((ureg)rm);
        for (unsigned i = 0; i < 8; i++)
            for (unsigned j = 0; j < 8; j++)
                for (unsigned k = 0; k < 8; k++)
                    record(f(v[fma_idx[i]], v[fma_idx[j]], v[fma_idx[k]]));
    }
    set_frm(0);
    group_end(name);
}

static uint64_t sv64[N(svals)], cv_s[N(cvals)];

/* static rounding modes give what the same mode in frm gives */
#define STATIC_RM(rmname, rmnum) do { \
    double r_; float q_; \
    __asm__ volatile("fdiv.d %0, %1, %2, " rmname : "=f"(r_) : "f"(bd(a)), "f"(bd(b))); \
    mix(db(r_)); mix(fflags_take()); \
    __asm__ volatile("fdiv.s %0, %1, %2, " rmname : "=f"(q_) : "f"(bs(c)), "f"(bs(d))); \
    mix(sb(q_)); mix(fflags_take()); \
    set_frm(rmnum); err |= rt_expect(db(r_), fdiv_d(a, b), 0x40 + rmnum); \
    err |= rt_expect(sb(q_), fdiv_s(c, d), 0x48 + rmnum); fflags_take(); set_frm(0); \
} while (0)

static int static_modes(void)
{
    int err = 0;
    uint64_t a = 0x3ff0000000000000ull, b = 0xc008000000000000ull;   /* 1 / -3 */
    uint64_t c = 0x3f800000, d = 0xc0400000;
    group_start();
    STATIC_RM("rne", 0);
    STATIC_RM("rtz", 1);
    STATIC_RM("rdn", 2);
    STATIC_RM("rup", 3);
    STATIC_RM("rmm", 4);
    group_end("static-rm");
    return err;
}

/* Random operands (xorshift64, fixed seed) biased to the hard cases:
 * subnormals, tiny and huge normals, and random significands, so that the
 * sticky bits of fma/div/sqrt and the subnormal rounding are exercised
 * beyond the special-value table. */
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static uint64_t rnd_double(void)
{
    uint64_t r = rnd(), keep = r & 0x800fffffffffffffull;
    switch (r >> 61) {
    case 0: return keep;                                        /* subnormal */
    case 1: return keep | ((1 + ((r >> 52) & 7)) << 52);        /* tiny normal */
    case 2: return keep | ((0x7f8 + ((r >> 52) & 7)) << 52);    /* huge */
    default: return keep | ((0x3c0 + ((r >> 52) & 0x7f)) << 52);
    }
}

static void random_ops(void)
{
    group_start();
    for (unsigned i = 0; i < 1000; i++) {
        uint64_t a = rnd_double(), b = rnd_double(), c = rnd_double();
        uint64_t sa = (uint32_t)(a >> 29), sb = (uint32_t)(b >> 29), sc = (uint32_t)(c >> 29);
        set_frm(i % 5);
        record(fmadd_d(a, b, c));
        record(fdiv_d(a, b));
        record(fsqrt_d(a & ~(1ull << 63)));
        record(fadd_d(a, c));
        record(fmul_d(a, b));
        record(fmsub_s(sa, sb, sc));
        record(fdiv_s(sa, sb));
        record(fsqrt_s(sb));
        record(fmul_s(sa, sc));
        record(fcvt_s_d(a));
        record(fcvt_w_d(a));
        record(fcvt_d_w(a));
    }
    set_frm(0);
    group_end("random");
}

/* NaN boxing (12.2): a single operand whose upper 32 bits are not all
 * ones reads as the canonical NaN; flw and fmv.w.x box; fsw and fmv.x.w
 * move the low bits as they are. */
static int boxing(void)
{
    int err = 0;
    static volatile uint64_t mem[4];
    mem[0] = 0x000000003f800000ull;     /* 1.0f, not boxed */
    mem[1] = 0xffffffff3f800000ull;     /* 1.0f, boxed */
    mem[2] = 0;
    __asm__ volatile("fld ft0, 0(%0)\n\tfadd.s ft1, ft0, ft0\n\tfsd ft1, 16(%0)"
                     :: "r"(mem) : "ft0", "ft1", "memory");
    err |= rt_expect(mem[2], 0xffffffff7fc00000ull, 0x50);
    __asm__ volatile("fld ft0, 8(%0)\n\tfadd.s ft1, ft0, ft0\n\tfsd ft1, 16(%0)"
                     :: "r"(mem) : "ft0", "ft1", "memory");
    err |= rt_expect(mem[2], 0xffffffff40000000ull, 0x51);
    mem[3] = 0x1234567800000000ull;
    __asm__ volatile("flw ft0, 28(%0)\n\tfsd ft0, 16(%0)" :: "r"(mem) : "ft0", "memory");
    err |= rt_expect(mem[2], 0xffffffff12345678ull, 0x52);
    ureg x;
    __asm__ volatile("fld ft0, 0(%1)\n\tfmv.x.w %0, ft0\n\tfsw ft0, 16(%1)"
                     : "=r"(x) : "r"(mem) : "ft0", "memory");
    err |= rt_expect(x, 0x3f800000, 0x53);
    err |= rt_expect((uint32_t)mem[2], 0x3f800000, 0x54);
    mix(fflags_take());
    return err;
}

/* mstatus.FS (priv 3.1.6.6) and frm (11.2). */
static int fs_rules(void)
{
    int err = 0;
    err |= rt_expect((rt_csr_read(misa) >> 3) & 5, 5, 0x60);   /* D (3) and F (5) */
    rt_csr_clear(mstatus, FS_MASK);
    unsigned before = illegal_traps;
    __asm__ volatile("fadd.d ft0, ft1, ft2" ::: "ft0");
    __asm__ volatile("csrr t0, fflags" ::: "t0");
    __asm__ volatile("csrw fcsr, zero");
    __asm__ volatile("fmv.x.w t0, ft0" ::: "t0");
    err |= rt_expect(illegal_traps - before, 4, 0x61);
    err |= rt_expect(illegal_tval, 0xe0000053ul | (5u << 7), 0x62);   /* fmv.x.w t0, ft0 */
    rt_csr_set(mstatus, 1UL << 13);      /* Initial */
    __asm__ volatile("fadd.d ft0, ft1, ft2" ::: "ft0");
    ureg st = rt_csr_read(mstatus);
    err |= rt_expect(st & (FS_MASK | SD_BIT), FS_MASK | SD_BIT, 0x63);
    /* frm 5..7 with a dynamic rm: illegal; with a static rm: fine */
    before = illegal_traps;
    set_frm(5);
    __asm__ volatile("fadd.d ft0, ft1, ft2" ::: "ft0");
    __asm__ volatile("fadd.d ft0, ft1, ft2, rtz" ::: "ft0");
    set_frm(7);
    __asm__ volatile(".word 0x4200f053" ::: "ft0");   /* fcvt.d.s ft0, ft1, dyn */
    set_frm(0);
    err |= rt_expect(illegal_traps - before, 2, 0x64);
    return err;
}

/* Results derived by hand from the spec. */
static int hand_checks(void)
{
    int err = 0;
    fflags_take();
    set_frm(0);
    err |= rt_expect(fdiv_d(0x3ff0000000000000ull, 0x4008000000000000ull), 0x3fd5555555555555ull, 0x10);
    err |= rt_expect(fflags_take(), 1, 0x11);                                      /* NX */
    set_frm(3);
    err |= rt_expect(fdiv_d(0x3ff0000000000000ull, 0x4008000000000000ull), 0x3fd5555555555556ull, 0x12);
    set_frm(1);
    err |= rt_expect(fdiv_s(0x3f800000, 0x40400000), 0x3eaaaaaa, 0x13);
    set_frm(0);
    err |= rt_expect(fdiv_s(0x3f800000, 0x40400000), 0x3eaaaaab, 0x14);
    /* 2.5 to integer: RNE 2, RMM 3 */
    err |= rt_expect(fcvt_w_d(0x4004000000000000ull), 2, 0x15);
    set_frm(4);
    err |= rt_expect(fcvt_w_d(0x4004000000000000ull), 3, 0x16);
    set_frm(0);
    fflags_take();
    /* table 11.4: NaN -> 2^31-1, NV only; -1 -> 0 for wu */
    err |= rt_expect(fcvt_w_d(0x7ff8000000000000ull), 0x7fffffff, 0x17);
    err |= rt_expect(fflags_take(), 16, 0x18);
    err |= rt_expect(fcvt_wu_d(0xbff0000000000000ull), 0, 0x19);
    err |= rt_expect(fflags_take(), 16, 0x1a);
    /* fcvt.wu of 2^32-1 is sign-extended on RV64 */
    err |= rt_expect(fcvt_wu_d(0x41efffffffe00000ull), (ureg)-1, 0x1b);
    /* 2.2 fmin: a quiet NaN operand gives the other one, no flags; a
     * signaling one raises NV; -0 < +0 */
    err |= rt_expect(fmin_d(0x7ff8000000000000ull, 0x3ff0000000000000ull), 0x3ff0000000000000ull, 0x1c);
    err |= rt_expect(fflags_take(), 0, 0x1d);
    err |= rt_expect(fmin_d(0x7ff4000000000000ull, 0x3ff0000000000000ull), 0x3ff0000000000000ull, 0x1e);
    err |= rt_expect(fflags_take(), 16, 0x1f);
    err |= rt_expect(fmin_d(0, 0x8000000000000000ull), 0x8000000000000000ull, 0x20);
    err |= rt_expect(fmax_d(0x8000000000000000ull, 0), 0, 0x21);
    err |= rt_expect(fmax_s(0x7fa00000, 0x7fc00001), 0x7fc00000, 0x22);   /* both NaN: canonical */
    fflags_take();
    /* 11.2: tininess after rounding.  (2 - 2^-29) 2^-1022 * (1 + 2^-30) / 2
     * = 2^-1022 (1 - 2^-60) rounds (53 bits, unbounded exponent) to
     * 2^-1022: not tiny, so NX without UF */
    err |= rt_expect(fmul_d(0x001fffffff800000ull, 0x3fe0000000400000ull), 0x0010000000000000ull, 0x23);
    err |= rt_expect(fflags_take(), 1, 0x24);
    err |= rt_expect(fmul_s(0x00fff800, 0x3f000400), 0x00800000, 0x25);
    err |= rt_expect(fflags_take(), 1, 0x26);
    /* 2^-1074 * 0.5: a tie between 0 and 2^-1074, RNE gives 0 with UF NX */
    err |= rt_expect(fmul_d(1, 0x3fe0000000000000ull), 0, 0x27);
    err |= rt_expect(fflags_take(), 3, 0x28);
    /* x - x = -0 only in RDN */
    set_frm(2);
    err |= rt_expect(fsub_d(0x3ff0000000000000ull, 0x3ff0000000000000ull), 0x8000000000000000ull, 0x29);
    set_frm(0);
    err |= rt_expect(fsub_d(0x3ff0000000000000ull, 0x3ff0000000000000ull), 0, 0x2a);
    /* 11.6: inf * 0 + qNaN is invalid */
    fflags_take();
    err |= rt_expect(fmadd_d(0x7ff0000000000000ull, 0, 0x7ff8000000000000ull), 0x7ff8000000000000ull, 0x2b);
    err |= rt_expect(fflags_take(), 16, 0x2c);
    /* fclass: -0 is bit 3, a signaling NaN bit 8 */
    err |= rt_expect(fclass_d(0x8000000000000000ull), 1 << 3, 0x2d);
    err |= rt_expect(fclass_s(0x7fa00123), 1 << 8, 0x2e);
#if __riscv_xlen == 64
    /* fcvt.l.d of 2^63 saturates with NV; of -2^63 it is exact */
    err |= rt_expect(fcvt_l_d(0x43e0000000000000ull), 0x7fffffffffffffffull, 0x2f);
    err |= rt_expect(fflags_take(), 16, 0x30);
    err |= rt_expect(fcvt_l_d(0xc3e0000000000000ull), 0x8000000000000000ull, 0x31);
    err |= rt_expect(fflags_take(), 0, 0x32);
#endif
    return err;
}

/* Called only after FS is on: no FP instruction may be scheduled before. */
__attribute__((noinline)) static int run_all(void)
{
    for (unsigned i = 0; i < N(svals); i++)
        sv64[i] = svals[i];
    for (unsigned i = 0; i < N(cvals); i++)
        cv_s[i] = fcvt_s_d(cvals[i]);
    fflags_take();
    int err = hand_checks();
    run2("fadd.d", fadd_d, dvals, N(dvals), 5);
    run2("fsub.d", fsub_d, dvals, N(dvals), 5);
    run2("fmul.d", fmul_d, dvals, N(dvals), 5);
    run2("fdiv.d", fdiv_d, dvals, N(dvals), 5);
    run2("fadd.s", fadd_s, sv64, N(svals), 5);
    run2("fsub.s", fsub_s, sv64, N(svals), 5);
    run2("fmul.s", fmul_s, sv64, N(svals), 5);
    run2("fdiv.s", fdiv_s, sv64, N(svals), 5);
    run2("fmin.d", fmin_d, dvals, N(dvals), 1);
    run2("fmax.d", fmax_d, dvals, N(dvals), 1);
    run2("fmin.s", fmin_s, sv64, N(svals), 1);
    run2("fmax.s", fmax_s, sv64, N(svals), 1);
    run2("fsgnj.d", fsgnj_d, dvals, N(dvals), 1);
    run2("fsgnjn.d", fsgnjn_d, dvals, N(dvals), 1);
    run2("fsgnjx.d", fsgnjx_d, dvals, N(dvals), 1);
    run2("fsgnj.s", fsgnj_s, sv64, N(svals), 1);
    run2("fsgnjn.s", fsgnjn_s, sv64, N(svals), 1);
    run2("fsgnjx.s", fsgnjx_s, sv64, N(svals), 1);
    run2("feq.d", feq_d, dvals, N(dvals), 1);
    run2("flt.d", flt_d, dvals, N(dvals), 1);
    run2("fle.d", fle_d, dvals, N(dvals), 1);
    run2("feq.s", feq_s, sv64, N(svals), 1);
    run2("flt.s", flt_s, sv64, N(svals), 1);
    run2("fle.s", fle_s, sv64, N(svals), 1);
    run3("fmadd.d", fmadd_d, dvals);
    run3("fmsub.d", fmsub_d, dvals);
    run3("fnmsub.d", fnmsub_d, dvals);
    run3("fnmadd.d", fnmadd_d, dvals);
    run3("fmadd.s", fmadd_s, sv64);
    run3("fmsub.s", fmsub_s, sv64);
    run3("fnmsub.s", fnmsub_s, sv64);
    run3("fnmadd.s", fnmadd_s, sv64);
    run1("fsqrt.d", fsqrt_d, dvals, N(dvals), 5);
    run1("fsqrt.s", fsqrt_s, sv64, N(svals), 5);
    run1("fclass.d", fclass_d, dvals, N(dvals), 1);
    run1("fclass.s", fclass_s, sv64, N(svals), 1);
    run1("fcvt.s.d", fcvt_s_d, dvals, N(dvals), 5);
    run1("fcvt.s.d-lim", fcvt_s_d, cvals, N(cvals), 5);
    run1("fcvt.d.s", fcvt_d_s, sv64, N(svals), 1);
    run1("fcvt.w.d", fcvt_w_d, cvals, N(cvals), 5);
    run1("fcvt.wu.d", fcvt_wu_d, cvals, N(cvals), 5);
    run1("fcvt.w.s", fcvt_w_s, cv_s, N(cvals), 5);
    run1("fcvt.wu.s", fcvt_wu_s, cv_s, N(cvals), 5);
    run1("fcvt.d.w", fcvt_d_w, ivals, N(ivals), 5);
    run1("fcvt.d.wu", fcvt_d_wu, ivals, N(ivals), 5);
    run1("fcvt.s.w", fcvt_s_w, ivals, N(ivals), 5);
    run1("fcvt.s.wu", fcvt_s_wu, ivals, N(ivals), 5);
    run1("fmv.x.w", fmv_x_w, sv64, N(svals), 1);
    run1("fmv.w.x", fmv_w_x, ivals, N(ivals), 1);
#if __riscv_xlen == 64
    run1("fcvt.l.d", fcvt_l_d, cvals, N(cvals), 5);
    run1("fcvt.lu.d", fcvt_lu_d, cvals, N(cvals), 5);
    run1("fcvt.l.s", fcvt_l_s, cv_s, N(cvals), 5);
    run1("fcvt.lu.s", fcvt_lu_s, cv_s, N(cvals), 5);
    run1("fcvt.d.l", fcvt_d_l, ivals, N(ivals), 5);
    run1("fcvt.d.lu", fcvt_d_lu, ivals, N(ivals), 5);
    run1("fcvt.s.l", fcvt_s_l, ivals, N(ivals), 5);
    run1("fcvt.s.lu", fcvt_s_lu, ivals, N(ivals), 5);
#endif
    random_ops();
    err |= static_modes();
    err |= boxing();
    err |= fs_rules();
    return rt_report("fpu", total, err);
}

int main(void)
{
    rt_csr_set(mstatus, 1UL << 13);     /* FS = Initial: crt0 leaves it Off */
    __asm__ volatile("csrwi fcsr, 0");
    return run_all();
}
