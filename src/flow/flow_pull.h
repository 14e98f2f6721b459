/* The pull core both flow decoders share (include/rvtrace/flow.h): the
 * decoder's walk runs one packet (E-Trace) or message (N-Trace) at a time
 * into this collector, which turns its rvt_flow_events into blocks and
 * keeps them, in order with the other events, in a queue that
 * next_block / next_insn / next_event empty.  The queue holds what one
 * packet or message produced: a block per control transfer, bounded by
 * the decoder's walk limit, not the stream's length.
 *
 * Internal header: include as "flow/flow_pull.h". */
#ifndef RVT_FLOW_PULL_H
#define RVT_FLOW_PULL_H

#include <stdbool.h>
#include <stddef.h>
#include "rvtrace/flow.h"
#include "flow/flow_insn.h"

/* Feed the decoder one more packet/message: > 0 fed, 0 input used up (the
 * decoder has sent RVT_EV_END), < 0 an error. */
typedef int (*rvt_flow_step_fn)(void *dec);
typedef const rvt_insn *(*rvt_flow_lookup_fn)(void *ctx, uint64_t pc);

typedef struct rvt_flow_item {
    bool is_block;
    union {
        rvt_block blk;
        rvt_flow_event ev;
    } u;
} rvt_flow_item;

typedef struct rvt_flow_pull {
    const rvt_flow_rules *rules;   /* the protocol's is_call / is_return */
    rvt_flow_lookup_fn lookup;
    void *lookup_ctx;
    rvt_flow_step_fn step;
    void *dec;
    rvt_flow_item *q;              /* ring of cap items, n from head */
    size_t head, n, cap;
    bool open;                     /* blk is being built */
    rvt_block *blk;                /* the open block, in the ring's tail slot */
    const rvt_insn *last;          /* blk's last instruction (NULL: unknown) */
    uint64_t context;
    bool done;                     /* the step function said: no more input */
    int err;                       /* first error (NOMEM) */
    rvt_flow_insn it;              /* next_insn: the block being walked */
    uint64_t it_left;
} rvt_flow_pull;

void rvt_flow_pull_init(rvt_flow_pull *p, const rvt_flow_rules *rules, rvt_flow_lookup_fn lookup,
                        void *lookup_ctx, rvt_flow_step_fn step, void *dec);
/* Drop what is queued (new input). */
void rvt_flow_pull_reset(rvt_flow_pull *p);
void rvt_flow_pull_free(rvt_flow_pull *p);
/* The collector: an rvt_flow_fn the decoder's walk sends its events to
 * (always returns 0: the walk runs on). */
int rvt_flow_pull_event(void *pull, const rvt_flow_event *ev);
/* The decoder's walk retired n instructions one after the other, from pc
 * to end_pc, each but the last plain; last is the instruction at end_pc
 * (NULL: no code); `at` gives their offset, priv and src (its pc is not
 * read: a wide load of a just-built event's pc stalled on store
 * forwarding).  A straight-line run of the block cache in one call,
 * instead of an event per instruction (libipt's block decoder; issue #18). */
static inline void rvt_flow_pull_run(rvt_flow_pull *p, const rvt_flow_event *at, uint64_t pc,
                                     uint64_t n, uint64_t end_pc, const rvt_insn *last);
/* rvt_flow_pull_run's other case: the run starts a new block (the open
 * one, if any, ends before it). */
void rvt_flow_pull_run_new(rvt_flow_pull *p, const rvt_flow_event *at, uint64_t pc, uint64_t n,
                           uint64_t end_pc, const rvt_insn *last);
int rvt_flow_pull_next_block(rvt_flow_pull *p, rvt_block *out);
/* Up to max (>= 1) blocks (rvt_te_decoder_next_blocks): the number got,
 * 0 at the end of the input, or a negative status (one after some blocks
 * were got comes on the next call: p->err stays set). */
int rvt_flow_pull_next_blocks(rvt_flow_pull *p, rvt_block *out, size_t max);
int rvt_flow_pull_next_insn(rvt_flow_pull *p, rvt_flow_insn *out);
int rvt_flow_pull_next_event(rvt_flow_pull *p, rvt_flow_event *out);

/* The open block goes on with n more instructions, the last at end_pc. */
static inline void rvt_flow_pull_extend(rvt_flow_pull *p, uint64_t n, uint64_t end_pc,
                                        const rvt_insn *last)
{
    p->blk->end_pc = end_pc;
    p->blk->ninsn += n;
    p->last = last;
}

/* Inline, as the walk's hot path: most runs go on the open block (the
 * E-Trace walk retires a block's first instruction, then the rest of it;
 * a call out of line per run cost a fifth of the block decoder's
 * instructions in callgrind). */
static inline void rvt_flow_pull_run(rvt_flow_pull *p, const rvt_flow_event *at, uint64_t pc,
                                     uint64_t n, uint64_t end_pc, const rvt_insn *last)
{
    if (p->open && p->last && rvt_flow_is_plain(p->last) && at->src == p->blk->src &&
        at->priv == p->blk->priv && pc == p->blk->end_pc + p->last->len)
        rvt_flow_pull_extend(p, n, end_pc, last);
    else
        rvt_flow_pull_run_new(p, at, pc, n, end_pc, last);
}

#endif
