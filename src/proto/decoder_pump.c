/* The pull API driven to the end with callbacks (proto.h
 * rvt_proto_decoder_pump, rvt_proto_decoder_pump_blocks): what `rvtrace
 * decode` and the bench's output rows feed the writers from, a batch of
 * blocks at a time (issues #17, #18). */
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
 * tells which.  Each batch is pulled into the array room(room_ctx) gives
 * (pump_blocks: an array of its own; pump_into: the caller's). */
static int pump_loop(rvt_proto_decoder *d, rvt_flow_fn on_event, rvt_room_fn room, void *room_ctx,
                     rvt_blocks_fn on_blocks, void *ctx)
{
    for (;;) {
        size_t nev, max = 0;
        int st = events(d, on_event, ctx, &nev);
        if (st)
            return st;
        rvt_block *b = room(room_ctx, &max);
        if (!b || !max)
            return RVT_ERR_INVAL;
        int n = rvt_proto_decoder_next_run(d, b, max);
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
        if (n > 0 && (st = on_blocks(ctx, b, (size_t)n)) != 0)
            return st;
    }
}

int rvt_proto_decoder_pump_into(rvt_proto_decoder *d, rvt_flow_fn on_event, rvt_room_fn room,
                                rvt_blocks_fn on_blocks, void *ctx)
{
    if (!d || !on_event || !room || !on_blocks)
        return RVT_ERR_INVAL;
    return pump_loop(d, on_event, room, ctx, on_blocks, ctx);
}

/* rvt_proto_decoder_pump_blocks: the batches in an array of its own. */
#define PUMP_BATCH 256

typedef struct own_array {
    rvt_block b[PUMP_BATCH];
} own_array;

static rvt_block *own_room(void *arr, size_t *max)
{
    *max = PUMP_BATCH;
    return ((own_array *)arr)->b;
}

int rvt_proto_decoder_pump_blocks(rvt_proto_decoder *d, rvt_flow_fn on_event, rvt_blocks_fn on_blocks,
                                  void *ctx)
{
    if (!d || !on_event || !on_blocks)
        return RVT_ERR_INVAL;
    own_array arr;
    return pump_loop(d, on_event, own_room, &arr, on_blocks, ctx);
}

/* rvt_proto_decoder_pump's callbacks behind pump_blocks: a batch to
 * on_block one block at a time. */
typedef struct one_by_one {
    rvt_flow_fn on_event;
    rvt_block_fn on_block;
    void *ctx;
} one_by_one;

static int each_event(void *ctx, const rvt_flow_event *ev)
{
    const one_by_one *o = ctx;
    return o->on_event(o->ctx, ev);
}

static int each_block(void *ctx, const rvt_block *b, size_t n)
{
    const one_by_one *o = ctx;
    for (size_t i = 0; i < n; i++) {
        int st = o->on_block(o->ctx, &b[i]);
        if (st)
            return st;
    }
    return 0;
}

int rvt_proto_decoder_pump(rvt_proto_decoder *d, rvt_flow_fn on_event, rvt_block_fn on_block, void *ctx)
{
    if (!d || !on_event || !on_block)
        return RVT_ERR_INVAL;
    one_by_one o = { on_event, on_block, ctx };
    return rvt_proto_decoder_pump_blocks(d, each_event, each_block, &o);
}
