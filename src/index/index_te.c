/* E-Trace sync points (index.h): te_inst format 3 subformats 0 and 1 over
 * the reference-flow framing, read with the modes of the last support
 * packet (6.5) as the decoder reads them. */
#include <string.h>
#include "index_int.h"
#include "etrace/attrs_int.h"
#include "rvtrace/transport.h"

/* 6.5: a support packet sets the modes; the packet layouts that follow
 * (predictor and cache fields) depend on them.  The decoder's rule
 * (src/etrace/decoder.c set_options): attributes that cannot hold the new
 * modes keep the old ones. */
static void apply_support(rvt_te_attrs *a, unsigned options)
{
    rvt_te_attrs next = *a, filled;
    next.options = rvt_te_support_options(a, options);
    if (rvt_te_attrs_filled(&next, &filled) == 0)
        *a = filled;
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

/* Implicit exception mode (3.2.3) leaves the handler address to the
 * decoder, which knows it from an earlier explicit trap of that cause: a
 * table no sync resets.  When a stream uses the mode, a point after the
 * first explicit trap may need what came before it: those points go. */
typedef struct te_tvec_use {
    bool implicit;          /* the mode was in force at some time */
    uint64_t first_learn;   /* the first explicit trap's offset */
} te_tvec_use;

static void note_tvec(te_tvec_use *u, const rvt_te_attrs *a, const rvt_te_pkt *p, uint64_t off)
{
    bool implicit = a->options & RVT_TE_OPT_IMPLICIT_EXCEPT;
    u->implicit |= implicit;
    if (p->format == 3 && p->subformat == 1 && !implicit && u->first_learn == RVT_INDEX_NONE)
        u->first_learn = off;
}

static void drop_after(rvt_index *x, uint64_t off)
{
    while (x->n && x->pts[x->n - 1].offset > off)
        x->n--;
}

int idx_scan_te(rvt_index *x, const rvt_te_attrs *attrs, const uint8_t *buf, size_t len,
                uint64_t from)
{
    te_tvec_use use = { false, RVT_INDEX_NONE };
    rvt_te_attrs a = *attrs;
    rvt_te_attrs_fill(&a);
    rvt_te_reader r;
    rvt_te_reader_init(&r, &a, buf, len);
    rvt_tp_config tc;
    rvt_tp_config_init(&tc);
    r.pos = idx_first_sync("refflow", &tc, buf, len, from);
    uint64_t off, support = RVT_INDEX_NONE;
    rvt_te_pkt p;
    int st;
    while ((st = rvt_te_reader_next(&r, &p, &off)) != 0) {
        idx_progress(x, r.pos);
        if (st < 0)
            continue;                       /* passed over, as the decoder does */
        note_tvec(&use, &a, &p, off);
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
    if (use.implicit || (a.options & RVT_TE_OPT_IMPLICIT_EXCEPT))
        drop_after(x, use.first_learn);
    return 0;
}
