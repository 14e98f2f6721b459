/* Writes blocks as the E-Trace reference flow's encoder-input CSV, in the
 * layout its post-iss writes (docs/format-import.md), so that rvtrace
 * imports and the reference encoder can be fed the same rows. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "ingress/csv_out.h"
#include "rvtrace/ingress.h"
#include "rvtrace/isa.h"

struct rvt_refcsv_writer {
    csv_out out;
    unsigned flags;
    int err;
};

rvt_refcsv_writer *rvt_refcsv_writer_open(const char *path, unsigned flags, int *status)
{
    rvt_refcsv_writer *w = calloc(1, sizeof *w);
    int st = RVT_OK;
    if (!w) {
        st = RVT_ERR_NOMEM;
    } else {
        w->flags = flags;
        if (!csv_out_open(&w->out, path, flags & RVT_REFCSV_TIME_SIJUMP
                ? "itype_0,cause,tval,priv,iaddr_0,context,time,ctype,sijump_0,iretire_0,ilastsize_0\n"
                : "itype_0,cause,tval,priv,iaddr_0,context,ctype,iretire_0,ilastsize_0\n")) {
            st = RVT_ERR_IO;
            free(w);
            w = NULL;
        }
    }
    if (status)
        *status = st;
    return w;
}

static int put_row(rvt_refcsv_writer *w, const rvt_irec *r)
{
    if (r->ninstr > 1)
        return RVT_ERR_RANGE;    /* table 4.3: iretire_0 is one bit */
    unsigned itype = r->itype;
    /* Table 4.1: 8..15 exist only in 4-bit form; 0..7 read the same. */
    if ((w->flags & RVT_REFCSV_ITYPE3) && itype > 7)
        itype = rvt_isa_itype3((rvt_itype)itype);
    fprintf(w->out.f, "%u,%u,%" PRIx64 ",%u,%" PRIx64 ",%" PRIu64 ",", itype, r->cause, r->tval,
            r->priv, r->iaddr, r->context);
    if (w->flags & RVT_REFCSV_TIME_SIJUMP)
        fprintf(w->out.f, "%" PRIu64 ",%u,%u,", r->time, r->ctype, r->sijump);
    else
        fprintf(w->out.f, "%u,", r->ctype);
    fprintf(w->out.f, "%u,%u\n", r->ninstr, r->ilastsize);
    return RVT_OK;
}

static int w_put(void *ctx, const rvt_irec *recs, size_t n)
{
    rvt_refcsv_writer *w = ctx;
    for (size_t i = 0; i < n && w->err == RVT_OK; i++)
        w->err = put_row(w, &recs[i]);
    return w->err;
}

static int w_end(void *ctx)
{
    rvt_refcsv_writer *w = ctx;
    return csv_out_flush(&w->out, &w->err);
}

rvt_irec_sink rvt_refcsv_writer_sink(rvt_refcsv_writer *w)
{
    /* Data accesses have no column in this CSV: data() is left NULL. */
    rvt_irec_sink s = { w, w_put, NULL, w_end };
    return s;
}

int rvt_refcsv_writer_close(rvt_refcsv_writer *w)
{
    if (!w)
        return RVT_ERR_INVAL;
    int rc = csv_out_close(&w->out, w->err);
    free(w);
    return rc;
}
