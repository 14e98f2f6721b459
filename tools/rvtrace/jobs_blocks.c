/* The pieces' blocks joined at the seams (jobs_blocks.h; docs/parallel.md
 * "Why the output is the same").  An E-Trace piece's input ends with the
 * next piece's sync packet, whose walk ends on the packet's address S
 * (11.1): S is the piece's last instruction, and the block it is in the
 * piece's last block, L, unless events follow it in that packet (time,
 * context, privilege), which end L there for one decoder too.  The next
 * piece's decoder retires S as its first instruction and seals it
 * (rvt_te_decoder_set_input_piece): its head block [S] ends as one
 * decoder's block holding S ends -- a control transfer, the next event --
 * or RVT_BLK_SEAM where that block goes on into the piece's next block.
 * So L, when it ends its piece's tape, is held back and takes the head's
 * end and next_pc, and after a seam the next block's instructions, end and
 * next_pc; when events end the tape, the head is dropped (L ended on
 * them).  The block sequence is then one decoder's, field for field
 * (tests/unit/test_jobs_blocks.c). */
#include "jobs_blocks.h"

void blk_replay_init(blk_replay *r, rvt_flow_fn on_event, rvt_blocks_fn on_blocks, void *ctx)
{
    *r = (blk_replay){ .on_event = on_event, .on_blocks = on_blocks, .ctx = ctx };
}

/* The blocks waiting, but the last `keep`, to on_blocks. */
static int flush(blk_replay *r, size_t keep)
{
    if (r->n <= keep)
        return 0;
    size_t give = r->n - keep;
    int st = r->on_blocks(r->ctx, r->b, give);
    for (size_t k = 0; k < keep; k++)
        r->b[k] = r->b[give + k];
    r->n = keep;
    return st;
}

/* L goes on with the block after a seam. */
static void run_on(rvt_block *l, const rvt_block *b)
{
    l->ninsn += b->ninsn;
    l->end_pc = b->end_pc;
    l->end = b->end;
    l->next_pc = b->next_pc;
}

/* The held block's end, from the head if the piece has one: true when
 * the piece's first block goes on with it (a seam). */
static bool seam(blk_replay *r, const piece *p)
{
    bool held = r->held;
    r->held = false;
    if (!held)
        return false;
    rvt_block *l = &r->b[r->n - 1];
    if (p->has_head) {
        l->end = p->head.end;
        l->next_pc = p->head.next_pc;
    }
    return l->end == RVT_BLK_SEAM;
}

/* A seam with no block after it (a damaged stream: the next piece's
 * decoder went on otherwise): the held block's end is not known. */
static void no_seam(blk_replay *r, bool *join)
{
    if (*join)
        r->b[r->n - 1].end = RVT_BLK_DISCON;
    *join = false;
}

/* Blocks from the tape at *at into the batch (handed on when full): the
 * first joined to the held one after a seam.  0 or a callback's value. */
static int take_blocks(blk_replay *r, const ev_tape *t, size_t *at, rvt_block *prev, bool *join)
{
    if (*join) {
        rvt_block b;
        ev_tape_next_blocks(t, at, &b, 1, prev);
        run_on(&r->b[r->n - 1], &b);
        *join = false;
    }
    int st = 0;
    while (!st && ev_tape_at_block(t, *at)) {
        if (r->n == BLK_BATCH)
            st = flush(r, 0);
        r->n += ev_tape_next_blocks(t, at, r->b + r->n, BLK_BATCH - r->n, prev);
    }
    return st;
}

int blk_replay_piece(blk_replay *r, const piece *p)
{
    bool join = seam(r, p), last_block = false;
    const ev_tape *t = &p->tape;
    rvt_flow_event ev = { 0 };
    rvt_block prev = { 0 };
    size_t at = 0;
    int st = 0;
    while (!st && at < t->n) {
        last_block = ev_tape_at_block(t, at);
        if (last_block) {
            st = take_blocks(r, t, &at, &prev, &join);
        } else {
            no_seam(r, &join);
            ev_tape_next(t, &at, &ev);
            st = flush(r, 0);
            st = st ? st : r->on_event(r->ctx, &ev);
        }
    }
    no_seam(r, &join);
    r->held = !st && !p->last && last_block;
    return st ? st : flush(r, r->held ? 1 : 0);
}

int blk_replay_finish(blk_replay *r)
{
    r->held = false;
    return flush(r, 0);
}
