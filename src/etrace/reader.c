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

int rvt_te_reader_next(rvt_te_reader *r, rvt_te_pkt *p, uint64_t *offset)
{
    while (r->pos < r->len) {
        size_t at = r->pos;
        uint8_t h = r->buf[at];
        unsigned type = (h >> 5) & 3, n = h & 31;
        *offset = at;
        /* Bit 7 (timestamp present) is never set by rvtrace or the
         * reference flow; a zero length or flows 0/1 are not packets. */
        if ((h & 0x80) || n == 0 || type < RVT_TE_MSG_INST) {
            r->pos = at + 1;
            return RVT_ERR_FORMAT;
        }
        if (r->len - at - 1 < n) {
            r->pos = r->len;
            return RVT_ERR_TRUNC;
        }
        r->pos = at + 1 + n;
        if (type != RVT_TE_MSG_INST)
            continue;                   /* te_data: not ours to decode here */
        int st = rvt_te_unpack(r->attrs, r->buf + at + 1, n, p);
        if (st < 0) {
            r->pos = at + 1;            /* resynchronise byte by byte */
            return st;
        }
        return 1;
    }
    return 0;
}
