/* Blocks a walk writes itself into the caller's next_blocks array
 * (issue #18, "Block-level decoding"): a walk that knows, when it steps
 * a block's last instruction, why the block ends and where control goes
 * (the N-Trace walk: the HIST bit, the jump) writes the whole block in
 * the caller's array and counts it, with no collector call per block.
 * Through the collector (rvt_flow_pull_run) the block stayed open until
 * the next run came, and closing it asked its last instruction again
 * (insn_end) before a new slot was opened: two thirds of next_blocks'
 * instructions per block over long.elf's N-Trace stream in callgrind.
 *
 * The protocol is: rvt_flow_pull_direct gives the slot (or NULL: the
 * collector has a block open, or the array is full -- then the walk hands
 * the block to rvt_flow_pull_run as before, and takes the slot back with
 * rvt_flow_pull_direct_take if it is in the array); the walk fills it with
 * rvt_flow_pull_direct_fill and, once it knows what follows, either
 * closes it (rvt_flow_pull_direct_close) or leaves it open to the
 * collector (rvt_flow_pull_direct_open: its last instruction is plain, so
 * the next run may go on with it, or an event is about to end it).  The
 * blocks come out as the collector would have built them
 * (tests/unit/test_flow_pull.c compares both ways).
 *
 * Internal header: include as "flow/flow_pull_direct.h". */
#ifndef RVT_FLOW_PULL_DIRECT_H
#define RVT_FLOW_PULL_DIRECT_H

#include "flow/flow_pull.h"

/* The caller's array slot for the next block, when no block is open and
 * the array has room; else NULL.  As when the collector opens a block
 * there, the events queued before it are dropped (flow.h: an event not
 * taken before the next block is); the ring holds only events then. */
static inline rvt_block *rvt_flow_pull_direct(rvt_flow_pull *p)
{
    if (p->open || p->n_out >= p->max_out)
        return NULL;
    p->head = p->n = 0;
    return &p->out[p->n_out];
}

/* The block of n instructions from pc to end_pc, `at` giving its offset,
 * priv and src (what open_block and rvt_flow_pull_extend write). */
static inline void rvt_flow_pull_direct_fill(const rvt_flow_pull *p, rvt_block *b,
                                             const rvt_flow_event *at, uint64_t pc, uint64_t n,
                                             uint64_t end_pc)
{
    *b = (rvt_block){ .start_pc = pc, .end_pc = end_pc, .ninsn = n,
                      .context = rvt_flow_pull_context(p, at->src),
                      .offset = at->offset, .priv = at->priv, .src = at->src };
}

/* The block in the slot ends for the reason end, the instruction at
 * next_pc retired next: it counts. */
static inline void rvt_flow_pull_direct_close(rvt_flow_pull *p, rvt_block *b, rvt_block_end end,
                                              uint64_t next_pc)
{
    b->end = (uint8_t)end;
    b->next_pc = next_pc;
    p->n_out++;
}

/* The block in the slot stays open in the collector, last its last
 * instruction: the next run or event closes it, as one it opened. */
static inline void rvt_flow_pull_direct_open(rvt_flow_pull *p, rvt_block *b, const rvt_insn *last)
{
    p->blk = b;
    p->open = true;
    p->direct = true;
    p->last = last;
}

/* A walk that can stop between two blocks asks here after each block it
 * closed, another coming: true, it stops (and goes on at the next call).
 * The caller of next_blocks has its batch, and the block coming makes the
 * pull full (as a ring item after a full array does, rvt_flow_pull_full:
 * the pull core then runs the walk no further); or the pull core's own
 * rule says so (a caller taking one item at a time lets the walk run
 * PULL_AHEAD items ahead). */
static inline bool rvt_flow_pull_direct_stop(rvt_flow_pull *p)
{
    if (p->n_out >= p->max_out && p->ahead <= 1)
        p->full = true;
    return rvt_flow_pull_full(p);
}

/* The collector's open block, when it is in the caller's array (the walk
 * handed a block to rvt_flow_pull_run: it opened one there, or went on
 * with one), becomes the walk's slot, to close or leave open as above;
 * else NULL (a block in the ring is left to the collector). */
static inline rvt_block *rvt_flow_pull_direct_take(rvt_flow_pull *p)
{
    if (!p->open || !p->direct)
        return NULL;
    p->open = false;
    return p->blk;
}

#endif
