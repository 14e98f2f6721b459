/* Transport stage internals (include/rvtrace/transport.h): one ops table
 * per framing, and the framing steps the protocol readers share. */
#ifndef RVT_TP_INT_H
#define RVT_TP_INT_H

#include "rvtrace/transport.h"

typedef struct tp_ops {
    const char *name;
    /* Next frame from t->pos (advancing it); rvt_tp_next's contract. */
    int (*next)(rvt_transport *t, rvt_tp_frame *f);
    /* The first sync point at or after `from`, or t->len when none. */
    size_t (*sync_from)(const rvt_transport *t, size_t from);
} tp_ops;

struct rvt_transport {
    const tp_ops *ops;
    rvt_tp_config cfg;
    const uint8_t *buf;
    size_t len, pos;
    uint64_t sync_off, skipped;
    bool have_sync;
    const char *why;         /* the last error's text (rvt_tp_error); NULL: the status's */
    uint8_t scratch[32];     /* encap: the payload realigned to bytes */
};

extern const tp_ops tp_refflow_ops, tp_encap_ops, tp_mseo_ops;

/* Move to `to` counting the bytes passed over as skipped. */
static inline void tp_skip_to(rvt_transport *t, size_t to)
{
    if (to > t->pos)
        t->skipped += to - t->pos;
    t->pos = to;
}

/* ---- shared framing steps (also used by src/etrace/reader.c and
 * src/ntrace/nt_msg.c, whose public readers are thin users of them) ---- */

/* refflow (E-Trace 2.0 ch. 6 example encapsulation, zero-width srcID, no
 * timestamp): header byte msg_type<<5 | length, then `length` payload
 * bytes.  Bit 7 (timestamp present) is never set by rvtrace or the
 * reference flow; a zero length or flows 0/1 are not packets. */
#define TP_REFFLOW_MSG_INST 2u     /* rvtrace/etrace.h RVT_TE_MSG_INST */

static inline bool tp_refflow_header_ok(uint8_t h)
{
    return !(h & 0x80) && (h & 31) != 0 && ((h >> 5) & 3) >= TP_REFFLOW_MSG_INST;
}

/* refflow: one frame at *pos (rvt_te_reader_frame's contract: 1, 0 at the
 * end, RVT_ERR_FORMAT for a bad header with *pos one byte on,
 * RVT_ERR_TRUNC with *pos at the end).  Inline: the E-Trace reader frames
 * a packet of 5 bytes on average with it, and the frame then lives in
 * registers, not in memory between two calls. */
static inline int tp_refflow_step(const uint8_t *buf, size_t len, size_t *pos, rvt_tp_frame *f)
{
    size_t at = *pos;
    if (at >= len)
        return 0;
    uint8_t h = buf[at];
    size_t n = h & 31;
    f->offset = at;
    if (!tp_refflow_header_ok(h)) {
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

/* mseo: skip idles, then one message [*start, *start + *mlen) with *pos
 * after it.  1, 0 at the end, or RVT_ERR_FORMAT / RVT_ERR_TRUNC with *why
 * and *err_at (offset in buf) and *pos past the damage (3.4). */
int tp_mseo_step(const uint8_t *buf, size_t len, size_t *pos, size_t *start, size_t *mlen,
                 const char **why, size_t *err_at);

#endif
