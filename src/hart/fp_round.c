/* Exact rounding of binary32/binary64 results (fp_round.h). */
#include "fp_round.h"

static unsigned bitlen(fp_u128 m)
{
    uint64_t hi = (uint64_t)(m >> 64);
    return hi ? 128 - (unsigned)__builtin_clzll(hi) : m ? 64 - (unsigned)__builtin_clzll((uint64_t)m) : 0;
}

/* Values stay below 2^126, so a shift of 127 or more leaves less than half
 * an ulp: only the directed modes can round up. */
fp_u128 fp_shift_round(fp_u128 m, unsigned shift, bool sign, unsigned rm, bool *inexact)
{
    if (shift == 0)
        return m;
    fp_u128 q = shift >= 127 ? 0 : m >> shift;
    fp_u128 rem = shift >= 127 ? m : m & (((fp_u128)1 << shift) - 1);
    fp_u128 half = shift >= 127 ? ~(fp_u128)0 : (fp_u128)1 << (shift - 1);
    if (!rem)
        return q;
    *inexact = true;
    bool up;
    switch (rm) {
    case RM_RNE: up = rem > half || (rem == half && (q & 1)); break;
    case RM_RMM: up = rem >= half; break;
    case RM_RDN: up = sign; break;
    case RM_RUP: up = !sign; break;
    default: up = false; break;   /* RTZ */
    }
    return q + up;
}

/* IEEE 754 7.4: the overflow result depends on the direction of rounding. */
static uint64_t overflow_result(bool dbl, bool sign, unsigned rm)
{
    uint64_t inf = ((1ull << fp_ebits(dbl)) - 1) << (fp_prec(dbl) - 1);
    bool to_max = rm == RM_RTZ || (rm == RM_RDN && !sign) || (rm == RM_RUP && sign);
    return (sign ? fp_sign_bit(dbl) : 0) | (to_max ? inf - 1 : inf);
}

uint64_t fp_round_pack(bool dbl, bool sign, fp_u128 m, int e, unsigned rm, unsigned *flags)
{
    uint64_t sbit = sign ? fp_sign_bit(dbl) : 0;
    if (m == 0)
        return sbit;
    const int p = (int)fp_prec(dbl), bias = (1 << (fp_ebits(dbl) - 1)) - 1;
    const int emin = 1 - bias, emax = bias;
    int k = (int)bitlen(m);
    int E = e + k - 1;                      /* exponent of the leading bit */
    /* round to p bits as though the exponent range were unbounded */
    bool nx = false;
    fp_u128 q = k > p ? fp_shift_round(m, (unsigned)(k - p), sign, rm, &nx) : m << (p - k);
    if (q >> p) {                           /* carried out: 2^p */
        q >>= 1;
        E++;
    }
    if (E >= emin) {                        /* not tiny (after rounding) */
        if (E > emax) {
            *flags |= FPF_OF | FPF_NX;
            return overflow_result(dbl, sign, rm);
        }
        if (nx)
            *flags |= FPF_NX;
        return sbit | ((uint64_t)(E + bias) << (p - 1)) | ((uint64_t)q & ((1ull << (p - 1)) - 1));
    }
    /* tiny: round again on the subnormal grid (lsb 2^(emin-p+1)); a
     * carry into 2^(p-1) is the smallest normal and packs as such */
    int sh = emin - p + 1 - e;
    bool snx = false;
    fp_u128 s = sh > 0 ? fp_shift_round(m, (unsigned)sh, sign, rm, &snx) : m << -sh;
    if (snx)
        *flags |= FPF_UF | FPF_NX;
    return sbit | (uint64_t)s;
}

fp_val fp_unpack(uint64_t b, bool dbl)
{
    const int p = (int)fp_prec(dbl), bias = (1 << (fp_ebits(dbl) - 1)) - 1;
    fp_val v = { (b & fp_sign_bit(dbl)) != 0, fp_frac(b, dbl), 0 };
    int ef = (int)fp_exp_field(b, dbl);
    if (ef) {
        v.m |= 1ull << (p - 1);
        v.e = ef - bias - (p - 1);
    } else {
        v.e = 1 - bias - (p - 1);           /* subnormal or zero */
    }
    return v;
}

unsigned fp_class(uint64_t b, bool dbl)
{
    bool neg = (b & fp_sign_bit(dbl)) != 0;
    if (fp_is_nan(b, dbl))
        return fp_is_snan(b, dbl) ? 1u << 8 : 1u << 9;
    if (fp_is_inf(b, dbl))
        return neg ? 1u << 0 : 1u << 7;
    bool zero = fp_exp_field(b, dbl) == 0 && fp_frac(b, dbl) == 0;
    bool sub = fp_exp_field(b, dbl) == 0 && !zero;
    if (zero)
        return neg ? 1u << 3 : 1u << 4;
    if (sub)
        return neg ? 1u << 2 : 1u << 5;
    return neg ? 1u << 1 : 1u << 6;
}
