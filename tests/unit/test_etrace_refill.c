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

#include "te_hand_stream.h"

static const uint32_t prog[] = { 0x00150513, 0x00157293, 0x00028463, 0x00158593, 0xfe0518e3,
                                 0xfedff06f };

/* The last packet: one outcome (B's, not taken: map bit 1), the address
 * 14 as a difference from the sync's (6.6.1). */
static void put_last(stream *s, const rvt_te_attrs *a)
{
    rvt_te_pkt p = { .format = 1, .branches = 1, .branch_map = 1, .address = 0x14 >> 1 };
    s->taken[s->nout + 1] = false;
    put(s, a, &p, 1, false);
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

int main(void)
{
    rvt_image *img = hand_image(prog, sizeof prog / 4);
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);

    /* Three full maps, then the address packet: two boundaries where the
     * next packet is a map (the run goes on), one where it is not.  The
     * first map's last outcome but one (the 30th, B's) is not taken: its
     * walk ends at A after the jump at 14. */
    stream s = { 0 };
    put_maps(&s, &a, 0, (const uint32_t[]){ 0x7a5a5a5a, 0x0f0f0f0f, 0x12345678 }, 3);
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
    rvt_te_attrs bp = with_predictor(&a);
    stream c = { 0 };
    put_sync(&c, &bp, 0);
    put_counted(&c, &bp);
    put_last(&c, &bp);
    CHECK_EQ(c.nout, 100);
    CHECK_EQ(c.last[2], 67);
    CHECK_EQ(c.last[3], 98);
    check_stream(&bp, img, &c, 2);

    rvt_image_free(img);
    return TH_DONE();
}
