/* The E-Trace packet reader over the reference-flow raw container: the
 * framing itself is the transport stage's "refflow" (src/transport/
 * refflow.c); this file only unpacks te_inst payloads. */
#include "rvtrace/etrace.h"
#include "transport/tp_int.h"

void rvt_te_reader_init(rvt_te_reader *r, const rvt_te_attrs *a, const uint8_t *buf, size_t len)
{
    r->attrs = a;
    r->buf = buf;
    r->len = len;
    r->pos = 0;
    r->skipped = 0;
}

int rvt_te_reader_frame(rvt_te_reader *r, unsigned *type, const uint8_t **payload,
                        size_t *len, uint64_t *offset)
{
    rvt_tp_frame f;
    size_t at = r->pos;
    int st = tp_refflow_step(r->buf, r->len, &r->pos, &f);   /* src/transport/refflow.c */
    if (st != 0)
        *offset = f.offset;
    if (st == RVT_ERR_FORMAT)
        r->skipped += r->pos - at;
    if (st > 0) {
        *type = f.type;
        *payload = f.payload;
        *len = f.len;
    }
    return st;
}

void rvt_te_reader_reject(rvt_te_reader *r, uint64_t offset)
{
    if (r->pos > offset + 1 && r->pos < r->len) {
        r->pos = (size_t)offset + 1;
        r->skipped++;
    }
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
            r->skipped++;
            return st;
        }
        return 1;
    }
    return st;
}
