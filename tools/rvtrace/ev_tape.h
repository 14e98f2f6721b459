/* A compact, replayable record of flow events (ev_tape.c): what a piece
 * decoded on a worker thread hands to the thread that writes the output
 * (decode_jobs.c).  Runs of RVT_EV_INSN that differ from the event before
 * only in pc take a byte or two each (the PC step, zigzag varint). */
#ifndef RVT_EV_TAPE_H
#define RVT_EV_TAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rvtrace/out.h"

typedef struct ev_tape {
    uint8_t *b;
    size_t n, cap;
    char **msgs;            /* copies of the events' texts */
    size_t nmsg, msg_cap;
    rvt_flow_event last;    /* the last event put (pc included) */
    bool failed;            /* out of memory: the tape is incomplete */
} ev_tape;

void ev_tape_put(ev_tape *t, const rvt_flow_event *ev);
/* Drop everything from byte `at` on (a position ev_tape_put left at
 * t->n); later puts restart from a full event. */
void ev_tape_cut(ev_tape *t, size_t at);
/* The event at byte *at into *ev, *at moved past it; false at the end.
 * Start with *at 0 and keep *ev between calls (a STEP is relative to it). */
bool ev_tape_next(const ev_tape *t, size_t *at, rvt_flow_event *ev);
/* Every event in order to fn; stops at fn's nonzero return (returned). */
int ev_tape_replay(const ev_tape *t, rvt_flow_fn fn, void *ctx);
void ev_tape_free(ev_tape *t);

#endif
