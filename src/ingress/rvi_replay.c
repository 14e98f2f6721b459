/* Stream a whole .rvi file into a sink, batching blocks so the consumer
 * sees arrays (rvt_rvi_reader_blocks); a batch stops before a data record
 * so every access still follows the block of its instruction (ingress.h). */
#include "rvtrace/ingress.h"

#define REPLAY_BATCH 1024

int rvt_rvi_replay(const char *path, const rvt_irec_sink *sink, rvt_diag_fn diag,
                   void *diag_ctx)
{
    int rc;
    rvt_rvi_reader *r = rvt_rvi_reader_open_diag(path, diag, diag_ctx, &rc);
    if (!r)
        return rc;
    rvt_irec batch[REPLAY_BATCH];
    rvt_drec d;
    bool is_data;
    size_t n;
    do {
        /* the records before a bad one are good (ingress.h) */
        int got = rvt_rvi_reader_blocks(r, batch, REPLAY_BATCH, &n);
        rc = n ? sink->put(sink->ctx, batch, n) : RVT_OK;
        if (rc == RVT_OK)
            rc = got;
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
