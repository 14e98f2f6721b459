/* The pull API driven to the end with callbacks (proto.h
 * rvt_proto_decoder_pump): what `rvtrace decode` and the bench's output
 * rows feed the writers from, a block at a time (issue #18). */
#include "rvtrace/proto.h"

/* Whether an event may come between block b and the next one.  A block
 * that ended at its own last instruction (a branch, jump, call, return,
 * or a discontinuity the instruction does not explain: rvt_block_end up
 * to RVT_BLK_DISCON, flow.h) ended because the next instruction retired
 * elsewhere, so the next block follows at once; the other ends are the
 * events that closed it.  Asking next_event only then saves a call per
 * block (a tenth of the E-Trace pull loop's time on long.elf). */
static bool event_may_follow(const rvt_block *b)
{
    return b->end > RVT_BLK_DISCON || b->end < RVT_BLK_BRANCH_TAKEN;
}

/* The events queued before the next block: 0, a callback's value, or a
 * negative status. */
static int events(rvt_proto_decoder *d, rvt_flow_fn on_event, void *ctx)
{
    rvt_flow_event ev;
    int st;
    while ((st = rvt_proto_decoder_next_event(d, &ev)) > 0) {
        int rc = on_event(ctx, &ev);
        if (rc)
            return rc;
    }
    return st;
}

int rvt_proto_decoder_pump(rvt_proto_decoder *d, rvt_flow_fn on_event, rvt_block_fn on_block, void *ctx)
{
    if (!d || !on_event || !on_block)
        return RVT_ERR_INVAL;
    rvt_block b = { .end = RVT_BLK_EVENT };     /* events may come first */
    int st;
    for (;;) {
        if (event_may_follow(&b) && (st = events(d, on_event, ctx)) != 0)
            return st;
        if ((st = rvt_proto_decoder_next_block(d, &b)) <= 0)
            break;
        if ((st = on_block(ctx, &b)) != 0)
            return st;
    }
    /* no block left: any event still queued (none when the last block
     * ended for its events, taken above) */
    return st < 0 ? st : events(d, on_event, ctx);
}
