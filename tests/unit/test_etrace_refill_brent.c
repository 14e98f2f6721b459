/* Brent's check of the E-Trace walk after a refill across a direct jump
 * (src/etrace/decoder.c: walk_loops, walk_branch_steps, chain_refill's
 * ch->steps).  A walk to a reported address that comes back to a state it
 * was in (pc, last_pc, outcomes left, return stack) loops without end: the
 * packet contradicts the trace, and the decoder reports a decode error
 * there.  Which step finds the loop depends on the steps the walk has
 * taken since it started (walk_loops compares with a state saved after
 * steps 1, 3, 7, 15, ... 2^k - 1, each step being one next_pc).  The walk
 * an instruction at a time (push, an event per instruction or per run)
 * counts them one by one; the run of branches (pull, events off) counts
 * them in bulk (walk_branch_steps), and where it reads the next packet of
 * outcomes ahead (chain_refill) after a jump block that it takes with the
 * branch behind it, the jump is the old packet's walk's step, not the new
 * one's: the new walk's count starts at -1 there.  Every mode must find
 * the loop at the same step, so retire the same instructions before the
 * error.
 *
 * The program (llvm-mc -triple=riscv64 -mattr=-c):
 *   00 A: bne a0,a1,L           0x00b51463
 *   04 J: j   A                 0xffdff06f
 *   08 L: j   L                 0x0000006f
 * Every outcome is A's.  Not taken: J, a jump (that links nothing) back to
 * A, in another cache slot, so the run of branches takes J with A.  Taken:
 * L, a jump to itself, no branch again: a walk that must reach a later
 * branch (a packet's last one) loops there for ever (11.1 would follow it
 * without end: the stream is damaged).
 *
 * The steps by hand.  A packet of outcomes alone ends its walk at A with
 * its last outcome pending (stop_at_last_branch), after J; the next
 * packet's walk starts there: step 1 is A (it retires the instruction it
 * goes to: J, or L), then J (2), A (3), ... so with the walk's first t
 * outcomes not taken and the next one taken, step S = 2t + 1 is the A
 * that goes to L, and steps S + 1, S + 2, ... are L's, each in the state
 * (pc L, last_pc L, the outcomes left).  The first state saved in that
 * loop is after the first step 2^k - 1 >= S + 1, and the step after it
 * finds the loop: L is retired once by A's step and 2^k - S times by its
 * own (the last of them followed by the error).
 *   t = 0 (S = 1):  2^k - 1 = 3,  L's steps 2..4,   spins 1 + 3 = 4
 *   t = 3 (S = 7):  2^k - 1 = 15, L's steps 8..16,  spins 1 + 9 = 10
 *   t = 5 (S = 11): 2^k - 1 = 15, L's steps 12..16, spins 1 + 5 = 6
 * A count one step off gives other numbers: S + 1 for S: 3, 9, 5 spins;
 * S - 1: 3, 3, 7.
 *
 * Reaching the guard: with ch->steps = 0 at the refill (the jump counted
 * in the new walk) the pull API at batches 256 and 7 and events off
 * (statistics, run_to) find the loop a step early in all four damaged
 * streams, one spin short (3, 9, 5, 3: the block count, the last block's
 * end -- LOSS one block early -- and the instruction counts fail); with
 * -2, a step late: 3, 3, 7, 3.  The push decoder (one step at a time),
 * run mode, next_insn and batches 3, 2 and 1 pass either way. */
#include "te_hand_stream.h"

static const uint32_t prog[] = { 0x00b51463, 0xffdff06f, 0x0000006f };

#define L_PC 0x08

/* The sync at J, then n maps of 31 outcomes (6.6.1: bit 1 not taken),
 * all not taken but outcome j of the stream (1-based; 0: none). */
static void put_maps_taken(stream *s, const rvt_te_attrs *a, unsigned n, unsigned j)
{
    uint32_t maps[3];
    for (unsigned k = 0; k < n && k < 3; k++) {
        unsigned first = 31 * k + 1;
        maps[k] = 0x7fffffffu & ~(j >= first && j < first + 31 ? 1u << (j - first) : 0);
    }
    put_maps(s, a, 0x04, maps, n < 3 ? n : 3);
}

/* The last packet of a sound stream: one outcome, not taken, and the
 * address J, where A goes then (a difference of 0 from the sync's at J,
 * 6.6.1). */
static void put_last(stream *s, const rvt_te_attrs *a)
{
    rvt_te_pkt p = { .format = 1, .branches = 1, .branch_map = 1, .address = 0 };
    s->taken[s->nout + 1] = false;
    put(s, a, &p, 1, false);
}

/* The blocks by hand: J (04) opened by the sync; then outcome by outcome
 * A's block, which the step before (J's) opened in the walk that used
 * outcome j - 1 (the first packet's for the first), and after it J, or
 * (taken) L spins times, the last block ended by the decode error. */
static size_t expect_blocks(const stream *s, hblock *e)
{
    size_t n = 0;
    add(e, &n, 0x04, 0x04, RVT_BLK_JUMP, 0x00, 0, s);
    for (unsigned j = 1; j <= s->nout; j++) {
        bool t = s->taken[j];
        add(e, &n, 0x00, 0x00, branch_end(t), t ? L_PC : 0x04, j > 1 ? j - 1 : 1, s);
        if (t) {
            for (unsigned k = 1; k <= s->spins; k++)
                add(e, &n, L_PC, L_PC, k < s->spins ? RVT_BLK_JUMP : RVT_BLK_LOSS, L_PC, j, s);
            return n;
        }
        add(e, &n, 0x04, 0x04, j == s->nout ? RVT_BLK_END : RVT_BLK_JUMP, j == s->nout ? 0x04 : 0x00, j, s);
    }
    return n;
}

static bool never_taken(unsigned j)
{
    (void)j;
    return false;
}

int main(void)
{
    rvt_image *img = hand_image(prog, sizeof prog / 4);
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);

    /* Sound: three maps, every boundary after J (the refill takes J with
     * A), then the address packet. */
    stream s = { 0 };
    put_maps_taken(&s, &a, 3, 0);
    put_last(&s, &a);
    CHECK_EQ(s.nout, 94);
    CHECK_EQ(s.last[1], 30);
    CHECK_EQ(s.last[3], 92);
    check_stream(&a, img, &s, 2);

    /* Damaged: the second map's walk starts at outcome 31 (the first
     * map's last), the third's at 62.  The taken outcome, the maps, the
     * spins: 31 (t = 0), 2, 4; 34 (t = 3), 2, 10; 67 (t = 5, after a
     * second refill), 3, 6. */
    const struct {
        unsigned taken, maps, spins;
    } damaged[] = { { 31, 2, 4 }, { 34, 2, 10 }, { 67, 3, 6 } };
    for (size_t i = 0; i < sizeof damaged / sizeof damaged[0]; i++) {
        unsigned j = damaged[i].taken;
        stream d = { .errors = 1, .spins = damaged[i].spins };
        put_maps_taken(&d, &a, damaged[i].maps, j);
        CHECK(d.taken[j] && !d.taken[j - 1]);
        check_stream(&a, img, &d, damaged[i].maps);
    }

    /* Branch prediction (3.2.6, 6.8): a map (A's entry, 01 after the sync,
     * learns not taken: 00), a branch count of 5 + 31 correct predictions
     * (not taken), then one that failed (the 68th: taken), pending at A
     * when the count's walk ends after J; settled into a map bit when the
     * next map is read ahead: t = 0, 4 spins. */
    rvt_te_attrs bp = with_predictor(&a);
    stream c = { .errors = 1, .spins = 4 };
    put_maps_taken(&c, &bp, 1, 0);
    put_count(&c, &bp, 5, never_taken);
    put_map(&c, &bp, 0x7fffffff);
    CHECK(c.taken[68] && !c.taken[67] && !c.taken[69]);
    CHECK_EQ(c.last[2], 67);
    check_stream(&bp, img, &c, 3);

    rvt_image_free(img);
    return TH_DONE();
}
