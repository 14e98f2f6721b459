/* The N-Trace reader and decoder over an rvt_transport (issue 14: N-Trace
 * decoding runs over any transport, as E-Trace's does,
 * test_te_transport.c).  One BTM stream of a counted loop with a sync
 * message every 16 messages (trTeInstSyncMode 1, trTeInstSyncMax 0:
 * period 2^(0+4), 4.2) is decoded
 *   - from its bytes (rvt_nt_decode, the "mseo" framing step in place),
 *   - through the "mseo" transport, pushed (rvt_nt_decoder_run_transport)
 *     and pulled (rvt_nt_decoder_set_input_transport + next_insn),
 *   - with each message wrapped in an Encapsulation 1.0 packet, through
 *     the "encap" transport,
 * and gives the same instructions; a damaged byte gives the same error at
 * the same offset either way; and from every byte offset, sync_forward on
 * the "mseo" transport then decoding from there finds the sync point after
 * the next end-of-message byte (3.4) and decodes the same instructions as
 * the whole stream from the first sync message on. */
#include <stdlib.h>
#include "test_ntrace_util.h"
#include "rvtrace/transport.h"

#define BASE 0x1000u
#define LOOPS 100

/* 1000 addi a0,a0,-1; 1004 bnez a0,1000; 1008 nop */
static rvt_image *program(void)
{
    rvt_image *img = rvt_image_new();
    put32(img, BASE, 0xfff50513u);
    put32(img, BASE + 4, 0xfe051ee3u);
    put32(img, BASE + 8, 0x00000013u);
    return img;
}

static rvt_irec block(uint64_t addr, unsigned n, unsigned itype)
{
    rvt_irec r = rec(addr, 2 * n, itype, 1);
    r.ninstr = n;
    return r;
}

/* LOOPS - 1 taken branches (itype 5), the last not taken (4), then nop. */
static void encode_loop(const rvt_nt_cfg *cfg, cap *c)
{
    static rvt_irec r[LOOPS + 1];
    for (unsigned i = 0; i + 1 < LOOPS; i++)
        r[i] = block(BASE, 2, 5);
    r[LOOPS - 1] = block(BASE, 2, 4);
    r[LOOPS] = block(BASE + 8, 1, 0);
    rvt_nt_msg m[1];
    encode(cfg, r, LOOPS + 1, c, m, 0);
}

typedef struct evs { rvt_flow_event ev[4 * LOOPS + 64]; size_t n; } evs;
static int evs_put(void *ctx, const rvt_flow_event *ev)
{
    evs *e = ctx;
    if (e->n < sizeof e->ev / sizeof e->ev[0])
        e->ev[e->n++] = *ev;
    return 0;
}

static rvt_nt_decoder *decoder(const rvt_nt_cfg *cfg, rvt_image *img, evs *out)
{
    int st;
    out->n = 0;
    rvt_nt_decoder *d = rvt_nt_decoder_new(cfg, rvt_image_insn_cb, img, -1, evs_put, out, &st);
    CHECK(d != NULL);
    return d;
}

static void plain(const rvt_nt_cfg *cfg, rvt_image *img, const uint8_t *b, size_t n, evs *out)
{
    rvt_nt_decoder *d = decoder(cfg, img, out);
    CHECK_EQ(rvt_nt_decode(d, b, n), 0);
    CHECK_EQ(rvt_nt_decode_end(d), 0);
    rvt_nt_decoder_free(d);
}

static void pushed(const rvt_nt_cfg *cfg, rvt_image *img, const char *tp_name,
                   const rvt_tp_config *c, const uint8_t *b, size_t n, evs *out)
{
    int st;
    rvt_transport *tp = rvt_tp_new(tp_name, c, b, n, &st);
    CHECK(tp != NULL);
    rvt_nt_decoder *d = decoder(cfg, img, out);
    CHECK_EQ(rvt_nt_decoder_run_transport(d, tp), 0);
    /* the stream has begun: neither input call is taken again */
    CHECK_EQ(rvt_nt_decoder_run_transport(d, tp), RVT_ERR_STATE);
    CHECK_EQ(rvt_nt_decoder_set_input_transport(d, tp), RVT_ERR_STATE);
    rvt_nt_decoder_free(d);
    rvt_tp_free(tp);
}

/* The instructions of a pulled decode over tp, from where tp stands. */
static size_t pulled(const rvt_nt_cfg *cfg, rvt_image *img, rvt_transport *tp, rvt_flow_insn *out,
                     size_t max)
{
    int st;
    rvt_nt_decoder *d = rvt_nt_decoder_new(cfg, rvt_image_insn_cb, img, -1, NULL, NULL, &st);
    CHECK(d != NULL);
    CHECK_EQ(rvt_nt_decoder_set_input_transport(d, tp), 0);
    size_t k = 0;
    while (k < max && (st = rvt_nt_decoder_next_insn(d, &out[k])) > 0)
        k++;
    CHECK_EQ(st, 0);
    rvt_nt_decoder_free(d);
    return k;
}

static size_t insns(const evs *e, rvt_flow_event *out)
{
    size_t k = 0;
    for (size_t i = 0; i < e->n; i++)
        if (e->ev[i].kind == RVT_EV_INSN)
            out[k++] = e->ev[i];
    return k;
}

static void same_events(const evs *a, const evs *b)
{
    CHECK_EQ(a->n, b->n);
    for (size_t i = 0; i < a->n && i < b->n; i++) {
        CHECK_EQ(a->ev[i].kind, b->ev[i].kind);
        CHECK_EQ(a->ev[i].pc, b->ev[i].pc);
        CHECK_EQ(a->ev[i].offset, b->ev[i].offset);
        CHECK_EQ(a->ev[i].aux, b->ev[i].aux);
    }
}

/* The messages' first bytes (no idle in an encoder's stream), by the
 * MSEO bits: a message ends at its MSEO 11 byte (3.1). */
static size_t message_starts(const cap *c, uint64_t *at)
{
    size_t k = 0;
    for (size_t p = 0; p < c->n; p++)
        if (p == 0 || (c->b[p - 1] & 3u) == 3u)
            at[k++] = p;
    return k;
}

static void via_mseo(const rvt_nt_cfg *cfg, rvt_image *img, const cap *c, const evs *want)
{
    evs got;
    pushed(cfg, img, "mseo", NULL, c->b, c->n, &got);
    same_events(want, &got);      /* the same framing: the same offsets too */

    static rvt_flow_event w[4 * LOOPS];
    static rvt_flow_insn p[4 * LOOPS];
    size_t nw = insns(want, w);
    rvt_transport *tp = rvt_tp_new("mseo", NULL, c->b, c->n, NULL);
    size_t np = pulled(cfg, img, tp, p, 4 * LOOPS);
    rvt_tp_free(tp);
    CHECK_EQ(np, nw);
    CHECK_EQ(nw, 2 * LOOPS + 1);     /* addi and bnez each time, then nop */
    for (size_t i = 0; i < np && i < nw; i++)
        CHECK_EQ(p[i].pc, w[i].pc);
}

/* Each message as one normal packet (S = T = 0, a 0-bit type: header
 * length = the message's bytes, 2.1), after the leading sync sequence of
 * N + 1 = 32 null bytes (2.3; null.alignment last). */
static void via_encap(const rvt_nt_cfg *cfg, rvt_image *img, const cap *c, const evs *want)
{
    static uint8_t enc[2 * sizeof c->b];
    static uint64_t at[sizeof c->b];
    size_t nmsg = message_starts(c, at), n = 32;
    memset(enc, 0, 32);
    enc[31] = 0x80;
    at[nmsg] = c->n;
    for (size_t i = 0; i < nmsg; i++) {
        size_t len = (size_t)(at[i + 1] - at[i]);
        CHECK(len <= 31);
        enc[n++] = (uint8_t)len;              /* flow 0, extend 0 */
        memcpy(enc + n, c->b + at[i], len);
        n += len;
    }
    rvt_tp_config tc;
    rvt_tp_config_init(&tc);
    evs got;
    pushed(cfg, img, "encap", &tc, enc, n, &got);
    static rvt_flow_event w[4 * LOOPS], g[4 * LOOPS];
    size_t nw = insns(want, w), ng = insns(&got, g);
    CHECK_EQ(ng, nw);
    /* message i moved from at[i] to 32 + at[i] + i: the packets' headers */
    for (size_t i = 0, m = 0; i < ng && i < nw; i++) {
        CHECK_EQ(g[i].pc, w[i].pc);
        while (m + 1 < nmsg && at[m] < w[i].offset)
            m++;
        CHECK_EQ(at[m], w[i].offset);
        CHECK_EQ(g[i].offset, 32 + w[i].offset + m);
    }
    /* one packet holding a message and a half is an error at its header */
    enc[32] = (uint8_t)(at[1] + 1);
    memcpy(enc + 33, c->b, (size_t)at[1] + 1);
    rvt_transport *tp = rvt_tp_new("encap", &tc, enc, 33 + (size_t)at[1] + 1, NULL);
    rvt_nt_reader r;
    rvt_nt_msg m;
    rvt_nt_reader_init_transport(&r, tp, cfg);
    CHECK_EQ(rvt_nt_reader_next(&r, &m), RVT_ERR_FORMAT);
    CHECK_EQ(r.err_offset, 32);
    CHECK(r.err && strstr(r.err, "exactly one N-Trace message"));
    CHECK_EQ(rvt_nt_reader_next(&r, &m), 0);
    rvt_tp_free(tp);
}

/* The fifth message's first byte with MSEO 10 (3.1: a message starts
 * with MSEO 00): the same error text at the same byte through the
 * transport as from the bytes. */
static void damaged(const rvt_nt_cfg *cfg, rvt_image *img, const cap *c)
{
    static uint64_t at[sizeof c->b];
    static cap bad;
    message_starts(c, at);
    bad = *c;
    bad.b[at[4]] = (uint8_t)((bad.b[at[4]] & ~3u) | 2u);
    evs a, b;
    plain(cfg, img, bad.b, bad.n, &a);
    pushed(cfg, img, "mseo", NULL, bad.b, bad.n, &b);
    same_events(&a, &b);
    size_t errors = 0;
    for (size_t i = 0; i < b.n; i++) {
        if (b.ev[i].kind != RVT_EV_ERROR)
            continue;
        errors++;
        CHECK_EQ(b.ev[i].offset, at[4]);
        CHECK(b.ev[i].msg && strstr(b.ev[i].msg, "does not start with MSEO 00"));
    }
    CHECK_EQ(errors, 1);
}

/* From every offset o: sync_forward lands on the first message start
 * after o that follows an end-of-message byte (none for o = 0: the first
 * message has no byte before it); decoding from there (pulled) gives the
 * whole decode's instructions reported after the first sync message at or
 * after that point (the messages before it are lost, 11.2). */
static void every_offset(const rvt_nt_cfg *cfg, rvt_image *img, const cap *c, const evs *want)
{
    static uint64_t at[sizeof c->b];
    static rvt_flow_event w[4 * LOOPS];
    static rvt_flow_insn p[4 * LOOPS];
    static rvt_nt_msg msgs[sizeof c->b];
    size_t nmsg = message_starts(c, at), nw = insns(want, w);
    CHECK_EQ(parse(c, cfg, msgs, sizeof c->b), nmsg);
    size_t nsync = 0;
    for (size_t i = 0; i < nmsg; i++)
        nsync += rvt_nt_is_sync(msgs[i].tcode);
    CHECK(nsync >= LOOPS / 16);       /* one in 16 messages, and the first */
    for (uint64_t o = 0; o < c->n; o++) {
        rvt_transport *tp = rvt_tp_new("mseo", NULL, c->b, c->n, NULL);
        CHECK_EQ(rvt_tp_sync_set(tp, o), 0);
        size_t m = 1;
        while (m < nmsg && at[m] < o)
            m++;
        int st = rvt_tp_sync_forward(tp);
        uint64_t got = 0;
        if (m == nmsg) {
            CHECK_EQ(st, RVT_ERR_EOS);
            rvt_tp_free(tp);
            continue;
        }
        CHECK_EQ(st, 0);
        CHECK_EQ(rvt_tp_get_sync_offset(tp, &got), 0);
        CHECK_EQ(got, at[m]);
        size_t s = m;
        while (s < nmsg && !rvt_nt_is_sync(msgs[s].tcode))
            s++;
        size_t first = 0;       /* the whole decode's first instruction after message s */
        while (first < nw && s < nmsg && w[first].offset <= at[s])
            first++;
        if (s == nmsg)
            first = nw;
        size_t np = pulled(cfg, img, tp, p, 4 * LOOPS);
        rvt_tp_free(tp);
        if (np != nw - first) {
            TH_FAIL("offset %llu: %zu instructions from the sync point, want %zu",
                    (unsigned long long)o, np, nw - first);
            continue;
        }
        for (size_t i = 0; i < np; i++)
            CHECK_EQ(p[i].pc, w[first + i].pc);
    }
}

static void null_arguments(const rvt_nt_cfg *cfg, rvt_image *img)
{
    evs e;
    rvt_nt_decoder *d = decoder(cfg, img, &e);
    uint8_t byte = 0xFF;
    rvt_transport *tp = rvt_tp_new("mseo", NULL, &byte, 1, NULL);
    CHECK_EQ(rvt_nt_decoder_run_transport(NULL, tp), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_decoder_run_transport(d, NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_decoder_set_input_transport(NULL, tp), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_decoder_set_input_transport(d, NULL), RVT_ERR_INVAL);
    rvt_nt_msg m;
    rvt_nt_reader r;
    rvt_nt_reader_init_transport(NULL, tp, cfg);       /* no crash */
    rvt_nt_reader_init_transport(&r, tp, cfg);
    CHECK_EQ(rvt_nt_reader_next(NULL, &m), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_reader_next(&r, NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_reader_next(&r, &m), 0);           /* idle only */
    CHECK(rvt_tp_error(NULL) == NULL);
    CHECK(rvt_tp_error(tp) == NULL);
    /* pushed after rvt_nt_decode: the transport's offsets would not be
     * the stream's */
    uint8_t idle[2] = { 0xFF, 0xFF };
    CHECK_EQ(rvt_nt_decode(d, idle, 2), 0);
    CHECK_EQ(rvt_nt_decoder_run_transport(d, tp), RVT_ERR_STATE);
    rvt_nt_decoder_free(d);
    rvt_tp_free(tp);
}

int main(void)
{
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    cfg.inst_mode = RVT_NT_MODE_BTM;
    cfg.sync_mode = 1;
    cfg.sync_max = 0;
    rvt_image *img = program();
    static cap c;
    encode_loop(&cfg, &c);
    static evs want;
    plain(&cfg, img, c.b, c.n, &want);
    via_mseo(&cfg, img, &c, &want);
    via_encap(&cfg, img, &c, &want);
    damaged(&cfg, img, &c);
    every_offset(&cfg, img, &c, &want);
    null_arguments(&cfg, img);
    rvt_image_free(img);
    return TH_DONE();
}
