/* One piece of a stream decoded alone (jobs_piece.c, for decode_jobs.c). */
#ifndef RVT_JOBS_PIECE_H
#define RVT_JOBS_PIECE_H

#include "decode_jobs.h"
#include "ev_tape.h"

typedef struct piece {
    uint64_t from;      /* first byte decoded: an index point, or 0 */
    uint64_t rec;       /* events of bytes before rec are dropped: the
                           piece before decodes that sync unit too */
    uint64_t to;        /* end of the events kept: through the next piece's
                           sync unit, which retires the walk up to it */
    uint64_t state;     /* the support packet / Ownership message to
                           start from, or RVT_INDEX_NONE */
    uint64_t tail;      /* --range end: the sync unit after the range
                           (its retirement is the next range's), or UINT64_MAX */
    uint64_t tail_pc;
    bool last;          /* decodes to the stream's end: its RVT_EV_END counts */
    bool direct;        /* the only piece: events straight to the caller's
                           function, on the caller's thread (no tape) */
    /* results */
    ev_tape tape;
    uint64_t insns, skipped, messages, wide_icnt, wide_icnt_offset;
    int status;
    int stopped;        /* direct: the function's nonzero return */
} piece;

/* Decode p with c's protocol, events onto p->tape. */
void piece_decode(const jobs_cfg *c, piece *p);

#endif
