/* E-Trace fuzz targets: attributes taken from the input's first bytes, so
 * that one corpus covers every packet layout (both format-3 layouts, 3/4-bit
 * itype, time/context fields, call stack, branch prediction, jump-target
 * cache, every option).  Values out of range are left to rvt_te_attrs_check:
 * a rejected set falls back to the defaults. */
#ifndef RVT_FUZZ_ETRACE_H
#define RVT_FUZZ_ETRACE_H

#include "fuzz.h"
#include "rvtrace/etrace.h"

#define RVT_FUZZ_TE_ATTR_BYTES 6

/* xlen 0 = take iaddress_width from the bytes too. */
static inline void rvt_fuzz_te_attrs(rvt_fuzz_in *in, unsigned xlen, rvt_te_attrs *a)
{
    rvt_te_attrs_default(a);
    rvt_te_attrs keep = *a;
    uint8_t b0 = rvt_fuzz_u8(in), b1 = rvt_fuzz_u8(in), b2 = rvt_fuzz_u8(in);
    uint8_t b3 = rvt_fuzz_u8(in), b4 = rvt_fuzz_u8(in), b5 = rvt_fuzz_u8(in);
    a->version = (b0 & 1u) ? RVT_TE_V20 : RVT_TE_V11;
    a->iaddress_lsb = (b0 >> 1) & 1u;
    a->itype_width = (b0 & 4u) ? 4 : 3;
    a->notime = (b0 >> 3) & 1u;
    a->nocontext = (b0 >> 4) & 1u;
    a->sijump = (b0 >> 5) & 1u;
    a->resync_mode = (b0 >> 6) & 3u;
    a->options = b1 & RVT_TE_OPT_ALL;
    a->irdepth_ones = (b1 >> 6) & 1u;     /* bit 7: spare */
    a->return_stack_size = b2 & 7u;
    a->call_counter_size = (b2 >> 3) & 15u;
    a->retires = (b2 >> 7) & 1u;
    a->bpred_size = b3 & 7u;
    a->cache_size = (b3 >> 3) & 7u;
    a->f0s_width = (b3 >> 6) & 3u;
    a->context_width = b4 & 63u;
    a->time_width = (b4 >> 6) ? 8u * (b4 >> 6) : 0u;
    a->ecause_width = 1u + (b5 & 7u);
    a->privilege_width = 1u + ((b5 >> 3) & 1u);
    a->resync_max = (b5 >> 4) & 15u;
    a->iaddress_width = xlen ? xlen : ((b5 & 0x80u) ? 32u : 64u);
    if (rvt_te_attrs_check(a) < 0) {
        *a = keep;
        if (xlen)
            a->iaddress_width = xlen;
    }
}

/* The inverse, for seeds (fuzz/tools/mkseed.c). */
static inline void rvt_fuzz_te_attrs_bytes(const rvt_te_attrs *a, uint8_t b[RVT_FUZZ_TE_ATTR_BYTES])
{
    b[0] = (uint8_t)((a->version == RVT_TE_V20) | (a->iaddress_lsb & 1u) << 1 |
                     (a->itype_width == 4) << 2 | (a->notime & 1u) << 3 | (a->nocontext & 1u) << 4 |
                     (a->sijump & 1u) << 5 | (a->resync_mode & 3u) << 6);
    b[1] = (uint8_t)((a->options & RVT_TE_OPT_ALL) | (a->irdepth_ones & 1u) << 6);
    b[2] = (uint8_t)((a->return_stack_size & 7u) | (a->call_counter_size & 15u) << 3 |
                     (a->retires & 1u) << 7);
    b[3] = (uint8_t)((a->bpred_size & 7u) | (a->cache_size & 7u) << 3 | (a->f0s_width & 3u) << 6);
    b[4] = (uint8_t)((a->context_width & 63u) | ((a->time_width / 8u) & 3u) << 6);
    b[5] = (uint8_t)(((a->ecause_width - 1u) & 7u) | ((a->privilege_width - 1u) & 1u) << 3 |
                     (a->resync_max & 15u) << 4 | (a->iaddress_width == 32) << 7);
}

#endif
