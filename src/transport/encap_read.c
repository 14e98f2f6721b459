/* Encapsulation 1.0 reader (ch. 2): normal packets become frames, null
 * packets are passed over, and boundaries are found from any byte by the
 * synchronisation rule (2.3). */
#include <string.h>
#include "transport/encap_fmt.h"
#include "util/bitio.h"

/* The trace payload of a normal packet whose header is valid: srcID,
 * timestamp and type read LSB first after the header, then whole payload
 * bytes (the top bits of the last byte are padding, 2.1.5). */
static void unpack(rvt_transport *t, const uint8_t *p, rvt_tp_frame *f)
{
    const rvt_tp_config *c = &t->cfg;
    uint8_t h = p[0];
    size_t body = encap_packet_len(c, h) - 1;
    unsigned ext = ENCAP_EXTEND(h);
    f->flow = ENCAP_FLOW(h);
    f->has_timestamp = ext;
    f->len = (ENCAP_LEN(h) * 8u - c->src_bits % 8 - c->type_bits) / 8;
    if (c->src_bits % 8 == 0 && c->type_bits == 0) {    /* byte-aligned: no copy */
        const uint8_t *q = p + 1;
        for (unsigned i = 0; i < c->src_bits / 8; i++)
            f->src |= (uint32_t)*q++ << (8 * i);
        for (unsigned i = 0; ext && i < c->ts_bytes; i++)
            f->timestamp |= (uint64_t)*q++ << (8 * i);
        f->payload = q;
        return;
    }
    rvt_bitr r;
    rvt_bitr_init(&r, p + 1, body, 0);
    f->src = (uint32_t)rvt_bitr_get(&r, c->src_bits);
    f->timestamp = ext ? rvt_bitr_get(&r, 8 * c->ts_bytes) : 0;
    f->type = (unsigned)rvt_bitr_get(&r, c->type_bits);
    for (size_t i = 0; i < f->len; i++)
        t->scratch[i] = (uint8_t)rvt_bitr_get(&r, 8);
    f->payload = t->scratch;
}

/* A normal packet's header must leave at least one trace-payload byte;
 * extend needs a timestamp width (2.1.1). */
static bool header_ok(const rvt_tp_config *c, uint8_t h)
{
    if (ENCAP_EXTEND(h) && c->ts_bytes == 0)
        return false;
    return ENCAP_LEN(h) * 8u >= c->src_bits % 8 + c->type_bits + 8;
}

static size_t encap_sync_from(const rvt_transport *t, size_t from);

static int encap_next(rvt_transport *t, rvt_tp_frame *f)
{
    while (t->pos < t->len && encap_null_byte(t->buf[t->pos]))
        t->pos++;                           /* null.idle, null.alignment */
    if (t->pos >= t->len)
        return 0;
    size_t at = t->pos;
    uint8_t h = t->buf[at];
    f->offset = at;
    if (!header_ok(&t->cfg, h)) {
        tp_skip_to(t, encap_sync_from(t, at + 1));
        return RVT_ERR_FORMAT;
    }
    size_t n = encap_packet_len(&t->cfg, h);
    if (t->len - at < n) {
        tp_skip_to(t, t->len);
        return RVT_ERR_TRUNC;
    }
    t->pos = at + n;
    f->size = n;
    unpack(t, t->buf + at, f);
    return 1;
}

/* Null bytes directly before `p` (at most `need`). */
static size_t nulls_before(const uint8_t *buf, size_t p, size_t need)
{
    size_t run = 0;
    while (run < need && p > run && encap_null_byte(buf[p - run - 1]))
        run++;
    return run;
}

/* 2.3: after N + 1 null bytes (the last a null.alignment in an unframed
 * stream) the first non-null byte starts a normal packet. */
static size_t encap_sync_from(const rvt_transport *t, size_t from)
{
    size_t need = rvt_encap_null_run(&t->cfg) + 1;
    size_t run = nulls_before(t->buf, from, need);
    for (size_t p = from; p < t->len; p++) {
        if (encap_null_byte(t->buf[p])) {
            run++;
            continue;
        }
        if (run >= need && (!t->cfg.unframed || t->buf[p - 1] == ENCAP_NULL_ALIGN))
            return p;
        run = 0;
    }
    return t->len;
}

const tp_ops tp_encap_ops = { "encap", encap_next, encap_sync_from };
