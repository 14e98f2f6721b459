/* The reference flow's framing of .te files (E-Trace 2.0 ch. 6 example
 * encapsulation with a zero-width srcID and no timestamp): header byte
 * msg_type<<5 | length, then `length` payload bytes. */
#include "transport/tp_int.h"

#define MSG_INST 2u     /* rvtrace/etrace.h RVT_TE_MSG_INST */
#define SYNC_CHAIN 4    /* headers that must be valid from a sync point */

/* Bit 7 (timestamp present) is never set by rvtrace or the reference flow;
 * a zero length or flows 0/1 are not packets. */
static bool header_ok(uint8_t h)
{
    return !(h & 0x80) && (h & 31) != 0 && ((h >> 5) & 3) >= MSG_INST;
}

int tp_refflow_step(const uint8_t *buf, size_t len, size_t *pos, rvt_tp_frame *f)
{
    size_t at = *pos;
    if (at >= len)
        return 0;
    uint8_t h = buf[at];
    size_t n = h & 31;
    f->offset = at;
    if (!header_ok(h)) {
        *pos = at + 1;
        return RVT_ERR_FORMAT;
    }
    if (len - at - 1 < n) {
        *pos = len;
        return RVT_ERR_TRUNC;
    }
    *pos = at + 1 + n;
    f->size = 1 + n;
    f->type = f->flow = (h >> 5) & 3;
    f->payload = buf + at + 1;
    f->len = n;
    return 1;
}

static int refflow_next(rvt_transport *t, rvt_tp_frame *f)
{
    size_t at = t->pos;
    int st = tp_refflow_step(t->buf, t->len, &t->pos, f);
    if (st < 0)
        t->skipped += t->pos - at;     /* byte-level resynchronisation */
    return st;
}

/* E-Trace 6.1: only a format-3 te_inst packet lets a decoder start; its
 * header and the next ones must chain (or end the stream exactly). */
static bool is_sync(const uint8_t *buf, size_t len, size_t p)
{
    if (p + 1 >= len || ((buf[p] >> 5) & 3) != MSG_INST || (buf[p + 1] & 3) != 3)
        return false;
    for (int k = 0; k < SYNC_CHAIN && p < len; k++) {
        if (!header_ok(buf[p]) || len - p - 1 < (size_t)(buf[p] & 31))
            return false;
        p += 1 + (buf[p] & 31);
    }
    return true;
}

static size_t refflow_sync_from(const rvt_transport *t, size_t from)
{
    while (from < t->len && !is_sync(t->buf, t->len, from))
        from++;
    return from;
}

const tp_ops tp_refflow_ops = { "refflow", refflow_next, refflow_sync_from };
