/* The flow-event checker shared by the flow-decoder fuzz targets: events
 * are well-formed, offsets lie inside the stream, errors carry text, and
 * output stays proportional to input (a decoder that turns a few bytes into
 * an unbounded instruction stream -- e.g. a huge count or a jump-to-self
 * followed forever -- is a hang waiting to happen). */
#ifndef RVT_FUZZ_FLOW_H
#define RVT_FUZZ_FLOW_H

#include "fuzz.h"
#include "rvtrace/out.h"

/* Work cap per input: after RVT_FUZZ_MAX_INSN_FLOOR + RVT_FUZZ_MAX_INSN_PER_BYTE
 * x (stream bytes) instructions the callback asks the decoder to stop.
 * Real traces: the densest trace test_corrupt.c writes is
 * crc_rv32's E-Trace, 20 000 instructions in 303 bytes (66 per byte),
 * N-Trace HTM on sort is 14 per byte,
 * and the ~60 per byte of a tight loop comes from the periodic syncs and
 * counters every encoder sends.  A fuzz input can still ask for far more
 * (a 22-bit I-CNT, an HREPEAT or a branch count is a few bytes for millions
 * of instructions): that is legal compression, not a bug, so the cap stops
 * the input instead of failing it.  It was 100 000 + 1 000/byte, which let
 * one 1 KB input decode 1.1 M instructions and held the flow targets at
 * 100-1 000 exec/s, then 4 096 + 64/byte; at 1 024 + 16/byte the walk no
 * longer dominates (etrace_flow 1.7x faster, same coverage on the corpus);
 * a dense seed is cut short, its packets before the cut still count.
 * What the cap checks instead: the decoder honours the
 * stop (no instruction after the callback returned nonzero).
 * RVT_FUZZ_ABORT_RUNAWAY=1 makes reaching the cap a finding (to hunt
 * decoders that follow code without consuming the input). */
#define RVT_FUZZ_MAX_INSN_PER_BYTE 16u
#define RVT_FUZZ_MAX_INSN_FLOOR 1024u

static inline bool rvt_fuzz_abort_runaway(void)
{
    static int v = -1;
    if (v < 0) {
        const char *e = getenv("RVT_FUZZ_ABORT_RUNAWAY");
        v = e && *e == '1';
    }
    return v;
}

typedef struct rvt_fuzz_flow {
    uint64_t len;          /* stream bytes */
    uint64_t insns, errors, losses, syncs, events;
    bool ended;
    bool stopped;          /* the callback asked the decoder to stop */
    bool blocks;           /* RVT_EV_INSN are blocks: aux instructions, aux2 half-words */
} rvt_fuzz_flow;

static inline int rvt_fuzz_flow_event(void *ctx, const rvt_flow_event *ev)
{
    rvt_fuzz_flow *f = ctx;
    RVT_FUZZ_ASSERT(ev != NULL && ev->kind <= RVT_EV_NOTIFY);
    f->events++;
    switch (ev->kind) {
    case RVT_EV_INSN:
        RVT_FUZZ_ASSERT(!f->stopped);    /* a stop request is honoured */
        /* a block retires instructions of at least one half-word each */
        RVT_FUZZ_ASSERT(!f->blocks || (ev->aux >= 1 && ev->aux2 >= ev->aux));
        f->insns += f->blocks ? ev->aux : 1;
        if (f->insns >= RVT_FUZZ_MAX_INSN_FLOOR + RVT_FUZZ_MAX_INSN_PER_BYTE * f->len) {
            RVT_FUZZ_ASSERT(!rvt_fuzz_abort_runaway() ||
                            !"runaway: instructions out of proportion to the input");
            f->stopped = true;
            return 1;
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
    RVT_FUZZ_ASSERT(f->events - (f->insns < f->events ? f->insns : f->events) <=
                    64u + 64u * f->len);
    return 0;
}

/* Instructions in the blocks a pulling decoder d hands out, 16 a call
 * through next (its protocol's next_blocks); UINT64_MAX when a call
 * failed (out of memory under the fuzzer's limit). */
static inline uint64_t rvt_fuzz_blocks_retired(void *d, int (*next)(void *, rvt_block *, size_t))
{
    rvt_block b[16];
    uint64_t n = 0;
    int got;
    while ((got = next(d, b, 16)) > 0)
        for (int i = 0; i < got; i++)
            n += b[i].ninsn;
    rvt_fuzz_check_status(got);
    return got < 0 ? UINT64_MAX : n;
}

#endif
