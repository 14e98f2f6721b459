/* Writes data records as the reference flow's data-trace encoder input
 * (its spike_data_trace CSV, read by data_encoder_model.py):
 *   DRETIRE,DTYPE,DADDR,DSIZE,DATA
 * one row per access, E-Trace 4.4's unified interface: DTYPE as table 4.9
 * (15 for a failed store-conditional), DSIZE log2 of the bytes of DATA.
 * CSRs and atomics report two values in DATA, the store data in the LSBs
 * and the load data or operand in the MSBs (4.4), so their DSIZE is one
 * more than the access's.  A split request is written when its response
 * completes it (the response repeats it, docs/format-rvi.md). */
#include <inttypes.h>
#include <stdlib.h>
#include "ingress/csv_out.h"
#include "rvtrace/ingress.h"

struct rvt_spikedata_writer {
    csv_out out;
    int err;
};

rvt_spikedata_writer *rvt_spikedata_writer_open(const char *path, int *status)
{
    rvt_spikedata_writer *w = calloc(1, sizeof *w);
    int st = RVT_OK;
    if (!w) {
        st = RVT_ERR_NOMEM;
    } else if (!csv_out_open(&w->out, path, "DRETIRE,DTYPE,DADDR,DSIZE,DATA\n")) {
        st = RVT_ERR_IO;
        free(w);
        w = NULL;
    }
    if (status)
        *status = st;
    return w;
}

static bool two_values(const rvt_drec *d)
{
    return d->dtype >= RVT_DTYPE_CSR_RW;    /* CSRs and atomics (table 4.9) */
}

static int put_drec(rvt_spikedata_writer *w, const rvt_drec *d)
{
    if (d->flags & RVT_DREC_F_SPLIT_REQ)
        return RVT_OK;
    unsigned dtype = (d->flags & RVT_DREC_F_SC_FAIL) ? 15u : d->dtype;
    unsigned bits = 8u << (d->dsize & 3);
    int n;
    if (!two_values(d) || dtype == 15) {
        n = fprintf(w->out.f, "1,%u,%" PRIx64 ",%u,%" PRIx64 "\n", dtype, d->addr, d->dsize, d->data);
    } else if (bits < 64) {
        uint64_t v = d->data2 << bits | (d->data & ((UINT64_C(1) << bits) - 1));
        n = fprintf(w->out.f, "1,%u,%" PRIx64 ",%u,%" PRIx64 "\n", dtype, d->addr, d->dsize + 1u, v);
    } else if (d->data2) {        /* 128 bits: the MSBs, then 16 digits of LSBs */
        n = fprintf(w->out.f, "1,%u,%" PRIx64 ",%u,%" PRIx64 "%016" PRIx64 "\n", dtype, d->addr,
                    d->dsize + 1u, d->data2, d->data);
    } else {
        n = fprintf(w->out.f, "1,%u,%" PRIx64 ",%u,%" PRIx64 "\n", dtype, d->addr, d->dsize + 1u, d->data);
    }
    return n < 0 ? RVT_ERR_IO : RVT_OK;
}

static int w_put(void *ctx, const rvt_irec *recs, size_t n)
{
    (void)ctx;
    (void)recs;
    (void)n;
    return RVT_OK;                  /* blocks have no row here */
}

static int w_data(void *ctx, const rvt_drec *recs, size_t n)
{
    rvt_spikedata_writer *w = ctx;
    for (size_t i = 0; i < n && w->err == RVT_OK; i++)
        w->err = put_drec(w, &recs[i]);
    return w->err;
}

static int w_end(void *ctx)
{
    rvt_spikedata_writer *w = ctx;
    return csv_out_flush(&w->out, &w->err);
}

rvt_irec_sink rvt_spikedata_writer_sink(rvt_spikedata_writer *w)
{
    rvt_irec_sink s = { w, w_put, w_data, w_end };
    return s;
}

int rvt_spikedata_writer_close(rvt_spikedata_writer *w)
{
    if (!w)
        return RVT_ERR_INVAL;
    int rc = csv_out_close(&w->out, w->err);
    free(w);
    return rc;
}
