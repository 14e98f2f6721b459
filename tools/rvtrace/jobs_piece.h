/* One piece of a stream decoded alone (jobs_piece.c, for decode_jobs.c). */
#ifndef RVT_JOBS_PIECE_H
#define RVT_JOBS_PIECE_H

#include "decode_jobs.h"
#include "ev_tape.h"
#include "jobs_pcl.h"

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
    int src;            /* the decoder's source (N-Trace src_filter,
                           encapsulated E-Trace srcID), -1: every one */
    bool merged;        /* one source of several, merged (jobs_merge.c):
                           the decoder's own transport errors are marked
                           (PIECE_EVF_UNSYNCED) and its end's events start
                           at end_at */
    unsigned rank;      /* merged: its source's place in the index */
    size_t at;          /* its place in the plan (the PC lists' turn) */
    /* results */
    ev_tape tape;
    rvt_block head;     /* blocks (E-Trace): the first block, the point's
                           sync instruction alone (set_input_piece's seam),
                           which the piece before retired: its end and
                           next_pc are for that piece's last block */
    bool has_head;
    pcl_piece *pcl;     /* c->pcl: the piece's parts of the PC lists, its
                           blocks written there, not on the tape */
    uint64_t insns, skipped, messages, wide_icnt, wide_icnt_offset;
    size_t end_at;      /* merged, last: tape position of the end's events */
    uint64_t msg_end;   /* merged, last: where the last whole message ends */
    int status;
    int stopped;        /* direct: the function's nonzero return */
} piece;

/* An internal mark on a merged piece's RVT_EV_ERROR (never passed on): a
 * transport error met while its source was not synchronised, which one
 * decoder of every source reports once, for src 0, and only when no source
 * is synchronised (rvt_nt_dec_stats.unsynced_errors). */
#define PIECE_EVF_UNSYNCED 0x80u

/* Decode p with c's protocol, events onto p->tape. */
void piece_decode(const jobs_cfg *c, piece *p);

#endif
