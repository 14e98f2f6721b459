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

/* refflow: one frame at *pos (rvt_te_reader_frame's contract: 1, 0 at the
 * end, RVT_ERR_FORMAT for a bad header with *pos one byte on,
 * RVT_ERR_TRUNC with *pos at the end). */
int tp_refflow_step(const uint8_t *buf, size_t len, size_t *pos, rvt_tp_frame *f);

/* mseo: skip idles, then one message [*start, *start + *mlen) with *pos
 * after it.  1, 0 at the end, or RVT_ERR_FORMAT / RVT_ERR_TRUNC with *why
 * and *err_at (offset in buf) and *pos past the damage (3.4). */
int tp_mseo_step(const uint8_t *buf, size_t len, size_t *pos, size_t *start, size_t *mlen,
                 const char **why, size_t *err_at);

#endif
