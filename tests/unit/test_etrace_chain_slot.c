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
 * The program: te_slot_prog.h.  The branch-count stream's walk also
 * reaches chain_refill's guard of the same case (after the count, A not
 * taken, through J, to T's failed prediction): test_etrace_refill_slot.c. */
#include "te_slot_prog.h"

int main(void)
{
    rvt_image *img = slot_image();
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);

    /* Three full maps, then the address packet (T's outcome, taken: at
     * U).  The first map takes A not taken every time (through J). */
    stream s = { 0 };
    put_maps(&s, &a, 0x2008, (const uint32_t[]){ 0x55555555, 0x0f0f0f0f, 0x12345678 }, 3);
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
    rvt_te_attrs bp = with_predictor(&a);
    stream c = { 0 };
    put_sync(&c, &bp, 0x2008);
    put_counted(&c, &bp);
    put_last(&c, &bp, 0x2014);
    CHECK_EQ(c.nout, 100);
    CHECK_EQ(c.last[2], 67);
    CHECK_EQ(c.last[3], 98);
    check_stream(&bp, img, &c, 2);

    rvt_image_free(img);
    return TH_DONE();
}
