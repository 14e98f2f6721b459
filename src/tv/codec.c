/* The item codec of the tandem-verification trace (TV ch. 2): one opcode
 * byte, then the payload.  Fields wider than a byte are little endian,
 * fields narrower than a byte are packed from bit 0 (ch. 3 notes), which
 * is exactly the LSB-first packing of util/bitio.h. */
#include "rvtrace/tv.h"
#include "util/bitio.h"

int rvt_tv_cfg_resolve(const rvt_tv_cfg *in, rvt_tv_cfg *out)
{
    rvt_tv_cfg c = in ? *in : (rvt_tv_cfg){ 0 };
    if (!c.xlen)
        c.xlen = 64;
    if (!c.flen)
        c.flen = 64;   /* RV32GC and RV64GC have D: FPRs are 64 bits (docs/tv.md) */
    if (!c.mlen)
        c.mlen = c.xlen;
    if ((c.xlen != 32 && c.xlen != 64) || (c.flen != 32 && c.flen != 64) ||
        c.mlen < 32 || c.mlen > 64)
        return RVT_ERR_INVAL;
    *out = c;
    return RVT_OK;
}

/* ch. 3 notes: MLEN fields are rounded up to whole bytes */
static unsigned mbits(const rvt_tv_cfg *c)
{
    return (c->mlen + 7) / 8 * 8;
}

static bool is_fpr(unsigned reg)
{
    return reg >= RVT_TV_REG_FPR(0) && reg <= RVT_TV_REG_FPR(31);
}

/* Width of the data of an additional-state identifier (ch. 2 table), 0 if
 * the identifier is not defined. */
static unsigned state_bits(const rvt_tv_cfg *c, unsigned id)
{
    switch (id) {
    case RVT_TV_S_PRIV: return 8;
    case RVT_TV_S_PADDR: case RVT_TV_S_EADDR: case RVT_TV_S_PC_PADDR: return mbits(c);
    case RVT_TV_S_DATA8: return 8;
    case RVT_TV_S_DATA16: return 16;
    case RVT_TV_S_DATA32: return 32;
    case RVT_TV_S_DATA64: case RVT_TV_S_MTIME: return 64;
    case RVT_TV_S_PC: return c->xlen;
    default: return 0;
    }
}

/* ch. 2: a request carries data for stores, SC and AMOs; a response for
 * loads, LR, AMOs and fetches (docs/tv.md: "0 for store" also covers SC). */
static bool req_has_data(unsigned op)
{
    return op != RVT_TV_M_LOAD && op != RVT_TV_M_LR && op != RVT_TV_M_FETCH;
}

static bool rsp_has_data(int req_op)
{
    return req_op != RVT_TV_M_STORE && req_op != RVT_TV_M_SC;
}

static bool fits(uint64_t v, unsigned bits)
{
    return bits >= 64 || (v >> bits) == 0;
}

static int put(rvt_bitw *w, uint64_t v, unsigned bits)
{
    if (!fits(v, bits))
        return RVT_ERR_RANGE;
    rvt_bitw_put(w, v, bits);
    return RVT_OK;
}

static int enc_reg(const rvt_tv_cfg *c, const rvt_tv_item *it, rvt_bitw *w)
{
    rvt_bitw_put(w, it->reg, 16);
    if (it->op == RVT_TV_FULL_REG)
        return put(w, it->value, is_fpr(it->reg) ? c->flen : c->xlen);
    if (it->op == RVT_TV_INCR_REG) {
        int64_t d = (int64_t)it->value;
        if (d < -128 || d > 127)
            return RVT_ERR_RANGE;
        rvt_bitw_put(w, (uint64_t)d, 8);
        return RVT_OK;
    }
    return put(w, it->value, 8);
}

static int enc_mem(const rvt_tv_cfg *c, const rvt_tv_item *it, rvt_bitw *w)
{
    if (it->mem_size > 3)
        return RVT_ERR_INVAL;
    unsigned dbits = 8u << it->mem_size;
    if (it->op == RVT_TV_MEM_REQ) {
        if (it->mem_op > RVT_TV_M_FETCH)
            return RVT_ERR_INVAL;
        int r = put(w, it->addr, mbits(c));
        if (r < 0)
            return r;
        rvt_bitw_put(w, it->mem_op | (unsigned)it->mem_size << 4, 8);
        return req_has_data(it->mem_op) ? put(w, it->data, dbits) : RVT_OK;
    }
    if (it->result > 15)
        return RVT_ERR_INVAL;
    rvt_bitw_put(w, it->mem_size | (unsigned)it->result << 4, 8);
    return it->has_data ? put(w, it->data, dbits) : RVT_OK;
}

static int enc_payload(const rvt_tv_cfg *c, const rvt_tv_item *it, rvt_bitw *w)
{
    switch (it->op) {
    case RVT_TV_BEGIN: case RVT_TV_END: case RVT_TV_INCR_PC:
    case RVT_TV_RESET: case RVT_TV_INIT:
        return RVT_OK;
    case RVT_TV_FULL_REG: case RVT_TV_INCR_REG: case RVT_TV_OR_REG:
        return enc_reg(c, it, w);
    case RVT_TV_STATE: {
        unsigned bits = state_bits(c, it->id);
        if (!bits)
            return RVT_ERR_INVAL;
        if (it->id == RVT_TV_S_PRIV && it->value > 3)
            return RVT_ERR_RANGE;   /* PRIVLEN 2, zero extended */
        rvt_bitw_put(w, it->id, 8);
        return put(w, it->value, bits);
    }
    case RVT_TV_MEM_REQ: case RVT_TV_MEM_RSP:
        return enc_mem(c, it, w);
    case RVT_TV_INSN16:
        return put(w, it->value, 16);
    case RVT_TV_INSN32:
        return put(w, it->value, 32);
    default:
        return RVT_ERR_INVAL;
    }
}

int rvt_tv_encode(const rvt_tv_cfg *c, const rvt_tv_item *it, uint8_t *out)
{
    rvt_bitw w;
    rvt_bitw_init(&w, out, RVT_TV_ITEM_MAX);
    rvt_bitw_put(&w, it->op, 8);
    int r = enc_payload(c, it, &w);
    if (r < 0)
        return r;
    return w.overflow ? RVT_ERR_RANGE : (int)rvt_bitw_bytes(&w);
}

/* Payload length in bits of the item starting at buf (at least 2 bytes
 * available when the opcode needs its second byte), or a status. */
static int payload_bits(const rvt_tv_cfg *c, const uint8_t *buf, size_t len, int prev_req)
{
    switch (buf[0]) {
    case RVT_TV_BEGIN: case RVT_TV_END: case RVT_TV_INCR_PC:
    case RVT_TV_RESET: case RVT_TV_INIT:
        return 0;
    case RVT_TV_FULL_REG: {
        if (len < 3)
            return RVT_ERR_TRUNC;
        unsigned reg = buf[1] | (unsigned)buf[2] << 8;
        return 16 + (int)(is_fpr(reg) ? c->flen : c->xlen);
    }
    case RVT_TV_INCR_REG: case RVT_TV_OR_REG:
        return 24;
    case RVT_TV_STATE: {
        if (len < 2)
            return RVT_ERR_TRUNC;
        unsigned bits = state_bits(c, buf[1]);
        return bits ? 8 + (int)bits : RVT_ERR_FORMAT;
    }
    case RVT_TV_MEM_REQ: {
        size_t mb = mbits(c) / 8;
        if (len < 2 + mb)
            return RVT_ERR_TRUNC;
        unsigned op = buf[1 + mb] & 15, size = buf[1 + mb] >> 4;
        if (op > RVT_TV_M_FETCH || size > 3)
            return RVT_ERR_FORMAT;
        return (int)(mb * 8 + 8 + (req_has_data(op) ? 8u << size : 0));
    }
    case RVT_TV_MEM_RSP: {
        if (prev_req < 0)
            return RVT_ERR_FORMAT;   /* ch. 3: a response follows its request */
        if (len < 2)
            return RVT_ERR_TRUNC;
        unsigned size = buf[1] & 15, result = buf[1] >> 4;
        if (size > 3 || result > RVT_TV_RESULT_FAIL)
            return RVT_ERR_FORMAT;
        return 8 + (rsp_has_data(prev_req) ? 8 << size : 0);
    }
    case RVT_TV_INSN16: return 16;
    case RVT_TV_INSN32: return 32;
    default: return RVT_ERR_FORMAT;
    }
}

static void dec_fields(const rvt_tv_cfg *c, rvt_bitr *r, int prev_req, rvt_tv_item *it)
{
    switch (it->op) {
    case RVT_TV_FULL_REG:
        it->reg = (uint16_t)rvt_bitr_get(r, 16);
        it->value = rvt_bitr_get(r, is_fpr(it->reg) ? c->flen : c->xlen);
        break;
    case RVT_TV_INCR_REG:
        it->reg = (uint16_t)rvt_bitr_get(r, 16);
        it->value = (uint64_t)(int64_t)(int8_t)rvt_bitr_get(r, 8);
        break;
    case RVT_TV_OR_REG:
        it->reg = (uint16_t)rvt_bitr_get(r, 16);
        it->value = rvt_bitr_get(r, 8);
        break;
    case RVT_TV_STATE:
        it->id = (uint8_t)rvt_bitr_get(r, 8);
        it->value = rvt_bitr_get(r, state_bits(c, it->id));
        break;
    case RVT_TV_MEM_REQ:
        it->addr = rvt_bitr_get(r, mbits(c));
        it->mem_op = (uint8_t)rvt_bitr_get(r, 4);
        it->mem_size = (uint8_t)rvt_bitr_get(r, 4);
        it->has_data = req_has_data(it->mem_op);
        it->data = it->has_data ? rvt_bitr_get(r, 8u << it->mem_size) : 0;
        break;
    case RVT_TV_MEM_RSP:
        it->mem_size = (uint8_t)rvt_bitr_get(r, 4);
        it->result = (uint8_t)rvt_bitr_get(r, 4);
        it->has_data = rsp_has_data(prev_req);
        it->data = it->has_data ? rvt_bitr_get(r, 8u << it->mem_size) : 0;
        break;
    case RVT_TV_INSN16:
        it->value = rvt_bitr_get(r, 16);
        break;
    case RVT_TV_INSN32:
        it->value = rvt_bitr_get(r, 32);
        break;
    default:
        break;
    }
}

int rvt_tv_decode(const rvt_tv_cfg *c, const uint8_t *buf, size_t len, int prev_req,
                  rvt_tv_item *it)
{
    if (len < 1)
        return RVT_ERR_TRUNC;
    int bits = payload_bits(c, buf, len, prev_req);
    if (bits < 0)
        return bits;
    size_t n = 1 + (size_t)bits / 8;
    if (len < n)
        return RVT_ERR_TRUNC;
    uint64_t off = it->offset, idx = it->index;
    *it = (rvt_tv_item){ .op = buf[0], .offset = off, .index = idx };
    rvt_bitr r;
    rvt_bitr_init(&r, buf + 1, n - 1, 0);
    dec_fields(c, &r, prev_req, it);
    if (it->op == RVT_TV_STATE && it->id == RVT_TV_S_PRIV && it->value > 3)
        return RVT_ERR_FORMAT;   /* PRIVLEN 2, zero extended */
    return (int)n;
}
