/* The streaming writer: items are encoded into a buffer that goes to the
 * caller's byte sink when full and on flush. */
#include <stdlib.h>
#include "rvtrace/tv.h"
#include "tv_int.h"

#define WBUF 65536

struct rvt_tv_writer {
    rvt_tv_writer_cfg cfg;
    uint8_t buf[WBUF];
    size_t n;
    uint64_t bytes, items;
    int err;
};

rvt_tv_writer *rvt_tv_writer_new(const rvt_tv_writer_cfg *cfg, int *status)
{
    rvt_tv_cfg tv;
    int st = cfg && cfg->write ? rvt_tv_cfg_resolve(&cfg->tv, &tv) : RVT_ERR_INVAL;
    rvt_tv_writer *w = NULL;
    if (st == RVT_OK) {
        w = calloc(1, sizeof *w);
        st = w ? RVT_OK : RVT_ERR_NOMEM;
    }
    if (w) {
        w->cfg = *cfg;
        w->cfg.tv = tv;
    }
    if (status)
        *status = st;
    return w;
}

int rvt_tv_writer_flush(rvt_tv_writer *w)
{
    if (w->err)
        return w->err;
    if (w->n) {
        int r = w->cfg.write(w->cfg.write_ctx, w->buf, w->n);
        w->n = 0;
        if (r < 0)
            w->err = r;
    }
    return w->err;
}

int rvt_tv_writer_put(rvt_tv_writer *w, const rvt_tv_item *it)
{
    if (w->err)
        return w->err;
    if (WBUF - w->n < RVT_TV_ITEM_MAX && rvt_tv_writer_flush(w) < 0)
        return w->err;
    int len = rvt_tv_encode(&w->cfg.tv, it, w->buf + w->n);
    if (len < 0)
        return len;
    w->n += (size_t)len;
    w->bytes += (uint64_t)len;
    w->items++;
    return RVT_OK;
}

const rvt_tv_cfg *tv_writer_cfg(const rvt_tv_writer *w) { return &w->cfg.tv; }
const rvt_tv_writer_cfg *tv_writer_wcfg(const rvt_tv_writer *w) { return &w->cfg; }
uint64_t rvt_tv_writer_bytes(const rvt_tv_writer *w) { return w->bytes; }
uint64_t rvt_tv_writer_items(const rvt_tv_writer *w) { return w->items; }

int rvt_tv_writer_free(rvt_tv_writer *w)
{
    if (!w)
        return RVT_OK;
    int r = rvt_tv_writer_flush(w);
    free(w);
    return r;
}
