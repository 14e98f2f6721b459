/* Exact IEEE 754 binary32/binary64 rounding in integer arithmetic, for
 * the hart's F and D extensions (unpriv 20191213 ch. 11, 12; fpu.c).
 * A value is (-1)^sign * m * 2^e with m < 2^126; round_pack rounds it to
 * the format in any of the five RISC-V rounding modes, with RISC-V's
 * tininess-after-rounding rule (11.2: "tininess is detected after
 * rounding") and the accrued flags. */
#ifndef RVT_HART_FP_ROUND_H
#define RVT_HART_FP_ROUND_H

#include <stdbool.h>
#include <stdint.h>

__extension__ typedef unsigned __int128 fp_u128;

/* fflags bits (unpriv 11.2, table 11.2) */
enum { FPF_NX = 1, FPF_UF = 2, FPF_OF = 4, FPF_DZ = 8, FPF_NV = 16 };
/* rounding modes (unpriv 11.2, table 11.1) */
enum { RM_RNE = 0, RM_RTZ = 1, RM_RDN = 2, RM_RUP = 3, RM_RMM = 4, RM_DYN = 7 };

/* A format: binary32 (dbl = false) or binary64 (dbl = true). */
#define FP_CANON_S 0x7fc00000ull              /* 11.3: the canonical NaN */
#define FP_CANON_D 0x7ff8000000000000ull

/* An unpacked finite value; m == 0 for zeros. */
typedef struct fp_val {
    bool sign;
    uint64_t m;
    int e;
} fp_val;

static inline unsigned fp_prec(bool dbl) { return dbl ? 53 : 24; }
static inline unsigned fp_ebits(bool dbl) { return dbl ? 11 : 8; }
static inline uint64_t fp_canon(bool dbl) { return dbl ? FP_CANON_D : FP_CANON_S; }
static inline uint64_t fp_sign_bit(bool dbl) { return 1ull << (dbl ? 63 : 31); }
static inline uint64_t fp_exp_field(uint64_t b, bool dbl)
{
    return (b >> (fp_prec(dbl) - 1)) & ((1u << fp_ebits(dbl)) - 1);
}
static inline uint64_t fp_frac(uint64_t b, bool dbl)
{
    return b & ((1ull << (fp_prec(dbl) - 1)) - 1);
}
static inline bool fp_is_nan(uint64_t b, bool dbl)
{
    return fp_exp_field(b, dbl) == (1u << fp_ebits(dbl)) - 1 && fp_frac(b, dbl) != 0;
}
static inline bool fp_is_inf(uint64_t b, bool dbl)
{
    return fp_exp_field(b, dbl) == (1u << fp_ebits(dbl)) - 1 && fp_frac(b, dbl) == 0;
}
/* signaling NaN: the quiet bit (the top fraction bit) is clear (11.3) */
static inline bool fp_is_snan(uint64_t b, bool dbl)
{
    return fp_is_nan(b, dbl) && !((b >> (fp_prec(dbl) - 2)) & 1);
}

/* m >> shift rounded in mode rm for a value of the given sign; *inexact
 * is set when bits were lost (never cleared). */
fp_u128 fp_shift_round(fp_u128 m, unsigned shift, bool sign, unsigned rm, bool *inexact);
/* (-1)^sign * m * 2^e rounded to the format; accrues NX/UF/OF in *flags. */
uint64_t fp_round_pack(bool dbl, bool sign, fp_u128 m, int e, unsigned rm, unsigned *flags);
/* A finite (non-NaN, non-infinite) value's sign, significand, exponent. */
fp_val fp_unpack(uint64_t b, bool dbl);
/* The fclass mask (11.9, table 11.5). */
unsigned fp_class(uint64_t b, bool dbl);

#endif
