/* The pieces' blocks handed on in batches (jobs_blocks.c, for
 * decode_jobs.c): each piece's tape of blocks and events, in plan order,
 * joined at the seams into one decoder's block sequence. */
#ifndef RVT_JOBS_BLOCKS_H
#define RVT_JOBS_BLOCKS_H

#include "jobs_piece.h"

#define BLK_BATCH 256

typedef struct blk_replay {
    rvt_flow_fn on_event;
    rvt_blocks_fn on_blocks;
    void *ctx;
    rvt_block b[BLK_BATCH];     /* blocks not handed on yet */
    size_t n;
    bool held;                  /* b[n - 1] is the last piece's last block:
                                   its end is the next piece's head's */
} blk_replay;

void blk_replay_init(blk_replay *r, rvt_flow_fn on_event, rvt_blocks_fn on_blocks, void *ctx);
/* Piece p's tape, after the pieces before it: 0, or the nonzero value a
 * callback returned (nothing more is handed on). */
int blk_replay_piece(blk_replay *r, const piece *p);
/* What is left (a held block), after the last piece. */
int blk_replay_finish(blk_replay *r);

#endif
