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

#include <string.h>
#include "flow/flow_pull.h"

/* No block is open or sealed (rvt_flow_pull_seal: the collector ends it
 * first) and the array has room: rvt_flow_pull_direct gives a slot. */
static inline bool rvt_flow_pull_direct_free(const rvt_flow_pull *p)
{
    return !p->open && !p->sealed && p->n_out < p->max_out;
}

/* The caller's array slot for the next block (rvt_flow_pull_direct_free),
 * else NULL.  As when the collector opens a block
 * there, the events queued before it are dropped (flow.h: an event not
 * taken before the next block is); the ring holds only events then. */
static inline rvt_block *rvt_flow_pull_direct(rvt_flow_pull *p)
{
    if (!rvt_flow_pull_direct_free(p))
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

/* Blocks a walk knows will repeat (the N-Trace walk: a repeated history,
 * 9.3, that leads from a block back to itself through branches alone
 * gives the same blocks on every copy): the last n blocks it wrote, n - 1
 * closed and the open one, all in the caller's array, are written again
 * `times` times after themselves, as the walk would have built them, with
 * no walk.  rvt_flow_pull_direct_repeats: how many times they fit, 0 when
 * they are not all there (the collector put one in the ring, or an event
 * came). */
static inline size_t rvt_flow_pull_direct_repeats(const rvt_flow_pull *p, size_t n)
{
    if (!n || !p->open || !p->direct || !p->out || p->n || p->n_out >= p->max_out ||
        p->blk != p->out + p->n_out || p->n_out + 1 < n || !p->last)
        return 0;
    return (p->max_out - 1 - p->n_out) / n;
}

/* The first of those n blocks (rvt_flow_pull_direct_repeats > 0). */
static inline const rvt_block *rvt_flow_pull_direct_recent(const rvt_flow_pull *p, size_t n)
{
    return p->out + p->n_out + 1 - n;
}

/* Repeat them (times <= rvt_flow_pull_direct_repeats): the open block
 * closes as the collector closes it (insn_end: its last instruction, the
 * next one at the first block's start), each copy follows, and the last
 * copy's last block stays open when keep_open (what follows it is not
 * known yet: the walk leaves a history word's last block open), else it
 * is closed as the others (another copy follows it). */
static inline void rvt_flow_pull_direct_repeat(rvt_flow_pull *p, size_t n, size_t times,
                                               bool keep_open)
{
    rvt_block *first = p->out + p->n_out + 1 - n;
    uint64_t next_pc = first->start_pc;
    p->blk->end = (uint8_t)rvt_flow_block_end(p->last, p->rules,
                                              next_pc == p->blk->end_pc + p->last->len);
    p->blk->next_pc = next_pc;
    /* doubling: the blocks written so far are copied at once (a copy
     * per call was mostly the call's own start-up cost: a copy is one or
     * two blocks in long.elf) */
    size_t done = 1, total = times + 1;
    while (done < total) {
        size_t now = done < total - done ? done : total - done;
        memcpy(first + done * n, first, now * n * sizeof *first);
        done += now;
    }
    p->n_out += times * n;
    p->blk = p->out + p->n_out;
    if (!keep_open) {
        p->n_out++;
        p->open = false;
    }
}

#endif
