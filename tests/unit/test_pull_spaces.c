/* The pull API hands out each instruction from its own address space
 * (mem.h), even when the walk has already gone on into another space: the
 * pull decoders run ahead of the caller (flow_pull.h), so by the time
 * next_insn steps through a queued block the decoder may be decoding
 * another source's messages.  An N-Trace stream of two sources, built by
 * hand, whose programs sit at the same addresses with other instruction
 * lengths: source 1 runs four c.nop and a jr t0 at 0x1008, source 2 two
 * nop and the same jr at 0x1008.  Both reach the jr after I-CNT 6
 * half-words (N-Trace 8.4), so one message each says the same thing;
 * only the image keyed to the source tells the PCs apart. */
#include <stdio.h>
#include <stdlib.h>
#include "rvtrace/mem.h"
#include "rvtrace/ntrace.h"
#include "test_stream_util.h"

#define CODE 0x1000u
#define MAXPC 32

/* Source 1: c.nop x4 (0x0001), jr t0 (jalr x0, 0(x5): 0x00028067). */
static const uint8_t prog1[] = { 0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00,
                                 0x67, 0x80, 0x02, 0x00 };
/* Source 2: nop x2 (addi x0, x0, 0: 0x00000013), jr t0. */
static const uint8_t prog2[] = { 0x13, 0x00, 0x00, 0x00, 0x13, 0x00, 0x00, 0x00,
                                 0x67, 0x80, 0x02, 0x00 };

typedef struct pcs {
    size_t n;
    uint64_t pc[MAXPC];
    uint16_t src[MAXPC];
} pcs;

static void add(pcs *p, uint64_t pc, uint16_t src)
{
    if (p->n < MAXPC) {
        p->pc[p->n] = pc;
        p->src[p->n] = src;
    }
    p->n++;
}

static int on_event(void *ctx, const rvt_flow_event *ev)
{
    if (ev->kind == RVT_EV_INSN)
        add(ctx, ev->pc, ev->src);
    return 0;
}

/* img[0] keyed to source 1, img[1] to source 2 (borrowed by the rvt_mem). */
static rvt_mem *two_programs(rvt_image *img[2])
{
    rvt_mem *m = rvt_mem_new();
    CHECK(m != NULL);
    for (unsigned src = 1; src <= 2; src++) {
        img[src - 1] = rvt_image_new();
        CHECK(img[src - 1] != NULL);
        CHECK_EQ(rvt_image_add_bytes(img[src - 1], CODE, src == 1 ? prog1 : prog2, sizeof prog1,
                                     src == 1 ? "prog1" : "prog2"), 0);
        rvt_space key = rvt_space_any();
        key.source = src;
        CHECK_EQ(rvt_mem_add_image(m, &key, img[src - 1]), 0);
    }
    return m;
}

static void put(te_buf *s, const rvt_nt_cfg *c, rvt_nt_msg m, unsigned src)
{
    rvt_nt_set(&m, RVT_NT_F_SRC, src);
    th_nt_put(s, c, &m);
}

/* Each source: a ProgTraceSync at CODE (SYNC 3, I-CNT 0), then an
 * IndirectBranch with I-CNT 6 back to CODE (U-ADDR: the target's
 * address bits XOR the last one's, both CODE >> 1, so 0). */
static void stream(te_buf *s, const rvt_nt_cfg *c)
{
    for (unsigned src = 1; src <= 2; src++) {
        rvt_nt_msg sync = { .tcode = RVT_NT_PROG_TRACE_SYNC };
        rvt_nt_set(&sync, RVT_NT_F_SYNC, 3);
        rvt_nt_set(&sync, RVT_NT_F_ICNT, 0);
        rvt_nt_set(&sync, RVT_NT_F_FADDR, CODE >> 1);
        put(s, c, sync, src);
    }
    for (unsigned src = 1; src <= 2; src++) {
        rvt_nt_msg br = { .tcode = RVT_NT_INDIRECT_BRANCH };
        rvt_nt_set(&br, RVT_NT_F_BTYPE, 0);
        rvt_nt_set(&br, RVT_NT_F_ICNT, 6);
        rvt_nt_set(&br, RVT_NT_F_UADDR, 0);
        put(s, c, br, src);
    }
}

static rvt_nt_decoder *decoder(const rvt_nt_cfg *c, const rvt_mem *m, pcs *push)
{
    int st = 0;
    rvt_nt_decoder *d = rvt_nt_decoder_new_mem(c, m, -1, on_event, push, &st);
    CHECK(d != NULL && st == 0);
    return d;
}

int main(void)
{
    rvt_nt_cfg c;
    rvt_nt_cfg_default(&c);
    c.src_bits = 2;
    rvt_image *img[2];
    rvt_mem *m = two_programs(img);
    te_buf s = { 0 };
    stream(&s, &c);

    /* Push: the decoder's own order, worked out above. */
    static const uint64_t want_pc[] = { 0x1000, 0x1002, 0x1004, 0x1006, 0x1008,
                                        0x1000, 0x1004, 0x1008 };
    static const uint16_t want_src[] = { 1, 1, 1, 1, 1, 2, 2, 2 };
    pcs push = { 0 };
    rvt_nt_decoder *d = decoder(&c, m, &push);
    CHECK_EQ(rvt_nt_decode(d, s.b, s.n), 0);
    CHECK_EQ(rvt_nt_decode_end(d), 0);
    rvt_nt_decoder_free(d);
    CHECK_EQ(push.n, 8);
    for (size_t i = 0; i < 8 && i < push.n; i++)
        CHECK(push.pc[i] == want_pc[i] && push.src[i] == want_src[i]);

    /* Pull, an instruction at a time: the same, each from its own source's
     * image (before the fix source 1's block was stepped through with
     * source 2's 4-byte nops: 0x1000, 0x1004, 0x1008, ...). */
    pcs pulled = { 0 };
    d = decoder(&c, m, NULL);
    CHECK_EQ(rvt_nt_decoder_set_input(d, s.b, s.n), 0);
    rvt_flow_insn fi;
    int got;
    while ((got = rvt_nt_decoder_next_insn(d, &fi)) > 0 || (got == 0 && pulled.n < MAXPC)) {
        if (got == 0) {              /* an event first, or the end */
            rvt_flow_event ev;
            int e = rvt_nt_decoder_next_event(d, &ev);
            CHECK(e >= 0);
            if (e <= 0)
                break;
            continue;
        }
        CHECK(fi.insn != NULL);
        CHECK(!fi.insn || fi.insn->len == (fi.src == 1 && fi.pc < 0x1008 ? 2 : 4));
        add(&pulled, fi.pc, fi.src);
    }
    CHECK(got >= 0);
    rvt_nt_decoder_free(d);
    CHECK_EQ(pulled.n, 8);
    for (size_t i = 0; i < 8 && i < pulled.n; i++) {
        if (pulled.pc[i] != want_pc[i] || pulled.src[i] != want_src[i])
            TH_FAIL("pulled instruction %zu: %#llx of source %u, want %#llx of source %u", i,
                    (unsigned long long)pulled.pc[i], pulled.src[i],
                    (unsigned long long)want_pc[i], want_src[i]);
    }
    free(s.b);
    rvt_mem_free(m);
    rvt_image_free(img[0]);
    rvt_image_free(img[1]);
    return TH_DONE();
}
