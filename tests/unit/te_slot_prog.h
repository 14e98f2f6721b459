/* The program and blocks of the E-Trace tests of a jump whose target's
 * block takes the jump block's own cache slot (test_etrace_chain_slot.c:
 * chain_fast; test_etrace_refill_slot.c: chain_refill), src/isa/
 * insn_blocks.h: the block cache is direct mapped on pc bits
 * 1..RVT_IBLK_BLOCK_BITS, so blocks 2^13 bytes apart share a slot.
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
#ifndef RVT_TEST_TE_SLOT_PROG_H
#define RVT_TEST_TE_SLOT_PROG_H

#include "te_hand_stream.h"
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

/* The streams' sync is at 2008, not at a branch: a format 3 there would
 * carry that branch's outcome (11.1). */

/* The last packet: one outcome, taken (map bit 0), to `at`, the address
 * as a difference from the sync's at 2008 (6.6.1). */
static void put_last(stream *s, const rvt_te_attrs *a, uint64_t at)
{
    rvt_te_pkt p = { .format = 1, .branches = 1, .branch_map = 0, .address = (at - 0x2008) >> 1 };
    s->taken[s->nout + 1] = true;
    put(s, a, &p, 1, false);
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

/* The program's image, once the case itself is checked: J's block and
 * T's share a slot, K's, U's and 2008's do not share their targets' (T's,
 * A's, A's). */
static rvt_image *slot_image(void)
{
    build_prog();
    CHECK_EQ(rvt_iblk_slot(TE_BASE + 0x0004, RVT_IBLK_BLOCK_BITS),
             rvt_iblk_slot(TE_BASE + 0x2004, RVT_IBLK_BLOCK_BITS));
    CHECK(rvt_iblk_slot(TE_BASE + 0x0010, RVT_IBLK_BLOCK_BITS) !=
          rvt_iblk_slot(TE_BASE + 0x2004, RVT_IBLK_BLOCK_BITS));
    CHECK(rvt_iblk_slot(TE_BASE + 0x2014, RVT_IBLK_BLOCK_BITS) !=
          rvt_iblk_slot(TE_BASE + 0x0000, RVT_IBLK_BLOCK_BITS));
    CHECK(rvt_iblk_slot(TE_BASE + 0x2008, RVT_IBLK_BLOCK_BITS) !=
          rvt_iblk_slot(TE_BASE + 0x0000, RVT_IBLK_BLOCK_BITS));
    return hand_image(prog, PROG_WORDS);
}

#endif
