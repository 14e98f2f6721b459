/* Writers fed runs of instructions (out.h rvt_out_writer.block, issue
 * #17) write what they write when fed one event per instruction: every
 * registered writer, over E-Trace streams of programs/ traced by the hart
 * in process (calls and returns, recursion, traps, an RV32 program),
 * three ways -- (a) a copy of the writer without its block entry, given
 * the push decoder's events, (b) the writer given the same events, which
 * rvt_out_event gathers into runs, (c) the writer given the pull
 * decoder's blocks through rvt_out_block and its other events through
 * rvt_out_event, (e) the writer given the pull decoder's batches of
 * blocks (next_run) through rvt_out_blocks -- its batch entry, or its
 * block entry once per block when a copy lacks the batch entry -- must
 * give the same bytes (lcov over cov.elf, the
 * program with DWARF line tables); and over N-Trace streams, (a) against
 * (d) the decoder in block mode (RVT_NT_EVENTS_BLOCK), its instruction
 * events through rvt_out_run, as rvtrace decode feeds them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rvtrace/etrace.h"
#include "rvtrace/ntrace.h"
#include "rvtrace/flow.h"
#include "rvtrace/hart.h"
#include "rvtrace/image.h"
#include "rvtrace/out.h"
#include "test_hart_util.h"

static int put_file(void *ctx, const uint8_t *b, size_t n)
{
    return fwrite(b, 1, n, ctx) == n ? 0 : RVT_ERR_IO;
}

typedef struct text {
    char *s;
    size_t n;
    FILE *f;
} text;

static rvt_out *open_text(text *t, const rvt_out_writer *w, rvt_image *img)
{
    t->s = NULL;
    t->f = open_memstream(&t->s, &t->n);
    rvt_out *o = rvt_out_open(w, t->f, img);
    CHECK(o != NULL);
    return o;
}

static void close_text(text *t, rvt_out *o)
{
    rvt_out_free(o);
    fclose(t->f);
}

static void push(const rvt_te_attrs *a, rvt_image *img, const char *s, size_t n, rvt_out *o)
{
    int st;
    rvt_te_decoder *d = rvt_te_decoder_new(a, img, rvt_out_event, o, &st);
    CHECK_EQ(rvt_te_decoder_run(d, (const uint8_t *)s, n), 0);
    rvt_te_decoder_free(d);
}

static void pull(const rvt_te_attrs *a, rvt_image *img, const char *s, size_t n, rvt_out *o)
{
    int st;
    rvt_te_decoder *d = rvt_te_decoder_new(a, img, NULL, NULL, &st);
    CHECK_EQ(rvt_te_decoder_set_input(d, (const uint8_t *)s, n), 0);
    rvt_block b;
    rvt_flow_event ev;
    unsigned bad = 0;
    for (;;) {
        while (rvt_te_decoder_next_event(d, &ev) > 0)
            rvt_out_event(o, &ev);
        if (rvt_te_decoder_next_block(d, &b) <= 0)
            break;
        bad += rvt_out_block(o, &b) != 0;
    }
    while (rvt_te_decoder_next_event(d, &ev) > 0)
        rvt_out_event(o, &ev);
    CHECK_EQ(bad, 0);
    rvt_te_decoder_free(d);
}

/* (e): batches of up to 64 blocks, each ending before an event (the
 * batches rvt_proto_decoder_pump_blocks hands out), to rvt_out_blocks. */
static void pull_batches(const rvt_te_attrs *a, rvt_image *img, const char *s, size_t n, rvt_out *o)
{
    int st;
    rvt_te_decoder *d = rvt_te_decoder_new(a, img, NULL, NULL, &st);
    CHECK_EQ(rvt_te_decoder_set_input(d, (const uint8_t *)s, n), 0);
    rvt_block b[64];
    rvt_flow_event ev;
    unsigned bad = 0, events;
    for (;;) {
        for (events = 0; rvt_te_decoder_next_event(d, &ev) > 0; events++)
            rvt_out_event(o, &ev);
        int got = rvt_te_decoder_next_run(d, b, 64);
        if (got < 0 || (got == 0 && events == 0))
            break;
        size_t done;
        bad += rvt_out_blocks(o, b, (size_t)got, &done) != 0 || done != (size_t)got;
    }
    CHECK_EQ(bad, 0);
    rvt_te_decoder_free(d);
}

static void same(const char *what, const char *w, const text *a, const text *b)
{
    if (a->n == b->n && !memcmp(a->s, b->s, a->n)) {
        th_passed++;
        return;
    }
    size_t k = 0;
    while (k < a->n && k < b->n && a->s[k] == b->s[k])
        k++;
    TH_FAIL("%s %s: %zu and %zu bytes, first difference at %zu", what, w, a->n, b->n, k);
}

/* (a), (b), (c) for every writer over the E-Trace stream. */
static void te_writers(const char *prog, rvt_image *img, const rvt_te_attrs *a, const text *stream)
{
    const rvt_out_writer *w;
    for (size_t i = 0; (w = rvt_out_writer_at(i)) != NULL; i++) {
        rvt_out_writer plain = *w, unbatched = *w;
        plain.block = NULL;
        plain.blocks = NULL;
        unbatched.blocks = NULL;
        text t[5];
        rvt_out *o = open_text(&t[0], &plain, img);
        push(a, img, stream->s, stream->n, o);
        uint64_t insns = rvt_out_insns(o);
        close_text(&t[0], o);
        o = open_text(&t[1], w, img);
        push(a, img, stream->s, stream->n, o);
        CHECK_EQ(rvt_out_insns(o), insns);
        close_text(&t[1], o);
        o = open_text(&t[2], w, img);
        pull(a, img, stream->s, stream->n, o);
        CHECK_EQ(rvt_out_insns(o), insns);
        close_text(&t[2], o);
        o = open_text(&t[3], w, img);
        pull_batches(a, img, stream->s, stream->n, o);
        CHECK_EQ(rvt_out_insns(o), insns);
        close_text(&t[3], o);
        o = open_text(&t[4], &unbatched, img);
        pull_batches(a, img, stream->s, stream->n, o);
        CHECK_EQ(rvt_out_insns(o), insns);
        close_text(&t[4], o);
        if (!t[0].n && (strcmp(w->name, "lcov") || !strcmp(prog, "cov")))   /* lcov: DWARF lines */
            TH_FAIL("%s %s: nothing written", prog, w->name);
        same(prog, w->name, &t[0], &t[1]);
        same(prog, w->name, &t[0], &t[2]);
        same(prog, w->name, &t[0], &t[3]);
        same(prog, w->name, &t[0], &t[4]);
        for (int k = 0; k < 5; k++)
            free(t[k].s);
    }
}

/* N-Trace block mode: instruction events to rvt_out_run. */
static int run_event(void *ctx, const rvt_flow_event *ev)
{
    if (ev->kind == RVT_EV_INSN)
        return rvt_out_run(ctx, ev) != 0;
    return rvt_out_event(ctx, ev);
}

static void nt_decode(const rvt_nt_cfg *c, rvt_image *img, const text *s, rvt_out *o, bool runs)
{
    int st;
    rvt_nt_decoder *d = rvt_nt_decoder_new(c, rvt_image_insn_cb, img, -1, runs ? run_event : rvt_out_event, o, &st);
    if (runs)
        rvt_nt_decoder_set_events(d, RVT_NT_EVENTS_BLOCK);
    CHECK_EQ(rvt_nt_decode(d, (const uint8_t *)s->s, s->n), 0);
    CHECK_EQ(rvt_nt_decode_end(d), 0);
    rvt_nt_decoder_free(d);
}

/* (a) and (d) for every writer over the N-Trace stream. */
static void nt_writers(const char *prog, rvt_image *img, const rvt_nt_cfg *c, const text *stream)
{
    const rvt_out_writer *w;
    for (size_t i = 0; (w = rvt_out_writer_at(i)) != NULL; i++) {
        text t[2];
        for (int k = 0; k < 2; k++) {
            rvt_out *o = open_text(&t[k], w, img);
            nt_decode(c, img, stream, o, k == 1);
            close_text(&t[k], o);
        }
        same(prog, w->name, &t[0], &t[1]);
        free(t[0].s);
        free(t[1].s);
    }
}

/* One hart run of prog into both encoders, then both protocols' checks. */
static void program(const char *prog)
{
    rvt_image *img = th_program(prog);
    CHECK(img != NULL);
    if (!img)
        return;
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    a.iaddress_width = rvt_image_xlen(img);
    rvt_nt_cfg c;
    rvt_nt_cfg_default(&c);
    c.xlen = rvt_image_xlen(img);
    text te, nt;
    te.f = open_memstream(&te.s, &te.n);
    nt.f = open_memstream(&nt.s, &nt.n);
    int st = 0;
    rvt_te_encoder *tenc = rvt_te_encoder_new(&a, put_file, te.f, &st);
    rvt_nt_encoder *nenc = rvt_nt_encoder_new(&c, put_file, nt.f, &st);
    CHECK(tenc != NULL && nenc != NULL);
    rvt_irec_sink ts = rvt_te_encoder_sink(tenc), ns = rvt_nt_encoder_sink(nenc);
    rvt_irec_tee tee;
    rvt_irec_tee_init(&tee);
    rvt_irec_tee_add(&tee, &ts);
    rvt_irec_tee_add(&tee, &ns);
    rvt_irec_sink both = rvt_irec_tee_sink(&tee);
    th_trace(img, &both, 300000);
    rvt_te_encoder_free(tenc);
    rvt_nt_encoder_free(nenc);
    fclose(te.f);
    fclose(nt.f);
    te_writers(prog, img, &a, &te);
    nt_writers(prog, img, &c, &nt);
    free(te.s);
    free(nt.s);
    rvt_image_free(img);
}

/* A block the image cannot walk, to a writer without a block entry:
 * refused, nothing written. */
static void unwalkable(void)
{
    text t;
    rvt_out_writer plain = *rvt_out_find("pcs");
    plain.block = NULL;
    rvt_out *o = open_text(&t, &plain, NULL);
    rvt_block b = { .start_pc = 0x1000, .end_pc = 0x1004, .ninsn = 2 };
    CHECK_EQ(rvt_out_block(o, &b), RVT_ERR_NOCODE);
    b.ninsn = 1;
    b.end_pc = b.start_pc;
    CHECK_EQ(rvt_out_block(o, &b), 0);
    CHECK_EQ(rvt_out_insns(o), 1);
    close_text(&t, o);
    CHECK_STR(t.s, "1000\n");
    free(t.s);
    CHECK_EQ(rvt_out_block(NULL, &b), RVT_ERR_INVAL);
}

/* A batch with a block the image cannot walk in the middle, to a writer
 * without block entries: the ones before it written, it and the rest
 * not, *done the number written; NULL refused. */
static void unwalkable_batch(void)
{
    text t;
    rvt_out_writer plain = *rvt_out_find("pcs");
    plain.block = NULL;
    plain.blocks = NULL;
    rvt_out *o = open_text(&t, &plain, NULL);
    rvt_block b[3] = { { .start_pc = 0x1000, .end_pc = 0x1000, .ninsn = 1 },
                       { .start_pc = 0x2000, .end_pc = 0x2004, .ninsn = 2 },
                       { .start_pc = 0x3000, .end_pc = 0x3000, .ninsn = 1 } };
    size_t done = 99;
    CHECK_EQ(rvt_out_blocks(o, b, 3, &done), RVT_ERR_NOCODE);
    CHECK_EQ(done, 1);
    CHECK_EQ(rvt_out_blocks(o, &b[2], 1, &done), 0);
    CHECK_EQ(done, 1);
    CHECK_EQ(rvt_out_blocks(o, b, 0, NULL), 0);
    CHECK_EQ(rvt_out_insns(o), 2);
    close_text(&t, o);
    CHECK_STR(t.s, "1000\n3000\n");
    free(t.s);
    CHECK_EQ(rvt_out_blocks(NULL, b, 1, &done), RVT_ERR_INVAL);
    CHECK_EQ(done, 0);
}

int main(void)
{
    static const char *const progs[] = { "recurse", "ecall", "setjmp", "crc_rv32", "farcall", "cov" };
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++)
        program(progs[i]);
    unwalkable();
    unwalkable_batch();
    return TH_DONE();
}
