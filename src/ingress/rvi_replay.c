/* Stream a whole .rvi file into a sink, batching blocks so the consumer
 * sees arrays (rvt_rvi_reader_blocks); a batch stops before a data record
 * so every access still follows the block of its instruction (ingress.h).
 * Given a taker of steps, each run record's steps go to it in one call
 * instead of a record each to the sink. */
#include "rvtrace/ingress.h"
#include "ingress/rvi_runs.h"

#define REPLAY_BATCH 1024

int rvt_rvi_replay(const char *path, const rvt_irec_sink *sink, rvt_diag_fn diag,
                   void *diag_ctx)
{
    return rvt_rvi_replay_steps(path, sink, NULL, diag, diag_ctx);
}

int rvt_rvi_replay_steps(const char *path, const rvt_irec_sink *sink, const rvt_irec_steps *runs,
                         rvt_diag_fn diag, void *diag_ctx)
{
    int rc;
    rvt_rvi_reader *r = rvt_rvi_reader_open_diag(path, diag, diag_ctx, &rc);
    if (!r)
        return rc;
    rvt_irec batch[REPLAY_BATCH];
    rvt_drec d;
    bool is_data;
    size_t n, steps;
    uint8_t sizes[RVI_RUN_MAX / 8];
    if (runs && !runs->steps)
        runs = NULL;
    if (runs)
        rvi_reader_keep_runs(r);
    do {
        /* the records before a bad one are good (ingress.h) */
        int got = rvt_rvi_reader_blocks(r, batch, REPLAY_BATCH, &n);
        rc = n ? sink->put(sink->ctx, batch, n) : RVT_OK;
        if (rc == RVT_OK)
            rc = got;
        if (rc == 1 && runs && (steps = rvi_reader_take_run(r, &batch[0], sizes))) {
            int st = runs->steps(runs->ctx, &batch[0], steps, sizes);
            rc = st < 0 ? st : 1;
            continue;
        }
        if (rc == 1 && n < REPLAY_BATCH &&
            (rc = rvt_rvi_reader_next(r, batch, &d, &is_data)) > 0) {
            int st = is_data ? (sink->data ? sink->data(sink->ctx, &d, 1) : RVT_OK)
                             : sink->put(sink->ctx, batch, 1);
            rc = st < 0 ? st : 1;
        }
    } while (rc > 0);
    if (rc == 0 && sink->end)
        rc = sink->end(sink->ctx);
    rvt_rvi_reader_close(r);
    return rc;
}
