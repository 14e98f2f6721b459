/* decode --jobs pieces (tools/rvtrace/jobs_piece.c): each message's wide
 * I-CNT (8.4.4: wider than rvtIcntBits, noted once with a count) is
 * counted by the one piece that owns the message -- from after its own
 * first sync through the next piece's sync message (docs/parallel.md) --
 * although a piece's decoder also reads its own first sync, which the
 * piece before owns, and, keeping instructions, reads on past its cut
 * until an event of the next message stops it.  The sum over the pieces is
 * one decoder's count.  A stream built by hand, BTM, rvtIcntBits 4. */
#include "tharness.h"
#include "jobs_piece.h"
#include "rvtrace/mem.h"
#include "rvtrace/ntrace.h"
#include "test_ntrace_util.h"
#include "test_stream_util.h"

#define BASE 0x80000000u
#define SPAN 20u            /* I-CNT half-words: above 2^4 */

/* ProgTraceSync, SYNC 3 (table 25: restarts the encoder), at BASE */
static uint64_t sync_msg(te_buf *s, const rvt_nt_cfg *c)
{
    rvt_nt_msg m = { .tcode = RVT_NT_PROG_TRACE_SYNC };
    rvt_nt_set(&m, RVT_NT_F_SYNC, 3);
    rvt_nt_set(&m, RVT_NT_F_ICNT, 0);
    rvt_nt_set(&m, RVT_NT_F_FADDR, BASE >> 1);
    return th_nt_put(s, c, &m);
}

/* IndirectBranch after SPAN half-words (the c.jr that ends them), back to
 * BASE: U-ADDR 0 against the last address sent, BASE (8.1) */
static uint64_t wide_branch(te_buf *s, const rvt_nt_cfg *c)
{
    rvt_nt_msg m = { .tcode = RVT_NT_INDIRECT_BRANCH };
    rvt_nt_set(&m, RVT_NT_F_BTYPE, 0);
    rvt_nt_set(&m, RVT_NT_F_ICNT, SPAN);
    rvt_nt_set(&m, RVT_NT_F_UADDR, 0);
    return th_nt_put(s, c, &m);
}

static int no_events(void *ctx, const rvt_flow_event *ev)
{
    (void)ctx;
    (void)ev;
    return 0;
}

/* One decoder over the whole stream: its stats. */
static rvt_nt_dec_stats whole_decode(const rvt_nt_cfg *c, const rvt_mem *mem, const te_buf *s)
{
    rvt_nt_dec_stats ds = { 0 };
    int st = 0;
    rvt_nt_decoder *d = rvt_nt_decoder_new_mem(c, mem, -1, no_events, NULL, &st);
    CHECK(d != NULL);
    if (!d)
        return ds;
    CHECK_EQ(rvt_nt_decode(d, s->b, s->n), 0);
    CHECK_EQ(rvt_nt_decode_end(d), 0);
    rvt_nt_decoder_stats(d, &ds);
    rvt_nt_decoder_free(d);
    return ds;
}

static void wide_icnt_once(bool keep_insns)
{
    rvt_nt_cfg c;
    rvt_nt_cfg_default(&c);
    c.inst_mode = RVT_NT_MODE_BTM;
    c.icnt_bits = 4;
    rvt_image *img = rvt_image_new();
    for (unsigned i = 0; i + 1 < SPAN; i++)
        put16(img, BASE + 2 * i, 0x0001);          /* c.nop */
    put16(img, BASE + 2 * (SPAN - 1), 0x8082);     /* c.jr ra */
    rvt_mem *mem = rvt_mem_new();
    CHECK_EQ(rvt_mem_add_image(mem, NULL, img), 0);

    /* the cut at the second sync: piece 1 owns m1 and that sync, piece 2
     * m2 and m3; piece 1's decoder reads m2 before m2's first event
     * stops it */
    te_buf s = { 0 };
    sync_msg(&s, &c);
    uint64_t m1 = wide_branch(&s, &c);
    uint64_t cut = sync_msg(&s, &c), cut_end = s.n;
    uint64_t m2 = wide_branch(&s, &c);
    wide_branch(&s, &c);
    /* I-CNT counts the half-words up to and including the jump (8.4); a
     * sync's I-CNT 0 retires nothing: 3 * SPAN c.nop/c.jr in all */
    rvt_nt_dec_stats whole = whole_decode(&c, mem, &s);
    CHECK_EQ(whole.wide_icnt, 3);
    CHECK_EQ(whole.insns, 3 * SPAN);

    jobs_cfg jc = { .kind = KIND_NT, .native = &c, .mem = mem, .src = -1, .buf = s.b, .len = s.n,
                    .keep_insns = keep_insns };
    piece p1 = { .from = 0, .rec = 0, .to = cut_end, .state = RVT_INDEX_NONE, .tail = UINT64_MAX,
                 .src = -1 };
    piece p2 = { .from = cut, .rec = cut_end, .to = s.n, .state = RVT_INDEX_NONE, .tail = UINT64_MAX,
                 .last = true, .src = -1 };
    piece_decode(&jc, &p1);
    piece_decode(&jc, &p2);
    CHECK_EQ(p1.status, 0);
    CHECK_EQ(p2.status, 0);
    CHECK_EQ(p1.wide_icnt, 1);
    CHECK_EQ(p1.wide_icnt_offset, m1);
    CHECK_EQ(p2.wide_icnt, 2);
    CHECK_EQ(p2.wide_icnt_offset, m2);
    CHECK_EQ(p1.insns, SPAN);
    CHECK_EQ(p2.insns, 2 * SPAN);
    ev_tape_free(&p1.tape);
    ev_tape_free(&p2.tape);
    free(s.b);
    rvt_mem_free(mem);
    rvt_image_free(img);
}

int main(void)
{
    wide_icnt_once(true);       /* instructions kept: the decoder reads on */
    wide_icnt_once(false);      /* counted: fed through the cut */
    return TH_DONE();
}
