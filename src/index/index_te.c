/* E-Trace sync points (index.h): te_inst format 3 subformats 0 and 1 over
 * the reference-flow framing, read with the modes of the last support
 * packet (6.5) as the decoder reads them. */
#include <string.h>
#include "index_int.h"
#include "rvtrace/transport.h"

/* 6.5: a support packet sets the modes; the packet layouts that follow
 * (predictor and cache fields) depend on them.  The decoder's rule
 * (src/etrace/decoder.c set_options): attributes that cannot hold the new
 * modes keep the old ones. */
static void apply_support(rvt_te_attrs *a, unsigned options)
{
    rvt_te_attrs old = *a;
    a->options = rvt_te_support_options(a, options);
    rvt_te_attrs_fill(a);
    if (rvt_te_attrs_check(a) < 0)
        *a = old;
}

/* A packet a decoder can start from with nothing but the modes:
 * subformat 0, or 1 unless the handler address is implicit (3.2.3) or it
 * is 2.0's thaddr 0 (table 6.3: not where the trace goes on). */
static bool is_start(const rvt_te_attrs *a, const rvt_te_pkt *p)
{
    if (p->format != 3 || p->subformat > 1)
        return false;
    if (p->subformat == 0)
        return true;
    return !(a->options & RVT_TE_OPT_IMPLICIT_EXCEPT) && !(a->version == RVT_TE_V20 && !p->thaddr);
}

/* The first sync candidate at or after from (rvt_tp_sync_forward). */
static size_t first_sync(const uint8_t *buf, size_t len, uint64_t from)
{
    if (!from)
        return 0;
    rvt_tp_config tc;
    rvt_tp_config_init(&tc);
    rvt_transport *t = rvt_tp_new("refflow", &tc, buf, len, NULL);
    size_t at = len;
    if (t && rvt_tp_sync_set(t, from) == 0 && rvt_tp_sync_forward(t) == 0)
        at = (size_t)rvt_tp_get_offset(t);
    rvt_tp_free(t);
    return at;
}

int idx_scan_te(rvt_index *x, const rvt_te_attrs *attrs, const uint8_t *buf, size_t len,
                uint64_t from)
{
    rvt_te_attrs a = *attrs;
    rvt_te_attrs_fill(&a);
    rvt_te_reader r;
    rvt_te_reader_init(&r, &a, buf, len);
    r.pos = first_sync(buf, len, from);
    uint64_t off, support = RVT_INDEX_NONE;
    rvt_te_pkt p;
    int st;
    while ((st = rvt_te_reader_next(&r, &p, &off)) != 0) {
        if (st < 0)
            continue;                       /* passed over, as the decoder does */
        if (p.format == 3 && p.subformat == 3) {
            apply_support(&a, p.options);
            support = off;
            continue;
        }
        if (!is_start(&a, &p))
            continue;
        rvt_index_point pt = { .offset = off, .pc = (p.address << a.iaddress_lsb),
                               .insns = RVT_INDEX_NONE, .context = p.context, .state = support,
                               .size = (uint32_t)(r.pos - off), .priv = p.privilege,
                               .kind = p.subformat };
        if (idx_add(x, &pt) < 0)
            return RVT_ERR_NOMEM;
    }
    return 0;
}
