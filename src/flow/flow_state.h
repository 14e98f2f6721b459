/* The flow decoder's state machine and its one loss policy, shared by the
 * E-Trace and N-Trace decoders (issue #14; OpenCSD's NO_SYNC / WAIT_SYNC /
 * DECODE / RESOLVE).
 *
 * States:
 * - NO_SYNC: no synchronisation seen yet (E-Trace 11.1 start_of_trace,
 *   N-Trace 11.2 before the first sync message);
 * - WAIT_SYNC: the trace stopped (E-Trace 6.5 qual_status ended, N-Trace
 *   7.12 ProgTraceCorrelation) or was lost: nothing is decoded until the
 *   next synchronisation (E-Trace format 3, N-Trace sync message);
 * - DECODE: following the program;
 * - RESOLVE: stopped at a reported address that a later packet may move on
 *   (E-Trace 11.1 inferred_address).
 *
 * Loss policy (docs/architecture.md "Loss and resynchronisation"): a
 * decoding error is an RVT_EV_ERROR where it happens; what was lost is one
 * RVT_EV_LOST where output resumes, at the next synchronisation (pc = its
 * address, offset = its packet/message), or just before RVT_EV_END when
 * the stream ends first.  aux = instructions lost (UINT64_MAX: unknown),
 * aux2 = the protocol's count of what was skipped (E-Trace: packets;
 * N-Trace: I-CNT half-words of the skipped messages, 8.4.2).  Packets or
 * messages that stand for instructions and are skipped while not
 * decoding (NO_SYNC or WAIT_SYNC) are a loss too; an encoder's report of
 * lost trace (E-Trace qual_status trace_lost, N-Trace Error message) is a
 * loss with the encoder's reason.
 *
 * Internal header: include as "flow/flow_state.h". */
#ifndef RVT_FLOW_STATE_H
#define RVT_FLOW_STATE_H

#include <stdbool.h>
#include <stdint.h>

typedef enum rvt_flow_state {
    RVT_FLOW_NO_SYNC = 0,
    RVT_FLOW_WAIT_SYNC,
    RVT_FLOW_DECODE,
    RVT_FLOW_RESOLVE,
} rvt_flow_state;

typedef struct rvt_flow_sync {
    uint8_t state;          /* rvt_flow_state */
    bool lost;              /* a loss since the last synchronisation */
    uint64_t skipped;       /* protocol units skipped since then (LOST aux2) */
    const char *why;        /* the first loss's reason (LOST msg) */
} rvt_flow_sync;

/* Following the program (DECODE or RESOLVE)? */
static inline bool rvt_flow_synced(const rvt_flow_sync *s)
{
    return s->state >= RVT_FLOW_DECODE;
}

/* A loss (decode error, damaged input, encoder's report): wait for the
 * next synchronisation; the first reason is the one reported. */
static inline void rvt_flow_lose(rvt_flow_sync *s, const char *why)
{
    s->state = RVT_FLOW_WAIT_SYNC;
    if (!s->lost) {
        s->lost = true;
        s->why = why;
    }
}

/* The encoder ended the trace on purpose: wait for a sync (a loss not yet
 * reported stays pending). */
static inline void rvt_flow_stop(rvt_flow_sync *s)
{
    s->state = RVT_FLOW_WAIT_SYNC;
}

/* `units` more skipped while not decoding; `instructions` says whether
 * what was skipped stood for retired instructions (a loss by itself). */
static inline void rvt_flow_skip(rvt_flow_sync *s, uint64_t units, bool instructions,
                                 const char *why)
{
    if (instructions)
        rvt_flow_lose(s, why);
    s->skipped += units;
}

/* Take the pending loss report (at a synchronisation or the end): true when
 * there is one, with the skipped count and reason; clears it. */
static inline bool rvt_flow_take_loss(rvt_flow_sync *s, uint64_t *skipped, const char **why)
{
    bool lost = s->lost || s->skipped;
    *skipped = s->skipped;
    *why = s->why;
    s->lost = false;
    s->skipped = 0;
    s->why = 0;
    return lost;
}

#endif
