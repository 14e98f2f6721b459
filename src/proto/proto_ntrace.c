/* The N-Trace protocol ("ntrace") behind rvtrace/proto.h: settings are
 * rvt_nt_cfg (the chapter 4 controls, docs/format-nt.md). */
#include <stdlib.h>
#include <string.h>
#include "ntrace/nt_addr.h"
#include "proto/proto_int.h"
#include "ntrace/nt_pull.h"

static void nt_defaults(proto_native *n)
{
    rvt_nt_cfg_default(&n->nt);
}

static int nt_set(proto_native *n, const char *name, const char *value)
{
    return rvt_nt_cfg_set(&n->nt, name, value);
}

static int nt_get(const proto_native *n, const char *name, char *buf, size_t len)
{
    return rvt_nt_cfg_get(&n->nt, name, buf, len);
}

static void nt_fill(rvt_proto_cfg *c)
{
    rvt_nt_cfg_check(&c->n.nt);     /* fills the zero defaults */
}

/* rvtXlen=64 is what every sidecar states unless the encoder was 32-bit:
 * the input's class wins over it. */
static void nt_input_xlen(rvt_proto_cfg *c, unsigned xlen)
{
    if (!rvt_proto_cfg_stated(c, "rvtXlen") || c->n.nt.xlen == 0 || c->n.nt.xlen == 64)
        c->n.nt.xlen = xlen;
}

static int nt_check(const proto_native *n, const char **why)
{
    rvt_nt_cfg copy = n->nt;        /* rvt_nt_cfg_check fills defaults */
    int st = rvt_nt_cfg_check(&copy);
    if (st == RVT_ERR_VERSION)
        *why = "settings of another library version";
    else if (st < 0)
        *why = "inconsistent N-Trace settings";
    return st;
}

/* 8.1: the PC an F-ADDR or U-ADDR stands for, U-ADDR XORed with the same
 * source's previous address unless trTeInstNoAddrDiff. */
typedef struct nt_walk {
    uint64_t ref[1u << 12];          /* per SRC (trTeSrcBits <= 12) */
    uint64_t xmask;
    bool no_diff;
    char line[512], err[512];
} nt_walk;

static bool message_pc(nt_walk *t, const rvt_nt_msg *m, uint64_t *pc)
{
    uint64_t *ref = &t->ref[rvt_nt_has(m, RVT_NT_F_SRC) ? m->f[RVT_NT_F_SRC] & 0xfff : 0];
    if (rvt_nt_has(m, RVT_NT_F_FADDR))
        *ref = nt_faddr_pc(m->f[RVT_NT_F_FADDR], t->xmask);
    else if (rvt_nt_has(m, RVT_NT_F_UADDR))
        *ref = nt_uaddr_pc(*ref, m->f[RVT_NT_F_UADDR], t->no_diff, t->xmask);
    else
        return false;
    *pc = *ref;
    return true;
}

static void nt_text(nt_walk *w, const rvt_nt_msg *m, unsigned flags, rvt_proto_item *it)
{
    bool json = flags & RVT_PROTO_DUMP_JSON;
    rvt_nt_msg_format(m, json, w->line, sizeof w->line);
    it->text = w->line;
    size_t len = strlen(w->line), n = sizeof w->line;
    if (!it->has_pc || len + 32 >= n)
        return;
    if (json && len && w->line[len - 1] == '}')
        snprintf(w->line + len - 1, n - len + 1, ",\"pc\":\"0x%llx\"}", (unsigned long long)it->pc);
    else if (!json)
        snprintf(w->line + len, n - len, " -> 0x%llx", (unsigned long long)it->pc);
}

static int nt_dump(const proto_native *nat, const uint8_t *buf, size_t len, unsigned flags,
                   rvt_proto_item_fn fn, void *ctx, rvt_proto_dump_end *end)
{
    nt_walk *w = calloc(1, sizeof *w);
    if (!w)
        return RVT_ERR_NOMEM;
    w->xmask = nat->nt.xlen == 32 ? 0xffffffffull : ~0ull;
    w->no_diff = nat->nt.no_addr_diff;
    rvt_nt_reader r;
    rvt_nt_msg m;
    rvt_nt_reader_init(&r, buf, len, &nat->nt);
    int st, rc = 0;
    while (!rc && (st = rvt_nt_reader_next(&r, &m)) != 0) {
        rvt_proto_item it = { 0 };
        if (st < 0) {
            end->errors++;
            it.offset = r.err_offset;
            it.status = st;
            it.msg = r.err;
            if (flags & RVT_PROTO_DUMP_JSON) {   /* the error has its place in the list */
                snprintf(w->err, sizeof w->err, "{\"offset\":%llu,\"kind\":\"error\",\"msg\":\"%s\"}",
                         (unsigned long long)r.err_offset, r.err);
                it.text = w->err;
            }
        } else {
            const char *name = rvt_nt_tcode_name(m.tcode);
            end->items++;
            it.offset = m.offset;
            it.size = m.len;
            it.name = name ? name : "vendor/reserved";
            if (flags & RVT_PROTO_DUMP_PCS)
                it.has_pc = message_pc(w, &m, &it.pc);
            if (!(flags & RVT_PROTO_DUMP_NOTEXT))
                nt_text(w, &m, flags, &it);
        }
        rc = fn(ctx, &it);
    }
    free(w);
    return rc;
}

static const char *nt_setting(size_t i, const char **help)
{
    return rvt_nt_cfg_name(i, help);
}

/* ---- the decoder behind rvt_proto_decoder_* (ch. 11) ---- */

/* Every SRC (src_filter -1): the registry's decoder follows each hart. */
static void *nt_dec_create(const proto_native *n, const rvt_mem *mem, rvt_flow_fn fn, void *ctx,
                           int *status)
{
    return rvt_nt_decoder_new_mem(&n->nt, mem, -1, fn, ctx, status);
}

static int nt_dec_run(void *d, const uint8_t *buf, size_t len)
{
    return rvt_nt_decode(d, buf, len);
}

static int nt_dec_finish(void *d) { return rvt_nt_decode_end(d); }
static void nt_dec_destroy(void *d) { rvt_nt_decoder_free(d); }

/* N-Trace pieces read on (docs/parallel.md): a block ends at a sync
 * message's walk, or at the event it sends, and only at what follows it;
 * stop is where the piece's own messages end.  No seam. */
static int nt_dec_set_input_piece(void *d, const uint8_t *buf, size_t len, uint64_t stop,
                                  bool seam)
{
    if (seam)
        return RVT_ERR_INVAL;
    return rvt_nt_decoder_set_input_piece(d, buf, len, stop);
}

static int nt_dec_prime(void *d, const uint8_t *unit, size_t len)
{
    return rvt_nt_decoder_prime(d, unit, len);
}

static rvt_flow_pull *nt_dec_pull(void *d) { return rvt_nt_decoder_pull(d); }

static int nt_dec_set_events(void *d, unsigned mode)
{
    rvt_nt_decoder_set_events(d, mode == RVT_PROTO_EVENTS_COUNT ? RVT_NT_EVENTS_COUNT
                                 : mode == RVT_PROTO_EVENTS_RUNS ? RVT_NT_EVENTS_BLOCK
                                                                 : RVT_NT_EVENTS_INSN);
    return 0;
}

static int nt_dec_set_source(void *d, int src) { return rvt_nt_decoder_set_src_filter(d, src); }
static void nt_dec_flush(void *d) { rvt_nt_decoder_flush_cache(d); }

static void nt_dec_stats(const void *d, rvt_proto_dec_stats *out)
{
    rvt_nt_dec_stats s;
    rvt_nt_decoder_stats(d, &s);
    *out = (rvt_proto_dec_stats){ .units = s.messages, .instructions = s.insns,
                                  .errors = s.errors, .resyncs = s.resyncs,
                                  .wide_icnt = s.wide_icnt, .wide_icnt_offset = s.wide_icnt_offset,
                                  .cache_flushes = s.cache_flushes,
                                  .unsynced_errors = s.unsynced_errors };
}

static const proto_dec_ops nt_dec = {
    .create = nt_dec_create, .run = nt_dec_run, .finish = nt_dec_finish,
    .destroy = nt_dec_destroy, .set_input_piece = nt_dec_set_input_piece, .prime = nt_dec_prime,
    .pull = nt_dec_pull, .set_events = nt_dec_set_events,
    .set_source = nt_dec_set_source, .flush = nt_dec_flush, .stats = nt_dec_stats,
};

const rvt_proto proto_ntrace = {
    .name = "ntrace", .title = "N-Trace", .unit = "message",
    .end_marker = "ProgTraceCorrelation, 7.12",
    .sidecar_header = "rvtrace N-Trace encoder settings (docs/format-nt.md)",
    .caps = RVT_PROTO_SIDECAR | RVT_PROTO_DUMP | RVT_PROTO_ENCODE | RVT_PROTO_DECODE,
    .setting = nt_setting, .defaults = nt_defaults, .set = nt_set, .get = nt_get,
    .fill = nt_fill, .input_xlen = nt_input_xlen, .check = nt_check, .dump = nt_dump,
    .dec = &nt_dec,
};
