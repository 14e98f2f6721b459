/* The stream index: building by protocol, the points (index.h). */
#include <stdlib.h>
#include <string.h>
#include "index_int.h"
#include "rvtrace/transport.h"
#include "util/grow.h"

rvt_index *idx_new(unsigned proto, uint64_t stream_size)
{
    rvt_index *x = calloc(1, sizeof *x);
    if (x) {
        x->proto = proto;
        x->stream_size = stream_size;
        x->sources = 1;
    }
    return x;
}

int idx_source_seen(rvt_index *x, uint16_t src, uint64_t at)
{
    src &= 4095;                /* N-Trace table 8: SRC is at most 12 bits */
    if (!x->slot && !(x->slot = calloc(4096, sizeof *x->slot)))
        return RVT_ERR_NOMEM;
    x->src_known = true;
    if (x->slot[src])
        return 0;
    idx_source *a = rvt_grow(x->srcs, &x->src_cap, x->nsrc + 1, sizeof *a, 8);
    if (!a)
        return RVT_ERR_NOMEM;
    x->srcs = a;
    x->srcs[x->nsrc++] = (idx_source){ .src = src, .first = at };
    x->slot[src] = (uint16_t)x->nsrc;
    x->sources = (unsigned)x->nsrc;
    return 0;
}

/* min_gap: a point near the last kept one of its source is left out, so
 * that each source of a multi-source stream keeps points of its own
 * (decode --jobs cuts each source's stream at them). */
static bool too_near(rvt_index *x, const rvt_index_point *p)
{
    idx_source *s = x->slot && x->slot[p->src & 4095] ? &x->srcs[x->slot[p->src & 4095] - 1] : NULL;
    if (!s)
        return x->n && p->offset - x->pts[x->n - 1].offset < x->min_gap;
    if (s->kept && p->offset - s->last_kept < x->min_gap)
        return true;
    s->kept = true;
    s->last_kept = p->offset;
    return false;
}

int idx_add(rvt_index *x, const rvt_index_point *p)
{
    if (too_near(x, p))
        return 0;
    rvt_index_point *a = rvt_grow(x->pts, &x->cap, x->n + 1, sizeof *a, 256);
    if (!a)
        return RVT_ERR_NOMEM;
    x->pts = a;
    x->pts[x->n++] = *p;
    return 0;
}

size_t idx_first_sync(const char *name, const rvt_tp_config *tc, const uint8_t *buf,
                      size_t len, uint64_t from)
{
    if (!from)
        return 0;
    rvt_transport *t = rvt_tp_new(name, tc, buf, len, NULL);
    size_t at = len;
    if (t && rvt_tp_sync_set(t, from) == 0 && rvt_tp_sync_forward(t) == 0)
        at = (size_t)rvt_tp_get_offset(t);
    rvt_tp_free(t);
    return at;
}

/* How far the scan goes between two calls of the done function: small
 * against any resident-set budget, large against the call's cost. */
#define IDX_DONE_STEP (4u << 20)

void idx_progress(rvt_index *x, uint64_t pos)
{
    if (x->done && pos >= x->done_at + IDX_DONE_STEP) {
        x->done_at = pos;
        x->done(x->done_ctx, pos);
    }
}

int rvt_index_build(const rvt_proto_cfg *c, const uint8_t *buf, size_t len, uint64_t from,
                    uint64_t min_gap, rvt_index **out)
{
    return rvt_index_build_stream(c, buf, len, from, min_gap, NULL, NULL, out);
}

int rvt_index_build_stream(const rvt_proto_cfg *c, const uint8_t *buf, size_t len,
                           uint64_t from, uint64_t min_gap, rvt_index_done_fn done, void *ctx,
                           rvt_index **out)
{
    if (!c || (!buf && len) || !out)
        return RVT_ERR_INVAL;
    const char *name = rvt_proto_name(rvt_proto_cfg_proto(c));
    bool te = !strncmp(name, "etrace", 6), nt = !strcmp(name, "ntrace");
    if (!te && !nt)
        return RVT_ERR_INVAL;
    rvt_index *x = idx_new(te ? IDX_ETRACE : IDX_NTRACE, len);
    if (!x)
        return RVT_ERR_NOMEM;
    x->min_gap = min_gap;
    x->done = done;
    x->done_ctx = ctx;
    const void *native = rvt_proto_cfg_native_const(c);
    int st = te ? idx_scan_te(x, native, buf, len, from) : idx_scan_nt(x, native, buf, len, from);
    x->done = NULL;           /* the index outlives the caller's function */
    if (st < 0) {
        rvt_index_free(x);
        return st;
    }
    *out = x;
    return 0;
}

void rvt_index_free(rvt_index *x)
{
    if (x) {
        free(x->pts);
        free(x->srcs);
        free(x->slot);
    }
    free(x);
}

size_t rvt_index_count(const rvt_index *x) { return x ? x->n : 0; }

const rvt_index_point *rvt_index_at(const rvt_index *x, size_t i)
{
    return x && i < x->n ? &x->pts[i] : NULL;
}

const char *rvt_index_proto(const rvt_index *x)
{
    return !x ? NULL : x->proto == IDX_ETRACE ? "etrace" : "ntrace";
}

uint64_t rvt_index_stream_size(const rvt_index *x) { return x ? x->stream_size : 0; }

unsigned rvt_index_sources(const rvt_index *x) { return x ? x->sources : 0; }

int rvt_index_source(const rvt_index *x, size_t i, uint16_t *src, uint64_t *first)
{
    if (!x || !src || !first)
        return RVT_ERR_INVAL;
    if (!x->src_known)
        return RVT_ERR_STATE;
    if (i >= x->nsrc)
        return RVT_ERR_INVAL;
    *src = x->srcs[i].src;
    *first = x->srcs[i].first;
    return 0;
}

int rvt_index_set_insns(rvt_index *x, size_t i, uint64_t insns)
{
    if (!x || i >= x->n)
        return RVT_ERR_INVAL;
    x->pts[i].insns = insns;
    return 0;
}
