/* The E-Trace run of branches at a packet boundary after a direct jump
 * whose target's block takes the jump block's own cache slot
 * (src/etrace/decoder.c chain_refill: "not where the target's block
 * would take the jump's own cache slot, which the lookup would refill
 * under ch->b").  A packet of outcomes alone ends its walk at its last
 * branch (11.1 stop_at_last_branch); when the run of branches stands on
 * a jump block there with no outcome left, chain_refill may take the
 * branch block behind the jump and read the next packet of outcomes
 * ahead.  Where the target's block shares the jump block's slot, the
 * lookup of the target refills that slot in place: ch->b then holds the
 * target's block at the jump's pc, and the run writes the branch block
 * at the jump's address (one instruction where J's block has three), so
 * it must not take that path: follow steps J itself and the next
 * packet's walk starts at T.
 *
 * The program and the blocks by hand: te_slot_prog.h.  Here every
 * stream has a packet of outcomes alone whose last outcome is T's, the
 * one before it A's and not taken (through J), and a packet of outcomes
 * alone after it: with full maps (test_etrace_chain_slot.c's map stream
 * goes through K there) and with branch counts (the one there has a map
 * after the count).
 *
 * Reaching the guard: without the slot test in chain_refill both streams
 * fail in the pull API (batch 256 and 7: a block 80000004-80002004 of
 * one instruction ending at T's branch where J's block 04-0c of three
 * is due, every block after it shifted) and with events off (three
 * instructions short); the push decoder, run mode, next_insn and
 * batches 3, 2 and 1 pass. */
#include "te_slot_prog.h"

int main(void)
{
    rvt_image *img = slot_image();
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);

    /* Three maps, then the address packet (T's outcome, taken: at U).
     * The second map's walk uses outcomes 32..61 and stops at the 62nd,
     * T's; the 61st, A's (map bit 29, 1), is not taken: through J. */
    stream s = { 0 };
    put_maps(&s, &a, 0x2008, (const uint32_t[]){ 0x55555555, 0x2a5a5a5a, 0x12345678 }, 3);
    put_last(&s, &a, 0x2014);
    CHECK_EQ(s.last[2], 61);
    CHECK(!s.taken[61] && s.taken[62]);
    check_stream(&a, img, &s, 3);

    /* Branch prediction (3.2.6, 6.8): a map (A not taken, T taken: the
     * entries predict that), then two branch counts of 5 + 31 correct
     * predictions and one that failed.  The first count's walk stops at
     * its failed one, the 68th, T's (not taken), after the 67th, A's,
     * predicted not taken: through J; the second count is read ahead
     * there.  Its failed one, the 105th, A's, is taken (through K). */
    rvt_te_attrs bp = with_predictor(&a);
    stream c = { 0 };
    put_sync(&c, &bp, 0x2008);
    put_map(&c, &bp, 0x55555555);
    put_count(&c, &bp, 5, second_taken);
    put_count(&c, &bp, 5, second_taken);
    put_last(&c, &bp, 0x2014);
    CHECK_EQ(c.nout, 106);
    CHECK_EQ(c.last[2], 67);
    CHECK(!c.taken[67] && !c.taken[68] && c.taken[105]);
    check_stream(&bp, img, &c, 3);

    rvt_image_free(img);
    return TH_DONE();
}
