/* The reference flow's framing of .te files (the step: tp_int.h). */
#include "transport/tp_int.h"

#define SYNC_CHAIN 4    /* headers that must be valid from a sync point */

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
    if (p + 1 >= len || ((buf[p] >> 5) & 3) != TP_REFFLOW_MSG_INST || (buf[p + 1] & 3) != 3)
        return false;
    for (int k = 0; k < SYNC_CHAIN && p < len; k++) {
        if (!tp_refflow_header_ok(buf[p]) || len - p - 1 < (size_t)(buf[p] & 31))
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
