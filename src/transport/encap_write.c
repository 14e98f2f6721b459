/* Encapsulation 1.0 writer (ch. 2): normal packets and synchronisation
 * sequences at the configured interval (3.4 trRamAsyncFreq/trPibAsyncFreq). */
#include <stdlib.h>
#include <string.h>
#include "transport/encap_fmt.h"
#include "util/bitio.h"
#include "rvtrace/etrace.h"

int rvt_encap_pack(const rvt_tp_config *c, unsigned src, unsigned type, unsigned flow,
                   const uint64_t *ts, const uint8_t *payload, size_t n, uint8_t *buf,
                   size_t cap)
{
    if (!c || !buf || (n && !payload) || rvt_tp_config_check(c) < 0 || (ts && !c->ts_bytes))
        return RVT_ERR_INVAL;
    if (n == 0 || n > ENCAP_MAX_LEN || flow > 3 || src >> c->src_bits ||
        (c->type_bits < 32 && type >> c->type_bits))
        return RVT_ERR_RANGE;
    unsigned length = encap_length(c, n);
    if (length > ENCAP_MAX_LEN)
        return RVT_ERR_RANGE;       /* 2.1.4: R = 248 - Y - srcID%8 bits */
    uint8_t h = ENCAP_HEADER(length, flow, ts ? 1u : 0u);
    size_t total = encap_packet_len(c, h);
    if (cap < total)
        return RVT_ERR_INVAL;
    memset(buf, 0, total);          /* padding bits zero: nothing leaks (2.1.5) */
    buf[0] = h;
    rvt_bitw w;
    rvt_bitw_init(&w, buf + 1, total - 1);
    rvt_bitw_put(&w, src, c->src_bits);
    if (ts)     /* a T-byte timestamp field keeps the counter's low bytes */
        rvt_bitw_put(&w, *ts, 8 * c->ts_bytes);
    rvt_bitw_put(&w, type, c->type_bits);
    for (size_t i = 0; i < n; i++)
        rvt_bitw_put(&w, payload[i], 8);
    return (int)total;
}

struct rvt_encap_writer {
    rvt_tp_config cfg;
    rvt_tp_byte_fn out;
    void *ctx;
    uint64_t bytes, last_sync;
    bool synced;
};

rvt_encap_writer *rvt_encap_writer_new(const rvt_tp_config *c, rvt_tp_byte_fn out, void *ctx,
                                       int *status)
{
    int st = !c || !out || rvt_tp_config_check(c) < 0 ? RVT_ERR_INVAL : 0;
    rvt_encap_writer *w = st ? NULL : calloc(1, sizeof *w);
    if (!w && !st)
        st = RVT_ERR_NOMEM;
    if (status)
        *status = st;
    if (!w)
        return NULL;
    w->cfg = *c;
    w->out = out;
    w->ctx = ctx;
    return w;
}

void rvt_encap_writer_free(rvt_encap_writer *w)
{
    free(w);
}

static int emit(rvt_encap_writer *w, const uint8_t *b, size_t n)
{
    int st = w->out(w->ctx, b, n);
    w->bytes += n;
    return st < 0 ? st : 0;
}

int rvt_encap_write_sync(rvt_encap_writer *w)
{
    if (!w)
        return RVT_ERR_INVAL;
    /* 2.3: N null.idle, then a null.alignment (valid framed or unframed) */
    uint8_t seq[31 + 8 + 2 + 1];
    unsigned n = rvt_encap_null_run(&w->cfg);
    memset(seq, ENCAP_NULL_IDLE, n);
    seq[n] = ENCAP_NULL_ALIGN;
    w->synced = true;
    w->last_sync = w->bytes;
    return emit(w, seq, n + 1);
}

int rvt_encap_writer_set_src(rvt_encap_writer *w, unsigned src)
{
    if (!w)
        return RVT_ERR_INVAL;
    if (src >> w->cfg.src_bits)
        return RVT_ERR_RANGE;     /* Encapsulation 2.1.2: srcID is src_bits wide */
    w->cfg.src_id = src;
    return 0;
}

int rvt_encap_write(rvt_encap_writer *w, unsigned type, const uint64_t *ts, const uint8_t *payload,
                    size_t n)
{
    if (!w)
        return RVT_ERR_INVAL;
    uint8_t pkt[1 + 2 + 8 + ENCAP_MAX_LEN];
    int len = rvt_encap_pack(&w->cfg, w->cfg.src_id, type, 0, ts, payload, n, pkt, sizeof pkt);
    if (len < 0)
        return len;
    bool due = w->cfg.sync_interval && w->bytes - w->last_sync >= w->cfg.sync_interval;
    if (!w->synced || due) {
        int st = rvt_encap_write_sync(w);
        if (st < 0)
            return st;
    }
    return emit(w, pkt, (size_t)len);
}

int rvt_encap_write_frame(rvt_encap_writer *w, const uint64_t *ts, const uint8_t *frame, size_t n)
{
    if (!w || !frame || n < 2)
        return RVT_ERR_INVAL;
    /* header msg_type<<5 | length; Encapsulation 3.3: type 0 te_inst, 1 te_data */
    unsigned type = ((frame[0] >> 5) & 3u) - RVT_TE_MSG_INST;
    return rvt_encap_write(w, type, ts, frame + 1, n - 1);
}

uint64_t rvt_encap_writer_bytes(const rvt_encap_writer *w)
{
    return w ? w->bytes : 0;
}
