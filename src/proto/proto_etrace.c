/* The E-Trace protocols ("etrace", "etrace-data") behind rvtrace/proto.h:
 * settings are rvt_te_attrs (9.1 names, docs/format-te.md). */
#include <inttypes.h>
#include <string.h>
#include "proto/proto_int.h"
#include "etrace/te_pull.h"

static void te_defaults(proto_native *n)
{
    rvt_te_attrs_default(&n->te);
}

static void te_data_defaults(proto_native *n)
{
    rvt_te_attrs_default(&n->te);
    n->te.data_trace = 1;           /* ch. 7: te_data packets too */
}

static int te_set(proto_native *n, const char *name, const char *value)
{
    return rvt_te_attrs_set_value(&n->te, name, value);
}

static int te_get(const proto_native *n, const char *name, char *buf, size_t len)
{
    return rvt_te_attrs_get(&n->te, name, buf, len);
}

/* 3.2.5: implicit return needs a return stack or a call counter; with
 * neither stated, a 32-entry stack (2^5).  Both 0 -- the reference flow's
 * mode, in which every return is left out and no decoder can follow them --
 * only when asked for.  A sidecar states both, so decoders keep its sizes. */
static void te_fill(rvt_proto_cfg *c)
{
    rvt_te_attrs *a = &c->n.te;
    bool sized = rvt_proto_cfg_stated(c, "return_stack_size") ||
                 rvt_proto_cfg_stated(c, "call_counter_size");
    if ((a->options & RVT_TE_OPT_IMPLICIT_RETURN) && !sized && !a->return_stack_size &&
        !a->call_counter_size)
        a->return_stack_size = 5;
    rvt_te_attrs_fill(a);
}

static void te_input_xlen(rvt_proto_cfg *c, unsigned xlen)
{
    if (!rvt_proto_cfg_stated(c, "iaddress_width"))
        c->n.te.iaddress_width = xlen;
}

static int te_check(const proto_native *n, const char **why)
{
    int st = rvt_te_attrs_check(&n->te);
    if (st == RVT_ERR_VERSION)
        *why = "attributes of another library version";
    else if (st < 0)
        *why = "inconsistent E-Trace attributes or options";
    else if ((st = rvt_te_data_attrs_check(&n->te)) < 0)
        *why = "inconsistent E-Trace data trace attributes";
    return st;
}

static const char *te_caveat(const proto_native *n)
{
    return rvt_te_attrs_caveat(&n->te);
}

/* The dump's walk: the modes in force change at support packets (6.5),
 * split atomics give data_len its width (table 7.10). */
typedef struct te_walk {
    rvt_te_attrs a;
    unsigned flags;
    uint8_t sizes[1u << RVT_TE_MAX_INDEX_WIDTH];
    char line[1024], text[1200], msg[96];
} te_walk;

static int te_show_data(te_walk *w, const uint8_t *pl, size_t n, rvt_proto_item *it)
{
    rvt_te_dpkt d;
    int st = rvt_te_dunpack_split(&w->a, pl, n, w->sizes, &d);
    if (st < 0)
        return st;
    rvt_te_dsplit_track(&w->a, &d, w->sizes);
    it->name = rvt_te_dpkt_kind(&w->a, &d);
    if (w->flags & RVT_PROTO_DUMP_NOTEXT)
        return 0;
    bool json = w->flags & RVT_PROTO_DUMP_JSON;
    rvt_te_dpkt_format(&w->a, &d, json, w->line, sizeof w->line);
    if (json)
        snprintf(w->text, sizeof w->text, "{\"offset\":%" PRIu64 ",%s", it->offset, w->line + 1);
    else
        snprintf(w->text, sizeof w->text, "%8" PRIu64 "  %s", it->offset, w->line);
    it->text = w->text;
    return 0;
}

/* A te_inst packet: 1 when it is the end marker. */
static int te_show_inst(te_walk *w, const uint8_t *pl, size_t n, rvt_proto_item *it)
{
    rvt_te_pkt p;
    int st = rvt_te_unpack(&w->a, pl, n, &p);
    if (st < 0)
        return st;
    if (p.format == 3 && p.subformat == 3)
        w->a.options = rvt_te_support_options(&w->a, p.options);
    it->name = rvt_te_pkt_name(&p);
    if (!(w->flags & RVT_PROTO_DUMP_NOTEXT)) {
        bool json = w->flags & RVT_PROTO_DUMP_JSON;
        rvt_te_pkt_format(&w->a, &p, json, w->line, sizeof w->line);
        if (json)   /* docs/formats.md: every object names its kind */
            snprintf(w->text, sizeof w->text,
                     "{\"offset\":%" PRIu64 ",\"kind\":\"te_inst\",\"name\":\"%s\",%s", it->offset,
                     it->name, w->line + 1);
        else
            snprintf(w->text, sizeof w->text, "%8" PRIu64 "  %s", it->offset, w->line);
        it->text = w->text;
    }
    return rvt_te_pkt_is_end(&p) ? 1 : 0;
}

static int te_dump(const proto_native *nat, const uint8_t *buf, size_t len, unsigned flags,
                   rvt_proto_item_fn fn, void *ctx, rvt_proto_dump_end *end)
{
    te_walk w;
    w.a = nat->te;
    w.flags = flags;
    memset(w.sizes, RVT_TE_NO_ATOMIC, sizeof w.sizes);
    rvt_te_reader r;
    rvt_te_reader_init(&r, &w.a, buf, len);
    end->knows_end = true;
    unsigned type;
    const uint8_t *pl;
    size_t n;
    uint64_t off;
    int st;
    while ((st = rvt_te_reader_frame(&r, &type, &pl, &n, &off)) != 0) {
        rvt_proto_item it = { .offset = off };
        if (st > 0)
            st = type == RVT_TE_MSG_DATA ? te_show_data(&w, pl, n, &it) : te_show_inst(&w, pl, n, &it);
        if (st >= 0) {
            end->complete = r.pos;
            if (type != RVT_TE_MSG_DATA)
                end->ended = st == 1;
            end->items++;
        } else {
            if (r.pos > off + 1 && r.pos < len)
                r.pos = (size_t)off + 1;    /* resynchronise byte by byte */
            end->ended = false;
            end->errors++;
            snprintf(w.msg, sizeof w.msg, "bad packet (%s)", rvt_status_str(st));
            it.status = st;
            it.msg = w.msg;
            it.text = NULL;
        }
        it.size = r.pos - off;
        int rc = fn(ctx, &it);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- the decoder behind rvt_proto_decoder_* (ch. 11) ---- */

static void *te_dec_create(const proto_native *n, const rvt_mem *mem, rvt_flow_fn fn, void *ctx,
                           int *status)
{
    return rvt_te_decoder_new_mem(&n->te, mem, fn, ctx, status);
}

static int te_dec_run(void *d, const uint8_t *buf, size_t len)
{
    return rvt_te_decoder_run(d, buf, len);
}

static int te_dec_finish(void *d) { return rvt_te_decoder_finish(d); }
static void te_dec_destroy(void *d) { rvt_te_decoder_free(d); }

static int te_dec_set_input_piece(void *d, const uint8_t *buf, size_t len, uint64_t stop,
                                  bool seam)
{
    return rvt_te_decoder_set_input_piece(d, buf, len, stop, seam);
}

static int te_dec_prime(void *d, const uint8_t *unit, size_t len)
{
    return rvt_te_decoder_prime(d, unit, len);
}

static rvt_flow_pull *te_dec_pull(void *d) { return rvt_te_decoder_pull(d); }

static int te_dec_set_events(void *d, unsigned mode)
{
    rvt_te_decoder_set_events(d, mode != RVT_PROTO_EVENTS_COUNT);
    rvt_te_decoder_set_runs(d, mode == RVT_PROTO_EVENTS_RUNS);
    return 0;
}

/* Encapsulation 2.1.2: an encapsulated stream's srcID, up to 16 bits (the
 * container gives this decoder that source's packets alone). */
static int te_dec_set_source(void *d, int src)
{
    if (src > 0xFFFF)
        return RVT_ERR_INVAL;
    if (src >= 0)
        rvt_te_decoder_set_source(d, (uint16_t)src);
    return 0;
}

static void te_dec_flush(void *d) { rvt_te_decoder_flush(d); }

static void te_dec_stats(const void *d, rvt_proto_dec_stats *out)
{
    rvt_te_dec_stats s;
    rvt_te_decoder_stats(d, &s);
    *out = (rvt_proto_dec_stats){ .units = s.packets, .instructions = s.instructions,
                                  .errors = s.errors, .resyncs = s.resyncs, .skipped = s.skipped,
                                  .cache_flushes = s.cache_flushes };
}

static const proto_dec_ops te_dec = {
    .create = te_dec_create, .run = te_dec_run, .finish = te_dec_finish,
    .destroy = te_dec_destroy, .set_input_piece = te_dec_set_input_piece, .prime = te_dec_prime,
    .pull = te_dec_pull, .set_events = te_dec_set_events,
    .set_source = te_dec_set_source, .flush = te_dec_flush, .stats = te_dec_stats,
};

const rvt_proto proto_etrace = {
    .name = "etrace", .title = "E-Trace", .unit = "packet",
    .end_marker = "the final support packet, E-Trace 6.5.1",
    .sidecar_header = "rvtrace E-Trace attributes (docs/format-te.md)",
    .caps = RVT_PROTO_SIDECAR | RVT_PROTO_DUMP | RVT_PROTO_ENCODE | RVT_PROTO_DECODE,
    .setting = rvt_te_attrs_name, .defaults = te_defaults, .set = te_set, .get = te_get,
    .fill = te_fill, .input_xlen = te_input_xlen, .check = te_check, .caveat = te_caveat,
    .dump = te_dump, .dec = &te_dec,
};

const rvt_proto proto_etrace_data = {
    .name = "etrace-data", .title = "E-Trace data", .unit = "packet",
    .end_marker = "the final support packet, E-Trace 6.5.1",
    .sidecar_header = "rvtrace E-Trace attributes (docs/format-te.md)",
    .caps = RVT_PROTO_SIDECAR | RVT_PROTO_DUMP | RVT_PROTO_ENCODE | RVT_PROTO_DECODE,
    .setting = rvt_te_attrs_name, .defaults = te_data_defaults, .set = te_set, .get = te_get,
    .fill = te_fill, .input_xlen = te_input_xlen, .check = te_check, .caveat = te_caveat,
    .dump = te_dump, .dec = &te_dec,
};
