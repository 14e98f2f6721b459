/* N-Trace decoder robustness (ch. 3: any corrupt data, including all-zero
 * "very long" messages, must not crash; errors carry offsets and decoding
 * resumes at the next sync) and multi-hart streams split by SRC (11.2). */
#include "tharness.h"
#include "rvtrace/ntrace.h"
#include "rvtrace/image.h"

typedef struct cap { uint8_t b[8192]; size_t n; } cap;
static int cap_put(void *ctx, const uint8_t *b, size_t n)
{
    cap *c = ctx;
    if (c->n + n > sizeof c->b) return RVT_ERR_LIMIT;
    memcpy(c->b + c->n, b, n);
    c->n += n;
    return 0;
}

static const rvt_insn *img_insn(void *ctx, uint64_t pc) { return rvt_image_insn(ctx, pc); }

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
        rvt_nt_decoder *d = rvt_nt_decoder_new(&a, img_insn, img, src, &st);
        tally t = {0};
        CHECK_EQ(rvt_nt_decode(d, c.b, c.n, tally_ev, &t), 0);
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
        rvt_nt_decoder *d = rvt_nt_decoder_new(&cfg, img_insn, img, -1, &st);
        tally t = {0};
        CHECK_EQ(rvt_nt_decode(d, buf, len, tally_ev, &t), 0);
        rvt_nt_decoder_free(d);
        CHECK(t.insns <= 2 * 800);
    }
    /* Pure garbage and all zeros. */
    uint8_t junk[4096];
    for (size_t i = 0; i < sizeof junk; i++) {
        seed = seed * 1103515245u + 12345u;
        junk[i] = (uint8_t)(seed >> 16);
    }
    rvt_nt_decoder *d = rvt_nt_decoder_new(&cfg, img_insn, img, -1, &st);
    tally t = {0};
    CHECK_EQ(rvt_nt_decode(d, junk, sizeof junk, tally_ev, &t), 0);
    memset(junk, 0, sizeof junk);
    CHECK_EQ(rvt_nt_decode(d, junk, sizeof junk, tally_ev, &t), 0);
    CHECK(t.errors > 0);
    rvt_nt_decoder_free(d);
    /* A clean copy after a corrupt prefix still decodes from its sync. */
    uint8_t two[2 * sizeof c.b];
    memset(two, 0, 64);
    two[63] = 0xFF;   /* 3.4: an end/idle byte re-aligns message boundaries */
    memcpy(two + 64, c.b, c.n);
    d = rvt_nt_decoder_new(&cfg, img_insn, img, -1, &st);
    memset(&t, 0, sizeof t);
    CHECK_EQ(rvt_nt_decode(d, two, 64 + c.n, tally_ev, &t), 0);
    CHECK_EQ(t.insns, 800);
    rvt_nt_decoder_free(d);
    rvt_image_free(img);
}

int main(void)
{
    test_multi_hart();
    test_corruption();
    return TH_DONE();
}
