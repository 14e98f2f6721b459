/* N-Trace decoder robustness (ch. 3: any corrupt data, including all-zero
 * "very long" messages, must not crash; errors carry offsets and decoding
 * resumes at the next sync) and multi-hart streams split by SRC (11.2). */
#include "tharness.h"
#include "rvtrace/ntrace.h"
#include "rvtrace/image.h"
#include <unistd.h>

typedef struct cap { uint8_t b[8192]; size_t n; } cap;
static int cap_put(void *ctx, const uint8_t *b, size_t n)
{
    cap *c = ctx;
    if (c->n + n > sizeof c->b) return RVT_ERR_LIMIT;
    memcpy(c->b + c->n, b, n);
    c->n += n;
    return 0;
}


typedef struct tally { uint64_t insns, errors, syncs, lost, by_src[4]; } tally;
static int tally_ev(void *ctx, const rvt_flow_event *ev)
{
    tally *t = ctx;
    if (ev->kind == RVT_EV_INSN) { t->insns++; t->by_src[ev->src & 3]++; }
    if (ev->kind == RVT_EV_ERROR) t->errors++;
    if (ev->kind == RVT_EV_SYNC) t->syncs++;
    if (ev->kind == RVT_EV_LOST) t->lost++;
    return 0;
}

/* A loop: 0x1000 addi a0,a0,1 ; 0x1004 bne a0,a1,-4 ; 0x1008 jalr x0,0(ra) */
static rvt_image *loop_image(void)
{
    static const uint8_t code[] = { 0x13, 0x05, 0x15, 0x00,  0xE3, 0x1E, 0xB5, 0xFE,
                                    0x67, 0x80, 0x00, 0x00 };
    rvt_image *img = rvt_image_new();
    rvt_image_add_bytes(img, 0x1000, code, sizeof code, "loop");
    return img;
}

static void loop_records(rvt_irec *r, size_t n, uint64_t t0)
{
    for (size_t i = 0; i < n; i++) {
        memset(&r[i], 0, sizeof r[i]);
        r[i].iaddr = 0x1000;
        r[i].iretire = 4;
        r[i].ninstr = 2;
        r[i].ilastsize = 1;
        r[i].itype = i + 1 < n ? RVT_ITYPE_T_BRANCH : RVT_ITYPE_NT_BRANCH;
        r[i].time = t0 + 3 * i;
        r[i].priv = 3;
    }
}

/* Two harts (SRC 1 and 2, 2-bit SRC) share one byte sink; each source
 * decodes to exactly its own instructions. */
static void test_multi_hart(void)
{
    rvt_nt_cfg a, b;
    rvt_nt_cfg_default(&a);
    a.src_bits = 2; a.src_id = 1; a.timestamps = true; a.sync_mode = 3; a.sync_max = 0;
    b = a; b.src_id = 2; b.inst_mode = RVT_NT_MODE_HTM;
    cap c = {0};
    int st;
    rvt_nt_encoder *ea = rvt_nt_encoder_new(&a, cap_put, &c, &st);
    rvt_nt_encoder *eb = rvt_nt_encoder_new(&b, cap_put, &c, &st);
    rvt_irec ra[50], rb[70];
    loop_records(ra, 50, 0);
    loop_records(rb, 70, 1000);
    for (size_t i = 0; i < 70; i++) {      /* interleave per block */
        if (i < 50) CHECK_EQ(rvt_nt_encoder_put(ea, &ra[i], 1), 0);
        CHECK_EQ(rvt_nt_encoder_put(eb, &rb[i], 1), 0);
    }
    CHECK_EQ(rvt_nt_encoder_end(ea), 0);
    CHECK_EQ(rvt_nt_encoder_end(eb), 0);
    rvt_nt_encoder_free(ea);
    rvt_nt_encoder_free(eb);
    rvt_image *img = loop_image();
    for (int src = -1; src <= 2; src++) {
        if (src == 0) continue;
        tally t = {0};
        rvt_nt_decoder *d = rvt_nt_decoder_new(&a, rvt_image_insn_cb, img, src, tally_ev, &t, &st);
        CHECK_EQ(rvt_nt_decode(d, c.b, c.n), 0);
        rvt_nt_decoder_free(d);
        CHECK_EQ(t.errors, 0);
        CHECK_EQ(t.by_src[1], src == 2 ? 0 : 100);
        CHECK_EQ(t.by_src[2], src == 1 ? 0 : 140);
    }
    rvt_image_free(img);
}

/* Random corruption of a valid stream: never crashes, reports errors with
 * offsets inside the buffer, resynchronises at later periodic syncs. */
static void test_corruption(void)
{
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    cfg.sync_mode = 1; cfg.sync_max = 0;    /* a sync every 16 messages */
    cfg.inst_mode = RVT_NT_MODE_BTM;
    cap c = {0};
    int st;
    rvt_nt_encoder *e = rvt_nt_encoder_new(&cfg, cap_put, &c, &st);
    rvt_irec r[400];
    loop_records(r, 400, 0);
    CHECK_EQ(rvt_nt_encoder_put(e, r, 400), 0);
    CHECK_EQ(rvt_nt_encoder_end(e), 0);
    rvt_nt_encoder_free(e);
    rvt_image *img = loop_image();
    uint32_t seed = 12345;
    for (int round = 0; round < 300; round++) {
        uint8_t buf[sizeof c.b];
        memcpy(buf, c.b, c.n);
        for (int k = 0; k < 1 + round % 5; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % c.n;
            buf[at] = (uint8_t)(round & 1 ? seed >> 3 : 0);
        }
        if (round % 7 == 0)      /* an all-zero stretch: an endless message */
            memset(buf + c.n / 3, 0, 100 < c.n / 3 ? 100 : c.n / 3);
        size_t len = round % 11 == 0 ? c.n / 2 + round : c.n;   /* truncation */
        if (len > c.n) len = c.n;
        tally t = {0};
        rvt_nt_decoder *d = rvt_nt_decoder_new(&cfg, rvt_image_insn_cb, img, -1, tally_ev, &t, &st);
        CHECK_EQ(rvt_nt_decode(d, buf, len), 0);
        rvt_nt_decoder_free(d);
        CHECK(t.insns <= 2 * 800);
    }
    /* Pure garbage and all zeros. */
    uint8_t junk[4096];
    for (size_t i = 0; i < sizeof junk; i++) {
        seed = seed * 1103515245u + 12345u;
        junk[i] = (uint8_t)(seed >> 16);
    }
    tally t = {0};
    rvt_nt_decoder *d = rvt_nt_decoder_new(&cfg, rvt_image_insn_cb, img, -1, tally_ev, &t, &st);
    CHECK_EQ(rvt_nt_decode(d, junk, sizeof junk), 0);
    memset(junk, 0, sizeof junk);
    CHECK_EQ(rvt_nt_decode(d, junk, sizeof junk), 0);
    CHECK(t.errors > 0);
    rvt_nt_decoder_free(d);
    /* A clean copy after a corrupt prefix still decodes from its sync. */
    uint8_t two[2 * sizeof c.b];
    memset(two, 0, 64);
    two[63] = 0xFF;   /* 3.4: an end/idle byte re-aligns message boundaries */
    memcpy(two + 64, c.b, c.n);
    d = rvt_nt_decoder_new(&cfg, rvt_image_insn_cb, img, -1, tally_ev, &t, &st);
    memset(&t, 0, sizeof t);
    CHECK_EQ(rvt_nt_decode(d, two, 64 + c.n), 0);
    CHECK_EQ(t.insns, 800);
    rvt_nt_decoder_free(d);
    rvt_image_free(img);
}

static int count_errors(void *ctx, const rvt_flow_event *ev)
{
    if (ev->kind == RVT_EV_ERROR) ++*(uint64_t *)ctx;
    return 0;
}

/* History bits over a branch-free loop (`c.j .`): no instruction ever takes
 * them, so the walk must stop with an error once it has gone 2^rvtIcntBits
 * half-words without a branch (8.4.4) instead of spinning forever.  An I-CNT
 * above the 2^40 ceiling for wide I-CNTs (test_wide_icnt) is refused. */
static void test_unusable_history(void)
{
    rvt_image *img = rvt_image_new();
    const uint8_t cj_self[2] = { 0x01, 0xA0 };      /* c.j 0: 101 0...0 01 */
    rvt_image_add_bytes(img, 0x1000, cj_self, 2, "loop");
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    cfg.icnt_bits = 12;
    rvt_nt_msg m[3];
    memset(m, 0, sizeof m);
    m[0].tcode = RVT_NT_PROG_TRACE_SYNC;
    rvt_nt_set(&m[0], RVT_NT_F_SYNC, 3);
    rvt_nt_set(&m[0], RVT_NT_F_ICNT, 0);
    rvt_nt_set(&m[0], RVT_NT_F_FADDR, 0x800);
    m[1].tcode = RVT_NT_RESOURCE_FULL;
    rvt_nt_set(&m[1], RVT_NT_F_RCODE, RVT_NT_RCODE_HIST);
    rvt_nt_set(&m[1], RVT_NT_F_RDATA, 0x3);          /* stop bit + one branch */
    m[2] = m[0];
    m[2].tcode = RVT_NT_PROG_TRACE_CORRELATION;
    m[2].present = 0;
    rvt_nt_set(&m[2], RVT_NT_F_EVCODE, 0);
    rvt_nt_set(&m[2], RVT_NT_F_CDF, 0);
    rvt_nt_set(&m[2], RVT_NT_F_ICNT, 1ull << 41);   /* above the 2^40 ceiling */
    uint8_t buf[3 * RVT_NT_MAX_MSG];
    size_t n = 0;
    for (int i = 0; i < 3; i++) {
        int k = rvt_nt_msg_encode(&m[i], &cfg, buf + n, sizeof buf - n);
        CHECK(k > 0);
        n += (size_t)(k > 0 ? k : 0);
    }
    int st;
    uint64_t errors = 0;
    rvt_nt_decoder *d = rvt_nt_decoder_new(&cfg, rvt_image_insn_cb, img, -1, count_errors, &errors,
                                           &st);
    rvt_nt_decoder_set_events(d, RVT_NT_EVENTS_COUNT);
    CHECK_EQ(rvt_nt_decode(d, buf, n), 0);   /* returns at all */
    CHECK_EQ(errors, 1);                             /* the history walk */
    rvt_nt_dec_stats ds;
    rvt_nt_decoder_stats(d, &ds);
    CHECK(ds.insns <= (1u << 12) + 1);
    rvt_nt_decoder_free(d);
    /* Without the ResourceFull: the huge I-CNT itself is refused. */
    errors = 0;
    size_t l0 = (size_t)rvt_nt_msg_encode(&m[0], &cfg, buf, sizeof buf);
    size_t l2 = (size_t)rvt_nt_msg_encode(&m[2], &cfg, buf + l0, sizeof buf - l0);
    d = rvt_nt_decoder_new(&cfg, rvt_image_insn_cb, img, -1, count_errors, &errors, &st);
    CHECK_EQ(rvt_nt_decode(d, buf, l0 + l2), 0);
    CHECK_EQ(errors, 1);
    rvt_nt_decoder_stats(d, &ds);
    CHECK_EQ(ds.insns, 0);
    rvt_nt_decoder_free(d);
    rvt_image_free(img);
}

/* Decoding one stream over an image: instructions, errors, last error PC. */
typedef struct walked { uint64_t insns, errors, err_pc; } walked;
static int walked_ev(void *ctx, const rvt_flow_event *ev)
{
    walked *w = ctx;
    if (ev->kind == RVT_EV_INSN) w->insns++;
    if (ev->kind == RVT_EV_ERROR) { w->errors++; w->err_pc = ev->pc; }
    return 0;
}

static walked walk_stream(const rvt_nt_cfg *cfg, rvt_image *img, const uint8_t *b, size_t n,
                          unsigned events)
{
    int st;
    walked w = {0};
    rvt_nt_decoder *d = rvt_nt_decoder_new(cfg, rvt_image_insn_cb, img, -1, walked_ev, &w, &st);
    rvt_nt_decoder_set_events(d, events);
    alarm(10);                                  /* it used to spin forever */
    CHECK_EQ(rvt_nt_decode(d, b, n), 0);
    alarm(0);
    rvt_nt_dec_stats ds;
    rvt_nt_decoder_stats(d, &ds);
    w.insns = ds.insns;
    rvt_nt_decoder_free(d);
    return w;
}

/* An I-CNT span over an instruction that traps without retiring (8.4: it
 * cannot update I-CNT): `nop; BAD; nop; j _start` at 0x80000000, where BAD
 * is an illegal encoding of each length (unprivileged 1.5).  The walk
 * retires the nop, reports one error at BAD and stops; with the reserved
 * length (0xffffffff: >= 192 bits, length unknown) it never returned.  The
 * first stream is the issue's, byte by byte (MDO = bits 7:2, MSEO = 1:0):
 *   24 = 001001|00  TCODE 9 ProgTraceSync
 *   05 = 000001|01  SYNC (4 bits) = 1, I-CNT = 00, end of field
 *   00 x5, 07 = 000001|11  F-ADDR = 1 << 30 (PC 0x80000000), end of message
 *   10 = 000100|00  TCODE 4 IndirectBranch
 *   41 = 010000|01  B-TYPE (2 bits) = 0, I-CNT = 0100 = 4, end of field
 *   13 = 000100|11  U-ADDR = 4, end of message */
static void test_illegal_in_span(void)
{
    static const uint8_t issue[] = { 0x24, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07,
                                     0x10, 0x41, 0x13 };
    static const struct { uint8_t b[8]; unsigned len; } bad[] = {
        { { 0xff, 0xff, 0xff, 0xff }, 4 },                  /* reserved >= 80-bit */
        { { 0x00, 0x00 }, 2 },                              /* 16-bit zero parcel */
        { { 0x0b, 0x00, 0x00, 0x00 }, 4 },                  /* 32-bit custom-0 */
        { { 0x1f, 0x00, 0x00, 0x00, 0x00, 0x00 }, 6 },      /* 48-bit */
        { { 0x3f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 }, 8 },   /* 64-bit */
    };
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    cfg.inst_mode = RVT_NT_MODE_BTM;
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        rvt_image *img = rvt_image_new();
        const uint8_t nop[2] = { 0x01, 0x00 }, j_start[2] = { 0xe5, 0xbf };
        uint64_t a = 0x80000000;
        rvt_image_add_bytes(img, a, nop, 2, "t");
        rvt_image_add_bytes(img, a + 2, bad[k].b, bad[k].len, "t");
        rvt_image_add_bytes(img, a + 2 + bad[k].len, nop, 2, "t");
        rvt_image_add_bytes(img, a + 4 + bad[k].len, j_start, 2, "t");
        /* I-CNT = 1 + BAD's half-words + 1: the whole straight line */
        rvt_nt_msg m[2];
        memset(m, 0, sizeof m);
        m[0].tcode = RVT_NT_PROG_TRACE_SYNC;
        rvt_nt_set(&m[0], RVT_NT_F_SYNC, 1);
        rvt_nt_set(&m[0], RVT_NT_F_ICNT, 0);
        rvt_nt_set(&m[0], RVT_NT_F_FADDR, a >> 1);
        m[1].tcode = RVT_NT_INDIRECT_BRANCH;
        rvt_nt_set(&m[1], RVT_NT_F_BTYPE, 0);
        rvt_nt_set(&m[1], RVT_NT_F_ICNT, 2 + bad[k].len / 2);
        rvt_nt_set(&m[1], RVT_NT_F_UADDR, 4);
        uint8_t buf[2 * RVT_NT_MAX_MSG];
        size_t n = 0;
        for (int i = 0; i < 2; i++) {
            int l = rvt_nt_msg_encode(&m[i], &cfg, buf + n, sizeof buf - n);
            CHECK(l > 0);
            n += (size_t)(l > 0 ? l : 0);
        }
        if (k == 0) {                   /* the same bytes as the issue's */
            CHECK_EQ(n, sizeof issue);
            CHECK(memcmp(buf, issue, sizeof issue) == 0);
        }
        for (unsigned ev = RVT_NT_EVENTS_INSN; ev <= RVT_NT_EVENTS_COUNT; ev++) {
            walked w = walk_stream(&cfg, img, buf, n, ev);
            CHECK_EQ(w.insns, 1);       /* the nop at 0x80000000 */
            CHECK_EQ(w.errors, 1);
            CHECK_EQ(w.err_pc, a + 2);
        }
        rvt_image_free(img);
    }
}

/* 8.4.4: the reference code never reports I-CNT overflow, so its long runs
 * carry I-CNTs (and history walks) beyond 2^rvtIcntBits.  The decoder takes
 * them, counts them in wide_icnt, and decodes exactly.  The loop of
 * loop_image (addi; bne back: 4 half-words and one HIST bit a turn), 2000
 * turns then a fall-through, encoded with a 32-bit counter (no overflow
 * report) and decoded with rvtIcntBits = 12: 8000 half-words > 2^12. */
static void test_wide_icnt(void)
{
    rvt_nt_cfg enc;
    rvt_nt_cfg_default(&enc);
    enc.icnt_bits = 32;
    cap c = {0};
    int st;
    rvt_nt_encoder *e = rvt_nt_encoder_new(&enc, cap_put, &c, &st);
    static rvt_irec r[2000];
    loop_records(r, 2000, 0);
    CHECK_EQ(rvt_nt_encoder_put(e, r, 2000), 0);
    CHECK_EQ(rvt_nt_encoder_end(e), 0);
    rvt_nt_encoder_free(e);
    rvt_image *img = loop_image();
    rvt_nt_cfg dec = enc;
    dec.icnt_bits = 12;
    tally t = {0};
    rvt_nt_decoder *d = rvt_nt_decoder_new(&dec, rvt_image_insn_cb, img, -1, tally_ev, &t, &st);
    CHECK_EQ(rvt_nt_decode(d, c.b, c.n), 0);
    rvt_nt_dec_stats ds;
    rvt_nt_decoder_stats(d, &ds);
    rvt_nt_decoder_free(d);
    CHECK_EQ(t.errors, 0);
    CHECK_EQ(t.insns, 4000);
    CHECK(ds.wide_icnt >= 1);
    CHECK(ds.wide_icnt_offset < c.n);
    /* the same stream with the encoder's width: nothing wide */
    d = rvt_nt_decoder_new(&enc, rvt_image_insn_cb, img, -1, tally_ev, &t, &st);
    memset(&t, 0, sizeof t);
    CHECK_EQ(rvt_nt_decode(d, c.b, c.n), 0);
    rvt_nt_decoder_stats(d, &ds);
    rvt_nt_decoder_free(d);
    CHECK_EQ(t.insns, 4000);
    CHECK_EQ(ds.wide_icnt, 0);
    rvt_image_free(img);
}

/* A decoder that lost its way must not go on as if nothing happened: a
 * B-TYPE 0 sync message (here IndirectBranchHistSync SYNC=2, periodic) has
 * F-ADDR = the next PC (table 25), so when the decoded path (loop_image:
 * addi; bne -4, whose HIST bit says taken = back to 0x1000, or not taken =
 * on to 0x1008) goes elsewhere, that is an error and decoding restarts at
 * that sync.  Messages: ProgTraceSync F-ADDR 0x1000; the periodic sync
 * I-CNT 4 (addi, bne) with HIST 0b11 (stop bit, taken) or 0b10 (not
 * taken), F-ADDR 0x1000; ProgTraceCorrelation I-CNT 2 (the addi). */
static void test_sync_contradicts_path(void)
{
    rvt_image *img = loop_image();
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    for (unsigned taken = 0; taken <= 1; taken++) {
        rvt_nt_msg m[3];
        memset(m, 0, sizeof m);
        m[0].tcode = RVT_NT_PROG_TRACE_SYNC;
        rvt_nt_set(&m[0], RVT_NT_F_SYNC, 3);
        rvt_nt_set(&m[0], RVT_NT_F_ICNT, 0);
        rvt_nt_set(&m[0], RVT_NT_F_FADDR, 0x1000 >> 1);
        m[1].tcode = RVT_NT_INDIRECT_BRANCH_HIST_SYNC;
        rvt_nt_set(&m[1], RVT_NT_F_SYNC, 2);
        rvt_nt_set(&m[1], RVT_NT_F_BTYPE, 0);
        rvt_nt_set(&m[1], RVT_NT_F_ICNT, 4);
        rvt_nt_set(&m[1], RVT_NT_F_FADDR, 0x1000 >> 1);
        rvt_nt_set(&m[1], RVT_NT_F_HIST, 2u | taken);
        m[2].tcode = RVT_NT_PROG_TRACE_CORRELATION;
        rvt_nt_set(&m[2], RVT_NT_F_EVCODE, 0);
        rvt_nt_set(&m[2], RVT_NT_F_CDF, 1);
        rvt_nt_set(&m[2], RVT_NT_F_ICNT, 2);
        rvt_nt_set(&m[2], RVT_NT_F_HIST, 1);
        uint8_t buf[3 * RVT_NT_MAX_MSG];
        size_t n = 0;
        for (int i = 0; i < 3; i++) {
            int k = rvt_nt_msg_encode(&m[i], &cfg, buf + n, sizeof buf - n);
            CHECK(k > 0);
            n += (size_t)(k > 0 ? k : 0);
        }
        int st;
        tally t = {0};
        rvt_nt_decoder *d = rvt_nt_decoder_new(&cfg, rvt_image_insn_cb, img, -1, tally_ev, &t, &st);
        CHECK_EQ(rvt_nt_decode(d, buf, n), 0);
        rvt_nt_dec_stats ds;
        rvt_nt_decoder_stats(d, &ds);
        rvt_nt_decoder_free(d);
        CHECK_EQ(t.errors, (taken ? 0u : 1u));
        CHECK_EQ(ds.lost_way, (taken ? 0u : 1u));
        /* addi, bne, then addi from the sync's F-ADDR: the sync message
         * that exposed the error is itself where decoding restarts (with
         * an RVT_EV_LOST for what went before) */
        CHECK_EQ(t.insns, 3);
        CHECK_EQ(t.lost, (taken ? 0u : 1u));
    }
    rvt_image_free(img);
}

int main(void)
{
    test_sync_contradicts_path();
    test_wide_icnt();
    test_illegal_in_span();
    test_unusable_history();
    test_multi_hart();
    test_corruption();
    return TH_DONE();
}
