/* The pull core (flow_pull.h): flow events -> queued blocks and events,
 * and the next_block / next_insn / next_event calls over that queue. */
#include <string.h>
#include "flow/flow_pull.h"
#include "rvtrace/status.h"
#include "util/grow.h"

/* Items the walk may put in the ring past what a one-at-a-time caller
 * (next_block, next_insn, next_event) asked for before it stops: stopping
 * and going on again costs about what a block does, so stopping after
 * every block made that caller a tenth slower than a packet's queue
 * (long.elf, E-Trace: 160 -> 147 M instr/s).  next_blocks stops right
 * after its batch (the caller who cares for speed asks in batches). */
#define PULL_AHEAD 32

void rvt_flow_pull_init(rvt_flow_pull *p, const rvt_flow_rules *rules, rvt_iblocks *bc,
                        rvt_dec_mem *mem, rvt_flow_step_fn step, void *dec)
{
    memset(p, 0, sizeof *p);
    p->rules = rules;
    p->bc = bc;
    p->mem = mem;
    p->step = step;
    p->dec = dec;
}

void rvt_flow_pull_reset(rvt_flow_pull *p)
{
    p->head = p->n = 0;
    p->open = false;
    p->done = false;
    p->err = 0;
    p->it_left = 0;
    p->out = NULL;
    p->n_out = p->max_out = 0;
    p->full = p->direct = false;
    p->sealed = false;
}

void rvt_flow_pull_free(rvt_flow_pull *p)
{
    free(p->q);
    p->q = NULL;
    p->cap = 0;
}

/* The free slot at the ring's tail (NULL: out of memory, p->err says so),
 * filled in place and counted (p->n++) once complete.  A block that waits
 * in the ring is built in its slot: a copy from elsewhere read
 * just-written fields with wider loads, a store-forwarding stall on every
 * block.  Anything put here while the caller's array is full makes the
 * pull full (rvt_flow_pull_full). */
static rvt_flow_item *tail(rvt_flow_pull *p)
{
    if (p->n_out >= p->max_out && p->n + 1 >= p->ahead)
        p->full = true;
    if (p->n == p->cap) {
        size_t old = p->cap;
        /* a power of two (64, doubling): the ring indexes with a mask */
        rvt_flow_item *q = rvt_grow(p->q, &p->cap, p->n + 1, sizeof *q, 64);
        if (!q) {
            p->err = RVT_ERR_NOMEM;
            p->full = true;     /* a walk that can stop, stops */
            return NULL;
        }
        /* unwrap the ring: the items before head move past the old end */
        memcpy(q + old, q, p->head * sizeof *q);
        p->q = q;
    }
    return &p->q[(p->head + p->n) & (p->cap - 1)];
}

/* next_run: an event is queued, so the caller's array takes no more
 * blocks (a later one waits behind the event in the ring) and the walk
 * stops. */
static void event_waits(rvt_flow_pull *p)
{
    p->max_out = p->n_out;
    p->full = true;
}

/* Where a new block is built: the caller's array while it has room (the
 * events queued before it are dropped: flow.h, an event not taken before
 * the next block is), else a ring slot. */
static rvt_block *block_slot(rvt_flow_pull *p)
{
    if (p->n_out < p->max_out) {
        p->head = p->n = 0;     /* the ring holds only events here */
        p->direct = true;
        return &p->out[p->n_out];
    }
    rvt_flow_item *item = tail(p);
    if (!item)
        return NULL;
    item->is_block = true;
    p->direct = false;
    return &item->u.blk;
}

static void open_block(rvt_flow_pull *p, uint64_t pc, const rvt_flow_event *first)
{
    rvt_block *b = block_slot(p);
    if (!b)
        return;
    p->blk = b;
    *b = (rvt_block){ .start_pc = pc, .end_pc = pc, .context = rvt_flow_pull_context(p, first->src),
                      .offset = first->offset, .priv = first->priv, .src = first->src };
    p->open = true;
}

/* The block just written in the slot block_slot gave is complete. */
static void count_block(rvt_flow_pull *p)
{
    if (p->direct)
        p->n_out++;
    else
        p->n++;
}

static void close_block(rvt_flow_pull *p, rvt_block_end end, uint64_t next_pc)
{
    p->blk->end = (uint8_t)end;
    p->blk->next_pc = next_pc;
    p->open = false;
    count_block(p);
}

/* Why a block ends whose last instruction is i (NULL: unknown), at
 * end_pc, when the instruction at next_pc is the next retired. */
static rvt_block_end end_after(const rvt_flow_pull *p, const rvt_insn *i, uint64_t end_pc,
                               uint64_t next_pc)
{
    if (!i)
        return RVT_BLK_DISCON;
    return rvt_flow_block_end(i, p->rules, next_pc == end_pc + i->len);
}

/* Why the open block ends when the instruction at next_pc is the next
 * retired. */
static rvt_block_end insn_end(const rvt_flow_pull *p, uint64_t next_pc)
{
    return end_after(p, p->last, p->blk->end_pc, next_pc);
}

void rvt_flow_pull_seal(rvt_flow_pull *p)
{
    if (!p->open)
        return;
    /* the open block is not counted yet: its slot (in the caller's array
     * or the ring's tail) is free again once copied out */
    p->seal = *p->blk;
    p->seal_last = p->last;
    p->sealed = true;
    p->open = false;
}

/* The sealed block ends (for the reason end, next_pc retired next): it
 * takes the next slot, as a closed block. */
static void unseal(rvt_flow_pull *p, rvt_block_end end, uint64_t next_pc)
{
    p->sealed = false;
    rvt_block *b = block_slot(p);
    if (!b)
        return;
    *b = p->seal;
    b->end = (uint8_t)end;
    b->next_pc = next_pc;
    count_block(p);
}

/* Why the sealed block ends when the instruction at pc is retired next:
 * RVT_BLK_SEAM where an open block would have taken it (its last
 * instruction plain, pc right after it: rvt_flow_pull_run,
 * rvt_flow_pull_run_on), else as insn_end. */
static rvt_block_end seal_end(const rvt_flow_pull *p, uint64_t pc)
{
    const rvt_insn *i = p->seal_last;
    if (i && rvt_flow_is_plain(i) && pc == p->seal.end_pc + i->len)
        return RVT_BLK_SEAM;
    return end_after(p, i, p->seal.end_pc, pc);
}

/* Why the block ends when an event other than an instruction follows. */
static rvt_block_end event_end(unsigned kind)
{
    switch (kind) {
    case RVT_EV_TRAP: return RVT_BLK_TRAP;
    case RVT_EV_INTERRUPT: return RVT_BLK_INTERRUPT;
    case RVT_EV_SYNC: return RVT_BLK_RESYNC;
    case RVT_EV_LOST: case RVT_EV_ERROR: return RVT_BLK_LOSS;
    case RVT_EV_STOP: return RVT_BLK_STOP;
    case RVT_EV_END: return RVT_BLK_END;
    default: return RVT_BLK_EVENT;
    }
}

void rvt_flow_pull_run_new(rvt_flow_pull *p, const rvt_flow_event *first, uint64_t pc, uint64_t n,
                           uint64_t end_pc, const rvt_insn *last)
{
    if (p->sealed)
        unseal(p, seal_end(p, pc), pc);
    else if (p->open)
        close_block(p, insn_end(p, pc), pc);
    open_block(p, pc, first);
    if (p->open)
        rvt_flow_pull_extend(p, n, end_pc, last);
}

void rvt_flow_pull_transfer_new(rvt_flow_pull *p, rvt_block_end end, const rvt_flow_event *at,
                                uint64_t pc)
{
    if (p->sealed)
        unseal(p, end, pc);
    else if (p->open)
        close_block(p, end, pc);
    open_block(p, pc, at);
    if (p->open)
        rvt_flow_pull_extend(p, 1, pc, NULL);
}

int rvt_flow_pull_event(void *pull, const rvt_flow_event *ev)
{
    rvt_flow_pull *p = pull;
    if (ev->kind == RVT_EV_INSN) {
        rvt_flow_pull_run(p, ev, ev->pc, 1, ev->pc, rvt_iblk_insn(p->bc, ev->pc));
        return 0;
    }
    if (p->sealed)
        unseal(p, event_end(ev->kind), p->seal.end_pc);
    else if (p->open)
        close_block(p, event_end(ev->kind), p->blk->end_pc);
    if (ev->kind == RVT_EV_CONTEXT)
        p->context[ev->src & (RVT_FLOW_SRCS - 1)] = ev->aux;
    rvt_flow_item *item = tail(p);
    if (item) {
        item->is_block = false;
        item->u.ev = *ev;
        p->n++;
    }
    if (p->stop_at_event && p->out)
        event_waits(p);
    return 0;
}

/* Run the decoder until the caller has what it asked for and something
 * comes after it (p->full), or the input is used up.  A block is complete
 * once what follows it is known. */
static int run(rvt_flow_pull *p)
{
    while (!p->full && !p->err && !p->done) {
        int st = p->step(p->dec);
        if (st < 0)
            return st;
        if (st == 0) {
            p->done = true;
            if (p->sealed)  /* the decoder ended without RVT_EV_END */
                unseal(p, RVT_BLK_END, p->seal.end_pc);
            else if (p->open)
                close_block(p, RVT_BLK_END, p->blk->end_pc);
        }
    }
    return p->err;
}

static rvt_flow_item *pop(rvt_flow_pull *p)
{
    rvt_flow_item *item = &p->q[p->head];
    p->head = (p->head + 1) & (p->cap - 1);
    p->n--;
    return item;
}

/* A pull call begins: up to max blocks go to out, first those waiting in
 * the ring (the events between them dropped), then the open block moves
 * there if it can, and the walk builds the rest in place. */
static void begin(rvt_flow_pull *p, rvt_block *out, size_t max)
{
    p->out = out;
    p->max_out = max;
    p->n_out = 0;
    p->ahead = max > 1 ? 1 : PULL_AHEAD;
    size_t head = p->head, n = p->n;    /* the ring after the last block taken */
    while (p->n && p->n_out < max) {
        if (p->stop_at_event && !p->q[p->head].is_block) {
            event_waits(p);     /* next_run: the batch ends before it */
            return;
        }
        rvt_flow_item *item = pop(p);
        if (item->is_block) {
            out[p->n_out++] = item->u.blk;
            head = p->head;
            n = p->n;
        }
    }
    /* events after the last block taken, with no block after them (none
     * queued, none open), are not between two blocks: they stay for
     * next_event (the end, an error after the batch's last block) */
    if (!p->n && !p->open) {
        p->head = head;
        p->n = n;
    }
    if (p->open && !p->n && p->n_out < max) {
        out[p->n_out] = *p->blk;
        p->blk = &out[p->n_out];
        p->direct = true;
        p->head = 0;
    }
    p->full = p->n_out >= max && (p->n || p->open);
}

/* A pull call ends: a block still open in the caller's array (the walk
 * stopped on an error) waits in the ring, where the next call finds it. */
static void park(rvt_flow_pull *p)
{
    if (p->open && p->direct) {
        p->max_out = 0;
        rvt_flow_item *item = tail(p);
        if (item) {
            item->is_block = true;
            item->u.blk = *p->blk;
            p->blk = &item->u.blk;
        }
        p->open = item != NULL;
        p->direct = false;
    }
    p->out = NULL;
    p->max_out = p->n_out = 0;
}

/* Whether a pull call may go on: 0, or its status (flow_pull.h). */
static int callable(const rvt_flow_pull *p, const void *out)
{
    if (!p || !out)
        return RVT_ERR_INVAL;
    return rvt_flow_pull_started(p) ? 0 : RVT_ERR_STATE;
}

/* next_blocks, and next_run with stop_at_event */
static int batch(rvt_flow_pull *p, rvt_block *out, size_t max, bool stop_at_event)
{
    int st = callable(p, out);
    if (st)
        return st;
    if (!max)
        return RVT_ERR_INVAL;
    p->it_left = 0;
    if (max > INT32_MAX)
        max = INT32_MAX;
    p->stop_at_event = stop_at_event;
    begin(p, out, max);
    st = run(p);
    size_t n = p->n_out;
    park(p);
    p->stop_at_event = false;
    /* what was got counts; an error comes again next call */
    return n ? (int)n : st;
}

int rvt_flow_pull_next_blocks(rvt_flow_pull *p, rvt_block *out, size_t max)
{
    return batch(p, out, max, false);
}

int rvt_flow_pull_next_run(rvt_flow_pull *p, rvt_block *out, size_t max)
{
    return batch(p, out, max, true);
}
int rvt_flow_pull_next_block(rvt_flow_pull *p, rvt_block *out)
{
    /* a block waiting first in the ring (PULL_AHEAD): no walk to run (a
     * pull not started has none: batch answers it) */
    if (p && out && !p->err && p->n && p->q[p->head].is_block) {
        p->it_left = 0;
        *out = pop(p)->u.blk;
        return 1;
    }
    return rvt_flow_pull_next_blocks(p, out, 1);
}

int rvt_flow_pull_next_insn(rvt_flow_pull *p, rvt_flow_insn *out)
{
    int st = callable(p, out);
    if (st)
        return st;
    if (!p->it_left) {
        rvt_block b;
        st = rvt_flow_pull_next_block(p, &b);
        if (st <= 0)
            return st;
        p->it = (rvt_flow_insn){ .pc = b.start_pc, .context = b.context, .offset = b.offset,
                                 .priv = b.priv, .src = b.src };
        p->it_left = b.ninsn;
    } else {
        /* inside a block every instruction but the last is plain: the next
         * one follows in memory */
        p->it.pc += p->it.insn ? p->it.insn->len : 0;
    }
    /* in the block's own space: the walk may be in another by now */
    p->it.insn = rvt_dec_mem_insn_in(p->mem, p->bc, p->it.pc, p->it.context, p->it.priv,
                                     p->it.src);
    p->it_left--;
    *out = p->it;
    return 1;
}

int rvt_flow_pull_next_event(rvt_flow_pull *p, rvt_flow_event *out)
{
    int st = callable(p, out);
    if (st)
        return st;
    if (p->it_left)
        return 0;       /* the block being walked comes first */
    if (p->err)
        return p->err;
    if (!p->n && !p->open) {
        begin(p, NULL, 0);  /* anything at all is enough */
        st = run(p);
        park(p);
        if (st < 0)
            return st;
    }
    if (!p->n || p->q[p->head].is_block)
        return 0;       /* a block (or nothing) comes first */
    *out = pop(p)->u.ev;
    return 1;
}
