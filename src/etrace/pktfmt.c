/* One te_inst packet as text (rvtrace dump): every field named, in wire
 * order, or as a JSON object with the same names. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include "rvtrace/etrace.h"
#include "util/bitio.h"

typedef struct out {
    char *buf;
    size_t n, len;
    bool json, first;
} out;

static void put(out *o, const char *name, uint64_t v, bool hex)
{
    if (o->len >= o->n)
        return;
    const char *sep = o->first ? "" : (o->json ? "," : " ");
    int w;
    if (o->json)
        w = hex ? snprintf(o->buf + o->len, o->n - o->len, "%s\"%s\":\"0x%" PRIx64 "\"", sep, name, v)
                : snprintf(o->buf + o->len, o->n - o->len, "%s\"%s\":%" PRIu64, sep, name, v);
    else
        w = hex ? snprintf(o->buf + o->len, o->n - o->len, "%s%s=0x%" PRIx64, sep, name, v)
                : snprintf(o->buf + o->len, o->n - o->len, "%s%s=%" PRIu64, sep, name, v);
    if (w > 0)
        o->len += (size_t)w;
    o->first = false;
}

/* The address field as on the wire, and in text the byte address it
 * stands for (6.2: shifted left by iaddress_lsb): the address itself when
 * full, else the signed difference to the previous one (3.2.2). */
static void put_addr(out *o, const rvt_te_attrs *a, uint64_t v, bool full)
{
    put(o, "address", v, true);
    if (o->json || o->len >= o->n)
        return;
    int w;
    if (full) {
        w = snprintf(o->buf + o->len, o->n - o->len, " (0x%" PRIx64 ")", v << a->iaddress_lsb);
    } else {
        uint64_t d = (uint64_t)rvt_sext(v, a->iaddress_width - a->iaddress_lsb) << a->iaddress_lsb;
        bool neg = (int64_t)d < 0;
        w = snprintf(o->buf + o->len, o->n - o->len, " (%s0x%" PRIx64 ")", neg ? "-" : "+",
                     neg ? -d : d);
    }
    if (w > 0)
        o->len += (size_t)w;
}

static void tail(out *o, const rvt_te_attrs *a, const rvt_te_pkt *p)
{
    put_addr(o, a, p->address, (a->options & RVT_TE_OPT_FULL_ADDRESS) != 0);
    put(o, "notify", p->notify, false);
    put(o, "updiscon", p->updiscon, false);
    put(o, "irreport", p->irreport, false);
    if (rvt_te_irdepth_width(a))
        put(o, "irdepth", p->irdepth, false);
}

static void f3(out *o, const rvt_te_attrs *a, const rvt_te_pkt *p)
{
    bool v2 = a->version == RVT_TE_V20;
    if (p->subformat == 3) {
        put(o, v2 ? "ienable" : "enable", p->enable, false);
        put(o, "encoder_mode", p->encoder_mode, false);
        put(o, "qual_status", p->qual_status, false);
        put(o, v2 ? "ioptions" : "options", p->options, true);
        if (v2) {
            put(o, "denable", p->denable, false);
            put(o, "dloss", p->dloss, false);
            put(o, "doptions", p->doptions, false);
        }
        return;
    }
    if (p->subformat != 2 || v2)
        put(o, "branch", p->branch, false);
    put(o, "privilege", p->privilege, false);
    if (v2 && !a->notime)
        put(o, "time", p->time, false);
    if (!a->nocontext)
        put(o, "context", p->context, true);
    if (p->subformat == 1) {
        put(o, "ecause", p->ecause, false);
        put(o, "interrupt", p->interrupt, false);
        if (v2)
            put(o, "thaddr", p->thaddr, false);
    }
    if (p->subformat <= 1 && !(p->subformat == 1 && (a->options & RVT_TE_OPT_IMPLICIT_EXCEPT)))
        put_addr(o, a, p->address, true);
    if (p->subformat == 1 && (!v2 || !p->interrupt))
        put(o, v2 ? "tval" : "tvalepc", p->tval, true);
}

static void f0(out *o, const rvt_te_attrs *a, const rvt_te_pkt *p)
{
    if (p->subformat == 0) {
        put(o, "branch_count", p->branch_count, false);
        put(o, "branch_fmt", p->branch_fmt, false);
        if (p->branch_fmt)
            tail(o, a, p);
        return;
    }
    put(o, "index", p->index, false);
    put(o, "branches", p->branches, false);
    if (p->branches)
        put(o, "branch_map", p->branch_map, true);
    put(o, "irreport", p->irreport, false);
    if (rvt_te_irdepth_width(a))
        put(o, "irdepth", p->irdepth, false);
}

const char *rvt_te_pkt_name(const rvt_te_pkt *p)
{
    static const char *const names[4][4] = {
        { "branch-count", "jump-cache", "format0-sf2", "format0-sf3" },
        { "branch-map", "branch-map", "branch-map", "branch-map" },
        { "address", "address", "address", "address" },
        { "sync", "exception", "context", "support" },
    };
    return names[p->format & 3][p->subformat & 3];
}

int rvt_te_pkt_format(const rvt_te_attrs *a, const rvt_te_pkt *p, bool json, char *buf, size_t n)
{
    out o = { buf, n, 0, json, true };
    if (n == 0)
        return 0;
    buf[0] = 0;
    if (json)
        o.len = (size_t)snprintf(buf, n, "{");
    put(&o, "format", p->format, false);
    if (p->format == 3 || p->format == 0)
        put(&o, "subformat", p->subformat, false);
    if (!json && o.len < n) {
        int w = snprintf(buf + o.len, n - o.len, " (%s)", rvt_te_pkt_name(p));
        if (w > 0)
            o.len += (size_t)w;
    }
    switch (p->format) {
    case 3: f3(&o, a, p); break;
    case 2: tail(&o, a, p); break;
    case 1:
        put(&o, "branches", p->branches, false);
        put(&o, "branch_map", p->branch_map, true);
        if (p->branches)
            tail(&o, a, p);
        break;
    default: f0(&o, a, p); break;
    }
    if (json && o.len < n) {
        int w = snprintf(buf + o.len, n - o.len, "}");
        if (w > 0)
            o.len += (size_t)w;
    }
    return (int)(o.len < n ? o.len : n - 1);
}
