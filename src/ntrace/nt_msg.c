/* N-Trace messages: field layouts (table 8, ch. 7), encoding, and the
 * message splitter/parser over a byte stream (3.1, 3.4). */
#include <stdio.h>
#include <string.h>
#include "rvtrace/ntrace.h"
#include "ntrace/nt_mseo.h"
#include "ntrace/nt_read.h"
#include "transport/tp_int.h"
#include "util/bitio.h"

/* Fields of each message in transmission order (table 8).  Optional
 * trailing fields (HIST of ProgTraceCorrelation with CDF=1, HREPEAT of
 * RCODE 2, TSTAMP) are handled in code. */
typedef struct nt_layout {
    uint8_t tcode;
    const char *name;
    int8_t fix[3];        /* fixed fields, -1 terminated */
    int8_t var[3];        /* mandatory variable fields, -1 terminated */
} nt_layout;

#define END_ -1
static const nt_layout layouts[] = {
    { RVT_NT_OWNERSHIP, "Ownership", {END_}, {RVT_NT_F_PROCESS, END_} },
    { RVT_NT_DIRECT_BRANCH, "DirectBranch", {END_}, {RVT_NT_F_ICNT, END_} },
    { RVT_NT_INDIRECT_BRANCH, "IndirectBranch", {RVT_NT_F_BTYPE, END_},
      {RVT_NT_F_ICNT, RVT_NT_F_UADDR, END_} },
    { RVT_NT_ERROR, "Error", {RVT_NT_F_ETYPE, END_}, {RVT_NT_F_ECODE, END_} },
    { RVT_NT_PROG_TRACE_SYNC, "ProgTraceSync", {RVT_NT_F_SYNC, END_},
      {RVT_NT_F_ICNT, RVT_NT_F_FADDR, END_} },
    { RVT_NT_DIRECT_BRANCH_SYNC, "DirectBranchSync", {RVT_NT_F_SYNC, END_},
      {RVT_NT_F_ICNT, RVT_NT_F_FADDR, END_} },
    { RVT_NT_INDIRECT_BRANCH_SYNC, "IndirectBranchSync", {RVT_NT_F_SYNC, RVT_NT_F_BTYPE, END_},
      {RVT_NT_F_ICNT, RVT_NT_F_FADDR, END_} },
    { RVT_NT_RESOURCE_FULL, "ResourceFull", {RVT_NT_F_RCODE, END_}, {RVT_NT_F_RDATA, END_} },
    { RVT_NT_INDIRECT_BRANCH_HIST, "IndirectBranchHist", {RVT_NT_F_BTYPE, END_},
      {RVT_NT_F_ICNT, RVT_NT_F_UADDR, RVT_NT_F_HIST} },
    { RVT_NT_INDIRECT_BRANCH_HIST_SYNC, "IndirectBranchHistSync",
      {RVT_NT_F_SYNC, RVT_NT_F_BTYPE, END_}, {RVT_NT_F_ICNT, RVT_NT_F_FADDR, RVT_NT_F_HIST} },
    { RVT_NT_REPEAT_BRANCH, "RepeatBranch", {END_}, {RVT_NT_F_BCNT, END_} },
    { RVT_NT_PROG_TRACE_CORRELATION, "ProgTraceCorrelation",
      {RVT_NT_F_EVCODE, RVT_NT_F_CDF, END_}, {RVT_NT_F_ICNT, END_} },
};

static const nt_layout *layout_of(unsigned tcode)
{
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
        if (layouts[i].tcode == tcode)
            return &layouts[i];
    return NULL;
}

static unsigned fixed_bits(int field)
{
    switch (field) {
    case RVT_NT_F_BTYPE: case RVT_NT_F_CDF: return 2;
    default: return 4;     /* SYNC, ETYPE, RCODE, EVCODE */
    }
}

static const char *const field_names[RVT_NT_F_COUNT] = {
    "SRC", "SYNC", "BTYPE", "ETYPE", "RCODE", "EVCODE", "CDF", "PROCESS", "ECODE",
    "ICNT", "FADDR", "UADDR", "HIST", "RDATA", "HREPEAT", "BCNT", "TSTAMP",
};

const char *rvt_nt_field_name(int field)
{
    return field >= 0 && field < RVT_NT_F_COUNT ? field_names[field] : "?";
}

const char *rvt_nt_tcode_name(unsigned tcode)
{
    const nt_layout *l = layout_of(tcode);
    if (l)
        return l->name;
    if (tcode >= RVT_NT_VENDOR_FIRST && tcode <= RVT_NT_VENDOR_LAST)
        return "VendorDefined";
    return NULL;
}

bool rvt_nt_is_sync(unsigned tcode)
{
    return tcode == RVT_NT_PROG_TRACE_SYNC || tcode == RVT_NT_DIRECT_BRANCH_SYNC ||
           tcode == RVT_NT_INDIRECT_BRANCH_SYNC || tcode == RVT_NT_INDIRECT_BRANCH_HIST_SYNC;
}

/* Variable fields of m in order: the layout's, then the optional ones. */
/* A field's value, 0 when absent (callers may leave absent fields unset). */
static inline uint64_t fv(const rvt_nt_msg *m, int field)
{
    return rvt_nt_has(m, field) ? m->f[field] : 0;
}

static unsigned var_fields(const rvt_nt_msg *m, const nt_layout *l, int out[6])
{
    unsigned n = 0;
    for (int i = 0; i < 3 && l->var[i] != END_; i++)
        out[n++] = l->var[i];
    if (m->tcode == RVT_NT_RESOURCE_FULL && fv(m, RVT_NT_F_RCODE) == RVT_NT_RCODE_HREPEAT)
        out[n++] = RVT_NT_F_HREPEAT;
    if (m->tcode == RVT_NT_PROG_TRACE_CORRELATION && fv(m, RVT_NT_F_CDF) == 1)
        out[n++] = RVT_NT_F_HIST;
    return n;
}

static bool is_addr(int field)
{
    return field == RVT_NT_F_FADDR || field == RVT_NT_F_UADDR;
}

static unsigned addr_bits(const rvt_nt_cfg *cfg)
{
    if (!cfg || !cfg->extend_addr_msb)
        return 0;
    return (cfg->xlen == 32 ? 32 : 64) - 1;  /* bit 0 is never sent (8.1) */
}

int rvt_nt_msg_encode(const rvt_nt_msg *m, const rvt_nt_cfg *cfg, uint8_t *out, size_t cap)
{
    const nt_layout *l = layout_of(m->tcode);
    if (!l)
        return RVT_ERR_INVAL;
    unsigned sb = cfg ? rvt_nt_cfg_src_bits(cfg) : 0, ab = addr_bits(cfg);
    nt_mw w;
    nt_mw_init(&w, out, cap);
    nt_mw_fixed(&w, m->tcode, 6);
    if (sb)
        nt_mw_fixed(&w, fv(m, RVT_NT_F_SRC), sb);
    for (int i = 0; i < 3 && l->fix[i] != END_; i++)
        nt_mw_fixed(&w, fv(m, l->fix[i]), fixed_bits(l->fix[i]));
    int vf[6];
    unsigned nv = var_fields(m, l, vf);
    bool ts = rvt_nt_has(m, RVT_NT_F_TSTAMP);
    if (ts)
        vf[nv++] = RVT_NT_F_TSTAMP;
    for (unsigned i = 0; i < nv; i++) {
        bool last = i + 1 == nv;
        if (is_addr(vf[i]) && ab)
            nt_mw_addr(&w, fv(m, vf[i]), ab, true, last);
        else
            nt_mw_var(&w, fv(m, vf[i]), last);
    }
    return w.overflow ? RVT_ERR_RANGE : (int)w.n;
}

/* ---- reader ---- */

void rvt_nt_reader_init(rvt_nt_reader *r, const uint8_t *buf, size_t len,
                        const struct rvt_nt_cfg *cfg)
{
    memset(r, 0, sizeof *r);
    r->buf = buf;
    r->len = len;
    r->src_bits = cfg ? rvt_nt_cfg_src_bits(cfg) : 0;
    r->addr_bits = addr_bits(cfg);
}

void rvt_nt_reader_init_transport(rvt_nt_reader *r, struct rvt_transport *tp,
                                  const struct rvt_nt_cfg *cfg)
{
    if (!r)
        return;
    rvt_nt_reader_init(r, NULL, 0, cfg);
    r->tp = tp;
    r->len = tp ? tp->len : 0;     /* pos and len follow the transport's stream */
    r->pos = tp ? tp->pos : 0;
}

static int fail(rvt_nt_reader *r, uint64_t off, const char *why, int st)
{
    r->err = why;
    r->err_offset = r->base + off;
    return st;
}

/* Inlined into both readers' paths (the plain buffer's is the hot one). */
static inline __attribute__((always_inline)) int parse(rvt_nt_reader *r, const uint8_t *b,
                                                     size_t len, rvt_nt_msg *m)
{
    nt_mr mr;
    nt_mr_load(&mr, b, len);
    uint64_t v;
    unsigned w;
    nt_mr_fixed(&mr, 6, &v);
    m->tcode = (uint8_t)v;
    if (r->src_bits) {
        if (!nt_mr_fixed(&mr, r->src_bits, &v))
            return fail(r, m->offset - r->base, "message too short for its SRC field", RVT_ERR_FORMAT);
        rvt_nt_set(m, RVT_NT_F_SRC, v);
    }
    const nt_layout *l = layout_of(m->tcode);
    if (!l) {       /* 6.1: vendor-defined or reserved: skip by length */
        while (nt_mr_more(&mr) && nt_mr_var(&mr, &v, &w))
            m->nvar++;
        return 1;
    }
    for (int i = 0; i < 3 && l->fix[i] != END_; i++) {
        if (!nt_mr_fixed(&mr, fixed_bits(l->fix[i]), &v))
            return fail(r, m->offset - r->base, "message too short for its fixed fields", RVT_ERR_FORMAT);
        rvt_nt_set(m, l->fix[i], v);
    }
    int vf[6];
    unsigned nv = var_fields(m, l, vf);
    vf[nv++] = RVT_NT_F_TSTAMP;
    for (unsigned i = 0; i < nv; i++) {
        if (!nt_mr_more(&mr)) {
            if (vf[i] == RVT_NT_F_TSTAMP)
                break;
            return fail(r, m->offset - r->base, "message ends before its last field", RVT_ERR_FORMAT);
        }
        if (!nt_mr_var(&mr, &v, &w))
            return fail(r, m->offset - r->base, "field wider than 64 bits", RVT_ERR_FORMAT);
        /* 8.2: MSB extension from the last MDO's top bit */
        if (is_addr(vf[i]) && r->addr_bits && w < r->addr_bits && (v >> (w - 1) & 1))
            v |= rvt_mask(r->addr_bits) & ~rvt_mask(w);
        rvt_nt_set(m, vf[i], v);
    }
    if (nt_mr_more(&mr))
        return fail(r, m->offset - r->base, "more fields than the message has", RVT_ERR_FORMAT);
    return 1;
}

int rvt_nt_reader_next(rvt_nt_reader *r, rvt_nt_msg *m)
{
    if (!r || !m)
        return RVT_ERR_INVAL;
    memset(m, 0, sizeof *m);
    return nt_reader_next_present(r, m);
}

/* Exactly one whole message (3.1: MSEO 00 bytes, 01 ending a field, 11
 * ending the message), no idle or other bytes around it. */
static bool one_message(const uint8_t *b, size_t n)
{
    size_t pos = 0, start, len, err_at;
    const char *why;
    return tp_mseo_step(b, n, &pos, &start, &len, &why, &err_at) == 1 && start == 0 && len == n;
}

/* The next message from the transport: one frame.  Out of line: the
 * plain buffer's path below stays as short as before the transport came. */
static __attribute__((noinline)) int tp_message(rvt_nt_reader *r, rvt_nt_msg *m)
{
    rvt_tp_frame f;
    int st = rvt_tp_next(r->tp, &f);
    r->pos = (size_t)rvt_tp_get_offset(r->tp);
    m->offset = f.offset;
    if (st < 0)
        return fail(r, f.offset, rvt_tp_error(r->tp), st);
    if (st == 0)
        return 0;
    /* "mseo" frames are messages by construction */
    if (r->tp->ops != &tp_mseo_ops && !one_message(f.payload, f.len))
        return fail(r, f.offset, "frame does not hold exactly one N-Trace message (3.1)",
                    RVT_ERR_FORMAT);
    m->len = (uint32_t)f.len;
    return parse(r, f.payload, m->len, m);
}

int nt_reader_next_present(rvt_nt_reader *r, rvt_nt_msg *m)
{
    m->present = 0;
    m->nvar = 0;
    m->tcode = 0;
    m->len = 0;
    if (__builtin_expect(r->tp != NULL, 0))
        return tp_message(r, m);
    /* a plain buffer: the "mseo" transport's framing step (src/transport/
     * mseo.c) called in place, no object and no indirect call per message
     * (as the E-Trace reader does with "refflow") */
    size_t start, n, err_at;
    const char *why;
    int st = tp_mseo_step(r->buf, r->len, &r->pos, &start, &n, &why, &err_at);
    m->offset = r->base + start;
    if (st <= 0)
        return st < 0 ? fail(r, err_at, why, st) : 0;
    m->len = (uint32_t)n;
    return parse(r, r->buf + start, m->len, m);
}

/* ---- text ---- */

/* JSON (docs/formats.md): addresses as "0x..." strings, other fields as
 * integers. */
static int fmt_field(char *buf, size_t n, bool json, bool first, const char *name, uint64_t v, bool addr)
{
    if (json)
        return snprintf(buf, n, addr ? "%s\"%s\":\"0x%llx\"" : "%s\"%s\":%llu", first ? "" : ",", name,
                        (unsigned long long)v);
    return snprintf(buf, n, " %s=0x%llX", name, (unsigned long long)v);
}

int rvt_nt_msg_format(const rvt_nt_msg *m, bool json, char *buf, size_t n)
{
    const char *name = rvt_nt_tcode_name(m->tcode);
    if (!name)
        name = "Reserved";
    size_t k = 0;
    int c;
#define ADV(x) do { c = (x); if (c < 0) return c; k += (size_t)c; if (k >= n) return (int)(n ? n - 1 : 0); } while (0)
    if (json)
        ADV(snprintf(buf, n, "{\"offset\":%llu,\"kind\":\"%s\",\"tcode\":%u",
                     (unsigned long long)m->offset, name, m->tcode));
    else
        ADV(snprintf(buf, n, "@%llu %s(%u)", (unsigned long long)m->offset, name, m->tcode));
    for (int f = 0; f < RVT_NT_F_COUNT; f++) {
        if (!rvt_nt_has(m, f))
            continue;
        /* RDATA of RCODE 0 is an I-CNT, of 1/2 a HIST (table 19) */
        ADV(fmt_field(buf + k, n - k, json, false, field_names[f], m->f[f],
                      f == RVT_NT_F_FADDR || f == RVT_NT_F_UADDR));
    }
    if (!layout_of(m->tcode))
        ADV(json ? snprintf(buf + k, n - k, ",\"bytes\":%u,\"fields\":%u}", m->len, m->nvar)
                 : snprintf(buf + k, n - k, " bytes=%u fields=%u", m->len, m->nvar));
    else if (json)
        ADV(snprintf(buf + k, n - k, "}"));
#undef ADV
    return (int)k;
}
