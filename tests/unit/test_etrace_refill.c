/* The E-Trace block walk across packets (src/etrace/decoder.c
 * chain_refill, issue #18): a packet of branch outcomes alone (a full
 * branch map, format 1 with no address; a branch count with no address,
 * format 0) ends its walk at its last branch (11.1 stop_at_last_branch)
 * and the next packet's walk takes that branch.  When the next packet is
 * one of outcomes alone too, the run of branches reads it ahead and goes
 * on; when it is not (an address packet), the walk stops as before.
 * Either way the blocks, their byte offsets (the packet whose walk
 * retired their first instruction), the push decoder's instruction
 * events and the statistics are those worked out here by hand from 11.1,
 * and run_to reads no packet at or after its stop.
 *
 * The program, a loop of two branches (encodings from
 * riscv64-unknown-elf-as -march=rv64i):
 *   00 loop: addi a0,a0,1       0x00150513
 *   04       andi t0,a0,1       0x00157293
 *   08       beqz t0,10         0x00028463   A
 *   0c       addi a1,a1,1       0x00158593
 *   10 skip: bnez a0,loop       0xfe0518e3   B
 *   14       j    loop          0xfedff06f
 * Outcomes alternate A, B, A, ... (odd ones A's).  The blocks: 00-08
 * (ends in A); A taken: 10, not taken: 0c-10 (end in B); B taken: 00-08,
 * not taken: 14 (a jump), then 00-08.  Both of A's successors end in a
 * branch, so the run of branches can reach the packet's last one there. */
#include "test_etrace_util.h"
#include "rvtrace/flow.h"

static const uint32_t prog[] = { 0x00150513, 0x00157293, 0x00028463, 0x00158593, 0xfe0518e3,
                                 0xfedff06f };

#define MAXPKT 8
#define MAXIT 128
#define MAXBLK (3 * MAXIT)

/* A hand-built stream: a sync at 00, then packets of outcomes, the last
 * one with an address (format 1, one outcome, B's, not taken: at 14). */
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

static void put_sync(stream *s, const rvt_te_attrs *a)
{
    rvt_te_pkt sync = { .format = 3, .subformat = 0, .privilege = 3, .address = TE_BASE >> 1 };
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

/* The last packet: one outcome (B's, not taken: map bit 1), the address
 * 14 as a difference from the sync's (6.6.1). */
static void put_last(stream *s, const rvt_te_attrs *a)
{
    rvt_te_pkt p = { .format = 1, .branches = 1, .branch_map = 1, .address = 0x14 >> 1 };
    s->taken[s->nout + 1] = false;
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

/* The blocks by hand: the first 00-08 opened by the sync, then outcome by
 * outcome the blocks its walk opens (above); the last outcome's block, 14,
 * is where the address packet's walk stops, and the input ends there. */
static size_t expect_blocks(const stream *s, hblock *e)
{
    size_t n = 0;
    for (unsigned j = 0; j <= s->nout; j++) {
        bool t = s->taken[j], a = j % 2 == 1;
        if (j == 0 || (!a && t)) {
            add(e, &n, 0x00, 0x08, branch_end(s->taken[j + 1]), s->taken[j + 1] ? 0x10 : 0x0c, j, s);
        } else if (a) {
            add(e, &n, t ? 0x10 : 0x0c, 0x10, branch_end(s->taken[j + 1]), s->taken[j + 1] ? 0x00 : 0x14,
                j, s);
        } else if (j == s->nout) {
            add(e, &n, 0x14, 0x14, RVT_BLK_END, 0x14, j, s);
        } else {
            add(e, &n, 0x14, 0x14, RVT_BLK_JUMP, 0x00, j, s);
            add(e, &n, 0x00, 0x08, branch_end(s->taken[j + 1]), s->taken[j + 1] ? 0x10 : 0x0c, j, s);
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
 * in order, at the offset of the packet whose walk retired it -- the
 * block's, but for the sync's block, whose 04 and 08 the first packet's
 * walk retires. */
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
    rvt_image *img = te_image(prog, sizeof prog / 4);
    CHECK(img != NULL);
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);

    /* Three full maps, then the address packet: two boundaries where the
     * next packet is a map (the run goes on), one where it is not.  The
     * first map's last outcome but one (the 30th, B's) is not taken: its
     * walk ends at A after the jump at 14. */
    stream s = { 0 };
    put_sync(&s, &a);
    put_map(&s, &a, 0x7a5a5a5a);
    put_map(&s, &a, 0x0f0f0f0f);
    put_map(&s, &a, 0x12345678);
    put_last(&s, &a);
    CHECK_EQ(s.nout, 94);
    CHECK_EQ(s.last[1], 30);
    CHECK_EQ(s.last[2], 61);
    CHECK_EQ(s.last[4], 94);
    check_stream(&a, img, &s, 3);

    /* Branch prediction (3.2.6, 6.8).  A map: A not taken, B taken (bit
     * 1 for A's, odd outcomes): A's entry, 01 after the sync, goes to 00
     * (predicts not taken), B's to 11 (taken).  A branch count of 5 + 31
     * correct predictions (A not taken, B taken), then one that failed
     * (the 68th, B's: not taken), settled into a map bit when the next
     * packet comes.  Then a map and the address packet. */
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
    put_last(&c, &bp);
    CHECK_EQ(c.nout, 100);
    CHECK_EQ(c.last[2], 67);
    CHECK_EQ(c.last[3], 98);
    check_stream(&bp, img, &c, 2);

    rvt_image_free(img);
    return TH_DONE();
}
