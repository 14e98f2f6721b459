/* The flow-event checker shared by the flow-decoder fuzz targets: events
 * are well-formed, offsets lie inside the stream, errors carry text, and
 * output stays proportional to input (a decoder that turns a few bytes into
 * an unbounded instruction stream -- e.g. a huge count or a jump-to-self
 * followed forever -- is a hang waiting to happen). */
#ifndef RVT_FUZZ_FLOW_H
#define RVT_FUZZ_FLOW_H

#include "fuzz.h"
#include "rvtrace/out.h"

/* Instructions a decoder may emit per input byte before we call it
 * runaway: far above any real trace's ratio (E-Trace and N-Trace average
 * well under 1 bit per instruction; 1000 per byte is 0.008 bits). */
#define RVT_FUZZ_MAX_INSN_PER_BYTE 1000u
#define RVT_FUZZ_MAX_INSN_FLOOR 100000u

/* A runaway aborts (a finding), unless RVT_FUZZ_STOP_RUNAWAY=1 is set in
 * the environment: then the callback stops the decoder (the API's nonzero
 * return) so that a campaign can go on past a known, reported runaway. */
static inline bool rvt_fuzz_stop_runaway(void)
{
    static int v = -1;
    if (v < 0) {
        const char *e = getenv("RVT_FUZZ_STOP_RUNAWAY");
        v = e && *e == '1';
    }
    return v;
}

typedef struct rvt_fuzz_flow {
    uint64_t len;          /* stream bytes */
    uint64_t insns, errors, losses, syncs, events;
    bool ended;
} rvt_fuzz_flow;

static inline int rvt_fuzz_flow_event(void *ctx, const rvt_flow_event *ev)
{
    rvt_fuzz_flow *f = ctx;
    RVT_FUZZ_ASSERT(ev != NULL && ev->kind <= RVT_EV_END);
    f->events++;
    switch (ev->kind) {
    case RVT_EV_INSN:
        f->insns++;
        if (f->insns > RVT_FUZZ_MAX_INSN_FLOOR + RVT_FUZZ_MAX_INSN_PER_BYTE * f->len) {
            if (rvt_fuzz_stop_runaway())
                return 1;
            RVT_FUZZ_ASSERT(!"runaway: instructions out of proportion to the input");
        }
        break;
    case RVT_EV_ERROR:
        f->errors++;
        RVT_FUZZ_ASSERT(ev->msg != NULL && strlen(ev->msg) < 4096);
        RVT_FUZZ_ASSERT(ev->offset <= f->len);
        break;
    case RVT_EV_LOST:
        f->losses++;
        RVT_FUZZ_ASSERT(ev->offset <= f->len);
        break;
    case RVT_EV_SYNC:
        f->syncs++;
        break;
    case RVT_EV_END:
        f->ended = true;
        break;
    default:
        break;
    }
    /* Non-instruction events are bounded by the input too. */
    RVT_FUZZ_ASSERT(f->events - f->insns <= 64u + 64u * f->len);
    return 0;
}

#endif
