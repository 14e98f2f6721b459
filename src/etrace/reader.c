/* The reference-flow raw container (DESIGN.md, E-Trace figure 6.1 with a
 * zero-width index and no timestamp): header byte msg_type<<5 | length. */
#include "rvtrace/etrace.h"

void rvt_te_reader_init(rvt_te_reader *r, const rvt_te_attrs *a, const uint8_t *buf, size_t len)
{
    r->attrs = a;
    r->buf = buf;
    r->len = len;
    r->pos = 0;
}

int rvt_te_reader_frame(rvt_te_reader *r, unsigned *type, const uint8_t **payload,
                        size_t *len, uint64_t *offset)
{
    if (r->pos >= r->len)
        return 0;
    size_t at = r->pos;
    uint8_t h = r->buf[at];
    unsigned t = (h >> 5) & 3, n = h & 31;
    *offset = at;
    /* Bit 7 (timestamp present) is never set by rvtrace or the reference
     * flow; a zero length or flows 0/1 are not packets. */
    if ((h & 0x80) || n == 0 || t < RVT_TE_MSG_INST) {
        r->pos = at + 1;
        return RVT_ERR_FORMAT;
    }
    if (r->len - at - 1 < n) {
        r->pos = r->len;
        return RVT_ERR_TRUNC;
    }
    r->pos = at + 1 + n;
    *type = t;
    *payload = r->buf + at + 1;
    *len = n;
    return 1;
}

int rvt_te_reader_next(rvt_te_reader *r, rvt_te_pkt *p, uint64_t *offset)
{
    unsigned type;
    const uint8_t *pl;
    size_t n;
    int st;
    while ((st = rvt_te_reader_frame(r, &type, &pl, &n, offset)) > 0) {
        if (type != RVT_TE_MSG_INST)
            continue;                   /* te_data: src/etrace/data_dec.c */
        st = rvt_te_unpack(r->attrs, pl, n, p);
        if (st < 0) {
            r->pos = (size_t)*offset + 1;   /* resynchronise byte by byte */
            return st;
        }
        return 1;
    }
    return st;
}
