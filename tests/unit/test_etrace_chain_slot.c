/* The E-Trace run of branches across a direct jump whose target's block
 * takes the jump block's own cache slot (src/etrace/decoder.c chain_fast;
 * src/isa/insn_blocks.h: the block cache is direct mapped on pc bits
 * 1..RVT_IBLK_BLOCK_BITS, so blocks 2^13 bytes apart share a slot).  The
 * successor lookup of the jump's target refills that slot in place: a
 * step that still reads the jump block through its pointer after the
 * lookup reads the target's block instead.  The push decoder with an
 * event per instruction takes no run of branches; the pull API
 * (next_block, next_blocks) and events off (statistics) do.  All three
 * must give the blocks, offsets and counts worked out here by hand from
 * 11.1 (the streams and the checks are those of test_etrace_refill.c).
 *
 * The program (riscv64-unknown-elf-as -march=rv64i, no RVC):
 *   0000 A: bne  a0,a1,K        0x00b51863   A's branch
 *   0004 J: addi a2,a2,1        0x00160613
 *   0008    addi a3,a3,1        0x00168693
 *   000c    j    T              0x7f90106f   J's block 04-0c: T is 0x2000 on
 *   0010 K: j    T              0x7f50106f
 *   2004 T: bne  a0,a1,U        0x00b51863   T's branch
 *   2008    addi a4,a4,1        0x00170713
 *   200c    j    A              0xff5fd06f
 *   2014 U: j    A              0xfedfd06f
 * Outcomes alternate A, T, A, ... (odd ones A's).  A taken: K (a jump),
 * then T; not taken: J's block 04-0c (a jump whose target T, 0x2000
 * further, takes its slot), then T.  T taken: U (a jump), then A; not
 * taken: 2008-200c (a jump), then A.  Every jump goes to a block that ends
 * in a branch, so a run of branches takes each with the blocks around it;
 * K, U and 2008 share no slot with their targets. */
#include "test_etrace_util.h"
#include "rvtrace/flow.h"
#include "isa/insn_blocks.h"

#define PROG_WORDS (0x2018 / 4)
static uint32_t prog[PROG_WORDS];

static void build_prog(void)
{
    prog[0x0000 / 4] = 0x00b51863;
    prog[0x0004 / 4] = 0x00160613;
    prog[0x0008 / 4] = 0x00168693;
    prog[0x000c / 4] = 0x7f90106f;
    prog[0x0010 / 4] = 0x7f50106f;
    prog[0x2004 / 4] = 0x00b51863;
    prog[0x2008 / 4] = 0x00170713;
    prog[0x200c / 4] = 0xff5fd06f;
    prog[0x2014 / 4] = 0xfedfd06f;
}

#define MAXPKT 8
#define MAXIT 128
#define MAXBLK (3 * MAXIT)

/* A hand-built stream: a sync at 00, then packets of outcomes, the last
 * one with an address (format 1, one outcome, T's, taken: at 2014). */
typedef struct stream {
    uint8_t b[256];
    size_t n;
    unsigned npkt;
    size_t off[MAXPKT];        /* where each packet starts */
    unsigned last[MAXPKT];     /* the last outcome its walk uses (1-based; 0: the sync) */
    unsigned nout;             /* outcomes in all */
    bool taken[MAXIT + 1];     /* outcome i, worked out by hand */
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

/* The sync at 2008 (not at a branch: a format 3 there would carry that
 * branch's outcome, 11.1) */
static void put_sync(stream *s, const rvt_te_attrs *a)
{
    rvt_te_pkt sync = { .format = 3, .subformat = 0, .privilege = 3, .address = (TE_BASE + 0x2008) >> 1 };
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

/* The last packet: one outcome, taken (map bit 0), to `at`, the address
 * as a difference from the sync's at 2008 (6.6.1). */
static void put_last(stream *s, const rvt_te_attrs *a, uint64_t at)
{
    rvt_te_pkt p = { .format = 1, .branches = 1, .branch_map = 0, .address = (at - 0x2008) >> 1 };
    s->taken[s->nout + 1] = true;
    put(s, a, &p, 1, false);
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

/* The blocks by hand: 2008-200c opened by the sync, and A's (00), whose
 * outcome is the first; then outcome by outcome the blocks its walk opens
 * (above): the jump after the branch, then the block at the jump's
 * target, which ends in the other branch.
 * The last outcome (T's, taken: U at 2014) is where the address packet's
 * walk stops, and the input ends there. */
static size_t expect_blocks(const stream *s, hblock *e)
{
    size_t n = 0;
    add(e, &n, 0x2008, 0x200c, RVT_BLK_JUMP, 0x00, 0, s);
    add(e, &n, 0x00, 0x00, branch_end(s->taken[1]), s->taken[1] ? 0x10 : 0x04, 1, s);
    for (unsigned j = 1; j <= s->nout; j++) {
        bool t = s->taken[j], nt = s->taken[j + 1];
        if (j % 2 == 1) {
            if (t)
                add(e, &n, 0x10, 0x10, RVT_BLK_JUMP, 0x2004, j, s);
            else
                add(e, &n, 0x04, 0x0c, RVT_BLK_JUMP, 0x2004, j, s);
            add(e, &n, 0x2004, 0x2004, branch_end(nt), nt ? 0x2014 : 0x2008, j, s);
        } else if (j == s->nout) {
            add(e, &n, 0x2014, 0x2014, RVT_BLK_END, 0x2014, j, s);
        } else {
            if (t)
                add(e, &n, 0x2014, 0x2014, RVT_BLK_JUMP, 0x00, j, s);
            else
                add(e, &n, 0x2008, 0x200c, RVT_BLK_JUMP, 0x00, j, s);
            add(e, &n, 0x00, 0x00, branch_end(nt), nt ? 0x10 : 0x04, j, s);
        }
    }
    return n;
}

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

/* The pull decoder's blocks, `batch` a call (1: next_block, where no run
 * of branches writes into the caller's array; the others stop runs in the
 * middle of packets, the walk going on at the next call). */
static void check_pull(const rvt_te_attrs *a, rvt_image *img, const stream *s, size_t batch)
{
    static hblock want[MAXBLK];
    static rvt_block got[MAXBLK];
    size_t nw = expect_blocks(s, want), ng = 0;
    int st = 0;
    rvt_te_decoder *d = rvt_te_decoder_new(a, img, NULL, NULL, &st);
    CHECK(d != NULL);
    if (!d)
        return;
    CHECK_EQ(rvt_te_decoder_set_input(d, s->b, s->n), 0);
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
    CHECK_EQ(ds.errors, 0);
    rvt_te_decoder_free(d);
}

/* The push decoder, an event per instruction: each block's instructions
 * in order, at the offset of the packet whose walk retired it: the
 * block's, but for the sync's block, whose 200c the first packet's walk
 * retires. */
static void check_push(const rvt_te_attrs *a, rvt_image *img, const stream *s)
{
    static hblock want[MAXBLK];
    size_t nw = expect_blocks(s, want), k = 0;
    te_evs e = { 0 };
    CHECK_EQ(te_decode(a, img, s->b, s->n, &e), 0);
    for (size_t i = 0; i < e.n; i++) {
        if (e.ev[i].kind != RVT_EV_INSN)
            continue;
        size_t b = 0, at = k;
        while (b < nw && at >= want[b].b.ninsn)
            at -= want[b++].b.ninsn;
        if (b == nw) {
            TH_FAIL("push: more instructions than the %" PRIu64 " by hand", expect_insns(want, nw));
            break;
        }
        uint64_t pc = want[b].b.start_pc + 4 * at;
        uint64_t off = b == 0 && at ? s->off[1] : want[b].b.offset;
        if (e.ev[i].pc != pc || e.ev[i].offset != off)
            TH_FAIL("push: instruction %zu at %" PRIx64 " offset %" PRIu64 ", want %" PRIx64
                    " offset %" PRIu64, k, e.ev[i].pc, e.ev[i].offset, pc, off);
        else
            th_passed++;
        k++;
    }
    CHECK_EQ(k, expect_insns(want, nw));
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
    check_push(a, img, s);
    const size_t batches[] = { 256, 7, 3, 2, 1 };
    for (size_t i = 0; i < sizeof batches / sizeof batches[0]; i++)
        check_pull(a, img, s, batches[i]);
    check_counts(a, img, s, k);
}

int main(void)
{
    build_prog();
    /* the case itself: J's block and T's share a slot, K's, U's and
     * 2008's do not share their targets' (A's, T's) */
    CHECK_EQ(rvt_iblk_slot(TE_BASE + 0x0004, RVT_IBLK_BLOCK_BITS),
             rvt_iblk_slot(TE_BASE + 0x2004, RVT_IBLK_BLOCK_BITS));
    CHECK(rvt_iblk_slot(TE_BASE + 0x0010, RVT_IBLK_BLOCK_BITS) !=
          rvt_iblk_slot(TE_BASE + 0x2004, RVT_IBLK_BLOCK_BITS));
    rvt_image *img = te_image(prog, PROG_WORDS);
    CHECK(img != NULL);
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);

    /* Three full maps, then the address packet (T's outcome, taken: at
     * U).  The first map takes A not taken every time (through J). */
    stream s = { 0 };
    put_sync(&s, &a);
    put_map(&s, &a, 0x55555555);
    put_map(&s, &a, 0x0f0f0f0f);
    put_map(&s, &a, 0x12345678);
    put_last(&s, &a, 0x2014);
    CHECK_EQ(s.nout, 94);
    CHECK_EQ(s.last[1], 30);
    CHECK_EQ(s.last[2], 61);
    CHECK_EQ(s.last[4], 94);
    check_stream(&a, img, &s, 3);

    /* Branch prediction (3.2.6, 6.8), counted outcomes (chain_fast's
     * other loop).  A map: A not taken, T taken: A's entry, 01 after the
     * sync, goes to 00 (predicts not taken), T's to 11 (taken).  A branch
     * count of 5 + 31 correct predictions (A not taken: through J every
     * time, T taken), then one that failed (the 68th, T's: not taken),
     * settled into a map bit when the next packet comes.  Then a map and
     * the address packet. */
    rvt_te_attrs bp = a;
    bp.options |= RVT_TE_OPT_BRANCH_PRED;
    rvt_te_attrs_fill(&bp);
    CHECK_EQ(rvt_te_attrs_check(&bp), 0);
    stream c = { 0 };
    put_sync(&c, &bp);
    put_map(&c, &bp, 0x55555555);
    rvt_te_pkt count = { .format = 0, .subformat = 0, .branch_count = 5, .branch_fmt = 0 };
    for (unsigned j = 32; j <= 67; j++)
        c.taken[j] = j % 2 == 0;
    c.taken[68] = false;
    put(&c, &bp, &count, 37, true);
    put_map(&c, &bp, 0x2aaaaaaa);
    put_last(&c, &bp, 0x2014);
    CHECK_EQ(c.nout, 100);
    CHECK_EQ(c.last[2], 67);
    CHECK_EQ(c.last[3], 98);
    check_stream(&bp, img, &c, 2);

    rvt_image_free(img);
    return TH_DONE();
}
