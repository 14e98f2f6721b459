/* A compact, replayable record of flow events (ev_tape.c): what a piece
 * decoded on a worker thread hands to the thread that writes the output
 * (decode_jobs.c).  Runs of RVT_EV_INSN that differ from the event before
 * only in pc take a byte or two each (the PC step, zigzag varint).  A
 * piece that pulls blocks (flow.h) keeps them between its events, a few
 * bytes each: what follows from the block before is left out. */
#ifndef RVT_EV_TAPE_H
#define RVT_EV_TAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rvtrace/flow.h"
#include "rvtrace/out.h"

typedef struct ev_tape {
    uint8_t *b;
    size_t n, cap;
    char **msgs;            /* copies of the events' texts */
    size_t nmsg, msg_cap;
    rvt_flow_event last;    /* the last event put (pc included) */
    rvt_block lastb;        /* the last block put */
    bool failed;            /* out of memory: the tape is incomplete */
} ev_tape;

void ev_tape_put(ev_tape *t, const rvt_flow_event *ev);
/* Blocks b[0..n), their offsets moved by adj. */
void ev_tape_put_blocks(ev_tape *t, const rvt_block *b, size_t n, uint64_t adj);
/* Drop everything from byte `at` on (a position ev_tape_put left at
 * t->n); later puts restart from a full event. */
void ev_tape_cut(ev_tape *t, size_t at);
/* The event at byte *at into *ev, *at moved past it; false at the end.
 * Start with *at 0 and keep *ev between calls (a STEP is relative to it). */
bool ev_tape_next(const ev_tape *t, size_t *at, rvt_flow_event *ev);
/* Whether the record at byte `at` is a block's. */
bool ev_tape_at_block(const ev_tape *t, size_t at);
/* The blocks from byte *at on, up to max of them, into out, *at moved
 * past them: how many (0: an event's record, or the end, is at *at).
 * *prev is the block before (zero at the start), kept between calls: a
 * record is relative to it.  Events are read with ev_tape_next, whose
 * *ev blocks do not change. */
size_t ev_tape_next_blocks(const ev_tape *t, size_t *at, rvt_block *out, size_t max,
                           rvt_block *prev);
/* Every event in order to fn; stops at fn's nonzero return (returned). */
int ev_tape_replay(const ev_tape *t, rvt_flow_fn fn, void *ctx);
void ev_tape_free(ev_tape *t);

#endif
