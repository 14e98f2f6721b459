/* Stream a whole .rvi file into a sink, batching blocks so the consumer
 * sees arrays; a data record flushes the blocks before it so every access
 * still follows the block of its instruction (ingress.h). */
#include "rvtrace/ingress.h"

#define REPLAY_BATCH 512

static int flush(const rvt_irec_sink *sink, const rvt_irec *b, size_t *n)
{
    int rc = *n ? sink->put(sink->ctx, b, *n) : RVT_OK;
    *n = 0;
    return rc;
}

int rvt_rvi_replay(const char *path, const rvt_irec_sink *sink, rvt_diag_fn diag,
                   void *diag_ctx)
{
    int rc;
    rvt_rvi_reader *r = rvt_rvi_reader_open_diag(path, diag, diag_ctx, &rc);
    if (!r)
        return rc;
    rvt_irec batch[REPLAY_BATCH];
    size_t n = 0;
    rvt_drec d;
    bool is_data;
    while ((rc = rvt_rvi_reader_next(r, &batch[n], &d, &is_data)) > 0) {
        if (!is_data) {
            if (++n == REPLAY_BATCH && (rc = flush(sink, batch, &n)) < 0)
                break;
            continue;
        }
        if ((rc = flush(sink, batch, &n)) < 0)
            break;
        if (sink->data && (rc = sink->data(sink->ctx, &d, 1)) < 0)
            break;
    }
    if (rc < 0)   /* the records before a bad one are good (ingress.h) */
        (void)flush(sink, batch, &n);
    if (rc == 0)
        rc = flush(sink, batch, &n);
    if (rc == 0 && sink->end)
        rc = sink->end(sink->ctx);
    rvt_rvi_reader_close(r);
    return rc;
}
