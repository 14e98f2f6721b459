/* The E-Trace packet reader: frames from a transport (any container:
 * rvt_te_reader_init_transport) or, for a plain buffer, the transport
 * stage's "refflow" framing step called in place (src/transport/
 * refflow.c; no object, no indirect call per packet); this file only
 * unpacks te_inst payloads. */
#include "rvtrace/etrace.h"
#include "transport/tp_int.h"

void rvt_te_reader_init(rvt_te_reader *r, const rvt_te_attrs *a, const uint8_t *buf, size_t len)
{
    r->attrs = a;
    r->buf = buf;
    r->len = len;
    r->pos = 0;
    r->skipped = 0;
    r->tp = NULL;
}

void rvt_te_reader_init_transport(rvt_te_reader *r, const rvt_te_attrs *a, rvt_transport *tp)
{
    rvt_te_reader_init(r, a, NULL, 0);
    r->tp = tp;
    r->len = tp ? tp->len : 0;     /* pos and len follow the transport's stream */
    r->pos = tp ? tp->pos : 0;
}

/* The frame's E-Trace message type: the reference flow's header says it;
 * an encapsulated packet's payload type field does (Encapsulation 3.3:
 * 0 te_inst, 1 te_data; a 0-bit type is instruction trace only). */
static unsigned te_msg_type(const rvt_transport *tp, const rvt_tp_frame *f)
{
    if (tp->ops != &tp_encap_ops)      /* the ops, not a strcmp of the name a frame */
        return f->type;
    return f->type == 0 ? RVT_TE_MSG_INST : f->type == 1 ? RVT_TE_MSG_DATA : f->type + 8;
}

static int frame_from_transport(rvt_te_reader *r, unsigned *type, const uint8_t **payload,
                                size_t *len, uint64_t *offset)
{
    rvt_tp_frame f;
    int st = rvt_tp_next(r->tp, &f);
    *offset = f.offset;
    r->skipped = rvt_tp_skipped(r->tp);
    r->pos = r->tp->pos;
    if (st > 0) {
        *type = te_msg_type(r->tp, &f);
        *payload = f.payload;
        *len = f.len;
    }
    return st;
}

/* rvt_te_reader_frame, static so that rvt_te_reader_next inlines it (an
 * exported name may be interposed in the shared library, so GCC calls
 * it). */
static int reader_frame(rvt_te_reader *r, unsigned *type, const uint8_t **payload,
                        size_t *len, uint64_t *offset)
{
    if (r->tp)
        return frame_from_transport(r, type, payload, len, offset);
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

int rvt_te_reader_frame(rvt_te_reader *r, unsigned *type, const uint8_t **payload,
                        size_t *len, uint64_t *offset)
{
    return reader_frame(r, type, payload, len, offset);
}

void rvt_te_reader_reject(rvt_te_reader *r, uint64_t offset)
{
    if (r->tp) {
        rvt_tp_frame f = { .offset = offset };
        rvt_tp_reject(r->tp, &f);
        r->skipped = rvt_tp_skipped(r->tp);
        r->pos = r->tp->pos;
        return;
    }
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
    while ((st = reader_frame(r, &type, &pl, &n, offset)) > 0) {
        if (type != RVT_TE_MSG_INST)
            continue;                   /* te_data: src/etrace/data_dec.c */
        st = rvt_te_unpack(r->attrs, pl, n, p);
        if (st < 0 && r->tp) {
            rvt_te_reader_reject(r, *offset);   /* the transport's resynchronisation */
            return st;
        }
        if (st < 0) {
            r->pos = (size_t)*offset + 1;   /* resynchronise byte by byte */
            r->skipped++;
            return st;
        }
        return 1;
    }
    return st;
}
