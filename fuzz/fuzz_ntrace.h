/* N-Trace fuzz targets: settings taken from the input's first bytes (BTM or
 * HTM, SRC width, address-MSB extension, XOR addresses, call stack, repeat
 * history, timestamps, counter widths), so that one corpus covers every
 * message layout.  A set rvt_nt_cfg_check rejects falls back to defaults. */
#ifndef RVT_FUZZ_NTRACE_H
#define RVT_FUZZ_NTRACE_H

#include "fuzz.h"
#include "rvtrace/ntrace.h"

#define RVT_FUZZ_NT_CFG_BYTES 5

/* xlen 0 = take it from the bytes too. */
static inline void rvt_fuzz_nt_cfg(rvt_fuzz_in *in, unsigned xlen, rvt_nt_cfg *c)
{
    rvt_nt_cfg_default(c);
    rvt_nt_cfg keep = *c;
    uint8_t b0 = rvt_fuzz_u8(in), b1 = rvt_fuzz_u8(in), b2 = rvt_fuzz_u8(in);
    uint8_t b3 = rvt_fuzz_u8(in), b4 = rvt_fuzz_u8(in);
    c->inst_mode = (b0 & 1u) ? RVT_NT_MODE_BTM : RVT_NT_MODE_HTM;
    c->context = (b0 >> 1) & 1u;
    c->no_addr_diff = (b0 >> 2) & 1u;
    c->seq_jump = (b0 >> 3) & 1u;
    c->repeat_history = (b0 >> 4) & 1u;
    c->all_jumps = (b0 >> 5) & 1u;
    c->extend_addr_msb = (b0 >> 6) & 1u;
    c->timestamps = (b0 >> 7) & 1u;
    c->src_bits = (b1 & 15u) % 13u;
    c->inhibit_src = (b1 >> 4) & 1u;
    c->no_trap_addr = (b1 >> 5) & 1u;
    c->itype_bits = (b1 & 0x40u) ? 3u : 4u;
    c->xlen = xlen ? xlen : ((b1 & 0x80u) ? 32u : 64u);
    c->implicit_return = b2 & 3u;
    c->return_depth = (b2 >> 2) & 31u;
    c->sync_mode = b4 & 3u;
    c->sync_max = (b4 >> 2) & 15u;
    c->start_disabled = (b4 >> 6) & 1u;
    c->icnt_bits = (b3 & 15u) ? 8u + (b3 & 15u) : 0u;
    c->hist_bits = (b3 >> 4) ? 8u + 2u * (b3 >> 4) : 0u;
    if (rvt_nt_cfg_check(c) < 0) {
        *c = keep;
        if (xlen)
            c->xlen = xlen;
        rvt_nt_cfg_check(c);
    }
}

/* The inverse, for seeds (fuzz/tools/mkseed.c): the bytes that make
 * rvt_fuzz_nt_cfg() rebuild c (fields it does not cover keep defaults). */
static inline void rvt_fuzz_nt_cfg_bytes(const rvt_nt_cfg *c, uint8_t b[RVT_FUZZ_NT_CFG_BYTES])
{
    b[0] = (uint8_t)((c->inst_mode == RVT_NT_MODE_BTM) | c->context << 1 | c->no_addr_diff << 2 |
                     c->seq_jump << 3 | c->repeat_history << 4 | c->all_jumps << 5 |
                     c->extend_addr_msb << 6 | c->timestamps << 7);
    b[1] = (uint8_t)((c->src_bits & 15u) | c->inhibit_src << 4 | c->no_trap_addr << 5 |
                     (c->itype_bits == 3) << 6 | (c->xlen == 32) << 7);
    b[2] = (uint8_t)((c->implicit_return & 3u) | (c->return_depth & 31u) << 2);
    b[3] = (uint8_t)((c->icnt_bits > 8 ? (c->icnt_bits - 8) & 15u : 0u) |
                     (c->hist_bits > 8 ? ((c->hist_bits - 8) / 2) & 15u : 0u) << 4);
    b[4] = (uint8_t)((c->sync_mode & 3u) | (c->sync_max & 15u) << 2 | c->start_disabled << 6);
}

#endif
