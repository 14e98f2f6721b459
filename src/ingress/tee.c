/* Fan-out sink: one producer (the hart, an importer) feeding several
 * encoders/writers at once. */
#include "rvtrace/ingress.h"

void rvt_irec_tee_init(rvt_irec_tee *tee)
{
    tee->n = 0;
}

int rvt_irec_tee_add(rvt_irec_tee *tee, const rvt_irec_sink *sink)
{
    if (tee->n >= RVT_TEE_MAX)
        return RVT_ERR_LIMIT;
    tee->out[tee->n++] = *sink;
    return RVT_OK;
}

static int tee_put(void *ctx, const rvt_irec *recs, size_t n)
{
    rvt_irec_tee *tee = ctx;
    for (size_t i = 0; i < tee->n; i++) {
        int rc = tee->out[i].put(tee->out[i].ctx, recs, n);
        if (rc < 0)
            return rc;
    }
    return RVT_OK;
}

static int tee_data(void *ctx, const rvt_drec *recs, size_t n)
{
    rvt_irec_tee *tee = ctx;
    for (size_t i = 0; i < tee->n; i++) {
        if (!tee->out[i].data)
            continue;
        int rc = tee->out[i].data(tee->out[i].ctx, recs, n);
        if (rc < 0)
            return rc;
    }
    return RVT_OK;
}

static int tee_end(void *ctx)
{
    rvt_irec_tee *tee = ctx;
    int first_err = RVT_OK;
    for (size_t i = 0; i < tee->n; i++) {
        if (!tee->out[i].end)
            continue;
        int rc = tee->out[i].end(tee->out[i].ctx);
        if (rc < 0 && first_err == RVT_OK)
            first_err = rc;
    }
    return first_err;
}

rvt_irec_sink rvt_irec_tee_sink(rvt_irec_tee *tee)
{
    rvt_irec_sink s = { tee, tee_put, tee_data, tee_end };
    return s;
}
