/* rvt_isa_decode: length dispatch, common fields, control-transfer class. */
#include <string.h>

#include "isa/isa_internal.h"
#include "rvtrace/status.h"

int rvt_isa_decode(uint32_t raw, unsigned xlen, rvt_insn *out)
{
    memset(out, 0, sizeof *out);
    if (xlen != 32 && xlen != 64) {
        out->op = RVT_OP_ILLEGAL;
        return RVT_ERR_INVAL;
    }
    unsigned len = rvt_isa_length((uint16_t)raw);
    bool ok = false;
    out->len = (uint8_t)len;
    out->flags = xlen == 32 ? RVT_INSN_F_RV32 : 0;
    if (len == 2) {
        /* Only the 16-bit parcel belongs to a compressed instruction. */
        out->raw = raw & 0xffffu;
        out->flags |= RVT_INSN_F_COMPRESSED;
        ok = rvt_isa_decode16(out->raw, xlen, out);
    } else if (len == 4) {
        out->raw = raw;
        ok = rvt_isa_decode32(raw, xlen, out);
    } else {
        out->raw = raw;       /* 48/64-bit encodings: no standard ones */
    }
    if (!ok) {
        uint8_t keep_len = out->len, keep_flags = out->flags;
        uint32_t keep_raw = out->raw;
        memset(out, 0, sizeof *out);
        out->raw = keep_raw;
        out->len = keep_len;
        out->flags = keep_flags;
        out->op = RVT_OP_ILLEGAL;
        return RVT_ERR_FORMAT;
    }
    out->jclass = (uint8_t)rvt_isa_jclass(out);
    return 0;
}
