/* E-Trace data-trace fuzz target (fuzz/targets/etrace_data.c): the data
 * attributes (table 2.2 options, data_width_p, XLEN) from the input's first
 * 2 bytes.  A combination rvt_te_data_attrs_check rejects (no_data and
 * no_address together) falls back to the defaults with data trace on. */
#ifndef RVT_FUZZ_ETRACE_DATA_H
#define RVT_FUZZ_ETRACE_DATA_H

#include "fuzz.h"
#include "rvtrace/etrace.h"

#define RVT_FUZZ_TED_ATTR_BYTES 2

/* Byte 0: bit 0 data_width 32 (else 64), bit 1 no_address, bit 2 no_data,
 * bits 4:3 data_compress, bit 5 iaddress_width 32 (else 64), bit 6
 * split_loads (tables 7.4, 7.5, 7.9, 7.10), bit 7 index_width 4 (else 1).  Byte 1, when
 * nonzero: iaddress_width 12..64 (byte 1 mod 53 + 12), for the odd
 * widths a CSR's 12-bit number and the address fields meet. */
static inline void rvt_fuzz_te_data_attrs(rvt_fuzz_in *in, rvt_te_attrs *a)
{
    rvt_te_attrs_default(a);
    a->data_trace = 1;
    rvt_te_attrs keep = *a;
    uint8_t b0 = rvt_fuzz_u8(in), b1 = rvt_fuzz_u8(in);
    a->data_width = (b0 & 1u) ? 32u : 64u;
    a->no_address = (b0 >> 1) & 1u;
    a->no_data = (b0 >> 2) & 1u;
    a->data_compress = (b0 >> 3) & 3u;
    a->iaddress_width = (b0 & 0x20u) ? 32u : 64u;
    a->split_loads = (b0 >> 6) & 1u;
    a->index_width = (b0 & 0x80u) ? 4u : 1u;
    if (b1)
        a->iaddress_width = 12u + b1 % 53u;
    if (rvt_te_data_attrs_check(a) < 0)
        *a = keep;
}

/* The inverse, for seeds (fuzz/tools/mkseed.c). */
static inline void rvt_fuzz_te_data_attrs_bytes(const rvt_te_attrs *a,
                                                uint8_t b[RVT_FUZZ_TED_ATTR_BYTES])
{
    b[0] = (uint8_t)((a->data_width == 32) | (a->no_address & 1u) << 1 | (a->no_data & 1u) << 2 |
                     (a->data_compress & 3u) << 3 | (a->iaddress_width == 32) << 5 |
                     (a->split_loads & 1u) << 6 | (a->index_width == 4) << 7);
    b[1] = (a->iaddress_width == 32 || a->iaddress_width == 64)
               ? 0 : (uint8_t)(a->iaddress_width - 12u);
}

#endif
