/* The F and D extensions (unpriv 20191213 ch. 11 "F", ch. 12 "D").
 * Results are exact: add, sub, mul, div, fused multiply-add and sqrt are
 * computed by the host in a wider format (binary128, or the x87 80-bit
 * format for sqrt) rounding toward zero, with the inexact flag folded into
 * the lowest bit ("round to odd": at least 2 more bits than the target, so
 * a second rounding is exact); fp_round_pack then rounds to binary32/64 in
 * the instruction's mode with tininess after rounding.  The host supplies
 * only exact-or-sticky intermediate values and the invalid and
 * divide-by-zero flags; NaN inputs, conversions, compares, min/max and
 * sign injection are integer code. */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include "hart_int.h"
#include "fp_round.h"

#if !defined(__SIZEOF_FLOAT128__) || LDBL_MANT_DIG < 64
#error "the FPU needs __float128 and a long double of at least 64 significand bits"
#endif
__extension__ typedef __float128 fwide;

/* ---- register file: NaN boxing (12.2) ---- */

/* A single operand: the low half of a properly boxed register, else the
 * canonical NaN (12.2: "improperly NaN-boxed ... as if canonical NaN"). */
static uint64_t opnd(const rvt_hart *h, unsigned r, bool dbl)
{
    uint64_t v = h->f[r];
    if (dbl)
        return v;
    return (v >> 32) == 0xffffffffu ? (uint32_t)v : FP_CANON_S;
}

static void write_f(rvt_hart *h, unsigned r, uint64_t v, bool dbl)
{
    h->f[r] = dbl ? v : v | 0xffffffff00000000ull;
    hart_fs_dirty(h);
}

/* An integer result: sign-extended to 64 bits by the caller where the
 * spec says so; RV32 registers hold zero-extended 32-bit values. */
static void write_x(rvt_hart *h, unsigned r, uint64_t v)
{
    if (r)
        h->x[r] = h->xlen == 32 ? (uint32_t)v : v;
}

static void accrue(rvt_hart *h, unsigned flags)
{
    if (flags) {
        h->fcsr |= flags;
        hart_fs_dirty(h);
    }
}

/* ---- the wide host computation ---- */

enum { W_ADD, W_SUB, W_MUL, W_DIV, W_SQRT, W_FMA };

static fwide to_wide(uint64_t b, bool dbl)
{
    if (dbl) {
        double d;
        memcpy(&d, &b, sizeof d);
        return d;
    }
    uint32_t w = (uint32_t)b;
    float f;
    memcpy(&f, &w, sizeof f);
    return f;
}

/* One operation in the host rounding mode `mode`; the volatile accesses
 * keep it between the mode switch and the flag read. */
static fwide wide_op(unsigned k, fwide a, fwide b, fwide c, int mode, int *ex)
{
    volatile fwide va = a, vb = b, vc = c, r;
    fesetround(mode);
    feclearexcept(FE_ALL_EXCEPT);
    switch (k) {
    case W_ADD: r = va + vb; break;
    case W_SUB: r = va - vb; break;
    case W_MUL: r = va * vb; break;
    case W_DIV: r = va / vb; break;
    case W_SQRT: r = (fwide)sqrtl((long double)va); break;   /* va is a double: exact */
    default: r = va * vb + vc; break;    /* the product of two doubles is exact in binary128 */
    }
    *ex = fetestexcept(FE_ALL_EXCEPT);
    fesetround(FE_TONEAREST);
    return r;
}

/* A finite or infinite wide value rounded to the format; `sticky`: the
 * wide value was truncated. */
static uint64_t wide_pack(fwide r, bool dbl, bool sticky, unsigned rm, unsigned *fl)
{
    fp_u128 b;
    memcpy(&b, &r, sizeof b);
    bool sign = (unsigned)(b >> 127);
    unsigned ex = (unsigned)(b >> 112) & 0x7fff;
    fp_u128 m = b & (((fp_u128)1 << 112) - 1);
    uint64_t sbit = sign ? fp_sign_bit(dbl) : 0;
    if (ex == 0x7fff)
        return sbit | (((1ull << fp_ebits(dbl)) - 1) << (fp_prec(dbl) - 1));
    if (ex)
        m |= (fp_u128)1 << 112;
    m |= sticky;
    return fp_round_pack(dbl, sign, m, (int)(ex ? ex : 1) - 16383 - 112, rm, fl);
}

static bool is_zero(uint64_t b, bool dbl) { return (b & ~fp_sign_bit(dbl)) == 0; }

/* add/sub/mul/div/sqrt/fma on the operand bits a, b, c. */
static uint64_t arith(unsigned k, bool dbl, uint64_t a, uint64_t b, uint64_t c,
                      unsigned rm, unsigned *fl)
{
    unsigned n = k == W_SQRT ? 1 : k == W_FMA ? 3 : 2;
    uint64_t in[3] = { a, b, c };
    bool nan = false;
    for (unsigned i = 0; i < n; i++) {
        nan |= fp_is_nan(in[i], dbl);
        if (fp_is_snan(in[i], dbl))
            *fl |= FPF_NV;
    }
    /* 11.6: inf * 0 in a fused multiply-add is invalid even when the
     * addend is a quiet NaN */
    if (k == W_FMA && ((fp_is_inf(a, dbl) && is_zero(b, dbl)) || (is_zero(a, dbl) && fp_is_inf(b, dbl))))
        *fl |= FPF_NV;
    if (nan)
        return fp_canon(dbl);           /* 11.3: NaN results are canonical */
    int ex;
    fwide wa = to_wide(a, dbl), wb = to_wide(b, dbl), wc = to_wide(c, dbl);
    fwide r = wide_op(k, wa, wb, wc, FE_TOWARDZERO, &ex);
    if (ex & FE_INVALID) {
        *fl |= FPF_NV;
        return fp_canon(dbl);
    }
    if (ex & FE_DIVBYZERO)
        *fl |= FPF_DZ;
    /* an exact zero sum is -0 only when rounding down (IEEE 754 6.3) */
    if (r == 0 && rm == RM_RDN && (k == W_ADD || k == W_SUB || k == W_FMA))
        r = wide_op(k, wa, wb, wc, FE_DOWNWARD, &ex);
    return wide_pack(r, dbl, (ex & FE_INEXACT) != 0, rm, fl);
}

/* ---- conversions (11.7, 12.5) ---- */

/* To a signed or unsigned integer of `width` bits: out-of-range values
 * and NaNs saturate with only the invalid flag (table 11.4). */
static uint64_t to_int(uint64_t b, bool dbl, unsigned width, bool sgn, unsigned rm, unsigned *fl)
{
    fp_u128 umax = ((fp_u128)1 << width) - 1, smax = ((fp_u128)1 << (width - 1)) - 1;
    fp_u128 max = sgn ? smax : umax;
    bool neg = (b & fp_sign_bit(dbl)) != 0;
    if (fp_is_nan(b, dbl)) {
        *fl |= FPF_NV;
        return (uint64_t)max;
    }
    fp_u128 lim = neg ? (sgn ? smax + 1 : 0) : max;
    fp_u128 mag = lim + 1;              /* infinity: out of range */
    bool nx = false;
    if (!fp_is_inf(b, dbl)) {
        fp_val v = fp_unpack(b, dbl);
        if (v.e >= 0)
            mag = v.e > 64 ? (fp_u128)1 << 120 : (fp_u128)v.m << v.e;
        else
            mag = fp_shift_round(v.m, (unsigned)-v.e, neg, rm, &nx);
    }
    if (mag > lim) {
        *fl |= FPF_NV;
        return neg ? (uint64_t)-(lim) : (uint64_t)max;
    }
    if (nx)
        *fl |= FPF_NX;
    return neg ? -(uint64_t)mag : (uint64_t)mag;
}

static uint64_t from_int(uint64_t x, bool dbl, unsigned width, bool sgn, unsigned rm, unsigned *fl)
{
    uint64_t v = width == 64 ? x : sgn ? (uint64_t)(int64_t)(int32_t)x : (uint32_t)x;
    bool neg = sgn && (int64_t)v < 0;
    return fp_round_pack(dbl, neg, neg ? -v : v, 0, rm, fl);
}

/* fcvt.s.d / fcvt.d.s */
static uint64_t convert_fmt(uint64_t b, bool from_dbl, unsigned rm, unsigned *fl)
{
    bool to = !from_dbl;
    if (fp_is_nan(b, from_dbl)) {
        if (fp_is_snan(b, from_dbl))
            *fl |= FPF_NV;
        return fp_canon(to);
    }
    uint64_t sbit = (b & fp_sign_bit(from_dbl)) ? fp_sign_bit(to) : 0;
    if (fp_is_inf(b, from_dbl))
        return sbit | (((1ull << fp_ebits(to)) - 1) << (fp_prec(to) - 1));
    fp_val v = fp_unpack(b, from_dbl);
    return fp_round_pack(to, v.sign, v.m, v.e, rm, fl);
}

/* ---- compares, min/max, sign injection (11.8-11.10) ---- */

static double to_double(uint64_t b, bool dbl)
{
    return (double)to_wide(b, dbl);     /* non-NaN: exact, no flags */
}

/* a < b for non-NaN values, with -0 < +0 (the min/max order) */
static bool less_signed_zero(uint64_t a, uint64_t b, bool dbl)
{
    if (is_zero(a, dbl) && is_zero(b, dbl))
        return (a & fp_sign_bit(dbl)) && !(b & fp_sign_bit(dbl));
    return to_double(a, dbl) < to_double(b, dbl);
}

/* 2.2 fmin/fmax: one NaN operand gives the other; -0 < +0 */
static uint64_t min_max(uint64_t a, uint64_t b, bool dbl, bool max, unsigned *fl)
{
    if (fp_is_snan(a, dbl) || fp_is_snan(b, dbl))
        *fl |= FPF_NV;
    bool an = fp_is_nan(a, dbl), bn = fp_is_nan(b, dbl);
    if (an && bn)
        return fp_canon(dbl);
    if (an || bn)
        return an ? b : a;
    return less_signed_zero(a, b, dbl) != max ? a : b;
}

/* feq is quiet (invalid on signaling NaNs only); flt/fle signal on any NaN. */
static uint64_t compare(unsigned s, uint64_t a, uint64_t b, bool dbl, unsigned *fl)
{
    if (fp_is_nan(a, dbl) || fp_is_nan(b, dbl)) {
        if (s != RVT_OP_FEQ_S || fp_is_snan(a, dbl) || fp_is_snan(b, dbl))
            *fl |= FPF_NV;
        return 0;
    }
    double x = to_double(a, dbl), y = to_double(b, dbl);
    return s == RVT_OP_FEQ_S ? x == y : s == RVT_OP_FLT_S ? x < y : x <= y;
}

static uint64_t sign_inject(unsigned s, uint64_t a, uint64_t b, bool dbl)
{
    uint64_t sb = fp_sign_bit(dbl);
    uint64_t sign = s == RVT_OP_FSGNJ_S ? b & sb : s == RVT_OP_FSGNJN_S ? ~b & sb : (a ^ b) & sb;
    return (a & ~sb) | sign;
}

/* ---- loads and stores (11.5, 12.3; C.FLD etc. decode to these) ---- */

static int fp_load(rvt_hart *h, const hart_op *o, uint64_t pc, bool dbl, uint64_t *tval)
{
    unsigned size = dbl ? 8 : 4;
    uint64_t a = h->x[o->rs1] + (uint64_t)o->imm, v;
    if (h->xlen == 32)
        a = (uint32_t)a;
    if (h->trig_ld && hart_trig_mem(h, HART_TRIG_LOAD, a, size)) {
        *tval = h->trig_tval;
        return CAUSE_BREAKPOINT + 1;
    }
    int r = hart_load(h, a, size, &v);
    if (r) {
        *tval = a;
        return r;
    }
    if (h->data_on)
        hart_drec(h, pc, RVT_DTYPE_LOAD, a, size, v, 0, 0);
    write_f(h, o->rd, v, dbl);
    return 0;
}

/* fsw stores the low 32 bits whatever the boxing (12.2) */
static int fp_store(rvt_hart *h, const hart_op *o, uint64_t pc, bool dbl, uint64_t *tval)
{
    unsigned size = dbl ? 8 : 4;
    uint64_t a = h->x[o->rs1] + (uint64_t)o->imm;
    uint64_t v = dbl ? h->f[o->rs2] : (uint32_t)h->f[o->rs2];
    if (h->xlen == 32)
        a = (uint32_t)a;
    if (h->trig_st && hart_trig_mem(h, HART_TRIG_STORE, a, size)) {
        *tval = h->trig_tval;
        return CAUSE_BREAKPOINT + 1;
    }
    int r = hart_store(h, a, size, v);
    if (r) {
        *tval = a;
        return r;
    }
    if (h->data_on)
        hart_drec(h, pc, RVT_DTYPE_STORE, a, size, v, 0, 0);
    return 0;
}

/* ---- dispatch ---- */

/* Ops with an rm field: a dynamic rm with frm 5-7 is illegal (11.2). */
static bool uses_rm(unsigned s)
{
    switch (s) {
    case RVT_OP_FLW: case RVT_OP_FSW: case RVT_OP_FSGNJ_S: case RVT_OP_FSGNJN_S:
    case RVT_OP_FSGNJX_S: case RVT_OP_FMIN_S: case RVT_OP_FMAX_S: case RVT_OP_FMV_X_W:
    case RVT_OP_FEQ_S: case RVT_OP_FLT_S: case RVT_OP_FLE_S: case RVT_OP_FCLASS_S:
    case RVT_OP_FMV_W_X:
        return false;
    default:
        return true;
    }
}

bool hart_fp_writes_x(unsigned op)
{
    unsigned s = op >= RVT_OP_FLD ? op - RVT_OP_FP_FMT_STRIDE : op;
    switch (s) {
    case RVT_OP_FCVT_W_S: case RVT_OP_FCVT_WU_S: case RVT_OP_FCVT_L_S: case RVT_OP_FCVT_LU_S:
    case RVT_OP_FMV_X_W: case RVT_OP_FEQ_S: case RVT_OP_FLT_S: case RVT_OP_FLE_S:
    case RVT_OP_FCLASS_S:
        return true;
    default:
        return false;
    }
}

static uint64_t sext32(uint64_t v) { return (uint64_t)(int64_t)(int32_t)v; }

/* The ops with an f-register result from f-register operands. */
static uint64_t compute_f(rvt_hart *h, const hart_op *o, unsigned s, bool dbl, unsigned rm, unsigned *fl)
{
    uint64_t a = opnd(h, o->rs1, dbl), b = opnd(h, o->rs2, dbl), c = opnd(h, HOP_RS3(o), dbl);
    uint64_t sb = fp_sign_bit(dbl);
    switch (s) {
    case RVT_OP_FADD_S: return arith(W_ADD, dbl, a, b, 0, rm, fl);
    case RVT_OP_FSUB_S: return arith(W_SUB, dbl, a, b, 0, rm, fl);
    case RVT_OP_FMUL_S: return arith(W_MUL, dbl, a, b, 0, rm, fl);
    case RVT_OP_FDIV_S: return arith(W_DIV, dbl, a, b, 0, rm, fl);
    case RVT_OP_FSQRT_S: return arith(W_SQRT, dbl, a, 0, 0, rm, fl);
    /* 11.6: fmsub = a*b-c, fnmsub = -(a*b)+c, fnmadd = -(a*b)-c; the
     * negations flip sign bits (a NaN operand gives the canonical NaN anyway) */
    case RVT_OP_FMADD_S: return arith(W_FMA, dbl, a, b, c, rm, fl);
    case RVT_OP_FMSUB_S: return arith(W_FMA, dbl, a, b, c ^ sb, rm, fl);
    case RVT_OP_FNMSUB_S: return arith(W_FMA, dbl, a ^ sb, b, c, rm, fl);
    case RVT_OP_FNMADD_S: return arith(W_FMA, dbl, a ^ sb, b, c ^ sb, rm, fl);
    case RVT_OP_FSGNJ_S: case RVT_OP_FSGNJN_S: case RVT_OP_FSGNJX_S:
        return sign_inject(s, a, b, dbl);
    case RVT_OP_FMIN_S: return min_max(a, b, dbl, false, fl);
    case RVT_OP_FMAX_S: return min_max(a, b, dbl, true, fl);
    default:   /* RVT_OP_FCVT_S_D: the source is the other format */
        return convert_fmt(opnd(h, o->rs1, !dbl), !dbl, rm, fl);
    }
}

/* The ops with an x-register result. */
static uint64_t compute_x(rvt_hart *h, const hart_op *o, unsigned s, bool dbl, unsigned rm, unsigned *fl)
{
    uint64_t a = opnd(h, o->rs1, dbl);
    switch (s) {
    case RVT_OP_FCVT_W_S: return sext32(to_int(a, dbl, 32, true, rm, fl));
    case RVT_OP_FCVT_WU_S: return sext32(to_int(a, dbl, 32, false, rm, fl));
    case RVT_OP_FCVT_L_S: return to_int(a, dbl, 64, true, rm, fl);
    case RVT_OP_FCVT_LU_S: return to_int(a, dbl, 64, false, rm, fl);
    /* fmv.x.w moves the low bits whatever the boxing, sign-extended */
    case RVT_OP_FMV_X_W: return dbl ? h->f[o->rs1] : sext32(h->f[o->rs1]);
    case RVT_OP_FCLASS_S: return fp_class(a, dbl);
    default: return compare(s, a, opnd(h, o->rs2, dbl), dbl, fl);
    }
}

/* The ops with an f-register result from an x register. */
static bool compute_from_x(rvt_hart *h, const hart_op *o, unsigned s, bool dbl, unsigned rm,
                           unsigned *fl, uint64_t *v)
{
    uint64_t x = h->x[o->rs1];
    switch (s) {
    case RVT_OP_FCVT_S_W: *v = from_int(x, dbl, 32, true, rm, fl); return true;
    case RVT_OP_FCVT_S_WU: *v = from_int(x, dbl, 32, false, rm, fl); return true;
    case RVT_OP_FCVT_S_L: *v = from_int(x, dbl, 64, true, rm, fl); return true;
    case RVT_OP_FCVT_S_LU: *v = from_int(x, dbl, 64, false, rm, fl); return true;
    case RVT_OP_FMV_W_X: *v = dbl ? x : (uint32_t)x; return true;
    default: return false;
    }
}

int hart_fp(rvt_hart *h, const hart_op *o, uint64_t pc, uint64_t *tval)
{
    bool dbl = o->op >= RVT_OP_FLD;
    unsigned s = dbl ? o->op - RVT_OP_FP_FMT_STRIDE : o->op;
    unsigned rm = HOP_RM(o), fl = 0;
    if (rm == RM_DYN)
        rm = (unsigned)(h->fcsr >> 5) & 7;
    /* priv 3.1.6.6: FS = Off makes every FP instruction illegal */
    if (!(h->mstatus & MSTATUS_FS) || (uses_rm(s) && rm > RM_RMM)) {
        *tval = o->raw;
        return CAUSE_ILLEGAL + 1;
    }
    if (s == RVT_OP_FLW)
        return fp_load(h, o, pc, dbl, tval);
    if (s == RVT_OP_FSW)
        return fp_store(h, o, pc, dbl, tval);
    uint64_t v;
    if (hart_fp_writes_x(o->op)) {
        write_x(h, o->rd, compute_x(h, o, s, dbl, rm, &fl));
    } else if (compute_from_x(h, o, s, dbl, rm, &fl, &v)) {
        write_f(h, o->rd, v, dbl);
    } else {
        write_f(h, o->rd, compute_f(h, o, s, dbl, rm, &fl), dbl);
    }
    accrue(h, fl);
    return 0;
}
