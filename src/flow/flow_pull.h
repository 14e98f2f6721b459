/* The pull core both flow decoders share (include/rvtrace/flow.h): the
 * decoder's walk sends its rvt_flow_events and straight-line runs to this
 * collector, which turns them into blocks.  During next_blocks a block is
 * built straight in the caller's array (no copy, no queue); what comes
 * after the caller's last wanted block -- the events that follow it, the
 * next block -- waits in a small ring that the next call empties first.
 * A walk that can stop between two blocks (the E-Trace walk: its state
 * is in the decoder, src/etrace/decoder.c) asks rvt_flow_pull_full after
 * each block and stops there: right after a next_blocks batch, and for a
 * caller taking one item at a time (next_block, next_insn, next_event)
 * once PULL_AHEAD items wait (flow_pull.c: stopping per block cost more
 * than the block).  The N-Trace walk writes its blocks into the array
 * itself (flow/flow_pull_direct.h) and stops a history walk (ResourceFull,
 * HREPEAT) when the array is full; an I-CNT span goes to its end, what
 * does not fit waiting in the ring, bounded by the walk limit, not the
 * stream's length.
 *
 * Internal header: include as "flow/flow_pull.h". */
#ifndef RVT_FLOW_PULL_H
#define RVT_FLOW_PULL_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include "rvtrace/flow.h"
#include "flow/flow_insn.h"
#include "image/mem_view.h"

/* Feed the decoder one more packet/message, or go on with the one it
 * stopped in (rvt_flow_pull_full): > 0 fed, 0 input used up (the decoder
 * has sent RVT_EV_END), < 0 an error. */
typedef int (*rvt_flow_step_fn)(void *dec);

/* Contexts kept apart, one per source (N-Trace SRC: at most 12 bits,
 * trTeSrcBits); a source id is taken modulo this.  One decoder of E-Trace
 * decodes one source. */
#define RVT_FLOW_SRCS 4096u

typedef struct rvt_flow_item {
    bool is_block;
    union {
        rvt_block blk;
        rvt_flow_event ev;
    } u;
} rvt_flow_item;

typedef struct rvt_flow_pull {
    const rvt_flow_rules *rules;   /* the protocol's is_call / is_return */
    /* the decoder's instruction-block cache and the memory view it reads
     * (both decoders have the two): an instruction the walk did not name
     * is looked up there, in the space the walk is in now (an
     * RVT_EV_INSN event), or in a queued block's own (next_insn: the walk
     * may have gone on into another source's or context's code, mem.h
     * spaces) */
    rvt_iblocks *bc;
    rvt_dec_mem *mem;
    rvt_flow_step_fn step;         /* NULL: not started (rvt_flow_pull_init) */
    void *dec;
    rvt_block *out;                /* the caller's array (next_blocks) */
    size_t n_out, max_out;         /* blocks in it, room for */
    bool full;                     /* n_out == max_out and `ahead` items came
                                      after: a walk that can stop, stops */
    size_t ahead;
    bool stop_at_event;            /* next_run: an event ends the batch */
    bool direct;                   /* blk is out[n_out], not a ring slot */
    rvt_flow_item *q;              /* ring of cap items, n from head */
    size_t head, n, cap;
    bool open;                     /* blk is being built */
    rvt_block *blk;                /* the open block: out[n_out] or the
                                      ring's tail slot */
    const rvt_insn *last;          /* blk's last instruction (NULL: unknown) */
    uint64_t context[RVT_FLOW_SRCS]; /* per source: the last RVT_EV_CONTEXT's value */
    bool done;                     /* the step function said: no more input */
    int err;                       /* first error (NOMEM) */
    bool sealed;                   /* `seal` waits for what ends it
                                      (rvt_flow_pull_seal) */
    rvt_block seal;
    const rvt_insn *seal_last;     /* seal's last instruction (NULL: unknown) */
    rvt_flow_insn it;              /* next_insn: the block being walked */
    uint64_t it_left;
} rvt_flow_pull;

/* Start the pull API on decoder dec, whose walk then sends its events to
 * rvt_flow_pull_event (with p as the context) and is run by step(dec).
 * A pull never started (zeroed, as in a decoder given no input) answers
 * every next_* call RVT_ERR_STATE: the one check behind both decoders'
 * pull calls (etrace.h, ntrace.h) and the protocol decoder's (proto.h). */
void rvt_flow_pull_init(rvt_flow_pull *p, const rvt_flow_rules *rules, rvt_iblocks *bc,
                        rvt_dec_mem *mem, rvt_flow_step_fn step, void *dec);
/* The pull API drives the decoder (rvt_flow_pull_init was called). */
static inline bool rvt_flow_pull_started(const rvt_flow_pull *p)
{
    return p->step != NULL;
}
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
/* The caller has what it asked for and more has come after it: a walk
 * that can stop between blocks stops here (its step returns, to go on
 * at the next call) rather than fill the ring. */
static inline bool rvt_flow_pull_full(const rvt_flow_pull *p)
{
    return p->full;
}
/* The open block is sealed: it takes no more instructions, and ends with
 * whatever comes next -- an event's or a control transfer's end as usual,
 * RVT_BLK_SEAM when the next instruction would have gone on with it (a
 * piece's first instruction, rvt_te_decoder_set_input_piece).  No open
 * block: nothing happens.  The walk's inline paths see no open block, so
 * the next retirement takes the out-of-line path that ends it. */
void rvt_flow_pull_seal(rvt_flow_pull *p);
/* The pull calls (include/rvtrace/flow.h) of both decoders: RVT_ERR_INVAL
 * when p or out is NULL, then RVT_ERR_STATE when p was not started. */
int rvt_flow_pull_next_block(rvt_flow_pull *p, rvt_block *out);
/* Up to max (>= 1) blocks (rvt_te_decoder_next_blocks): the number got,
 * 0 at the end of the input, or a negative status (one after some blocks
 * were got comes on the next call: p->err stays set). */
int rvt_flow_pull_next_blocks(rvt_flow_pull *p, rvt_block *out, size_t max);
/* next_blocks up to the next event (rvt_te_decoder_next_run): the batch
 * ends before an event, which next_event then gives, so nothing is
 * dropped.  The number got, 0 when an event comes first or the input is
 * used up (next_event tells which), or a negative status. */
int rvt_flow_pull_next_run(rvt_flow_pull *p, rvt_block *out, size_t max);
int rvt_flow_pull_next_insn(rvt_flow_pull *p, rvt_flow_insn *out);
int rvt_flow_pull_next_event(rvt_flow_pull *p, rvt_flow_event *out);

/* A walk that knows what it did (E-Trace next_pc, straight) tells the
 * collector so, and the collector asks no instruction (issue #18):
 * - the control transfer of the open block's last instruction to pc, for
 *   the reason end (rvt_flow_block_end): the block ends, and the
 *   instruction at pc opens the next (`at` gives its offset, priv, src);
 * - n instructions from pc to end_pc (each but the last plain, last the
 *   one at end_pc) retired right after the one at `from`, which is plain,
 *   with no event since: the open block goes on if it ends at `from`. */
static inline void rvt_flow_pull_transfer(rvt_flow_pull *p, rvt_block_end end,
                                          const rvt_flow_event *at, uint64_t pc);
/* rvt_flow_pull_transfer's other cases (no open block, or no room for
 * the next one in the caller's array). */
void rvt_flow_pull_transfer_new(rvt_flow_pull *p, rvt_block_end end, const rvt_flow_event *at,
                                uint64_t pc);
static inline void rvt_flow_pull_run_on(rvt_flow_pull *p, const rvt_flow_event *at, uint64_t from,
                                        uint64_t pc, uint64_t n, uint64_t end_pc,
                                        const rvt_insn *last);

/* Why a block whose last instruction is i ends, when the instruction
 * retired next follows it in memory (sequential) or not. */
static inline rvt_block_end rvt_flow_block_end(const rvt_insn *i, const rvt_flow_rules *r,
                                               bool sequential)
{
    if (rvt_flow_is_branch(i))
        return sequential ? RVT_BLK_BRANCH_NOT_TAKEN : RVT_BLK_BRANCH_TAKEN;
    if (rvt_flow_is_return(i, r))
        return RVT_BLK_RETURN;
    if (rvt_flow_is_call(i, r))
        return RVT_BLK_CALL;
    if (i->jclass != RVT_JC_NONE)
        return RVT_BLK_JUMP;
    return RVT_BLK_DISCON;
}

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

/* The open block is in the caller's array, with room after it for the
 * next. */
static inline bool rvt_flow_pull_room(const rvt_flow_pull *p)
{
    return p->open && p->direct && p->n_out + 1 < p->max_out;
}

/* Write block b whole: n instructions from pc to end_pc, ended for the
 * reason end with next_pc retired next, the rest from tmpl.  Field by
 * field: a struct copy was built in a stack temporary with narrow stores
 * and read back wide, a store-forwarding stall a block. */
static inline void rvt_flow_block_head(rvt_block *b, uint64_t pc, uint64_t n, uint64_t end_pc,
                                       uint64_t next_pc, const rvt_block *tmpl)
{
    b->start_pc = pc;
    b->end_pc = end_pc;
    b->ninsn = n;
    b->next_pc = next_pc;
    memcpy(&b->context, &tmpl->context, sizeof b->context + sizeof b->offset);
}

static inline void rvt_flow_block_whole(rvt_block *b, uint64_t pc, uint64_t n, uint64_t end_pc,
                                        rvt_block_end end, uint64_t next_pc, const rvt_block *tmpl)
{
    rvt_flow_block_head(b, pc, n, end_pc, next_pc, tmpl);
    b->end = (uint8_t)end;
    b->priv = tmpl->priv;
    b->src = tmpl->src;
}

/* A block's end, priv and src, which rvt_block keeps side by side in 4
 * bytes, as one word (its bytes in the struct's order, whatever the
 * host's byte order): rvt_flow_tail_of(tmpl) | rvt_flow_tail_end(end).
 * A walk writing many blocks from one template (the E-Trace run of
 * branches) stores the three at once: one store where three were. */
typedef uint32_t rvt_flow_tail;
_Static_assert(offsetof(rvt_block, priv) == offsetof(rvt_block, end) + 1 &&
               offsetof(rvt_block, src) == offsetof(rvt_block, end) + 2 &&
               sizeof(((rvt_block *)0)->src) == 2, "rvt_block: end, priv, src in 4 bytes");

static inline rvt_flow_tail rvt_flow_tail_bytes(uint8_t end, uint8_t priv, uint16_t src)
{
    uint8_t t[4] = { end, priv };
    memcpy(t + 2, &src, sizeof src);
    rvt_flow_tail w;
    memcpy(&w, t, sizeof w);
    return w;
}

/* tmpl's priv and src, the end 0. */
static inline rvt_flow_tail rvt_flow_tail_of(const rvt_block *tmpl)
{
    return rvt_flow_tail_bytes(0, tmpl->priv, tmpl->src);
}

/* The end reason alone. */
static inline rvt_flow_tail rvt_flow_tail_end(rvt_block_end end)
{
    return rvt_flow_tail_bytes((uint8_t)end, 0, 0);
}

/* rvt_flow_block_whole with the end, priv and src as one word. */
static inline void rvt_flow_block_tailed(rvt_block *b, uint64_t pc, uint64_t n, uint64_t end_pc,
                                         rvt_flow_tail tail, uint64_t next_pc, const rvt_block *tmpl)
{
    rvt_flow_block_head(b, pc, n, end_pc, next_pc, tmpl);
    memcpy(&b->end, &tail, sizeof tail);
}

/* Open block b at pc from tmpl: its first instruction, no end yet. */
static inline void rvt_flow_block_open(rvt_block *b, uint64_t pc, const rvt_block *tmpl)
{
    rvt_flow_block_whole(b, pc, 1, pc, 0, 0, tmpl);
}

/* Close block b for the reason end, the instruction at pc retired next,
 * and open the next block in the slot after it, from tmpl (ninsn 1, its
 * context, offset, priv, src) at pc.  Returns the new block. */
static inline rvt_block *rvt_flow_block_next(rvt_block *b, rvt_block_end end, uint64_t pc,
                                             const rvt_block *tmpl)
{
    b->end = (uint8_t)end;
    b->next_pc = pc;
    rvt_flow_block_open(++b, pc, tmpl);
    return b;
}

/* The context of source src's blocks (rvt_block.context). */
static inline uint64_t rvt_flow_pull_context(const rvt_flow_pull *p, uint16_t src)
{
    return p->context[src & (RVT_FLOW_SRCS - 1)];
}

/* The block the instruction of `at` opens: ninsn 1, no pcs yet. */
static inline rvt_block rvt_flow_pull_opening(const rvt_flow_pull *p, const rvt_flow_event *at)
{
    return (rvt_block){ .ninsn = 1, .context = rvt_flow_pull_context(p, at->src),
                        .offset = at->offset, .priv = at->priv,
                        .src = at->src };
}

/* rvt_flow_pull_transfer when rvt_flow_pull_room.  Inline, as the walk's
 * hot path: the block ends in the caller's array and the next is built in
 * the slot after it (no ring events wait: an event would have closed the
 * open block). */
static inline void rvt_flow_pull_transfer_in(rvt_flow_pull *p, rvt_block_end end,
                                             const rvt_flow_event *at, uint64_t pc)
{
    rvt_block tmpl = rvt_flow_pull_opening(p, at);
    p->blk = rvt_flow_block_next(p->blk, end, pc, &tmpl);
    p->n_out++;
    p->last = NULL;
}

static inline void rvt_flow_pull_transfer(rvt_flow_pull *p, rvt_block_end end,
                                          const rvt_flow_event *at, uint64_t pc)
{
    if (rvt_flow_pull_room(p))
        rvt_flow_pull_transfer_in(p, end, at, pc);
    else
        rvt_flow_pull_transfer_new(p, end, at, pc);
}

/* Whole blocks at once (the E-Trace walk's run of branches, issue #18),
 * written by a walk that keeps its state in locals: a span of the
 * caller's array, from the open block, whose last instruction so far is
 * at pc, to the array's last slot.  rvt_flow_pull_span: false when there
 * is none (the open block is elsewhere, or no room for a second). */
typedef struct rvt_flow_span {
    rvt_block *blk;                /* the open block */
    rvt_block *last;               /* the array's last slot */
    rvt_block tmpl;                /* what opens a block (rvt_flow_pull_opening) */
} rvt_flow_span;

static inline bool rvt_flow_pull_span(const rvt_flow_pull *p, uint64_t pc, const rvt_flow_event *at,
                                      rvt_flow_span *s)
{
    if (!rvt_flow_pull_room(p) || p->blk->end_pc != pc)
        return false;
    s->blk = p->blk;
    s->last = p->out + p->max_out - 1;
    s->tmpl = rvt_flow_pull_opening(p, at);
    return true;
}

/* Room in the span for a block after the open one. */
static inline bool rvt_flow_span_room(const rvt_flow_span *s)
{
    return s->blk < s->last;
}

/* The open block goes on with n instructions to end_pc, whose control
 * transfer (end) goes to pc, where the next block opens
 * (rvt_flow_span_room): rvt_flow_pull_run_on, then
 * rvt_flow_pull_transfer. */
static inline void rvt_flow_span_block(rvt_flow_span *s, uint64_t n, uint64_t end_pc,
                                       rvt_block_end end, uint64_t pc)
{
    s->blk->end_pc = end_pc;
    s->blk->ninsn += n;
    s->blk = rvt_flow_block_next(s->blk, end, pc, &s->tmpl);
}

/* Open the block at pc in the span's current slot: after a walk wrote
 * blocks whole (rvt_flow_block_whole) from the open one, opened by the
 * span (rvt_flow_span_block), and moved s->blk past them. */
static inline void rvt_flow_span_open(rvt_flow_span *s, uint64_t pc)
{
    rvt_flow_block_open(s->blk, pc, &s->tmpl);
}

/* The walk wrote its span's blocks: the pull takes them over. */
static inline void rvt_flow_pull_span_end(rvt_flow_pull *p, const rvt_flow_span *s)
{
    if (s->blk == p->blk)
        return;
    p->n_out += (size_t)(s->blk - p->blk);
    p->blk = s->blk;
    p->last = NULL;
}

static inline void rvt_flow_pull_run_on(rvt_flow_pull *p, const rvt_flow_event *at, uint64_t from,
                                        uint64_t pc, uint64_t n, uint64_t end_pc,
                                        const rvt_insn *last)
{
    if (p->open && p->blk->end_pc == from)
        rvt_flow_pull_extend(p, n, end_pc, last);
    else
        rvt_flow_pull_run_new(p, at, pc, n, end_pc, last);
}

#endif
