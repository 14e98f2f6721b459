/* The pull API driven to the end with callbacks (proto.h
 * rvt_proto_decoder_pump): what `rvtrace decode` and the bench's output
 * rows feed the writers from, a block at a time (issue #18). */
#include "rvtrace/proto.h"

/* The events queued before the next block, each to on_event, counted in
 * *got: 0, a callback's nonzero value, or a negative status. */
static int events(rvt_proto_decoder *d, rvt_flow_fn on_event, void *ctx, size_t *got)
{
    rvt_flow_event ev;
    int st;
    *got = 0;
    while ((st = rvt_proto_decoder_next_event(d, &ev)) > 0) {
        int rc = on_event(ctx, &ev);
        if (rc)
            return rc;
        ++*got;
    }
    return st;
}

/* Blocks are taken in batches that end before an event (next_run), so a
 * call serves many blocks and nothing is dropped; when a batch comes back
 * empty, the events come first, or the input is used up: next_event
 * tells which. */
#define PUMP_BATCH 256

int rvt_proto_decoder_pump(rvt_proto_decoder *d, rvt_flow_fn on_event, rvt_block_fn on_block, void *ctx)
{
    if (!d || !on_event || !on_block)
        return RVT_ERR_INVAL;
    rvt_block b[PUMP_BATCH];
    for (;;) {
        size_t nev;
        int st = events(d, on_event, ctx, &nev);
        if (st)
            return st;
        int n = rvt_proto_decoder_next_run(d, b, PUMP_BATCH);
        if (n < 0)
            return n;
        if (n == 0 && nev == 0) {
            /* an empty batch with no event before it: either events
             * follow (the walk stopped at one) or the input is used up */
            if ((st = events(d, on_event, ctx, &nev)) != 0)
                return st;
            if (nev == 0)
                return 0;
        }
        for (int i = 0; i < n; i++)
            if ((st = on_block(ctx, &b[i])) != 0)
                return st;
    }
}
