/* A hand-built E-Trace stream and its checks (test_etrace_refill.c,
 * test_etrace_chain_slot.c, test_etrace_refill_*.c): a sync, packets of
 * branch outcomes, a last packet with an address (or a damaged stream
 * that ends in a decode error); the blocks each test works out by hand
 * from 11.1 (its expect_blocks) checked against the pull API at several
 * batch sizes and an instruction at a time (next_insn), the push
 * decoder's instruction events and offsets (one an instruction, and in
 * run mode), and the statistics with events off and run_to stops.
 * Include once, after test_etrace_util.h. */
#ifndef RVT_TEST_TE_HAND_STREAM_H
#define RVT_TEST_TE_HAND_STREAM_H

#include "test_etrace_util.h"
#include "rvtrace/flow.h"

#define MAXPKT 8
#define MAXIT 128
#define MAXBLK (3 * MAXIT)

/* The image of a test's program at TE_BASE, checked. */
static rvt_image *hand_image(const uint32_t *words, size_t n)
{
    rvt_image *img = te_image(words, n);
    CHECK(img != NULL);
    return img;
}

/* A hand-built stream: a sync, then packets of outcomes, the last one
 * with an address (each test's put_last). */
typedef struct stream {
    uint8_t b[256];
    size_t n;
    unsigned npkt;
    size_t off[MAXPKT];        /* where each packet starts */
    unsigned last[MAXPKT];     /* the last outcome its walk uses (1-based; 0: the sync) */
    unsigned nout;             /* outcomes in all */
    bool taken[MAXIT + 1];     /* outcome i, worked out by hand */
    unsigned errors;           /* decode errors (RVT_EV_ERROR) a damaged
                                  stream makes: 0 for a sound one */
    unsigned spins;            /* a damaged stream's (test_etrace_refill_
                                  brent.c): the times its walk retires a
                                  jump to itself before the decoder finds
                                  the endless loop, by hand */
} stream;

static void put(stream *s, const rvt_te_attrs *a, const rvt_te_pkt *p, unsigned outcomes, bool stop)
{
    s->off[s->npkt] = s->n;
    s->nout += outcomes;
    /* 11.1: a packet without address stops before its last branch, whose
     * outcome the next packet's walk uses */
    s->last[s->npkt++] = stop ? s->nout - 1 : s->nout;
    int n = rvt_te_frame(a, p, s->b + s->n, sizeof s->b - s->n);
    CHECK(n > 0);
    if (n > 0)
        s->n += (size_t)n;
}

/* The sync at TE_BASE + at (format 3, M-mode). */
static void put_sync(stream *s, const rvt_te_attrs *a, uint64_t at)
{
    rvt_te_pkt sync = { .format = 3, .subformat = 0, .privilege = 3, .address = (TE_BASE + at) >> 1 };
    put(s, a, &sync, 0, false);
}

/* A full branch map (table 6.7): bit k 0 is taken (6.6.1). */
static void put_map(stream *s, const rvt_te_attrs *a, uint32_t map)
{
    rvt_te_pkt p = { .format = 1, .branches = 0, .branch_map = map & 0x7fffffffu };
    for (unsigned k = 0; k < 31; k++)
        s->taken[s->nout + 1 + k] = !((map >> k) & 1);
    put(s, a, &p, 31, true);
}

/* The sync at TE_BASE + at, then n full maps. */
static void put_maps(stream *s, const rvt_te_attrs *a, uint64_t at, const uint32_t *maps, size_t n)
{
    put_sync(s, a, at);
    for (size_t k = 0; k < n; k++)
        put_map(s, a, maps[k]);
}

/* a with branch prediction on (3.2.6, 6.8). */
static rvt_te_attrs with_predictor(const rvt_te_attrs *a)
{
    rvt_te_attrs bp = *a;
    bp.options |= RVT_TE_OPT_BRANCH_PRED;
    rvt_te_attrs_fill(&bp);
    CHECK_EQ(rvt_te_attrs_check(&bp), 0);
    return bp;
}

/* A branch count of count + 31 correct predictions (table 6.8), outcome
 * j of them being predicted(j), then one that failed (the opposite of
 * its prediction), settled into a map bit when the next packet comes. */
static void put_count(stream *c, const rvt_te_attrs *bp, uint32_t count, bool (*predicted)(unsigned j))
{
    rvt_te_pkt p = { .format = 0, .subformat = 0, .branch_count = count, .branch_fmt = 0 };
    unsigned first = c->nout + 1, failed = first + count + 31;
    for (unsigned j = first; j < failed; j++)
        c->taken[j] = predicted(j);
    c->taken[failed] = !predicted(failed);
    put(c, bp, &p, count + 32, true);
}

/* The second of two alternating branches is taken (even outcomes). */
static bool second_taken(unsigned j)
{
    return j % 2 == 0;
}

/* After the sync, for a loop of two branches whose outcomes alternate
 * (odd ones the first branch's): a map where the first is not taken and
 * the second taken (each entry then predicts that), a branch count of
 * 5 + 31 correct predictions, then one that failed (the 68th, the second
 * branch's: not taken), and a map; the caller's last packet ends the
 * stream. */
static inline void put_counted(stream *c, const rvt_te_attrs *bp)
{
    put_map(c, bp, 0x55555555);
    put_count(c, bp, 5, second_taken);
    put_map(c, bp, 0x2aaaaaaa);
}

/* The packet whose walk uses outcome j (0: the sync): the first whose
 * last is >= j. */
static unsigned walker(const stream *s, unsigned j)
{
    unsigned k = 0;
    while (k + 1 < s->npkt && s->last[k] < j)
        k++;
    return k;
}

/* A block by hand, and the outcome in whose walk it opened (its first
 * instruction retired). */
typedef struct hblock {
    rvt_block b;
    unsigned op;
} hblock;

static void add(hblock *e, size_t *n, uint64_t from, uint64_t to, rvt_block_end end, uint64_t next,
                unsigned op, const stream *s)
{
    e[*n] = (hblock){ { .start_pc = TE_BASE + from, .end_pc = TE_BASE + to,
                        .ninsn = (to - from) / 4 + 1, .next_pc = TE_BASE + next,
                        .offset = s->off[walker(s, op)], .priv = 3, .end = (uint8_t)end }, op };
    (*n)++;
}

static rvt_block_end branch_end(bool taken)
{
    return taken ? RVT_BLK_BRANCH_TAKEN : RVT_BLK_BRANCH_NOT_TAKEN;
}

/* The blocks worked out by hand: each test's. */
static size_t expect_blocks(const stream *s, hblock *e);

static uint64_t expect_insns(const hblock *e, size_t n)
{
    uint64_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += e[i].b.ninsn;
    return k;
}

static void check_block(const rvt_block *got, const rvt_block *want, size_t i, const char *what)
{
    if (got->start_pc != want->start_pc || got->end_pc != want->end_pc || got->ninsn != want->ninsn ||
        got->next_pc != want->next_pc || got->end != want->end || got->offset != want->offset ||
        got->priv != want->priv || got->src != 0 || got->context != 0)
        TH_FAIL("%s: block %zu: pc %" PRIx64 "-%" PRIx64 " n %" PRIu64 " next %" PRIx64
                " end %u off %" PRIu64 ", want %" PRIx64 "-%" PRIx64 " n %" PRIu64 " next %" PRIx64
                " end %u off %" PRIu64, what, i, got->start_pc, got->end_pc, got->ninsn, got->next_pc,
                got->end, got->offset, want->start_pc, want->end_pc, want->ninsn, want->next_pc,
                want->end, want->offset);
    else
        th_passed++;
}

/* A decoder for the pull API over the stream (NULL: failed). */
static rvt_te_decoder *pull_decoder(const rvt_te_attrs *a, rvt_image *img, const stream *s)
{
    int st = 0;
    rvt_te_decoder *d = rvt_te_decoder_new(a, img, NULL, NULL, &st);
    CHECK(d != NULL);
    if (d)
        CHECK_EQ(rvt_te_decoder_set_input(d, s->b, s->n), 0);
    return d;
}

/* The pull decoder's blocks, `batch` a call (1: next_block, where no run
 * of branches writes into the caller's array; the others stop runs in the
 * middle of packets, the walk going on at the next call). */
static void check_pull(const rvt_te_attrs *a, rvt_image *img, const stream *s, size_t batch)
{
    static hblock want[MAXBLK];
    static rvt_block got[MAXBLK];
    size_t nw = expect_blocks(s, want), ng = 0;
    rvt_te_decoder *d = pull_decoder(a, img, s);
    if (!d)
        return;
    int k;
    while (ng + batch <= MAXBLK && (k = batch == 1 ? rvt_te_decoder_next_block(d, &got[ng])
                                                    : rvt_te_decoder_next_blocks(d, &got[ng], batch)) > 0)
        ng += (size_t)k;
    char what[32];
    snprintf(what, sizeof what, "batch %zu", batch);
    CHECK_EQ(ng, nw);
    for (size_t i = 0; i < ng && i < nw; i++)
        check_block(&got[i], &want[i].b, i, what);
    rvt_te_dec_stats ds;
    rvt_te_decoder_stats(d, &ds);
    CHECK_EQ(ds.packets, s->npkt);
    CHECK_EQ(ds.instructions, expect_insns(want, nw));
    CHECK_EQ(ds.errors, s->errors);
    rvt_te_decoder_free(d);
}

/* The pull decoder an instruction at a time (next_insn): the blocks' by
 * hand, instruction by instruction, each with its block's offset. */
static void check_insns(const rvt_te_attrs *a, rvt_image *img, const stream *s)
{
    static hblock want[MAXBLK];
    size_t nw = expect_blocks(s, want), b = 0;
    uint64_t at = 0, k = 0;
    rvt_te_decoder *d = pull_decoder(a, img, s);
    if (!d)
        return;
    rvt_flow_insn in;
    while (rvt_te_decoder_next_insn(d, &in) > 0) {
        while (b < nw && at >= want[b].b.ninsn)
            at -= want[b++].b.ninsn;
        if (b == nw) {
            TH_FAIL("next_insn: more instructions than the %" PRIu64 " by hand", expect_insns(want, nw));
            break;
        }
        uint64_t pc = want[b].b.start_pc + 4 * at;
        if (in.pc != pc || in.offset != want[b].b.offset || in.priv != 3 || !in.insn || in.insn->len != 4)
            TH_FAIL("next_insn: instruction %" PRIu64 " at %" PRIx64 " offset %" PRIu64 ", want %" PRIx64
                    " offset %" PRIu64, k, in.pc, in.offset, pc, want[b].b.offset);
        else
            th_passed++;
        at++;
        k++;
    }
    CHECK_EQ(k, expect_insns(want, nw));
    rvt_te_decoder_free(d);
}

/* The push decoder, an event per instruction, or in run mode
 * (rvt_te_decoder_set_runs) an event per run of them (aux instructions
 * from pc, aux2 half-words: 2 an instruction, no RVC here): each block's
 * instructions in order, at the offset of the packet whose walk retired
 * it -- the block's, but for the sync's block, whose instructions after
 * the first the first packet's walk retires; and the stream's decode
 * errors. */
static void check_push(const rvt_te_attrs *a, rvt_image *img, const stream *s, bool runs)
{
    static hblock want[MAXBLK];
    size_t nw = expect_blocks(s, want), k = 0, errors = 0;
    const char *what = runs ? "runs" : "push";
    te_evs e = { 0 };
    CHECK_EQ(te_decode_as(a, img, s->b, s->n, runs, &e), 0);
    for (size_t i = 0; i < e.n && k <= expect_insns(want, nw); i++) {
        errors += e.ev[i].kind == RVT_EV_ERROR;
        if (e.ev[i].kind != RVT_EV_INSN)
            continue;
        uint64_t len = runs ? e.ev[i].aux : 1;
        if (runs && e.ev[i].aux2 != 2 * len)
            TH_FAIL("runs: run at %" PRIx64 " of %" PRIu64 " with %" PRIu64 " half-words", e.ev[i].pc,
                    len, e.ev[i].aux2);
        for (uint64_t j = 0; j < len; j++, k++) {
            size_t b = 0, at = k;
            while (b < nw && at >= want[b].b.ninsn)
                at -= want[b++].b.ninsn;
            if (b == nw) {
                TH_FAIL("%s: more instructions than the %" PRIu64 " by hand", what, expect_insns(want, nw));
                k++;    /* ends the outer loop too */
                break;
            }
            uint64_t pc = want[b].b.start_pc + 4 * at;
            uint64_t off = b == 0 && at ? s->off[1] : want[b].b.offset;
            if (e.ev[i].pc + 4 * j != pc || e.ev[i].offset != off)
                TH_FAIL("%s: instruction %zu at %" PRIx64 " offset %" PRIu64 ", want %" PRIx64
                        " offset %" PRIu64, what, k, e.ev[i].pc + 4 * j, e.ev[i].offset, pc, off);
            else
                th_passed++;
        }
    }
    CHECK_EQ(k, expect_insns(want, nw));
    CHECK_EQ(errors, s->errors);
    free(e.ev);
}

/* Events off (the run of branches without an output array): the
 * statistics of the whole stream; and run_to with its stop at packet k's
 * first byte, then one byte into it: no packet read from the stop on,
 * although the walk before it could go on into it.  Retired then: the
 * blocks opened in the walks of the packets read (the last one's walk
 * stands at its last branch, its block retired). */
static void check_counts(const rvt_te_attrs *a, rvt_image *img, const stream *s, unsigned k)
{
    static hblock want[MAXBLK];
    size_t nw = expect_blocks(s, want);
    for (unsigned step = 0; step < 3; step++) {
        int st = 0;
        rvt_te_decoder *d = rvt_te_decoder_new(a, img, NULL, NULL, &st);
        CHECK(d != NULL);
        if (!d)
            return;
        rvt_te_decoder_set_events(d, false);
        uint64_t stop = step == 0 ? s->n : s->off[k] + step - 1;
        unsigned read = step == 0 ? s->npkt : k + step - 1;
        CHECK_EQ(rvt_te_decoder_run_to(d, s->b, s->n, stop), 0);
        rvt_te_dec_stats ds;
        rvt_te_decoder_stats(d, &ds);
        CHECK_EQ(ds.packets, read);
        uint64_t insns = 0;
        for (size_t b = 0; b < nw; b++)
            if (want[b].op <= s->last[read - 1])
                insns += want[b].b.ninsn;
        CHECK_EQ(ds.instructions, insns);
        rvt_te_decoder_free(d);
    }
}

static void check_stream(const rvt_te_attrs *a, rvt_image *img, const stream *s, unsigned k)
{
    check_push(a, img, s, false);
    check_push(a, img, s, true);
    check_insns(a, img, s);
    const size_t batches[] = { 256, 7, 3, 2, 1 };
    for (size_t i = 0; i < sizeof batches / sizeof batches[0]; i++)
        check_pull(a, img, s, batches[i]);
    check_counts(a, img, s, k);
}

#endif
