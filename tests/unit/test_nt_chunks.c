/* rvt_nt_decode over chunks cut anywhere (ntrace/nt_chunk.c): a stream fed
 * k bytes at a time, for every k from 1 to 97 and at every single cut,
 * gives exactly the events of the whole stream fed at once -- clean, and
 * damaged the ways N-Trace 3.1-3.4's framing meets: an endless message
 * (all-zero bytes, MSEO 00 throughout), reserved MSEO 10 bytes, stray end
 * bytes, idle runs, a stream cut inside its last message.  And by hand: a
 * message cut in two by the chunks decodes as one (before, each half was
 * an error), and a message the stream cuts is reported at its own offset
 * by rvt_nt_decode_end. */
#include "tharness.h"
#include "rvtrace/ntrace.h"
#include "rvtrace/image.h"

typedef struct cap { uint8_t b[8192]; size_t n; } cap;
static int cap_put(void *ctx, const uint8_t *b, size_t n)
{
    cap *c = ctx;
    if (c->n + n > sizeof c->b)
        return RVT_ERR_LIMIT;
    memcpy(c->b + c->n, b, n);
    c->n += n;
    return 0;
}

/* What an event says, its text reduced to its first byte. */
typedef struct seen { uint64_t pc, aux, aux2, offset; uint8_t kind, priv; uint16_t src; char msg0; } seen;
typedef struct log { seen e[20000]; size_t n; } log_t;

static int log_ev(void *ctx, const rvt_flow_event *ev)
{
    log_t *l = ctx;
    if (l->n < sizeof l->e / sizeof l->e[0])
        l->e[l->n++] = (seen){ ev->pc, ev->aux, ev->aux2, ev->offset, ev->kind, ev->priv, ev->src,
                               ev->msg ? ev->msg[0] : 0 };
    return 0;
}

/* 0x1000 addi a0,a0,1 ; 0x1004 addi a0,a0,1 ; 0x1008 jalr x0,0(ra) */
static rvt_image *loop_image(void)
{
    static const uint8_t code[] = { 0x13, 0x05, 0x15, 0x00, 0x13, 0x05, 0x15, 0x00, 0x67, 0x80, 0x00, 0x00 };
    rvt_image *img = rvt_image_new();
    rvt_image_add_bytes(img, 0x1000, code, sizeof code, "loop");
    return img;
}

/* A stream (the default settings: HTM) of the code run as a function
 * returning to itself (the ret goes back to 0x1000): an Indirect Branch
 * message per pass, timestamps, a sync every 16 messages. */
static void loop_stream(rvt_nt_cfg *cfg, cap *c)
{
    rvt_nt_cfg_default(cfg);
    cfg->sync_mode = 1;
    cfg->sync_max = 0;
    cfg->timestamps = true;
    int st;
    rvt_nt_encoder *e = rvt_nt_encoder_new(cfg, cap_put, c, &st);
    for (size_t i = 0; i < 300; i++) {
        rvt_irec r = { .iaddr = 0x1000, .iretire = 6, .ninstr = 3, .ilastsize = 1,
                       .itype = RVT_ITYPE_RETURN, .time = 7 * i, .priv = 3 };
        CHECK_EQ(rvt_nt_encoder_put(e, &r, 1), 0);
    }
    CHECK_EQ(rvt_nt_encoder_end(e), 0);
    rvt_nt_encoder_free(e);
}

/* The events of b[0..n) fed in chunks of k bytes (k 0: at once), or
 * in two at `cut` (k SIZE_MAX). */
static void decode_chunked(const rvt_nt_cfg *cfg, rvt_image *img, const uint8_t *b, size_t n, size_t k,
                           size_t cut, log_t *l)
{
    int st;
    l->n = 0;
    rvt_nt_decoder *d = rvt_nt_decoder_new(cfg, rvt_image_insn_cb, img, -1, log_ev, l, &st);
    if (k == SIZE_MAX) {
        CHECK_EQ(rvt_nt_decode(d, b, cut), 0);
        CHECK_EQ(rvt_nt_decode(d, b + cut, n - cut), 0);
    } else {
        for (size_t at = 0; at < n; at += k ? k : n)
            CHECK_EQ(rvt_nt_decode(d, b + at, k && n - at > k ? k : n - at), 0);
    }
    CHECK_EQ(rvt_nt_decode_end(d), 0);
    rvt_nt_decoder_free(d);
}

static bool same(const log_t *a, const log_t *b)
{
    return a->n == b->n && memcmp(a->e, b->e, a->n * sizeof a->e[0]) == 0;
}

static log_t whole, part;

/* Every chunk size 1..97 and every two-chunk cut against the whole. */
static void every_cut(const char *what, const rvt_nt_cfg *cfg, rvt_image *img, const uint8_t *b, size_t n)
{
    decode_chunked(cfg, img, b, n, 0, 0, &whole);
    CHECK(whole.n > 0);
    for (size_t k = 1; k <= 97; k++) {
        decode_chunked(cfg, img, b, n, k, 0, &part);
        if (same(&whole, &part))
            th_passed++;
        else
            TH_FAIL("%s: chunks of %zu bytes: %zu events, whole %zu", what, k, part.n, whole.n);
    }
    for (size_t cut = 0; cut <= n; cut++) {
        decode_chunked(cfg, img, b, n, SIZE_MAX, cut, &part);
        if (same(&whole, &part))
            th_passed++;
        else
            TH_FAIL("%s: cut at %zu: %zu events, whole %zu", what, cut, part.n, whole.n);
    }
}

static size_t errors_in(const log_t *l)
{
    size_t e = 0;
    for (size_t i = 0; i < l->n; i++)
        e += l->e[i].kind == RVT_EV_ERROR;
    return e;
}

static void damaged(const rvt_nt_cfg *cfg, rvt_image *img, const cap *c)
{
    static uint8_t b[sizeof ((cap *)0)->b + 512];
    size_t third = c->n / 3;
    /* an endless message: 120 bytes of MSEO 00 (longer than 48: an error,
     * then the framing passes over bytes up to the next MSEO 11) */
    memcpy(b, c->b, third);
    memset(b + third, 0, 120);
    memcpy(b + third + 120, c->b + third, c->n - third);
    every_cut("endless message", cfg, img, b, c->n + 120);
    CHECK(errors_in(&whole) >= 1);
    /* reserved MSEO 10, stray end bytes, an idle run, each inside messages */
    memcpy(b, c->b, c->n);
    b[third] = 0x02;
    b[third + 40] = 0x07;
    memset(b + 2 * third, 0xFF, 9);
    b[2 * third + 30] = 0x03;
    every_cut("reserved, stray end, idles", cfg, img, b, c->n);
    CHECK(errors_in(&whole) >= 2);
    /* cut inside the last message */
    every_cut("cut short", cfg, img, c->b, c->n - 2);
    CHECK(errors_in(&whole) >= 1);
}

/* Two messages by hand (rvt_nt_msg_encode): a ProgTraceSync at 0x1000 and
 * a ProgTraceCorrelation; the first fed in two halves decodes as one, no
 * error (before, the first half was "stream ends inside a message" and
 * the second "message does not start with MSEO 00").  Cut after the
 * first message's last byte and one byte into the second, the stream's
 * end reports the second as cut short at its own offset, l0. */
static void by_hand(const rvt_nt_cfg *cfg, rvt_image *img)
{
    rvt_nt_msg m[2];
    memset(m, 0, sizeof m);
    m[0].tcode = RVT_NT_PROG_TRACE_SYNC;
    rvt_nt_set(&m[0], RVT_NT_F_SYNC, 3);
    rvt_nt_set(&m[0], RVT_NT_F_ICNT, 0);
    rvt_nt_set(&m[0], RVT_NT_F_FADDR, 0x800);     /* 0x1000 >> 1 */
    m[1].tcode = RVT_NT_PROG_TRACE_CORRELATION;
    rvt_nt_set(&m[1], RVT_NT_F_EVCODE, 0);
    rvt_nt_set(&m[1], RVT_NT_F_CDF, 0);
    rvt_nt_set(&m[1], RVT_NT_F_ICNT, 0);
    uint8_t buf[2 * RVT_NT_MAX_MSG];
    int l0 = rvt_nt_msg_encode(&m[0], cfg, buf, sizeof buf);
    CHECK(l0 >= 2);
    int l1 = rvt_nt_msg_encode(&m[1], cfg, buf + l0, sizeof buf - (size_t)l0);
    CHECK(l1 >= 2);
    decode_chunked(cfg, img, buf, (size_t)(l0 + l1), SIZE_MAX, (size_t)l0 / 2, &part);
    CHECK_EQ(errors_in(&part), 0);
    CHECK(part.n >= 2 && part.e[0].kind == RVT_EV_SYNC && part.e[0].pc == 0x1000 && part.e[0].offset == 0);
    decode_chunked(cfg, img, buf, (size_t)l0 + 1, SIZE_MAX, (size_t)l0, &part);
    CHECK_EQ(errors_in(&part), 1);
    for (size_t i = 0; i < part.n; i++)
        if (part.e[i].kind == RVT_EV_ERROR)
            CHECK_EQ(part.e[i].offset, (uint64_t)l0);
    /* the open message waits: no error until the stream ends; flush
     * reports it (before any end event), end then sends RVT_EV_END */
    int st;
    rvt_nt_decoder *d = rvt_nt_decoder_new(cfg, rvt_image_insn_cb, img, -1, log_ev, &part, &st);
    part.n = 0;
    CHECK_EQ(rvt_nt_decode(d, buf, (size_t)l0 + 1), 0);
    CHECK_EQ(errors_in(&part), 0);
    CHECK_EQ(rvt_nt_decode_flush(d), 0);
    CHECK_EQ(errors_in(&part), 1);
    CHECK(part.n > 0 && part.e[part.n - 1].kind == RVT_EV_ERROR);
    CHECK_EQ(rvt_nt_decode_end(d), 0);
    CHECK(part.e[part.n - 1].kind == RVT_EV_END);
    CHECK_EQ(errors_in(&part), 1);
    rvt_nt_decoder_free(d);
}

int main(void)
{
    rvt_nt_cfg cfg;
    static cap c;
    loop_stream(&cfg, &c);
    CHECK(c.n > 200);
    rvt_image *img = loop_image();
    every_cut("clean", &cfg, img, c.b, c.n);
    CHECK_EQ(errors_in(&whole), 0);
    damaged(&cfg, img, &c);
    by_hand(&cfg, img);
    rvt_image_free(img);
    return TH_DONE();
}
